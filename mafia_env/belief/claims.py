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
C(10, 3) sets x 7 sheriffs = 840 worlds; city-13: C(13, 4) x 9 = 6,435), two matrix products per
caller for the batch.

This reads what is on the table (the observation's claims and checks), not the moves that
led there: it is a model of the claims, cheap enough to consult at every decision, where
`mafia_env.belief.bayes` weighs every move under a policy model.
"""

from __future__ import annotations

import math
from collections.abc import Callable
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
DIGITS = 12  # `read_claims` rounds its probabilities to this many decimals


class ClaimReading:
    """`read_claims`'s answer: P(black) and P(real sheriff) per seat, the models' weights.

    ``black`` [R, n], ``sheriff`` [R, n], ``models`` [R, M], ``names`` (the models, in the
    order of ``models``'s columns). ``sheriff`` and ``models`` may be given as functions of
    no argument: each is then computed on first use (a reader of ``black`` alone, as
    `baselines.belief_talk`, does not pay for them)."""

    __slots__ = ("_models", "_sheriff", "black", "names")

    def __init__(
        self,
        black: np.ndarray,
        sheriff: np.ndarray | Callable[[], np.ndarray],
        models: np.ndarray | Callable[[], np.ndarray],
        names: tuple[str, ...],
    ):
        self.black, self._sheriff, self._models, self.names = black, sheriff, models, names

    @property
    def sheriff(self) -> np.ndarray:
        if callable(self._sheriff):
            self._sheriff = self._sheriff()
        return self._sheriff

    @property
    def models(self) -> np.ndarray:
        if callable(self._models):
            self._models = self._models()
        return self._models

    def __repr__(self) -> str:
        return (
            f"ClaimReading(black={self.black!r}, sheriff={self.sheriff!r}, "
            f"models={self.models!r}, names={self.names!r})"
        )


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
    cl = claimants.astype(np.float64)
    # Every term below is the log-likelihood of the claims and calls in a world, up to a
    # constant per row (which the normalisation cancels), written as matrix products of
    # per-row features with per-world features (`_world_features`): one for what each seat
    # is, and one a caller for what his calls land on.
    #
    # Checks: a call says nothing of the world (noise) unless its caller claims; a claimant's
    # calls read as the truth where he is the sheriff (a wrong call: a slip), as a liar's
    # where he is of the mafia, as noise elsewhere. With bb, rb the black and red calls
    # landing on black seats (nb, nr his black and red calls), relative to noise:
    #   truth - noise = (ok - slip) * (bb - rb) + nr * ok + nb * slip - (nb + nr) * rnd
    #   liar - noise = (lb_m - lb_t) * bb + (lr_m - lr_t) * rb + nb * lb_t + nr * lr_t - ...
    # weighed by "the caller is the sheriff" or "of the mafia" in the world: the bb, rb terms
    # are products of two seats' cards in a world, the rest of one seat's.
    lb_t, lb_m = math.log(LIAR_CALLS[0]), math.log(LIAR_CALLS[1])
    lr_t, lr_m = math.log(1 - LIAR_CALLS[0]), math.log(1 - LIAR_CALLS[1])
    ok, slip = math.log(1 - SLIP), math.log(SLIP)
    rnd = math.log(RANDOM_CALL)
    nb, nr = black_calls.sum(axis=2), red_calls.sum(axis=2)  # [R, n]: per caller
    noise = (nb + nr) * rnd
    on_sheriff = cl * (nr * ok + nb * slip - noise)  # [R, n]: the caller is the sheriff
    on_mafia = cl * (nb * lb_t + nr * lr_t - noise) + extra  # ... of the mafia (+ the llr)
    pair_sheriff = (cl * (ok - slip))[:, :, None] * (black_calls - red_calls)  # [R, n, n]
    pair_mafia = cl[:, :, None] * ((lb_m - lb_t) * black_calls + (lr_m - lr_t) * red_calls)
    one, pairs = _world_features(n, k, has_sheriff)
    base = np.concatenate([on_sheriff, on_mafia], axis=1) @ one  # [R, W]
    for c in np.flatnonzero(((nb + nr) * cl).any(axis=0)):  # the claimants who called checks
        base += pair_sheriff[:, c] @ pairs[0, c] + pair_mafia[:, c] @ pairs[1, c]
    # the mixture over the models, log sum_m weight_m * P(claims | world, m): a function of
    # how many claimants the row has and the world makes mafia (0..k) and sheriff (0, 1)
    mix, given = _mixture(n, k, has_sheriff, models)  # [n + 1, V], [n + 1, V, M]
    total = cl.sum(axis=1).astype(np.intp)  # [R]: the row's claimants
    mix, given = mix[total], given[total]  # [R, V], [R, V, M]
    V = mix.shape[1]
    # each world's count class (its mafia claimants * 2 + its sheriff claimants), as an
    # index into the rows' `mix` laid end to end
    cls = (cl @ _count_features(n, k, has_sheriff)).astype(np.intp)  # [R, W]
    logw = base + mix.ravel()[cls + (np.arange(R) * V)[:, None]]
    # hard facts: a world is out where a seat known black is not black in it, or one known
    # not black is (and so for the sheriff): one product, of whole numbers (exact)
    fact, want = _facts(fix, sfix if has_sheriff else None, n)
    bad = (fact @ _fact_features(n, k, has_sheriff)) != want
    if out_ends is not None:
        out = _as(out_ends, (R, n), np.float64, "out_ends")
        black_t = _fact_features(n, k, has_sheriff)[:n]  # [n, W]: each seat black
        bad |= (out @ black_t) >= k if k > 0 else False
    if bad.all(axis=1).any():
        rows = np.flatnonzero(bad.all(axis=1)).tolist()
        raise ConfigError(f"read_claims: the hard facts of rows {rows} leave no world")
    logw[bad] = -np.inf
    w = np.exp(logw - logw.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)  # [R, W]

    # each model's weight: sum over the worlds of w * P(m | the world's class)
    def weights() -> np.ndarray:
        by_class = np.bincount(
            (np.arange(R)[:, None] * V + cls).ravel(), weights=w.ravel(), minlength=R * V
        ).reshape(R, V)
        return np.round(np.einsum("rv,rvm->rm", by_class, given), DIGITS)

    # rounded, so that seats the table treats alike read alike to the bit (the product's
    # order of sums would tell them apart in the last bits, and a tie is a tie); the
    # sheriff's and the models' on first use
    return ClaimReading(
        black=np.round(w @ B, DIGITS),
        sheriff=lambda: np.round(w @ S, DIGITS),
        models=weights,
        names=tuple(m.name for m in models),
    )


@cache
def _mixture(
    n: int, k: int, has_sheriff: bool, models: tuple[ClaimModel, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """The mixture's log-likelihood of a table's claims by how many seats claimed (0..n) and
    how many of them a world makes mafia (0..k) and the sheriff (0, 1), its log-sum over the
    models: mix [n + 1, V] (V = 2 (k + 1): mafia claimants * 2 + sheriff claimants); and
    each model's share of it, P(m | the counts): given [n + 1, V, M]. Read-only."""
    n_town = n - k - (1 if has_sheriff else 0)
    a = np.arange(k + 1, dtype=np.float64)[None, :, None]  # mafia claimants
    s = np.arange(2, dtype=np.float64)[None, None, :]  # sheriff claimants
    t = np.arange(n + 1, dtype=np.float64)[:, None, None] - a - s  # town claimants
    per_model = []
    for m in models:
        lm = (
            math.log(m.weight)
            + a * _log(m.mafia)
            + (k - a) * _log(1 - m.mafia)
            + t * _log(m.town)
            + (n_town - t) * _log(1 - m.town)
        )
        if has_sheriff:
            lm = lm + s * _log(m.sheriff) + (1 - s) * _log(1 - m.sheriff)
        per_model.append(np.broadcast_to(lm, (n + 1, k + 1, 2)).reshape(n + 1, 2 * (k + 1)))
    per = np.stack(per_model, axis=2)
    mix = np.logaddexp.reduce(per, axis=2)
    given = np.exp(per - mix[..., None])
    for x in (mix, given):
        x.flags.writeable = False
    return mix, given


@cache
def _count_features(n: int, k: int, has_sheriff: bool) -> np.ndarray:
    """[n, W]: a claimant's share of each world's count class (2 where the world makes him
    mafia, 1 where it makes him the sheriff). Read-only."""
    B, S = worlds(n, k, has_sheriff)
    out = np.ascontiguousarray(2.0 * B.T + (S.T if has_sheriff else 0.0))
    out.flags.writeable = False
    return out


def _facts(fix: np.ndarray, sfix: np.ndarray | None, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The hard facts as row features for `_fact_features`, and the count of a world that
    keeps them all. A seat known to be black (+1) counts 1 where a world makes it black, one
    known not to be (-1) counts -(n + 1): a world's count is at most the number of seats known
    black, and reaches it only where the world keeps every fact. The sheriff's facts alike,
    added: each part is at most its own target, so the sum reaches the sum of the targets
    only where both do. Whole numbers: exact in float64."""
    facts = fix if sfix is None else np.concatenate([fix, sfix], axis=1)
    if facts.size and (facts.min() < -1 or facts.max() > 1):
        raise ConfigError("read_claims: a hard fact is +1 (is), -1 (is not) or 0 (open)")
    f = np.array([-(n + 1), 0.0, 1.0])[facts + 1]
    return f, np.count_nonzero(facts == 1, axis=1)[:, None].astype(np.float64)


@cache
def _fact_features(n: int, k: int, has_sheriff: bool) -> np.ndarray:
    """[n or 2n, W]: what each seat is in each world, for `_facts`: black (the first n rows),
    and (where the table has a sheriff) the sheriff. Contiguous (a product with a transposed
    view takes BLAS's slow path). Read-only."""
    B, S = worlds(n, k, has_sheriff)
    out = np.ascontiguousarray(B.T if not has_sheriff else np.concatenate([B.T, S.T], axis=0))
    out.flags.writeable = False
    return out


@cache
def _world_features(n: int, k: int, has_sheriff: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per world: [2n, W] is each seat the sheriff, of the mafia; [2, n, n, W] for each
    (caller, target) pair, is the caller the sheriff and the target black, are both black.
    `read_claims`'s row features times these give each world's log-likelihood."""
    B, S = worlds(n, k, has_sheriff)
    one = np.ascontiguousarray(np.concatenate([S, B], axis=1).T)
    pairs = np.ascontiguousarray(np.stack([S.T[:, None] * B.T[None], B.T[:, None] * B.T[None]]))
    for a in (one, pairs):
        a.flags.writeable = False
    return one, pairs


def _log(p: float) -> float:
    return math.log(p) if p > 0 else -1e9


__all__ = ["LIAR_CALLS", "MODELS", "SLIP", "ClaimModel", "ClaimReading", "read_claims", "worlds"]
