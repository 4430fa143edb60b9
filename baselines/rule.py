"""Rule-based bots that play as a sensible club player would.

`RulePolicy` serves every seat of every role: each call reads one observation through its
named views (`mafia_env.observe.ObsLayout.views`) and the action mask, and never the
environment's hidden state. It keeps no memory between calls: everything it needs (what it
said in this speech, its own checks, the claims on the table) is in the observation, so one
policy object can play any number of seats and games at once.

A decision is made in two steps. The kind of turn the agent is taking (the `my_turn` view:
"speech", "vote", "mafia_kill", ...) picks a handler from `RulePolicy.turns`; a turn kind with
no handler (a variant's new turn) falls back to ``pass`` where it is legal, else a uniformly
random legal action. Speech handlers are chosen by role (`RulePolicy.speakers`, then by team).
Whatever a handler returns is checked against the mask; an illegal or missing choice takes
the same fallback, so a bot never plays an illegal action.

Strategies (seats are 0-based inside, as in the engine):

- Town reading of the table (`town_suspicion`): a sheriff claimant is *credible* if his
  latest role claim is sheriff, he claims no more checks than nights have passed, never calls
  one seat both red and black, does not accuse a seat he called red (or vouch for one he
  called black), and did not call the reading player black (a town player knows he is red).
  A single credible claimant is trusted (if two are credible and exactly one was killed at
  night, the night victim is trusted: the mafia shoot the real sheriff). The trusted
  sheriff's black checks are strong evidence, his red checks and himself are cleared; a
  second sheriff claimant, players who defend his black checks or attack him or his red
  checks (accusing, voting, nominating) are suspected. Players who confess a black role,
  claim checks without claiming sheriff, vote or nominate against the reader or against
  players the mafia shot, or abstain, nominate or vote for themselves, are suspected a little.
- Civilian (and any town role without its own speaker): accuses a strong suspect, nominates
  a suspect (or, while nobody is nominated today, the top-scored player: someone must be put
  up), votes for the most suspected candidate (the earliest nominee on a tie, so the town's
  votes meet), abstains where abstaining is allowed and every candidate is cleared, and in a car
  crash votes yes when a tied player is suspected and none is cleared. In an open count
  (CLUB-E7, ONLINE-V7) every bot raises its hand at the count of the candidate it would vote
  for among those not counted yet.
- Sheriff: checks the most suspected unchecked player (seeded random among equals). When a
  check is black, or when in danger (nominated, in a tie speech or his last word), he claims
  sheriff, announces his black checks, then his red ones, and nominates a black check. Once
  claimed, he announces each new check. He knows every other sheriff claimant is black.
- Mafia (mafia and don): shoot by a ranking all mafia compute alike from public facts (the
  mafia's shots are not seen by each other, so agreement must come from shared knowledge): a
  credible sheriff claimant first, then a player the don accused (the don's signal that he
  found the sheriff), then players who accused or called a mafia member black, then players
  the town trusts, the rest in an order drawn from a hash of the public table; the sheriff a
  teammate counter-claims is not shot (it would prove the teammate a liar), and players the
  mafia nominated or voted against are shot last (no trail). Where they are awake together
  and all must agree (CLUB-N4, ONLINE-N8) a member shoots where a teammate already points.
  By day they blend in: they nominate only with a public reason (the town's own suspicion,
  or a player who acted against them), vote for the town player the town suspects most, vote
  out with the town a teammate it has exposed, and vote yes in a car crash only when no
  teammate is in it.
  Now and then (a coin flipped from the public table, so one designated member decides) a
  mafia player counter-claims sheriff with a false black check on the sheriff who exposed a
  teammate, or claims sheriff unprompted with a false black check on a town player.
- Don: as mafia, and checks for the sheriff among unchecked town players, preferring those
  who accused mafia members and leaving credible claimants (already targets) for last. When
  he finds the sheriff he accuses him in his next speech: that is the signal the other mafia
  members shoot by.
- Doctor: heals the trusted sheriff, else the player the town trusts most (never himself
  while someone else may be healed). Putana: blocks the most suspected player. Maniac: picks
  off players who claimed a role (sheriff, doctor, putana, ...), else a seeded random one.
  Free hunt (town): requested on the top suspect only when the suspicion is strong, since a
  wrong hunt kills the hunter. Executor (mafia): the member the town suspects least. The
  nomination round (naming a seat): the top suspect, or for the mafia their top target.
  Asked "do you claim role R?", a player answers yes iff R is the role he shows the table
  (his public claim, else civilian). These turns exist in the CITY, CLUB, ONLINE and FORUM
  rules; any other turn kind takes the fallback.

Randomness: the bot's own choices among equals come from a generator seeded by `seed`, so
games replay. Choices the mafia must share (kills, the designated counter-claimer) use a hash
of the public table instead, which every teammate computes alike.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np

from mafia_env.actions import ActionLayout
from mafia_env.engine.kinds import Act
from mafia_env.engine.roles import Role, Team
from mafia_env.engine.rules import ERAS, Rules, earlier_rules
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.observe import ObsLayout

BLACK_ROLES = frozenset(r for r in Role if r.team is not Team.TOWN)

# Weights of the town's reading of the table; a trusted sheriff's word outweighs behaviour.
W_CHECKED = 100.0  # own check result (sheriff)
W_SHERIFF_BLACK = 20.0  # a trusted sheriff called him black
W_SHERIFF_RED = -10.0  # a trusted sheriff called him red
W_TRUSTED = -30.0  # the trusted sheriff himself
W_COUNTERCLAIM = 15.0  # claims sheriff against the trusted sheriff
W_FALSE_SHERIFF = 8.0  # a sheriff claim that cannot be true
W_TWO_CLAIMS = 1.0  # one of two credible claimants lies
W_CONFESS = 25.0  # claims a black role
W_LIE = 3.0  # claims checks without claiming sheriff
W_SIDE = 3.0  # speaks for a black check or against the sheriff or a red check
W_VOTE_SIDE = 2.0  # votes or nominates against the sheriff or a red check
W_VOTE_BLACK = -1.0  # votes with the sheriff against a black check
W_AGAINST_ME = 1.0  # votes for, nominates or accuses me (I know I am town)
W_AGAINST_VICTIM = 1.0  # voted for or nominated a player the mafia later shot
W_ODD = 1.0  # nominates or votes for himself, or abstains
STRONG = 10.0  # a suspicion worth an accusation
COUNTERCLAIM_P = 0.5  # chance the mafia counter-claim a sheriff who exposed one of them
FAKE_CLAIM_P = 0.1  # chance a day the mafia claim sheriff unprompted (no claim yet)

Choice = int | None


class SeenBatch:
    """What the agents of a batch see now, decoded from their observations' named views at once.

    Every field holds one row per observation (seats are 0-based): ``me`` [R], ``role`` [R]
    (an index into the bot's roles), ``alive`` [R, n], ``claimed_black`` [R, n, n] (claimer,
    target), and so on. `Seen` is one row of it, as the handlers read it; `town_suspicion`
    scores every row at once, on first use.
    """

    def __init__(self, bot: RulePolicy, obs: np.ndarray, masks: np.ndarray):
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
        turn, has_turn = one_hot(v["my_turn"])
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
            self._sus = town_suspicion(self)
        return self._sus

    def row(self, i: int) -> Seen:
        return Seen(self.bot, None, self.masks[i], self, i)


def one_hot(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the index of the set entry of each one-hot row of `x` (its last axis; 0 where
    none is) and whether one is set: ``x.argmax(-1), x.any(-1)`` for one-hot rows of numbers
    in [0, 1], as observations are, in fewer passes."""
    k = x.argmax(axis=-1)
    return k, np.take_along_axis(x, k[..., None], axis=-1)[..., 0] > 0


