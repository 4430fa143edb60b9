"""The posterior over the deal that the rule bots v2 decide from (`Style.reading` and the
``posterior`` habits of `baselines.rule.style`).

`Posterior`: P(each seat holds a card of the mafia team, the team the sheriff's check
answers "black" for), exactly, by enumerating every set of that size (C(10, 3) = 120 at
sport-10, C(13, 4) = 715 at city-13) in one matrix product per batch.

- Deduction (hard facts, probability 0 or 1): the reader's own role and teammates, his own
  checks, the roles shown to the table, the belief piece where the table gives it (the
  observation option ``belief="deduction"``, `mafia_env.belief`), and that the game is not
  over (where only the mafia stand against the town, a set whose members are all out of the
  game would have ended it).
- Bayes with a model of the table (soft facts, likelihood ratios): a sheriff claimant who is
  town is taken to be the sheriff telling the truth, so each set is weighed by whether his
  calls agree with it (a town claimant who lies, or two town claimants, keep a small
  probability `EPS`: random players claim anything); a claim the public facts refute
  (`SeenBatch.public_credible`) or a black call on a town reader marks its claimant; and
  behaviour counts per seat as a naive-Bayes log-likelihood ratio (votes, nominations and
  accusations against the reader and against the night's victims, confessions, odd play).
  Siding for or against the likely sheriff's calls is left out: measured, it let the learned
  mafia (``ppo``, ``league``) lead the town (sport-10, town against league: 0.24 with it,
  0.32 without).

Each reader computes two posteriors: his own (with what only he knows) and the town's (the
public facts alone: what a town player with no private knowledge believes), which the mafia
watch to keep their cover.
"""

from __future__ import annotations

import math
from functools import cache
from itertools import combinations
from typing import Any

import numpy as np

from baselines.rule.reading import any_of, lazy, max_of, row_dots
from mafia_env.engine.events import Cause

EPS = 0.05  # a town sheriff claimant who calls a check wrong, or a second town claimant
L_REFUTED = math.log(0.05)  # a town claimant whose claim the public facts refute
L_AGAINST_ME = 0.35  # each vote, nomination (accusations count twice) against a town reader
L_AGAINST_ME_CAP = 1.5
L_AGAINST_VICTIM = 0.3  # each vote or nomination against a player the mafia later shot
L_NIGHT_DEAD = -1.5  # shot at night: the mafia rarely shoot their own
L_HUNTED = 6.0  # killed by the town's hunt: a mafia member or the maniac
L_CONFESS = 3.0  # claims a black role
L_LIE = 1.0  # claims checks without claiming sheriff
L_CALLS_ME_BLACK = 4.0  # a sheriff claimant calls a town reader black: he lies
L_FALSE_SHERIFF = 4.0  # a sheriff claimant, to the real sheriff
L_ODD = 0.2  # votes for or nominates himself, or abstains


@cache
def team_sets(n: int, k: int) -> np.ndarray:
    """Every set of `k` seats of `n`, as rows of a [C(n, k), n] float32 0/1 matrix."""
    rows = np.zeros((math.comb(n, k), n), dtype=np.float32)
    for i, c in enumerate(combinations(range(n), k)):
        rows[i, list(c)] = 1.0
    rows.flags.writeable = False
    return rows


@cache
def team_sets_t(n: int, k: int) -> np.ndarray:
    """`team_sets` transposed, [n, C(n, k)], contiguous (a product with a transposed view
    takes BLAS's slow path: a hundred times slower at these sizes)."""
    out = np.ascontiguousarray(team_sets(n, k).T)
    out.flags.writeable = False
    return out


def binary_entropy(p: np.ndarray) -> np.ndarray:
    q = np.clip(np.asarray(p, dtype=np.float64), 1e-12, 1 - 1e-12)
    return -(q * np.log(q) + (1 - q) * np.log(1 - q))


