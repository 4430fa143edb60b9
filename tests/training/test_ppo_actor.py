"""The rollout's `Actor`: the agent's masked policy, sampled with the fewest calls."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from baselines.ppo import make_agent, make_config  # noqa: E402
from baselines.ppo.rollout import Actor  # noqa: E402
from mafia_env.vector import VectorMafia  # noqa: E402


@pytest.mark.parametrize("per_team", [False, True])
def test_actor_samples_the_agents_masked_policy(per_team):
    """Legal actions only, the agent's log-probabilities and values, and draws that follow
    the policy's probabilities; a seeded generator replays them."""
    cfg = make_config({"variant": "sport", "hidden_size": 32, "per_team": per_team})
    vec = VectorMafia("sport", 16, seed=3)
    agent = make_agent(cfg, vec.obs_size, vec.action_size)
    with torch.no_grad():
        agent.actor.weight.normal_(0, 0.5)  # a policy far from uniform
        agent.ret_mean.fill_(0.3)
        agent.ret_std.fill_(2.0)
    obs, masks, _ = vec.reset()
    masks = masks.astype(bool)
    actor = Actor(agent)
    a, logp, v = actor(obs, masks, torch.Generator().manual_seed(0))
    assert masks[np.arange(len(a)), a].all()
    x, m = torch.from_numpy(obs), torch.from_numpy(masks)
    _, want_logp, _, want_v = agent.get_action_and_value(x, m, torch.from_numpy(a))
    np.testing.assert_allclose(logp, want_logp.detach().numpy(), atol=1e-5)
    np.testing.assert_allclose(v, agent.denorm(want_v).detach().numpy(), atol=1e-5)
    again = actor(obs, masks, torch.Generator().manual_seed(0))
    np.testing.assert_array_equal(a, again[0])
    sampled = agent.sample(x, m, generator=torch.Generator().manual_seed(0))[0]
    np.testing.assert_array_equal(a, sampled.numpy())  # Agent.sample's draws
    # the draws of one row follow its probabilities
    row = int(np.argmax(masks.sum(axis=1)))
    draws = 4000
    gen = torch.Generator().manual_seed(1)
    xs, ms = np.repeat(obs[row : row + 1], draws, 0), np.repeat(masks[row : row + 1], draws, 0)
    counts = np.bincount(actor(xs, ms, gen)[0], minlength=vec.action_size) / draws
    _, lp, _, _ = agent.get_action_and_value(
        x[row : row + 1].repeat(vec.action_size, 1),
        m[row : row + 1].repeat(vec.action_size, 1),
        torch.arange(vec.action_size),
    )
    probs = np.where(masks[row], lp.detach().exp().numpy(), 0)
    assert np.abs(counts - probs).max() < 0.03


@pytest.mark.filterwarnings("ignore:Sparse CSR tensor support is in beta")
def test_the_batchs_compressed_rows_update_as_the_dense_ones():
    """A rollout hands the update its learner rows compressed as the actor read them: the
    update is the same, bit for bit, as on the dense rows."""
    import copy

    from baselines.ppo.rollout import Opponents, Rollout, ppo_update

    cfg = make_config({"variant": "sport", "hidden_size": 32, "num_minibatches": 2})
    vec = VectorMafia("sport", 16, seed=5)
    agent = make_agent(cfg, vec.obs_size, vec.action_size)
    opp = Opponents(vec.n, vec.num_envs, np.random.default_rng(0))
    opp.add("self", None)
    rollout = Rollout(vec, 16, opp)
    rollout.collect(agent, torch.Generator().manual_seed(0))
    data = rollout.batch(cfg.gamma, cfg.gae_lambda)
    assert "obs_csr" in data and "obs" not in data and len(data["actions"]) == 256
    dense = {k: v for k, v in data.items() if k != "obs_csr"}
    obs = rollout.obs_buf.reshape(-1, vec.obs_size)[rollout.learn_buf.reshape(-1)]
    dense["obs"] = torch.from_numpy(obs)
    crow, col, val = data["obs_csr"]
    csr = torch.from_numpy(obs).to_sparse_csr()
    assert torch.equal(crow, csr.crow_indices()) and torch.equal(col, csr.col_indices())
    assert torch.equal(val, csr.values())
    after = []
    for batch in (data, dense):
        a = copy.deepcopy(agent)
        opt = torch.optim.Adam(a.parameters(), lr=1e-3)
        ppo_update(a, opt, batch, cfg, np.random.default_rng(1))
        after.append(a.state_dict())
    for k, v in after[0].items():
        assert torch.equal(v, after[1][k]), k