def row_sums(*xs: np.ndarray) -> list[np.ndarray]:
    """Return ``x.sum(-1)`` of each [R, n, n] array, summed at once as float32 (counts and
    counts scaled back from the observation are small integers: exact)."""
    stacked = np.stack(xs, axis=2).astype(np.float32, copy=False)  # [R, n, len(xs), n]
    sums = stacked @ np.ones(stacked.shape[-1], dtype=np.float32)
    return list(np.moveaxis(sums, 2, 0))


def row_dots(ms: list[np.ndarray], cols: list[np.ndarray]) -> np.ndarray:
    """Return ``out[i, j, r, s]``: the sum of ``ms[i][r, s, t]`` over the seats t that
    ``cols[j][r]`` marks, for [R, n, n] matrices and [R, n] masks (exact, as `row_sums`)."""
    m = np.stack(ms).astype(np.float32, copy=False)  # [M, R, n, n]
    c = np.stack(cols, axis=2).astype(np.float32)  # [R, n, C]
    return np.moveaxis(m @ c, 3, 1)  # [M, C, R, n]


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
        bot: RulePolicy,
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
        self.me = int(batch.me[i])
        self.role: Role = bot.roles[int(batch.role[i])]
        self.team = self.role.team
        self.turn: str | None = batch.turn[i]
        self.day = int(batch.day[i])
        self.acts_left = int(batch.acts_left[i])

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
        return np.flatnonzero(self.batch.mate[self.i]).tolist()

    @lazy
    def mate_roles(self) -> dict[int, Role]:
        kind = self.batch.mate_kind[self.i]
        return {s: self.bot.roles[int(kind[s])] for s in self.mates}

    @lazy
    def candidates(self) -> list[int]:
        return np.flatnonzero(self.batch.candidates[self.i]).tolist()

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
        return np.flatnonzero(self.claim_kind == self.bot.sheriff_kind).tolist()

    def sheriff_claimants(self) -> list[int]:
        return self._claimants

    def trusted(self) -> int | None:
        """Return the sheriff this agent believes, if any (itself, if it is the sheriff)."""
        t = int(self.batch.suspicion()[1][self.i])
        return None if t < 0 else t

    def suspicion(self) -> np.ndarray:
        """Return the town's reading of each seat: higher is more likely black."""
        return self.batch.suspicion()[0][self.i]


