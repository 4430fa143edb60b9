"""The YAML run config of RLlib training: typed fields with defaults, validated on load."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from mafia_env import yaml_config
from mafia_env.errors import ConfigError
from mafia_env.yaml_config import (
    Fraction,
    NonNegativeFloat,
    NonNegativeInt,
    PositiveFloat,
    PositiveInt,
    Range,
)

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
    policies: Literal["shared", "per_team"] = "shared"
    """"shared": one module plays every seat (the role is in the observation);
    "per_team": one module per team of the variant (town, mafia, maniac)."""
    seed: NonNegativeInt = 0
    """Seed of RLlib (module init, env runners' env seeds)."""
    iterations: PositiveInt = 100
    """Training iterations (`Algorithm.train()` calls)."""
    num_env_runners: NonNegativeInt = 2
    """Remote sampling actors; 0 samples in the driver process."""
    num_envs_per_env_runner: PositiveInt = 4
    """Games each env runner steps together (one vector env)."""
    num_cpus_per_env_runner: PositiveInt = 1
    """CPUs Ray reserves for each env runner."""
    num_learners: NonNegativeInt = 0
    """Remote learner actors (data-parallel updates); 0 learns in the driver process."""
    num_gpus_per_learner: NonNegativeFloat = 0.0
    """GPUs per learner (0 = CPU)."""
    train_batch_size: PositiveInt = 4000
    """Env steps per iteration and learner (RLlib's train_batch_size_per_learner)."""
    minibatch_size: PositiveInt = 256
    """SGD minibatch size."""
    num_epochs: PositiveInt = 4
    """Passes over each train batch."""
    lr: PositiveFloat = 3e-4
    """Adam learning rate."""
    gamma: Annotated[float, Range(gt=0, le=1)] = 0.99
    """Discount factor."""
    gae_lambda: Fraction = 0.95
    """GAE lambda."""
    clip_param: NonNegativeFloat = 0.2
    """PPO clip range."""
    entropy_coeff: NonNegativeFloat = 0.01
    """Entropy bonus."""
    hidden: tuple[PositiveInt, ...] = (256, 256)
    """Hidden layer sizes of the policy and value MLPs."""
    env_check: bool = False
    """Run RLlib's env check; it steps once with an unmasked random action, which the env's
    default (illegal_action unset: terminate) answers by ending the game (knob
    illegal_action: raise makes it an error, so that setting cannot be checked)."""
    checkpoint_dir: str = "runs/rllib/sport"
    """Where checkpoints go (a directory per save; the last one is also `final`)."""
    checkpoint_every: NonNegativeInt = 10
    """Save every this many iterations (0 = only at the end)."""
    ray_address: str | None = None
    """None: start a local Ray; "auto" or "host:port": join a running Ray cluster."""
    num_cpus: PositiveInt | None = None
    """CPUs of the local Ray instance (None = all); ignored when joining a cluster."""
    eval_games: NonNegativeInt = 0
    """Games against random bots after training, per team the trained policy plays."""

    def check(self) -> None:
        """Check what the types cannot: the batch sizes, the layers and the game."""
        if self.minibatch_size > self.train_batch_size:
            raise ConfigError(
                f"minibatch_size ({self.minibatch_size}) must be <= train_batch_size "
                f"({self.train_batch_size})"
            )
        if not self.hidden:
            raise ConfigError("hidden must be a list of positive ints; got []")
        import mafia_env  # the variant, table size and knobs: build the env (cheap)

        env = mafia_env.raw_env(self.variant, self.num_players, **self.knobs)
        if self.env_check and env.illegal_action == "raise":
            raise ConfigError(
                "env_check: true steps the env once with an unmasked random action; "
                "set knobs: {illegal_action: foul} or {illegal_action: terminate} (or leave "
                "the knob unset: terminate), or env_check: false"
            )

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


def parse_config(data: Any, source: str = "config") -> RLlibConfig:
    """Validate a config mapping and return it typed; any unknown key or bad value is an error."""
    return yaml_config.parse(RLlibConfig, data, source)


def load_config(path: str | Path) -> RLlibConfig:
    """Read and validate a YAML run config."""
    return yaml_config.load(RLlibConfig, path)
