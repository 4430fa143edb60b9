"""The reading of sheriff claims with liars in the model (`mafia_env.belief.claims`):
checked against a brute force over every world on small tables, and on the cases it is for."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mafia_env.belief.claims import LIAR_CALLS, MODELS, RANDOM_CALL, SLIP, read_claims, worlds
from mafia_env.errors import ConfigError


def brute(claimants, black, red, k, has_sheriff, fixed, sfixed, llr):
    """P(black), P(sheriff), P(model) for one table, world by world, model by model."""
    n = len(claimants)
    joint = {}
    for team in combinations(range(n), k):
        sheriffs = [s for s in range(n) if s not in team] if has_sheriff else [None]
        for s in sheriffs:
            if any((i in team) != (fixed[i] == 1) for i in range(n) if fixed[i] != 0):
                continue
            if has_sheriff and any((i == s) != (sfixed[i] == 1) for i in range(n) if sfixed[i]):
                continue
            calls = 0.0
            for c in range(n):
                for t in range(n):
                    for said, colour in ((black[c][t], 1), (red[c][t], 0)):
                        if not said:
                            continue
                        truth = 1 if t in team else 0
                        if claimants[c] and c == s:
                            p = 1 - SLIP if colour == truth else SLIP
                        elif claimants[c] and c in team:
                            pb = LIAR_CALLS[1] if truth else LIAR_CALLS[0]
                            p = pb if colour == 1 else 1 - pb
                        else:
                            p = RANDOM_CALL
                        calls += math.log(p)
            ev = sum(llr[i] for i in team)
            for mi, m in enumerate(MODELS):
                lik = m.weight
                for i in range(n):
                    p = m.sheriff if i == s else m.mafia if i in team else m.town
                    lik *= p if claimants[i] else 1 - p
                joint[(team, s, mi)] = lik * math.exp(calls + ev)
    total = sum(joint.values())
    pb, ps, pm = np.zeros(n), np.zeros(n), np.zeros(len(MODELS))
    for (team, s, mi), v in joint.items():
        for i in team:
            pb[i] += v / total
        if s is not None:
            ps[s] += v / total
        pm[mi] += v / total
    return pb, ps, pm


@st.composite
def tables(draw):
    n = draw(st.integers(4, 7))
    k = draw(st.integers(1, 2))
    has_sheriff = draw(st.booleans())
    claimants = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    calls = st.lists(st.lists(st.booleans(), min_size=n, max_size=n), min_size=n, max_size=n)
    black, red = draw(calls), draw(calls)
    red = [
        [r and not b for r, b in zip(rr, bb, strict=True)]
        for rr, bb in zip(red, black, strict=True)
    ]
    me = draw(st.integers(0, n - 1))
    fixed = [0] * n
    sfixed = [0] * n
    fixed[me] = -1  # a town reader
    if has_sheriff and draw(st.booleans()):
        sfixed[me] = 1  # the reader is the sheriff
    elif has_sheriff:
        sfixed[me] = -1
    llr = draw(st.lists(st.floats(-2, 2), min_size=n, max_size=n))
    return n, k, has_sheriff, claimants, black, red, fixed, sfixed, llr


@settings(max_examples=60, deadline=None)
@given(tables())
def test_matches_the_brute_force(t):
    _, k, has_sheriff, claimants, black, red, fixed, sfixed, llr = t
    got = read_claims(
        np.array([claimants]),
        np.array([black]),
        np.array([red]),
        k,
        has_sheriff=has_sheriff,
        fixed=np.array([fixed]),
        sheriff_fixed=np.array([sfixed]),
        llr=np.array([llr]),
    )
    pb, ps, pm = brute(claimants, black, red, k, has_sheriff, fixed, sfixed, llr)
    np.testing.assert_allclose(got.black[0], pb, atol=1e-9)
    np.testing.assert_allclose(got.sheriff[0], ps, atol=1e-9)
    np.testing.assert_allclose(got.models[0], pm, atol=1e-9)
    assert got.black[0].sum() == pytest.approx(k)
    assert got.sheriff[0].sum() == pytest.approx(1.0 if has_sheriff else 0.0)


def sport(claimants=(), calls=(), reds=(), me=0, sheriff=False):
    """One sport-10 reading: a town reader at `me`; `calls` (caller, target) black."""
    n = 10
    cl = np.zeros((1, n), bool)
    cl[0, list(claimants)] = True
    bl = np.zeros((1, n, n), bool)
    rd = np.zeros((1, n, n), bool)
    for c, t in calls:
        bl[0, c, t] = True
    for c, t in reds:
        rd[0, c, t] = True
    fix = np.zeros((1, n), int)
    fix[0, me] = -1
    sf = np.zeros((1, n), int)
    sf[0, me] = 1 if sheriff else -1
    return read_claims(cl, bl, rd, 3, fixed=fix, sheriff_fixed=sf)


def test_three_claimants_are_at_most_one_sheriff():
    r = sport(claimants=(1, 2, 3), calls=((1, 5), (2, 5), (3, 5)))
    assert r.sheriff[0, [1, 2, 3]].sum() <= 1.0 + 1e-12
    # three claimants for three mafia cards: most likely all three are the mafia, lying
    assert r.black[0, [1, 2, 3]].min() > 0.9
    assert r.models[0, r.names.index("all_liars")] > 0.5
    # ... so their black calls on seat 5 clear him rather than convict him
    assert r.black[0, 5] < 3 / 9


def test_a_black_check_weighs_by_the_claimants_credibility():
    alone = sport(claimants=(1,), calls=((1, 5),))
    countered = sport(claimants=(1, 2), calls=((1, 5), (2, 1)))
    # one claimant: his black check on 5 makes 5 likelier black than the prior
    assert alone.black[0, 5] > 3 / 9 + 0.2
    # a counter-claimant calls him black: the check on 5 weighs as much as he is believed
    assert countered.sheriff[0, 1] < alone.sheriff[0, 1]
    assert countered.black[0, 5] < alone.black[0, 5]
    # as the probability of the claimant's truth times the truth, and of his lie times a lie
    p = alone.sheriff[0, 1]
    assert alone.black[0, 5] > p * (1 - SLIP)


def test_the_real_sheriff_knows_every_other_claimant_lies():
    r = sport(claimants=(0, 4), calls=((4, 7),), me=0, sheriff=True)
    assert r.sheriff[0, 0] == pytest.approx(1.0)
    assert r.sheriff[0, 4] == 0.0
    assert r.black[0, 4] > 0.8  # a sheriff claimant who is not the sheriff: a liar, likely mafia


def test_a_call_on_the_reader_marks_its_caller():
    r = sport(claimants=(3,), calls=((3, 0),), me=0)
    other = sport(claimants=(3,), calls=((3, 7),), me=0)
    assert r.sheriff[0, 3] < 0.1 < 0.5 < other.sheriff[0, 3]
    assert r.black[0, 3] > 0.7


def test_red_calls_clear():
    r = sport(claimants=(2,), reds=((2, 6),))
    assert r.black[0, 6] < 3 / 9


def test_a_batch_reads_as_its_rows_one_by_one():
    rng = np.random.default_rng(3)
    n, R = 8, 6
    cl = rng.random((R, n)) < 0.3
    bl = rng.random((R, n, n)) < 0.1
    rd = (rng.random((R, n, n)) < 0.1) & ~bl
    fix = np.zeros((R, n), int)
    fix[np.arange(R), rng.integers(0, n, R)] = -1
    llr = rng.normal(size=(R, n))
    both = read_claims(cl, bl, rd, 2, fixed=fix, llr=llr)
    for i in range(R):
        one = read_claims(
            cl[i : i + 1], bl[i : i + 1], rd[i : i + 1], 2, fixed=fix[i : i + 1], llr=llr[i : i + 1]
        )
        np.testing.assert_allclose(both.black[i], one.black[0], atol=1e-12)
        np.testing.assert_allclose(both.sheriff[i], one.sheriff[0], atol=1e-12)


def test_worlds_count_and_errors():
    B, S = worlds(10, 3, True)
    assert B.shape == (120 * 7, 10) and (B.sum(axis=1) == 3).all() and (S.sum(axis=1) == 1).all()
    assert not (B * S).any()
    with pytest.raises(ConfigError, match="no world"):
        worlds(3, 3, True)
    with pytest.raises(ConfigError, match="shape"):
        read_claims(np.zeros((1, 5), bool), np.zeros((1, 5, 4), bool), np.zeros((1, 5, 5)), 1)
    fix = np.ones((1, 5), int)  # five known black seats for a mafia of one
    with pytest.raises(ConfigError, match="leave no world"):
        read_claims(np.zeros((1, 5), bool), None, None, 1, fixed=fix)
    for bad in (2, -2):  # a hard fact is +1, -1 or 0
        with pytest.raises(ConfigError, match=r"\+1 \(is\), -1 \(is not\) or 0"):
            read_claims(np.zeros((1, 5), bool), None, None, 1, sheriff_fixed=np.full((1, 5), bad))
