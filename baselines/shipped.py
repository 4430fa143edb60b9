"""The policy protocol and registry (`mafia_env.seating.policies`), and the shipped files.

`baselines` registers its agents there on import (and through the ``mafia_env.policies``
entry points): ``rule``, ``ppo`` (the checkpoint shipped for the variant), ``league`` (the
league-trained seat-filler shipped for the variant) and ``checkpoint`` (a PPO file or an
RLlib checkpoint directory, by path).
"""

from __future__ import annotations

from pathlib import Path

from mafia_env.errors import ConfigError
from mafia_env.seating.policies import (
    Policy,
    PolicyFactory,
    RandomPolicy,
    load_policy,
    policy_names,
    register_policy,
)

SHIPPED = Path(__file__).parent / "checkpoints"
# a shipped policy's name -> the folder of its files (``V-N.pt`` or ``V.pt`` per variant)
SHIPPED_FOLDERS: dict[str, Path] = {
    "ppo": SHIPPED,
    "league": SHIPPED / "league",
    "league_v2": SHIPPED / "league_v2",  # league bots that read the belief piece
    "filler": SHIPPED / "filler",  # the seat-fillers: the best known answer to each opponent
}


def _folder(kind: str) -> Path:
    if kind not in SHIPPED_FOLDERS:
        raise ConfigError(
            f"no shipped policy {kind!r}; shipped kinds: {', '.join(sorted(SHIPPED_FOLDERS))}"
        )
    return SHIPPED_FOLDERS[kind]


def shipped_checkpoint(variant: str, num_players: int | None = None, kind: str = "ppo") -> Path:
    """Return the file `load_policy(kind, ...)` loads: ``V-N.pt`` where shipped, else ``V.pt``.

    `kind` is ``ppo`` (``baselines/checkpoints``) or ``league`` (``.../checkpoints/league``).
    The file may be missing: the loader says which are shipped.
    """
    folder = _folder(kind)
    sized = folder / f"{variant}-{num_players}.pt"
    return sized if num_players is not None and sized.exists() else folder / f"{variant}.pt"


def shipped_files(kind: str = "ppo") -> list[str]:
    """Return the names (``sport``, ``city-13``, ...) of the files shipped for `kind`."""
    return sorted(p.stem for p in _folder(kind).glob("*.pt"))


__all__ = [
    "SHIPPED",
    "SHIPPED_FOLDERS",
    "Policy",
    "PolicyFactory",
    "RandomPolicy",
    "load_policy",
    "policy_names",
    "register_policy",
    "shipped_checkpoint",
    "shipped_files",
]
