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
            {"learner_layer": "belief_talk", "learner_layer_options": {"defer": "always"}},
            "defer 'always' is not one of: team, liars, claims, talk, silent, unvouched",
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


# ------------------------------------------------------- the layer recorded in the saved agent

LAYER = {"fallback": "vouch", "mafia": False}


@pytest.fixture(scope="module")
def layered_run(tmp_path_factory):
    """A tiny run trained under BeliefTalk (one update), and the policies its evaluations
    played."""
    import baselines.ppo.ppo_train as ppo_train

    played = []
    real = ppo_train.evaluate

    def evaluate(policy, *args, **kw):
        played.append(policy)
        return real(policy, *args, **kw)

    cfg = make_config(
        {
            "variant": "sport",
            "total_timesteps": 256,
            "num_envs": 8,
            "num_steps": 32,
            "hidden_size": 16,
            "eval_every": 1,
            "eval_games": 4,
            "final_eval_games": 4,
            "opponents": {"self": 1.0},
            "run_dir": str(tmp_path_factory.mktemp("layer")),
            "learner_layer": "belief_talk",
            "learner_layer_options": LAYER,
        }
    )
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ppo_train, "evaluate", evaluate)
        result = ppo_train.train(cfg, log=lambda s: None)
    return result, played


def _moves(policy, steps: int = 40, seed: int = 3) -> list[np.ndarray]:
    """The moves `policy` plays on every seat of 8 sport games, step by step."""
    vec = vector_env("sport", 8, None, seed=seed)
    obs, masks, _ = vec.reset()
    out = []
    for _ in range(steps):
        a = np.asarray(policy.act_batch(obs, masks), dtype=np.int64)
        out.append(a)
        obs, masks, _, _, _ = vec.step(a)
    return out


def test_a_run_records_its_layer_and_loads_under_it(layered_run):
    """agent.pt and checkpoint.pt record the layer; loaded as a policy, the agent plays the
    moves of its network wrapped by hand in BeliefTalk with the run's options, seeded alike,
    and not those of the bare network."""
    from baselines import load_policy
    from baselines.filler_talk import BeliefTalk
    from baselines.ppo.checkpoint import PPOPolicy, read_checkpoint
    from mafia_env.engine.spec import GameSpec

    result, _ = layered_run
    record = {"name": "belief_talk", "options": LAYER}
    assert read_checkpoint(result["agent"], "sport", 10)["layer"] == record
    assert read_checkpoint(result["checkpoint"], "sport", 10)["layer"] == record
    loaded = load_policy(result["agent"], variant="sport", seed=4)
    assert isinstance(loaded, BeliefTalk) and isinstance(loaded.inner, PPOPolicy)
    assert (loaded.fallback, loaded.mafia, loaded.speech) == ("vouch", False, True)
    spec = GameSpec.make("sport")
    by_hand = BeliefTalk(spec, load_policy(result["agent"], spec, seed=4, bare=True), 4, **LAYER)
    bare = load_policy(result["agent"], variant="sport", seed=4, bare=True)
    assert isinstance(bare, PPOPolicy)
    mine, theirs, alone = _moves(loaded), _moves(by_hand), _moves(bare)
    for a, b in zip(mine, theirs, strict=True):
        np.testing.assert_array_equal(a, b)
    assert any((a != b).any() for a, b in zip(mine, alone, strict=True))  # the layer spoke


def test_the_trainers_evaluations_play_under_the_layer(layered_run):
    from baselines.filler_talk import BeliefTalk

    result, played = layered_run
    assert [p["update"] for p in result["curve"]] == [0, 1]
    assert len(played) == 3  # update 0, update 1, the final evaluation
    assert all(isinstance(p, BeliefTalk) for p in played)
    assert all((p.fallback, p.mafia) == ("vouch", False) for p in played)


def test_without_the_record_the_agent_loads_bare(layered_run, tmp_path):
    """A file with no record (stamped ``none``, or a run without a layer) loads as the bare
    network; stamping it again with the layer its run trained with wraps it again."""
    from baselines import load_policy
    from baselines.filler_talk import BeliefTalk
    from baselines.ppo.checkpoint import PPOPolicy, read_checkpoint
    from baselines.ppo.stamp import stamp_layer

    result, _ = layered_run
    plain = tmp_path / "plain.pt"
    assert stamp_layer(result["agent"], "none", {}, out=plain) is None
    assert "layer" not in read_checkpoint(plain, "sport", 10)
    assert isinstance(load_policy(plain, variant="sport", seed=1), PPOPolicy)
    again = tmp_path / "again.pt"
    assert stamp_layer(plain, out=again) == {"name": "belief_talk", "options": LAYER}
    assert isinstance(load_policy(again, variant="sport", seed=1), BeliefTalk)
    # a run with no layer records none
    cfg = make_config({"variant": "sport", "hidden_size": 16})
    from baselines.ppo.layer import config_record

    assert config_record(cfg) == {}


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"name": "talk", "options": {}}, "names the layer 'talk'; the layers are: none, belief"),
        (
            {"name": "belief_talk", "options": {"loud": True}},
            r"\['loud'\] are not options of belief_talk; allowed: speech, .*fallback",
        ),
        (
            {"name": "belief_talk", "options": {"fallback": "shout"}},
            "fallback 'shout' is not one of: accuse, vouch",
        ),
        ({"name": "none", "options": {"vote": True}}, "but learner_layer is none"),
        ("belief_talk", r"is 'belief_talk'; a record is \{'name': NAME, 'options'"),
        ({"name": "belief_talk", "options": [1]}, r"options \[1\] are not a mapping"),
    ],
)
def test_a_bad_layer_record_is_a_clear_error(layered_run, tmp_path, record, message):
    from baselines import load_policy

    result, _ = layered_run
    ckpt = torch.load(result["agent"], weights_only=True)
    ckpt["layer"] = record
    path = tmp_path / "bad.pt"
    torch.save(ckpt, path)
    with pytest.raises(ConfigError, match=rf"checkpoint {path}: its layer record.*{message}"):
        load_policy(path, variant="sport")


def test_stamping_refuses_what_it_cannot_record(layered_run, tmp_path):
    from baselines.ppo.stamp import main, stamp_layer

    result, _ = layered_run
    out = tmp_path / "x.pt"
    with pytest.raises(ConfigError, match="fallback 'shout' is not one of: accuse, vouch"):
        stamp_layer(result["agent"], "belief_talk", {"fallback": "shout"}, out=out)
    assert not out.exists()
    assert (
        main([result["agent"], "--layer", "belief_talk", "--option", "vote=0", "--out", str(out)])
        == 0
    )
    from baselines.ppo.checkpoint import read_checkpoint

    assert read_checkpoint(out)["layer"] == {"name": "belief_talk", "options": {"vote": False}}
    assert main([str(out), "--option", "vote=0"]) == 2  # an option without its layer
