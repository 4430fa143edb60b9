"""The PPO run config: every key of ``configs/ppo/*.yaml``, typed, with a line of doc each."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from mafia_env import yaml_config
from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.seating.policies import policy_names
from mafia_env.yaml_config import (
    NonNegativeFloat,
    NonNegativeInt,
    PositiveFloat,
    PositiveInt,
    Range,
)

OPPONENT_KINDS = ("self", "pool", "rule", "random")  # the usual ones; any policy name also
LEARNER_TEAMS = ("any", "town", "mafia")
LEARNER_LAYERS = ("none", "belief_talk")  # Config.learner_layer
DEFAULT_OPPONENTS = {"self": 0.4, "pool": 0.2, "rule": 0.4, "random": 0.0}


@dataclass(frozen=True)
class LeagueConfig:
    """League training: prioritised fictitious self-play over a pool that grows (AlphaStar)."""

    self_play: Annotated[float, Range(ge=0, le=1)] = 0.2
    """share of games the learner plays against itself (every seat)"""
    fixed: tuple[str, ...] = ("rule", "random", "ppo")
    """policies in the pool from the start (load_policy names or checkpoint paths)"""
    pfsp_power: NonNegativeFloat = 2.0
    """p of the PFSP weight (1 - x)^p, x the learner's running win rate against a member"""
    pfsp_floor: Annotated[float, Range(gt=0, le=1)] = 0.05
    """the least weight of a member, so that none the learner beats is never drawn again"""
    winrate_window: PositiveInt = 300
    """the learner's last games against a member (per side) that its x is over"""
    pfsp_sides: bool = True
    """weigh each (member, side) pair by the learner's win rate on that side, so a side it
    loses on is played more (false: both sides pooled, the side drawn evenly)"""
    exploiter_every: NonNegativeInt = 50
    """learner updates between exploiters (0: no exploiters)"""
    exploiter_updates: PositiveInt = 20
    """PPO updates an exploiter trains against the frozen learner before it joins the pool"""
    max_exploiters: PositiveInt = 3
    """exploiters kept in the pool (the oldest leaves)"""


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
    pipeline: Literal["sync", "overlap"] = "sync"
    """how rollouts and PPO updates share the machine: ``sync``, one process, each update
    on the rollout just played; ``overlap``, the updates in a second process (a second core)
    while the next rollout plays (`baselines.ppo.overlap`): a rollout plays with the weights
    one update behind the update in flight, and PPO's ratio is taken against the
    log-probabilities the rollout recorded. Seeded runs replay either way, each its own"""
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
    rollout_groups: PositiveInt = 1
    """the games in lockstep split in this many groups with staggered rollouts: an update every
    num_steps / rollout_groups lockstep steps, on one group's rollout (num_envs /
    rollout_groups games x num_steps steps); the bots and the learner's network decide for
    every game at once, more rows a call for the same steps an update, and a group's earlier
    steps were sampled under up to rollout_groups - 1 earlier updates' weights. Must divide
    num_envs and num_steps"""
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
    belief: Literal["deduction"] | None = None
    """the observation option `belief` (`mafia_env.belief`): "deduction" adds each seat's
    marginal per role, as this seat can deduce, to the network's input; null: no belief
    piece (the checkpoints before it). Opponents that do not read it get the plain prefix"""

    # Opponents
    opponents: dict[str, NonNegativeFloat] = field(default_factory=lambda: dict(DEFAULT_OPPONENTS))
    """weights of the opponents, drawn per game: self, pool (a snapshot of the learner), or
    any policy load_policy knows (rule, random, ppo: the shipped bot, a checkpoint path)"""
    learner_team: Literal["any", "town", "mafia"] = "any"
    """the team the learner plays against an opponent: any (drawn per game), town, mafia;
    in imitation, the team whose decisions are recorded (the teacher's)"""
    mixed_tables: Annotated[float, Range(ge=0, le=1)] = 0.0
    """share of the games against an opponent (not self-play) where the learner holds only
    `mixed_share` of its team's seats, drawn per game, and the opponent plays the rest of the
    learner's team too: mixed tables, as the robustness benchmark's ``half-style``
    (``half-rule`` where the opponent is the rule bots)"""
    mixed_share: Annotated[float, Range(gt=0, lt=1)] = 0.5
    """the learner's share of its team's seats at a mixed table (at least one seat)"""
    mixed_mates: str | None = None
    """a policy (rule, or any name load_policy knows) that holds the rest of the learner's
    team at a share `mixed_mates_share` of the mixed tables, drawn per game, the opponent
    playing the other teams: the robustness benchmark's ``half-rule`` tables against a style;
    None: the opponent plays the learner's other teammates too"""
    mixed_mates_share: Annotated[float, Range(ge=0, le=1)] = 0.5
    """the share of the mixed tables whose other teammates are `mixed_mates`'"""
    pool_size: PositiveInt = 8
    """earlier snapshots kept for the pool"""
    snapshot_every: PositiveInt = 10
    """updates between snapshots added to the pool"""
    league: LeagueConfig | None = None
    """league training (its own section; null: the fixed mixture of `opponents`)"""
    learner_layer: Literal["none", "belief_talk"] = "none"
    """a fixed layer over the learner's network in training: ``none``, the network plays
    alone; ``belief_talk``, `baselines.belief_talk.BeliefTalk` (the learner's speech, day 1's
    first nomination and blind votes from the claims reading, where it overrides the
    network). The rows it overrides are left out of the policy loss (their values are still
    learned), and the learner's frozen copies (snapshots, the exploiters' target) play under
    it too. Sync pipeline only"""
    learner_layer_options: dict[str, Any] = field(default_factory=dict)
    """the layer's options (``belief_talk``: ``fallback: vouch``, ``speech``, ``nominate``,
    ``vote``, ``mafia``, ... as `BeliefTalk` takes them)"""

    # Warm start: weights to begin from, or imitation
    init_weights: str | None = None
    """begin PPO from these weights instead of the imitation phase: ``ppo`` (the shipped PPO
    bot of the variant and table size) or a checkpoint path; null: imitation, or none"""
    imitate_steps: NonNegativeInt = 0
    """decisions of rule-bot games cloned before PPO starts (behaviour cloning; 0: none)"""
    imitate_epochs: PositiveInt = 5
    """epochs over the cloned decisions"""
    imitate_lr: PositiveFloat = 1e-3
    """the learning rate of behaviour cloning"""
    imitate_teacher: str = "rule"
    """the policy whose moves are cloned (a load_policy name or a checkpoint path)"""
    imitate_teachers: dict[str, str] = field(default_factory=dict)
    """per opponent of `imitate_opponents`, the teacher cloned in its games where another
    than `imitate_teacher` answers it better (``random: rule``: the rule bots' answer to
    random play, ``rule: ppo``: the PPO bot's answer to the rule bots); a key
    ``OPPONENT:SIDE`` (``league:town``) names the teacher of one side only, and wins over
    the plain ``OPPONENT`` key"""
    imitate_after_init: bool = False
    """clone the teachers (``imitate_steps``) after loading `init_weights` too (false: a run
    with init_weights starts PPO from them directly)"""
    imitate_dagger: NonNegativeInt = 0
    """DAgger rounds after the first cloning: in each, the clone itself plays the teacher's
    seats while the teacher labels every one of its decisions (``imitate_steps`` more), and
    the clone is fitted again on everything recorded, so it learns the teacher's answer in
    the positions its own mistakes lead to (0: plain behaviour cloning)"""
    imitate_opponents: dict[str, NonNegativeFloat] = field(default_factory=dict)
    """who the teacher plays against while its moves are recorded, drawn per game by weight
    (``self``: the teacher on every seat; any load_policy name or a checkpoint path), the
    teacher's side drawn per game; empty: the teacher on every seat (bot against bot)"""

    exploit_start: str = "clone"
    """`baselines.exploit` only: where the attacker starts: ``clone`` (the rule-bot clone, as
    the v3 figures), ``strongest`` (the task's best shipped network bot on the v3 table),
    ``ppo``, ``league``, ``league_v2`` or a checkpoint path"""

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

    def run_name(self) -> str:
        """The run's folder under `run_dir`: ``<exp_name>_<variant>_<seed>``."""
        return f"{self.exp_name}_{self.variant}_{self.seed}"

    def game_spec(self) -> GameSpec:
        """Return the spec of the game trained on (`GameSpec.make`: variant, size, knobs and
        the observation options, `obs_options`)."""
        return GameSpec.make(self.variant, self.num_players, obs=self.obs_options(), **self.knobs)

    def obs_options(self) -> dict[str, Any]:
        """The observation options the network reads (``{"belief": "deduction"}`` or {})."""
        return {} if self.belief is None else {"belief": self.belief}

    def vec_knobs(self) -> dict[str, Any]:
        """The keyword arguments of the trainer's `VectorMafia`: the knobs and obs options."""
        return {**self.knobs, **self.obs_options()}

    def check(self) -> None:
        """Check what the types cannot: the game (variant, knobs, size) and the opponents."""
        self.game_spec()  # an unknown variant or knob, a bad size or role table
        check_opponents(self.opponents, ("self", "pool"), "opponents")
        check_opponents(self.imitate_opponents, ("self",), "imitate_opponents")
        check_opponents([self.imitate_teacher], (), "imitate_teacher")
        check_opponents(list(self.imitate_teachers.values()), (), "imitate_teachers")
        # OPPONENT or OPPONENT:SIDE, split at the last colon (an opponent may hold one:
        # ``style:framer:town``)
        sides = {
            k: (k, "", "") if k in self.imitate_opponents else k.rpartition(":")
            for k in self.imitate_teachers
        }
        bad = sorted(k for k, (_, c, side) in sides.items() if c and side not in TEAM_NAMES)
        if bad:
            raise ConfigError(
                f"imitate_teachers keys {bad} name no side; a key is OPPONENT or "
                f"OPPONENT:SIDE, a side one of {', '.join(TEAM_NAMES)}"
            )
        stray = sorted({o for o, _, _ in sides.values()} - set(self.imitate_opponents))
        if stray:
            raise ConfigError(
                f"imitate_teachers names opponents {stray} that imitate_opponents does not "
                f"draw ({', '.join(self.imitate_opponents) or 'none'})"
            )
        if self.imitate_opponents and sum(self.imitate_opponents.values()) <= 0:
            raise ConfigError(
                "'imitate_opponents' weights must have a positive sum; got "
                f"{self.imitate_opponents!r}"
            )
        if sum(self.opponents.values()) <= 0:
            raise ConfigError(
                "'opponents' weights must be non-negative numbers with a positive sum; "
                f"got {self.opponents!r}"
            )
        if self.num_envs % self.rollout_groups or self.num_steps % self.rollout_groups:
            raise ConfigError(
                f"rollout_groups must divide num_envs ({self.num_envs}) and num_steps "
                f"({self.num_steps}); got {self.rollout_groups}"
            )
        self.check_layer()
        if self.mixed_mates is not None:
            check_opponents([self.mixed_mates], (), "mixed_mates")
            if self.mixed_tables <= 0:
                raise ConfigError(
                    f"mixed_mates {self.mixed_mates!r} plays at mixed tables only: set "
                    "mixed_tables above 0 too"
                )
        if self.league is not None:
            if self.opponents != DEFAULT_OPPONENTS:
                raise ConfigError(
                    "a league draws its own opponents: set league.self_play and league.fixed "
                    "and leave 'opponents' out"
                )
            check_opponents(self.league.fixed, (), "league.fixed")
            if not self.league.fixed and self.league.self_play < 1:
                raise ConfigError(
                    "league.fixed is empty and league.self_play < 1: name at least one "
                    "policy in league.fixed (rule, random, ppo, ...) or set self_play: 1"
                )

    def check_layer(self) -> None:
        """Refuse a learner layer's options it does not take, and the overlap with a layer."""
        opts = self.learner_layer_options
        if self.learner_layer == "none":
            if opts:
                raise ConfigError(
                    f"learner_layer_options {sorted(opts)} given, but learner_layer is none; "
                    f"set learner_layer to one of: {', '.join(LEARNER_LAYERS[1:])}"
                )
            return
        if self.pipeline != "sync":
            raise ConfigError(
                f"learner_layer {self.learner_layer!r} runs with pipeline: sync only; got "
                f"pipeline {self.pipeline!r}"
            )
        from baselines.filler_talk_options import FALLBACKS, PARTS, defer_triggers

        allowed = (*PARTS, "fallback", "defer")
        bad = sorted(k for k in opts if k not in allowed)
        if bad:
            raise ConfigError(
                f"learner_layer_options {bad} are not options of {self.learner_layer}; "
                f"allowed: {', '.join(allowed)}"
            )
        flags = sorted(k for k in PARTS if k in opts and not isinstance(opts[k], bool))
        if flags:
            raise ConfigError(f"learner_layer_options {flags} must be true or false")
        if "fallback" in opts and opts["fallback"] not in FALLBACKS:
            raise ConfigError(
                f"learner_layer_options fallback {opts['fallback']!r} is not one of: "
                f"{', '.join(FALLBACKS)}"
            )
        if "defer" in opts:
            defer_triggers(opts["defer"], "learner_layer_options defer")


