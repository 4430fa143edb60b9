"""A fixed layer over the learner in training (`Config.learner_layer`): the config's checks,
the rows it overrides, and the policy loss that leaves them out."""

from __future__ import annotations

import copy

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from baselines.ppo import make_agent, make_config  # noqa: E402
from baselines.ppo.rollout import Opponents, Rollout, learner_layer, ppo_update  # noqa: E402
from mafia_env.errors import ConfigError  # noqa: E402
from mafia_env.seat_obs import vector_env  # noqa: E402


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"learner_layer": "talk"}, "learner_layer must be one of none, belief_talk; got 'talk'"),
        (
            {"learner_layer": "belief_talk", "learner_layer_options": {"loud": True}},
            r"\['loud'\] are not options of belief_talk; allowed: speech, nominate, .*fallback",
        ),
        (
            {"learner_layer": "belief_talk", "learner_layer_options": {"fallback": "shout"}},
            "fallback 'shout' is not one of: accuse, vouch",
        ),
        (
            {"learner_layer": "belief_talk", "learner_layer_options": {"vote": "no"}},
            r"\['vote'\] must be true or false",
        ),
        ({"learner_layer_options": {"fallback": "vouch"}}, "but learner_layer is none"),
        ({"learner_layer": "belief_talk", "pipeline": "overlap"}, "pipeline: sync only"),
    ],
)
def test_learner_layer_bad_values_are_errors(data, message):
    with pytest.raises(ConfigError, match=message):
        make_config(data)


def _layered_rollout(seed: int = 5):
    cfg = make_config(
        {
            "variant": "sport",
            "hidden_size": 32,
            "learner_layer": "belief_talk",
            "learner_layer_options": {"fallback": "vouch"},
        }
    )
    vec = vector_env("sport", 8, None, seed=seed, **cfg.vec_knobs())
    agent = make_agent(cfg, vec.obs_size, vec.action_size)
    opp = Opponents(vec.n, vec.num_envs, np.random.default_rng(seed))
    opp.add("self", None)  # the learner (under its layer) on every seat
    rollout = Rollout(vec, 48, opp, learner_layer(cfg))
    rollout.collect(agent, torch.Generator().manual_seed(seed))
    return cfg, agent, rollout


def test_the_layer_marks_exactly_the_rows_it_overrode():
    """The learner's rows play the layer's moves; ``chosen`` marks the rows where that is the
    network's own sample, and the batch carries the network's samples (what its
    log-probabilities are of) with the mask."""
    _, _, r = _layered_rollout()
    learn = r.learn_buf
    assert learn.all()  # self-play: every row is the learner's
    np.testing.assert_array_equal(r.chosen_buf, r.act_buf == r.net_buf)
    overridden = int((~r.chosen_buf).sum())
    assert 0 < overridden < learn.sum() // 2  # the layer speaks in a few of the day's turns
    data = r.batch(0.99, 0.95)
    np.testing.assert_array_equal(data["chosen"].numpy(), r.chosen_buf.reshape(-1))
    np.testing.assert_array_equal(data["actions"].numpy(), r.net_buf.reshape(-1))
    # every move played was legal
    T, B = learn.shape
    assert r.mask_buf[np.arange(T)[:, None], np.arange(B)[None], r.act_buf].all()


def test_rows_the_network_did_not_choose_teach_its_policy_nothing():
    """With every row overridden the policy head does not move (no policy loss, no entropy
    bonus); the critic still learns from the values."""
    cfg, agent, r = _layered_rollout()
    data = r.batch(0.99, 0.95)
    data["chosen"] = torch.zeros_like(data["chosen"])
    before = copy.deepcopy(agent.state_dict())
    optimizer = torch.optim.Adam(agent.parameters(), lr=1e-3, eps=1e-5)
    losses = ppo_update(agent, optimizer, data, cfg, np.random.default_rng(0))
    after = agent.state_dict()
    assert losses["policy_loss"] == 0.0 and losses["entropy"] == 0.0
    assert torch.equal(before["actor.weight"], after["actor.weight"])
    assert torch.equal(before["actor.bias"], after["actor.bias"])
    assert not torch.equal(before["critic.weight"], after["critic.weight"])
    # with the network's rows counted, its policy moves
    data["chosen"] = torch.ones_like(data["chosen"])
    ppo_update(agent, optimizer, data, cfg, np.random.default_rng(0))
    assert not torch.equal(before["actor.weight"], agent.state_dict()["actor.weight"])


def test_no_layer_leaves_the_batch_as_it_was():
    cfg = make_config({"variant": "sport", "hidden_size": 32})
    assert learner_layer(cfg) is None
    vec = vector_env("sport", 4, None, seed=1)
    agent = make_agent(cfg, vec.obs_size, vec.action_size)
    opp = Opponents(vec.n, vec.num_envs, np.random.default_rng(1))
    opp.add("self", None)
    r = Rollout(vec, 8, opp)
    r.collect(agent, torch.Generator().manual_seed(1))
    assert "chosen" not in r.batch(0.99, 0.95)


def test_the_learners_frozen_copies_play_under_its_layer():
    """League snapshots and the exploiters' target play under the layer; exploiters do not."""
    from baselines.filler_talk import BeliefTalk
    from baselines.ppo.checkpoint import PPOPolicy
    from baselines.ppo.league import League

    cfg = make_config(
        {
            "variant": "sport",
            "hidden_size": 16,
            "learner_layer": "belief_talk",
            "league": {"fixed": ["random"], "self_play": 0.5},
        }
    )
    vec = vector_env("sport", 2, None, seed=1)
    agent = make_agent(cfg, vec.obs_size, vec.action_size)
    league = League(cfg, vec.n, 2, np.random.default_rng(0), agent)
    copy_of_learner = league.frozen(agent.state_dict(), 3)
    assert isinstance(copy_of_learner, BeliefTalk)
    assert isinstance(copy_of_learner.inner, PPOPolicy)
    assert isinstance(league.frozen(agent.state_dict(), 3, learner=False), PPOPolicy)
