"""Masked PPO for Mafia, readable top to bottom in the manner of CleanRL's ``ppo.py``.

One network plays every seat; the seat's role is in its observation (``per_team`` gives each
team its own output heads). Many games run in lockstep (`mafia_env.vector.VectorMafia`). In
each game the learner controls some seats: all of them in self-play, else one team (chosen
per game) while an opponent plays the rest: an earlier snapshot of the learner from the pool,
the rule-based bots or random play, mixed as `Config.opponents` says.

Advantages are computed per game and per seat over that seat's own decisions (GAE): a seat's
next decision is its next state, and the team's terminal reward (+1/-1/0) is credited to
each seat's last decision of the game, so an eliminated player learns from his team's result.
Decisions left pending at the end of a rollout bootstrap from the value of that seat's
current observation. Then the usual clipped-PPO update with advantage normalisation, a
normalised value target, an entropy bonus and gradient clipping.
"""

from __future__ import annotations

import copy
import hashlib
import pickle
import random
import re
import time
from collections import deque
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn as nn
import yaml
from torch.distributions.categorical import Categorical

from baselines.policy import SHIPPED, load_policy, shipped_checkpoint
from baselines.stats import wilson
from mafia_env.engine.events import OUTCOME_NAMES
from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.errors import ConfigError
from mafia_env.observe import ObsLayout
from mafia_env.variants import get_variant
from mafia_env.vector import VectorMafia

CHECKPOINT_FORMAT = "mafia_env.ppo/1"
OBS_FORMAT_VERSION = 1  # bump when the vector observation changes meaning
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
    torch_threads: int = 1
    """torch CPU threads (the games run in this process's main thread)"""
    run_dir: str = "runs"
    """where TensorBoard logs and checkpoints go"""

    # Algorithm specific arguments
    total_timesteps: int = 2_000_000
    """environment steps (every seat's decisions, the opponents' included)"""
    learning_rate: float = 2.5e-4
    """the optimizer's learning rate"""
    anneal_lr: bool = True
    """anneal the learning rate linearly to zero"""
    num_envs: int = 64
    """games stepped in lockstep"""
    num_steps: int = 128
    """lockstep steps per rollout (each gives one decision per game)"""
    gamma: float = 0.99
    """discount per own decision"""
    gae_lambda: float = 0.95
    """the lambda of generalised advantage estimation"""
    num_minibatches: int = 4
    """minibatches per epoch"""
    update_epochs: int = 4
    """epochs over each rollout"""
    norm_adv: bool = True
    """normalise advantages per minibatch"""
    norm_value: bool = True
    """learn the value of returns normalised by their running mean and deviation"""
    clip_coef: float = 0.2
    """the surrogate clipping coefficient"""
    clip_vloss: bool = True
    """clip the value loss as PPO's paper does"""
    ent_coef: float = 0.01
    """coefficient of the entropy bonus"""
    vf_coef: float = 0.5
    """coefficient of the value loss"""
    max_grad_norm: float = 0.5
    """the maximum norm of the gradient"""
    target_kl: float | None = None
    """stop an update's epochs early above this approximate KL; null: never"""
    hidden_size: int = 128
    """width of the two hidden layers the actor and the critic share"""
    per_team: bool = False
    """give each team its own actor and critic output heads"""

    # Opponents
    opponents: dict[str, float] = field(
        default_factory=lambda: {"self": 0.4, "pool": 0.2, "rule": 0.4, "random": 0.0}
    )
    """weights of the opponent kinds, drawn per game: self, pool, rule, random"""
    learner_team: str = "any"
    """the team the learner plays against an opponent: any (drawn per game), town, mafia"""
    pool_size: int = 8
    """earlier snapshots kept for the pool"""
    snapshot_every: int = 10
    """updates between snapshots added to the pool"""

    # Imitation warm start
    imitate_steps: int = 0
    """decisions of rule-bot games cloned before PPO starts (behaviour cloning; 0: none)"""
    imitate_epochs: int = 5
    """epochs over the cloned decisions"""
    imitate_lr: float = 1e-3
    """the learning rate of behaviour cloning"""

    # Evaluation and checkpoints
    greedy: bool = False
    """evaluate, and play once loaded as a bot, by the most probable legal action (not sampled)"""
    eval_opponent: str = "rule"
    """the bots to evaluate against (falls back to random where no rule bot is installed)"""
    eval_every: int = 10
    """updates between evaluations during training (0: never)"""
    eval_games: int = 200
    """games per team in each evaluation during training"""
    final_eval_games: int = 1000
    """games per team in the final evaluation"""
    checkpoint_every: int = 50
    """updates between checkpoints (the last one is always written)"""


# ------------------------------------------------------------------ configuration

_SCALAR = {"int": int, "float": float, "bool": bool, "str": str}


def _check_field(name: str, kind: str, value: Any) -> Any:
    optional = kind.endswith(" | None")
    base = kind.removesuffix(" | None")
    if value is None:
        if optional:
            return None
        raise ConfigError(f"config key {name!r} must not be null")
    if base.startswith("dict"):
        if not isinstance(value, dict):
            raise ConfigError(f"config key {name!r} must be a mapping; got {value!r}")
        return dict(value)
    want = _SCALAR[base]
    if want is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if (want is int and isinstance(value, bool)) or not isinstance(value, want):
        raise ConfigError(f"config key {name!r} must be {base}; got {value!r}")
    return value