def check_opponents(names: Any, special: tuple[str, ...], key: str) -> None:
    """Refuse an opponent that is neither in `special`, a known policy, nor a file."""
    known = [n for n in policy_names() if n not in ("checkpoint", "llm", "ismcts")]
    bad = [n for n in names if n not in special and n not in known and not Path(n).exists()]
    if bad:
        raise ConfigError(
            f"unknown opponent(s) {', '.join(map(repr, bad))} in '{key}'; allowed: "
            f"{', '.join([*special, *known])}, or a path to a checkpoint file"
        )


def with_overrides(cfg: Config, items: list[str]) -> Config:
    """Return `cfg` with ``KEY=VALUE`` overrides (YAML values; ``league.KEY`` for a section)."""
    import yaml

    data = asdict(cfg)
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise ConfigError(f"--set takes KEY=VALUE; got {item!r}")
        section, dot, field_name = key.partition(".")
        if dot:
            if not isinstance(data.get(section), dict | type(None)) or section not in data:
                raise ConfigError(f"--set {key}: {section!r} is not a section of the config")
            data[section] = {**(data[section] or {}), field_name: yaml.safe_load(value)}
        else:
            data[key] = yaml.safe_load(value)
    return make_config(data)


def make_config(data: dict[str, Any] | None = None, **overrides: Any) -> Config:
    """Return a validated Config from a mapping: unknown keys and bad values are errors."""
    return yaml_config.parse(Config, {**(data or {}), **overrides})


def load_config(path: str | Path) -> Config:
    """Read and validate a YAML run config."""
    return yaml_config.load(Config, path)


__all__ = [
    "DEFAULT_OPPONENTS",
    "LEARNER_LAYERS",
    "LEARNER_TEAMS",
    "OPPONENT_KINDS",
    "Config",
    "LeagueConfig",
    "check_opponents",
    "load_config",
    "make_config",
    "with_overrides",
]