def hard_facts(b: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The hard facts of each row of `b` (a `SeenBatch`), -1 town, +1 black, 0 open, int8
    [R, n]: the public ones (the roles shown to the table) and the reader's own (his role and
    teammates, his checks, the belief piece where the table gives it); and [R, n] bool, the
    reader's own seat. What `Posterior` starts from, and all `BeliefTalk` reads of it."""
    bot = b.bot
    R, n = b.alive.shape
    k = bot.mafia_size
    rows = np.arange(R)
    is_me = np.zeros((R, n), dtype=bool)
    is_me[rows, b.me] = True
    role = b.role
    reader_black = bot.mafia_role[role]  # the reader is of the mafia team
    reader_town = bot.town_role[role]
    reader_sheriff = role == bot.sheriff_kind
    # the facts every player shares: the roles shown to the table
    revealed = b.v["revealed"]
    shown = revealed.any(axis=2)
    shown_kind = revealed.argmax(axis=2)
    pub_fix = np.zeros((R, n), dtype=np.int8)
    pub_fix[shown & ~bot.mafia_role[shown_kind]] = -1
    pub_fix[shown & bot.mafia_role[shown_kind]] = 1
    own_fix = pub_fix.copy()
    own_fix[is_me & reader_town[:, None]] = -1
    own_fix[is_me & reader_black[:, None]] = 1
    mates = b.mate & (b.mate_kind < len(bot.roles))
    mate_black = mates & bot.mafia_role[b.mate_kind]
    own_fix[mate_black] = 1
    own_fix[mates & ~bot.mafia_role[b.mate_kind]] = -1
    if np.count_nonzero(reader_black):  # the mafia know their whole team (sets outside are out)
        known = np.where(reader_black[:, None], own_fix == 1, False)
        full = known.sum(axis=1) >= k
        own_fix[full[:, None] & (own_fix == 0)] = -1
    sheriff_rows = reader_sheriff[:, None]
    own_fix[sheriff_rows & b.checked_yes] = 1
    own_fix[sheriff_rows & b.checked_no] = -1
    piece = b.v.get("belief")
    if piece is not None:  # the table's exact deduction (the observation's belief piece)
        pm = piece[..., bot.mafia_cols].sum(axis=2) if len(bot.mafia_cols) else None
        if pm is not None:
            own_fix[(pm <= 0) & (own_fix == 0)] = -1
            own_fix[(pm >= 1) & (own_fix == 0)] = 1
    return pub_fix, own_fix, is_me


