"""The `Policy` protocol every agent implements, and `load_policy` by name or path.

A policy may also have `seed(s)`, which restarts its randomness (seeded resets call it).
A policy sees what an agent sees: the observation vector (read through the variant's named
views, `mafia_env.observe.ObsLayout`) and the action mask. The table, evaluation and the
league use only this protocol.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from mafia_env.errors import ConfigError
from mafia_env.variants import get_variant


@runtime_checkable
class Policy(Protocol):
    """Chooses actions from observations and masks."""

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """Return one legal action index for one observation."""
        ...

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Return one legal action index per row of `obs` / `masks`."""
        ...


class RandomPolicy:
    """Uniform over the legal actions; seeded, so games replay."""

    def __init__(self, variant: str = "sport", num_players: int | None = None, seed: int = 0):
        self.seed(seed)

    def seed(self, seed: int) -> None:
        """Restart the policy's random stream (optional in the protocol; used by resets)."""
        self.rng = np.random.default_rng(seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("the mask allows no action")
        return int(legal[self.rng.integers(legal.size)])

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        # Gumbel-free uniform choice per row: random keys, illegal ones pushed below zero
        keys = self.rng.random(masks.shape) + (masks > 0)
        return keys.argmax(axis=1)


SHIPPED = Path(__file__).parent / "checkpoints"


def shipped_checkpoint(variant: str, num_players: int | None = None) -> Path:
    """Return the file `load_policy("ppo", ...)` loads: ``V-N.pt`` where shipped, else ``V.pt``.

    The file may be missing: the loader says which are shipped.
    """
    sized = SHIPPED / f"{variant}-{num_players}.pt"
    return sized if num_players is not None and sized.exists() else SHIPPED / f"{variant}.pt"


PolicyFactory = Callable[..., Policy]
_REGISTRY: dict[str, PolicyFactory] = {"random": RandomPolicy}


def register_policy(name: str, factory: PolicyFactory) -> None:
    """Make `load_policy(name, ...)` build policies with `factory(variant, num_players, seed)`."""
    _REGISTRY[name] = factory


def load_policy(
    name: str | Path, variant: str = "sport", num_players: int | None = None, seed: int = 0
) -> Policy:
    """Return a policy: "random", "rule", "ppo" (the shipped checkpoint) or a checkpoint path.

    A directory holding an RLlib checkpoint (``rllib_checkpoint.json``) is loaded by
    `baselines.rllib.policy.load_rllib_policy`; other paths go to the "checkpoint" loader.
    """
    get_variant(variant)  # an unknown variant is an error here, not deep inside
    key = str(name)
    if key in _REGISTRY:
        return _REGISTRY[key](variant=variant, num_players=num_players, seed=seed)
    path = Path(key)
    if path.is_dir() and (path / "rllib_checkpoint.json").is_file():
        from baselines.rllib.policy import load_rllib_policy  # the 'rllib' extra

        return load_rllib_policy(path, variant=variant, num_players=num_players, seed=seed)
    if path.exists():
        loader = _REGISTRY.get("checkpoint")
        if loader is None:
            raise ConfigError(
                f"cannot load checkpoint {path}: no checkpoint loader is installed "
                "(install the 'train' extra)"
            )
        return loader(path=path, variant=variant, num_players=num_players, seed=seed)
    raise ConfigError(
        f"unknown policy {key!r}: not a policy name ({', '.join(sorted(_REGISTRY))}) "
        "and no file at that path"
    )
