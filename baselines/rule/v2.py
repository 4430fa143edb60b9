"""Rule bots v2: the v1 strategies (`baselines.rule`), deciding from a posterior over the deal.

Registered as ``rule_v2`` (``rule`` and ``rule_v1`` stay the v1 bots that the benchmark
tasks v2 and v3 pin). Like v1 a `RulePolicyV2` reads only the observation and the mask, keeps
no memory between calls and plays batches of rows at once, so it stays as fast as v1 in
lockstep play; where the table's observation carries the belief piece (the observation
option ``belief="deduction"``, `mafia_env.belief`) it takes the environment's exact deduction
from it as hard facts.

**The posterior** (`Posterior`): over which seats hold the mafia team's cards (the team the
sheriff's check answers "black" for), exactly, by enumerating every set of that size
(C(10, 3) = 120 at sport-10, C(13, 4) = 715 at city-13) in one matrix product per batch.

- Deduction (hard facts, probability 0 or 1): the reader's own role and teammates, his own
  checks, the roles shown to the table, the belief piece where the table gives it, and that
  the game is not over (where only the mafia stand against the town, a set whose members
  are all out of the game would have ended it).
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

**Decisions** from the posterior: the town nominates, votes and accuses by P(black) (the
earliest nominee among the near-top, so the town's votes meet; abstains where every
candidate is cleared); the sheriff and the don pick checks by expected information (the
entropy of the answer, the likelier answer first among equals: "black?" for the sheriff,
"sheriff?" for the don, whose P(sheriff) comes from the claims and the town's posterior);
the doctor heals the likeliest sheriff, else the likeliest town player; the putana blocks
and the free hunt goes to the likeliest black (only when it is near sure, a wrong hunt
kills the hunter); the mafia push the town player the town's posterior suspects most, vote
out with the town a teammate it has all but proven, and send out as executor the member it
suspects least. Speech plans and the mafia's agreed night shot are v1's, reading the
posterior's scores (`read_table`: log-odds over the prior, in v1's units).
"""

from __future__ import annotations

import math
from functools import cache
from itertools import combinations

import numpy as np

from baselines.rule.policy import RulePolicy
from baselines.rule.reading import Choice, Seen, SeenBatch, row_dots
from baselines.rule.suspicion import town_suspicion
from mafia_env.engine.events import Cause
from mafia_env.engine.kinds import Act
from mafia_env.engine.roles import Team

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
LAMBDA = 1.0  # `read_table`: v1's scores plus LAMBDA * (log-odds - prior log-odds)
SURE = 0.85  # a suspicion worth an accusation, a hunt, or voting out a teammate
CLEARED = 0.03  # below this a seat counts as town
INFO = 0.05  # the sheriff's check: suspicion + INFO * the answer's entropy in bits (ties)


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


