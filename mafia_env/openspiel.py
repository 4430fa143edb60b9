"""Mafia as an OpenSpiel game: ``python_mafia`` (extra ``openspiel``: ``open-spiel==2.0.2``).

Importing this module registers the game with pyspiel, in the manner of OpenSpiel's own
Python games (``open_spiel/python/games/kuhn_poker.py``)::

    import pyspiel
    import mafia_env.openspiel  # registers python_mafia
    game = pyspiel.load_game("python_mafia", {"variant": "sport", "num_players": 10})

=========================  ==============================================================
Players                    the table size (``num_players``; 0: the variant's default)
Dynamics                   sequential, imperfect information, explicit stochastic chance
Actions                    the flat action space of the AEC env (`mafia_env.actions`)
Chance                     the deal: one chance node per seat (see below)
Returns                    terminal only: +1 for the winning team, -1 for the others, 0 a draw
Information-state tensor   the seat's vector observation of the AEC env, unchanged
Observation tensor         the same vector
Information-state string   every event the seat saw, in order (perfect recall)
Observation string         the vector's nonzero entries, piece by piece (no recall)
=========================  ==============================================================

Parameters: ``variant`` (``sport``, ``city``, ``club``, ``online``, ``forum``, ``minimal``),
``num_players``, ``seed`` (see below) and ``knobs``: the variant's knobs as
``name:value`` pairs joined by ``;``, a space inside a value written ``+``
(``"knobs": "max_days:4;night_order:mafia+don+sheriff"``); ``true``, ``false``, ``null``
and integers are read as such. Unknown knobs are an error, as in ``mafia_env.env``.

Chance and hidden randomness
----------------------------
- The deal is chance: seat 1, then seat 2, ... each draws a role from what is left of the
  variant's role table, with probability proportional to the copies left (an outcome is an
  index into the spec's roles), so every deal is as likely as the engine's shuffle makes it.
  After the last draw the engine's `Game` is built with that deal. Nobody observes a draw;
  each seat learns its own role (and the mafia their team) from the game's first events.
- The engine keeps one more source of randomness, `Game.rng`, which MINIMAL's random
  tie-break and FORUM's lot among hunters draw from. It is kept as a seeded part of the
  state, not as chance nodes: the game's ``seed`` parameter (default 0) seeds it, so a
  history of actions fixes the state (which OpenSpiel's serialization, a replay of the
  history, needs). `resample_from_infostate` re-draws it, as it does the hidden roles: the
  players cannot know it.
- `resample_from_infostate(player, sampler)` draws a world from the player's belief
  (`mafia_env.infoset.sample`, the sampler every search shares: uniform over the deals the
  player cannot rule out; with `model=` a policy, or the game's attribute `belief_model`
  set, from the player's posterior under that policy, `mafia_env.belief`): the roles the
  player does not know are dealt again, the others' hidden night choices are searched
  under the new deal, and the result is a state whose history is the new deal and the
  replayed actions, in the player's information set (same information-state string and
  tensor, same player to act). The sampler's one uniform draw seeds the draw; nothing of
  the real deal or of its hidden choices reaches the world.

The tensors are the AEC env's vector observation (`mafia_env.observe.VectorObserver`), so
that a network trained on one plays the other: a summary of the history rather than the
history itself (the information-state string is the perfect-recall form). Before the deal
is complete it is all zeros but for the seat's one-hot.

Version history: 0 (first release).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as e:  # the extra: one line that names it, not a bare ModuleNotFoundError
    from mafia_env.errors import missing_extra

    raise missing_extra(e, "mafia_env.openspiel") from None

from mafia_env.actions import ActionLayout
from mafia_env.belief import BeliefError
from mafia_env.belief.search import Chance
from mafia_env.engine.events import PUBLIC
from mafia_env.engine.game import Game
from mafia_env.engine.roles import Role
from mafia_env.engine.rules import Rules
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.infoset import sample
from mafia_env.observe import ObsLayout, VectorObserver
from mafia_env.tasks import get_tiny_task
from mafia_env.variants import VARIANTS

SHORT_NAME = "python_mafia"
DEFAULT_PARAMS: dict[str, Any] = {"variant": "sport", "num_players": 0, "seed": 0, "knobs": ""}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Mafia",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=max(r.max_players for r in VARIANTS.values()),
    min_num_players=min(r.min_players for r in VARIANTS.values()),
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


def parse_knobs(text: str) -> dict[str, Any]:
    """Return the knobs of a ``knobs`` parameter (``"max_days:4;tie:random"``)."""
    knobs: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in text.split(";"))):
        name, sep, raw = item.partition(":")
        if not sep:
            raise ConfigError(f"knobs are written name:value joined by ';'; got {item!r}")
        knobs[name.strip()] = _knob_value(raw.strip())
    return knobs


def _knob_value(raw: str) -> Any:
    words = {"true": True, "false": False, "null": None, "none": None}
    if raw.lower() in words:
        return words[raw.lower()]
    try:
        return int(raw)
    except ValueError:
        return raw.replace("+", " ")


def format_knobs(knobs: dict[str, Any]) -> str:
    """Return the ``knobs`` parameter that `parse_knobs` reads back as `knobs`."""

    def word(v: Any) -> str:
        if v is None or isinstance(v, bool):
            return {None: "null", True: "true", False: "false"}[v]
        return str(v).replace(" ", "+")

    return ";".join(f"{k}:{word(v)}" for k, v in knobs.items())


def max_game_length(rules: Rules, n: int) -> int:
    """Return a bound on the player moves of a game (loose: OpenSpiel needs one, not the best).

    A day holds at most a dozen rounds of turns over the table (speeches, last words, tie
    speeches, monologues, nominations, votes and re-votes, the night), each turn at most
    K speech acts, as many answers, and its closing pass.
    """
    per_day = 12 * n * (2 * rules.speech_acts + 2)
    return (rules.day_limit(n) + 1) * per_day


def load(
    variant: str | Rules | GameSpec = "sport",
    num_players: int | None = None,
    seed: int = 0,
    **knobs: Any,
) -> MafiaGame:
    """Return the python_mafia game of a spec (`GameSpec.make`), or of a variant's name with a
    table size and knobs: ``load(spec)`` is ``pyspiel.load_game("python_mafia", {...})``.

    The deal is chance in OpenSpiel: a spec with a fixed deal (``roles``) is refused, and so
    is a `Rules` that is not a variant file's (the game's parameters name a variant).
    """
    spec = GameSpec.make(variant, num_players, **knobs)
    if spec.deal is not None:
        raise ConfigError("python_mafia deals by chance: a fixed deal (roles=...) has no game")
    base = VARIANTS.get(spec.variant)
    if base is None or base.with_knobs(**spec.knob_dict) != spec.rules:
        raise ConfigError(
            "python_mafia's parameters name a variant and its knobs: pass a variant's name, "
            "or a spec made from one (GameSpec.make(name, ...))"
        )
    params = {"variant": spec.variant, "num_players": spec.n, "seed": seed}
    return pyspiel.load_game(SHORT_NAME, {**params, "knobs": format_knobs(spec.knob_dict)})


def load_tiny(name: str) -> MafiaGame:
    """Return the game of a tiny task (`mafia_env.tasks.TINY_TASKS`), its exact values pinned."""
    task = get_tiny_task(name)
    return load(task.spec(), seed=task.seed)


class MafiaGame(pyspiel.Game):
    """The static facts of one (variant, knobs, table size)."""

    def __init__(self, params: dict[str, Any] | None = None):
        params = {**DEFAULT_PARAMS, **(params or {})}
        knobs = parse_knobs(str(params["knobs"]))
        self.spec = spec = GameSpec.make(
            str(params["variant"]), int(params["num_players"]) or None, **knobs
        )
        self.rules = rules = spec.rules
        n = spec.n
        counts = rules.role_counts(n)
        self.n = n
        self.seed = int(params["seed"])
        self.belief_model: Any = None  # resample_from_infostate draws from this posterior
        self.layout = ActionLayout.of(spec)
        self.roles: tuple[Role, ...] = self.layout.roles  # chance outcome i deals roles[i]
        self.counts = [counts.get(r, 0) for r in self.roles]
        self.length = max_game_length(rules, n)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.layout.size,
            max_chance_outcomes=len(self.roles),
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.length,
        )
        super().__init__(_GAME_TYPE, info, {**params, "num_players": n})
        self._observer = VectorObserver(rules, n, ObsLayout.of(spec))  # states copy it

    def new_initial_state(self, params: Any = None) -> MafiaState:
        """Return a state before the deal."""
        return MafiaState(self)

    def __deepcopy__(self, memo: dict) -> MafiaGame:
        return self  # immutable: the states pyspiel clones share it

    def __reduce__(self) -> tuple:
        return pyspiel.load_game, (str(self),)  # pyspiel pickles a state's attributes

    def max_chance_nodes_in_history(self) -> int:
        return self.n

    def state_of(self, world: Game) -> MafiaState:
        """Return the state whose history is `world`'s deal and moves (its rng carried over).

        A move whose engine draw (a lot among FORUM's hunters, MINIMAL's tie-break) went
        otherwise in `world` than the game's seeded stream would draw it is played with
        `world`'s draw, found by trying each (`Chance`): the state is `world`'s game."""
        state = self.new_initial_state()
        index = {r: i for i, r in enumerate(self.roles)}
        for role in world.roles:
            state.apply_action(index[role])
        encode = self.layout.encode
        for _, act, target, value, _, _ in world.inputs:
            if act < 0:
                raise ValueError("a game with fouls or a stop has no OpenSpiel history")
            g = state.game
            seeded = g.rng
            g.rng = _draws_of(g, world, (act, target, value), seeded)
            state.apply_action(encode(act, target, value))
            g.rng = seeded
        state.game.rng.setstate(world.rng.getstate())
        return state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict | None = None
    ) -> MafiaObserver:
        """Return the observer: the vector observation; perfect recall picks the string form."""
        if params:
            raise ValueError(f"python_mafia's observer takes no parameters; got {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return MafiaObserver(self, perfect_recall)


class _Encoder:
    """A state's `VectorObserver`, copied (not deep-copied) when pyspiel clones the state."""

    def __init__(self, observer: VectorObserver):
        self.observer = observer

    def __deepcopy__(self, memo: dict) -> _Encoder:
        return _Encoder(self.observer.copy())

    def __reduce__(self) -> tuple:
        return _none, ()  # a serialized state rebuilds its encoder when asked


