"""Ray RLlib: the PettingZoo wrapper adapter, team mapping, env check, training and loading.

Needs the 'rllib' extra (ray[rllib] 2.60); skipped without it. The slow tests start a local
Ray instance with 2 CPUs and train for one or two tiny iterations.
"""

from __future__ import annotations

import numpy as np
import pytest
import yaml

ray = pytest.importorskip("ray", reason="Ray RLlib is not installed (extra: rllib)")
torch = pytest.importorskip("torch", reason="torch is not installed")

from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

import mafia_env  # noqa: E402
from baselines.rllib.env import (  # noqa: E402
    MafiaRLlibEnv,
    masked_obs_space,
    team_of_agent_id,
    to_rllib_obs,
)
from baselines.rllib.matchup import team_match  # noqa: E402
from baselines.rllib.restore import RLlibPolicy  # noqa: E402
from baselines.rllib.rllib_config import parse_config  # noqa: E402
from baselines.rllib.rllib_train import build_ppo_config, main, module_ids, save  # noqa: E402
from baselines.shipped import load_policy  # noqa: E402
from mafia_env.engine.roles import role_from_name  # noqa: E402
from mafia_env.errors import ConfigError  # noqa: E402

# one Ray cluster at a time on the machine: xdist runs these on one worker, in turn
pytestmark = pytest.mark.xdist_group("ray")

TEAM_REWARD = {"town": 0, "mafia": 1}


def team_name(role: str) -> str:
    return role_from_name(role).team.name.lower()


def play_random(env: MafiaRLlibEnv, seed: int):
    """Play one game with uniform legal actions; return the last step's dicts and the steps."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    steps = 0
    while True:
        assert len(obs) == 1  # turn-based: only the acting agent observes mid-game
        ((aid, o),) = obs.items()
        action = int(rng.choice(np.flatnonzero(o["action_mask"])))
        obs, rew, term, trunc, _ = env.step({aid: action})
        steps += 1
        if term["__all__"] or trunc["__all__"]:
            return obs, rew, term, trunc, steps


def test_adapter_renames_the_observation_and_casts_the_mask_to_float():
    env = mafia_env.raw_env("sport")
    env.reset(seed=3)
    raw = env.observe(env.agent_selection)
    out = to_rllib_obs(raw)
    assert set(out) == {"observations", "action_mask"}
    assert out["observations"] is raw["observation"]
    assert out["action_mask"].dtype == np.float32
    np.testing.assert_array_equal(out["action_mask"], raw["action_mask"])
    space = masked_obs_space(env.observation_space("player_1"))
    assert space["observations"].shape == raw["observation"].shape
    assert space["action_mask"].dtype == np.float32
    assert space.contains(out)


def test_shared_ids_are_the_seats_and_every_agent_gets_its_team_reward():
    env = MafiaRLlibEnv({"variant": "sport", "num_players": 10})
    assert env.possible_agents == [f"player_{i}" for i in range(1, 11)]
    for seed in range(3):
        obs, rew, term, trunc, _ = play_random(env, seed)
        roles, winner = env.env.roles, env.env.winner
        assert set(rew) == set(env.possible_agents)  # the end reaches every seat
        assert term["__all__"] != trunc["__all__"]
        for agent, r in rew.items():
            expected = (
                0.0 if winner == "draw" else (1.0 if team_name(roles[agent]) == winner else -1.0)
            )
            assert r == expected
        assert all(o["action_mask"].sum() == 0 for o in obs.values())


def test_per_team_ids_carry_this_games_team_and_change_with_the_deal():
    """Roles are dealt anew each game, so a seat's tagged id follows its team that game."""
    env = MafiaRLlibEnv({"variant": "sport", "num_players": 10, "tag_team": True})
    assert len(env.possible_agents) == 20  # town_ and mafia_ for every seat
    assert set(env.observation_spaces) == set(env.possible_agents)
    seen = set()
    for seed in range(6):
        _, rew, _, _, _ = play_random(env, seed)
        roles, winner = env.env.roles, env.env.winner
        expected_ids = {f"{team_name(r)}_{a}" for a, r in roles.items()}
        assert set(rew) == expected_ids
        for aid, r in rew.items():
            assert team_of_agent_id(aid) == team_name(roles[aid.partition("_")[2]])
            assert r == (0.0 if winner == "draw" else (1.0 if aid.startswith(winner) else -1.0))
        seen |= expected_ids
    assert len(seen) > 10  # the same seat appeared under both teams across deals


