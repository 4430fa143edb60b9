"""Staggered rollouts (`rollout_groups`): the games in lockstep split in groups, one group's
rollout of `num_steps` steps complete every `num_steps / rollout_groups` lockstep steps."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from baselines.ppo import make_agent, make_config  # noqa: E402
from baselines.ppo.rollout import Opponents, Rollout  # noqa: E402
from baselines.rule import RulePolicy  # noqa: E402
from mafia_env.errors import ConfigError  # noqa: E402
from mafia_env.vector import VectorMafia  # noqa: E402


def dense(batch: dict, width: int) -> np.ndarray:
    crow, col, val = (x.numpy() for x in batch["obs_csr"])
    out = np.zeros((len(crow) - 1, width), dtype=np.float32)
    rows = np.repeat(np.arange(len(crow) - 1), np.diff(crow))
    out[rows, col] = val
    return out


@pytest.mark.parametrize("groups", [1, 2, 4])
def test_each_learner_decision_is_in_one_group_rollout_in_order(groups):
    """Every learner decision of the lockstep lands in exactly one batch: its group's, in the
    rollout that holds its step, with its observation, action and log-probability, step by
    step and game by game; a batch holds one group's games over `T` consecutive steps (the
    first `G - 1` of a run begin part way), and its advantages plus values are its returns."""
    B, T = 8, 8
    cfg = make_config({"variant": "sport", "hidden_size": 32})
    vec = VectorMafia("sport", B, seed=11)
    agent = make_agent(cfg, vec.obs_size, vec.action_size)
    opp = Opponents(vec.n, B, np.random.default_rng(0))
    opp.add("rule", RulePolicy(spec=vec.spec, seed=2))
    rollout = Rollout(vec, T, opp, groups=groups)
    seen = []  # per lockstep step: (obs, learn, actions) as played
    play = opp.act

    def act(obs, masks, learn, actions, seat):
        play(obs, masks, learn, actions, seat)
        seen.append((obs.copy(), learn.copy(), actions.copy()))

    opp.act = act
    gen = torch.Generator().manual_seed(0)
    size, span = B // groups, T // groups
    emitted = set()
    for c in range(3 * groups):
        rollout.collect(agent, gen)
        batch = rollout.batch(cfg.gamma, cfg.gae_lambda)
        g = (-(c + 1)) % groups  # the group whose window the collect completed
        assert rollout.done_group == g
        end = (c + 1) * span  # the window: steps end - T .. end - 1 (from 0 at the start)
        want_obs, want_act = [], []
        for t in range(max(0, end - T), end):
            obs, learn, actions = seen[t]
            for b in range(g * size, (g + 1) * size):
                if learn[b]:
                    want_obs.append(obs[b]), want_act.append(actions[b])
                    assert (t, b) not in emitted
                    emitted.add((t, b))
        assert np.array_equal(dense(batch, vec.obs_size), np.array(want_obs))
        assert batch["actions"].tolist() == [int(a) for a in want_act]
        assert torch.allclose(batch["advantages"] + batch["values"], batch["returns"])
    # every learner decision of a step whose group's rollout has closed is in a batch
    last = {(-(c + 1)) % groups: (c + 1) * span for c in range(3 * groups)}  # its last end
    want = {
        (t, b)
        for t, (_, learn, _) in enumerate(seen)
        for b in np.flatnonzero(learn)
        if t < last[b // size]
    }
    assert emitted == want and len(want) > 3 * groups


class LastLegal:
    """A layer that plays the last legal action wherever the network's sample is even."""

    def __init__(self, inner):
        self.inner = inner

    def act_batch(self, obs, masks):
        net = self.inner.act_batch(obs, masks)
        last = masks.shape[1] - 1 - np.argmax(masks[:, ::-1] != 0, axis=1)
        return np.where(net % 2 == 0, last, net)


def test_a_learner_layer_over_staggered_groups_keeps_the_networks_samples():
    """With a layer over the learner, a group's batch holds the network's own samples (what
    its log-probabilities are of) and marks those the layer left as played (``chosen``), for
    the group's rows, in the batch's order."""
    from baselines.ppo.rollout import LearnerLayer

    B, T, groups = 8, 8, 2
    cfg = make_config({"variant": "sport", "hidden_size": 32})
    vec = VectorMafia("sport", B, seed=4)
    agent = make_agent(cfg, vec.obs_size, vec.action_size)
    opp = Opponents(vec.n, B, np.random.default_rng(0))
    opp.add("rule", RulePolicy(spec=vec.spec, seed=2))
    rollout = Rollout(vec, T, opp, LearnerLayer(LastLegal), groups=groups)
    played = []  # per lockstep step: the actions played
    play = opp.act

    def act(obs, masks, learn, actions, seat):
        play(obs, masks, learn, actions, seat)
        played.append((learn.copy(), actions.copy()))

    opp.act = act
    gen = torch.Generator().manual_seed(1)
    size, span = B // groups, T // groups
    overridden = 0
    for c in range(3 * groups):
        rollout.collect(agent, gen)
        batch = rollout.batch(cfg.gamma, cfg.gae_lambda)
        g, end = rollout.done_group, (c + 1) * span
        want = [
            int(actions[b])
            for learn, actions in played[max(0, end - T) : end]
            for b in range(g * size, (g + 1) * size)
            if learn[b]
        ]
        net, chosen = batch["actions"].numpy(), batch["chosen"].numpy()
        assert len(net) == len(chosen) == len(want)
        assert np.array_equal(chosen, net == np.array(want))
        assert not (net[~chosen] % 2).any()  # the layer overrode only the even samples
        overridden += int((~chosen).sum())
    assert overridden > 0


def test_rollout_groups_must_divide_the_games_and_the_steps():
    with pytest.raises(ConfigError, match=r"rollout_groups must divide num_envs \(64\) and "):
        make_config({"variant": "sport", "rollout_groups": 3}).check()
    cfg = make_config({"variant": "sport", "rollout_groups": 4})
    cfg.check()
    vec = VectorMafia("sport", 6, seed=1)
    opp = Opponents(vec.n, 6, np.random.default_rng(0))
    with pytest.raises(ConfigError, match="rollout groups must divide the games"):
        Rollout(vec, 8, opp, groups=4)


@pytest.mark.parametrize("pipeline", ["sync", "overlap"])
def test_training_with_staggered_groups_runs_an_update_per_group_rollout(tmp_path, pipeline):
    """A run with ``rollout_groups`` updates once per group's rollout: 1,536 steps of 8 games x
    64 steps in 2 groups are six updates of 256 steps, evaluated every second one."""
    from baselines.ppo import train

    cfg = make_config(
        {
            "variant": "sport",
            "total_timesteps": 1536,
            "num_envs": 8,
            "num_steps": 64,
            "rollout_groups": 2,
            "hidden_size": 16,
            "eval_every": 2,
            "eval_games": 4,
            "final_eval_games": 4,
            "opponents": {"self": 0.5, "rule": 0.5},
            "run_dir": str(tmp_path),
            "pipeline": pipeline,
        }
    )
    out = train(cfg, log=lambda s: None)
    assert out["global_step"] == 1536
    assert [p["update"] for p in out["curve"]] == [0, 2, 4, 6]
    assert torch.load(out["checkpoint"], weights_only=False)["update"] == 6
