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
