"""Agents for mafia_env: rule-based and PPO policies, evaluation, the benchmark and ratings.

Importing the package registers its policies (``rule``, ``ppo``, ``league``, ``checkpoint``,
``ismcts``) in `mafia_env.seating.policies`, whose `load_policy` and `Policy` are re-exported here.
"""

from __future__ import annotations

import os

# The bots multiply small matrices (rule_v2's posterior: 64 rows by 715 team sets at city-13).
# OpenBLAS's own threads made that ten times slower on a busy 2-core machine (698 -> 67 us a
# decision, scripts/bench_rule.py). One thread, unless the caller set it; it takes effect only
# where numpy is not imported yet (`python -m baselines.train`, the scripts, the table).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from baselines.plugin import register
from baselines.rule import RulePolicy
from mafia_env.seating.policies import (
    Policy,
    RandomPolicy,
    load_policy,
    policy_names,
    register_policy,
)

register()

__all__ = [
    "Policy",
    "RandomPolicy",
    "RulePolicy",
    "load_policy",
    "policy_names",
    "register_policy",
]