class Posterior:
    """P(each seat is of the mafia team) for every row of a batch: the reader's and the
    town's (public facts only), and P(each seat is the truthful sheriff) by the town's."""

    def __init__(self, b: SeenBatch):
        bot = b.bot
        R, n = b.alive.shape
        self.k = k = bot.mafia_size
        self.sets = team_sets(n, k)  # [M, n]
        self.sets_t = team_sets_t(n, k)  # [n, M]
        rows = np.arange(R)
        me = b.me
        is_me = np.zeros((R, n), dtype=bool)
        is_me[rows, me] = True
        role = b.role
        reader_black = bot.mafia_role[role]  # the reader is of the mafia team
        reader_town = bot.town_role[role]
        reader_sheriff = role == bot.sheriff_kind
        # the facts every player shares: the roles shown to the table
        revealed = b.v["revealed"]
        shown = revealed.any(axis=2)
        shown_kind = revealed.argmax(axis=2)
        shown_black = shown & bot.mafia_role[shown_kind]
        shown_white = shown & ~bot.mafia_role[shown_kind]
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
        # hard facts: -1 town, +1 black, 0 open
        pub_fix = np.zeros((R, n), dtype=np.int8)
        pub_fix[shown_white] = -1
        pub_fix[shown_black] = 1
        own_fix = pub_fix.copy()
        own_fix[is_me & reader_town[:, None]] = -1
        own_fix[is_me & reader_black[:, None]] = 1
        mates = b.mate & (b.mate_kind < len(bot.roles))
        mate_black = mates & bot.mafia_role[b.mate_kind]
        own_fix[mate_black] = 1
        own_fix[mates & ~bot.mafia_role[b.mate_kind]] = -1
        if reader_black.any():  # the mafia know their whole team (sets outside are out)
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
        # claims: a town claimant is the sheriff telling the truth (sets weighed by his calls)
        self.claimants = claimants & ~is_me
        refuted = ~b.public_credible
        self.b = b
        self.pub_fix, self.own_fix = pub_fix, own_fix
        self.town_p, w_pub = self._solve(pub, pub_fix, self.claimants, refuted)
        self.truthful = self._truthful(w_pub, self.claimants)
        self.p, _ = self._solve(own, own_fix, self.claimants & ~sheriff_rows, refuted)
        self.trusted_p = np.where(sheriff_rows, is_me.astype(float), self._truthful_from(self.p))
        self.prior = k / max(n - 1, 1)

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
        if claimants.any():
            cols = np.flatnonzero(claimants.any(axis=0))  # the seats some row holds claimants
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
        top = logw.max(axis=1, keepdims=True)
        none = ~np.isfinite(top[:, 0])
        if none.any():  # the facts contradict each other (a random table): drop the soft ones
            logw[none] = np.where(bad[none], -1e9, 0.0)
            top[none] = logw[none].max(axis=1, keepdims=True)
        w = np.exp(logw - top)
        w /= w.sum(axis=1, keepdims=True)
        return w @ sets, w