def make_config(data: dict[str, Any] | None = None, **overrides: Any) -> Config:
    """Return a validated Config from a mapping: unknown keys and bad values are errors."""
    data = {**(data or {}), **overrides}
    allowed = {f.name: f for f in fields(Config)}
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ConfigError(
            f"unknown config key(s) {', '.join(map(repr, unknown))}; allowed keys: "
            + ", ".join(allowed)
        )
    values = {k: _check_field(k, str(allowed[k].type), v) for k, v in data.items()}
    cfg = Config(**values)
    rules = get_variant(cfg.variant).with_knobs(**cfg.knobs)  # unknown variant or knob: error
    n = rules.default_players if cfg.num_players is None else cfg.num_players
    rules.check_players(n)
    rules.role_counts(n)
    bad_kinds = sorted(set(cfg.opponents) - set(OPPONENT_KINDS))
    if bad_kinds:
        raise ConfigError(
            f"unknown opponent kind(s) {', '.join(map(repr, bad_kinds))} in 'opponents'; "
            f"kinds: {', '.join(OPPONENT_KINDS)}"
        )
    weights = list(cfg.opponents.values())
    if any(not isinstance(w, int | float) or w < 0 for w in weights) or sum(weights) <= 0:
        raise ConfigError(
            f"'opponents' weights must be non-negative numbers with a positive sum; "
            f"got {cfg.opponents!r}"
        )
    if cfg.learner_team not in LEARNER_TEAMS:
        raise ConfigError(
            f"learner_team must be one of {', '.join(LEARNER_TEAMS)}; got {cfg.learner_team!r}"
        )
    for name in ("total_timesteps", "num_envs", "num_steps", "num_minibatches"):
        if getattr(cfg, name) < 1:
            raise ConfigError(f"config key {name!r} must be >= 1; got {getattr(cfg, name)}")
    if cfg.imitate_steps < 0:
        raise ConfigError(f"config key 'imitate_steps' must be >= 0; got {cfg.imitate_steps}")
    for name in ("update_epochs", "hidden_size", "pool_size", "snapshot_every", "imitate_epochs"):
        if getattr(cfg, name) < 1:
            raise ConfigError(f"config key {name!r} must be >= 1; got {getattr(cfg, name)}")
    if not 0 < cfg.gamma <= 1 or not 0 <= cfg.gae_lambda <= 1:
        raise ConfigError("gamma must be in (0, 1] and gae_lambda in [0, 1]")
    return cfg


def load_config(path: str | Path) -> Config:
    """Read and validate a YAML run config."""
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"no config file at {path}")
    data = yaml.safe_load(path.read_text())
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a run config is a mapping of keys to values")
    try:
        return make_config(data)
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from None


# ------------------------------------------------------------------------ network


def layer_init(layer: nn.Linear, std: float = np.sqrt(2), bias_const: float = 0.0) -> nn.Linear:
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class CategoricalMasked(Categorical):
    """A categorical over the legal actions only: illegal logits are pushed to -1e8."""

    def __init__(self, logits: torch.Tensor, mask: torch.Tensor):
        self.mask = mask
        logits = torch.where(mask, logits, torch.tensor(-1e8, dtype=logits.dtype))
        super().__init__(logits=logits)

    def entropy(self) -> torch.Tensor:
        p_log_p = self.logits * self.probs
        p_log_p = torch.where(self.mask, p_log_p, torch.zeros_like(p_log_p))
        return -p_log_p.sum(-1)


def team_matrix(rules_variant: str, knobs: dict[str, Any]) -> np.ndarray:
    """Return the [roles, teams] one-hot matrix mapping the observed role to its team."""
    roles = get_variant(rules_variant).with_knobs(**knobs).roles_in_play()
    m = np.zeros((len(roles), len(TEAM_NAMES)), dtype=np.float32)
    for i, r in enumerate(roles):
        m[i, int(r.team)] = 1
    return m


