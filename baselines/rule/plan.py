"""The mafia's plan: whom the mafia shoot and push, agreed without talking.

The mafia's night shots are not seen by each other, so agreement comes from shared knowledge:
`mafia_ranking` scores the town players from public facts alike for every member, with
noise drawn from a hash of the public table (`public_noise`, `coin`), and `mafia_day_scores`
pushes by day the town player the town itself suspects most.
"""

from __future__ import annotations

import struct
import zlib
from typing import Any

import numpy as np

from baselines.rule.reading import Seen
from baselines.rule.suspicion import public_credible
from mafia_env.engine.roles import Role

COUNTERCLAIM_P = 0.5  # chance the mafia counter-claim a sheriff who exposed one of them
FAKE_CLAIM_P = 0.1  # chance a day the mafia claim sheriff unprompted (no claim yet)


def public_hash(seen: Seen, salt: int = 0) -> int:
    """Return a hash of facts every player shares for the whole day or night."""
    return zlib.crc32(struct.pack("=qq", seen.day, salt), seen.table_crc)


def public_noise(seen: Seen, salt: int) -> np.ndarray:
    """Return `n` numbers in [0, 1) drawn from a generator seeded by `public_hash`.

    Every mafia member draws them alike; they are kept by hash, since a day's turns draw
    the same ones over and over.
    """
    return noise_for(seen.bot, public_hash(seen, salt), seen.n)


def noise_for(bot: Any, key: int, n: int) -> np.ndarray:
    """Return `public_noise`'s `n` numbers for the hash `key`, kept in the bot's cache."""
    cache = bot.noise
    x = cache.get(key)
    if x is None:
        if len(cache) >= 4096:
            cache.clear()
        x = cache[key] = np.random.default_rng(key).random(n)
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


def role_of(seen: Seen, s: int) -> Role | None:
    return seen.role if s == seen.me else seen.mate_roles.get(s)
