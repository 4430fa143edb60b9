"""The C core: the backend choice, the config the core plays, and the views over it.

`mafia_env/ccore/src/` is the engine's accelerated twin: the same game as `mafia_env.engine`
bit for bit (the same random draws, events, observations and masks; tests/ccore/test_ccore.py and
scripts/diff_backends.py play both side by side, through `mafia_env.ccore.diff`). Its rule
constants are generated from the Python definitions (`schema`, `generate`). It is an
optional extension, built by ``pip install`` where a C compiler exists; where it is not
built, every ``backend="auto"`` uses the Python engine and says so once (a
`RuntimeWarning`). The Python engine stays the reference and the readable statement of the
rules.

| backend | |
|---|---|
| ``"auto"`` (default) | the core where it is built and plays these rules, else the Python engine |
| ``"c"`` | the core, or a `ConfigError` saying why it cannot |
| ``"python"`` | the Python engine |

What the core does itself: the moves (`step`, the moderator's `foul` and `remove`, table talk's
place in the speech), every seat's vector observation, the masks, the rewards, who acts,
`clone()` and `pickle` (its state is plain memory, copied whole). What falls back to the
Python engine: the event log, narration, text observations, records, `resample` and the rest
of ``env.game``'s attributes come from a shadow `Game` that the env brings up to date when
such a call comes, by replaying the core's inputs (`CoreGame`): it costs the Python engine's
time for the moves since the last such call, once.

Set ``MAFIA_ENV_NO_CCORE=1`` to act as if the core were not built.
"""

from __future__ import annotations

import importlib
import os
import sys
import warnings
from typing import Any

import numpy as np

from mafia_env.actions import ActionLayout
from mafia_env.ccore.generate import SRC, source_digest
from mafia_env.ccore.schema import CORE_KNOBS, MAX_SEATS, NIGHT_STEPS, PIECES
from mafia_env.engine.events import Cause, Outcome
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import SPEECH_TURNS, Act, Call, Turn
from mafia_env.engine.roles import Role, Team
from mafia_env.engine.rules import KNOBS, Rules
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.observe import CAUSES, ObsLayout, VectorObserver

BACKENDS = ("auto", "c", "python")
# knobs the core does not read: the env plays them (illegal_action) or they shape the deal
# and the day limit, which the config carries worked out (max_days, mafia_count)
PYTHON_KNOBS = frozenset({"illegal_action", "max_days", "mafia_count"})
ACTS = tuple(Act)
TURNS = tuple(Turn)
ROLES = tuple(Role)
TEAMS = tuple(Team)
OUTCOMES = tuple(Outcome)

_module: Any = None
_load_error: str | None = None
_warned: set[str] = set()


class CoreUnsupported(Exception):
    """The core cannot play these rules (say why): `auto` takes the Python engine."""


def _load() -> Any:
    """Return the compiled module, or None where it is not built (the reason kept)."""
    global _module, _load_error
    if _module is None and _load_error is None:
        if os.environ.get("MAFIA_ENV_NO_CCORE"):
            _load_error = "the C core is switched off (MAFIA_ENV_NO_CCORE is set)"
        else:
            try:
                _module = importlib.import_module("mafia_env.ccore._ccore")
            except ImportError as e:  # no compiler at install: the Python engine plays
                _load_error = f"the C core is not built ({e})"
            else:
                _load_error = _stale(_module)
                if _load_error:
                    _module = None
    return _module


def _stale(module: Any) -> str | None:
    """Return why a built core is not this checkout's C sources, or None where it is.

    An editable install keeps the extension it built: after an edit of the sources (or a
    pull) it would play the old game. setup.py compiles the sources' digest in; where the
    sources are beside this file (a checkout, an sdist), the two must agree.
    """
    built = getattr(module, "SOURCE", "")
    if not built or not (SRC / "binding.c").is_file():
        return None
    if source_digest() == built:
        return None
    return (
        "the C core was built from other sources than mafia_env/ccore/src/ "
        "(rebuild it: pip install -e . or python setup.py build_ext --inplace)"
    )


