"""The YAML run config of RLlib training: typed fields with defaults, validated on load."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml

from mafia_env.errors import ConfigError
from mafia_env.variants import get_variant

POLICY_MODES = ("shared", "per_team")


@dataclass(frozen=True)
class RLlibConfig:
    """One RLlib PPO run: the game, the mapping of agents to modules, scale and PPO settings."""

    variant: str = "sport"
    """Rule set (a name in `mafia_env.VARIANTS`)."""
    num_players: int | None = None
    """Table size; None = the variant's default."""
    knobs: dict[str, Any] = field(default_factory=dict)
    """Variant knob overrides passed to `mafia_env.raw_env` (unknown knob -> error)."""
    policies: str = "shared"
    """"shared": one module plays every seat (the role is in the observation);
    "per_team": one module per team of the variant (town, mafia, maniac)."""
    seed: int = 0
    """Seed of RLlib (module init, env runners' env seeds)."""
    iterations: int = 100
    """Training iterations (`Algorithm.train()` calls)."""
    num_env_runners: int = 2
    """Remote sampling actors; 0 samples in the driver process."""
    num_envs_per_env_runner: int = 4
    """Games each env runner steps together (one vector env)."""
    num_cpus_per_env_runner: int = 1
    """CPUs Ray reserves for each env runner."""
    num_learners: int = 0
    """Remote learner actors (data-parallel updates); 0 learns in the driver process."""
    num_gpus_per_learner: float = 0.0
    """GPUs per learner (0 = CPU)."""
    train_batch_size: int = 4000
    """Env steps per iteration and learner (RLlib's train_batch_size_per_learner)."""
    minibatch_size: int = 256
    """SGD minibatch size."""
    num_epochs: int = 4
    """Passes over each train batch."""
    lr: float = 3e-4
    """Adam learning rate."""
    gamma: float = 0.99
    """Discount factor."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    clip_param: float = 0.2
    """PPO clip range."""
    entropy_coeff: float = 0.01
    """Entropy bonus."""
    hidden: tuple[int, ...] = (256, 256)
    """Hidden layer sizes of the policy and value MLPs."""
    env_check: bool = False
    """Run RLlib's env check; it steps once with an unmasked random action, so it needs knob
    illegal_action: foul or terminate (with the default, raise, that action is an error)."""
    checkpoint_dir: str = "runs/rllib/sport"
    """Where checkpoints go (a directory per save; the last one is also `final`)."""
    checkpoint_every: int = 10
    """Save every this many iterations (0 = only at the end)."""
    ray_address: str | None = None
    """None: start a local Ray; "auto" or "host:port": join a running Ray cluster."""
    num_cpus: int | None = None
    """CPUs of the local Ray instance (None = all); ignored when joining a cluster."""
    eval_games: int = 0
    """Games against random bots after training, per team the trained policy plays."""

    def env_config(self) -> dict[str, Any]:
        """Return the env_config of `baselines.rllib.env.MafiaRLlibEnv`."""
        return {
            "variant": self.variant,
            "num_players": self.num_players,
            "knobs": dict(self.knobs),
            "tag_team": self.policies == "per_team",
        }

    def to_dict(self) -> dict[str, Any]:
        """Return the config as YAML/JSON-ready data."""
        d = dataclasses.asdict(self)
        d["hidden"] = list(self.hidden)
        return d


FIELDS = {f.name: f for f in fields(RLlibConfig)}
_TYPES: dict[str, tuple[type, ...]] = {
    "variant": (str,),
    "num_players": (int, type(None)),
    "knobs": (dict,),
    "policies": (str,),
    "hidden": (list, tuple),
    "env_check": (bool,),
    "checkpoint_dir": (str,),
    "ray_address": (str, type(None)),
    "num_cpus": (int, type(None)),
    "num_gpus_per_learner": (int, float),
    "lr": (int, float),
    "gamma": (int, float),
    "gae_lambda": (int, float),
    "clip_param": (int, float),
    "entropy_coeff": (int, float),
}
_NON_NEGATIVE = ("num_env_runners", "num_learners", "checkpoint_every", "eval_games", "seed")
_POSITIVE = (
    "iterations",
    "num_envs_per_env_runner",
    "num_cpus_per_env_runner",
    "train_batch_size",
    "minibatch_size",
    "num_epochs",
)


def parse_config(data: Any, source: str = "config") -> RLlibConfig:
    """Validate a config mapping and return it typed; any unknown key or bad value is an error."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: a config is a mapping of keys to values; got {data!r}")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise ConfigError(
            f"{source}: unknown key(s) {', '.join(map(str, unknown))}; "
            f"allowed keys: {', '.join(FIELDS)}"
        )
    for key, value in data.items():
        kinds = _TYPES.get(key, (int,))
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            names = " or ".join("null" if k is type(None) else k.__name__ for k in kinds)
            raise ConfigError(f"{source}: {key} must be {names}; got {value!r}")
    for key in _NON_NEGATIVE:
        if data.get(key, 0) < 0:
            raise ConfigError(f"{source}: {key} must be >= 0; got {data[key]}")
    for key in _POSITIVE:
        if key in data and data[key] < 1:
            raise ConfigError(f"{source}: {key} must be >= 1; got {data[key]}")
    if data.get("policies", "shared") not in POLICY_MODES:
        raise ConfigError(
            f"{source}: policies must be one of {', '.join(POLICY_MODES)}; got {data['policies']!r}"
        )
    batch = data.get("train_batch_size", RLlibConfig.train_batch_size)
    minibatch = data.get("minibatch_size", RLlibConfig.minibatch_size)
    if minibatch > batch:
        raise ConfigError(
            f"{source}: minibatch_size ({minibatch}) must be <= train_batch_size ({batch})"
        )
    hidden = tuple(data.get("hidden", RLlibConfig.hidden))
    if not hidden or not all(
        isinstance(h, int) and not isinstance(h, bool) and h > 0 for h in hidden
    ):
        raise ConfigError(f"{source}: hidden must be a list of positive ints; got {hidden!r}")
    cfg = RLlibConfig(**{**data, "hidden": hidden})
    _check_game(cfg, source)
    return cfg


def _check_game(cfg: RLlibConfig, source: str) -> None:
    """Check the variant, table size and knobs by building the env (cheap), and the env check."""
    import mafia_env

    try:
        get_variant(cfg.variant)
        env = mafia_env.raw_env(cfg.variant, cfg.num_players, **cfg.knobs)
    except ConfigError as e:
        raise ConfigError(f"{source}: {e}") from None
    if cfg.env_check and env.rules.illegal_action == "raise":
        raise ConfigError(
            f"{source}: env_check: true steps the env once with an unmasked random action; "
            "set knobs: {illegal_action: foul} (or terminate), or env_check: false"
        )


def load_config(path: str | Path) -> RLlibConfig:
    """Read and validate a YAML run config."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"config file {path} does not exist")
    try:
        data = yaml.safe_load(path.read_text())
    except yaml.YAMLError as e:
        raise ConfigError(f"{path}: not valid YAML: {e}") from None
    return parse_config(data, str(path))
