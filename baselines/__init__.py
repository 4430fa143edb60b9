"""Agents for mafia_env: random, rule-based and PPO policies, evaluation and ratings."""

from __future__ import annotations

from baselines.policy import Policy, RandomPolicy, load_policy, register_policy
from baselines.rule import RulePolicy

register_policy("rule", RulePolicy)

__all__ = ["Policy", "RandomPolicy", "RulePolicy", "load_policy", "register_policy"]


def _shipped_ppo(variant: str = "sport", num_players: int | None = None, seed: int = 0) -> Policy:
    from baselines.ppo import load_shipped_policy  # torch is imported only when asked for

    return load_shipped_policy(variant, num_players, seed)


def _checkpoint(
    path=None, variant: str = "sport", num_players: int | None = None, seed: int = 0
) -> Policy:
    from baselines.ppo import load_checkpoint_policy
    from mafia_env.errors import ConfigError

    if path is None:
        raise ConfigError("load a checkpoint by its path: load_policy('path/to/file.pt', ...)")

    return load_checkpoint_policy(path, variant, num_players, seed)


register_policy("ppo", _shipped_ppo)
register_policy("checkpoint", _checkpoint)
