"""The engine interface the AEC adapter plays through, and the two engines behind it.

`mafia_env.aec.MafiaEnv` keeps PettingZoo's books (agents, rewards, flags, infos, illegal
actions); an `Engine` plays the game. Seats are ints, actions flat indices of the
`ActionLayout`, masks the layout's read-only shared int8 arrays:

| call | |
|---|---|
| ``start(seed, deal)`` | deal and start the game of `seed`; return ``game`` |
| ``play(index)`` | the acting seat's action, if legal: ``(next actor, his mask)``, ``(-1, None)`` |
| | once the game is over; None where it is not legal (nothing is played) |
| ``actor()``, ``mask()`` | the acting seat (-1 once over) and his mask (zeros once over) |
| ``mask_for(seat, turn)`` | the mask `seat` gets for his queued `turn` of the open round |
| ``observe(seat)`` | `seat`'s vector observation: a fresh float32 array, the caller's own |
| ``view(seat, mask)`` | PettingZoo's Dict of it: ``observation`` and ``action_mask``, `mask` |
| | (the acting seat's, or None once over) where `seat` acts, else zeros: one call a move |
| ``foul``, ``remove``, ``terminate`` | the moderator's moves on a seat |
| ``play_default()`` | the acting seat's default action (an illegal action's foul) |
| ``fork()`` | an independent engine at the same point, future included |
| ``game``, ``observer`` | the game (`Game`'s calls: events, roles, records, ``returns()``) and |
| | its `VectorObserver`, for the inspection hooks, text, ``state()`` and the other views |

`PythonEngine` is the reference `mafia_env.engine.Game`; `CoreEngine` the compiled core
(`mafia_env.ccore`), which plays the same game bit for bit. Every move goes through the
engine's calls, never through ``game`` directly: `PythonEngine` keeps the acting seat's mask
between moves.
"""

from __future__ import annotations

from types import MethodType
from typing import Any, Protocol

import numpy as np

from mafia_env.actions import ActionLayout
from mafia_env.ccore import CoreGame, CoreObserver, config, mask_cache, new_core, shared_mask
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import Turn
from mafia_env.engine.roles import Role
from mafia_env.engine.spec import GameSpec
from mafia_env.observe import ObsLayout, VectorObserver

Played = tuple[int, np.ndarray | None] | None  # `Engine.play`'s answer


class Engine(Protocol):
    """One game of Mafia as the AEC adapter drives it (see the module's table)."""

    backend: str
    game: Any
    observer: Any

    def start(self, seed: int, deal: list[Role] | None) -> Any: ...
    def play(self, index: int) -> Played: ...
    def actor(self) -> int: ...
    def mask(self) -> np.ndarray: ...
    def mask_for(self, seat: int, turn: Turn) -> np.ndarray: ...
    def observe(self, seat: int) -> np.ndarray: ...
    def view(self, seat: int, mask: np.ndarray | None) -> dict[str, np.ndarray]: ...
    def foul(self, seat: int) -> None: ...
    def remove(self, seat: int) -> None: ...
    def terminate(self, seat: int) -> None: ...
    def play_default(self) -> None: ...
    def fork(self) -> Engine: ...


class PythonEngine:
    """The Python engine behind the `Engine` calls: a `Game` and its `VectorObserver`."""

    backend = "python"

    def __init__(
        self, spec: GameSpec, layout: ActionLayout, obs_layout: ObsLayout, no_mask: np.ndarray
    ):
        self.rules, self.n = spec.rules, spec.n
        self.layout = layout
        self.no_mask = no_mask
        self.observer = VectorObserver(spec.rules, spec.n, obs_layout)
        self.game: Game | None = None
        self._size = layout.size
        self._mask: np.ndarray | None = None  # the acting seat's, until the next move

    def start(self, seed: int, deal: list[Role] | None) -> Game:
        self.game = game = Game(self.rules, self.n, seed, deal)
        self.observer.reset(game)
        self._mask = None
        return game

    def play(self, index: int) -> Played:
        game = self.game
        mask = self._mask
        if mask is None:
            mask = self.mask()
        if not (0 <= index < self._size and mask[index]):
            return None
        game.apply(*self.layout.decoded[index])
        if game.winner is not None or game.offender >= 0:  # `over`, without the property
            self._mask = None
            return -1, None
        m = self._mask = self.layout.shared_mask(game)
        return game.actor, m

    def actor(self) -> int:
        return -1 if self.game.over else self.game.actor

    def mask(self) -> np.ndarray:
        m = self._mask
        if m is None:
            game = self.game
            m = self.no_mask if game.over else self.layout.shared_mask(game)
            self._mask = m
        return m

    def mask_for(self, seat: int, turn: Turn) -> np.ndarray:
        return self.layout.options_mask(self.game.legal_for(seat, turn))

    def observe(self, seat: int) -> np.ndarray:
        return self.observer.observe(self.game, seat)

    def view(self, seat: int, mask: np.ndarray | None) -> dict[str, np.ndarray]:
        game = self.game
        if mask is None or seat != game.actor:
            mask = self.no_mask
        return {"observation": self.observer.observe(game, seat), "action_mask": mask}

    def foul(self, seat: int) -> None:
        self._mask = None
        self.game.foul(seat)

    def remove(self, seat: int) -> None:
        self._mask = None
        self.game.remove(seat)

    def terminate(self, seat: int) -> None:
        self._mask = None
        self.game.terminate(seat)

    def play_default(self) -> None:
        self._mask = None
        self.game.apply(*self.game.default_action())

    def fork(self) -> PythonEngine:
        other = PythonEngine.__new__(PythonEngine)
        other.__dict__.update(self.__dict__)
        if self.game is not None:
            other.game = self.game.clone()
            other.observer = self.observer.copy()
        return other