def test_team_of_untagged_id_is_a_clear_error():
    assert team_of_agent_id("mafia_player_7") == "mafia"
    with pytest.raises(ConfigError, match="tag_team=True"):
        team_of_agent_id("player_7")


def test_unknown_env_config_key_is_an_error():
    with pytest.raises(ConfigError, match=r"unknown env_config key\(s\) \['seats'\]"):
        MafiaRLlibEnv({"seats": 10})


def test_rllib_env_check_passes_with_illegal_action_foul():
    """RLlib's check steps one unmasked random action: `foul` keeps the game going."""
    env = MafiaRLlibEnv({"knobs": {"illegal_action": "foul"}})
    obs, _ = env.reset(seed=42)  # the check resets with seed 42
    ((aid, o),) = obs.items()
    space = env.get_action_space(aid)
    illegal_seeds = []
    for s in range(20):
        space.seed(s)
        if o["action_mask"][space.sample()] == 0:
            illegal_seeds.append(s)
        space.seed(s)
        check_multiagent_environments(env)
    assert illegal_seeds  # the check did step illegal actions, and passed
    default = MafiaRLlibEnv({})  # COMMON-7: the default ends the game, and passes too
    default.get_action_space(aid).seed(illegal_seeds[0])
    check_multiagent_environments(default)
    strict = MafiaRLlibEnv({"knobs": {"illegal_action": "raise"}})
    strict.get_action_space(aid).seed(illegal_seeds[0])
    with pytest.raises(ValueError, match="step"):
        check_multiagent_environments(strict)


class FixedModule:
    """Stands in for an RLModule: the same logits for every row."""

    def __init__(self, logits: np.ndarray):
        self.logits = torch.from_numpy(logits)

    def forward_inference(self, batch):
        rows = batch[Columns.OBS]["observations"].shape[0]
        return {Columns.ACTION_DIST_INPUTS: self.logits.expand(rows, -1).clone()}


def test_per_team_policy_routes_each_observation_to_its_roles_team_module():
    env = mafia_env.raw_env(
        "sport", 10, roles=["sheriff", "don", *["civilian"] * 6, "mafia", "mafia"]
    )
    env.reset(seed=0)
    a = env.layout.size
    town, mafia = np.zeros(a, np.float32), np.zeros(a, np.float32)
    town[env.action_id("pass")], mafia[env.action_id("accuse", 1)] = 9.0, 9.0
    roles = env.rules.roles_in_play()
    policy = RLlibPolicy(
        {"town": FixedModule(town), "mafia": FixedModule(mafia)},
        [r.team.name.lower() for r in roles],
        env.obs_layout.index("role"),
        greedy=True,
    )
    obs = np.stack([env.observe(f"player_{s}")["observation"] for s in (1, 2, 3, 9)])
    masks = np.ones((4, a), np.int8)
    # seats 1, 2, 3, 9: sheriff (town), don (mafia), civilian (town), mafia
    expected = [env.action_id(*a) for a in (("pass",), ("accuse", 1), ("pass",), ("accuse", 1))]
    assert policy.act_batch(obs, masks).tolist() == expected
    masks[:, env.action_id("pass")] = 0  # masked out: the next best legal action instead
    assert policy.act(obs[0], masks[0]) != env.action_id("pass")


# ------------------------------------------------------------------ training (slow)

TINY = {
    "variant": "sport",
    "num_players": 10,
    "iterations": 1,
    "num_env_runners": 0,
    "num_envs_per_env_runner": 2,
    "train_batch_size": 300,
    "minibatch_size": 100,
    "num_epochs": 1,
    "hidden": [32],
    "checkpoint_every": 0,
}


