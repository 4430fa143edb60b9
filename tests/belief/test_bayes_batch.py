"""Bayes under a model policy asks the model once per batch of deals: the weights equal the
model asked deal by deal (a public move); and the night's shortcuts (the light copy of a
trial move, the moves known apart without a trial, the checks) change no weight."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mafia_env.actions import ActionLayout
from mafia_env.belief import bayes
from mafia_env.belief.bayes import FAINT, BayesTracker
from mafia_env.belief.track import Tracker
from mafia_env.engine.game import Game
from mafia_env.observe import VectorObserver
from mafia_env.seating.policies import load_policy
from mafia_env.variants import VARIANTS


def _rule_table(variant: str, seed: int):
    """A game of `variant` at its default size, and a function that plays its next move as
    the rule bots play it."""
    rules = VARIANTS[variant]
    n = rules.default_players
    layout = ActionLayout(rules, n)
    bot = load_policy("rule", variant=variant, num_players=n, seed=seed)
    g = Game(rules, n, seed)
    obs = VectorObserver(rules, n)
    obs.reset(g)

    def play() -> None:
        g.apply(*layout.decoded[bot.act(obs.observe(g, g.actor), layout.shared_mask(g))])

    return g, play


def _play_with_spy(variant: str, model: str, seed: int, moves: int, monkeypatch) -> int:
    """Play `moves` moves of the rule bots; at every public move of another seat, check each
    world's new weight against the model asked for that world's mover alone. Return the
    worlds checked."""
    g, play = _rule_table(variant, seed)
    seat = next(s for s in range(g.n) if g.roles[s].label == "civilian")
    t = BayesTracker(Tracker(g, seat), model)
    checked = [0]
    public = BayesTracker._public

    def spy(self, step, pos, options):
        last = self._last_step
        before = self.logw.copy()
        stale = self.stale.copy()
        mixed = [step[1] in m for m in self.mix]
        public(self, step, pos, options)
        if step[0] != "act" or options is None or step[1] == self.seat or self.uniform:
            return
        if last is not None and last[0] == "foul" and last[1] == step[1]:
            return
        mover = step[1]
        mask = self.layout.options_mask(list(options))
        a = self.layout.encode(step[2], step[3], step[4])
        pub = self._public_vector()
        live = np.isfinite(before)
        top = before[live].max()
        alone: dict[int, float] = {}  # the model asked for one row at a time
        for w in np.flatnonzero(live).tolist():
            if before[w] < top - FAINT or stale[w] or mixed[w]:
                continue  # (the floor, or the mixture of the mover's rows: not one ask)
            row = int(self.priv[w, mover])
            if row not in alone:
                x = self.mover_rows(pub, mover, np.array([row]), self.obs.turn)
                alone[row] = math.log(float(self._probs(x, mask[None])[0, a]))
            assert self.logw[w] - before[w] == pytest.approx(alone[row], rel=1e-6, abs=1e-9)
            checked[0] += 1

    monkeypatch.setattr(BayesTracker, "_public", spy)
    for _ in range(moves):
        if g.over:
            break
        play()
        t.update()
    return checked[0]


@pytest.mark.parametrize(
    # online's moves under the fast path are also held to the plain path's weights by
    # test_belief_speed; its own batched-ask case is the long run's
    ("variant", "seed"),
    [("sport", 4), pytest.param("online", 2, marks=pytest.mark.long)],
)
@pytest.mark.slow
def test_a_public_move_weighs_each_deal_as_the_model_asked_for_it_alone(variant, seed, monkeypatch):
    """One batched ask over the distinct private rows of the mover gives every world the
    log-probability the model gives its own mover's observation, asked alone."""
    assert _play_with_spy(variant, "rule", seed, 80, monkeypatch) > 1000


@pytest.mark.parametrize(
    ("variant", "seed"), [pytest.param("forum", 3, marks=pytest.mark.slow), ("city", 1)]
)
@pytest.mark.slow
def test_the_night_copy_gives_the_weights_of_the_full_copy(variant, seed, monkeypatch):
    """The night's shortcuts (the light copy of a trial move, `_alone`; the moves known
    apart, `_APART`; the checks, `_checks`) and the plain path (every move tried on a full
    copy) give the same weights, bit for bit (the executor, the hunt, the putana's block)."""
    rules = VARIANTS[variant]
    g, play = _rule_table(variant, seed)
    seat = next(s for s in range(g.n) if g.roles[s].label == "civilian")
    calls = {"light": 0, "apart": 0, "checks": 0}
    light, apart, checks = bayes._night_copy, bayes._apart, bayes._checks

    def copied(g, rng):
        calls["light"] += 1
        return light(g, rng)

    def parted(cands, decoded):
        got = apart(cands, decoded)
        calls["apart"] += got
        return got

    def checked(*args):
        got = checks(*args)
        calls["checks"] += bool(got)
        return got

    monkeypatch.setattr(bayes, "_night_copy", copied)
    monkeypatch.setattr(bayes, "_checks", checked)
    monkeypatch.setattr(bayes, "_apart", parted)
    runs = {}
    for name in ("light", "full"):
        runs[name] = BayesTracker(Tracker(g, seat), "rule", seed=seed)
    while not g.over and g.day < 3:
        play()
        got = {}
        for name, t in runs.items():
            monkeypatch.setattr(bayes, "FAST", name == "light")
            got[name] = t.weights()
        assert np.array_equal(got["light"], got["full"])
    assert calls["light"] + calls["apart"] > 0
    assert calls["checks"] > 0 or not rules.sheriff_check
