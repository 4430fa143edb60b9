"""Bayes with particles (the tables past `EXACT_LIMIT`: city-13 and larger): the resample-move
step keeps the population alive. The truth, which deduction never rules out, is never given
weight 0 by the weighing the move step uses; the deals do not collapse to one while deduction
keeps many; a deal keeps at most `BRANCHES` worlds; the result is seeded.

The default tests run small tables in particle mode (`EXACT_LIMIT` and `PARTICLES` lowered);
city-13 itself, whole games, is `long` (`make test-long`)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from mafia_env.actions import ActionLayout
from mafia_env.belief import BeliefError, bayes, track, tracker
from mafia_env.engine.game import Game
from mafia_env.observe import VectorObserver
from mafia_env.seating.policies import load_policy
from mafia_env.variants import VARIANTS
from tests.engine.test_game_data import random_move


def _small_particles(monkeypatch, particles: int = 256) -> None:
    """Particles at sport-10 (1,512 deals a civilian): fewer of them, and fewer proposals."""
    monkeypatch.setattr(track, "EXACT_LIMIT", 100)
    monkeypatch.setattr(track, "PARTICLES", particles)
    monkeypatch.setattr(bayes, "PARTICLES", particles)
    monkeypatch.setattr(bayes, "MOVE_ESS", particles / 4)
    monkeypatch.setattr(bayes, "PROPOSALS", particles // 4)


def _record(variant: str, n: int, seed: int, opponent: str) -> list[int]:
    """The moves of a game played by `opponent` on every seat."""
    rules = VARIANTS[variant]
    layout = ActionLayout(rules, n)
    policy = load_policy(opponent, variant=variant, num_players=n, seed=0)
    g = Game(rules, n, seed)
    obs = VectorObserver(rules, n)
    obs.reset(g)
    moves = []
    while not g.over and len(moves) < 3000:
        a = policy.act(obs.observe(g, g.actor), layout.shared_mask(g))
        moves.append(a)
        g.apply(*layout.decoded[a])
    return moves


def _follow(variant, n, seed, seat, opponent, days=99, each=None):
    """Replay a game of `opponent` with the seat's deduction and Bayes trackers brought up to
    date every move; call `each(game, deduction, bayes)` after every segment Bayes weighed."""
    rules = VARIANTS[variant]
    layout = ActionLayout(rules, n)
    g = Game(rules, n, seed)
    d, b = tracker(g, seat), tracker(g, seat, opponent)
    assert not d.exact
    done = 0
    for a in _record(variant, n, seed, opponent):
        g.apply(*layout.decoded[a])
        if g.over or g.day > days:
            break
        d.update()
        b.update()
        segments = sum(1 for e in d.history[: b.done] if e[0] == "segment")
        if segments > done and each is not None:
            each(g, d, b)
        done = segments
    return g, d, b


def _truth_weight(d, b, g) -> float:
    """The log-weight the move step's weighing (a replay of the history) gives the truth."""
    truth = d.space.as_row(g.roles)
    c = b._replay(truth[None].astype(d.deals.dtype))
    return -np.inf if c is None else float(np.logaddexp.reduce(c.logw))


def _distinct(rows: np.ndarray, alive: np.ndarray) -> int:
    return len(np.unique(rows[alive], axis=0)) if alive.any() else 0


def _per_deal(b) -> int:
    alive = b.alive
    if not alive.any():
        return 0
    return int(np.unique(b.rows[alive], axis=0, return_counts=True)[1].max())


@pytest.mark.parametrize(("seed", "seat"), [(5, 0)])
def test_particles_never_give_the_truth_weight_zero(monkeypatch, seed, seat):
    """At every segment, deduction accepts the true deal and the move step's weighing (the
    whole history replayed under the model) gives it a finite log-weight."""
    _small_particles(monkeypatch)
    seen = []

    def each(g, d, b):
        assert d.possible(d.space.as_row(g.roles))
        lw = _truth_weight(d, b, g)
        assert np.isfinite(lw), (seed, seat, g.day)
        seen.append(lw)

    _follow("sport", 10, seed, seat, "rule", days=3, each=each)
    assert len(seen) >= 3


