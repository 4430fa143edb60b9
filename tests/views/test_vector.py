"""The batched engine API agrees move by move with the AEC env."""

from __future__ import annotations

import numpy as np
import pytest

import mafia_env
from mafia_env.engine.events import OUTCOME_NAMES
from mafia_env.errors import ConfigError, IllegalActionError
from mafia_env.vector import VectorMafia


@pytest.mark.parametrize(
    ("variant", "num_players"),
    [
        ("sport", None),
        ("sport", 7),
        ("minimal", None),
        ("minimal", 5),
        ("city", None),
        ("club", None),
        ("online", None),
        ("forum", None),
    ],
)
def test_vector_agrees_with_aec(variant, num_players):
    """Same seeds and actions: same observations, masks, rewards and winners as the AEC env."""
    B, seed, steps = 4, 123, 1500
    vec = VectorMafia(variant, B, num_players=num_players, seed=seed)
    envs = [mafia_env.raw_env(variant, num_players) for _ in range(B)]
    for i, env in enumerate(envs):
        env.reset(seed=seed + i)
    obs, masks, info = vec.reset()
    rng = np.random.default_rng(0)
    games = 0
    for _ in range(steps):
        for b, env in enumerate(envs):
            agent = env.agent_selection
            assert agent == f"player_{info['seat'][b] + 1}"
            o = env.observe(agent)
            np.testing.assert_array_equal(o["observation"], obs[b])
            np.testing.assert_array_equal(o["action_mask"], masks[b])
            for other in ("player_1", f"player_{vec.n}"):  # any seat's view agrees too
                np.testing.assert_array_equal(
                    env.observe(other)["observation"], vec.observe(b, int(other[7:]) - 1)
                )
        keys = rng.random(masks.shape) + masks
        actions = keys.argmax(axis=1)
        for b, env in enumerate(envs):
            env.step(int(actions[b]))
        obs, masks, rewards, dones, info = vec.step(actions)
        for b, env in enumerate(envs):
            if env.unwrapped.game.over:
                assert dones[b]
                games += 1
                assert OUTCOME_NAMES[info["winner"][b]] == env.winner
                assert bool(info["truncated"][b]) == env.unwrapped.game.truncated
                expected = [env.rewards[a] for a in env.possible_agents]
                np.testing.assert_array_equal(rewards[b], expected)
                np.testing.assert_array_equal(info["done_teams"][b], env.unwrapped.game.teams)
                assert set(expected) <= {-1.0, 0.0, 1.0}
                env.reset()
            else:
                assert not dones[b]
                assert not rewards[b].any()
    assert games >= 4


def test_vector_finished_game_rewards_every_seat():
    """COMMON-4: every seat of a finished game, eliminated or not, gets its team's reward."""
    vec = VectorMafia("minimal", 16, seed=5)
    _, masks, info = vec.reset()
    rng = np.random.default_rng(1)
    seen = 0
    while seen < 20:
        actions = (rng.random(masks.shape) + masks).argmax(axis=1)
        _, masks, rewards, dones, info = vec.step(actions)
        for b in np.flatnonzero(dones):
            seen += 1
            teams = info["done_teams"][b]
            win = {"town": 0, "mafia": 1}.get(OUTCOME_NAMES[info["winner"][b]])
            if win is None:
                assert not rewards[b].any()
            else:
                np.testing.assert_array_equal(rewards[b], np.where(teams == win, 1.0, -1.0))


def test_vector_rejects_illegal_action_and_bad_input():
    vec = VectorMafia("sport", 2, seed=0)
    _, masks, _ = vec.reset()
    bad = np.array([int(np.flatnonzero(masks[0] == 0)[0]), int(np.flatnonzero(masks[1])[0])])
    with pytest.raises(IllegalActionError, match=r"game 0: seat .* cannot take action"):
        vec.step(bad)
    with pytest.raises(IllegalActionError, match="shape"):
        vec.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ConfigError, match="num_envs"):
        VectorMafia("sport", 0)
    with pytest.raises(ConfigError, match="illegal_action"):
        VectorMafia("sport", 2, illegal_action="foul")