class RulePolicyV2(RulePolicy):
    """Rule bots v2: v1's play deciding from a posterior over the deal (module docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        roles = self.roles
        self.mafia_role = np.array([r.team is Team.MAFIA for r in roles] + [False])
        self.mafia_cols = [i for i, r in enumerate(roles) if r.team is Team.MAFIA]
        counts = self.spec.rules.role_counts(self.n)
        self.mafia_size = sum(c for r, c in counts.items() if r.team is Team.MAFIA)
        # the town wins once the mafia are out, where nobody else stands against it
        self.over_if_out = all(r.team in (Team.TOWN, Team.MAFIA) for r in counts)

    # ------------------------------------------------------------- reading

    @staticmethod
    def read_table(b: SeenBatch) -> tuple[np.ndarray, np.ndarray]:
        """v1's reading (`town_suspicion`) plus the posterior's log-odds over the prior
        (`LAMBDA` of them, in v1's units): the town reader's own posterior, and for the mafia
        the town's (what the town believes of them). The trusted sheriff is v1's."""
        sus, trusted = town_suspicion(b)
        post = posterior(b)
        mafia = b.bot.mafia_role[b.role]
        # rounded, so that seats the evidence holds alike tie exactly, whatever the float
        # sums' order (v1's handlers break ties the same way for every town player)
        p = np.clip(np.round(np.where(mafia[:, None], post.town_p, post.p), 3), 1e-4, 1 - 1e-4)
        prior = math.log(post.prior / (1 - post.prior))
        return sus + LAMBDA * (np.log(p / (1 - p)) - prior), trusted

    # --------------------------------------------------------------- the town

    def ballot(self, seen: Seen, options: list[int]) -> int | None:
        """v1's ballot on the blended reading, but the town abstains (where it may) only when
        the posterior clears every candidate: a score below the prior is no alibi."""
        if seen.black_team or self.rules.silent_vote != "abstain" or not options:
            return super().ballot(seen, options)
        p = np.round(own_p(seen), 4)
        others = [s for s in options if s != seen.me] or options
        if max(p[s] for s in others) < CLEARED:
            return None
        sus = seen.suspicion()
        order = {s: i for i, s in enumerate(seen.nominees)}
        best = max(sus[s] for s in others)
        top = [s for s in others if sus[s] >= best - 1e-9]
        return min(top, key=lambda s: order.get(s, seen.n))

    def sheriff_check(self, seen: Seen) -> Choice:
        """Check by what the answer is worth: the reading's suspicion (v1's plus the
        posterior's log-odds: a black answer is a vote the town wins), plus `INFO` times the
        answer's expected information (its entropy, in bits), which decides between seats
        the reading holds alike."""
        targets = seen.targets(Act.NIGHT)
        fresh = [s for s in targets if not (seen.checked_yes[s] or seen.checked_no[s])]
        options = fresh or targets
        if not options:
            return None
        p = own_p(seen)
        value = seen.suspicion() + INFO * binary_entropy(p) / math.log(2)
        return seen.can(Act.NIGHT, self.pick(np.round(value, 4), options))

    def doctor(self, seen: Seen) -> Choice:
        """Heal the likeliest sheriff (the mafia's first target), else the likeliest town."""
        targets = seen.targets(Act.NIGHT)
        others = [s for s in targets if s != seen.me] or targets
        if not others:
            return None
        post = posterior_of(seen)
        t = post.trusted_p[seen.i]
        p = own_p(seen)
        score = 2.0 * t + (1.0 - p)
        return seen.can(Act.NIGHT, self.pick(np.round(score, 4), others))

    def putana(self, seen: Seen) -> Choice:
        targets = [s for s in seen.targets(Act.NIGHT) if s != seen.me] or seen.targets(Act.NIGHT)
        return seen.can(Act.NIGHT, self.pick(np.round(own_p(seen), 4), targets))

    def hunt(self, seen: Seen) -> Choice:
        targets = seen.targets(Act.HUNT)
        if targets and not seen.black_team:
            # rounded like every v2 pick: seats the evidence holds alike tie exactly, whatever
            # the BLAS kernel's float32 sums (OpenBLAS's Haswell and SkylakeX ones differ)
            p = np.round(own_p(seen), 4)
            top = self.pick(p, targets)
            if top is not None and p[top] >= SURE:
                return seen.can(Act.HUNT, top)
        return seen.can(Act.PASS)

    # --------------------------------------------------------------- the mafia

    def executor(self, seen: Seen) -> Choice:
        """The member the town's posterior suspects least carries out the shot."""
        team = seen.targets(Act.EXECUTOR)
        if not team:
            return None
        tp = town_p(seen)
        return seen.can(Act.EXECUTOR, min(team, key=lambda s: (round(float(tp[s]), 4), s)))

    def don_check(self, seen: Seen) -> Choice:
        """Look for the sheriff by expected information: the entropy of "sheriff?" under the
        don's P(sheriff) (the claims as the town reads them, and who attacks the mafia)."""
        if seen.checked_yes[seen.alive].any():
            return seen.can(Act.PASS) or self.fallback(seen.mask)  # found him already
        targets = [s for s in seen.targets(Act.NIGHT) if not seen.is_mafia(s)]
        fresh = [s for s in targets if not (seen.checked_yes[s] or seen.checked_no[s])]
        options = fresh or targets
        if not options:
            return seen.can(Act.PASS) or None
        post = posterior_of(seen)
        t = post.truthful[seen.i].copy()  # credible claimants: already the targets
        black = [seen.me, *seen.mates]
        attacks = seen.accused[:, black].sum(axis=1) + seen.claimed_black[:, black].sum(axis=1)
        weight = np.where(t > 0, 0.2, 1.0) * (1.0 + attacks)
        weight[[s for s in range(seen.n) if s not in options]] = 0.0
        total = weight.sum()
        ps = weight / total if total > 0 else weight
        gain = binary_entropy(ps) + 1e-3 * ps
        return seen.can(Act.NIGHT, self.pick(np.round(gain, 4), options))


def posterior(b: SeenBatch) -> Posterior:
    """The batch's posterior, computed once."""
    post = b.__dict__.get("_post")
    if post is None:
        post = b.__dict__["_post"] = Posterior(b)
    return post


def posterior_of(seen: Seen) -> Posterior:
    return posterior(seen.batch)


def own_p(seen: Seen) -> np.ndarray:
    """The reader's P(black) per seat (the town's for a mafia reader)."""
    post = posterior_of(seen)
    return (post.town_p if seen.black_team else post.p)[seen.i]


def town_p(seen: Seen) -> np.ndarray:
    """The town's P(black) per seat: public facts only."""
    return posterior_of(seen).town_p[seen.i]


__all__ = ["EPS", "Posterior", "RulePolicyV2", "binary_entropy", "team_sets"]
