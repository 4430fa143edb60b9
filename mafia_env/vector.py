"""Many games stepped in lockstep: the batched engine API for trainers.

| | |
|---|---|
| Games | ``num_envs`` tables of one variant and one size, each with one acting seat |
| Actions | ``int`` array ``[B]``: the acting seat's flat action index in every game |
| Observations | ``float32 [B, D]`` of every game's acting seat, ``int8 [B, A]`` masks |
| Rewards | ``float32 [B, n]``: every seat's team reward in the games that just ended |

`VectorMafia` drives `mafia_env.engine.game.Game` objects directly with the same
`ActionLayout` and `VectorObserver` as the AEC env, and writes into preallocated arrays.
Game ``i`` draws its seeds exactly as an AEC env reset with ``seed + i`` does, so slot ``i``
plays the same games as ``mafia_env.env(...)`` reset with ``seed=seed + i`` and then reset
with no seed after every game (tests/views/test_vector.py checks this move by move).

A game that ends is reset at once in the same `step`: the returned observation is the first
of the next game, ``dones[b]`` is set, and ``rewards[b]`` holds the finished game's reward
for EVERY seat (+1 win, -1 loss, 0 draw), eliminated players included, so that each seat's
last decision can be credited with its team's result. ``info`` says who acts now (``seat``,
``team``), and for the games that ended: ``winner`` (an `Outcome`, -1 where not done),
``truncated`` and ``teams`` (the finished game's team of every seat).

``backend="c"`` (taken by ``"auto"``, the default, where the C core is built) plays the same
games on the C core, which writes straight into these arrays (`mafia_env.ccore.CoreBatch`);
``"python"`` drives the engine's `Game` objects. ``games`` holds the Python engine's games
only; on the core, `game(b)` gives game ``b`` (its events from the Python engine, replayed).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from mafia_env.actions import ActionLayout
from mafia_env.ccore import CoreBatch, resolve
from mafia_env.engine.game import Game
from mafia_env.engine.rules import Rules
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError, IllegalActionError
from mafia_env.illegal import illegal_mode
from mafia_env.observe import ObsLayout, VectorObserver


class VectorMafia:
    """`num_envs` games of one variant and table size, stepped together."""

    def __init__(
        self,
        variant: str | Rules | GameSpec = "sport",
        num_envs: int = 8,
        num_players: int | None = None,
        seed: int | None = None,
        backend: str = "auto",
        log_events: bool = False,
        **knobs: Any,
    ):
        """`variant` is a variant's name, its `Rules` or a `GameSpec` (`GameSpec.make`);
        `num_players` and the knobs (``roles=[...]`` too) are applied over it. With
        `log_events` the C core keeps each game's event log (the Python engine's games always
        do), which `mafia_env.seat_obs.LazyBelief` reads the belief piece from."""
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ConfigError(f"num_envs must be a positive integer; got {num_envs!r}")
        self.spec = spec = GameSpec.make(variant, num_players, **knobs)
        if illegal_mode(spec.rules, "vector") != "raise":
            raise ConfigError(
                "VectorMafia supports only illegal_action='raise': trainers sample from the mask"
            )
        self.rules = rules = spec.rules
        self.variant = rules.name
        self.n = n = spec.n
        self.deal = None if spec.deal is None else list(spec.deal)
        self.num_envs = B = num_envs
        self.layout = ActionLayout.of(spec)
        self.obs_layout = ObsLayout.of(spec)
        self.backend = resolve(backend, rules, n, spec.obs)
        on_core = self.backend == "c"
        # the belief piece (option belief=...) is filled for every game at once after a step
        # (`mafia_env.belief.store.matrices`); the observers write the plain part before it
        self._piece = self.obs_layout.belief is not None
        plain = ObsLayout.of(spec.with_obs(belief=None)) if self._piece else self.obs_layout
        self._plain = plain.size
        self.observers = [] if on_core else [VectorObserver(rules, n, plain) for _ in range(B)]
        self.obs_size = self.obs_layout.size
        self.action_size = self.layout.size
        base_seed = random.randrange(2**62) if seed is None else seed
        self._rngs = [] if on_core else [random.Random(base_seed + i) for i in range(B)]
        self.games: list[Game] = []
        self._core: CoreBatch | None = None
        self._started = False
        self.obs = np.zeros((B, self.obs_size), dtype=np.float32)
        self._obs_rows = [row[: self._plain] for row in self.obs]  # each row's plain part
        self.masks = np.zeros((B, self.action_size), dtype=np.int8)
        self.rewards = np.zeros((B, n), dtype=np.float32)
        self.dones = np.zeros(B, dtype=bool)
        self.truncated = np.zeros(B, dtype=bool)
        self.winner = np.full(B, -1, dtype=np.int64)
        self.seat = np.zeros(B, dtype=np.int64)
        self.team = np.zeros(B, dtype=np.int64)
        self.teams = np.zeros((B, n), dtype=np.int64)  # team of every seat, current games
        self.done_teams = np.zeros((B, n), dtype=np.int64)  # teams of the games just ended
        self.log_events = bool(log_events)
        if on_core:
            self._core = CoreBatch(self, base_seed, self.log_events)

    # ----------------------------------------------------------------- the API

    def reset(self) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """Start a new game everywhere; return obs [B, D], masks [B, A] and info."""
        self._started = True
        if self._core is not None:
            self._core.reset()
            return self.obs, self.masks, self._info()
        self.games = [self._new_game(b) for b in range(self.num_envs)]
        for b in range(self.num_envs):
            self._write(b)
        self._fill_pieces()
        return self.obs, self.masks, self._info()

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """Apply every game's action; return obs, masks, rewards [B, n], dones [B], info.

        The arrays are reused by the next call: copy what you keep.
        """
        if not self._started:
            raise IllegalActionError("VectorMafia.step before reset(): call reset() first")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise IllegalActionError(
                f"actions must be an integer array of shape ({self.num_envs},); got "
                f"{actions.dtype} {actions.shape}"
            )
        if self._core is not None:  # the core checks the actions first, then steps every game
            bad = self._core.step(actions)
            if bad >= 0:
                self._illegal(bad, actions)
            return self.obs, self.masks, self.rewards, self.dones, self._info()
        rows = np.arange(self.num_envs)
        ok = (actions >= 0) & (actions < self.action_size)
        ok[ok] = self.masks[rows[ok], actions[ok]] == 1
        if not ok.all():
            self._illegal(int(np.flatnonzero(~ok)[0]), actions)
        self.rewards[:] = 0
        self.dones[:] = False
        self.truncated[:] = False
        self.winner[:] = -1
        decoded, shared_mask = self.layout.decoded, self.layout.shared_mask
        obs, masks, seats, teams, observers = (
            self._obs_rows,
            self.masks,
            self.seat,
            self.team,
            self.observers,
        )
        for b, (game, a) in enumerate(zip(self.games, actions.tolist(), strict=True)):
            game.apply(*decoded[a])
            if game.winner is not None or game.offender >= 0:  # `game.over`, inlined
                self._finish(b, game)
                game = self.games[b] = self._new_game(b)
            seat = game.actor  # as `_write`, inlined: once per game and step
            seats[b] = seat
            teams[b] = game.teams[seat]
            observers[b].observe(game, seat, obs[b])
            masks[b] = shared_mask(game)
        self._fill_pieces()
        return self.obs, self.masks, self.rewards, self.dones, self._info()

    def observe(self, b: int, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """Return any seat's observation in game `b` (as the AEC env's observe would)."""
        if out is None:
            out = np.empty(self.obs_size, dtype=np.float32)
        if self._core is not None:
            return self._core.observe(b, seat, out)
        self.observers[b].observe(self.games[b], seat, out[: self._plain])
        if self._piece:
            from mafia_env.belief.store import matrix

            out[self._plain :] = matrix(self.games[b], seat).ravel()
        return out

    def observe_many(self, games: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """Return the observations [k, obs_size] of seats `seats[i]` in games `games[i]`."""
        out = np.empty((len(games), self.obs_size), dtype=np.float32)
        pairs = zip(np.asarray(games).tolist(), np.asarray(seats).tolist(), strict=True)
        for i, (b, seat) in enumerate(pairs):
            self.observe(b, seat, out[i])
        return out

    def game(self, b: int) -> Any:
        """Return game `b` (on the C core, a `mafia_env.ccore.CoreGame` over it)."""
        return self._core.game(b) if self._core is not None else self.games[b]

    # ---------------------------------------------------------------- internals

    def _illegal(self, b: int, actions: np.ndarray) -> None:
        legal = ", ".join(
            f"{i} ({self.layout.describe(int(i))})" for i in np.flatnonzero(self.masks[b])
        )
        raise IllegalActionError(
            f"game {b}: seat {self.seat[b] + 1} cannot take action {int(actions[b])}; "
            f"legal actions: {legal}"
        )

    def _fill_pieces(self) -> None:
        """Write every game's belief piece for its acting seat, in one call."""
        if self._piece:
            from mafia_env.belief.store import matrices

            self.obs[:, self._plain :] = matrices(self.games, self.seat.tolist())

    def _new_game(self, b: int) -> Game:
        # the same draw as MafiaEnv.reset: one 63-bit game seed from the slot's stream
        game = Game(self.rules, self.n, self._rngs[b].getrandbits(63), self.deal)
        self.observers[b].reset(game)
        self.teams[b] = game.teams
        return game

    def _write(self, b: int) -> None:
        game = self.games[b]
        seat = game.actor
        self.seat[b] = seat
        self.team[b] = game.teams[seat]
        self.observers[b].observe(game, seat, self._obs_rows[b])
        self.layout.mask_into(game, self.masks[b])

    def _finish(self, b: int, game: Game) -> None:
        # the AEC env's terminal rewards: every seat gets its team's result
        self.dones[b] = True
        self.truncated[b] = game.truncated
        self.winner[b] = int(game.winner)
        self.done_teams[b] = game.teams
        self.rewards[b] = game.returns()

    def _info(self) -> dict[str, np.ndarray]:
        return {
            "seat": self.seat,
            "team": self.team,
            "teams": self.teams,
            "winner": self.winner,
            "truncated": self.truncated,
            "done_teams": self.done_teams,
        }


__all__ = ["VectorMafia"]