def _none() -> None:
    return None


REDRAWS = 64  # worlds `resample_from_infostate` draws at most for one state
LOTS = 64  # the largest range of one engine draw `state_of` tries


def _draws_of(g: Game, world: Game, move: tuple, seeded: Any) -> Any:
    """Return the rng under which `move` logs in `g` what it logged in `world`: the seeded
    stream where it agrees, else the one scripted draw that does (`Chance`)."""
    n0 = len(g.events)
    for rng in (None, *(Chance((v,)) for v in range(LOTS))):
        h = g.clone(rng=rng)
        if rng is None:
            h.rng = random.Random()
            h.rng.setstate(seeded.getstate())
        h.apply(*move)
        got = h.events[n0:]
        if got == world.events[n0 : n0 + len(got)]:
            return seeded if rng is None else Chance((rng.script[0],))
        if rng is not None and (not rng.calls or rng.script[0] >= rng.calls[0]):
            break
    return seeded


class MafiaState(pyspiel.State):
    """A game of Mafia: the deal so far, then the engine's `Game`."""

    def __init__(self, game: MafiaGame):
        super().__init__(game)
        self._mafia = game
        self._deal: list[int] = []  # role indices drawn so far, by seat
        self._left = list(game.counts)
        self.game: Game | None = None
        self._encoder: _Encoder | None = None  # built on the first tensor asked for

    # ------------------------------------------------------------ the OpenSpiel API

    def current_player(self) -> int:
        g = self.game
        if g is None:
            return pyspiel.PlayerId.CHANCE
        if g.over:
            return pyspiel.PlayerId.TERMINAL
        return g.actor

    def _legal_actions(self, player: int) -> list[int]:
        return np.flatnonzero(self._mafia.layout.shared_mask(self.game)).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self._left
        total = sum(left)
        return [(i, c / total) for i, c in enumerate(left) if c]

    def _apply_action(self, action: int) -> None:
        if self.game is None:
            self._deal.append(action)
            self._left[action] -= 1
            if len(self._deal) == self._mafia.n:
                m = self._mafia
                self.game = Game(m.rules, m.n, m.seed, [m.roles[i] for i in self._deal])
            return
        self.game.apply(*self._mafia.layout.decoded[action])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self._mafia.roles[action].label}"
        return self._mafia.layout.describe(action)

    def is_terminal(self) -> bool:
        return self.game is not None and self.game.over

    def returns(self) -> list[float]:
        g = self.game
        return [0.0] * self._mafia.n if g is None else g.returns()

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any, model: Any = None
    ) -> MafiaState:
        """Return a state in `player_id`'s information set, drawn from the player's belief
        (`mafia_env.infoset.sample`; with a `model`, or the game's `belief_model`, from the
        player's posterior under that policy).

        The state replays the world's deal and moves with the engine's seeded draws (a lot
        among FORUM's hunters, MINIMAL's tie-break), which a world drawn with other draws
        does not reproduce: such a world is drawn again (`REDRAWS` at most)."""
        if self.game is None:
            return self.clone()  # before the deal nobody knows anything
        rng = random.Random(int(probability_sampler() * 2**53))
        model = getattr(self._mafia, "belief_model", None) if model is None else model
        want = self.information_state_string(player_id)
        for _ in range(REDRAWS):
            world = sample(self.game, player_id, rng, 1, model)[0]
            try:
                state = self._mafia.state_of(world)
            except (ValueError, RuntimeError, KeyError):  # a move the seeded draws forbid
                continue
            if state.information_state_string(player_id) == want:
                return state
        raise BeliefError(
            f"player {player_id}: no world drawn in {REDRAWS} replays with the game's draws"
        )

    def __str__(self) -> str:
        roles = " ".join(self._mafia.roles[i].label for i in self._deal)
        if self.game is None:
            return f"deal: {roles}"
        moves = " ".join(f"{s}:{a}.{t}.{v}" for s, a, t, v, _, _ in self.game.inputs)
        return f"deal: {roles}\nmoves: {moves}"

    # ------------------------------------------------------------------- views

    def vector(self, player: int) -> np.ndarray:
        """Return `player`'s vector observation, as the AEC env gives it."""
        if self.game is None:
            out = np.zeros(self._mafia._observer.layout.size, dtype=np.float32)
            out[player] = 1.0  # the piece "seat" comes first
            return out
        if self._encoder is None:
            observer = self._mafia._observer.copy()
            observer.reset(self.game)
            self._encoder = _Encoder(observer)
        return self._encoder.observer.observe(self.game, player)

    def info_string(self, player: int) -> str:
        """Return every event `player` saw, in order, and whose turn it is to him."""
        if self.game is None:
            return f"p{player} deal {len(self._deal)}"
        bit = 1 << player
        seen = [
            f"{k}.{a}.{t}.{v}" for k, a, t, v, vis in self.game.events if vis == PUBLIC or vis & bit
        ]
        return f"p{player} " + " ".join(seen)