@pytest.fixture(scope="module")
def local_ray():
    # address="local": a new instance of its own, never a cluster another test left behind
    ray.init(address="local", num_cpus=2, include_dashboard=False, ignore_reinit_error=True)
    yield
    ray.shutdown()


def opponent_bot():
    """The rule bots when they exist, else random ones."""
    try:
        return load_policy("rule", variant="sport", num_players=10, seed=1)
    except ConfigError:
        return load_policy("random", variant="sport", num_players=10, seed=1)


@pytest.mark.slow
def test_train_per_team_from_yaml_then_load_and_play_against_bots(local_ray, tmp_path, capsys):
    """The entry point trains with a remote env runner, saves, loads as a Policy, evaluates."""
    ckpt_dir = tmp_path / "ckpt"
    config = tmp_path / "tiny.yaml"
    data = {**TINY, "policies": "per_team", "checkpoint_dir": str(ckpt_dir), "eval_games": 2}
    data["num_env_runners"] = 1  # sampling on a Ray actor
    config.write_text(yaml.safe_dump(data))
    main(["--config", str(config)])
    out = capsys.readouterr().out
    assert "iter 1  steps " in out
    assert f"checkpoint: {ckpt_dir / 'final'}" in out
    assert "trained town vs random: " in out and "trained mafia vs random: " in out
    policy = load_policy(ckpt_dir / "final", variant="sport", num_players=10, seed=5)
    assert isinstance(policy, RLlibPolicy) and set(policy.modules) == {"town", "mafia"}
    cfg = parse_config({"variant": "sport", "num_players": 10})
    bot = opponent_bot()
    for team in ("town", "mafia"):
        # the env raises on an illegal action, so finishing proves every action was legal
        result = team_match(policy, bot, team, 3, cfg, seed=100)
        assert sum(result.winners.values()) == 3 and result.moves > 0
        assert set(result.winners) <= {"town", "mafia", "draw"}
    with pytest.raises(ConfigError, match="trained on variant 'sport', not 'minimal'"):
        load_policy(ckpt_dir / "final", variant="minimal")
    with pytest.raises(ConfigError, match="trained for 10 players, not 8"):
        load_policy(ckpt_dir / "final", variant="sport", num_players=8)


@pytest.mark.slow
def test_shared_module_learns_and_the_loaded_policy_matches_it(local_ray, tmp_path):
    cfg = parse_config({**TINY, "iterations": 2, "checkpoint_dir": str(tmp_path)})
    algo = build_ppo_config(cfg).build_algo()
    try:
        assert module_ids(cfg) == ["shared"]
        module = algo.get_module("shared")
        before = [p.detach().clone() for p in module.parameters()]
        for _ in range(cfg.iterations):
            result = algo.train()
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 2 * 300
        after = list(module.parameters())
        assert any(not torch.equal(b, a) for b, a in zip(before, after, strict=True))
        path = save(algo, cfg, tmp_path / "final")
        env = mafia_env.raw_env("sport", 10)
        env.reset(seed=9)
        obs, masks = [], []
        for _ in range(40):
            o = env.observe(env.agent_selection)
            obs.append(o["observation"])
            masks.append(o["action_mask"])
            env.step(int(np.flatnonzero(o["action_mask"])[0]))
        obs, masks = np.stack(obs), np.stack(masks)
        batch = {
            Columns.OBS: {
                "observations": torch.from_numpy(obs),
                "action_mask": torch.from_numpy(masks.astype(np.float32)),
            }
        }
        with torch.no_grad():
            want = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].numpy()
    finally:
        algo.stop()
    policy = load_policy(path, variant="sport", seed=0)
    np.testing.assert_allclose(policy.logits(obs, masks), want, rtol=1e-5, atol=1e-5)
    acts = policy.act_batch(obs, masks)
    assert all(masks[i, a] == 1 for i, a in enumerate(acts))
