"""Deciding a whole batch at once: the handlers of `RoleHandlers` as numpy over the rows.

`decide_batch` makes the decisions `RulePolicy._decide` makes row by row, bit for bit, with
the same draws from the bot's generator in the same order, on the arrays `SeenBatch` decodes.
The rows are grouped by the handler they take (`VECTORIZED`: the function of `RoleHandlers`
the turn's handler is, and for speech the role's planner); each group is decided at once.

The bot's seeded draws among equals (`RulePolicy.pick`, `RulePolicy.fallback`) are the one
thing that must stay in row order: a group states each row's draws as *slots*, the tied
choices of each `pick` in the order the handler calls them (the same for every outcome of
the draws), and is resolved once the draws are made. The rows go through the generator in
order; a row whose draws cannot be stated up front, a handler with no vectorized twin (a
variant's rare turns, a subclass's override) or a state the row-by-row handler would refuse
(it raises) is decided by `RulePolicy._decide` in its place in that order.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np

from baselines.rule.handlers import RoleHandlers
from baselines.rule.plan import COUNTERCLAIM_P, FAKE_CLAIM_P, noise_for
from baselines.rule.reading import SeenBatch, lazy
from baselines.rule.suspicion import STRONG, W_SHERIFF_RED
from mafia_env.engine.kinds import Act
from mafia_env.engine.roles import Role, Team

NONE = -1  # no choice (a handler's None)


class Group:
    """A vectorized handler's answer for its rows: the draws it takes (`slots`: per pick, the
    [m, W] choices tied for best, in call order) and its choice once they are drawn
    (`resolve`: the drawn index of each slot, NONE where a slot has no choice, to the action
    index per row, NONE for None). `unsafe` rows are left to the row-by-row path; with
    `legal_when_drawn` the choice of a row that drew is always legal (no fallback follows)."""

    def __init__(
        self,
        slots: list[np.ndarray],
        resolve: Callable[[list[np.ndarray]], np.ndarray],
        unsafe: np.ndarray | None = None,
        legal_when_drawn: bool = False,
    ):
        self.slots, self.resolve = slots, resolve
        self.unsafe, self.legal_when_drawn = unsafe, legal_when_drawn


class Table:
    """The whole batch's arrays the vectorized handlers read (rows of the batch), on first use."""

    def __init__(self, bot: Any, batch: SeenBatch):
        self.bot, self.b = bot, batch
        self.n = bot.n
        self.layout = bot.layout
        self.masks = batch.masks != 0
        self.R = len(self.masks)
        self.rows = np.arange(self.R)
        self.pass_idx = bot.layout.offset[Act.PASS]
        self.pass_legal = self.masks[:, self.pass_idx]

    def off(self, act: Act) -> int:
        """The offset of `act`'s segment, -1 where the variant lacks it."""
        return self.layout.offset.get(act, -1)

    def seg(self, act: Act) -> np.ndarray:
        """[R, n]: the seats `act` may target now (`Seen.targets`)."""
        off = self.off(act)
        if off < 0:
            return np.zeros((self.R, self.n), dtype=bool)
        return self.masks[:, off : off + self.n]

    def legal(self, r: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """Whether each action index (NONE: no choice) is legal in its row `r`."""
        return (idx >= 0) & self.masks[r[..., None] if idx.ndim > 1 else r, np.maximum(idx, 0)]

    def can(self, r: np.ndarray, act: Act, seat: np.ndarray) -> np.ndarray:
        """`Seen.can(act, seat)` per row: the index where the seat is one and legal, else NONE."""
        off = self.off(act)
        if off < 0:
            return np.full(seat.shape, NONE, dtype=np.int64)
        idx = np.where(seat >= 0, off + seat, NONE)
        return np.where(self.legal(r, idx), idx, NONE)

    @lazy
    def sus(self) -> np.ndarray:
        return self.b.suspicion()[0]

    @lazy
    def trusted(self) -> np.ndarray:
        return self.b.suspicion()[1]

    @lazy
    def is_me(self) -> np.ndarray:
        return np.arange(self.n) == self.b.me[:, None]

    @lazy
    def team(self) -> np.ndarray:
        """[R, n]: the reader and his known teammates (`[seen.me, *seen.mates]`)."""
        return self.is_me | self.b.mate

    @lazy
    def black(self) -> np.ndarray:
        """[R]: the reader is of the mafia team (`Seen.black_team`)."""
        mafia = np.array([r.team is Team.MAFIA for r in self.bot.roles])
        return mafia[self.b.role]

    @lazy
    def mafia_of(self) -> np.ndarray:
        """[R, n]: `Seen.is_mafia` of each seat."""
        return self.team & self.black[:, None]

    @lazy
    def claimant(self) -> np.ndarray:
        """[R, n]: whose latest role claim is sheriff (`Seen.sheriff_claimants`)."""
        return self.b.claim_kind == self.bot.sheriff_kind

    @lazy
    def nominee(self) -> np.ndarray:
        return self.b.v["nominees"] != 0

    @lazy
    def nominee_pos(self) -> np.ndarray:
        """[R, n]: each seat's place in the order of nomination (n: not nominated)."""
        b, n = self.b, self.n
        pos = np.full((self.R, n), n, dtype=np.int64)
        place = np.broadcast_to(np.arange(n), (self.R, n))
        got = place < b.nominee_count[:, None]
        pos[np.broadcast_to(self.rows[:, None], (self.R, n))[got], b.nominee_order[got]] = place[
            got
        ]
        return pos

    @lazy
    def turn(self) -> np.ndarray:
        return np.array([t or "" for t in self.b.turn], dtype=object)

    @lazy
    def crc(self) -> list[int | None]:
        return [None] * self.R

    def table_crc(self, i: int) -> int:
        """`Seen.table_crc` of row `i`."""
        got = self.crc[i]
        if got is None:
            v = self.b.v
            got = self.crc[i] = zlib.crc32(
                v["votes_before"][i].tobytes(), zlib.crc32(v["alive"][i].tobytes())
            )
        return got

    def public_hash(self, i: int, salt: int) -> int:
        return zlib.crc32(struct.pack("=qq", int(self.b.day[i]), salt), self.table_crc(i))

    def noise(self, r: np.ndarray, salt: int) -> np.ndarray:
        """[m, n]: `public_noise` of each row."""
        if not r.size:
            return np.zeros((0, self.n))
        bot, n = self.bot, self.n
        return np.stack([noise_for(bot, self.public_hash(i, salt), n) for i in r.tolist()])

    def coin(self, i: int, salt: int) -> float:
        return (self.public_hash(i, salt) & 0xFFFFFF) / float(1 << 24)


# ------------------------------------------------------------------ helpers


def first(x: np.ndarray) -> np.ndarray:
    """The first set entry of each row of a bool [m, W] (NONE where none is)."""
    return np.where(x.any(axis=1), x.argmax(axis=1), NONE)


def best_of(scores: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """`RulePolicy.pick`'s ties: the allowed seats within 1e-9 of the best allowed score."""
    top = np.where(allowed, scores, -np.inf).max(axis=1, initial=-np.inf) - 1e-9
    return allowed & (scores >= top[:, None])


def arg_first_max(scores: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """``max(allowed, key=scores)``: the first allowed seat of highest score (NONE: none)."""
    return np.where(allowed.any(axis=1), np.where(allowed, scores, -np.inf).argmax(axis=1), NONE)


def at(x: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """``x[row, seat[row]]`` per row, for seats that may be NONE (read as seat 0)."""
    return x[np.arange(len(x)), np.maximum(seat, 0)]


def plan_choice(T: Table, r: np.ndarray, cols: list[np.ndarray]) -> np.ndarray:
    """`RoleHandlers.speech` on a plan: the first legal choice of the columns ([m] or [m, k]
    blocks, NONE: None), else pass where legal, else NONE."""
    if cols:
        plan = np.concatenate([c[:, None] if c.ndim == 1 else c for c in cols], axis=1)
        ok = T.legal(r, plan)
        pick = ok.argmax(axis=1)
        choice = np.where(ok.any(axis=1), plan[np.arange(len(r)), pick], NONE)
    else:
        choice = np.full(len(r), NONE, dtype=np.int64)
    return np.where(choice >= 0, choice, np.where(T.pass_legal[r], T.pass_idx, NONE))


def block(T: Table, act: Act, on: np.ndarray, value: int = 0) -> np.ndarray:
    """[m, n] action indices of `act` on each seat where `on` (NONE elsewhere), seat order."""
    off = T.off(act)
    if off < 0:
        return np.full(on.shape, NONE, dtype=np.int64)
    return np.where(on, off + value * T.n + np.arange(T.n), NONE)


def one(T: Table, act: Act, seat: np.ndarray, value: int = 0) -> np.ndarray:
    """[m] action indices of `act` on `seat` (NONE where the seat is NONE)."""
    off = T.off(act)
    if off < 0:
        return np.full(seat.shape, NONE, dtype=np.int64)
    return np.where(seat >= 0, off + value * T.n + seat, NONE)


def claim_sheriff(T: Table, r: np.ndarray, on: np.ndarray) -> np.ndarray:
    """`RoleHandlers.claim(SHERIFF)` where `on`."""
    off = T.off(Act.CLAIM_ROLE)
    if off < 0:
        return np.full(len(r), NONE, dtype=np.int64)
    idx = off + T.layout._role_index[Role.SHERIFF]
    said = at(T.claimant[r], T.b.me[r])
    return np.where(on & ~said, idx, NONE)


def nominate(T: Table, r: np.ndarray, scores: np.ndarray, floor: np.ndarray):
    """`RoleHandlers.nominate`: its pick's ties (a slot) and the choice from the drawn seat."""
    allowed = T.seg(Act.NOMINATE)[r] & (scores > floor[:, None]) & ~T.is_me[r]
    top = np.where(allowed, scores, -np.inf).max(axis=1, initial=-np.inf)
    up = (T.nominee[r] & (scores >= top[:, None])).any(axis=1)  # the top suspect is up already
    slot = best_of(scores, allowed) & ~up[:, None]
    return slot, lambda seat: one(T, Act.NOMINATE, seat)


def mafia_ranking(T: Table, r: np.ndarray, night: bool) -> np.ndarray:
    """`plan.mafia_ranking` of each row (the same float operations, row by row)."""
    b, n = T.b, T.n
    black = T.team[r]
    black_f = black.astype(np.float32)
    claimants = T.claimant[r]
    cred = b.public_credible[r]
    covered = (claimants & black).any(axis=1)
    score = np.zeros((len(r), n))
    score += np.where(claimants & ~black & ~covered[:, None], np.where(cred, 100.0, 5.0), 0.0)
    don = np.array([x is Role.DON for x in T.bot.roles])
    mate_kind = np.minimum(b.mate_kind[r], len(don) - 1)
    dons = (T.is_me[r] & don[b.role[r]][:, None]) | (b.mate[r] & don[mate_kind])
    score += 90.0 * np.einsum("rd,rds->rs", dons.astype(np.float64), b.accused[r])
    score += 10.0 * (b.attacks[r] @ black_f[:, :, None])[..., 0]
    reds = (claimants & ~black & cred).astype(np.float64)
    score += 5.0 * np.einsum("rc,rcs->rs", reds, b.claimed_red[r])
    if night:
        trail = (black_f[:, None, :] @ b.votes_noms[r])[:, 0]
        score -= 3.0 * np.minimum(trail, 1)
    score += T.noise(r, int(night))
    score[black] = -1e9
    score[~b.alive[r]] = -1e9
    return score


def mafia_day_scores(T: Table, r: np.ndarray) -> np.ndarray:
    """`plan.mafia_day_scores` of each row."""
    score = T.sus[r] + 0.1 * T.noise(r, 3)
    score[T.team[r]] = -1e9
    score[~T.b.alive[r]] = -1e9
    return score


def accuse(T: Table, r: np.ndarray, on: np.ndarray) -> np.ndarray:
    """[m, n]: `RoleHandlers.accuse` of each seat where `on`."""
    mine = T.b.accused[r, T.b.me[r]]
    return block(T, Act.ACCUSE, on & ~mine)


def say_checks(T: Table, r: np.ndarray, on: np.ndarray, black: bool) -> np.ndarray:
    """[m, n]: `RoleHandlers.say_check` of each seat where `on`."""
    said = (T.b.claimed_black if black else T.b.claimed_red)[r, T.b.me[r]]
    return block(T, Act.CLAIM_CHECK, on & ~said, int(black))


# ------------------------------------------------------------------ speech planners
# Each returns (slots, plan): `plan(seats)` gives the plan's columns once the slots are drawn.


def town_speech(T: Table, r: np.ndarray):
    sus = T.sus[r]
    me = T.b.me[r]
    others = T.b.alive[r] & ~T.is_me[r]
    top_slot = best_of(sus, others)
    floor = np.where(T.b.nominee_count[r] > 0, 0.0, -1e8)
    nom_slot, nom = nominate(T, r, sus, floor)

    def plan(seats):
        top, seat = seats
        strong = (top >= 0) & (at(sus, top) >= STRONG)
        mine = at(T.b.accused[r, me], top)
        acc = np.where(strong & ~mine, one(T, Act.ACCUSE, top), NONE)
        return [acc, nom(seat)]

    return [top_slot, nom_slot], plan


def sheriff_speech(T: Table, r: np.ndarray):
    b = T.b
    me = b.me[r]
    blacks, reds, alive = b.checked_yes[r], b.checked_no[r], b.alive[r]
    live_black = blacks & alive
    turn = T.turn[r]
    danger = (
        (turn == "last_word")
        | (turn == "tie_speech")
        | at(T.nominee[r], me)
        | at(b.candidates[r], me)
        | at(T.claimant[r], me)
        | b.claimed_black[r, :, me].any(axis=1)
    )
    go = live_black.any(axis=1) | danger
    cols = [
        claim_sheriff(T, r, go),
        say_checks(T, r, go[:, None] & live_black, True),
        say_checks(T, r, go[:, None] & blacks & ~alive, True),
        np.where(go, one(T, Act.NOMINATE, first(live_black)), NONE),
        say_checks(T, r, go[:, None] & reds, False),
        accuse(T, r, T.claimant[r] & ~T.is_me[r] & alive),
    ]
    nom_slot, nom = nominate(T, r, T.sus[r], np.zeros(len(r)))
    return [nom_slot], lambda seats: [*cols, nom(seats[0])]


def counterclaim(T: Table, r: np.ndarray) -> list[np.ndarray]:
    """`RoleHandlers.counterclaim`: its choices as plan columns."""
    b, n, m = T.b, T.n, len(r)
    me, day = b.me[r], b.day[r]
    team, claimant, alive = T.team[r], T.claimant[r], b.alive[r]
    black_me = b.claimed_black[r, me]  # [m, n]: my black calls
    # the story goes on: call each sheriff claimant black
    going = at(claimant, me)
    keep = going & (black_me.sum(axis=1) < day - 1)
    story = say_checks(T, r, keep[:, None] & claimant & ~team, True)
    # a new story: the member to speak, today
    mates = team & ~T.is_me[r]
    start = ~going & ~(mates & claimant).any(axis=1) & (day >= 2) & at(alive, me)
    live = team & alive
    calls_team = (b.claimed_black[r] & team[:, None, :]).any(axis=2)  # [m, claimer]
    exposers = claimant & ~team & alive & b.public_credible[r] & calls_team
    exposer = first(exposers)
    exposed = team & b.claimed_black[r, np.maximum(exposer, 0)]
    unexposed = live & ~exposed
    speaker = np.where(unexposed.any(axis=1), first(unexposed), first(live))
    target = np.full(m, NONE, dtype=np.int64)
    counter = start & (exposer >= 0) & (speaker == me)
    fake = start & (exposer < 0) & ~claimant.any(axis=1)
    for j in np.flatnonzero(counter | fake).tolist():
        i = int(r[j])
        if counter[j]:
            if T.coin(i, 1) < COUNTERCLAIM_P:
                target[j] = exposer[j]
        elif T.coin(i, 2) < FAKE_CLAIM_P and first(live[j : j + 1])[0] == me[j]:
            target[j] = -2  # the mafia's top-ranked target, below
    ranked = np.flatnonzero(target == -2)
    if ranked.size:
        target[ranked] = mafia_ranking(T, r[ranked], night=False).argmax(axis=1)
    on = target >= 0
    claim = claim_sheriff(T, r, on)
    said = at(black_me, target)
    check = np.where(on & ~said, one(T, Act.CLAIM_CHECK, target, 1), NONE)
    nom = one(T, Act.NOMINATE, target)
    return [story, claim, check, nom]


def mafia_speech(T: Table, r: np.ndarray):
    bot, b = T.bot, T.b
    cols = counterclaim(T, r) if bot.has_sheriff and bot.rules.claims else []
    speech = T.turn[r] == "speech"
    s = r[speech]
    me = b.me[s]
    scores = mafia_day_scores(T, s)
    provoked = (b.nominations[s, :, me] + b.accused[s, :, me] + b.votes[s, :, me]) > 0
    slot = np.zeros((len(r), T.n), dtype=bool)
    got, nom = nominate(T, s, scores + provoked, np.full(len(s), 0.1))
    slot[speech] = got

    def plan(seats):
        col = np.full(len(r), NONE, dtype=np.int64)
        col[speech] = nom(seats[0][speech])
        return [*cols, col]

    return [slot], plan


def don_speech(T: Table, r: np.ndarray):
    b = T.b
    found = b.checked_yes[r] & b.alive[r] & ~b.public_credible[r]
    signal = accuse(T, r, found)
    slots, plan = mafia_speech(T, r)
    return slots, lambda seats: [signal, *plan(seats)]


def silent(T: Table, r: np.ndarray):
    return [], lambda seats: []


def speech(T: Table, r: np.ndarray) -> Group:
    """`RoleHandlers.speech`, by the planner of each row's role (`PLANNERS`)."""
    bot = T.bot
    roles = T.b.role[r]
    m = len(r)
    unsafe = np.zeros(m, dtype=bool)
    parts = []
    for k in np.unique(roles).tolist():
        rows = np.flatnonzero(roles == k)
        role = bot.roles[k]
        planner = bot.speakers.get(role) or bot.team_speakers.get(role.team)
        vec = silent if planner is None else PLANNERS.get(getattr(planner, "__func__", None))
        if vec is None or not plain(bot, *PLANNER_NEEDS):
            unsafe[rows] = True
            continue
        parts.append((rows, *vec(T, r[rows])))
    width = max((len(p[1]) for p in parts), default=0)
    slots = [np.zeros((m, T.n), dtype=bool) for _ in range(width)]
    for rows, got, _ in parts:
        for s, x in zip(slots, got, strict=False):
            s[rows] = x

    def resolve(seats):
        out = np.full(m, NONE, dtype=np.int64)
        for rows, _, plan in parts:
            out[rows] = plan_choice(T, r[rows], plan([s[rows] for s in seats]))
        return out

    return Group(slots, resolve, unsafe)


# ------------------------------------------------------------------ the other turns


def vote(T: Table, r: np.ndarray) -> Group:
    """`RoleHandlers.vote` (with v1's `ballot`)."""
    target = ballot(T, r, T.seg(Act.VOTE)[r])
    choice = np.where(target >= 0, one(T, Act.VOTE, target), T.pass_idx)
    return Group([], lambda seats: np.where(T.legal(r, choice), choice, NONE))


def ballot(T: Table, r: np.ndarray, options: np.ndarray) -> np.ndarray:
    """`RoleHandlers.ballot` per row: the seat to vote for, NONE: abstain or pass."""
    b, n = T.b, T.n
    sus = T.sus[r]
    out = np.full(len(r), NONE, dtype=np.int64)
    black = T.black[r] & options.any(axis=1)
    if black.any():
        j = np.flatnonzero(black)
        opt, mafia = options[j], T.mafia_of[r[j]]
        town = opt & ~mafia
        doomed = arg_first_max(sus[j], opt)
        with_town = ~town.any(axis=1) | (at(mafia, doomed) & (at(sus[j], doomed) >= STRONG))
        out[j] = doomed
        k = np.flatnonzero(~with_town)
        if k.size:
            rank = mafia_day_scores(T, r[j[k]])
            out[j[k]] = arg_first_max(rank, town[k])
    town_rows = ~T.black[r] & options.any(axis=1)
    if town_rows.any():
        j = np.flatnonzero(town_rows)
        opt = options[j]
        others = opt & ~T.is_me[r[j]]
        opt = np.where(others.any(axis=1)[:, None], others, opt)
        s = sus[j]
        best = np.where(opt, s, -np.inf).max(axis=1)
        top = opt & (s >= (best - 1e-9)[:, None])
        pos = np.where(top, T.nominee_pos[r[j]], n + 1)
        got = pos.argmin(axis=1)
        if T.bot.rules.silent_vote == "abstain":
            got = np.where(best < 0, NONE, got)
        out[j] = got
    return out


def mafia_kill(T: Table, r: np.ndarray) -> Group:
    """`RoleHandlers.mafia_kill`."""
    b, m = T.b, len(r)
    targets = T.seg(Act.NIGHT)[r]
    town = targets & ~T.mafia_of[r]
    choice = np.full(m, NONE, dtype=np.int64)
    none = ~town.any(axis=1)
    choice[none] = T.can(r[none], Act.NIGHT, first(targets[none]))
    left = ~none
    shots = b.v.get("team_shots")
    if shots is not None and T.bot.rules.mafia_kill == "unanimous" and left.any():
        j = np.flatnonzero(left)
        sh = shots[r[j]]  # [m, mate, n]
        aim = sh.argmax(axis=2)
        ok = b.mate[r[j]] & sh.any(axis=2) & np.take_along_axis(town[j], aim, axis=1)
        mate = first(ok)
        has = mate >= 0
        seat = np.take_along_axis(aim, np.maximum(mate, 0)[:, None], axis=1)[:, 0]
        choice[j[has]] = T.can(r[j[has]], Act.NIGHT, seat[has])
        left[j[has]] = False
    if left.any():
        j = np.flatnonzero(left)
        rank = mafia_ranking(T, r[j], night=True)
        choice[j] = T.can(r[j], Act.NIGHT, arg_first_max(rank, town[j]))
    return Group([], lambda seats: choice)


def fresh_or_all(T: Table, r: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """The targets not checked yet, or all of them where every one is."""
    fresh = targets & ~(T.b.checked_yes[r] | T.b.checked_no[r])
    return np.where(fresh.any(axis=1)[:, None], fresh, targets)


def night_pick(T: Table, r: np.ndarray, scores: np.ndarray, options: np.ndarray) -> Group:
    """``can(NIGHT, pick(scores, options))``; a row with no option is left to the row path
    (it raises there)."""
    return Group(
        [best_of(scores, options)],
        lambda seats: T.can(r, Act.NIGHT, seats[0]),
        unsafe=~options.any(axis=1),
        legal_when_drawn=True,
    )


def sheriff_check(T: Table, r: np.ndarray) -> Group:
    options = fresh_or_all(T, r, T.seg(Act.NIGHT)[r])
    return night_pick(T, r, T.sus[r], options)


def putana(T: Table, r: np.ndarray) -> Group:
    return night_pick(T, r, T.sus[r], T.seg(Act.NIGHT)[r])


def maniac(T: Table, r: np.ndarray) -> Group:
    roles = T.bot.roles
    shows = np.array([x is not Role.CIVILIAN for x in roles] + [False])
    score = np.where(shows[T.b.claim_kind[r]], 10.0, 0.0)
    return night_pick(T, r, score, T.seg(Act.NIGHT)[r])


def doctor(T: Table, r: np.ndarray) -> Group:
    targets = T.seg(Act.NIGHT)[r]
    me, trusted = T.b.me[r], T.trusted[r]
    heal = (trusted >= 0) & (trusted != me) & at(targets, trusted)
    others = targets & ~T.is_me[r]
    options = np.where(others.any(axis=1)[:, None], others, targets) & ~heal[:, None]
    group = night_pick(T, r, -T.sus[r], options)
    group.unsafe &= ~heal

    def resolve(seats):
        return np.where(heal, T.can(r, Act.NIGHT, trusted), T.can(r, Act.NIGHT, seats[0]))

    group.resolve = resolve
    return group


def don_check(T: Table, r: np.ndarray) -> Group:
    b = T.b
    found = (b.checked_yes[r] & b.alive[r]).any(axis=1)  # pass, else a random legal action
    options = fresh_or_all(T, r, T.seg(Act.NIGHT)[r] & ~T.mafia_of[r]) & ~found[:, None]
    team = T.team[r][:, None, :]
    score = ((b.accused[r] & team).sum(axis=2) + (b.claimed_black[r] & team).sum(axis=2)).astype(
        float
    )
    score -= 10.0 * (T.claimant[r] & b.public_credible[r])
    group = night_pick(T, r, score, options)
    group.unsafe &= ~found
    fallback = found & ~T.pass_legal[r]
    group.slots.append(T.masks[r] & fallback[:, None])  # `fallback`'s draw: a legal action

    def resolve(seats):
        return np.where(
            found,
            np.where(T.pass_legal[r], T.pass_idx, seats[1]),
            T.can(r, Act.NIGHT, seats[0]),
        )

    group.resolve = resolve
    return group


def crash_vote(T: Table, r: np.ndarray) -> Group:
    tied = T.b.candidates[r]
    me = T.b.me[r]
    sus = T.sus[r]
    black = T.black[r]
    in_tie = at(tied, me)
    hi = np.where(tied, sus, -np.inf).max(axis=1, initial=-np.inf)
    lo = np.where(tied, sus, np.inf).min(axis=1, initial=np.inf)
    town_yes = ~in_tie & (hi > 0) & (lo > W_SHERIFF_RED)
    yes = np.where(black, ~(tied & T.mafia_of[r]).any(axis=1), town_yes)
    unsafe = ~black & ~in_tie & ~tied.any(axis=1)  # max() of no seat: it raises there
    y, no = T.off(Act.VOTE_YES), T.off(Act.VOTE_NO)
    idx = np.where(yes, y if y >= 0 else NONE, no if no >= 0 else NONE)
    return Group([], lambda seats: np.where(T.legal(r, idx), idx, NONE), unsafe)


def no_handler(T: Table, r: np.ndarray) -> Group:
    return Group([], lambda seats: np.full(len(r), NONE, dtype=np.int64))


# the vectorized twin of each handler and planner; the methods each one calls (`plain`)
HANDLERS: dict[Any, tuple[Callable[[Table, np.ndarray], Group], tuple[str, ...]]] = {
    RoleHandlers.speech: (speech, ()),
    RoleHandlers.vote: (vote, ("ballot",)),
    RoleHandlers.mafia_kill: (mafia_kill, ()),
    RoleHandlers.sheriff_check: (sheriff_check, ()),
    RoleHandlers.don_check: (don_check, ()),
    RoleHandlers.putana: (putana, ()),
    RoleHandlers.doctor: (doctor, ()),
    RoleHandlers.maniac: (maniac, ()),
    RoleHandlers.crash_vote: (crash_vote, ()),
}
PLANNERS: dict[Any, Callable[[Table, np.ndarray], Any]] = {
    RoleHandlers.town_speech: town_speech,
    RoleHandlers.sheriff_speech: sheriff_speech,
    RoleHandlers.mafia_speech: mafia_speech,
    RoleHandlers.don_speech: don_speech,
}
PLANNER_NEEDS = ("nominate", "accuse", "claim", "say_check", "counterclaim")
BASE_NEEDS = ("pick", "fallback", "_decide")


def plain(bot: Any, *names: str) -> bool:
    """Whether `bot`'s class keeps v1's methods `names` (a subclass's own goes row by row)."""
    from baselines.rule.policy import RulePolicy

    cls = type(bot)
    key = (cls, names)
    got = _PLAIN.get(key)
    if got is None:
        got = _PLAIN[key] = all(
            getattr(cls, name, None) is getattr(RulePolicy, name, None) for name in names
        )
    return got


_PLAIN: dict[tuple[type, tuple[str, ...]], bool] = {}


def vectorized_twin(bot: Any, handler: Any) -> Callable[[Table, np.ndarray], Group] | None:
    """The vectorized twin of the bound handler, None where it has none (or the bot's class
    overrides a method it calls)."""
    entry = HANDLERS.get(getattr(handler, "__func__", None))
    if entry is None or getattr(handler, "__self__", None) is not bot:
        return None
    fn, needs = entry
    return fn if plain(bot, *needs) else None


def decide_batch(bot: Any, batch: SeenBatch) -> np.ndarray:
    """Return `RulePolicy._decide` of every row of `batch`, in order (module docstring)."""
    T = Table(bot, batch)
    R = T.R
    out = np.full(R, NONE, dtype=np.int64)
    by_row = np.zeros(R, dtype=bool)  # decided by `_decide`, in its place
    if not plain(bot, *BASE_NEEDS):
        by_row[:] = True
    by_row |= ~T.masks.any(axis=1)  # `fallback` raises there
    # the rows of each handler, by turn kind
    kind, has = batch.turn_kind, batch.has_turn
    kinds = np.where(has, kind, -1)
    groups: dict[Any, list[np.ndarray]] = {}
    for k in np.unique(kinds).tolist():
        rows = np.flatnonzero(kinds == k)
        handler = bot.turns.get(bot.turn_names[k]) if k >= 0 else None
        fn = no_handler if handler is None else vectorized_twin(bot, handler)
        if fn is None:
            by_row[rows] = True
        else:
            groups.setdefault(fn, []).append(rows)
    draws: list[tuple[np.ndarray, Group, list[np.ndarray], np.ndarray, np.ndarray]] = []
    need_draw = np.zeros(R, dtype=bool)
    fallback_draw = np.zeros(R, dtype=bool)
    for fn, parts in groups.items():
        r = np.concatenate(parts)
        r = r[~by_row[r]]
        if not r.size:
            continue
        g = fn(T, r)
        counts = [s.sum(axis=1) for s in g.slots]
        drawn = np.zeros(len(r), dtype=bool)
        for k in counts:
            drawn |= k >= 2
        unsafe = np.zeros(len(r), dtype=bool) if g.unsafe is None else g.unsafe.copy()
        if not g.legal_when_drawn:  # a fallback after the draws would draw out of turn
            unsafe |= drawn & ~T.pass_legal[r]
        by_row[r[unsafe]] = True
        seats = [np.where(k >= 1, s.argmax(axis=1), NONE) for s, k in zip(g.slots, counts)]
        choice = g.resolve(seats)
        ok = T.legal(r, choice)
        settled = ~unsafe & ~drawn
        out[r[settled & ok]] = choice[settled & ok]
        rest = settled & ~ok  # the fallback: pass, else a random legal action
        pass_ok = T.pass_legal[r]
        out[r[rest & pass_ok]] = T.pass_idx
        fallback_draw[r[rest & ~pass_ok]] = True
        live = drawn & ~unsafe
        if live.any():
            need_draw[r[live]] = True
            draws.append((r, g, counts, live, drawn))
    # the draws, in row order
    slot_of: dict[int, list[int]] = {}
    for (r, g, counts, live, _), gi in zip(draws, range(len(draws)), strict=True):
        for j in np.flatnonzero(live).tolist():
            slot_of[int(r[j])] = [gi, j]
    drawn_at: dict[int, list[int]] = {}
    rng = bot.rng
    for i in np.flatnonzero(by_row | need_draw | fallback_draw).tolist():
        if by_row[i]:
            out[i] = bot._decide(batch.row(i))
        elif fallback_draw[i]:
            legal = np.flatnonzero(T.masks[i])
            out[i] = int(legal[rng.integers(legal.size)])
        else:
            gi, j = slot_of[i]
            counts = draws[gi][2]
            drawn_at[i] = [
                int(rng.integers(int(k[j]))) if k[j] >= 2 else 0 for k in counts
            ]
    for gi, (r, g, counts, live, _) in enumerate(draws):
        seats = []
        for si, (s, k) in enumerate(zip(g.slots, counts, strict=True)):
            pick = np.zeros(len(r), dtype=np.int64)
            for j in np.flatnonzero(live).tolist():
                pick[j] = drawn_at[int(r[j])][si]
            # the pick-th tied choice (in seat order), NONE where the slot has none
            nth = (np.cumsum(s, axis=1) > pick[:, None]).argmax(axis=1)
            seats.append(np.where(k >= 1, nth, NONE))
        choice = g.resolve(seats)
        ok = T.legal(r, choice)
        j = np.flatnonzero(live)
        out[r[j]] = np.where(ok[j], choice[j], T.pass_idx)
    return out


__all__ = ["HANDLERS", "PLANNERS", "decide_batch"]
