"""`mafia_env.belief`'s shortcuts change no result: the deal lists kept between games, the
night key of Bayes's simulations, and Bayes's fast path (`bayes.FAST`) against the plain one."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

import mafia_env
from mafia_env.actions import ActionLayout
from mafia_env.belief import bayes
from mafia_env.belief.bayes import BayesTracker, _flat_field, _night_key
from mafia_env.belief.deals import DealSpace
from mafia_env.belief.track import Tracker
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import NIGHT_TURNS
from mafia_env.engine.state import Night
from mafia_env.observe import VectorObserver
from mafia_env.seating.policies import load_policy
from mafia_env.variants import VARIANTS
from tests.engine.test_game_data import random_move


def test_the_deal_lists_are_kept_between_games():
    """A new game's tracker takes the deals listed for the same seat's facts at the deal
    (read-only), equal to listing them again."""
    rules = VARIANTS["sport"]
    a, b = Game(rules, 10, 1), Game(rules, 10, 2)
    seat = next(s for s in range(10) if a.roles[s] == b.roles[s] and a.roles[s].label == "civilian")
    ta, tb = Tracker(a, seat), Tracker(b, seat)
    assert ta.exact and tb.deals is ta.deals
    assert not ta.deals.flags.writeable
    fresh = DealSpace(rules, 10)._enumerate(ta.allowed)
    assert np.array_equal(fresh, ta.deals) and ta.total == len(fresh)


def test_the_night_key_is_every_field_of_the_night():
    """`_night_key` flattens every field of `Night` as `_flat_field` does, in order."""
    names = [f.name for f in dataclasses.fields(Night)]
    seen = 0
    for name in ("sport", "city", "forum", "online", "club"):
        rules = VARIANTS[name]
        g = Game(rules, rules.default_players, 3)
        rng = random.Random(3)
        while not g.over and seen < 400:
            if g.turn in NIGHT_TURNS:
                want = tuple(_flat_field(getattr(g.night, f)) for f in names)
                assert _night_key(g.night) == want
                seen += 1
            g.apply(*random_move(g, rng))
    assert seen > 50


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "seed"), [("sport", 0), ("online", 1)])
def test_bayes_fast_path_gives_the_plain_weights(variant, seed, monkeypatch):
    """Games played by the rule bots, Bayes under the rule model: the weights of the fast
    path (the deal's private rows kept between games, one look-up for a mover of one row)
    equal the plain path's, bit for bit, at every move."""
    rules = mafia_env.VARIANTS[variant]
    n = rules.default_players
    layout = ActionLayout(rules, n)
    bot = load_policy("rule", variant=variant, num_players=n, seed=seed)
    g = Game(rules, n, seed)
    obs = VectorObserver(rules, n)
    obs.reset(g)
    seat = seed % n
    monkeypatch.setattr(bayes, "_DEAL_ROWS", {})
    runs = {}
    for name, fast in (("plain", False), ("fills", True), ("reads", True)):
        monkeypatch.setattr(bayes, "FAST", fast)
        runs[name] = (fast, BayesTracker(Tracker(g, seat), "rule"))
    moves = 0
    while not g.over and moves < 60:
        g.apply(*layout.decoded[bot.act(obs.observe(g, g.actor), layout.shared_mask(g))])
        moves += 1
        got = {}
        for name, (fast, t) in runs.items():
            monkeypatch.setattr(bayes, "FAST", fast)
            got[name] = t.weights()
        assert np.array_equal(got["plain"], got["fills"]), moves
        assert np.array_equal(got["plain"], got["reads"]), moves
    assert bayes._DEAL_ROWS  # the fast path kept the deal's rows


def test_bayes_restarts_when_a_segment_rules_every_world_out():
    """A segment can rule every world out (city-13's particles under the rule bots, seed 0,
    move 116, seat 3: the night crashed on the empty population; here every world is given
    a deal the deal's own segment rules out): Bayes restarts from deduction's deals."""
    rules = VARIANTS["sport"]
    g = Game(rules, 10, 2)
    seat = next(s for s in range(10) if g.roles[s].label == "civilian")
    sheriff = next(s for s in range(10) if g.roles[s].label == "sheriff")
    t = BayesTracker(Tracker(g, seat), "rule")
    wrong = t.base.space.as_row(g.roles).copy()  # the seat as the sheriff: his night differs
    wrong[[seat, sheriff]] = wrong[[sheriff, seat]]
    t.rows[:] = wrong
    rng = random.Random(2)
    while g.day < 2 and not g.over:
        g.apply(*random_move(g, rng))
        t.update()
    assert t.restarts >= 1
    w = t.weights()
    assert w[(t.base.deals == t.base.space.as_row(g.roles)).all(axis=1)].sum() > 0