def town_suspicion(b: SeenBatch) -> tuple[np.ndarray, np.ndarray]:
    """Score every seat from each row's town point of view: scores [R, n], trusted sheriff [R].

    A sheriff claimant is credible to a reader if his claim is publicly credible, he did not
    call a town reader black (a town player knows he is red) and the reader is not the
    sheriff. The trusted sheriff is -1 where the reader believes none. A mafia player computes
    the same reading (without his private knowledge) to predict the town: it is what the
    town bots will believe.
    """
    bot = b.bot
    R, n = b.alive.shape
    rows, seat = np.arange(R), np.arange(n)
    me = b.me
    is_me = seat == me[:, None]
    sheriff = b.role == bot.sheriff_kind  # the reader is the sheriff
    town = bot.town_role[b.role]
    claimants = (b.claim_kind == bot.sheriff_kind) & ~is_me
    sus = np.zeros((R, n))
    sus += W_CHECKED * (claimants & sheriff[:, None])  # the sheriff knows every other one lies
    cred = (
        claimants
        & b.public_credible
        & ~(town[:, None] & b.claimed_black[rows, :, me])  # he called me black
        & ~sheriff[:, None]
    )
    sus += W_FALSE_SHERIFF * (claimants & ~cred & ~sheriff[:, None])
    ncred = cred.sum(axis=1)
    shot = cred & b.night_dead  # of two credible claimants, the mafia shoot the real sheriff
    nshot = shot.sum(axis=1)
    trusted = np.where(ncred == 1, cred.argmax(axis=1), -1)
    trusted = np.where((ncred > 1) & (nshot == 1), shot.argmax(axis=1), trusted)
    sus += W_TWO_CLAIMS * (cred & ((ncred > 1) & (nshot != 1))[:, None])
    trusted = np.where(sheriff, me, trusted)
    is_trusted = seat == trusted[:, None]  # no seat where none is trusted
    sus += W_COUNTERCLAIM * (cred & ~is_trusted & (trusted >= 0)[:, None])
    has = (trusted >= 0)[:, None]
    t = np.maximum(trusted, 0)
    blacks = np.where(sheriff[:, None], b.checked_yes, b.claimed_black[rows, t]) & has
    reds = np.where(sheriff[:, None], b.checked_no, b.claimed_red[rows, t]) & has
    sus += np.where(sheriff, W_CHECKED, W_SHERIFF_BLACK)[:, None] * blacks
    sus += np.where(sheriff, -W_CHECKED, W_SHERIFF_RED)[:, None] * reds
    cleared = reds | is_trusted
    others = ~is_trusted
    # each seat's votes, nominations, vouches, accusations and black calls: [what, on whom, R, n]
    # on whom: the black checks, the cleared (the sheriff and his red checks), the night dead
    by_votes, by_noms, by_vouch, by_accuse, by_call = row_dots(
        [b.votes, b.nominations, b.vouched, b.accused, b.claimed_black],
        [blacks, cleared, b.night_dead],
    )
    # speaking for a black check, or against the sheriff or a red check
    side = by_vouch[0] + by_accuse[1] + by_call[1]
    sus += W_SIDE * side * others
    sus += W_VOTE_SIDE * (by_votes[1] + by_noms[1]) * others
    sus += W_VOTE_BLACK * by_votes[0] * others
    sus += W_TRUSTED * is_trusted
    # confessions, and checks claimed without a sheriff claim (lies)
    confess = bot.black_claim[b.claim_kind]
    sus += W_CONFESS * confess
    sus += W_LIE * (~confess & (b.checks_said > 0) & (b.claim_kind != bot.sheriff_kind))
    # behaviour: against me (I know I am town), against the mafia's victims, odd play
    against_me = b.votes[rows, :, me] + b.nominations[rows, :, me] + b.accused[rows, :, me] * 2.0
    sus += W_AGAINST_ME * against_me * town[:, None]
    sus += W_AGAINST_VICTIM * (by_votes[2] + by_noms[2])
    sus += W_ODD * (
        np.diagonal(b.votes, axis1=1, axis2=2) + np.diagonal(b.nominations, axis1=1, axis2=2)
    )
    (voted,) = row_sums(b.votes_today)  # today's vote is over: who abstained?
    voters = b.alive if bot.rules.nominees_vote else b.alive & ~b.candidates
    over = b.candidates.any(axis=1) & (voted > 0).any(axis=1)
    counting = b.v.get("counting")
    if counting is not None:  # an open count under way (CLUB-E7): not over yet
        over &= ~counting.any(axis=1)
    sus += W_ODD * ((voted == 0) & voters & over[:, None])
    sus[rows[town], me[town]] = -1e9
    return sus, trusted


def public_hash(seen: Seen, salt: int = 0) -> int:
    """Return a hash of facts every player shares for the whole day or night."""
    return zlib.crc32(struct.pack("=qq", seen.day, salt), seen.table_crc)


