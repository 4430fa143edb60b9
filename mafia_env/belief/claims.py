"""Reading the table's sheriff claims with liars in the model.

A sheriff claim is a statement, not a fact: the real sheriff may claim, and so may a mafia
member (a fake claim, often with a false black check on a townsperson) or, rarely, a
confused townsperson. `read_claims` weighs every *world* (which seats hold the mafia team's
cards, and which seat is the sheriff) by how likely a mixture of models of the table makes
the claims and checks on it, and returns, for each reader:

- ``black`` [R, n]: P(each seat is of the mafia team: the team the sheriff sees black);
- ``sheriff`` [R, n]: P(each seat is the real sheriff). A world has one sheriff, so three
  sheriff claimants are at most one true sheriff: their probabilities sum to at most 1;
- ``models`` [R, M]: the posterior weight of each model of the mixture (`MODELS`: an honest
  table, one liar now and then, a mafia that all claim).

Each model says, per seat, how likely it is to have claimed sheriff by now, by what it is
(`ClaimModel`: the real sheriff ``sheriff``, a mafia member ``mafia``, any other seat
``town``), and how a claimant's calls fall: the real sheriff calls every check right (but for
``slip``); a mafia liar calls townspeople black and his teammates red (`LIAR_CALLS`); a town
liar calls at random. So a claimant's black check on a seat moves that seat's probability by
as much as the claimant is likely to be the real sheriff: the check and the claimant's
credibility are read together, in the same worlds.

What the reader knows for sure (his own card, his teammates, his own checks, the roles shown
to the table) comes in as hard facts (``fixed``, ``sheriff_fixed``), and anything else he
reads from the table (votes, nominations: the caller's own evidence) as a log-likelihood ratio
of "black" per seat (``llr``), added in every world. Exact: every world is listed (sport-10:
C(10, 3) sets x 7 sheriffs = 840 worlds; city-13: C(13, 4) x 9 = 6,435), one matrix product
per claimant for the batch.

This reads what is on the table (the observation's claims and checks), not the moves that
led there: it is a model of the claims, cheap enough to consult at every decision, where
`mafia_env.belief.bayes` weighs every move under a policy model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np

from mafia_env.errors import ConfigError


@dataclass(frozen=True)
class ClaimModel:
    """One model of the table's claims: P(a seat has claimed sheriff) by what it is, and the
    prior weight of the model in the mixture."""

    name: str
    sheriff: float  # the real sheriff has claimed
    mafia: float  # a mafia member has claimed (a fake claim)
    town: float  # any other seat has claimed (a confused or random player)
    weight: float


# The mixture: an honest table where the mafia rarely fake, a table with a liar now and then,
# and a mafia that all claim (three claimants with three mafia is most likely all of them).
MODELS: tuple[ClaimModel, ...] = (
    ClaimModel("honest", sheriff=0.5, mafia=0.03, town=0.01, weight=0.5),
    ClaimModel("one_liar", sheriff=0.5, mafia=0.3, town=0.02, weight=0.3),
    ClaimModel("all_liars", sheriff=0.5, mafia=0.9, town=0.02, weight=0.2),
)
SLIP = 0.02  # the real sheriff calls a check wrong
# a mafia liar's call on a target: P(black | target town), P(black | target mafia)
LIAR_CALLS = (0.85, 0.05)
RANDOM_CALL = 0.5  # a town liar's call is black this often, whatever the target


@dataclass
class ClaimReading:
    """`read_claims`'s answer: P(black) and P(real sheriff) per seat, the models' weights."""

    black: np.ndarray  # [R, n]
    sheriff: np.ndarray  # [R, n]
    models: np.ndarray  # [R, M]
    names: tuple[str, ...]  # the models, in the order of ``models``'s columns


@cache
def worlds(n: int, k: int, has_sheriff: bool) -> tuple[np.ndarray, np.ndarray]:
    """Every world of a table of `n` seats with a mafia team of `k`: ([W, n] black 0/1,
    [W, n] sheriff 0/1), each a set of `k` seats and (where the table has one) a sheriff
    outside it. Read-only float64 arrays."""
    if not 0 <= k <= n or (has_sheriff and k >= n):
        raise ConfigError(f"no world seats a mafia of {k} among {n} (sheriff: {has_sheriff})")
    black, sheriff = [], []
    for team in combinations(range(n), k):
        row = np.zeros(n)
        row[list(team)] = 1.0
        if has_sheriff:
            for s in range(n):
                if row[s] == 0:
                    sh = np.zeros(n)
                    sh[s] = 1.0
                    black.append(row)
                    sheriff.append(sh)
        else:
            black.append(row)
            sheriff.append(np.zeros(n))
    out = np.array(black), np.array(sheriff)
    for a in out:
        a.flags.writeable = False
    return out


def _as(x: np.ndarray | None, shape: tuple[int, ...], dtype: type, name: str) -> np.ndarray:
    if x is None:
        return np.zeros(shape, dtype=dtype)
    a = np.asarray(x)
    if a.shape != shape:
        raise ConfigError(f"read_claims: {name} has shape {a.shape}; expected {shape}")
    return a.astype(dtype)


def read_claims(
    claimants: np.ndarray,
    called_black: np.ndarray,
    called_red: np.ndarray,
    k: int,
    *,
    has_sheriff: bool = True,
    fixed: np.ndarray | None = None,
    sheriff_fixed: np.ndarray | None = None,
    llr: np.ndarray | None = None,
    out_ends: np.ndarray | None = None,
    models: tuple[ClaimModel, ...] = MODELS,
) -> ClaimReading:
    """Read a batch of tables' sheriff claims under the mixture `models`.

    - `claimants` [R, n] bool: the seats whose latest role claim is sheriff;
    - `called_black`, `called_red` [R, n, n] bool: (caller, target) check calls said;
    - `k`: the mafia team's size (the seats the sheriff sees black);
    - `fixed` [R, n]: +1 known black, -1 known not black, 0 open (the reader's own facts);
    - `sheriff_fixed` [R, n]: +1 known sheriff, -1 known not the sheriff, 0 open;
    - `llr` [R, n]: more evidence, a log-likelihood ratio of black per seat;
    - `out_ends` [R, n] bool: seats out of the game, where the game ends once the whole
      mafia team is out (a world with every member out is ruled out).

    A row whose hard facts leave no world raises `ConfigError` (the facts contradict each
    other); the claims and checks never rule a world out, they only weigh it.
    """
    claimants = np.asarray(claimants, dtype=bool)
    if claimants.ndim != 2:
        raise ConfigError(f"read_claims: claimants must be [R, n]; got shape {claimants.shape}")
    R, n = claimants.shape
    black_calls = _as(called_black, (R, n, n), np.float64, "called_black")
    red_calls = _as(called_red, (R, n, n), np.float64, "called_red")
    fix = _as(fixed, (R, n), np.int64, "fixed")
    sfix = _as(sheriff_fixed, (R, n), np.int64, "sheriff_fixed")
    extra = _as(llr, (R, n), np.float64, "llr")
    if not models:
        raise ConfigError("read_claims: the mixture names no model")
    B, S = worlds(n, k, has_sheriff)  # [W, n]
    Bt, St = B.T, S.T  # [n, W]
    W = len(B)
    cl = claimants.astype(np.float64)
    # claim counts by what the claimant is in each world
    c_mafia = cl @ Bt  # [R, W]
    c_sheriff = cl @ St
    c_total = cl.sum(axis=1, keepdims=True)
    c_town = c_total - c_mafia - c_sheriff
    n_town = n - k - (1 if has_sheriff else 0)
    # checks: each claimant's calls, read by what he is in the world
    log_calls = np.zeros((R, W))
    lb_t, lb_m = math.log(LIAR_CALLS[0]), math.log(LIAR_CALLS[1])
    lr_t, lr_m = math.log(1 - LIAR_CALLS[0]), math.log(1 - LIAR_CALLS[1])
    ok, slip = math.log(1 - SLIP), math.log(SLIP)
    rnd = math.log(RANDOM_CALL)
    for c in np.flatnonzero((black_calls.sum(axis=2) + red_calls.sum(axis=2)).any(axis=0)):
        bc, rc = black_calls[:, c], red_calls[:, c]  # [R, n]
        nb, nr = bc.sum(axis=1, keepdims=True), rc.sum(axis=1, keepdims=True)
        bb = bc @ Bt  # black calls on black seats, [R, W]
        rb = rc @ Bt
        bt, rt = nb - bb, nr - rb
        truth = (bb + rt) * ok + (bt + rb) * slip
        liar = bb * lb_m + bt * lb_t + rb * lr_m + rt * lr_t
        noise = (nb + nr) * rnd
        is_mafia, is_sheriff = B[:, c][None], S[:, c][None]
        ll = is_sheriff * truth + is_mafia * liar + (1 - is_mafia - is_sheriff) * noise
        # only a claimant's calls are read as a sheriff's; calls without a claim are noise
        log_calls += np.where(claimants[:, c : c + 1], ll, noise)
    # the mixture over the models: log sum_m weight_m * P(claims | world, m)
    per_model = []
    for m in models:
        lm = (
            math.log(m.weight)
            + c_mafia * _log(m.mafia)
            + (k - c_mafia) * _log(1 - m.mafia)
            + c_town * _log(m.town)
            + (n_town - c_town) * _log(1 - m.town)
        )
        if has_sheriff:
            lm = lm + c_sheriff * _log(m.sheriff) + (1 - c_sheriff) * _log(1 - m.sheriff)
        per_model.append(lm)
    per = np.stack(per_model, axis=2)  # [R, W, M]
    base = log_calls + extra @ Bt
    # hard facts
    bad = np.zeros((R, W), dtype=bool)
    bad |= ((fix == -1).astype(np.float64) @ Bt) > 0
    bad |= ((fix == 1).astype(np.float64) @ Bt) < (fix == 1).sum(axis=1, keepdims=True)
    if has_sheriff:
        bad |= ((sfix == -1).astype(np.float64) @ St) > 0
        bad |= ((sfix == 1).astype(np.float64) @ St) < (sfix == 1).sum(axis=1, keepdims=True)
    if out_ends is not None:
        out = _as(out_ends, (R, n), np.float64, "out_ends")
        bad |= (out @ Bt) >= k if k > 0 else False
    if bad.all(axis=1).any():
        rows = np.flatnonzero(bad.all(axis=1)).tolist()
        raise ConfigError(f"read_claims: the hard facts of rows {rows} leave no world")
    logj = np.where(bad[..., None], -np.inf, base[..., None] + per)  # [R, W, M]
    top = logj.max(axis=(1, 2), keepdims=True)
    j = np.exp(logj - top)
    j /= j.sum(axis=(1, 2), keepdims=True)
    w = j.sum(axis=2)  # [R, W]
    return ClaimReading(
        black=w @ B,
        sheriff=w @ S,
        models=j.sum(axis=1),
        names=tuple(m.name for m in models),
    )


def _log(p: float) -> float:
    return math.log(p) if p > 0 else -1e9


__all__ = ["LIAR_CALLS", "MODELS", "SLIP", "ClaimModel", "ClaimReading", "read_claims", "worlds"]
