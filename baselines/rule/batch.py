"""Deciding a whole batch at once: the handlers of `RoleHandlers` as numpy over the rows.

`decide_batch` makes the decisions `RulePolicy._decide` makes row by row, bit for bit, with
the same draws from the bot's generator in the same order, on the arrays `SeenBatch` decodes.
Each handler with a vectorized twin (`HANDLERS`; speech by the role's planner, `PLANNERS`)
is computed once over every row of the batch (a numpy call costs about as much on 10 rows
as on 200, so the rows are not split per handler), and each row takes its own handler's
answer.

The bot's seeded draws among equals (`RulePolicy.pick`, `RulePolicy.fallback`) must stay in
row order: a handler states each row's draws as *slots*, the choices tied for best at each
`pick` in the order the handler calls them (they do not depend on how earlier draws fell),
and is resolved once they are drawn. The rows then go through the generator in order. A row
whose draws cannot be stated up front, a handler with no vectorized twin (a variant's rare
turns, a subclass's override) or a state the handler would refuse (it raises) is decided by
`RulePolicy._decide` in its place in that order; so are the rows of a handler (or speech
planner) with fewer rows than pay for its numpy calls (`MIN_ROWS`).

Where it pays: a vectorized handler makes 30 to 200 numpy calls of about a microsecond each
whatever the batch, the row path 15 to 60 us a row; the pass gains with the rows a call
(scripts/bench_rule.py: about 2x at 256 rows a call, nothing at the trainer's 32, where
most groups fall under `MIN_ROWS`).
"""

from __future__ import annotations

import struct
import weakref
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
    """A vectorized handler's answer, for every row: the draws it takes (`slots`: per `pick`
    in call order, the [R, W] choices tied for best) and its choice once they are drawn
    (`resolve`: each slot's drawn choice per row, NONE where it has none, to the action index
    per row, NONE for None). `unsafe` rows go row by row; with `legal_when_drawn` the choice
    of a row that drew is legal (no fallback draw can follow its draws)."""

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
    """The batch's arrays the vectorized handlers read, one row per row of the batch."""

    def __init__(self, bot: Any, batch: SeenBatch, reference: type):
        self.bot, self.b, self.reference = bot, batch, reference
        self.n = bot.n
        self.layout = bot.layout
        self.masks = batch.masks != 0
        self.R = len(self.masks)
        self.rows = np.arange(self.R)
        self.me = batch.me
        self.flat = self.masks.reshape(-1)  # row r's action a at r * A + a
        self.base = self.rows * self.masks.shape[1]
        self.pass_idx = bot.layout.offset[Act.PASS]
        self.pass_legal = self.masks[:, self.pass_idx]
        self._segs: dict[Act, np.ndarray] = {}
        self._noise: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def off(self, act: Act) -> int:
        """The offset of `act`'s segment, -1 where the variant lacks it."""
        return self.layout.offset.get(act, -1)

    def seg(self, act: Act) -> np.ndarray:
        """[R, n]: the seats `act` may target now (`Seen.targets`)."""
        got = self._segs.get(act)
        if got is None:
            off = self.off(act)
            if off < 0:
                got = np.zeros((self.R, self.n), dtype=bool)
            else:
                got = self.masks[:, off : off + self.n]
            self._segs[act] = got
        return got

    def legal(self, idx: np.ndarray) -> np.ndarray:
        """Whether each action index ([R] or [R, k]; NONE: no choice) is legal in its row."""
        base = self.base[:, None] if idx.ndim > 1 else self.base
        return (idx >= 0) & self.flat[np.maximum(idx, 0) + base]

    def at(self, x: np.ndarray, seat: np.ndarray) -> np.ndarray:
        """``x[row, seat[row]]`` for [R, n] `x` and seats that may be NONE (read as 0)."""
        return x[self.rows, np.maximum(seat, 0)]

    @lazy
    def sus(self) -> np.ndarray:
        return self.b.suspicion()[0]

    @lazy
    def trusted(self) -> np.ndarray:
        return self.b.suspicion()[1]

    @lazy
    def is_me(self) -> np.ndarray:
        return np.arange(self.n) == self.me[:, None]

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
        order = self.b.nominee_order  # nominees first, by their order: invert it
        pos = np.empty_like(order)
        pos[self.rows[:, None], order] = np.arange(self.n)
        return np.where(self.nominee, pos, self.n)

    @lazy
    def my_accused(self) -> np.ndarray:
        return self.b.accused[self.rows, self.me]

    @lazy
    def my_black(self) -> np.ndarray:
        return self.b.claimed_black[self.rows, self.me]

    @lazy
    def my_red(self) -> np.ndarray:
        return self.b.claimed_red[self.rows, self.me]

    @lazy
    def me_claimant(self) -> np.ndarray:
        return self.claimant[self.rows, self.me]

    @lazy
    def me_alive(self) -> np.ndarray:
        return self.b.alive[self.rows, self.me]

    def turn_is(self, name: str) -> np.ndarray:
        """[R]: the row's turn kind is `name`."""
        names = self.bot.turn_names
        if name not in names:
            return np.zeros(self.R, dtype=bool)
        return self.b.has_turn & (self.b.turn_kind == names.index(name))

    def noise(self, need: np.ndarray, salt: int) -> np.ndarray:
        """[R, n]: `public_noise` of the rows `need` (zeros elsewhere, kept per salt)."""
        got = self._noise.get(salt)
        if got is None:
            got = self._noise[salt] = (np.zeros((self.R, self.n)), np.zeros(self.R, dtype=bool))
        x, done = got
        todo = np.flatnonzero(need & ~done).tolist()
        if todo:
            bot, n, v, day = self.bot, self.n, self.b.v, self.b.day
            alive, before = v["alive"], v["votes_before"]
            for i in todo:
                crc = zlib.crc32(before[i].tobytes(), zlib.crc32(alive[i].tobytes()))
                key = zlib.crc32(struct.pack("=qq", int(day[i]), salt), crc)
                x[i] = noise_for(bot, key, n)
            done[todo] = True
        return x

    def coin(self, i: int, salt: int) -> float:
        """`plan.coin` of row `i`."""
        v = self.b.v
        crc = zlib.crc32(v["votes_before"][i].tobytes(), zlib.crc32(v["alive"][i].tobytes()))
        key = zlib.crc32(struct.pack("=qq", int(self.b.day[i]), salt), crc)
        return (key & 0xFFFFFF) / float(1 << 24)


