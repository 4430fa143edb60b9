"""Reading the observation: what a rule bot sees, decoded from the observation's named views.

`SeenBatch` decodes a batch of observations at once (one row per agent); `Seen` is one row of
it, as the handlers read it (seats 0-based, as in the engine). The town's reading of the
table (`SeenBatch.suspicion`) is the bot's: `RulePolicy.read_table`
(`baselines.rule.suspicion.town_suspicion` for v1, the belief for v2).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

import numpy as np

from mafia_env.engine.kinds import Act
from mafia_env.engine.roles import Role, Team

Bot = Any  # the RulePolicy (baselines.rule.policy) a batch is read for
Choice = int | None


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


class SeenBatch:
    """What the agents of a batch see now, decoded from their observations' named views at once.

    Every field holds one row per observation (seats are 0-based): ``me`` [R], ``role`` [R]
    (an index into the bot's roles), ``alive`` [R, n], ``claimed_black`` [R, n, n] (claimer,
    target), and so on. `Seen` is one row of it, as the handlers read it; `town_suspicion`
    scores every row at once, on first use.
    """

    def __init__(self, bot: Bot, obs: np.ndarray, masks: np.ndarray):
        self.bot, self.masks = bot, masks
        R = len(obs)
        self.v = v = {
            name: obs[:, off : off + size].reshape(R, *shape)
            for name, off, size, shape in bot._pieces
        }
        rows = np.arange(R)
        self.me = v["seat"].argmax(axis=1)
        self.role = v["role"].argmax(axis=1)
        self.mate_kind, self.mate = one_hot(v["known_roles"])
        self.mate[rows, self.me] = False
        checks = v["checks"]
        self.checked_yes = checks[:, :, 0] > 0
        self.checked_no = checks[:, :, 1] > 0
        self.turn_kind, self.has_turn = turn, has_turn = one_hot(v["my_turn"])
        names = [bot.turn_names[t] for t in turn.tolist()]
        self.turn = [t if has else None for t, has in zip(names, has_turn.tolist(), strict=True)]
        self.day = np.rint(v["day"][:, 0].astype(np.float64) * bot.day_limit).astype(np.int64)
        self.acts_left = np.rint(v["acts_left"][:, 0].astype(np.float64) * bot.rules.speech_acts)
        self.alive = v["alive"] > 0
        self.candidates = v["candidates"] != 0
        noms = v["nominees"]  # the order of nomination: nominees first, by the order they came
        self.nominee_order = np.argsort(np.where(noms != 0, noms, np.inf), axis=1, kind="stable")
        self.nominee_count = (noms != 0).sum(axis=1)
        kind, said = one_hot(v["claimed_role"])
        self.claim_kind = np.where(said, kind, len(bot.roles))  # len(roles): no claim
        cc = v["claimed_check"]
        self.claimed_red = cc[..., 0] > 0  # [row, claimer, target]
        self.claimed_black = cc[..., 1] > 0
        self.accused = v["accused"] > 0
        self.vouched = v["vouched"] > 0
        # counts are scaled into [0, 1] in the observation: scale them back
        limit = bot.day_limit
        self.votes_today = v["votes"]  # the latest voting round
        self.votes = np.rint(v["votes"] + v["votes_before"] * (2 * limit))  # every round
        self.nominations = np.rint(v["nominations"] * limit)
        self.night_dead = v["eliminated"][..., 1] > 0
        # accusations and black calls, and votes and nominations, of each seat against each
        self.attacks = self.accused.astype(np.float32) + self.claimed_black
        self.votes_noms = self.votes + self.nominations
        # a sheriff claim that public facts do not refute: no seat called both red and black,
        # no more checks than nights have passed, no accused red check, no vouched black one
        red, black = self.claimed_red, self.claimed_black
        both, self.checks_said, accused_red, vouched_black = row_sums(
            red & black, red | black, self.accused & red, self.vouched & black
        )
        self.public_credible = ~(
            (both > 0)
            | (self.checks_said > np.maximum(0, self.day - 1)[:, None])
            | (accused_red > 0)
            | (vouched_black > 0)
        )
        self._sus: tuple[np.ndarray, np.ndarray] | None = None

    def suspicion(self) -> tuple[np.ndarray, np.ndarray]:
        """Return every row's town reading [R, n] and trusted sheriff [R] (-1: none)."""
        if self._sus is None:
            self._sus = self.bot.read_table(self)
        return self._sus

    def row(self, i: int) -> Seen:
        return Seen(self.bot, None, self.masks[i], self, i)

    @lazy
    def scalars(self) -> tuple[list[int], list[int], list[int], list[float]]:
        """Each row's seat, role, day and acts left as Python numbers (`Seen` reads them)."""
        return self.me.tolist(), self.role.tolist(), self.day.tolist(), self.acts_left.tolist()


