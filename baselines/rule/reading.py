"""Reading the observation: what the agents of a batch see, decoded from the named views.

`SeenBatch` decodes a batch of observations (one row per agent; seats 0-based, as in the
engine) and derives what the decisions read, for every row at once: ``me`` [R], ``alive``
[R, n], ``claimed_black`` [R, n, n] (claimer, target), the town's reading of the table
``sus`` [R, n] (the bot's `read_table`, by `Style.reading`), the legal targets of an act
(`SeenBatch.seg`), ... `Seen` is one row of it, for reading one agent's view (tests, the
table's tools); the bots decide on batches.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from baselines.rule.style import StyleMix
from mafia_env.engine.kinds import Act
from mafia_env.engine.roles import Role, Team

Bot = Any  # the RulePolicy (baselines.rule.bot) a batch is read for
NONE = -1  # no seat, no action


class lazy:
    """An attribute computed on first use, then kept (`functools.cached_property` without
    the lock it takes in Python 3.11, which costs more than most of these computations)."""

    def __init__(self, fn: Callable[[Any], Any]):
        self.fn = fn

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


class Views(dict):
    """The observations' named views ([R, *shape] each), each made on first use."""

    def __init__(self, obs: np.ndarray, pieces: dict[str, tuple[int, int, tuple[int, ...]]]):
        super().__init__()
        self.obs, self.pieces = obs, pieces

    def __missing__(self, name: str) -> np.ndarray:
        a, b, shape = self.pieces[name]
        view = self[name] = self.obs[:, a:b].reshape(len(self.obs), *shape)
        return view

    def get(self, name: str, default: Any = None) -> Any:
        return self[name] if name in self.pieces else default

    def all(self) -> dict[str, np.ndarray]:
        """Every view, by name."""
        return {name: self[name] for name in self.pieces}


