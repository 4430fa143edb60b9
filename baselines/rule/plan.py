"""The mafia's plan: whom the mafia shoot and push, agreed without talking.

The mafia's night shots are not seen by each other, so agreement comes from shared knowledge:
`mafia_ranking` scores the town players from public facts alike for every member, with
noise drawn from a hash of the public table (`public_noise`, `coin`), and `mafia_day_scores`
pushes by day the town player the town itself suspects most. Each works on every row of a
batch at once; the hashes are made row by row (a crc32 of the row's public facts, a few
microseconds a row), and only for the rows that need them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from baselines.rule.reading import SeenBatch, any_of


def public_noise(b: SeenBatch, need: np.ndarray, salt: int) -> np.ndarray:
    """[R, n]: numbers in [0, 1) drawn from a generator seeded by the rows' public hash
    (`SeenBatch.table_hash`), for the rows `need` (zeros elsewhere).

    Every mafia member draws them alike; they are kept by hash in the bot (a day's turns draw
    the same ones over and over) and per batch by salt.
    """
    key = f"_noise{salt}"
    got = b.__dict__.get(key)
    if got is None:
        got = b.__dict__[key] = (np.zeros((b.R, b.n)), np.zeros(b.R, dtype=bool))
    x, done = got
    todo = np.flatnonzero(need & ~done).tolist()
    for i in todo:
        x[i] = noise_for(b.bot, b.table_hash(i, salt), b.n)
    done[todo] = True
    return x


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


def coin(b: SeenBatch, i: int, salt: int) -> float:
    """Return a number in [0, 1) that every mafia member of row `i`'s game draws alike today."""
    return (b.table_hash(i, salt) & 0xFFFFFF) / float(1 << 24)


def mafia_ranking(b: SeenBatch, need: np.ndarray, night: bool = False) -> np.ndarray:
    """[R, n]: the town players scored as the mafia's targets, alike for every member (the
    rows `need` get their noise; the others are scored without it).

    A credible sheriff claimant first (shooting the sheriff a teammate counter-claims would
    prove the teammate a liar), then a player the don accused (his signal that he found the
    sheriff), then players who accused or called a member black, then players the town
    trusts; at night a player the mafia nominated or voted against is shot last (a trail to
    them).
    """
    black = b.team
    black_f = black.astype(np.float32)
    claimants, cred = b.claimant, b.public_credible
    covered = any_of(claimants & black, 1)
    score = np.where(claimants & ~black & ~covered[:, None], np.where(cred, 100.0, 5.0), 0.0)
    dons = b.dons
    if np.count_nonzero(dons):  # (counts: exact in float32)
        score += 90.0 * (dons.astype(np.float32)[:, None, :] @ b.accused)[:, 0]
    score += 10.0 * b.team_attacks
    reds = claimants & ~black & cred  # players the town trusts: a credible claimant's reds
    if np.count_nonzero(reds):
        score += 5.0 * (reds.astype(np.float32)[:, None, :] @ b.claimed_red)[:, 0]
    if night:
        trail = (black_f[:, None, :] @ b.votes_noms)[:, 0]
        score -= 3.0 * np.minimum(trail, 1)
    score += public_noise(b, need, int(night))
    np.copyto(score, -1e9, where=b.team_or_dead)  # (score[mask] = -1e9, in place)
    return score


def mafia_day_scores(b: SeenBatch, need: np.ndarray) -> np.ndarray:
    """[R, n]: the town players scored as the mafia's day targets: go with the town's own
    suspicion, which costs them no suspicion of their own (voting against a trusted sheriff
    would expose them)."""
    score = b.sus + 0.1 * public_noise(b, need, 3)
    np.copyto(score, -1e9, where=b.team_or_dead)
    return score


__all__ = ["coin", "mafia_day_scores", "mafia_ranking", "noise_for", "public_noise"]
