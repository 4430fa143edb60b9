"""The town's reading of the table: each seat scored from a town player's point of view.

`town_suspicion` (`Style.reading` ``table``, the rule bots v1) reads every row of a
`SeenBatch` at once: sheriff claims and their credibility, the trusted sheriff's checks, and
behaviour (votes, nominations, accusations against the reader, the sheriff, his red checks,
the mafia's night victims). `posterior_reading` (``posterior``, v2) adds the log-odds of the
posterior over the deal. The mafia compute the same reading, without their private
knowledge, to predict what the town bots believe.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from baselines.rule.posterior import Posterior
from baselines.rule.reading import SeenBatch, any_of, row_dots, row_sums

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
LAMBDA = 1.0  # `posterior_reading`: the table's scores plus LAMBDA * (log-odds - prior's)


def town_suspicion(b: SeenBatch) -> tuple[np.ndarray, np.ndarray]:
    """Score every seat from each row's town point of view: scores [R, n], trusted sheriff [R].

    A sheriff claimant is credible to a reader if his claim is publicly credible, he did not
    call a town reader black (a town player knows he is red) and the reader is not the
    sheriff. The trusted sheriff is -1 where the reader believes none. A mafia player computes
    the same reading (without his private knowledge) to predict the town: it is what the
    town bots will believe.
    """
    bot = b.bot
    rows, me, is_me = b.rows, b.me, b.is_me
    sheriff = b.role == bot.sheriff_kind  # the reader is the sheriff
    is_sheriff = sheriff[:, None]
    town = bot.town_role[b.role]
    claimants = b.claimant & ~is_me
    cred = (
        claimants
        & b.public_credible
        & ~(town[:, None] & b.called_me_black)  # he called me black
        & ~is_sheriff
    )
    ncred = cred.sum(axis=1)
    shot = cred & b.night_dead  # of two credible claimants, the mafia shoot the real sheriff
    nshot = shot.sum(axis=1)
    trusted = np.where(ncred == 1, cred.argmax(axis=1), -1)
    trusted = np.where((ncred > 1) & (nshot == 1), shot.argmax(axis=1), trusted)
    two = ((ncred > 1) & (nshot != 1))[:, None]
    trusted = np.where(sheriff, me, trusted)
    is_trusted = b.seats == trusted[:, None]  # no seat where none is trusted
    has = (trusted >= 0)[:, None]
    t = np.maximum(trusted, 0)
    blacks = np.where(is_sheriff, b.checked_yes, b.claimed_black[rows, t]) & has
    reds = np.where(is_sheriff, b.checked_no, b.claimed_red[rows, t]) & has
    others = ~is_trusted
    # each seat's votes, nominations, vouches, accusations and black calls: [what, on whom, R, n]
    # on whom: the black checks, the cleared (the sheriff and his red checks), the night
    # dead, the reader
    by_votes, by_noms, by_vouch, by_accuse, by_call = row_dots(
        [b.votes, b.nominations, b.vouched, b.accused, b.claimed_black],
        [blacks, reds | is_trusted, b.night_dead, is_me],
    )
    confess = bot.black_claim[b.claim_kind]
    against_me = b.__dict__.setdefault("against_me", by_votes[3] + by_noms[3] + by_accuse[3] * 2.0)
    (voted,) = row_sums(b.votes_today)  # today's vote is over: who abstained?
    voters = b.alive if bot.rules.nominees_vote else b.alive & ~b.candidates
    over = any_of(b.candidates, 1) & any_of(voted > 0, 1)
    counting = b.v.get("counting")
    if counting is not None:  # an open count under way (CLUB-E7): not over yet
        over &= ~counting.any(axis=1)
    sus = weigh(
        # the sheriff knows every other claimant lies; a claim that cannot be true; one of
        # two credible claimants lies; a claim against the trusted sheriff
        (W_CHECKED, claimants & is_sheriff),
        (W_FALSE_SHERIFF, claimants & ~cred & ~is_sheriff),
        (W_TWO_CLAIMS, cred & two),
        (W_COUNTERCLAIM, cred & ~is_trusted & has),
        # the trusted sheriff's checks (the sheriff's own: certain), and himself
        (W_CHECKED, blacks & is_sheriff),
        (W_SHERIFF_BLACK, blacks & ~is_sheriff),
        (-W_CHECKED, reds & is_sheriff),
        (W_SHERIFF_RED, reds & ~is_sheriff),
        (W_TRUSTED, is_trusted),
        # speaking for a black check, or against the sheriff or a red check; voting so
        (W_SIDE, (by_vouch[0] + by_accuse[1] + by_call[1]) * others),
        (W_VOTE_SIDE, (by_votes[1] + by_noms[1]) * others),
        (W_VOTE_BLACK, by_votes[0] * others),
        # confessions, and checks claimed without a sheriff claim (lies)
        (W_CONFESS, confess),
        (W_LIE, ~confess & (b.checks_said > 0) & (b.claim_kind != bot.sheriff_kind)),
        # behaviour: against me (I know I am town), against the mafia's victims, odd play
        (W_AGAINST_ME, against_me * town[:, None]),
        (W_AGAINST_VICTIM, by_votes[2] + by_noms[2]),
        (W_ODD, diagonal(b.votes_noms)),
        (W_ODD, (voted == 0) & voters & over[:, None]),
    )
    sus[rows[town], me[town]] = -1e9
    return sus, trusted


def diagonal(x: np.ndarray) -> np.ndarray:
    """[R, n]: the diagonal of each row's [n, n] matrix (what each seat did to himself)."""
    R, n, _ = x.shape
    return x.reshape(R, n * n)[:, :: n + 1]


def weigh(*terms: tuple[float, np.ndarray]) -> np.ndarray:
    """Return the sum of ``weight * x`` over the terms ([R, n] each), in one product. The
    weights are whole numbers and the terms counts: every sum is exact, in any order."""
    x = np.array([t for _, t in terms], dtype=np.float64)
    w = _weights(tuple(w for w, _ in terms))
    return (w @ x.reshape(len(terms), -1)).reshape(x.shape[1:])


@cache
def _weights(ws: tuple[float, ...]) -> np.ndarray:
    return np.array(ws)


def posterior_reading(b: SeenBatch) -> tuple[np.ndarray, np.ndarray]:
    """The table's reading (`town_suspicion`) plus the posterior's log-odds over the prior
    (`LAMBDA` of them, in the table's units): the town reader's own posterior, and for the
    mafia the town's (what the town believes of them). The trusted sheriff is the table's."""
    sus, trusted = town_suspicion(b)
    post: Posterior = b.post
    # rounded, so that seats the evidence holds alike tie exactly, whatever the float sums'
    # order (the decisions break ties the same way for every town player)
    p = np.clip(np.round(np.where(b.black[:, None], post.town_p, post.p), 3), 1e-4, 1 - 1e-4)
    prior = math.log(post.prior / (1 - post.prior))
    return sus + LAMBDA * (np.log(p / (1 - p)) - prior), trusted


# `Style.reading`'s habits
READINGS = {"table": town_suspicion, "posterior": posterior_reading}
