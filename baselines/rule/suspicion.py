"""The town's suspicion: each seat scored from a town player's point of view (rule bots v1).

`town_suspicion` reads every row of a `SeenBatch` at once: sheriff claims and their
credibility, the trusted sheriff's checks, and behaviour (votes, nominations, accusations
against the reader, the sheriff, his red checks, the mafia's night victims). The mafia compute
the same reading, without their private knowledge, to predict what the town bots believe.
"""

from __future__ import annotations

import numpy as np

from baselines.rule.reading import Seen, SeenBatch, row_dots, row_sums

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


def public_credible(seen: Seen, c: int) -> bool:
    """Whether `c`'s sheriff claim is credible on public facts alone (see `SeenBatch`)."""
    return bool(seen.batch.public_credible[seen.i, c])