def one_hot(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the index of the set entry of each one-hot row of `x` (its last axis; 0 where
    none is) and whether one is set: ``x.argmax(-1), x.any(-1)`` for one-hot rows of numbers
    in [0, 1], as observations are, in fewer passes."""
    k = x.argmax(axis=-1)
    flat = x.reshape(-1, x.shape[-1])  # the entry at k, by one flat lookup
    return k, flat[np.arange(len(flat)), k.reshape(-1)].reshape(k.shape) > 0


def row_sums(*xs: np.ndarray) -> list[np.ndarray]:
    """Return ``x.sum(-1)`` of each [R, n, n] array, summed as float32 by a product with ones
    (counts and counts scaled back from the observation are small integers: exact; numpy's
    reductions along a short last axis are several times slower than the product)."""
    ones = np.ones(xs[0].shape[-1], dtype=np.float32)
    return [x.astype(np.float32, copy=False) @ ones for x in xs]


def row_dots(ms: list[np.ndarray], cols: list[np.ndarray]) -> np.ndarray:
    """Return ``out[i, j, r, s]``: the sum of ``ms[i][r, s, t]`` over the seats t that
    ``cols[j][r]`` marks, for [R, n, n] matrices and [R, n] masks (exact, as `row_sums`)."""
    R, n = ms[0].shape[:2]
    c = np.stack(cols, axis=2).astype(np.float32)  # [R, n, C]
    m = np.concatenate([x.astype(np.float32, copy=False) for x in ms], axis=1)  # [R, M n, n]
    out = (m @ c).reshape(R, len(ms), n, -1)  # one product a row: [R, M, n, C]
    return np.moveaxis(out, (1, 3), (0, 1))  # [M, C, R, n]


def _row(name: str) -> lazy:
    """A `Seen` field: row `i` of its batch's field `name`, read on first use."""
    return lazy(lambda seen: getattr(seen.batch, name)[seen.i])


class Seen:
    """What one agent sees now: row `i` of a `SeenBatch` (by default the batch of `obs` alone)."""

    checked_yes = _row("checked_yes")
    checked_no = _row("checked_no")
    alive = _row("alive")
    claim_kind = _row("claim_kind")  # role index; len(roles): no claim
    claimed_red = _row("claimed_red")  # claimer -> target
    claimed_black = _row("claimed_black")
    accused = _row("accused")
    vouched = _row("vouched")
    votes_today = _row("votes_today")
    votes = _row("votes")
    nominations = _row("nominations")
    night_dead = _row("night_dead")

    def __init__(
        self,
        bot: Bot,
        obs: np.ndarray | None,
        mask: np.ndarray,
        batch: SeenBatch | None = None,
        i: int = 0,
    ):
        if batch is None:
            batch = SeenBatch(bot, np.asarray(obs)[None], np.asarray(mask)[None])
        self.batch, self.i = batch, i
        self.bot = bot
        self.mask = mask
        self.n = bot.n
        me, role, day, acts_left = batch.scalars
        self.me = me[i]
        self.role: Role = bot.roles[role[i]]
        self.team = self.role.team
        self.turn: str | None = batch.turn[i]
        self.day = day[i]
        self.acts_left = int(acts_left[i])

    @lazy
    def v(self) -> dict[str, np.ndarray]:
        """The observation's named views."""
        return {name: view[self.i] for name, view in self.batch.v.items()}

    @lazy
    def table_crc(self) -> int:
        """A hash of who is alive and of the earlier votes (`public_hash` adds the day)."""
        v, i = self.batch.v, self.i
        return zlib.crc32(v["votes_before"][i].tobytes(), zlib.crc32(v["alive"][i].tobytes()))

    @lazy
    def mates(self) -> list[int]:
        return self.batch.mate[self.i].nonzero()[0].tolist()

    @lazy
    def mate_roles(self) -> dict[int, Role]:
        kind = self.batch.mate_kind[self.i]
        return {s: self.bot.roles[int(kind[s])] for s in self.mates}

    @lazy
    def candidates(self) -> list[int]:
        return self.batch.candidates[self.i].nonzero()[0].tolist()

    @lazy
    def nominees(self) -> list[int]:
        """The nominees in the order they were nominated."""
        b = self.batch
        return b.nominee_order[self.i, : b.nominee_count[self.i]].tolist()

    @lazy
    def claimed(self) -> list[Role | None]:
        roles = self.bot.roles
        return [roles[k] if k < len(roles) else None for k in self.claim_kind.tolist()]

    # ------------------------------------------------------------- legality

    def can(self, act: Act, target: int = -1, value: int = -1) -> Choice:
        """Return the index of an action if it is legal now, else None."""
        layout = self.bot.layout
        if act not in layout.offset:
            return None
        i = layout.encode(act, target, value)
        return i if self.mask[i] else None

    def targets(self, act: Act) -> list[int]:
        """Return the seats `act` may target now."""
        layout = self.bot.layout
        if act not in layout.offset:
            return []
        off = layout.offset[act]
        return self.mask[off : off + self.bot.n].nonzero()[0].tolist()

    # ------------------------------------------------------------ the table

    @property
    def black_team(self) -> bool:
        return self.team is Team.MAFIA

    def is_mafia(self, s: int) -> bool:
        """Whether `s` is known to this agent as a member of its mafia team."""
        return self.black_team and (s == self.me or s in self.mates)

    @lazy
    def _claimants(self) -> list[int]:
        return (self.claim_kind == self.bot.sheriff_kind).nonzero()[0].tolist()

    def sheriff_claimants(self) -> list[int]:
        return self._claimants

    def trusted(self) -> int | None:
        """Return the sheriff this agent believes, if any (itself, if it is the sheriff)."""
        t = int(self.batch.suspicion()[1][self.i])
        return None if t < 0 else t

    def suspicion(self) -> np.ndarray:
        """Return the town's reading of each seat: higher is more likely black."""
        return self.batch.suspicion()[0][self.i]


__all__ = ["Choice", "Seen", "SeenBatch", "lazy", "one_hot", "row_dots", "row_sums"]
