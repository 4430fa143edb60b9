"""Agents for mafia_env: random, rule-based and PPO policies, evaluation and ratings."""

from __future__ import annotations

from baselines.policy import Policy, RandomPolicy, load_policy, register_policy
from baselines.rule import RulePolicy

register_policy("rule", RulePolicy)

__all__ = ["Policy", "RandomPolicy", "RulePolicy", "load_policy", "register_policy"]
