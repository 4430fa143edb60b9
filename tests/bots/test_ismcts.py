"""The search bot (``ismcts``, `baselines.ismcts`): its config, its choice, and a short match
against the rule bots (the long measurement is scripts/measure_ismcts.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import mafia_env
from baselines import load_policy
from baselines.ismcts import RuleRolloutEvaluator, SearchConfig, SearchPolicy, load_config
from baselines.rule import RulePolicy
from mafia_env.errors import ConfigError
from mafia_env.seating.games import InfoSet, observation, play_until
from mafia_env.yaml_config import parse

SMALL = {"worlds": 2, "width": 2}  # the tests' budget: every code path, little time


def test_load_policy_reads_the_variant_config():
    bot = load_policy("ismcts", variant="sport", seed=1)
    assert isinstance(bot, SearchPolicy)
    assert bot.config == load_config("sport")
    assert bot.config.worlds == 8 and bot.config.width == 4
    assert load_policy("ismcts", variant="sport", worlds=3).config.worlds == 3
    assert load_policy("ismcts", variant="city").n == 10  # SPORT's budget, CITY's table
    with pytest.raises(ConfigError):
        load_policy("ismcts", variant="sport", depth=3)
    with pytest.raises(ConfigError, match="width"):
        parse(SearchConfig, {"width": 1})


def test_infoset_observation_is_the_vector_and_samples_the_information_set():
    env = mafia_env.raw_env("sport")
    env.reset(seed=4)
    game = env.unwrapped.game
    seat = game.actor
    info, mask = observation(env, seat, "infoset")
    assert isinstance(info, InfoSet) and info.seat == seat
    np.testing.assert_array_equal(info.vector, observation(env, seat)[0])
    assert mask.sum() > 1
    world = info.sample(random.Random(0))
    assert world is not game and world.roles[seat] == game.roles[seat]
    assert world.actor == seat


def test_the_search_overrules_the_rule_bot_only_by_more_than_the_margin(monkeypatch):
    env = mafia_env.raw_env("sport")
    env.reset(seed=2)
    seat = env.unwrapped.game.actor
    info, mask = observation(env, seat, "infoset")
    legal = np.flatnonzero(mask).tolist()
    own = RulePolicy("sport", 10, 0).act(info.vector, mask)
    better = next(a for a in legal if a != own)

    def rollout(self, world, observer, action, team, luck):
        return 1.0 if action == better else 0.0

    monkeypatch.setattr(SearchPolicy, "_rollout", rollout)
    wide = {"worlds": 2, "width": len(legal)}  # every legal action is a candidate
    assert SearchPolicy("sport", seed=0, **wide).act(info, mask) == better
    assert SearchPolicy("sport", seed=0, margin=1.0, **wide).act(info, mask) == own


def test_the_search_bot_rejects_a_plain_vector():
    bot = SearchPolicy("sport", **SMALL)
    env = mafia_env.raw_env("sport")
    env.reset(seed=0)
    obs, mask = observation(env, env.unwrapped.game.actor)
    with pytest.raises(ConfigError, match="infoset"):
        bot.act(obs, mask)


@pytest.mark.parametrize("side", ["town", "mafia"])
def test_short_match_against_the_rule_bots(side):
    """A seat of each side played by the search bot to the end, with legal moves only."""
    env = mafia_env.raw_env("sport")  # illegal_action: raise, so an illegal move fails here
    rule = RulePolicy("sport", 10, 0)
    bot = SearchPolicy("sport", seed=0, **SMALL)
    results = []
    for seed in range(2):
        env.reset(seed=seed)
        game = env.unwrapped.game
        seat = next(s for s in range(10) if game.teams[s].name.lower() == side)
        players = [bot if s == seat else rule for s in range(10)]
        assert play_until(env, players) is None
        assert game.over and game.winner is not None
        results.append(game.winner)
    assert bot.searched > 0
    assert bot.rollouts <= bot.searched * SMALL["worlds"] * SMALL["width"]
    assert bot.rollouts >= bot.searched * SMALL["worlds"]


def test_openspiel_ismcts_with_rule_rollouts_plays_a_seat_to_the_end():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import ismcts

    import mafia_env.openspiel  # noqa: F401  (registers python_mafia)

    game = pyspiel.load_game("python_mafia", {"variant": "sport"})
    rs = np.random.RandomState(1)
    evaluator = RuleRolloutEvaluator(game, seed=0)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rs)
    rule = RulePolicy("sport", 10, 0)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
            continue
        p = state.current_player()
        legal = state.legal_actions()
        prior = dict(evaluator.prior(state))
        assert sorted(prior) == legal and sum(prior.values()) == pytest.approx(1.0)
        if p == 0:
            searched += len(legal) > 1
            action = bot.step(state)
        else:
            mask = np.zeros(game.num_distinct_actions(), np.int8)
            mask[legal] = 1
            action = rule.act(state.vector(p), mask)
        assert action in legal
        state.apply_action(action)
    assert searched > 0
    assert sorted(set(state.returns())) in ([-1.0, 1.0], [0.0])
    assert list(evaluator.evaluate(state)) == state.returns()