def available() -> bool:
    """Return whether the C core is built (and not switched off)."""
    return _load() is not None


def _notice(reason: str) -> None:
    if reason not in _warned:
        _warned.add(reason)
        warnings.warn(
            f"mafia_env: {reason}; using the Python engine", RuntimeWarning, stacklevel=_caller()
        )


def _caller() -> int:
    """Return the stack level of the first frame outside mafia_env (the warning names it)."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # mafia_env/
    frame, level = sys._getframe(1), 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(here):
        frame, level = frame.f_back, level + 1
    return level


def resolve(backend: str, rules: Rules, n: int, obs: tuple = ()) -> str:
    """Return the backend that plays (`"c"` or `"python"`) for `backend` and these rules (and
    observation options, `GameSpec.obs`: the core writes the plain vector observation only)."""
    if backend not in BACKENDS:
        raise ConfigError(f"unknown backend {backend!r}; backends are: {', '.join(BACKENDS)}")
    if backend == "python":
        return "python"
    if _load() is None:
        if backend == "c":
            raise ConfigError(f"backend='c': {_load_error}; use backend='python' or 'auto'")
        _notice(_load_error or "the C core is not built")
        return "python"
    try:
        if obs:
            names = ", ".join(name for name, _ in obs)
            raise CoreUnsupported(f"it writes no observation options ({names})")
        config(rules, n)
    except CoreUnsupported as e:
        if backend == "c":
            raise ConfigError(f"backend='c' cannot play these rules: {e}") from None
        _notice(f"the C core cannot play these rules ({e})")
        return "python"
    return "c"


def spec_of(variant: Any, num_players: int | None, knobs: dict[str, Any]) -> GameSpec:
    """Return the spec an env of these arguments plays (its errors are the env's)."""
    return GameSpec.make(variant, num_players, **knobs)


# ------------------------------------------------------------------------------ the config

_CONFIGS: dict[tuple[int, int], tuple[Rules, dict[str, Any]]] = {}


def _legacy_float() -> int:
    """Return 1 where numpy adds a Python float to a float32 scalar in float64 (numpy < 2)."""
    return int(type(np.float32(0) + 0.1) is not np.float32)


def config(rules: Rules, n: int) -> dict[str, Any]:
    """Return the dict the core plays (rules, n) from: knobs as ints, the layouts' offsets."""
    key = (id(rules), n)
    hit = _CONFIGS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    unknown = set(KNOBS) - PYTHON_KNOBS - set(CORE_KNOBS)
    if unknown:  # a knob added to the rules that the core does not know yet
        raise CoreUnsupported(f"it does not know the knobs {', '.join(sorted(unknown))}")
    if n > MAX_SEATS:
        raise CoreUnsupported(f"tables of at most {MAX_SEATS} seats; got {n}")
    cfg: dict[str, Any] = {"n": n, "day_limit": rules.day_limit(n)}
    for name in CORE_KNOBS:
        value, choices = getattr(rules, name), KNOBS[name].choices
        if name == "night_order":
            cfg[name] = tuple(NIGHT_STEPS.index(w) for w in value.split())
        elif name == "heal_self":
            cfg[name] = -1 if value is None else int(value)
        elif choices:
            cfg[name] = choices.index(value)
        else:
            cfg[name] = int(value)
    cfg["base_deal"] = tuple(int(r) for r, c in rules.role_counts(n).items() for _ in range(c))
    obs = ObsLayout(rules, n)
    cfg.update(_obs_config(rules, n, obs))
    cfg.update(_action_config(ActionLayout(rules, n)))
    if len(_CONFIGS) >= 256:
        _CONFIGS.clear()
    _CONFIGS[key] = (rules, cfg)
    return cfg


def _obs_config(rules: Rules, n: int, layout: ObsLayout) -> dict[str, Any]:
    # as VectorObserver.__init__ works them out
    known = set(PIECES)
    extra = set(layout.offsets) - known
    if extra:
        raise CoreUnsupported(f"it does not know the observation pieces {', '.join(extra)}")
    offsets = tuple(layout.offsets[p][0] if p in layout.offsets else -1 for p in PIECES)
    tonight = [layout.offsets[k] for k in ("my_night", "team_shots", "team_executors", "blocked")
               if k in layout.offsets]  # fmt: skip
    end = tonight[-1][0] + int(np.prod(tonight[-1][1])) if tonight else 0
    start = tonight[0][0] if tonight else 0
    spec = layout.spec
    role_index = [-1] * len(Role)
    for i, r in enumerate(spec.roles):
        role_index[r] = i
    turn_pos = [-1] * len(Turn)
    for i, t in enumerate(layout.turns):
        turn_pos[t] = i
    elim = layout.offsets["eliminated"][1][1]
    if elim not in (CAUSES, int(Cause.MAFIA)):
        raise CoreUnsupported(f"an eliminated piece of {elim} columns")
    return {
        "obs_size": layout.size,
        "private_size": layout.private_size,
        "offsets": offsets,
        "elim_cols": elim,
        "n_roles": len(spec.roles),
        "role_index": tuple(role_index),
        "turn_pos": tuple(turn_pos),
        "speech_turn": tuple(int(t in spec.speech_turns) for t in Turn),
        "night_phase": len(layout.turns),
        "over_phase": len(layout.turns) + 1,
        "tonight_start": start,
        "tonight_end": end,
        "named_scale": 1.0 / max(1, n - 1),
        "self_heal_scale": 1.0 / max(1, rules.heal_self or 1),
        "legacy_float": _legacy_float(),
        # ONLINE-N9: no morning word on the heal, the doctor's row keeps his own heals
        "heal_memory": int(not rules.heal_told and "last_heal" in layout.offsets),
    }


def _action_config(layout: ActionLayout) -> dict[str, Any]:
    off = [-1] * len(Act)
    width = [0] * len(Act)
    for act in layout.acts:
        off[act] = layout.offset[act]
        width[act] = layout.width[act]
    return {
        "action_size": layout.size,
        "act_off": tuple(off),
        "act_width": tuple(width),
        "dec_act": tuple(int(a) for a, _, _ in layout.decoded),
        "dec_target": tuple(t for _, t, _ in layout.decoded),
        "dec_value": tuple(v for _, _, v in layout.decoded),
    }


def seed_words(seed: int) -> list[int]:
    """Return the 32-bit words CPython's `random.Random(seed)` seeds MT19937 from."""
    x = abs(int(seed))
    words = []
    while True:
        words.append(x & 0xFFFFFFFF)
        x >>= 32
        if not x:
            return words


def new_core(rules: Rules, n: int, num_games: int, log_events: bool = False, deal=None) -> Any:
    """Return a `_ccore.Core` (the compiled module's) of `num_games` games of (rules, n)."""
    mod = _load()
    if mod is None:
        raise ConfigError(f"the C core is not available: {_load_error}")
    d = None if deal is None else tuple(int(r) for r in deal)
    return mod.Core(config(rules, n), num_games, log_events, d)


# ----------------------------------------------------------------- the game of a core env

_MASKS: dict[tuple, dict[bytes, np.ndarray]] = {}
MASK_CACHE_SIZE = 16384


def mask_cache(layout: ActionLayout) -> dict[bytes, np.ndarray]:
    """Return the shared cache of read-only masks of one kind of action layout."""
    return _MASKS.setdefault((tuple(layout.acts), layout.n, layout.roles), {})


def shared_mask(cache: dict[bytes, np.ndarray], key: bytes) -> np.ndarray:
    """Return the cached read-only int8 mask whose bytes are `key`."""
    m = cache.get(key)
    if m is None:
        if len(cache) >= MASK_CACHE_SIZE:
            cache.clear()
        m = cache[key] = np.frombuffer(key, dtype=np.int8)  # read-only: bytes
    return m


class CoreGame:
    """``env.game`` of an env on the C core: the game, read from the core where it can be.

    Who acts, the turn, the day, the roles, who is alive, fouls, the result, the inputs and
    the moves (`apply`, `foul`, `remove`, `terminate`, `say`, `default_action`) go to the
    core. Everything else (``events``, ``today``, ``vote``, ``legal()``, ``clone()``,
    ``resample()``, ...) comes from a shadow Python `Game` brought up to date first by
    replaying the inputs the core logged: the Python engine plays the same game, so what it
    says is what the core's game is. ``clone()`` gives that Python `Game`'s copy.
    """

    def __init__(self, core: Any, b: int, rules: Rules, n: int, seed: int, deal, talk=None):
        d = self.__dict__
        d["_core"] = core
        d["_b"] = b
        d["rules"] = rules
        d["n"] = n
        d["seed"] = seed
        d["_deal"] = deal
        d["talk"] = [] if talk is None else talk  # (seat, inputs before it, text) per remark
        d["_shadow"] = None
        roles, teams = core.deal(b)
        d["roles"] = tuple(map(ROLES.__getitem__, roles))
        d["teams"] = tuple(map(TEAMS.__getitem__, teams))

    def _copy(self, core: Any, b: int = 0) -> CoreGame:
        """Return this game's view over another core (holding a copy of this game)."""
        other = CoreGame.__new__(CoreGame)
        other.__dict__.update(self.__dict__)
        other.__dict__["_core"] = core
        other.__dict__["_b"] = b
        other.__dict__["talk"] = self.talk[:]
        sh = self._shadow
        other.__dict__["_shadow"] = sh.clone() if sh is not None else None
        return other

    # ------------------------------------------------------------- from the core

    @property
    def actor(self) -> int:
        return self._core.actor(self._b)

    @property
    def turn(self) -> Turn | None:
        t = self._core.status(self._b)[1]
        return None if t < 0 else TURNS[t]

    @property
    def winner(self) -> Outcome | None:
        w = self._core.status(self._b)[2]
        return None if w < 0 else OUTCOMES[w]

    @property
    def offender(self) -> int:
        return self._core.status(self._b)[3]

    @property
    def over(self) -> bool:
        st = self._core.status(self._b)
        return st[2] >= 0 or st[3] >= 0

    @property
    def truncated(self) -> bool:
        return bool(self._core.status(self._b)[4])

    @property
    def day(self) -> int:
        return self._core.status(self._b)[5]

    @property
    def alive(self) -> list[bool]:
        return [bool(x) for x in self._core.facts(self._b)["alive"]]

    @property
    def alive_seats(self) -> list[int]:
        return [s for s, x in enumerate(self._core.facts(self._b)["alive"]) if x]

    @property
    def alive_bits(self) -> int:
        return sum(1 << s for s, x in enumerate(self._core.facts(self._b)["alive"]) if x)

    @property
    def team_alive(self) -> list[int]:
        return self._core.facts(self._b)["team_alive"]

    @property
    def fouls(self) -> list[int]:
        return self._core.facts(self._b)["fouls"]

    @property
    def mafia_mask(self) -> int:
        return sum(1 << s for s, t in enumerate(self.teams) if t is Team.MAFIA)

    @property
    def inputs(self) -> list[tuple]:
        return [
            (s, ACTS[a] if a >= 0 else a, t, v, TURNS[u] if u >= 0 else u, d)
            for s, a, t, v, u, d in self._core.inputs(self._b)
        ]

    @property
    def queue(self) -> list[tuple[int, Turn]]:
        return [(s, TURNS[t]) for s, t in self._core.queue(self._b)]

    def returns(self) -> list[float]:
        """Return every seat's payoff, as `Game.returns` (0 while the game goes on)."""
        st = self._core.status(self._b)
        w, offender, n = st[2], st[3], self.n
        if offender >= 0:
            return [-1.0 if s == offender else 0.0 for s in range(n)]
        if w < 0 or w == int(Outcome.DRAW):
            return [0.0] * n
        return [1.0 if t == w else -1.0 for t in self.teams]

    def mafia_seats(self) -> list[int]:
        return [s for s in range(self.n) if self.teams[s] is Team.MAFIA]

    def pending_round(self) -> list[tuple[int, Turn]]:
        return [(s, TURNS[t]) for s, t in self._core.pending_round(self._b)]

    def default_action(self) -> tuple[Act, int, int]:
        act, target, value = self._core.default_action(self._b)
        return ACTS[act], target, value

    def apply(self, act: Act, target: int = -1, value: int = -1) -> None:
        """Carry out the acting player's action (it must be legal), on the core."""
        self._core.apply_action(self._b, int(act), int(target), int(value))

    def foul(self, seat: int) -> None:
        self._core.foul(self._b, seat)

    def remove(self, seat: int) -> None:
        self._core.remove(self._b, seat)

    def terminate(self, seat: int) -> None:
        self._core.terminate(self._b, seat)

    def say(self, text: str) -> None:
        """Add the acting player's remark to his speech, as `Game.say` (the core logs TALK)."""
        turn = self._core.status(self._b)[1]
        if turn < 0 or TURNS[turn] not in SPEECH:
            raise ValueError("table talk is part of a speech: nobody is speaking now")
        text = " ".join(str(text).split())
        from mafia_env.engine.events import TALK_LIMIT

        if not text or len(text) > TALK_LIMIT:
            raise ValueError(f"a remark has 1..{TALK_LIMIT} characters; got {len(text)}")
        before = self._core.say(self._b)
        self.talk.append((self._core.status(self._b)[0], before, text))

    # ------------------------------------------------------- from the Python engine

    def shadow(self) -> Game:
        """Return the Python `Game` of this game, brought up to date (the fallback)."""
        sh = self._shadow
        if sh is None:
            sh = self.__dict__["_shadow"] = Game(self.rules, self.n, self.seed, self._deal)
        st = self._core.status(self._b)
        done, said = len(sh.inputs), len(sh.talk)
        if done == st[7] and said == len(self.talk):
            return sh
        new = self._core.inputs(self._b, done)
        talk = self.talk
        k = 0
        while True:
            while said < len(talk) and talk[said][1] == done:
                sh.say(talk[said][2])
                said += 1
            if k == len(new):
                break
            seat, act, target, value, _, _ = new[k]
            k += 1
            done += 1
            if act == Call.FOUL:
                sh.foul(seat)
            elif act == Call.TERMINATE:
                sh.terminate(seat)
            elif act == Call.REMOVE:
                sh.remove(seat)
            else:
                if sh.actor != seat:
                    raise RuntimeError(
                        f"the C core and the Python engine disagree: input {done - 1} is "
                        f"seat {seat}'s, but the engine has seat {sh.actor} acting"
                    )
                sh.apply(ACTS[act], target, value)
        if sh.actor != st[0] or len(sh.events) == 0:
            raise RuntimeError("the C core and the Python engine disagree on who acts")
        return sh

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.shadow(), name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(
            f"the game of a C-core env is read-only ({name}); use env.step/foul/remove, or "
            "play a copy: env.game.clone() is a Python Game"
        )

    def __deepcopy__(self, memo: dict) -> Game:
        return self.shadow().clone()

    def __reduce__(self):
        return (_unpickle_shadow, (self.shadow(),))


def _unpickle_shadow(game: Game) -> Game:
    return game


SPEECH = SPEECH_TURNS  # where table talk may come


class CoreObserver:
    """``env.observer`` of an env on the C core: `VectorObserver`'s calls, answered by the core.

    `observe(game, seat)` and `observe_turn` of the env's own game read the core's rows; of
    another game (a Python `Game`: a clone, a resampled world) they encode that game with a
    `VectorObserver`. Everything else (`copy()`, pickling, `catch_up`, the rows) is the
    Python `VectorObserver` of the env's game, brought up to date from its shadow game first.
    """

    def __init__(self, env: Any):
        d = self.__dict__
        d["env"] = env
        d["layout"] = env.obs_layout
        d["_size"] = env.obs_layout.size
        d["_py"] = None  # the Python observer of the shadow game, made on first use
        d["_py_game"] = None

    def reset(self, game: Any) -> None:
        pass

    def update(self, game: Any) -> None:
        pass

    def python(self) -> VectorObserver:
        """Return the Python `VectorObserver` of the env's game, brought up to date."""
        env = self.env
        shadow = env.game.shadow()
        if self._py is None or self._py_game is not shadow:
            self.__dict__["_py"] = VectorObserver(env.rules, env.n)
            self.__dict__["_py_game"] = shadow
            self._py.reset(shadow)
        self._py.update(shadow)
        return self._py

    @property
    def priv(self) -> np.ndarray:
        """Every seat's private row [n, P] (a copy), as `VectorObserver.priv` holds them."""
        env = self.env
        out = np.empty((env.n, self.layout.private_size), dtype=np.float32)
        env.core.private_rows(0, out)
        return out

    @property
    def turn(self) -> int:
        return self.env.core.live(0)[1]

    @property
    def actor(self) -> int:
        return self.env.core.live(0)[0]

    @property
    def over(self) -> bool:
        return bool(self.env.core.live(0)[3])

    def copy(self) -> VectorObserver:
        return self.python().copy()

    def __deepcopy__(self, memo: dict) -> VectorObserver:
        return self.copy()

    def __reduce__(self):
        return (_unpickle_shadow, (self.python(),))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.python(), name)

    def _other(self, game: Any) -> VectorObserver:
        obs = VectorObserver(self.env.rules, self.env.n)
        obs.reset(game)
        return obs

    def observe(self, game: Any, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        env = self.env
        if game is not env.game:
            return self._other(game).observe(game, seat, out)
        if out is None:
            out = np.empty(self._size, dtype=np.float32)
        env.core.observe(0, seat, out)
        return out

    def observe_turn(self, game: Any, seat: int, turn: Turn) -> np.ndarray:
        env = self.env
        if game is not env.game:
            return self._other(game).observe_turn(game, seat, turn)
        out = np.empty(self._size, dtype=np.float32)
        env.core.observe_turn(0, seat, int(turn), out)
        return out


# ------------------------------------------------------------------------ the batched core


class CoreBatch:
    """The C core's half of `VectorMafia(backend="c")`: B games stepped in one call.

    The core writes observations, masks, rewards, done flags and the info arrays into the
    VectorMafia's own preallocated arrays; a step makes no Python object per game.
    """

    def __init__(self, vec: Any, base_seed: int, log_events: bool = False):
        self.vec = vec
        self.core = core = new_core(vec.rules, vec.n, vec.num_envs, log_events, deal=vec.deal)
        for b in range(vec.num_envs):
            core.seed_slot(b, seed_words(base_seed + b))
        core.bind(
            vec.obs,
            vec.masks,
            vec.rewards,
            vec.dones,
            vec.truncated,
            vec.winner,
            vec.seat,
            vec.team,
            vec.teams,
            vec.done_teams,
        )

    def reset(self) -> None:
        self.core.reset_all()

    def step(self, actions: np.ndarray) -> int:
        """Apply every game's action; return -1, or the first game whose action is illegal."""
        if actions.dtype != np.int64 or not actions.flags.c_contiguous:
            big = (actions < 0) | (actions >= self.vec.action_size)
            if big.any():
                return int(np.flatnonzero(big)[0])
            actions = np.ascontiguousarray(actions, dtype=np.int64)
        return self.core.step_all(actions)

    def observe(self, b: int, seat: int, out: np.ndarray) -> np.ndarray:
        self.core.observe(b, seat, out)
        return out

    def game(self, b: int) -> CoreGame:
        """Return game `b` as `CoreGame` (its events and the rest from the Python engine)."""
        facts = self.core.facts(b)
        return CoreGame(self.core, b, self.vec.rules, self.vec.n, facts["seed"], self.vec.deal)

    def memory(self) -> int:
        return self.core.memory()


__all__ = [
    "BACKENDS",
    "CoreBatch",
    "CoreGame",
    "CoreObserver",
    "CoreUnsupported",
    "available",
    "config",
    "new_core",
    "resolve",
    "seed_words",
]