class SeenBatch:
    """What the agents of a batch see now, decoded from their observations' named views.

    Every field holds one row per observation. What every decision reads (the reader, the
    table, the claims, the votes) is decoded at once; the rest on first use (`lazy`).
    """

    def __init__(self, bot: Bot, obs: np.ndarray, masks: np.ndarray):
        self.bot, self.style = bot, bot.style
        self.mix: StyleMix | None = None  # each row's own style, where they differ (`StyleMix`)
        self.n, self.layout = bot.n, bot.layout
        self.masks = masks if masks.dtype == bool else masks != 0
        self.R = R = len(obs)
        self.v = v = Views(obs, bot._pieces)
        self.rows = rows = np.arange(R)
        self.me = me = v["seat"].argmax(axis=1)
        self.seats = bot.seats  # 0 .. n - 1
        self.is_me = self.seats == me[:, None]
        self.not_me = ~self.is_me
        self.role = v["role"].argmax(axis=1)  # an index into the bot's roles
        self.day = np.rint(v["day"][:, 0].astype(np.float64) * bot.day_limit).astype(np.int64)
        self.alive = v["alive"] > 0
        self.candidates = v["candidates"] != 0
        self.nominee = v["nominees"] != 0
        checks = v["checks"]
        self.checked_yes = checks[:, :, 0] > 0
        self.checked_no = checks[:, :, 1] > 0
        kind, said = one_hot(v["claimed_role"])
        # each seat's latest role claim, a role index (len(roles): no claim)
        self.claim_kind = np.where(said, kind, len(bot.roles))
        self.claimant = self.claim_kind == bot.sheriff_kind  # whose latest claim is sheriff
        self.me_claimant = self.claimant[rows, me]
        cc = v["claimed_check"]
        self.claimed_red = cc[..., 0] > 0  # [R, claimer, target]
        self.claimed_black = cc[..., 1] > 0
        self.accused = v["accused"] > 0
        self.vouched = v["vouched"] > 0
        # counts are scaled into [0, 1] in the observation: scale them back
        limit = bot.day_limit
        self.votes_today = v["votes"]  # the latest voting round
        self.votes = np.rint(v["votes"] + v["votes_before"] * (2 * limit))  # every round
        self.nominations = np.rint(v["nominations"] * limit)
        self.night_dead = v["eliminated"][..., 1] > 0

    # ------------------------------------------------------------ the reader

    @lazy
    def _mates(self) -> tuple[np.ndarray, np.ndarray]:
        kind, known = one_hot(self.v["known_roles"])
        known[self.rows, self.me] = False
        return kind, known

    @lazy
    def mate(self) -> np.ndarray:
        """[R, n]: the teammates the reader knows."""
        return self._mates[1]

    @lazy
    def mate_kind(self) -> np.ndarray:
        """[R, n]: each known teammate's role index."""
        return self._mates[0]

    @lazy
    def team(self) -> np.ndarray:
        """[R, n]: the reader and his known teammates."""
        return self.is_me | self.mate

    @lazy
    def dons(self) -> np.ndarray:
        """[R, n]: the don, where he is the reader or a teammate the reader knows."""
        don = self.bot.don_role
        kind = np.minimum(self.mate_kind, len(don) - 1)
        return (self.is_me & don[self.role][:, None]) | (self.mate & don[kind])

    @lazy
    def black(self) -> np.ndarray:
        """[R]: the reader is of the mafia team."""
        return self.bot.mafia_role[self.role]

    @lazy
    def team_or_dead(self) -> np.ndarray:
        """[R, n]: the reader's team and the dead (never the mafia's targets)."""
        return self.team | ~self.alive

    @lazy
    def mafia_of(self) -> np.ndarray:
        """[R, n]: the seats the reader knows to be of his mafia team."""
        return self.team & self.black[:, None]

    # -------------------------------------------------------------- the turn

    @lazy
    def _turn(self) -> tuple[np.ndarray, np.ndarray]:
        return one_hot(self.v["my_turn"])

    @lazy
    def turn_kind(self) -> np.ndarray:
        """[R]: the index of the turn kind into the bot's `turn_names` (see `has_turn`)."""
        return self._turn[0]

    @lazy
    def has_turn(self) -> np.ndarray:
        return self._turn[1]

    @lazy
    def turn_code(self) -> np.ndarray:
        """[R]: `turn_kind` where the row has a turn, else -1."""
        return np.where(self.has_turn, self.turn_kind, -1)

    @lazy
    def turn(self) -> list[str | None]:
        """Each row's turn kind by name (None: no turn)."""
        names = self.bot.turn_names
        kinds, has = self.turn_kind.tolist(), self.has_turn.tolist()
        return [names[k] if h else None for k, h in zip(kinds, has, strict=True)]

    def turn_is(self, name: str) -> np.ndarray:
        """[R]: the row's turn kind is `name`."""
        key = f"_turn_{name}"
        got = self.__dict__.get(key)
        if got is None:
            names = self.bot.turn_names
            if name not in names:
                got = np.zeros(self.R, dtype=bool)
            else:
                got = self.has_turn & (self.turn_kind == names.index(name))
            self.__dict__[key] = got
        return got

    # ------------------------------------------------------------- the table

    @lazy
    def me_alive(self) -> np.ndarray:
        return self.alive[self.rows, self.me]

    @lazy
    def nominee_count(self) -> np.ndarray:
        return self.nominee.sum(axis=1)

    @lazy
    def nominee_order(self) -> np.ndarray:
        """[R, n]: the nominees first, in the order they were nominated, then the others."""
        noms = self.v["nominees"]
        return np.argsort(np.where(self.nominee, noms, np.inf), axis=1, kind="stable")

    @lazy
    def nominee_pos(self) -> np.ndarray:
        """[R, n]: each seat's place in the order of nomination (n: not nominated)."""
        pos = np.empty_like(self.nominee_order)
        pos[self.rows[:, None], self.nominee_order] = self.seats
        return np.where(self.nominee, pos, self.n)

    @lazy
    def my_accused(self) -> np.ndarray:
        return self.accused[self.rows, self.me]

    @lazy
    def my_black(self) -> np.ndarray:
        return self.claimed_black[self.rows, self.me]

    @lazy
    def my_red(self) -> np.ndarray:
        return self.claimed_red[self.rows, self.me]

    @lazy
    def called_me_black(self) -> np.ndarray:
        """[R, n]: who called the reader black."""
        return self.claimed_black[self.rows, :, self.me]

    @lazy
    def against_me(self) -> np.ndarray:
        """[R, n]: each seat's votes, nominations and accusations (twice) against the reader
        (`town_suspicion` fills it, from its products)."""
        rows, me = self.rows, self.me
        return (
            self.votes[rows, :, me]
            + self.nominations[rows, :, me]
            + self.accused[rows, :, me] * 2.0
        )

    @lazy
    def attacks(self) -> np.ndarray:
        """[R, n, n]: accusations and black calls of each seat against each."""
        return self.accused.astype(np.float32) + self.claimed_black

    @lazy
    def team_attacks(self) -> np.ndarray:
        """[R, n]: each seat's accusations and black calls against the reader's team."""
        return (self.attacks @ self.team.astype(np.float32)[:, :, None])[..., 0]

    @lazy
    def votes_noms(self) -> np.ndarray:
        """[R, n, n]: votes and nominations of each seat against each."""
        return self.votes + self.nominations

    @lazy
    def _calls(self) -> np.ndarray:
        """[2, R, n]: each seat's calls that refute a sheriff claim (a seat called both red
        and black, an accused red check, a vouched black one), and every check he called."""
        red, black = self.claimed_red, self.claimed_black
        refuting = (red & (black | self.accused)) | (black & self.vouched)
        return np.array([refuting, red | black], dtype=np.float32) @ _ones(self.n)

    @lazy
    def checks_said(self) -> np.ndarray:
        """[R, n]: the checks each seat claimed."""
        return self._calls[1]

    @lazy
    def public_credible(self) -> np.ndarray:
        """[R, n]: a sheriff claim the public facts do not refute: no seat called both red and
        black, no accused red check, no vouched black one, no more checks than nights have
        passed."""
        refuting, said = self._calls
        return (refuting == 0) & (said <= np.maximum(0, self.day - 1)[:, None])

    # -------------------------------------------------------------- readings

    @lazy
    def _reading(self) -> tuple[np.ndarray, np.ndarray]:
        return self.bot.read_table(self)

    @lazy
    def sus(self) -> np.ndarray:
        """[R, n]: the town's reading of each seat, higher is more likely black."""
        return self._reading[0]

    @lazy
    def trusted(self) -> np.ndarray:
        """[R]: the sheriff the reader believes (himself, if he is the sheriff); -1: none."""
        return self._reading[1]

    @lazy
    def post(self) -> Any:
        """The posterior over the deal (`baselines.rule.posterior.Posterior`)."""
        return self.bot.posterior(self)

    @lazy
    def own_p(self) -> np.ndarray:
        """[R, n]: the reader's P(black) per seat (the town's, for a mafia reader)."""
        return np.where(self.black[:, None], self.post.town_p, self.post.p)

    def suspicion(self) -> tuple[np.ndarray, np.ndarray]:
        """Return every row's town reading [R, n] and trusted sheriff [R] (-1: none)."""
        return self._reading

    # ---------------------------------------------------------- the actions

    @lazy
    def pass_idx(self) -> int:
        return self.layout.offset[Act.PASS]

    @lazy
    def pass_legal(self) -> np.ndarray:
        return self.masks[:, self.pass_idx]

    @lazy
    def pass_choice(self) -> np.ndarray:
        """[R]: pass where it is legal, else NONE."""
        return np.where(self.pass_legal, self.pass_idx, NONE)

    @lazy
    def _flat(self) -> tuple[np.ndarray, np.ndarray]:
        return self.masks.reshape(-1), self.rows * self.masks.shape[1]

    def off(self, act: Act) -> int:
        """The offset of `act`'s segment, -1 where the variant lacks it."""
        return self.layout.offset.get(act, -1)

    def seg(self, act: Act) -> np.ndarray:
        """[R, n]: the seats `act` may target now."""
        key = f"_seg{int(act)}"
        got = self.__dict__.get(key)
        if got is None:
            off = self.off(act)
            if off < 0:
                got = np.zeros((self.R, self.n), dtype=bool)
            else:
                got = self.masks[:, off : off + self.n]
            self.__dict__[key] = got
        return got

    @lazy
    def nominable(self) -> np.ndarray:
        """[R, n]: the seats the reader may nominate now, other than himself."""
        return self.seg(Act.NOMINATE) & self.not_me

    def legal(self, idx: np.ndarray) -> np.ndarray:
        """Whether each action index ([R] or [R, k]; NONE: no choice) is legal in its row."""
        flat, base = self._flat
        base = base[:, None] if idx.ndim > 1 else base
        return (idx >= 0) & flat[np.maximum(idx, 0) + base]

    def at(self, x: np.ndarray, seat: np.ndarray) -> np.ndarray:
        """``x[row, seat[row]]`` for [R, n] `x` and seats that may be NONE (read as 0)."""
        return x[self.rows, np.maximum(seat, 0)]

    # ------------------------------------------------- the mafia's shared draws

    def table_hash(self, i: int, salt: int) -> int:
        """A hash of what every player of row `i`'s game shares today: who is alive, the
        earlier votes, the day (and `salt`): every mafia member computes it alike."""
        crcs = self.__dict__.setdefault("_crcs", {})
        crc = crcs.get(i)
        if crc is None:
            v = self.v
            alive = zlib.crc32(v["alive"][i].tobytes())
            crc = crcs[i] = zlib.crc32(v["votes_before"][i].tobytes(), alive)
        return zlib.crc32(struct.pack("=qq", int(self.day[i]), salt), crc)