@pytest.mark.parametrize(
    ("seed", "seat"), [(2, 3), pytest.param(7, 1, marks=[pytest.mark.slow, pytest.mark.long])]
)
@pytest.mark.slow
def test_particles_follow_the_exact_posterior(monkeypatch, seed, seat):
    """The same sport-10 game followed exactly (1,512 deals listed) and by particles: after
    each segment the particles keep more than one deal wherever the exact posterior puts
    1e-3 on more than one (no collapse onto one deal), at most `BRANCHES` worlds a deal,
    the move step ran, and the particles' log-loss on the true roles is below deduction's."""
    rules = VARIANTS["sport"]
    layout = ActionLayout(rules, 10)
    ge, gp = Game(rules, 10, seed), Game(rules, 10, seed)
    exact = tracker(ge, seat, "rule")
    _small_particles(monkeypatch)
    d, b = tracker(gp, seat), tracker(gp, seat, "rule")
    assert exact.base.exact and not d.exact
    truth = d.space.as_row(gp.roles)

    def loss(m):
        return -np.mean([np.log(max(m[s, truth[s]], 1e-12)) for s in range(10) if s != seat])

    done = checked = 0
    for a in _record("sport", 10, seed, "rule"):
        ge.apply(*layout.decoded[a])
        gp.apply(*layout.decoded[a])
        if gp.over:
            break
        exact.update()
        d.update()
        b.update()
        segments = sum(1 for e in d.history[: b.done] if e[0] == "segment")
        if segments > done:
            w = exact.weights()
            heavy = int((w / w.sum() > 1e-3).sum())
            assert _distinct(b.rows, b.alive) >= min(2, heavy), (gp.day, heavy)
            assert _per_deal(b) <= bayes.BRANCHES
            checked += 1
        done = segments
    assert checked >= 3 and b.moves >= 1
    assert loss(b.belief().matrix()) < loss(d.belief().matrix())


def test_particles_are_seeded(monkeypatch):
    """Two runs of the same game give the same worlds and weights."""
    _small_particles(monkeypatch, particles=128)
    runs = []
    for _ in range(2):
        _, _, b = _follow("sport", 10, 5, 0, "rule", days=2)
        w = b.weights()
        runs.append((b.rows.copy(), w, b.moves))
    (r0, w0, m0), (r1, w1, m1) = runs
    assert m0 == m1 and np.array_equal(r0, r1) and np.allclose(w0, w1)


@pytest.mark.slow
@pytest.mark.long  # city-13, whole games: minutes each
@pytest.mark.parametrize(("seed", "seat"), [(0, 0), (1, 4)])
def test_city13_particles_keep_the_truth_and_many_deals(seed, seat):
    """City-13 under the rule bots (seed 0, seat 0: the game in which the population once
    fell to one deal, 1,875 -> 25 -> 3 -> 1 by day 5, the truth not among them): at every
    segment the truth keeps a finite weight under the move step's weighing, a deal keeps at
    most `BRANCHES` worlds, and more than one deal is kept while deduction keeps many."""
    low = []

    def each(g, d, b):
        assert d.possible(d.space.as_row(g.roles))
        assert np.isfinite(_truth_weight(d, b, g))
        assert _per_deal(b) <= bayes.BRANCHES
        if _distinct(d.deals, d.live) >= 20:
            low.append(_distinct(b.rows, b.alive))

    _follow("city", 13, seed, seat, "rule", each=each)
    assert low and min(low) >= 2, low


def _play_city8(monkeypatch, seeds) -> tuple[list[bool], int]:
    """Random city-8 games, every particle seat followed (16 particles each); return what each
    `Tracker._recover` call gave and the BeliefErrors raised."""
    monkeypatch.setattr(track, "EXACT_LIMIT", 100)
    monkeypatch.setattr(track, "PARTICLES", 16)
    calls: list[bool] = []
    recover = track.Tracker._recover

    def spy(self, seg):
        calls.append(recover(self, seg))
        return calls[-1]

    monkeypatch.setattr(track.Tracker, "_recover", spy)
    errors = 0
    for seed in seeds:
        g = Game(VARIANTS["city"], 8, seed)
        rng = random.Random(seed)
        ts = [t for t in (track.Tracker(g, s) for s in range(8)) if not t.exact]
        try:
            while not g.over:
                g.apply(*random_move(g, rng))
                for t in ts:
                    t.update()
                    live = t.deals[t.live]
                    assert t._consistent(live).all()  # every particle a deal the seat keeps
        except BeliefError:
            errors += 1
            continue
        truth = ts[0].space.as_row(g.roles)
        assert all(t.possible(truth) for t in ts)
    return calls, errors


@pytest.mark.slow
def test_particles_recover_when_none_reproduces_a_segment(monkeypatch):
    """Where no particle reproduces a segment (a forfeit names the whole mafia: one city-10
    civilian tracker in 120 of random play raised BeliefError at 2,048 particles), deals that
    do are found near the particles (`Tracker._recover`) and replace them: at 16 particles on
    city-8 it happens in most games, every time a deal is found, no error is raised, and every
    particle is a deal the seat cannot rule out. Without it the same games raise."""
    seeds = range(6)
    calls, errors = _play_city8(monkeypatch, seeds)
    assert len(calls) >= 6 and all(calls) and errors == 0
    monkeypatch.setattr(track.Tracker, "_recover", lambda self, seg: False)
    _, errors = _play_city8(monkeypatch, seeds)
    assert errors >= 3
