"""Train mafia_env agents with RLlib's PPO (new API stack), on one machine or a Ray cluster.

    mafia rllib --config configs/rllib/sport.yaml      (python -m baselines.rllib.rllib_train ...)

Every iteration prints the mean return of each module; checkpoints are RLlib algorithm
checkpoints plus `mafia_rllib.json` (the run config), which `baselines.load_policy(path)`
turns into a `Policy`.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from ray.rllib.algorithms.algorithm import Algorithm
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

import mafia_env
from baselines.resources import config_path
from baselines.rllib.env import MafiaRLlibEnv, register, team_of_agent_id
from baselines.rllib.restore import SIDECAR, SIDECAR_VERSION
from baselines.rllib.rllib_config import RLlibConfig, load_config
from mafia_env.commands import parse, parser, run
from mafia_env.engine.roles import TEAM_NAMES

SHARED = "shared"


def map_shared(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """Map every agent to the one shared module."""
    return SHARED


def map_team(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """Map a team-tagged agent (``mafia_player_7``) to its team's module."""
    return team_of_agent_id(agent_id)


def variant_teams(cfg: RLlibConfig) -> list[str]:
    """Return the names of the teams the run's variant deals, in Team order."""
    rules = mafia_env.raw_env(cfg.variant, cfg.num_players, **cfg.knobs).rules
    return [TEAM_NAMES[t] for t in sorted({r.team for r in rules.roles_in_play()})]


def module_ids(cfg: RLlibConfig) -> list[str]:
    """Return the RL module ids of a run: ``["shared"]`` or the variant's team names."""
    return [SHARED] if cfg.policies == "shared" else variant_teams(cfg)


def build_ppo_config(cfg: RLlibConfig) -> PPOConfig:
    """Return RLlib's PPO config for a run: env, scale, modules, mapping and PPO settings."""
    env_name = register()
    probe = MafiaRLlibEnv(cfg.env_config())
    agent = probe.possible_agents[0]
    obs_space, act_space = probe.observation_spaces[agent], probe.action_spaces[agent]
    mids = module_ids(cfg)
    spec = MultiRLModuleSpec(
        rl_module_specs={
            mid: RLModuleSpec(
                module_class=ActionMaskingTorchRLModule,
                observation_space=obs_space,
                action_space=act_space,
                model_config={"fcnet_hiddens": list(cfg.hidden)},
            )
            for mid in mids
        }
    )
    return (
        PPOConfig()
        .environment(env_name, env_config=cfg.env_config(), disable_env_checking=not cfg.env_check)
        .env_runners(
            num_env_runners=cfg.num_env_runners,
            num_envs_per_env_runner=cfg.num_envs_per_env_runner,
            num_cpus_per_env_runner=cfg.num_cpus_per_env_runner,
        )
        .learners(num_learners=cfg.num_learners, num_gpus_per_learner=cfg.num_gpus_per_learner)
        .training(
            lr=cfg.lr,
            gamma=cfg.gamma,
            lambda_=cfg.gae_lambda,
            clip_param=cfg.clip_param,
            entropy_coeff=cfg.entropy_coeff,
            train_batch_size_per_learner=cfg.train_batch_size,
            minibatch_size=cfg.minibatch_size,
            num_epochs=cfg.num_epochs,
        )
        .multi_agent(
            policies=set(mids),
            policy_mapping_fn=map_shared if cfg.policies == "shared" else map_team,
            policies_to_train=mids,
        )
        .rl_module(rl_module_spec=spec)
        .debugging(seed=cfg.seed)
    )


def save(algo: Algorithm, cfg: RLlibConfig, path: Path) -> Path:
    """Save an RLlib checkpoint with the run config beside it; return its directory."""
    path = path.resolve()
    algo.save_to_path(str(path))
    sidecar = {"version": SIDECAR_VERSION, "modules": module_ids(cfg), "config": cfg.to_dict()}
    (path / SIDECAR).write_text(json.dumps(sidecar, indent=2))
    return path


def summarize(result: dict[str, Any]) -> str:
    """Return one log line from an RLlib result dict."""
    runners = result.get("env_runners", {})
    returns = runners.get("module_episode_returns_mean", {})
    parts = [
        f"iter {result.get('training_iteration', '?')}",
        f"steps {runners.get('num_env_steps_sampled_lifetime', 0)}",
        f"episodes {runners.get('num_episodes_lifetime', 0)}",
        f"len {runners.get('episode_len_mean', float('nan')):.1f}",
    ]
    parts += [f"return[{mid}] {r:+.3f}" for mid, r in sorted(returns.items())]
    return "  ".join(parts)


def train(cfg: RLlibConfig, log: bool = True) -> Path:
    """Run PPO for `cfg.iterations` iterations; return the final checkpoint's directory."""
    import ray

    started_ray = not ray.is_initialized()
    if started_ray:
        if cfg.ray_address is None:
            ray.init(num_cpus=cfg.num_cpus, include_dashboard=False)
        else:
            ray.init(address=cfg.ray_address)
    algo = build_ppo_config(cfg).build_algo()
    out = Path(cfg.checkpoint_dir)
    try:
        start = time.perf_counter()
        for i in range(1, cfg.iterations + 1):
            result = algo.train()
            if log:
                print(f"{summarize(result)}  {time.perf_counter() - start:.0f}s", flush=True)
            if cfg.checkpoint_every and i % cfg.checkpoint_every == 0:
                save(algo, cfg, out / f"iter_{i:05d}")
        final = save(algo, cfg, out / "final")
    finally:
        algo.stop()
        if started_ray:
            ray.shutdown()
    if log:
        print(f"checkpoint: {final}")
    return final


def main(argv: list[str] | None = None, prog: str = "python -m baselines.rllib.rllib_train") -> int:
    p = parser(prog, "Train mafia_env agents with RLlib PPO.")
    p.add_argument("--config", default="rllib/sport", help="a path, or a shipped config's name")
    args = parse(p, argv)
    if isinstance(args, int):
        return args
    cfg = load_config(config_path(args.config))
    final = train(cfg)
    if cfg.eval_games:
        from baselines.rllib.matchup import team_match
        from baselines.shipped import load_policy

        policy = load_policy(final, variant=cfg.variant, num_players=cfg.num_players)
        opponent = load_policy("random", variant=cfg.variant, seed=cfg.seed)
        for team in variant_teams(cfg):
            result = team_match(policy, opponent, team, cfg.eval_games, cfg, seed=cfg.seed)
            print(f"trained {team} vs random: {result.summary()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(run(main, what="mafia rllib"))
