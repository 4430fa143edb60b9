"""Load an RLlib checkpoint of `baselines.rllib.rllib_train` as a `Policy`.

The checkpoint's modules are RLlib `ActionMaskingTorchRLModule`s; the run config saved beside
them (`mafia_rllib.json`) says the variant, the table size, the knobs and whether there is one
shared module or one per team. A per-team policy reads the acting agent's own role from its
observation (the ``role`` piece) to pick the module, as RLlib's team-tagged agent ids did in
training.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from mafia_env.errors import ConfigError

SIDECAR = "mafia_rllib.json"
SIDECAR_VERSION = 1
RLLIB_MARKER = "rllib_checkpoint.json"


def is_rllib_checkpoint(path: str | Path) -> bool:
    """Return whether `path` is a directory RLlib saved a checkpoint into."""
    path = Path(path)
    return path.is_dir() and (path / RLLIB_MARKER).is_file()


class RLlibPolicy:
    """RLlib modules behind the `Policy` protocol: masked logits, then a seeded sample or argmax."""

    def __init__(
        self,
        modules: dict[str, Any],
        module_of_role: list[str],
        role_offset: int,
        greedy: bool = False,
        seed: int = 0,
    ):
        self.modules = modules
        self.module_of_role = np.asarray(module_of_role)
        self.role_offset = role_offset
        self.greedy = greedy
        self.rng = np.random.default_rng(seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(self.act_batch(obs[None], mask[None])[0])

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        logits = self.logits(obs, masks)
        if not self.greedy:  # Gumbel-max: a sample from the masked softmax
            logits = logits + self.rng.gumbel(size=logits.shape)
        logits[np.asarray(masks) == 0] = -np.inf
        if np.isneginf(logits).all(axis=1).any():
            raise ValueError("a mask allows no action")
        return logits.argmax(axis=1)

    def logits(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Return the modules' masked action logits, one row per observation."""
        import torch
        from ray.rllib.core.columns import Columns

        obs = np.asarray(obs, dtype=np.float32)
        masks = np.asarray(masks, dtype=np.float32)
        n_roles = len(self.module_of_role)
        role = obs[:, self.role_offset : self.role_offset + n_roles].argmax(axis=1)
        owner = self.module_of_role[role]
        out = np.empty(masks.shape, dtype=np.float32)
        with torch.no_grad():
            for mid, module in self.modules.items():
                rows = np.flatnonzero(owner == mid)
                if rows.size == 0:
                    continue
                batch = {
                    Columns.OBS: {
                        "observations": torch.from_numpy(obs[rows]),
                        "action_mask": torch.from_numpy(masks[rows]),
                    }
                }
                res = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
                out[rows] = res.numpy()
        return out


def read_sidecar(path: Path) -> dict[str, Any]:
    """Return the run config saved beside an RLlib checkpoint by `baselines.rllib.rllib_train`."""
    side = path / SIDECAR
    if not side.is_file():
        raise ConfigError(
            f"{path} is an RLlib checkpoint but has no {SIDECAR}: it was not saved by "
            "baselines.rllib.rllib_train, so its variant and modules are unknown"
        )
    data = json.loads(side.read_text())
    if data.get("version") != SIDECAR_VERSION:
        raise ConfigError(
            f"{side}: version {data.get('version')!r}; this code reads version {SIDECAR_VERSION}"
        )
    return data


def load_rllib_policy(
    path: str | Path,
    variant: str | None = None,
    num_players: int | None = None,
    seed: int = 0,
    greedy: bool = False,
) -> RLlibPolicy:
    """Return an RLlib checkpoint's policy; a variant or table size it did not train on: error."""
    from baselines.rllib.rllib_config import parse_config

    path = Path(path)
    data = read_sidecar(path)
    cfg = parse_config(data["config"], str(path / SIDECAR))
    if variant is not None and variant != cfg.variant:
        raise ConfigError(f"{path} was trained on variant {cfg.variant!r}, not {variant!r}")
    import mafia_env

    env = mafia_env.raw_env(cfg.variant, cfg.num_players, **cfg.knobs)
    if num_players is not None and num_players != env.n:
        raise ConfigError(f"{path} was trained for {env.n} players, not {num_players}")
    try:
        from ray.rllib.core.rl_module.multi_rl_module import MultiRLModule
    except ImportError as e:
        raise ConfigError(
            f"loading the RLlib checkpoint {path} needs Ray RLlib: install the 'rllib' extra ({e})"
        ) from None
    multi = MultiRLModule.from_checkpoint(path / "learner_group" / "learner" / "rl_module")
    modules = {mid: multi[mid] for mid in data["modules"]}
    for module in modules.values():
        module.eval()
    roles = env.rules.roles_in_play()
    if cfg.policies == "shared":
        module_of_role = ["shared"] * len(roles)
    else:
        module_of_role = [r.team.name.lower() for r in roles]
    return RLlibPolicy(modules, module_of_role, env.obs_layout.index("role"), greedy, seed)
