"""The policy protocol and registry (they live in `mafia_env.policy`), and the shipped files.

`baselines` registers its agents there on import (and through the ``mafia_env.policies``
entry points): ``rule``, ``ppo`` (the checkpoint shipped for the variant) and
``checkpoint`` (a PPO file or an RLlib checkpoint directory, by path).
"""

from __future__ import annotations

from pathlib import Path

from mafia_env.policy import (
    _REGISTRY,
    Policy,
    PolicyFactory,
    RandomPolicy,
    load_policy,
    policy_names,
    register_policy,
)

SHIPPED = Path(__file__).parent / "checkpoints"


def shipped_checkpoint(variant: str, num_players: int | None = None) -> Path:
    """Return the file `load_policy("ppo", ...)` loads: ``V-N.pt`` where shipped, else ``V.pt``.

    The file may be missing: the loader says which are shipped.
    """
    sized = SHIPPED / f"{variant}-{num_players}.pt"
    return sized if num_players is not None and sized.exists() else SHIPPED / f"{variant}.pt"


__all__ = [
    "SHIPPED",
    "_REGISTRY",
    "Policy",
    "PolicyFactory",
    "RandomPolicy",
    "load_policy",
    "policy_names",
    "register_policy",
    "shipped_checkpoint",
]
