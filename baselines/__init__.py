"""Agents for mafia_env: random, rule-based and PPO policies, evaluation and ratings."""

from __future__ import annotations

from baselines.policy import Policy, RandomPolicy, load_policy, register_policy

__all__ = ["Policy", "RandomPolicy", "load_policy", "register_policy"]