class MafiaObserver:
    """The PyObserver of python_mafia: one float32 vector with named views (the obs pieces)."""

    def __init__(self, game: MafiaGame, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        self.layout = game._observer.layout
        self.tensor = np.zeros(self.layout.size, dtype=np.float32)
        self.dict = self.layout.views(self.tensor)
        # the observation string's words, made once: each flat cell's index in its piece
        # (row-major, "i.j"), and each piece's name and span
        self._labels = [""] * self.layout.size
        spans = []
        for name, (off, shape) in self.layout.offsets.items():
            for k, idx in enumerate(np.ndindex(*shape)):
                self._labels[off + k] = ".".join(map(str, idx))
            spans.append((name, off, off + int(np.prod(shape))))
        self._names = [name for name, _, _ in spans]
        self._starts = np.array([a for _, a, _ in spans])
        self._ends = np.array([b for _, _, b in spans])

    def set_from(self, state: MafiaState, player: int) -> None:
        self.tensor[:] = state.vector(player)

    def string_from(self, state: MafiaState, player: int) -> str:
        if self.perfect_recall:
            return state.info_string(player)
        vector = state.vector(player)
        nz = np.flatnonzero(vector)  # each set cell by its index, and its value where not 1
        values, labels = vector[nz].tolist(), [self._labels[k] for k in nz.tolist()]
        parts = []
        for name, a, b in zip(
            self._names,
            np.searchsorted(nz, self._starts).tolist(),
            np.searchsorted(nz, self._ends).tolist(),
            strict=True,
        ):
            if a < b:
                cells = " ".join(
                    x if v == 1 else f"{x}={v:g}"
                    for x, v in zip(labels[a:b], values[a:b], strict=True)
                )
                parts.append(f"{name}[{cells}]")
        return f"p{player} " + " ".join(parts)


pyspiel.register_game(_GAME_TYPE, MafiaGame)

__all__ = [
    "SHORT_NAME",
    "MafiaGame",
    "MafiaObserver",
    "MafiaState",
    "format_knobs",
    "load",
    "load_tiny",
    "max_game_length",
    "parse_knobs",
]