def public_noise(seen: Seen, salt: int) -> np.ndarray:
    """Return `n` numbers in [0, 1) drawn from a generator seeded by `public_hash`.

    Every mafia member draws them alike; they are kept by hash, since a day's turns draw
    the same ones over and over.
    """
    key = public_hash(seen, salt)
    cache = seen.bot.noise
    x = cache.get(key)
    if x is None:
        if len(cache) >= 4096:
            cache.clear()
        x = cache[key] = np.random.default_rng(key).random(seen.n)
        x.flags.writeable = False
    return x


def coin(seen: Seen, salt: int) -> float:
    """Return a number in [0, 1) that every mafia member draws alike today."""
    return (public_hash(seen, salt) & 0xFFFFFF) / float(1 << 24)


def mafia_ranking(seen: Seen, night: bool = False) -> np.ndarray:
    """Score the town players as the mafia's targets; every mafia member computes the same.

    At night a player the mafia nominated or voted against is shot last (a trail to them).
    """
    n = seen.n
    black = np.zeros(n, dtype=bool)
    black[seen.me] = True
    black[seen.mates] = True
    black_f = black.astype(np.float32)
    score = np.zeros(n)
    # shooting the sheriff a teammate counter-claims would prove the teammate a liar
    covered = any(black[c] for c in seen.sheriff_claimants())
    for c in seen.sheriff_claimants():
        if not black[c] and not covered:
            score[c] += 100.0 if public_credible(seen, c) else 5.0
    dons = [s for s in [seen.me, *seen.mates] if role_of(seen, s) is Role.DON]
    for d in dons:  # the don's signal: he accuses the sheriff he found
        score += 90.0 * seen.accused[d]
    score += 10.0 * (seen.batch.attacks[seen.i] @ black_f)  # accused or called a member black
    # players the town trusts: red-checked by a credible claimant
    for c in seen.sheriff_claimants():
        if not black[c] and public_credible(seen, c):
            score += 5.0 * seen.claimed_red[c]
    if night:
        trail = black_f @ seen.batch.votes_noms[seen.i]
        score -= 3.0 * np.minimum(trail, 1)
    score += public_noise(seen, int(night))
    score[black] = -1e9
    score[~seen.alive] = -1e9
    return score


def mafia_day_scores(seen: Seen) -> np.ndarray:
    """Score the town players as the mafia's day targets: go with the town's own suspicion.

    The mafia push the town player the town already suspects most, which costs them no
    suspicion of their own (voting against a trusted sheriff would expose them).
    """
    score = seen.suspicion().copy()
    score += 0.1 * public_noise(seen, 3)
    score[seen.me] = -1e9
    score[seen.mates] = -1e9
    score[~seen.alive] = -1e9
    return score


def public_credible(seen: Seen, c: int) -> bool:
    """Whether `c`'s sheriff claim is credible on public facts alone (see `SeenBatch`)."""
    return bool(seen.batch.public_credible[seen.i, c])


def role_of(seen: Seen, s: int) -> Role | None:
    return seen.role if s == seen.me else seen.mate_roles.get(s)