class Posterior:
    """P(each seat is of the mafia team) for every row of a batch: the reader's and the
    town's (public facts only), and P(each seat is the truthful sheriff) by the town's.

    The facts (``own_fix``, ``pub_fix``) are read at once; each posterior is solved on first
    use (`BeliefTalk` reads the facts alone)."""

    def __init__(self, b: Any):
        bot = b.bot
        R, n = b.alive.shape
        self.k = k = bot.mafia_size
        self.sets = team_sets(n, k)  # [M, n]
        self.sets_t = team_sets_t(n, k)  # [n, M]
        rows = np.arange(R)
        me = b.me
        pub_fix, own_fix, is_me = hard_facts(b)
        reader_town = bot.town_role[b.role]
        reader_sheriff = b.role == bot.sheriff_kind
        elim = b.v["eliminated"]
        hunted = elim[..., int(Cause.HUNTED)] > 0 if elim.shape[2] > Cause.HUNTED else None
        # public log-likelihood ratios of black per seat (everyone's view)
        pub = np.zeros((R, n))
        pub += L_NIGHT_DEAD * b.night_dead
        if hunted is not None:
            pub += L_HUNTED * hunted
        confess = bot.black_claim[b.claim_kind]
        pub += L_CONFESS * confess
        pub += L_LIE * (~confess & (b.checks_said > 0) & (b.claim_kind != bot.sheriff_kind))
        claimants = b.claim_kind == bot.sheriff_kind  # [R, n]
        by_votes, by_noms = row_dots([b.votes, b.nominations], [b.night_dead])
        pub += L_AGAINST_VICTIM * np.minimum(by_votes[0] + by_noms[0], 3)
        pub += L_ODD * (
            np.diagonal(b.votes, axis1=1, axis2=2) + np.diagonal(b.nominations, axis1=1, axis2=2)
        )
        # the reader's own view adds what he knows
        own = pub.copy()
        against_me = b.votes[rows, :, me] + b.nominations[rows, :, me] + b.accused[rows, :, me] * 2
        own += (reader_town[:, None] * L_AGAINST_ME) * np.minimum(against_me, L_AGAINST_ME_CAP)
        called_me = b.claimed_black[rows, :, me] & claimants & reader_town[:, None] & ~is_me
        own += L_CALLS_ME_BLACK * called_me
        own += L_FALSE_SHERIFF * (claimants & reader_sheriff[:, None] & ~is_me)
        sheriff_rows = reader_sheriff[:, None]
        # claims: a town claimant is the sheriff telling the truth (sets weighed by his calls)
        self.claimants = claimants & ~is_me
        refuted = ~b.public_credible
        self.b = b
        self.pub_fix, self.own_fix = pub_fix, own_fix
        self._llr = pub, own
        self._refuted, self._sheriff_rows, self._is_me = refuted, sheriff_rows, is_me
        self.prior = k / max(n - 1, 1)

    @lazy
    def _town(self) -> tuple[np.ndarray, np.ndarray]:
        return self._solve(self._llr[0], self.pub_fix, self.claimants, self._refuted)

    @lazy
    def town_p(self) -> np.ndarray:
        """[R, n]: P(black) by the public facts (what a town player believes)."""
        return self._town[0]

    @lazy
    def truthful(self) -> np.ndarray:
        """[R, n]: P(each sheriff claimant is town: the truthful sheriff), by the town's."""
        return self._truthful(self._town[1], self.claimants)

    @lazy
    def p(self) -> np.ndarray:
        """[R, n]: P(black) by the reader's own facts."""
        claimants = self.claimants & ~self._sheriff_rows
        return self._solve(self._llr[1], self.own_fix, claimants, self._refuted)[0]

    @lazy
    def trusted_p(self) -> np.ndarray:
        """[R, n]: P(each seat is the sheriff the reader trusts) (himself, if he is)."""
        own = self._is_me.astype(float)
        return np.where(self._sheriff_rows, own, self._truthful_from(self.p))

    def _truthful(self, w: np.ndarray, claimants: np.ndarray) -> np.ndarray:
        """P(claimant c is town) under the set weights `w` [R, M]: the truthful sheriff."""
        town = 1.0 - w @ self.sets  # [R, n] (sets is contiguous: the fast path)
        return np.where(claimants, town, 0.0)

    def _truthful_from(self, p: np.ndarray) -> np.ndarray:
        return np.where(self.claimants, 1.0 - p, 0.0)

    def _solve(
        self, llr: np.ndarray, fix: np.ndarray, claimants: np.ndarray, refuted: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return P(black) [R, n] and the normalised set weights [R, M]."""
        b, sets, sets_t = self.b, self.sets, self.sets_t
        logw = llr.astype(np.float32) @ sets_t  # [R, M]
        white = (fix == -1).astype(np.float32)
        black = (fix == 1).astype(np.float32)
        bad = (white @ sets_t > 0) | (black @ sets_t < black.sum(axis=1, keepdims=True))
        if self.b.bot.over_if_out:  # every member out of the game: it would be over
            out = (~b.alive).astype(np.float32)
            bad |= out @ sets_t >= self.k
        # sheriff claimants: a town one calls the truth (log EPS per miscalled set), all at once
        if np.count_nonzero(claimants):
            cols = np.flatnonzero(any_of(claimants, 0))  # the seats some row holds claimants
            R, C, n = len(claimants), len(cols), claimants.shape[1]
            calls_black = b.claimed_black[:, cols].astype(np.float32).reshape(R * C, n)
            calls_red = b.claimed_red[:, cols].astype(np.float32).reshape(R * C, n)
            wrong = (calls_black.sum(axis=1)[:, None] - calls_black @ sets_t) + (
                calls_red @ sets_t
            )  # [R * claimer, M]: calls the set contradicts
            wrong = wrong.reshape(R, C, -1)
            is_c = claimants[:, cols]
            pen = np.where(wrong > 0, np.float32(math.log(EPS)), np.float32(0.0))
            pen += np.where(refuted[:, cols] & is_c, np.float32(L_REFUTED), np.float32(0.0))[
                ..., None
            ]
            pen *= is_c[..., None] * (1.0 - sets_t[cols])[None]  # only where he is town
            logw += pen.sum(axis=1)
        # two town claimants: only one of them can be the sheriff
        cl = claimants.astype(np.float32)
        town_claims = cl.sum(axis=1, keepdims=True) - cl @ sets_t
        logw += math.log(EPS) * np.maximum(town_claims - 1, 0)
        logw = np.where(bad, -np.inf, logw)
        top = max_of(logw, 1, keepdims=True)
        none = ~np.isfinite(top[:, 0])
        if none.any():  # the facts contradict each other (a random table): drop the soft ones
            logw[none] = np.where(bad[none], -1e9, 0.0)
            top[none] = max_of(logw[none], 1, keepdims=True)
        w = np.exp(logw - top)
        w /= w.sum(axis=1, keepdims=True)
        return w @ sets, w


__all__ = ["EPS", "Posterior", "binary_entropy", "hard_facts", "team_sets"]
