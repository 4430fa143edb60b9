"""Agents for mafia_env: rule-based and PPO policies, evaluation, the benchmark and ratings.

Importing the package registers its policies (``rule``, ``ppo``, ``league``, ``checkpoint``,
``ismcts``) in `mafia_env.policy`, whose `load_policy` and `Policy` are re-exported here.
"""

from __future__ import annotations

from baselines.plugin import register
from baselines.rule import RulePolicy
from mafia_env.policy import Policy, RandomPolicy, load_policy, policy_names, register_policy

register()

__all__ = [
    "Policy",
    "RandomPolicy",
    "RulePolicy",
    "load_policy",
    "policy_names",
    "register_policy",
]