# numpy's reductions called as ufunc methods: ``x.any(axis=1)``, ``x.max(axis=1)`` go through a
# Python wrapper (numpy's ``_methods``) that costs about a third of the reduction at these
# sizes; the same reduction, the same result. `any_of` takes bool arrays (``x.any`` casts
# others to bool first). Whether a whole array has a set entry is ``np.count_nonzero(x)``,
# a fifth of the cost of ``x.any()``.
any_of = np.logical_or.reduce
max_of = np.maximum.reduce
min_of = np.minimum.reduce


def one_hot(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the index of the set entry of each one-hot row of `x` (its last axis; 0 where
    none is) and whether one is set: ``x.argmax(-1), x.any(-1)`` for one-hot rows of numbers
    in [0, 1], as observations are, in fewer passes (numpy's reductions along a short last
    axis are slow on many rows)."""
    k = x.argmax(axis=-1)
    if x.ndim == 2:
        return k, x[np.arange(len(x)), k] > 0
    flat = x.reshape(-1, x.shape[-1])  # the entry at k, by one flat lookup
    return k, flat[np.arange(len(flat)), k.reshape(-1)].reshape(k.shape) > 0


def row_sums(*xs: np.ndarray) -> list[np.ndarray]:
    """Return ``x.sum(-1)`` of each [R, n, n] array, summed as float32 by a product with ones
    (counts and counts scaled back from the observation are small integers: exact; numpy's
    reductions along a short last axis are several times slower than the product)."""
    ones = _ones(xs[0].shape[-1])
    return [x.astype(np.float32, copy=False) @ ones for x in xs]


@cache
def _ones(n: int) -> np.ndarray:
    out = np.ones(n, dtype=np.float32)
    out.flags.writeable = False
    return out


def row_dots(ms: list[np.ndarray], cols: list[np.ndarray]) -> np.ndarray:
    """Return ``out[i, j, r, s]``: the sum of ``ms[i][r, s, t]`` over the seats t that
    ``cols[j][r]`` marks, for [R, n, n] matrices and [R, n] masks (exact, as `row_sums`)."""
    R, n = ms[0].shape[:2]
    c = np.array(cols, dtype=np.float32).transpose(1, 2, 0)  # [R, n, C]
    m = np.concatenate([x.astype(np.float32, copy=False) for x in ms], axis=1)  # [R, M n, n]
    out = (m @ c).reshape(R, len(ms), n, -1)  # one product a row: [R, M, n, C]
    return out.transpose(1, 3, 0, 2)  # [M, C, R, n]


class Seen:
    """What one agent sees now: row `i` of a `SeenBatch` (by default the batch of `obs`
    alone). Any field of the batch reads as its row (``seen.alive`` is [n])."""

    def __init__(
        self,
        bot: Bot,
        obs: np.ndarray | None,
        mask: np.ndarray | None = None,
        batch: SeenBatch | None = None,
        i: int = 0,
    ):
        if batch is None:
            batch = SeenBatch(bot, np.asarray(obs)[None], np.asarray(mask)[None])
        self.bot, self.batch, self.i = bot, batch, i

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.batch, name)[self.i]

    @property
    def v(self) -> dict[str, np.ndarray]:
        """The observation's named views."""
        return {name: view[self.i] for name, view in self.batch.v.all().items()}

    @property
    def me(self) -> int:
        return int(self.batch.me[self.i])

    @property
    def role(self) -> Role:
        return self.bot.roles[int(self.batch.role[self.i])]

    @property
    def team(self) -> Team:
        return self.role.team

    @property
    def day(self) -> int:
        return int(self.batch.day[self.i])

    @property
    def claimed(self) -> list[Role | None]:
        """Each seat's latest role claim (None: none)."""
        roles = self.bot.roles
        return [roles[k] if k < len(roles) else None for k in self.claim_kind.tolist()]

    def suspicion(self) -> np.ndarray:
        """Return the town's reading of each seat: higher is more likely black."""
        return self.batch.sus[self.i]

    def trusted(self) -> int | None:
        """Return the sheriff this agent believes, if any (itself, if it is the sheriff)."""
        t = int(self.batch.trusted[self.i])
        return None if t < 0 else t


__all__ = [
    "NONE",
    "Seen",
    "SeenBatch",
    "any_of",
    "lazy",
    "max_of",
    "min_of",
    "one_hot",
    "row_dots",
    "row_sums",
]
