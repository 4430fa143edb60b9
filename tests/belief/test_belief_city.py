"""City-13 Bayes (particles): the true deal's world explains the table's public moves about as
well as the real game does, and the particles' answer never puts a true role at 0.

The true deal followed alone (one world, as the move step's replay follows a proposal) is
weighed move by move: each public move of another seat may cost it little more than the
model's probability of that move from the mover's real observation. Before the fix the
sheriff's private row (his checks, uncertain in the world: which of ten alike suspects he
checked each night) kept at most 16 of its 110 two-night histories, the true one dropped,
and his claim of the true check cost the world the mixture's floor (7 nats, city-13 seed 0,
seat 0, day 3): the true deal fell behind wrong deals, and Bayes's log-loss above
deduction's. A short test (the first three days of one game, a few seconds)."""

from __future__ import annotations

import math

import numpy as np

from mafia_env.actions import ActionLayout
from mafia_env.belief import track, tracker
from mafia_env.belief.bayes import EPS, BayesTracker
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import PUBLIC_TURNS
from mafia_env.observe import VectorObserver
from mafia_env.seating.policies import action_probs, load_policy
from mafia_env.variants import VARIANTS


def _truth_alone(g: Game, seat: int, model: str) -> BayesTracker:
    """A Bayes tracker of the seat whose only world is the true deal (no move step)."""
    d = tracker(g, seat)
    b = BayesTracker(d, model)
    b.child = True  # one population, followed as it is (as `_replay` follows a proposal)
    b._set_worlds(d.space.as_row(g.roles)[None].astype(d.deals.dtype))
    return b


def test_city13_truth_world_explains_each_public_move(monkeypatch):
    """Seed 0, seat 0 (a civilian), rule bots, to day 3's vote: each public move of another
    seat costs the true deal's world at most 3 nats more than the model's probability of it
    from the mover's real observation, the sheriff's claims of his checks among them."""
    monkeypatch.setattr(track, "PARTICLES", 32)  # deduction's own particles: its cost here
    rules, n, seat = VARIANTS["city"], 13, 0
    layout = ActionLayout(rules, n)
    policy = load_policy("rule", variant="city", num_players=n, seed=0)
    g = Game(rules, n, 0)
    obs = VectorObserver(rules, n)
    obs.reset(g)
    b = _truth_alone(g, seat, "rule")
    claims = 0
    while not g.over and g.day <= 3:
        mask = layout.shared_mask(g)
        x = obs.observe(g, g.actor)
        a = policy.act(x, mask)
        public = g.turn in PUBLIC_TURNS and g.actor != seat
        if public:
            p = action_probs(policy, x[None], mask[None])[0]
            legal = mask > 0
            real = math.log((1 - EPS) * p[a] + EPS / legal.sum())
        before, entries = float(np.logaddexp.reduce(b.logw)), len(b.base.history)
        g.apply(*layout.decoded[a])
        b.update()
        hist = b.base.history
        if public and len(hist) == entries + 1 and hist[-1][0] == "step":
            cost = float(np.logaddexp.reduce(b.logw)) - before
            assert cost >= real - 3.0, (g.day, layout.decoded[a], g.actor, cost, real)
            claims += int(hist[-1][1][2].name == "CLAIM_CHECK")
    assert claims >= 2  # the sheriff's claims were weighed (day 3)
    assert np.isfinite(b.logw).any()