class Agent(nn.Module):
    """An MLP trunk shared by the actor and critic heads; optional per-team heads."""

    def __init__(
        self,
        obs_size: int,
        action_size: int,
        hidden: int,
        role_slice: tuple[int, int],
        teams: np.ndarray,
        per_team: bool,
    ):
        super().__init__()
        self.action_size = action_size
        self.heads = teams.shape[1] if per_team else 1
        self.role_slice = role_slice
        self.register_buffer("teams", torch.from_numpy(teams))
        self.register_buffer("ret_mean", torch.zeros(()))
        self.register_buffer("ret_std", torch.ones(()))
        self.trunk = nn.Sequential(
            layer_init(nn.Linear(obs_size, hidden)),
            nn.Tanh(),
            layer_init(nn.Linear(hidden, hidden)),
            nn.Tanh(),
        )
        self.critic = layer_init(nn.Linear(hidden, self.heads), std=1.0)
        self.actor = layer_init(nn.Linear(hidden, action_size * self.heads), std=0.01)

    def _head(self, x: torch.Tensor) -> torch.Tensor:
        """Return each row's team index (0 without per-team heads)."""
        if self.heads == 1:
            return torch.zeros(x.shape[0], dtype=torch.long)
        a, b = self.role_slice
        return (x[:, a:b] @ self.teams).argmax(dim=1)

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        """Return the normalised value of each observation."""
        return self._value(self.trunk(x), self._head(x))

    def _value(self, h: torch.Tensor, head: torch.Tensor) -> torch.Tensor:
        return self.critic(h).gather(1, head[:, None]).squeeze(1)

    def denorm(self, v: torch.Tensor) -> torch.Tensor:
        return v * self.ret_std + self.ret_mean

    def _logits(self, h: torch.Tensor, head: torch.Tensor) -> torch.Tensor:
        out = self.actor(h)
        if self.heads == 1:
            return out
        out = out.view(h.shape[0], self.heads, self.action_size)
        return out[torch.arange(h.shape[0]), head]

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        return self._logits(self.trunk(x), self._head(x))

    def get_action_and_value(
        self,
        x: torch.Tensor,
        mask: torch.Tensor,
        action: torch.Tensor | None = None,
        generator: torch.Generator | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        h, head = self.trunk(x), self._head(x)
        probs = CategoricalMasked(self._logits(h, head), mask)
        if action is None:
            action = torch.multinomial(probs.probs, 1, generator=generator).squeeze(1)
        return action, probs.log_prob(action), probs.entropy(), self._value(h, head)


def make_agent(cfg: Config, obs_size: int, action_size: int) -> Agent:
    rules = get_variant(cfg.variant).with_knobs(**cfg.knobs)
    n = rules.default_players if cfg.num_players is None else cfg.num_players
    layout = ObsLayout(rules, n)
    start = layout.index("role")
    role_slice = (start, start + len(rules.roles_in_play()))
    return Agent(
        obs_size,
        action_size,
        cfg.hidden_size,
        role_slice,
        team_matrix(cfg.variant, cfg.knobs),
        cfg.per_team,
    )


def obs_signature(layout: ObsLayout) -> str:
    """Return a short hash of the observation's pieces (names and shapes)."""
    text = ";".join(f"{name}{shape}" for name, shape in layout.private + layout.public)
    return hashlib.sha1(text.encode()).hexdigest()[:12]


# -------------------------------------------------------------- checkpoints, policy


def save_checkpoint(
    path: str | Path,
    agent: Agent,
    cfg: Config,
    vec: VectorMafia,
    extra: dict[str, Any] | None = None,
) -> None:
    """Write weights, config, variant, table size, sizes and observation format."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(
        {
            "format": CHECKPOINT_FORMAT,
            "obs_format_version": OBS_FORMAT_VERSION,
            "obs_signature": obs_signature(vec.obs_layout),
            "variant": vec.variant,
            "num_players": vec.n,
            "obs_size": vec.obs_size,
            "action_size": vec.action_size,
            "config": asdict(cfg),
            "model": agent.state_dict(),
            **(extra or {}),
        },
        path,
    )


def read_checkpoint(
    path: str | Path, variant: str | None = None, num_players: int | None = None
) -> dict[str, Any]:
    """Load a checkpoint, refusing one made for another variant, table size or obs format."""
    path = Path(path)
    try:  # weights only: unpickling anything else could run code from the file
        ckpt = torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as e:
        found = re.search(r"Unsupported global: GLOBAL (\S+)", str(e))
        raise ConfigError(
            f"cannot read checkpoint {path}: it is not a weights-only file"
            + (
                f" (it holds {found.group(1)}, which is neither a tensor nor plain data)"
                if found
                else ""
            )
            + "; checkpoints are loaded with torch.load(weights_only=True), which reads "
            "tensors and plain data only: save one with baselines.ppo.save_checkpoint"
        ) from None
    except Exception as e:  # a truncated file, not a torch file
        raise ConfigError(f"cannot read checkpoint {path}: {e}") from None
    if not isinstance(ckpt, dict) or ckpt.get("format") != CHECKPOINT_FORMAT:
        raise ConfigError(f"{path} is not a mafia_env PPO checkpoint ({CHECKPOINT_FORMAT})")
    trained = f"variant {ckpt['variant']!r} with {ckpt['num_players']} players"
    if variant is not None and variant != ckpt["variant"]:
        raise ConfigError(
            f"checkpoint {path} was trained on {trained}; it cannot play variant {variant!r}"
        )
    rules = get_variant(ckpt["variant"]).with_knobs(**ckpt["config"]["knobs"])
    n = ckpt["num_players"] if num_players is None else num_players
    if n != ckpt["num_players"]:
        raise ConfigError(
            f"checkpoint {path} was trained on {trained}; it cannot play a table of {n}"
        )
    layout = ObsLayout(rules, n)
    if (
        ckpt["obs_format_version"] != OBS_FORMAT_VERSION
        or ckpt["obs_signature"] != obs_signature(layout)
        or ckpt["obs_size"] != layout.size
    ):
        raise ConfigError(
            f"checkpoint {path} was made for observation format "
            f"v{ckpt['obs_format_version']} ({ckpt['obs_signature']}, {ckpt['obs_size']} "
            f"floats); this mafia_env encodes v{OBS_FORMAT_VERSION} "
            f"({obs_signature(layout)}, {layout.size} floats): retrain it"
        )
    return ckpt


class PPOPolicy:
    """A trained PPO agent behind the `Policy` protocol (samples from the masked policy)."""

    def __init__(self, ckpt: dict[str, Any], seed: int = 0, deterministic: bool | None = None):
        cfg = make_config(ckpt["config"])
        if deterministic is None:  # as the run was evaluated
            deterministic = cfg.greedy
        self.variant = ckpt["variant"]
        self.num_players = ckpt["num_players"]
        self.agent = make_agent(cfg, ckpt["obs_size"], ckpt["action_size"])
        self.agent.load_state_dict(ckpt["model"])
        self.agent.eval()
        self.deterministic = deterministic
        self.seed(seed)

    @classmethod
    def from_agent(cls, agent: Agent, seed: int = 0, deterministic: bool = False) -> PPOPolicy:
        self = cls.__new__(cls)
        self.agent, self.deterministic = agent, deterministic
        self.variant, self.num_players = None, None
        self.seed(seed)
        return self

    def seed(self, seed: int) -> None:
        """Restart the policy's sampling stream."""
        self.generator = torch.Generator().manual_seed(seed)

    @torch.no_grad()
    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        x = torch.as_tensor(np.asarray(obs, dtype=np.float32))
        m = torch.as_tensor(np.asarray(masks)) > 0
        if not bool(m.any(dim=1).all()):
            raise ValueError("a mask allows no action")
        if self.deterministic:
            logits = torch.where(m, self.agent.logits(x), torch.tensor(-1e8))
            return logits.argmax(dim=1).numpy()
        probs = CategoricalMasked(self.agent.logits(x), m).probs
        return torch.multinomial(probs, 1, generator=self.generator).squeeze(1).numpy()

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(self.act_batch(np.asarray(obs)[None], np.asarray(mask)[None])[0])


def load_checkpoint_policy(
    path: str | Path, variant: str = "sport", num_players: int | None = None, seed: int = 0
) -> PPOPolicy:
    """`load_policy("path/to/file.pt", variant=...)`: refuse another variant or table size."""
    if num_players is None:
        num_players = get_variant(variant).default_players
    return PPOPolicy(read_checkpoint(path, variant, num_players), seed=seed)


def load_shipped_policy(
    variant: str = "sport", num_players: int | None = None, seed: int = 0
) -> PPOPolicy:
    """`load_policy("ppo", variant=...)`: the checkpoint shipped for the variant.

    A table size of its own (``city-13.pt``) is preferred to the variant's default one.
    """
    path = shipped_checkpoint(variant, num_players)
    if not path.exists():
        shipped = sorted(p.stem for p in SHIPPED.glob("*.pt"))
        raise ConfigError(
            f"no PPO checkpoint is shipped for variant {variant!r}; shipped: "
            + (", ".join(shipped) or "none")
        )
    return load_checkpoint_policy(path, variant, num_players, seed)


def opponent_policy(kind: str, variant: str, n: int, seed: int) -> tuple[Any, str]:
    """Return a bot policy and its name; "rule" falls back to random until rule bots exist."""
    try:
        return load_policy(kind, variant=variant, num_players=n, seed=seed), kind
    except ConfigError:
        if kind != "rule":
            raise
        return load_policy("random", variant=variant, num_players=n, seed=seed), "random"


# ---------------------------------------------------------------------- evaluation


def play_games(
    variant: str,
    num_players: int | None,
    team_policies: dict[str, Any],
    others: Any,
    games: int,
    seed: int = 0,
    num_envs: int = 64,
    knobs: dict[str, Any] | None = None,
) -> dict[str, int]:
    """Play `games` games, a policy per named team and `others` for the rest; count outcomes.

    The games counted are the first `games` dealt, each played to its end, so short games
    are not favoured.
    """
    vec = VectorMafia(variant, min(num_envs, games), num_players, seed=seed, **(knobs or {}))
    obs, masks, info = vec.reset()
    counts = dict.fromkeys(OUTCOME_NAMES, 0)
    started = vec.num_envs
    active = np.ones(vec.num_envs, dtype=bool)  # slots whose current game counts
    actions = np.zeros(vec.num_envs, dtype=np.int64)
    chosen = {TEAM_NAMES.index(t): p for t, p in team_policies.items()}
    finished = 0
    while finished < games:
        team = info["team"]
        rest = np.ones(vec.num_envs, dtype=bool)
        for t, pol in chosen.items():
            rows = team == t
            rest &= ~rows
            if rows.any():
                actions[rows] = pol.act_batch(obs[rows], masks[rows])
        if rest.any():
            actions[rest] = others.act_batch(obs[rest], masks[rest])
        obs, masks, _, dones, info = vec.step(actions)
        for b in np.flatnonzero(dones):
            if active[b]:
                counts[OUTCOME_NAMES[info["winner"][b]]] += 1
                finished += 1
            if started < games:
                started += 1
            else:
                active[b] = False
    return counts


def evaluate(
    policy: Any,
    bots: Any,
    variant: str,
    num_players: int | None,
    games: int,
    seed: int = 0,
    knobs: dict[str, Any] | None = None,
    baseline: bool = False,
) -> dict[str, dict[str, Any]]:
    """Return the policy's win rate (with a Wilson interval) as town and as mafia vs `bots`.

    With ``baseline=True`` each entry also holds the bots' own win rate for that team in
    games of bots against bots (``bot_rate``, ``bot_lo``, ``bot_hi``) and ``better``: whether
    the policy's interval lies wholly above the bots'.
    """
    out = {}
    for team in ("town", "mafia"):
        counts = play_games(variant, num_players, {team: policy}, bots, games, seed, knobs=knobs)
        out[team] = _rate(counts[team], games)
    if baseline:
        counts = play_games(variant, num_players, {}, bots, games, seed, knobs=knobs)
        for team in ("town", "mafia"):
            bot = _rate(counts[team], games)
            out[team].update({f"bot_{k}": v for k, v in bot.items()})
            out[team]["better"] = out[team]["lo"] > bot["hi"]
    return out


def _rate(wins: int, games: int) -> dict[str, Any]:
    lo, hi = wilson(wins, games)
    return {"wins": wins, "games": games, "rate": wins / games, "lo": lo, "hi": hi}


def seat_gae(
    values: np.ndarray,
    learn: np.ndarray,
    seats: np.ndarray,
    dones: np.ndarray,
    rewards: np.ndarray,
    bootstrap: np.ndarray,
    gamma: float,
    lam: float,
) -> np.ndarray:
    """Return GAE advantages [T, B] over each (game, seat)'s own decisions.

    Step t of game b is a decision of seat ``seats[t, b]`` (counted where ``learn[t, b]``);
    its successor is the same seat's next decision in the same game. ``dones[t, b]`` says the
    move at t ended game b, and ``rewards[t, b]`` holds every seat's terminal reward: it is
    credited to each seat's last decision of that game, however long ago the seat was
    eliminated. Games still running at the end bootstrap from ``bootstrap[b, seat]``.
    """
    T, B = values.shape
    adv_buf = np.zeros((T, B), dtype=np.float32)
    next_value = bootstrap.astype(np.float32).copy()
    next_adv = np.zeros_like(next_value)
    next_term = np.zeros(next_value.shape, dtype=bool)
    next_rew = np.zeros_like(next_value)
    for t in reversed(range(T)):
        d = dones[t]
        if d.any():  # the move at t ended these games: each seat's last decision in them
            next_term[d] = True  # gets the team reward, and nothing follows it
            next_rew[d] = rewards[t, d]
            next_value[d] = 0
            next_adv[d] = 0
        b = np.flatnonzero(learn[t])
        s = seats[t, b]
        v = values[t, b]
        term = next_term[b, s]
        delta = np.where(term, next_rew[b, s], gamma * next_value[b, s]) - v
        adv = delta + np.where(term, 0.0, gamma * lam * next_adv[b, s])
        adv_buf[t, b] = adv
        next_value[b, s] = v
        next_adv[b, s] = adv
        next_term[b, s] = False
        next_rew[b, s] = 0
    return adv_buf


# ------------------------------------------------------------------ imitation


def imitate(agent: Agent, cfg: Config, teacher: Any, log: Any = print, writer: Any = None) -> float:
    """Behaviour cloning: fit the actor to `teacher`'s moves and the critic to their results.

    The teacher plays every seat of ``cfg.imitate_steps`` decisions' worth of games; the actor
    learns the teacher's move (cross-entropy over the legal actions) and the critic each
    decision's discounted team result, so that PPO starts from a player as good as the
    teacher with a critic that already knows what a position is worth. Returns the actor's
    accuracy on the cloned decisions in the last epoch.
    """
    vec = VectorMafia(cfg.variant, cfg.num_envs, cfg.num_players, seed=cfg.seed + 7, **cfg.knobs)
    N, B = cfg.imitate_steps, vec.num_envs
    X = np.zeros((N, vec.obs_size), dtype=np.float32)
    M = np.zeros((N, vec.action_size), dtype=bool)
    Y = np.zeros(N, dtype=np.int64)
    G = np.zeros(N, dtype=np.float32)  # discounted result of the mover's team
    rows: list[list[list[int]]] = [[[] for _ in range(vec.n)] for _ in range(B)]
    obs, masks, info = vec.reset()
    i = pending = 0
    while i < N or pending:  # then play on until every recorded game has its result
        actions = teacher.act_batch(obs, masks)
        k = min(B, N - i)
        if k > 0:
            X[i : i + k], M[i : i + k], Y[i : i + k] = obs[:k], masks[:k] > 0, actions[:k]
            for b in range(k):
                rows[b][int(info["seat"][b])].append(i + b)
            i += k
            pending += k
        obs, masks, rewards, dones, info = vec.step(actions)
        for b in np.flatnonzero(dones):
            for s, seat_rows in enumerate(rows[b]):
                back = np.arange(len(seat_rows))[::-1]  # own decisions still to come
                G[seat_rows] = rewards[b, s] * cfg.gamma**back
                pending -= len(seat_rows)
                seat_rows.clear()
    optimizer = torch.optim.Adam(agent.parameters(), lr=cfg.imitate_lr, eps=1e-5)
    tx, tm, ty, tg = map(torch.from_numpy, (X, M, Y, G))
    acc = 0.0
    for epoch in range(cfg.imitate_epochs):
        order = torch.randperm(N)
        loss_sum = hits = 0.0
        for mb in order.split(1024):
            h, head = agent.trunk(tx[mb]), agent._head(tx[mb])
            dist = CategoricalMasked(agent._logits(h, head), tm[mb])
            pi_loss = -dist.log_prob(ty[mb]).mean()
            v_loss = 0.5 * ((agent._value(h, head) - tg[mb]) ** 2).mean()
            optimizer.zero_grad()
            (pi_loss + cfg.vf_coef * v_loss).backward()
            nn.utils.clip_grad_norm_(agent.parameters(), cfg.max_grad_norm)
            optimizer.step()
            loss_sum += pi_loss.item() * len(mb)
            hits += (dist.logits.argmax(1) == ty[mb]).sum().item()
        acc = hits / N
        log(
            f"imitation epoch {epoch + 1}/{cfg.imitate_epochs}: loss {loss_sum / N:.4f}, "
            f"accuracy {acc:.3f} on {N} decisions"
        )
        if writer is not None:
            writer.add_scalar("imitation/loss", loss_sum / N, epoch + 1)
            writer.add_scalar("imitation/accuracy", acc, epoch + 1)
    return acc


# -------------------------------------------------------------------------- training


def train(
    cfg: Config,
    resume: str | Path | None = None,
    log: Any = print,
) -> dict[str, Any]:
    """Train as `cfg` says; return the run's paths, final evaluation and learning curve."""
    from torch.utils.tensorboard import SummaryWriter

    run_name = f"{cfg.exp_name}_{cfg.variant}_{cfg.seed}"
    run_dir = Path(cfg.run_dir) / run_name
    writer = SummaryWriter(str(run_dir))
    writer.add_text(
        "hyperparameters",
        "|param|value|\n|-|-|\n" + "\n".join(f"|{k}|{v}|" for k, v in asdict(cfg).items()),
    )
    random.seed(cfg.seed)
    np.random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.torch_threads)
    gen = torch.Generator().manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)

    # env setup
    vec = VectorMafia(cfg.variant, cfg.num_envs, cfg.num_players, seed=cfg.seed, **cfg.knobs)
    B, T, n = cfg.num_envs, cfg.num_steps, vec.n
    agent = make_agent(cfg, vec.obs_size, vec.action_size)
    optimizer = torch.optim.Adam(agent.parameters(), lr=cfg.learning_rate, eps=1e-5)
    num_updates = max(1, cfg.total_timesteps // (B * T))
    start_update, global_step = 1, 0
    pool: list[dict[str, torch.Tensor]] = []
    curve: list[dict[str, Any]] = []
    if resume is not None:
        ckpt = read_checkpoint(resume, cfg.variant, vec.n)
        agent.load_state_dict(ckpt["model"])
        if "optimizer" in ckpt:
            optimizer.load_state_dict(ckpt["optimizer"])
        start_update = ckpt.get("update", 0) + 1
        global_step = ckpt.get("global_step", 0)
        pool = ckpt.get("pool", [])
        curve = ckpt.get("curve", [])
        log(f"resumed from {resume} at update {start_update - 1}, step {global_step}")
    elif cfg.imitate_steps:
        teacher, name = opponent_policy("rule", cfg.variant, n, cfg.seed)
        log(f"imitating the {name} bots over {cfg.imitate_steps} decisions")
        imitate(agent, cfg, teacher, log, writer)
    if not pool:
        pool.append(copy.deepcopy(agent.state_dict()))
    pool_agent = copy.deepcopy(agent)
    kinds = [k for k in OPPONENT_KINDS if cfg.opponents.get(k, 0) > 0]
    weights = np.array([cfg.opponents[k] for k in kinds], dtype=np.float64)
    weights /= weights.sum()
    bots = {}
    for k in ("rule", "random"):
        if k in kinds or cfg.eval_opponent == k:
            bots[k] = opponent_policy(k, cfg.variant, n, cfg.seed)
    label = {k: bots[k][1] if k in bots else k for k in kinds}  # "rule" may be random
    if "random" in kinds and label.get("rule") == "random":
        label["rule"] = "rule_fallback_random"
    eval_bot, eval_name = opponent_policy(cfg.eval_opponent, cfg.variant, n, cfg.seed + 1)
    if eval_name != cfg.eval_opponent or bots.get("rule", (None, "rule"))[1] != "rule":
        log("no rule-based bots are installed: playing and evaluating against random instead")

    # rollout storage (every game's actor each step; learner rows are marked)
    obs_buf = np.zeros((T, B, vec.obs_size), dtype=np.float32)
    mask_buf = np.zeros((T, B, vec.action_size), dtype=bool)
    act_buf = np.zeros((T, B), dtype=np.int64)
    logp_buf = np.zeros((T, B), dtype=np.float32)
    val_buf = np.zeros((T, B), dtype=np.float32)
    learn_buf = np.zeros((T, B), dtype=bool)
    seat_buf = np.zeros((T, B), dtype=np.int64)
    done_buf = np.zeros((T, B), dtype=bool)
    rew_buf = np.zeros((T, B, n), dtype=np.float32)
    # per game: the opponent kind and which seats the learner plays
    opp_kind = np.zeros(B, dtype=np.int64)
    learner_seat = np.zeros((B, n), dtype=bool)
    learner_team = np.zeros(B, dtype=np.int64)
    window = {(k, t): deque(maxlen=500) for k in kinds for t in ("town", "mafia")}
    returns_window: deque[float] = deque(maxlen=500)
    lengths_window: deque[int] = deque(maxlen=500)
    game_len = np.zeros(B, dtype=np.int64)

    def assign(b: int, teams: np.ndarray) -> None:
        k = int(rng.choice(len(kinds), p=weights))
        opp_kind[b] = k
        if kinds[k] == "self":
            learner_seat[b] = True
            learner_team[b] = -1
            return
        team = cfg.learner_team
        t = int(rng.integers(2)) if team == "any" else TEAM_NAMES.index(team)
        learner_team[b] = t
        learner_seat[b] = teams == t

    def run_eval(update: int) -> dict[str, Any]:
        agent.eval()
        res = evaluate(
            PPOPolicy.from_agent(agent, cfg.seed + update, cfg.greedy),
            eval_bot,
            cfg.variant,
            vec.n,
            cfg.eval_games,
            seed=10_000 + update,
            knobs=cfg.knobs,
        )
        agent.train()
        point = {"update": update, "step": global_step}
        for team, r in res.items():
            writer.add_scalar(f"eval/winrate_{team}_vs_{eval_name}", r["rate"], global_step)
            point[team] = r["rate"]
        curve.append(point)
        log(
            f"eval @ step {global_step}: town {res['town']['rate']:.3f}, "
            f"mafia {res['mafia']['rate']:.3f} vs {eval_name} ({cfg.eval_games} games each)"
        )
        return res

    def checkpoint(path: Path, update: int) -> None:
        save_checkpoint(
            path,
            agent,
            cfg,
            vec,
            {
                "optimizer": optimizer.state_dict(),
                "update": update,
                "global_step": global_step,
                "pool": pool,
                "curve": curve,
            },
        )

    obs, masks, info = vec.reset()
    for b in range(B):
        assign(b, info["teams"][b])
    if start_update == 1 and cfg.eval_every:
        run_eval(0)
    start_time, start_step, start_cpu = time.time(), global_step, time.process_time()
    rows = np.arange(B)
    update = start_update - 1
    for update in range(start_update, num_updates + 1):
        if cfg.anneal_lr:
            frac = 1.0 - (update - 1.0) / num_updates
            optimizer.param_groups[0]["lr"] = frac * cfg.learning_rate
        pool_agent.load_state_dict(pool[int(rng.integers(len(pool)))])
        pool_kind = kinds.index("pool") if "pool" in kinds else -1

        # ALGO LOGIC: rollout, every game's acting seat, learner seats through the agent
        with torch.no_grad():
            for step in range(T):
                global_step += B
                seat = info["seat"]
                learn = learner_seat[rows, seat]
                obs_buf[step] = obs
                mask_buf[step] = masks
                seat_buf[step] = seat
                learn_buf[step] = learn
                actions = act_buf[step]
                li = np.flatnonzero(learn)
                if li.size:
                    x = torch.from_numpy(obs[li])
                    m = torch.from_numpy(mask_buf[step, li])
                    a, logp, _, v = agent.get_action_and_value(x, m, generator=gen)
                    actions[li] = a.numpy()
                    logp_buf[step, li] = logp.numpy()
                    val_buf[step, li] = agent.denorm(v).numpy()
                for k, kind in enumerate(kinds):
                    oi = np.flatnonzero(~learn & (opp_kind == k))
                    if not oi.size:
                        continue
                    if k == pool_kind:
                        x = torch.from_numpy(obs[oi])
                        m = torch.from_numpy(mask_buf[step, oi])
                        a, _, _, _ = pool_agent.get_action_and_value(x, m, generator=gen)
                        actions[oi] = a.numpy()
                    else:
                        actions[oi] = bots[kind][0].act_batch(obs[oi], masks[oi])
                obs, masks, rewards, dones, info = vec.step(actions)
                done_buf[step] = dones
                rew_buf[step] = rewards
                game_len += 1
                for b in np.flatnonzero(dones):
                    kind = kinds[opp_kind[b]]
                    teams = info["done_teams"][b]
                    lengths_window.append(int(game_len[b]))
                    game_len[b] = 0
                    for t in (0, 1):  # win rate of the learner's team, per opponent kind
                        if kind == "self" or learner_team[b] == t:
                            won = float(rewards[b][teams == t][0] > 0)
                            window[(kind, TEAM_NAMES[t])].append(won)
                    if kind != "self":
                        returns_window.append(float(rewards[b][teams == learner_team[b]][0]))
                    assign(b, info["teams"][b])

            # bootstrap: the value of each learner seat's current view, where its game goes on
            boot = np.zeros((B, n), dtype=np.float32)
            bs = np.argwhere(learner_seat)
            if len(bs):
                views = np.stack([vec.observe(int(b), int(s)) for b, s in bs])
                boot[bs[:, 0], bs[:, 1]] = agent.denorm(
                    agent.get_value(torch.from_numpy(views))
                ).numpy()

        # ALGO LOGIC: GAE over each seat's own decisions, per game, scanned backwards
        adv_buf = seat_gae(
            val_buf, learn_buf, seat_buf, done_buf, rew_buf, boot, cfg.gamma, cfg.gae_lambda
        )
        ret_buf = adv_buf + val_buf

        # flatten the learner's decisions
        sel = learn_buf.reshape(-1)
        b_obs = torch.from_numpy(obs_buf.reshape(-1, vec.obs_size)[sel])
        b_masks = torch.from_numpy(mask_buf.reshape(-1, vec.action_size)[sel])
        b_actions = torch.from_numpy(act_buf.reshape(-1)[sel])
        b_logprobs = torch.from_numpy(logp_buf.reshape(-1)[sel])
        b_advantages = torch.from_numpy(adv_buf.reshape(-1)[sel])
        b_returns = torch.from_numpy(ret_buf.reshape(-1)[sel])
        b_values = torch.from_numpy(val_buf.reshape(-1)[sel])
        if cfg.norm_value:  # value normalisation: the critic learns standardised returns
            agent.ret_mean.mul_(0.99).add_(0.01 * b_returns.mean())
            var = agent.ret_std.pow(2).mul(0.99).add(0.01 * b_returns.var())
            agent.ret_std.copy_(var.sqrt().clamp(min=1e-2))
        mean, std = agent.ret_mean, agent.ret_std
        b_returns_n = (b_returns - mean) / std
        b_values_n = (b_values - mean) / std

        # ALGO LOGIC: PPO update
        batch_size = int(sel.sum())
        b_inds = np.arange(batch_size)
        clipfracs = []
        pg_loss = v_loss = entropy_loss = old_approx_kl = approx_kl = torch.zeros(())
        for _epoch in range(cfg.update_epochs):
            rng.shuffle(b_inds)
            for mb_inds in np.array_split(b_inds, cfg.num_minibatches):
                if mb_inds.size < 2:
                    continue
                mb = torch.from_numpy(mb_inds)
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(
                    b_obs[mb], b_masks[mb], b_actions[mb]
                )
                logratio = newlogprob - b_logprobs[mb]
                ratio = logratio.exp()
                with torch.no_grad():
                    old_approx_kl = (-logratio).mean()
                    approx_kl = ((ratio - 1) - logratio).mean()
                    clipfracs += [((ratio - 1.0).abs() > cfg.clip_coef).float().mean().item()]
                mb_adv = b_advantages[mb]
                if cfg.norm_adv:
                    mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                # policy loss
                pg_loss1 = -mb_adv * ratio
                pg_loss2 = -mb_adv * torch.clamp(ratio, 1 - cfg.clip_coef, 1 + cfg.clip_coef)
                pg_loss = torch.max(pg_loss1, pg_loss2).mean()
                # value loss
                if cfg.clip_vloss:
                    v_loss_unclipped = (newvalue - b_returns_n[mb]) ** 2
                    v_clipped = b_values_n[mb] + torch.clamp(
                        newvalue - b_values_n[mb], -cfg.clip_coef, cfg.clip_coef
                    )
                    v_loss_clipped = (v_clipped - b_returns_n[mb]) ** 2
                    v_loss = 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()
                else:
                    v_loss = 0.5 * ((newvalue - b_returns_n[mb]) ** 2).mean()
                entropy_loss = entropy.mean()
                loss = pg_loss - cfg.ent_coef * entropy_loss + v_loss * cfg.vf_coef
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), cfg.max_grad_norm)
                optimizer.step()
            if cfg.target_kl is not None and approx_kl > cfg.target_kl:
                break

        y_pred, y_true = b_values.numpy(), b_returns.numpy()
        var_y = np.var(y_true)
        explained_var = np.nan if var_y == 0 else 1 - np.var(y_true - y_pred) / var_y

        # TRY NOT TO MODIFY: record rewards for plotting purposes
        sps = int((global_step - start_step) / (time.time() - start_time))
        writer.add_scalar("charts/learning_rate", optimizer.param_groups[0]["lr"], global_step)
        writer.add_scalar("charts/SPS", sps, global_step)
        # steps per second of this process's own CPU time: the speed on an unshared core
        cpu_sps = int((global_step - start_step) / max(time.process_time() - start_cpu, 1e-9))
        writer.add_scalar("charts/SPS_cpu", cpu_sps, global_step)
        writer.add_scalar("charts/learner_decisions", batch_size, global_step)
        if returns_window:
            writer.add_scalar("charts/episodic_return", np.mean(returns_window), global_step)
        if lengths_window:
            writer.add_scalar("charts/episodic_length", np.mean(lengths_window), global_step)
        for (kind, team), w in window.items():
            if w:
                name = f"charts/winrate_{team}_vs_{label[kind]}"
                writer.add_scalar(name, np.mean(w), global_step)
        writer.add_scalar("losses/value_loss", v_loss.item(), global_step)
        writer.add_scalar("losses/policy_loss", pg_loss.item(), global_step)
        writer.add_scalar("losses/entropy", entropy_loss.item(), global_step)
        writer.add_scalar("losses/old_approx_kl", old_approx_kl.item(), global_step)
        writer.add_scalar("losses/approx_kl", approx_kl.item(), global_step)
        writer.add_scalar("losses/clipfrac", np.mean(clipfracs) if clipfracs else 0, global_step)
        writer.add_scalar("losses/explained_variance", explained_var, global_step)

        if update % cfg.snapshot_every == 0:
            pool.append(copy.deepcopy(agent.state_dict()))
            del pool[: -cfg.pool_size]
        if cfg.eval_every and update % cfg.eval_every == 0:
            run_eval(update)
        if update % 10 == 0 or update == num_updates:
            wr = " ".join(
                f"{team}/{label[kind]} {np.mean(w):.2f}" for (kind, team), w in window.items() if w
            )
            log(f"update {update}/{num_updates} step {global_step} SPS {sps} win: {wr}")
        if update % cfg.checkpoint_every == 0:
            checkpoint(run_dir / "checkpoint.pt", update)

    checkpoint(run_dir / "checkpoint.pt", update)
    save_checkpoint(run_dir / "agent.pt", agent, cfg, vec)  # weights only: small, to ship
    train_sps = int((global_step - start_step) / max(time.time() - start_time, 1e-9))
    cpu_sps = int((global_step - start_step) / max(time.process_time() - start_cpu, 1e-9))
    agent.eval()
    final = evaluate(
        PPOPolicy.from_agent(agent, cfg.seed, cfg.greedy),
        eval_bot,
        cfg.variant,
        vec.n,
        cfg.final_eval_games,
        seed=999,
        knobs=cfg.knobs,
        baseline=True,
    )
    for team, r in final.items():
        writer.add_scalar(f"eval/final_winrate_{team}_vs_{eval_name}", r["rate"], global_step)
    writer.close()
    return {
        "run_dir": str(run_dir),
        "checkpoint": str(run_dir / "checkpoint.pt"),
        "agent": str(run_dir / "agent.pt"),
        "eval_opponent": eval_name,
        "final": final,
        "curve": curve,
        "sps": train_sps,
        "cpu_sps": cpu_sps,
        "global_step": global_step,
    }


__all__ = [
    "Agent",
    "CategoricalMasked",
    "Config",
    "PPOPolicy",
    "evaluate",
    "load_checkpoint_policy",
    "load_config",
    "load_shipped_policy",
    "make_config",
    "play_games",
    "read_checkpoint",
    "save_checkpoint",
    "seat_gae",
    "train",
    "wilson",
]
