"""The PPO run config: every key of ``configs/ppo/*.yaml``, typed, with a line of doc each."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from mafia_env import config
from mafia_env.config import (
    NonNegativeFloat,
    NonNegativeInt,
    PositiveFloat,
    PositiveInt,
    Range,
)
from mafia_env.errors import ConfigError
from mafia_env.variants import get_variant

OPPONENT_KINDS = ("self", "pool", "rule", "random")
LEARNER_TEAMS = ("any", "town", "mafia")


@dataclass(frozen=True)
class Config:
    """A PPO run; every field can be set in the YAML config file."""

    exp_name: str = "ppo"
    """the name of this run (the TensorBoard folder is runs/<exp_name>_<variant>_<seed>)"""
    variant: str = "sport"
    """the rule set (mafia_env.VARIANTS)"""
    num_players: int | None = None
    """the table size; null: the variant's default"""
    knobs: dict[str, Any] = field(default_factory=dict)
    """rule knobs that override the variant file"""
    seed: int = 1
    """seed of the games, the network initialisation and the sampling"""
    torch_threads: PositiveInt = 1
    """torch CPU threads (the games run in this process's main thread)"""
    run_dir: str = "runs"
    """where TensorBoard logs and checkpoints go"""

    # Algorithm specific arguments
    total_timesteps: PositiveInt = 2_000_000
    """environment steps (every seat's decisions, the opponents' included)"""
    learning_rate: PositiveFloat = 2.5e-4
    """the optimizer's learning rate"""
    anneal_lr: bool = True
    """anneal the learning rate linearly to zero"""
    num_envs: PositiveInt = 64
    """games stepped in lockstep"""
    num_steps: PositiveInt = 128
    """lockstep steps per rollout (each gives one decision per game)"""
    gamma: Annotated[float, Range(gt=0, le=1)] = 0.99
    """discount per own decision"""
    gae_lambda: Annotated[float, Range(ge=0, le=1)] = 0.95
    """the lambda of generalised advantage estimation"""
    num_minibatches: PositiveInt = 4
    """minibatches per epoch"""
    update_epochs: PositiveInt = 4
    """epochs over each rollout"""
    norm_adv: bool = True
    """normalise advantages per minibatch"""
    norm_value: bool = True
    """learn the value of returns normalised by their running mean and deviation"""
    clip_coef: NonNegativeFloat = 0.2
    """the surrogate clipping coefficient"""
    clip_vloss: bool = True
    """clip the value loss as PPO's paper does"""
    ent_coef: NonNegativeFloat = 0.01
    """coefficient of the entropy bonus"""
    vf_coef: NonNegativeFloat = 0.5
    """coefficient of the value loss"""
    max_grad_norm: PositiveFloat = 0.5
    """the maximum norm of the gradient"""
    target_kl: PositiveFloat | None = None
    """stop an update's epochs early above this approximate KL; null: never"""
    hidden_size: PositiveInt = 128
    """width of the two hidden layers the actor and the critic share"""
    per_team: bool = False
    """give each team its own actor and critic output heads"""

    # Opponents
    opponents: dict[str, NonNegativeFloat] = field(
        default_factory=lambda: {"self": 0.4, "pool": 0.2, "rule": 0.4, "random": 0.0}
    )
    """weights of the opponent kinds, drawn per game: self, pool, rule, random"""
    learner_team: Literal["any", "town", "mafia"] = "any"
    """the team the learner plays against an opponent: any (drawn per game), town, mafia"""
    pool_size: PositiveInt = 8
    """earlier snapshots kept for the pool"""
    snapshot_every: PositiveInt = 10
    """updates between snapshots added to the pool"""

    # Imitation warm start
    imitate_steps: NonNegativeInt = 0
    """decisions of rule-bot games cloned before PPO starts (behaviour cloning; 0: none)"""
    imitate_epochs: PositiveInt = 5
    """epochs over the cloned decisions"""
    imitate_lr: PositiveFloat = 1e-3
    """the learning rate of behaviour cloning"""

    # Evaluation and checkpoints
    greedy: bool = False
    """evaluate, and play once loaded as a bot, by the most probable legal action (not sampled)"""
    eval_opponent: str = "rule"
    """the bots to evaluate against (falls back to random where no rule bot is installed)"""
    eval_every: NonNegativeInt = 10
    """updates between evaluations during training (0: never)"""
    eval_games: PositiveInt = 200
    """games per team in each evaluation during training"""
    final_eval_games: PositiveInt = 1000
    """games per team in the final evaluation"""
    checkpoint_every: PositiveInt = 50
    """updates between checkpoints (the last one is always written)"""

    def check(self) -> None:
        """Check what the types cannot: the game (variant, knobs, size) and the opponents."""
        rules = get_variant(self.variant).with_knobs(**self.knobs)  # unknown variant or knob
        n = rules.default_players if self.num_players is None else self.num_players
        rules.check_players(n)
        rules.role_counts(n)
        bad = sorted(set(self.opponents) - set(OPPONENT_KINDS))
        if bad:
            raise ConfigError(
                f"unknown opponent kind(s) {', '.join(map(repr, bad))} in 'opponents'; "
                f"kinds: {', '.join(OPPONENT_KINDS)}"
            )
        if sum(self.opponents.values()) <= 0:
            raise ConfigError(
                "'opponents' weights must be non-negative numbers with a positive sum; "
                f"got {self.opponents!r}"
            )


def make_config(data: dict[str, Any] | None = None, **overrides: Any) -> Config:
    """Return a validated Config from a mapping: unknown keys and bad values are errors."""
    return config.parse(Config, {**(data or {}), **overrides})


def load_config(path: str | Path) -> Config:
    """Read and validate a YAML run config."""
    return config.load(Config, path)


__all__ = ["LEARNER_TEAMS", "OPPONENT_KINDS", "Config", "load_config", "make_config"]