class RulePolicy:
    """Rule-based bot for every role of a variant (strategies: see the module docstring)."""

    def __init__(
        self,
        variant: str | Rules | GameSpec = "sport",
        num_players: int | None = None,
        seed: int = 0,
    ):
        self.spec = spec = GameSpec.make(variant, num_players)
        self.rules = rules = spec.rules
        self.n = n = spec.n
        self.layout = ActionLayout.of(spec)
        self.obs_layout = ObsLayout.of(spec)
        self.roles = rules.roles_in_play()
        self.day_limit = rules.day_limit(n)
        self.turn_names = [t.name.lower() for t in self.obs_layout.turns]  # the my_turn piece
        self._pieces = [
            (name, off, int(np.prod(shape)), shape)
            for name, (off, shape) in self.obs_layout.offsets.items()
        ]
        self._earlier: dict[int, RulePolicy | None] = {}  # by observation size, made on demand
        self.seed(seed)
        self.has_sheriff = Role.SHERIFF in self.roles
        # by role index, with one more entry for "no claim"
        self.black_claim = np.array([r in BLACK_ROLES for r in self.roles] + [False])
        self.sheriff_kind = self.roles.index(Role.SHERIFF) if self.has_sheriff else -1
        self.town_role = np.array([r.team is Team.TOWN for r in self.roles])
        self.noise: dict[int, np.ndarray] = {}  # public_noise's draws, by public hash
        # turn kind -> handler; a kind missing here falls back to pass / random legal
        self.turns: dict[str, Callable[[Seen], Choice]] = {
            "speech": self.speech,
            "last_word": self.speech,
            "tie_speech": self.speech,
            "vote": self.vote,
            "open_vote": self.open_vote,
            "crash_vote": self.crash_vote,
            "mafia_kill": self.mafia_kill,
            "don_check": self.don_check,
            "sheriff_check": self.sheriff_check,
            # turns of the CITY, CLUB, ONLINE and FORUM rules (idle where a variant lacks them)
            "monologue": self.speech,
            "naming": self.naming,
            "putana": self.putana,
            "doctor": self.doctor,
            "maniac": self.maniac,
            "executor": self.executor,
            "hunt": self.hunt,
            "answer": self.answer,
        }
        # role -> speech planner; a role missing here speaks as its team does
        self.speakers: dict[Role, Callable[[Seen], list[Choice]]] = {
            Role.SHERIFF: self.sheriff_speech,
            Role.DON: self.don_speech,
        }
        self.team_speakers: dict[Team, Callable[[Seen], list[Choice]]] = {
            Team.TOWN: self.town_speech,
            Team.MAFIA: self.mafia_speech,
        }

    def seed(self, seed: int) -> None:
        """Restart the bot's random stream."""
        self._seed = seed
        self.rng = np.random.default_rng(seed)
        for other in self._earlier.values():
            if other is not None:
                other.seed(seed)

    def earlier(self, size: int) -> RulePolicy | None:
        """Return the bot of this variant under the rules of an earlier era whose observations
        have `size` floats (the tables and tasks that keep those rules: `earlier_rules`)."""
        if size not in self._earlier:
            self._earlier[size] = None
            for era in sorted(ERAS, reverse=True):
                then = self.rules.with_knobs(**earlier_rules(self.rules.name, era))
                if then != self.rules and ObsLayout(then, self.n).size == size:
                    self._earlier[size] = RulePolicy(then, self.n, self._seed)
                    break
        return self._earlier[size]

    def views(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """Return the observation's named views (as `ObsLayout.views`, offsets computed once)."""
        return {
            name: obs[off : off + size].reshape(shape) for name, off, size, shape in self._pieces
        }

    # ------------------------------------------------------------- protocol

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """Return a legal action for one observation."""
        obs, mask = np.asarray(obs), np.asarray(mask)
        if obs.ndim != 1 or mask.ndim != 1:
            self._check_shapes(obs.shape, mask.shape)
        return int(self.act_batch(obs[None], mask[None])[0])

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Return one legal action per row: the rows are read at once, then decided in order."""
        obs, masks = np.asarray(obs), np.asarray(masks)
        if obs.ndim != 2 or masks.ndim != 2 or len(obs) != len(masks):
            self._check_shapes(obs.shape, masks.shape)
        if obs.shape[1] != self.obs_layout.size or masks.shape[1] != self.layout.size:
            other = self.earlier(obs.shape[1])  # a game under the rules of its time
            if other is not None and masks.shape[1] == other.layout.size:
                return other.act_batch(obs, masks)
            self._check_shapes(obs.shape[1:], masks.shape[1:])
        legal = (masks != 0).sum(axis=1)
        out = (masks != 0).argmax(axis=1)  # rows with nothing to decide: their one action
        rows = np.flatnonzero(legal != 1)
        if rows.size:
            batch = SeenBatch(self, obs[rows], masks[rows])
            for j, r in enumerate(rows.tolist()):
                out[r] = self._decide(batch.row(j))
        return out

    def probs(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Return the probability of every action for one observation (see `probs_batch`)."""
        return self.probs_batch(np.asarray(obs)[None], np.asarray(mask)[None])[0]

    def probs_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Return the probability of every action per row: the bot's choice, its seeded draws
        among equals (`pick`, `fallback`) spread uniformly over every way they could fall."""
        obs, masks = np.asarray(obs), np.asarray(masks)
        out = np.zeros(masks.shape, dtype=np.float64)
        legal = (masks != 0).sum(axis=1)
        one = np.flatnonzero(legal == 1)
        out[one, (masks[one] != 0).argmax(axis=1)] = 1.0
        rows = np.flatnonzero(legal != 1)
        if not rows.size:
            return out
        batch = SeenBatch(self, obs[rows], masks[rows])
        keep = self.rng
        try:
            for j, r in enumerate(rows.tolist()):
                seen = batch.row(j)
                pending: list[tuple[int, ...]] = [()]
                while pending:  # every outcome of the draws, each with its probability
                    script = pending.pop()
                    self.rng = _Draws(script)
                    action = self._decide(seen)
                    p = 1.0
                    for i, k in enumerate(self.rng.calls):
                        if i >= len(script):
                            pending += [
                                script + (0,) * (i - len(script)) + (v,) for v in range(1, k)
                            ]
                        p /= k
                    out[r, action] += p
        finally:
            self.rng = keep
        return out

    def _check_shapes(self, obs: tuple[int, ...], mask: tuple[int, ...]) -> None:
        raise ConfigError(
            f"rule bot for {self.rules.name!r} with {self.n} players expects observations "
            f"of size {self.obs_layout.size} and masks of size {self.layout.size}; got "
            f"{obs} and {mask}"
        )

    def _decide(self, seen: Seen) -> int:
        handler = self.turns.get(seen.turn) if seen.turn is not None else None
        choice = handler(seen) if handler is not None else None
        if choice is None or not seen.mask[choice]:
            return self.fallback(seen.mask)
        return int(choice)

    def fallback(self, mask: np.ndarray) -> int:
        """Pass where passing is legal, else a uniformly random legal action."""
        if mask[self.layout.offset[Act.PASS]]:
            return self.layout.offset[Act.PASS]
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("the mask allows no action")
        return int(legal[self.rng.integers(legal.size)])

    def pick(self, scores: np.ndarray, allowed: list[int]) -> int | None:
        """Return the allowed seat of highest score, seeded random among equals."""
        if not allowed:
            return None
        vals = scores[allowed].tolist()
        top = max(vals) - 1e-9
        best = [s for s, x in zip(allowed, vals, strict=True) if x >= top]
        if len(best) == 1:  # rng.integers(1) would draw nothing from the stream
            return best[0]
        return best[int(self.rng.integers(len(best)))]

    # -------------------------------------------------------------- speech

    def speech(self, seen: Seen) -> Choice:
        """Do the first act of the role's plan that is legal and not yet done, else end."""
        planner = self.speakers.get(seen.role) or self.team_speakers.get(seen.team)
        plan = planner(seen) if planner is not None else []
        for choice in plan:
            if choice is not None and seen.mask[choice]:
                return choice
        return seen.can(Act.PASS)

    def claim(self, seen: Seen, role: Role) -> Choice:
        if seen.claimed[seen.me] is role:
            return None
        return seen.can(Act.CLAIM_ROLE, -1, int(role))

    def say_check(self, seen: Seen, target: int, black: bool) -> Choice:
        said = seen.claimed_black if black else seen.claimed_red
        if said[seen.me, target]:
            return None
        return seen.can(Act.CLAIM_CHECK, target, int(black))

    def accuse(self, seen: Seen, target: int) -> Choice:
        return None if seen.accused[seen.me, target] else seen.can(Act.ACCUSE, target)

    def nominate(self, seen: Seen, scores: np.ndarray, floor: float) -> Choice:
        """Nominate the highest-scored seat above `floor` that may be nominated."""
        sc = scores.tolist()
        allowed = [t for t in seen.targets(Act.NOMINATE) if sc[t] > floor and t != seen.me]
        if not allowed:
            return None
        top = max(sc[t] for t in allowed)
        if any(sc[t] >= top for t in seen.nominees):
            return None  # the top suspect is already up for the vote
        return seen.can(Act.NOMINATE, self.pick(scores, allowed))

    def town_speech(self, seen: Seen) -> list[Choice]:
        """Civilian: accuse a strong suspect, nominate the top suspect."""
        sus = seen.suspicion()
        plan: list[Choice] = []
        alive = [s for s in np.flatnonzero(seen.alive).tolist() if s != seen.me]
        if alive:
            top = self.pick(sus, alive)
            if top is not None and sus[top] >= STRONG:
                plan.append(self.accuse(seen, top))
        # someone must be put up for the vote: with nobody nominated yet, the top suspect
        plan.append(self.nominate(seen, sus, 0.0 if seen.nominees else -1e8))
        return plan

    def sheriff_speech(self, seen: Seen) -> list[Choice]:
        """Sheriff: claim and announce checks once black is found or in danger; nominate black."""
        me = seen.me
        blacks = [s for s in np.flatnonzero(seen.checked_yes)]
        reds = [s for s in np.flatnonzero(seen.checked_no)]
        live_black = [int(s) for s in blacks if seen.alive[s]]
        danger = (
            seen.turn in ("last_word", "tie_speech")
            or me in seen.nominees
            or me in seen.candidates
            or seen.claimed[me] is Role.SHERIFF
            or seen.claimed_black[:, me].any()  # a false sheriff calls me black
        )
        plan: list[Choice] = []
        if live_black or danger:
            plan.append(self.claim(seen, Role.SHERIFF))
            plan += [self.say_check(seen, int(s), True) for s in live_black]
            plan += [self.say_check(seen, int(s), True) for s in blacks if not seen.alive[s]]
            if live_black:
                plan.append(seen.can(Act.NOMINATE, live_black[0]))
            plan += [self.say_check(seen, int(s), False) for s in reds]
        sus = seen.suspicion()
        for c in seen.sheriff_claimants():  # a false sheriff: I know he lies
            if c != me and seen.alive[c]:
                plan.append(self.accuse(seen, c))
        plan.append(self.nominate(seen, sus, 0.0))
        return plan

    def mafia_speech(self, seen: Seen) -> list[Choice]:
        """Mafia: now and then counter-claim sheriff; nominate the mafia's top target."""
        plan: list[Choice] = []
        if self.has_sheriff and seen.bot.rules.claims:
            plan += self.counterclaim(seen)
        if seen.turn == "speech":  # nominate as the town would: with a public reason
            me = seen.me
            scores = mafia_day_scores(seen)
            provoked = (seen.nominations[:, me] + seen.accused[:, me] + seen.votes[:, me]) > 0
            plan.append(self.nominate(seen, scores + provoked, 0.1))
        return plan

    def don_speech(self, seen: Seen) -> list[Choice]:
        """Don: accuse the sheriff he found (the mafia's signal), then speak as mafia."""
        plan: list[Choice] = []
        for s in np.flatnonzero(seen.checked_yes):
            if seen.alive[s] and not public_credible(seen, int(s)):
                plan.append(self.accuse(seen, int(s)))
        return plan + self.mafia_speech(seen)

    def counterclaim(self, seen: Seen) -> list[Choice]:
        """Claim sheriff with a false black check, if this member is the one to do it today."""
        me = seen.me
        team = [me, *seen.mates]
        if seen.claimed[me] is Role.SHERIFF:  # keep the story going: call the sheriff black
            return [
                self.say_check(seen, c, True)
                for c in seen.sheriff_claimants()
                if c not in team and int(seen.claimed_black[me].sum()) < seen.day - 1
            ]
        if (
            any(seen.claimed[m] is Role.SHERIFF for m in seen.mates)
            or seen.day < 2
            or not seen.alive[me]  # a last word: too late to start a story
        ):
            return []
        live = [m for m in team if seen.alive[m]]
        exposers = [
            c
            for c in seen.sheriff_claimants()
            if c not in team
            and seen.alive[c]
            and public_credible(seen, c)
            and seen.claimed_black[c][team].any()
        ]
        if exposers:
            exposed = {m for m in team if seen.claimed_black[exposers[0]][m]}
            speaker = min([m for m in live if m not in exposed] or live)
            if speaker != me or coin(seen, 1) >= COUNTERCLAIM_P:
                return []
            target = exposers[0]
        elif not seen.sheriff_claimants() and coin(seen, 2) < FAKE_CLAIM_P:
            if min(live) != me:
                return []
            rank = mafia_ranking(seen)
            target = int(np.argmax(rank))
        else:
            return []
        return [
            self.claim(seen, Role.SHERIFF),
            self.say_check(seen, target, True),
            seen.can(Act.NOMINATE, target),
        ]

    # ---------------------------------------------------------------- vote

    def vote(self, seen: Seen) -> Choice:
        """Town: the most suspected candidate; mafia: the top-ranked town candidate."""
        target = self.ballot(seen, seen.targets(Act.VOTE))
        return seen.can(Act.PASS) if target is None else seen.can(Act.VOTE, target)

    def open_vote(self, seen: Seen) -> Choice:
        """An open count (CLUB-E7, ONLINE-V7): raise the hand at the count of the candidate
        `vote` would choose among those not counted yet, keep it down at the others."""
        now = seen.targets(Act.VOTE)  # the nominee being counted
        if not now:
            return seen.can(Act.PASS)
        counted = now[0]
        order = [s for s in seen.nominees if s in seen.candidates] or now
        left = order[order.index(counted) :] if counted in order else now
        target = self.ballot(seen, left)
        return seen.can(Act.VOTE, counted) if target == counted else seen.can(Act.PASS)

    def ballot(self, seen: Seen, options: list[int]) -> int | None:
        """Return the candidate of `options` to vote for (None: abstain or pass)."""
        if not options:
            return None
        order = {s: i for i, s in enumerate(seen.nominees)}
        if seen.black_team:
            town = [s for s in options if not seen.is_mafia(s)]
            sus = seen.suspicion()
            doomed = max(options, key=lambda s: sus[s])
            if not town or (seen.is_mafia(doomed) and sus[doomed] >= STRONG):
                return doomed  # a teammate the town has exposed goes anyway: vote with the town
            rank = mafia_day_scores(seen)
            return max(town, key=lambda s: rank[s])
        sus = seen.suspicion()
        options = [s for s in options if s != seen.me] or options
        best = max(sus[s] for s in options)
        if best < 0 and self.rules.silent_vote == "abstain":
            return None
        # the earliest nominee among the most suspected, so that the town's votes meet
        top = [s for s in options if sus[s] >= best - 1e-9]
        return min(top, key=lambda s: order.get(s, seen.n))

    def crash_vote(self, seen: Seen) -> Choice:
        """Remove every tied player? Town: yes if one is suspected and none cleared."""
        tied = seen.candidates
        if seen.black_team:
            yes = not any(seen.is_mafia(s) for s in tied)
        else:
            sus = seen.suspicion()
            yes = seen.me not in tied and max(sus[tied]) > 0 and min(sus[tied]) > W_SHERIFF_RED
        return seen.can(Act.VOTE_YES if yes else Act.VOTE_NO)

    # --------------------------------------------------------------- night

    def mafia_kill(self, seen: Seen) -> Choice:
        """Shoot the mafia's top-ranked town player (the same for every member)."""
        targets = seen.targets(Act.NIGHT)
        town = [s for s in targets if not seen.is_mafia(s)]
        if not town:
            return seen.can(Act.NIGHT, targets[0]) if targets else None
        shots = seen.v.get("team_shots")
        if shots is not None and self.rules.mafia_kill == "unanimous":
            # CLUB-N4, ONLINE-N8: awake together, they shoot where a teammate already points
            for mate in seen.mates:
                if shots[mate].any() and int(shots[mate].argmax()) in town:
                    return seen.can(Act.NIGHT, int(shots[mate].argmax()))
        rank = mafia_ranking(seen, night=True)
        return seen.can(Act.NIGHT, max(town, key=lambda s: rank[s]))

    def sheriff_check(self, seen: Seen) -> Choice:
        """Check the most suspected player not checked yet."""
        targets = seen.targets(Act.NIGHT)
        fresh = [s for s in targets if not (seen.checked_yes[s] or seen.checked_no[s])]
        return seen.can(Act.NIGHT, self.pick(seen.suspicion(), fresh or targets))

    def putana(self, seen: Seen) -> Choice:
        """Putana: block the most suspected player."""
        return seen.can(Act.NIGHT, self.pick(seen.suspicion(), seen.targets(Act.NIGHT)))

    def doctor(self, seen: Seen) -> Choice:
        """Doctor: protect the trusted sheriff, else the player the town trusts most."""
        targets = seen.targets(Act.NIGHT)
        trusted = seen.trusted()
        if trusted is not None and trusted != seen.me and trusted in targets:
            return seen.can(Act.NIGHT, trusted)
        others = [s for s in targets if s != seen.me]
        return seen.can(Act.NIGHT, self.pick(-seen.suspicion(), others or targets))

    def maniac(self, seen: Seen) -> Choice:
        """Maniac: pick off players who claimed a role, else anyone (seeded random)."""
        targets = seen.targets(Act.NIGHT)
        score = np.array([10.0 if c not in (None, Role.CIVILIAN) else 0.0 for c in seen.claimed])
        return seen.can(Act.NIGHT, self.pick(score, targets))

    def executor(self, seen: Seen) -> Choice:
        """Mafia: the member the town suspects least carries out the shot (lowest seat on ties)."""
        team = seen.targets(Act.EXECUTOR)
        if not team:
            return None
        sus = seen.suspicion()
        return seen.can(Act.EXECUTOR, min(team, key=lambda s: (sus[s], s)))

    def hunt(self, seen: Seen) -> Choice:
        """Town: request the free hunt on a strong suspect, else hold it."""
        targets = seen.targets(Act.HUNT)
        if targets:
            sus = seen.suspicion()
            top = self.pick(sus, targets)
            if top is not None and sus[top] >= STRONG:
                return seen.can(Act.HUNT, top)
        return seen.can(Act.PASS)

    def answer(self, seen: Seen) -> Choice:
        """Answer "do you claim role R?": yes iff R is the role this player shows the table.

        A player shows his public role claim, else civilian: the mafia and the hidden town
        roles pass for civilians.
        """
        questions = seen.v.get("questions")
        if questions is None or not questions[seen.me].any():
            return None
        asked = self.roles[int(questions[seen.me].argmax())]
        shown = seen.claimed[seen.me] or Role.CIVILIAN
        return seen.can(Act.ANSWER, -1, 0 if asked is shown else 1)  # Answer: 0 yes, 1 no

    def naming(self, seen: Seen) -> Choice:
        """Nomination round: name the top suspect (mafia: the top-ranked town player)."""
        targets = [s for s in seen.targets(Act.NOMINATE) if s != seen.me]
        scores = mafia_ranking(seen) if seen.black_team else seen.suspicion()
        return seen.can(Act.NOMINATE, self.pick(scores, targets))

    def don_check(self, seen: Seen) -> Choice:
        """Look for the sheriff among unchecked town players, likeliest first."""
        if seen.checked_yes[seen.alive].any():
            return seen.can(Act.PASS) or self.fallback(seen.mask)  # found him already
        targets = [s for s in seen.targets(Act.NIGHT) if not seen.is_mafia(s)]
        fresh = [s for s in targets if not (seen.checked_yes[s] or seen.checked_no[s])]
        black = [seen.me, *seen.mates]
        score = seen.accused[:, black].sum(axis=1) + seen.claimed_black[:, black].sum(axis=1)
        score = score.astype(float)
        for c in seen.sheriff_claimants():
            if public_credible(seen, c):
                score[c] -= 10.0  # already a target; the sheriff may be hiding elsewhere
        return seen.can(Act.NIGHT, self.pick(score, fresh or targets))


class _Draws:
    """A stand-in for the bot's generator that draws as scripted (0 past the script) and
    records each draw's range: `RulePolicy.probs_batch` walks every way the draws can fall."""

    def __init__(self, script: tuple[int, ...]):
        self.script, self.calls = script, []

    def integers(self, k: int) -> int:
        i = len(self.calls)
        self.calls.append(int(k))
        return self.script[i] if i < len(self.script) else 0


__all__ = ["RulePolicy", "Seen", "mafia_ranking", "town_suspicion"]