class CoreEngine:
    """The C core behind the `Engine` calls: one game of a `_ccore.Core`, bound for the AEC
    env (`Core.aec_bind`): ``play``, ``observe`` and ``view`` are the core's own calls, one
    each a move (``play`` looks the next mask up in the shared cache of read-only masks).
    An observation it hands out is never written again while anyone holds it (a reference, a
    view, a buffer or a weak reference): the core reuses only arrays nobody holds any more.
    ``game`` is a `CoreGame`, ``observer`` a `CoreObserver`; ``fork()`` and ``pickle`` copy
    the core's state whole."""

    backend = "c"

    def __init__(
        self, spec: GameSpec, layout: ActionLayout, obs_layout: ObsLayout, no_mask: np.ndarray
    ):
        config(spec.rules, spec.n)  # the core plays these rules (checked by the caller too)
        self.rules, self.n = spec.rules, spec.n
        self.layout, self.obs_layout = layout, obs_layout
        self.no_mask = no_mask
        self.game: Any = None
        self._seed, self._deal = None, None  # the game's: a pickled copy's shadow replays them
        self._masks = mask_cache(layout)
        self._bind()

    def _bind(self, core: Any = None) -> None:
        """Play on `core` (a new one by default), bound for the AEC calls: the observations it
        hands out are fresh arrays (copies of its own template), the masks the shared ones."""
        if core is None:
            core = new_core(self.rules, self.n, 1)
        template = np.zeros(self.obs_layout.size, np.float32)
        core.aec_bind(template, self._masks, shared_mask, self.no_mask)
        self.core = core
        # `Engine.play(index)` is ``core.aec_play(0, index)`` (game 0 of the core): a method
        # bound to the 0, which the interpreter calls as the core's own call, where a
        # functools.partial would cost a call more; `observe` and `view` the same
        self.play = MethodType(core.aec_play, 0)
        self.observe = MethodType(core.aec_observe, 0)
        self.view = MethodType(core.aec_obs_dict, 0)
        self.observer = CoreObserver(self)  # it reads .core, .game, .rules, .n, .obs_layout

    def start(self, seed: int, deal: list[Role] | None) -> Any:
        self.core.start(0, seed, None if deal is None else tuple(int(r) for r in deal))
        self._seed, self._deal = seed, deal
        self.game = CoreGame(self.core, 0, self.rules, self.n, seed, deal)
        return self.game

    def actor(self) -> int:
        return self.core.actor(0)

    def mask(self) -> np.ndarray:
        return self.core.aec_mask(0)

    def mask_for(self, seat: int, turn: Turn) -> np.ndarray:
        return shared_mask(self._masks, self.core.mask_for(0, seat, int(turn)))

    def foul(self, seat: int) -> None:
        self.core.foul(0, seat)

    def remove(self, seat: int) -> None:
        self.core.remove(0, seat)

    def terminate(self, seat: int) -> None:
        self.core.terminate(0, seat)

    def play_default(self) -> None:
        self.game.apply(*self.game.default_action())

    def fork(self) -> CoreEngine:
        """Return an engine on a copy of the core (a shadow Python game, if made, cloned)."""
        other = CoreEngine.__new__(CoreEngine)
        other.__dict__.update(self.__dict__)
        other._bind(self.core.fork(0))
        if self.game is not None:
            other.game = self.game._copy(other.core)
        return other

    def __getstate__(self) -> dict[str, Any]:
        drop = ("core", "play", "observe", "view", "observer", "game", "_masks")
        state = {k: v for k, v in self.__dict__.items() if k not in drop}
        if self.game is not None:
            state["_core_state"] = self.core.get_state(0)
            state["_talk"] = self.game.talk
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        saved = state.pop("_core_state", None)
        talk = state.pop("_talk", None)
        self.__dict__.update(state)
        self._masks = mask_cache(self.layout)
        self.game = None
        self._bind()
        if saved is not None:
            self.core.set_state(0, saved)
            self.game = CoreGame(self.core, 0, self.rules, self.n, self._seed, self._deal, talk)


__all__ = ["CoreEngine", "Engine", "Played", "PythonEngine"]