# ------------------------------------------------------------------ helpers


def first(x: np.ndarray) -> np.ndarray:
    """The first set entry of each row of a bool [R, W] (NONE where none is)."""
    k = x.argmax(axis=1)
    return np.where(x[np.arange(len(x)), k], k, NONE)


def best_of(scores: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """`RulePolicy.pick`'s ties: the allowed seats within 1e-9 of the best allowed score."""
    top = np.where(allowed, scores, -np.inf).max(axis=1) - 1e-9
    return allowed & (scores >= top[:, None])


def arg_first_max(scores: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """``max(allowed, key=scores)``: the first allowed seat of highest score (NONE: none)."""
    k = np.where(allowed, scores, -np.inf).argmax(axis=1)
    return np.where(allowed[np.arange(len(k)), k], k, NONE)


def block(T: Table, act: Act, on: np.ndarray, value: int = 0) -> np.ndarray:
    """[R, n] action indices of `act` on each seat where `on` (NONE elsewhere), seat order."""
    off = T.off(act)
    if off < 0:
        return np.full(on.shape, NONE, dtype=np.int64)
    return np.where(on, off + value * T.n + np.arange(T.n), NONE)


def one(T: Table, act: Act, seat: np.ndarray, value: int = 0) -> np.ndarray:
    """[R] action indices of `act` on `seat` (NONE where the seat is NONE)."""
    off = T.off(act)
    if off < 0:
        return np.full(seat.shape, NONE, dtype=np.int64)
    return np.where(seat >= 0, off + value * T.n + seat, NONE)


def can(T: Table, act: Act, seat: np.ndarray) -> np.ndarray:
    """`Seen.can(act, seat)` per row: the index where the seat is one and legal, else NONE."""
    idx = one(T, act, seat)
    return np.where(T.legal(idx), idx, NONE)


def claim_sheriff(T: Table, on: np.ndarray) -> np.ndarray:
    """`RoleHandlers.claim(SHERIFF)` where `on`."""
    off = T.off(Act.CLAIM_ROLE)
    if off < 0 or Role.SHERIFF not in T.layout._role_index:
        return np.full(T.R, NONE, dtype=np.int64)
    return np.where(on & ~T.me_claimant, off + T.layout._role_index[Role.SHERIFF], NONE)


def first_legal(T: Table, plan: np.ndarray) -> np.ndarray:
    """The first legal choice of each row of a plan [R, k] (NONE where none is)."""
    ok = T.legal(plan)
    k = ok.argmax(axis=1)
    return np.where(ok[T.rows, k], plan[T.rows, k], NONE)


def mafia_ranking(T: Table, need: np.ndarray, night: bool) -> np.ndarray:
    """`plan.mafia_ranking` of the rows `need` (the same float operations, row by row)."""
    b = T.b
    black = T.team
    black_f = black.astype(np.float32)
    claimants, cred = T.claimant, b.public_credible
    covered = (claimants & black).any(axis=1)
    score = np.where(claimants & ~black & ~covered[:, None], np.where(cred, 100.0, 5.0), 0.0)
    don = np.array([x is Role.DON for x in T.bot.roles])
    mate_kind = np.minimum(b.mate_kind, len(don) - 1)
    dons = (T.is_me & don[b.role][:, None]) | (b.mate & don[mate_kind])
    if dons.any():
        score += 90.0 * np.einsum("rd,rds->rs", dons.astype(np.float64), b.accused)
    score += 10.0 * (b.attacks @ black_f[:, :, None])[..., 0]
    reds = claimants & ~black & cred
    if reds.any():
        score += 5.0 * np.einsum("rc,rcs->rs", reds.astype(np.float64), b.claimed_red)
    if night:
        trail = (black_f[:, None, :] @ b.votes_noms)[:, 0]
        score -= 3.0 * np.minimum(trail, 1)
    score += T.noise(need, int(night))
    score[black | ~b.alive] = -1e9
    return score


def mafia_day_scores(T: Table, need: np.ndarray) -> np.ndarray:
    """`plan.mafia_day_scores` of the rows `need`."""
    score = T.sus + 0.1 * T.noise(need, 3)
    score[T.team | ~T.b.alive] = -1e9
    return score


def nominate_slot(T: Table, scores: np.ndarray, floor: np.ndarray, on: np.ndarray) -> np.ndarray:
    """`RoleHandlers.nominate`'s pick (its ties) where `on`; empty where it picks nothing."""
    allowed = T.seg(Act.NOMINATE) & (scores > floor[:, None]) & ~T.is_me & on[:, None]
    top = np.where(allowed, scores, -np.inf).max(axis=1)
    up = (T.nominee & (scores >= top[:, None])).any(axis=1)  # the top suspect is up already
    return allowed & (scores >= (top - 1e-9)[:, None]) & ~up[:, None]


# ------------------------------------------------------------------ speech

P_SILENT, P_TOWN, P_SHERIFF, P_MAFIA, P_DON = range(5)
# each bot's planner per role, with the planners it was read from (a bot may change them)
_PLANNER_CODES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def planners(T: Table) -> np.ndarray:
    """[R]: each row's speech planner (P_*), -1 where it has no vectorized twin."""
    bot = T.bot
    kept = _PLANNER_CODES.get(bot)
    if kept is not None and kept[0] == bot.speakers and kept[1] == bot.team_speakers:
        return kept[2][T.b.role]
    code = []
    for role in bot.roles:
        planner = bot.speakers.get(role) or bot.team_speakers.get(role.team)
        if planner is None:
            code.append(P_SILENT)
        elif getattr(planner, "__self__", None) is not bot:
            code.append(-1)
        else:
            code.append(PLANNERS.get(getattr(planner, "__func__", None), -1))
    if not plain(T.reference, bot, *PLANNER_NEEDS):
        code = [-1] * len(code)
    codes = np.array(code)
    _PLANNER_CODES[bot] = (dict(bot.speakers), dict(bot.team_speakers), codes)
    return codes[T.b.role]


def speech(T: Table, rows: np.ndarray) -> Group:
    """`RoleHandlers.speech` with v1's planners, every planner over every row at once."""
    bot, b, n = T.bot, T.b, T.n
    plan_of = np.where(rows, planners(T), P_SILENT)
    town, sheriff = plan_of == P_TOWN, plan_of == P_SHERIFF
    don = plan_of == P_DON
    mafia = (plan_of == P_MAFIA) | don
    few = plan_of < 0  # no twin, or too few rows to pay: row by row
    for name, on in (("town", town), ("sheriff", sheriff), ("mafia", mafia)):
        if on.sum() < MIN_ROWS[name]:
            few |= on
            on &= ~few
    don &= ~few
    if not (town | sheriff | mafia).any():  # nothing to vectorize: the rest only pass
        quiet = np.where(T.pass_legal, T.pass_idx, NONE)
        return Group([], lambda seats: quiet, unsafe=few)
    sus, alive = T.sus, b.alive
    cols: list[np.ndarray] = []
    # sheriff: once black is found or in danger, claim and announce the checks
    if (sheriff & rows).any():
        blacks = b.checked_yes
        live_black = blacks & alive
        danger = (
            T.turn_is("last_word")
            | T.turn_is("tie_speech")
            | T.at(T.nominee, T.me)
            | T.at(b.candidates, T.me)
            | T.me_claimant
            | b.claimed_black[T.rows, :, T.me].any(axis=1)
        )
        go = sheriff & (live_black.any(axis=1) | danger)
        if go.any():
            gon = go[:, None]
            cols += [
                claim_sheriff(T, go),
                block(T, Act.CLAIM_CHECK, gon & live_black & ~T.my_black, 1),
                block(T, Act.CLAIM_CHECK, gon & blacks & ~alive & ~T.my_black, 1),
                np.where(go, one(T, Act.NOMINATE, first(live_black)), NONE),
                block(T, Act.CLAIM_CHECK, gon & b.checked_no & ~T.my_red, 0),
            ]
        liars = sheriff[:, None] & T.claimant & ~T.is_me & alive & ~T.my_accused
        if liars.any():
            cols.append(block(T, Act.ACCUSE, liars))
    # the mafia: the don's signal, now and then a counter-claim, then nominate
    said = mafia & rows & T.turn_is("speech")
    if (mafia & rows).any():
        found = don[:, None] & b.checked_yes & alive & ~b.public_credible & ~T.my_accused
        if found.any():
            cols.append(block(T, Act.ACCUSE, found))
        if bot.has_sheriff and bot.rules.claims:
            cols += counterclaim(T, mafia & rows)
        me = T.me
        provoked = (
            b.nominations[T.rows, :, me] + b.accused[T.rows, :, me] + b.votes[T.rows, :, me]
        ) > 0
        scores = np.where(said[:, None], mafia_day_scores(T, said) + provoked, sus)
    else:
        scores = sus
    floor = np.where(said, 0.1, np.where(town & (b.nominee_count == 0), -1e8, 0.0))
    slots = [
        nominate_slot(T, scores, floor, town | sheriff | said),
        np.zeros((T.R, n), dtype=bool),
    ]
    if (town & rows).any():  # the town's top suspect first: its pick comes before nominate's
        slots = [np.where(town[:, None], best_of(sus, alive & ~T.is_me), slots[0]), slots[0]]
        slots[1] = slots[1] & town[:, None]
    static = (
        first_legal(T, np.concatenate([c[:, None] if c.ndim == 1 else c for c in cols], 1))
        if cols
        else np.full(T.R, NONE, dtype=np.int64)
    )

    def resolve(seats: list[np.ndarray]) -> np.ndarray:
        top = np.where(town, seats[0], NONE)
        nom = np.where(town, seats[1], seats[0])
        strong = (top >= 0) & (T.at(sus, top) >= STRONG) & ~T.at(T.my_accused, top)
        acc = np.where(strong, one(T, Act.ACCUSE, top), NONE)
        choice = np.where(T.legal(acc), acc, one(T, Act.NOMINATE, nom))  # nom's seat is legal
        choice = np.where(static >= 0, static, choice)
        return np.where(choice >= 0, choice, np.where(T.pass_legal, T.pass_idx, NONE))

    return Group(slots, resolve, unsafe=few)


def counterclaim(T: Table, on: np.ndarray) -> list[np.ndarray]:
    """`RoleHandlers.counterclaim` where `on`: its choices as plan columns."""
    b = T.b
    me, day = T.me, b.day
    team, claimant, alive = T.team, T.claimant, b.alive
    cols = []
    # the story goes on: call each sheriff claimant black
    going = on & T.me_claimant
    keep = going & (T.my_black.sum(axis=1) < day - 1)
    if keep.any():
        cols.append(block(T, Act.CLAIM_CHECK, keep[:, None] & claimant & ~team & ~T.my_black, 1))
    # a new story, by the member to speak, today
    start = on & ~T.me_claimant & ~(b.mate & claimant).any(axis=1) & (day >= 2) & T.me_alive
    if not start.any():
        return cols
    target = np.full(T.R, NONE, dtype=np.int64)
    live = team & alive
    lowest = first(live)
    rivals = claimant & ~team & alive & b.public_credible
    if (start & rivals.any(axis=1)).any():
        calls_team = (b.claimed_black & team[:, None, :]).any(axis=2)  # [R, claimer]
        exposer = first(rivals & calls_team)
        exposed = team & b.claimed_black[T.rows, np.maximum(exposer, 0)]
        unexposed = live & ~exposed
        speaker = np.where(unexposed.any(axis=1), first(unexposed), lowest)
        counter = start & (exposer >= 0) & (speaker == me)
    else:
        exposer = target
        counter = np.zeros(T.R, dtype=bool)
    fake = start & (exposer < 0) & ~claimant.any(axis=1) & (lowest == me)
    for i in np.flatnonzero(counter | fake).tolist():
        if counter[i]:
            if T.coin(i, 1) < COUNTERCLAIM_P:
                target[i] = exposer[i]
        elif T.coin(i, 2) < FAKE_CLAIM_P:
            target[i] = -2  # the mafia's top-ranked target, below
    ranked = target == -2
    if ranked.any():
        target = np.where(ranked, mafia_ranking(T, ranked, night=False).argmax(axis=1), target)
    told = target >= 0
    if not told.any():
        return cols
    check = np.where(told & ~T.at(T.my_black, target), one(T, Act.CLAIM_CHECK, target, 1), NONE)
    return [*cols, claim_sheriff(T, told), check, one(T, Act.NOMINATE, target)]


# ------------------------------------------------------------------ the other turns


def vote(T: Table, rows: np.ndarray) -> Group:
    """`RoleHandlers.vote` (with v1's `ballot`)."""
    target = ballot(T, rows, T.seg(Act.VOTE))
    choice = np.where(target >= 0, one(T, Act.VOTE, target), T.pass_idx)
    return Group([], lambda seats: np.where(T.legal(choice), choice, NONE))


def ballot(T: Table, rows: np.ndarray, options: np.ndarray) -> np.ndarray:
    """`RoleHandlers.ballot` per row: the seat to vote for, NONE: abstain or pass."""
    sus, n = T.sus, T.n
    has = options.any(axis=1)
    # the mafia: with the town against an exposed teammate, else the town's top suspect
    black = T.black & has & rows
    out = np.full(T.R, NONE, dtype=np.int64)
    if black.any():
        mafia = T.mafia_of
        town = options & ~mafia
        doomed = arg_first_max(sus, options)
        with_town = ~town.any(axis=1) | (T.at(mafia, doomed) & (T.at(sus, doomed) >= STRONG))
        push = black & ~with_town
        rank = mafia_day_scores(T, push) if push.any() else sus
        out = np.where(black, np.where(with_town, doomed, arg_first_max(rank, town)), out)
    # the town: the most suspected candidate, the earliest nominee among equals
    town_rows = ~T.black & has & rows
    if town_rows.any():
        others = options & ~T.is_me
        opt = np.where(others.any(axis=1)[:, None], others, options)
        best = np.where(opt, sus, -np.inf).max(axis=1)
        top = opt & (sus >= (best - 1e-9)[:, None])
        got = np.where(top, T.nominee_pos, n + 1).argmin(axis=1)
        if T.bot.rules.silent_vote == "abstain":
            got = np.where(best < 0, NONE, got)
        out = np.where(town_rows, got, out)
    return out


def mafia_kill(T: Table, rows: np.ndarray) -> Group:
    """`RoleHandlers.mafia_kill`."""
    b = T.b
    targets = T.seg(Act.NIGHT)
    town = targets & ~T.mafia_of
    none = ~town.any(axis=1)
    choice = can(T, Act.NIGHT, first(targets))  # no town player to shoot: the first target
    left = rows & ~none
    plan = b.v.get("team_plan")  # SPORT-N3: the first night, the don's word at the meeting
    if plan is not None and left.any():
        don = np.array([x is Role.DON for x in T.bot.roles])
        mate_kind = np.minimum(b.mate_kind, len(don) - 1)
        dons = (T.is_me & don[b.role][:, None]) | (b.mate & don[mate_kind])
        word = np.einsum("rd,rds->rs", dons.astype(np.float32), plan) > 0
        seat = word.argmax(axis=1)
        said = left & (b.day == 1) & word.any(axis=1) & town[T.rows, seat]
        choice = np.where(said, can(T, Act.NIGHT, seat), choice)
        left &= ~said
    shots = b.v.get("team_shots")
    if shots is not None and T.bot.rules.mafia_kill == "unanimous" and left.any():
        aim = shots.argmax(axis=2)  # [R, mate]
        ok = b.mate & shots.any(axis=2) & np.take_along_axis(town, aim, axis=1)
        mate = first(ok)
        seat = np.take_along_axis(aim, np.maximum(mate, 0)[:, None], axis=1)[:, 0]
        aimed = left & (mate >= 0)
        choice = np.where(aimed, can(T, Act.NIGHT, seat), choice)
        left &= ~aimed
    if left.any():
        rank = mafia_ranking(T, left, night=True)
        choice = np.where(left, can(T, Act.NIGHT, arg_first_max(rank, town)), choice)
    return Group([], lambda seats: choice)


def fresh_or_all(T: Table, targets: np.ndarray) -> np.ndarray:
    """The targets not checked yet, or all of them where every one is."""
    fresh = targets & ~(T.b.checked_yes | T.b.checked_no)
    return np.where(fresh.any(axis=1)[:, None], fresh, targets)


def night_pick(T: Table, scores: np.ndarray, options: np.ndarray) -> Group:
    """``can(NIGHT, pick(scores, options))``; a row with no option goes row by row (it
    raises there)."""
    return Group(
        [best_of(scores, options)],
        lambda seats: can(T, Act.NIGHT, seats[0]),
        unsafe=~options.any(axis=1),
        legal_when_drawn=True,
    )


def sheriff_check(T: Table, rows: np.ndarray) -> Group:
    return night_pick(T, T.sus, fresh_or_all(T, T.seg(Act.NIGHT)))


def putana(T: Table, rows: np.ndarray) -> Group:
    return night_pick(T, T.sus, T.seg(Act.NIGHT))


def maniac(T: Table, rows: np.ndarray) -> Group:
    shows = np.array([x is not Role.CIVILIAN for x in T.bot.roles] + [False])
    score = np.where(shows[T.b.claim_kind], 10.0, 0.0)
    return night_pick(T, score, T.seg(Act.NIGHT))


def doctor(T: Table, rows: np.ndarray) -> Group:
    targets, trusted = T.seg(Act.NIGHT), T.trusted
    heal = (trusted >= 0) & (trusted != T.me) & T.at(targets, trusted)
    others = targets & ~T.is_me
    options = np.where(others.any(axis=1)[:, None], others, targets) & ~heal[:, None]
    group = night_pick(T, -T.sus, options)
    group.unsafe &= ~heal
    heal_at = can(T, Act.NIGHT, trusted)
    group.resolve = lambda seats: np.where(heal, heal_at, can(T, Act.NIGHT, seats[0]))
    return group


def don_check(T: Table, rows: np.ndarray) -> Group:
    b = T.b
    found = (b.checked_yes & b.alive).any(axis=1)  # pass, else a random legal action
    options = fresh_or_all(T, T.seg(Act.NIGHT) & ~T.mafia_of) & ~found[:, None]
    team = T.team[:, None, :]
    score = ((b.accused & team).sum(axis=2) + (b.claimed_black & team).sum(axis=2)).astype(float)
    score -= 10.0 * (T.claimant & b.public_credible)
    group = night_pick(T, score, options)
    group.unsafe &= ~found
    group.slots.append(T.masks & (found & ~T.pass_legal)[:, None])  # `fallback`'s draw

    def resolve(seats: list[np.ndarray]) -> np.ndarray:
        hold = np.where(T.pass_legal, T.pass_idx, seats[1])
        return np.where(found, hold, can(T, Act.NIGHT, seats[0]))

    group.resolve = resolve
    return group


def crash_vote(T: Table, rows: np.ndarray) -> Group:
    tied, sus = T.b.candidates, T.sus
    in_tie = T.at(tied, T.me)
    hi = np.where(tied, sus, -np.inf).max(axis=1)
    lo = np.where(tied, sus, np.inf).min(axis=1)
    town_yes = ~in_tie & (hi > 0) & (lo > W_SHERIFF_RED)
    yes = np.where(T.black, ~(tied & T.mafia_of).any(axis=1), town_yes)
    unsafe = ~T.black & ~in_tie & ~tied.any(axis=1)  # max() of no seat: it raises there
    y, no = T.off(Act.VOTE_YES), T.off(Act.VOTE_NO)
    idx = np.where(yes, y if y >= 0 else NONE, no if no >= 0 else NONE)
    return Group([], lambda seats: np.where(T.legal(idx), idx, NONE), unsafe)


def no_handler(T: Table, rows: np.ndarray) -> Group:
    return Group([], lambda seats: np.full(T.R, NONE, dtype=np.int64))


# below these many rows a handler's (or speech planner's) rows go row by row: a numpy call
# costs about a microsecond whatever its size and a vectorized handler makes 30 to 200 of
# them, while the row path decides a row in 15 to 60 us (the break-even points measured at
# 32 and 128 rows a call, sport-10)
MIN_ROWS = {
    "speech": 0,
    "town": 8,
    "sheriff": 8,
    "mafia": 8,
    "vote": 10,
    "mafia_kill": 4,
    "don_check": 3,
    "sheriff_check": 3,
    "putana": 3,
    "doctor": 3,
    "maniac": 3,
    "crash_vote": 4,
    "no_handler": 0,
}

MIN_BATCH = 24  # a batch of fewer rows goes row by row whole (the pass's own calls cost more)

# the vectorized twin of each handler, with the methods of the bot it stands for (`plain`)
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
PLANNERS: dict[Any, int] = {
    RoleHandlers.town_speech: P_TOWN,
    RoleHandlers.sheriff_speech: P_SHERIFF,
    RoleHandlers.mafia_speech: P_MAFIA,
    RoleHandlers.don_speech: P_DON,
}
PLANNER_NEEDS = ("nominate", "accuse", "claim", "say_check", "counterclaim")
BASE_NEEDS = ("pick", "fallback", "_decide")
_PLAIN: dict[tuple[type, type, tuple[str, ...]], bool] = {}


def pays(rows: int) -> bool:
    """Whether a batch of `rows` rows is worth the pass (`MIN_BATCH`)."""
    return rows >= MIN_BATCH


def plain(reference: type, bot: Any, *names: str) -> bool:
    """Whether `bot`'s class keeps the methods `names` of `reference` (`RulePolicy`): a
    subclass's own goes row by row."""
    key = (type(bot), reference, names)
    got = _PLAIN.get(key)
    if got is None:
        got = _PLAIN[key] = all(
            getattr(type(bot), name, None) is getattr(reference, name, None) for name in names
        )
    return got


def vectorized_twin(
    reference: type, bot: Any, handler: Any
) -> Callable[[Table, np.ndarray], Group] | None:
    """The vectorized twin of a bound handler, None where it has none (or the bot's class
    overrides a method it calls)."""
    entry = HANDLERS.get(getattr(handler, "__func__", None))
    if entry is None or getattr(handler, "__self__", None) is not bot:
        return None
    fn, needs = entry
    return fn if plain(reference, bot, *needs) else None


def decide_batch(bot: Any, batch: SeenBatch, reference: type) -> np.ndarray:
    """Return `RulePolicy._decide` of every row of `batch`, in order (module docstring);
    `reference` is `RulePolicy`, whose methods the vectorized handlers stand for."""
    T = Table(bot, batch, reference)
    R, width = T.R, T.masks.shape[1]
    by_row = ~T.masks.any(axis=1)  # `fallback` raises there
    if not plain(reference, bot, *BASE_NEEDS):
        by_row[:] = True
    # the rows of each handler, by turn kind
    kinds = np.where(batch.has_turn, batch.turn_kind, -1)
    groups: dict[Any, np.ndarray] = {}
    present = np.bincount(kinds[~by_row] + 1, minlength=len(bot.turn_names) + 1)
    for k in (np.flatnonzero(present) - 1).tolist():
        rows = (kinds == k) & ~by_row
        handler = bot.turns.get(bot.turn_names[k]) if k >= 0 else None
        fn = no_handler if handler is None else vectorized_twin(reference, bot, handler)
        if fn is None:
            by_row |= rows
        else:
            groups[fn] = groups[fn] | rows if fn in groups else rows
    for fn, rows in list(groups.items()):
        if rows.sum() < MIN_ROWS[fn.__name__]:
            by_row |= rows
            del groups[fn]
    # every group's slots, merged by their place in the group's order of draws
    parts = [(fn(T, rows), rows) for fn, rows in groups.items()]
    slots: list[np.ndarray] = []
    unsafe = by_row
    drawn_legal = np.zeros(R, dtype=bool)
    for g, rows in parts:
        for p, s in enumerate(g.slots):
            if p == len(slots):
                slots.append(np.zeros((R, width), dtype=bool))
            slots[p][rows, : s.shape[1]] = s[rows]
        if g.unsafe is not None:
            unsafe = unsafe | (g.unsafe & rows)
        if g.legal_when_drawn:
            drawn_legal |= rows
    counts = [s.sum(axis=1) for s in slots]
    drawn = np.zeros(R, dtype=bool)
    for k in counts:
        drawn |= k >= 2
    unsafe = unsafe | (drawn & ~T.pass_legal & ~drawn_legal)  # a fallback would draw late
    live = drawn & ~unsafe
    # a row that draws nothing falls back to a draw where its choice is none or illegal and
    # passing is not legal: those rows' groups are resolved before the draws
    early = ~drawn & ~unsafe & ~T.pass_legal
    choice = np.full(R, NONE, dtype=np.int64)
    fallback_draw = np.zeros(R, dtype=bool)
    done = set()
    if early.any():
        seats = [
            np.where(k >= 1, s.argmax(axis=1), NONE) for s, k in zip(slots, counts, strict=True)
        ]
        for gi, (g, rows) in enumerate(parts):
            if (rows & early).any():
                choice = np.where(rows, g.resolve(seats), choice)
                done.add(gi)
        fallback_draw = early & ~T.legal(choice)
    # the draws, in row order
    decided: dict[int, int] = {}
    picks = [[0] * R for _ in slots]
    order = np.flatnonzero(unsafe | live | fallback_draw).tolist()
    if order:
        ks = [k.tolist() for k in counts]
        rng = bot.rng
        unsafe_l, live_l = unsafe.tolist(), live.tolist()
        for i in order:
            if unsafe_l[i]:
                decided[i] = bot._decide(batch.row(i))
            elif live_l[i]:
                for k, pick in zip(ks, picks, strict=True):
                    if k[i] >= 2:
                        pick[i] = int(rng.integers(k[i]))
            else:  # passing is not legal here: `fallback` draws a legal action
                decided[i] = bot.fallback(T.masks[i])
    # the drawn tied choice, in seat (or action) order; NONE where the slot has none
    seats = [
        np.where(k >= 1, (np.cumsum(s, axis=1) > np.array(p)[:, None]).argmax(axis=1), NONE)
        for s, k, p in zip(slots, counts, picks, strict=True)
    ]
    for gi, (g, rows) in enumerate(parts):
        if gi not in done or (rows & live).any():
            choice = np.where(rows, g.resolve(seats), choice)
    # the fallback where the choice is none or illegal: pass (legal there)
    out = np.where(T.legal(choice), choice, T.pass_idx)
    if decided:
        out[list(decided)] = list(decided.values())
    return out


__all__ = ["HANDLERS", "MIN_BATCH", "MIN_ROWS", "PLANNERS", "decide_batch", "pays"]
