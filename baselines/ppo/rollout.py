"""The pieces of PPO that the trainer, the league's exploiters and `baselines.exploit` share.

`Opponents` says who plays against the learner in each game, `Rollout` plays the games in
lockstep and keeps one rollout's buffers (with per-seat GAE, `seat_gae`), `ppo_update` is the
clipped-PPO update, and `train_against` puts them together to train a best response to one
frozen policy. `baselines.ppo.ppo_train.train` reads top to bottom with them, CleanRL style.

Advantages are computed per game and per seat over that seat's own decisions (GAE): a seat's
next decision is its next state, and the team's terminal reward (+1/-1/0) is credited to
each seat's last decision of the game, so an eliminated player learns from his team's result.
Decisions left pending at the end of a rollout bootstrap from the value of that seat's
current observation.
"""

from __future__ import annotations

import math
import warnings
from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
import torch.nn as nn

from baselines.ppo.agent import Agent, SparseRows
from baselines.ppo.evaluate import opponent_policy
from baselines.ppo.ppo_config import Config
from mafia_env.commands import progress
from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.errors import ConfigError
from mafia_env.seat_obs import fit, vector_env
from mafia_env.seating.policies import Policy, observes
from mafia_env.vector import VectorMafia

SIDES = ("town", "mafia")
_TOWN, _MAFIA = TEAM_NAMES.index("town"), TEAM_NAMES.index("mafia")


def grouped(
    plays: list[tuple[Any, np.ndarray]],
) -> list[tuple[Any, np.ndarray, tuple[tuple[Any, ...], np.ndarray] | None]]:
    """`plays` (policy, rows) as calls: the rows of rule bots that decide a batch together
    (equal `RulePolicy.mix_key`: the zoo's styles of one shape) joined into one call of the
    first of them, ``act_styles`` with each row's style; (policy, rows, None) for the rest.
    A league of the zoo's styles has each in a few of a step's games: one call a step
    instead of one a style."""
    groups: dict[Any, list[tuple[Any, np.ndarray]]] = {}  # in the order first met
    for policy, rows in plays:
        if rows.size:
            key_of = getattr(policy, "mix_key", None)
            key = key_of() if key_of is not None else object()  # (else a call of its own)
            groups.setdefault(key, []).append((policy, rows))
    out = []
    for group in groups.values():
        if len(group) == 1:
            out.append((*group[0], None))
        else:
            styles = tuple(p.style for p, _ in group)
            rows = np.concatenate([r for _, r in group])
            index = np.repeat(np.arange(len(group)), [len(r) for _, r in group])
            out.append((group[0][0], rows, (styles, index)))
    return out


class Opponents:
    """Who plays against the learner in each of `B` games: a member drawn per game by weight.

    A member is a name and a policy; the policy None is the learner itself in every seat
    (self-play). ``game[b]`` names game b's member, ``learner_seat[b]`` marks the seats the
    learner plays and ``learner_team[b]`` the team it is scored as (-1: self-play). Against
    a member the learner plays one team, `team` ("any": drawn per game), or with `against`
    every seat not of that team (the maniac's too). ``windows[(member, team)]`` holds the
    learner's last results against the member (1: won). In a share `mixed` of the games
    against a member (without `against`), the learner holds only `share` of its team's seats
    (at least one, drawn per game) and the member plays the rest of the team too: a mixed
    table, as the robustness benchmark's ``half-style`` (``half-rule`` against the rule bots).
    With `mates` (a policy, `set_mates`), in a share `mates_share` of the mixed tables (drawn
    per game) the rest of the learner's team is `mates`' instead, the other teams the
    member's: the benchmark's ``half-rule`` tables against a style, where `mates` is the rule
    bots. ``mate_seat[b]`` marks the seats `mates` plays.
    """

    def __init__(
        self,
        n: int,
        B: int,
        rng: np.random.Generator,
        team: str = "any",
        against: str | None = None,
        window: int = 500,
        mixed: float = 0.0,
        share: float = 0.5,
    ):
        self.rng, self.team, self.window = rng, team, window
        self.mixed, self.share = mixed, share
        self.against = None if against is None else TEAM_NAMES.index(against)
        self.players: dict[str, Policy | None] = {}  # every member a game may still be playing
        self.weights: dict[str, float] = {}  # the members drawn from, by weight
        self.windows: dict[tuple[str, str], deque[float]] = {}
        self.game = [""] * B
        self.learner_seat = np.zeros((B, n), dtype=bool)
        self.learner_team = np.zeros(B, dtype=np.int64)
        self._names: list[str] = []
        self._p = np.zeros(0)
        self.town_share: dict[str, float] = {}  # a member's chance the learner plays town
        self.spec: Any = None  # the games' spec (its observation options): Rollout sets it
        self.mates: Policy | None = None  # who plays the learner's other teammates (`set_mates`)
        self.mates_share = 0.0
        self.mate_seat = np.zeros((B, n), dtype=bool)
        # rule bots of one kind and several styles decide a step's rows in one call (`grouped`)
        self.grouped = True

    @classmethod
    def of_config(
        cls, cfg: Config, n: int, B: int, rng: np.random.Generator, window: int = 500
    ) -> Opponents:
        """The trainer's opponents under `cfg`: its team, mixed tables and their mates."""
        opp = cls(
            n,
            B,
            rng,
            team=cfg.learner_team,
            window=window,
            mixed=cfg.mixed_tables,
            share=cfg.mixed_share,
        )
        if cfg.mixed_mates is not None:  # the benchmark's half-rule tables
            mates = opponent_policy(cfg.mixed_mates, cfg.variant, n, cfg.seed + 2)[0]
            opp.set_mates(mates, cfg.mixed_mates_share)
        return opp

    def set_mates(self, policy: Policy, share: float) -> None:
        """Let `policy` hold the rest of the learner's team at a share `share` of the mixed
        tables (drawn per game; the member plays the other teams)."""
        if observes(policy) != "vector":
            raise ConfigError(
                f"mixed_mates observes {observes(policy)!r}; the trainer's games step vector "
                "observations only"
            )
        self.mates, self.mates_share = policy, share

    def add(self, name: str, policy: Policy | None, weight: float = 1.0) -> None:
        """Add a member (None: self-play) drawn with `weight`; a policy must observe vectors."""
        if policy is not None and observes(policy) != "vector":
            raise ConfigError(
                f"opponent {name!r} observes {observes(policy)!r}; the trainer's games step "
                "vector observations only"
            )
        self.players[name] = policy
        for t in SIDES:
            self.windows.setdefault((name, t), deque(maxlen=self.window))
        self.set_weights({**self.weights, name: weight})

    def remove(self, name: str) -> None:
        """Stop drawing `name`; games it is playing finish with it."""
        self.set_weights({k: w for k, w in self.weights.items() if k != name})
        for t in SIDES:
            self.windows.pop((name, t), None)
        if name not in self.game:
            self.players.pop(name, None)

    def set_weights(self, weights: dict[str, float]) -> None:
        """Draw the members by these weights from now on."""
        self.weights = dict(weights)
        self._names = [k for k, w in weights.items() if w > 0]
        p = np.array([weights[k] for k in self._names], dtype=np.float64)
        self._p = p / p.sum() if p.size else p

    def assign(self, b: int, teams: np.ndarray) -> None:
        """Draw game `b`'s member, and the learner's seats for its deal `teams`."""
        old = self.game[b]
        name = self.game[b] = self._names[int(self.rng.choice(len(self._names), p=self._p))]
        self.mate_seat[b] = False
        if old not in self.weights and old not in self.game:
            self.players.pop(old, None)  # a removed member whose last game just ended
        if self.players[name] is None:
            self.learner_seat[b] = True
            self.learner_team[b] = -1
        elif self.against is not None:
            self.learner_seat[b] = teams != self.against
            self.learner_team[b] = 1 - self.against  # scored as the other side
        else:
            if self.team != "any":
                t = TEAM_NAMES.index(self.team)
            elif name in self.town_share:  # the side drawn by its own weight (per-side PFSP)
                t = _TOWN if self.rng.random() < self.town_share[name] else _MAFIA
            else:
                t = int(self.rng.integers(2))
            self.learner_team[b] = t
            seats = teams == t
            if self.mixed > 0 and self.rng.random() < self.mixed:  # a mixed table
                own = np.flatnonzero(seats)
                held = self.rng.choice(own, max(1, math.floor(self.share * len(own))), False)
                if self.mates is not None and self.rng.random() < self.mates_share:
                    self.mate_seat[b, own] = True
                    self.mate_seat[b, held] = False
                seats = np.zeros_like(seats)
                seats[held] = True
            self.learner_seat[b] = seats

    def act(
        self,
        obs: np.ndarray,
        masks: np.ndarray,
        learn: np.ndarray,
        out: np.ndarray,
        seat: np.ndarray | None = None,
    ) -> None:
        """Write the members' actions into `out` for the rows the learner does not play (and
        `mates`' on the seats it holds: `seat`, each row's acting seat, says which)."""
        rest = np.flatnonzero(~learn)
        if not rest.size:
            return
        plays: list[tuple[Any, np.ndarray]] = []
        if self.mates is not None:
            if seat is None:
                raise ValueError("Opponents.act needs the acting seats where mates are set")
            mate = self.mate_seat[rest, seat[rest]]
            plays.append((self.mates, rest[mate]))
            rest = rest[~mate]
        names = np.array(self.game, dtype=object)[rest]
        for name in sorted(set(names)):  # (in a fixed order: a grouped call's draws follow it)
            plays.append((self.players[name], rest[names == name]))
        if self.grouped and len(plays) > 1:
            calls = grouped(plays)
        else:
            calls = [(p, r, None) for p, r in plays]
        for policy, rows, styles in calls:
            self._play(policy, rows, obs, masks, out, styles)

    def _play(
        self,
        policy: Any,
        rows: np.ndarray,
        obs: np.ndarray,
        masks: np.ndarray,
        out: np.ndarray,
        styles: tuple[tuple[Any, ...], np.ndarray] | None = None,
    ) -> None:
        if rows.size:
            x = obs[rows] if self.spec is None else fit(policy, obs[rows], self.spec)
            if styles is None:
                out[rows] = policy.act_batch(x, masks[rows])
            else:
                out[rows] = policy.act_styles(x, masks[rows], *styles)

    def record(self, b: int, rewards: np.ndarray, teams: np.ndarray) -> float | None:
        """Note how game `b` (its seats' rewards and teams) ended; return the learner's return
        (None in self-play)."""
        name, seats = self.game[b], self.learner_seat[b]
        if self.players.get(name, 0) is None:  # self-play: both sides are the learner
            for t, side in enumerate(SIDES):
                on = teams == t
                if on.any():
                    self.windows[(name, side)].append(float(rewards[on][0] > 0))
            return None
        won = float((rewards[seats] > 0).any())
        if (name, SIDES[self.learner_team[b]]) in self.windows:  # not removed meanwhile
            self.windows[(name, SIDES[self.learner_team[b]])].append(won)
        return float(rewards[seats].max())

    def winrate(self, name: str, side: str | None = None) -> float | None:
        """The learner's win rate against `name` over its window (both sides pooled)."""
        sides = SIDES if side is None else (side,)
        games = [x for t in sides for x in self.windows.get((name, t), ())]
        return float(np.mean(games)) if games else None

    def state(self) -> dict[str, list[float]]:
        """The windows as plain data (for checkpoints)."""
        return {f"{k}|{t}": list(w) for (k, t), w in self.windows.items()}

    def load_state(self, state: dict[str, list[float]]) -> None:
        for key, xs in state.items():
            k, _, t = key.rpartition("|")
            if (k, t) in self.windows:
                self.windows[(k, t)].extend(xs)


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


class Actor:
    """The agent's policy as a rollout plays it: one call samples the learner's rows of a step.

    The same function, distribution and draws as `Agent.sample`, computed with the fewest
    calls (the first layer reads a row's nonzero inputs only, about 2% of them; the two heads
    are one product; the masked softmax and the draw are NumPy's), since a step's batch is
    small and each call's overhead is most of its cost. The weights are copied at
    construction: make one per rollout. The draw is `torch.multinomial`'s (the largest
    probability over an exponential variable from `generator`, one per action), so a seeded
    rollout draws what `Agent.sample` would, up to the float sums' order (a near-tie could
    fall the other way). Per-team heads take `Agent.sample` itself.
    """

    def __init__(self, agent: Agent):
        self.agent = agent
        self.simple = agent.heads == 1
        if not self.simple:
            return
        with torch.no_grad():
            first, second = agent.trunk[0], agent.trunk[2]
            self.w1 = first.weight.t().clone(memory_format=torch.contiguous_format)
            self.b1 = first.bias.detach().clone()
            self.w2 = second.weight.t().contiguous()
            self.b2 = second.bias.detach().clone()
            self.wh = torch.cat([agent.actor.weight, agent.critic.weight]).t().contiguous()
            self.bh = torch.cat([agent.actor.bias, agent.critic.bias])
        self.actions = agent.action_size
        self.std, self.mean = float(agent.ret_std), float(agent.ret_mean)
        # the rows the last call read, compressed: nonzeros per row, columns, values
        self.last: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    @torch.no_grad()
    def __call__(
        self, obs: np.ndarray, mask: np.ndarray, generator: torch.Generator
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Sample an action per row of `obs` under `mask`; return the actions, their
        log-probabilities and the values (denormalised)."""
        if not self.simple:
            a, logp, v = self.agent.sample(
                torch.from_numpy(obs), torch.from_numpy(mask), generator=generator
            )
            return a.numpy(), logp.numpy(), self.agent.denorm(v).numpy()
        n = len(obs)
        flat = obs.reshape(-1)
        # the nonzeros in row order, np.nonzero's: in one flat pass over a mask (NumPy finds
        # a bool array's nonzeros several times faster than a float array's)
        k = np.flatnonzero(flat != 0)
        r, c = np.divmod(k, obs.shape[1])
        vals = flat[k]
        self.last = (np.bincount(r, minlength=n), c, vals)
        h = torch.nn.functional.embedding_bag(
            torch.from_numpy(c),
            self.w1,
            torch.from_numpy(np.searchsorted(r, np.arange(n))),
            mode="sum",
            per_sample_weights=torch.from_numpy(vals),
        )
        h = torch.from_numpy(np.tanh(h.add_(self.b1).numpy()))  # NumPy's tanh: faster here
        h = torch.from_numpy(np.tanh(torch.addmm(self.b2, h, self.w2).numpy()))
        out = torch.addmm(self.bh, h, self.wh).numpy()
        logits = np.where(mask, out[:, : self.actions], np.float32(-1e8))
        z = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(z)  # illegal actions: exactly 0
        total = e.sum(axis=1, keepdims=True)
        # torch.multinomial's draw of one action: the largest p / q, q ~ Exp(1) a row and an
        # action from the generator (the same numbers it draws), among the legal actions
        q = torch.empty(e.shape).exponential_(1, generator=generator).numpy()
        with np.errstate(divide="ignore"):
            a = np.where(mask, e / total / q, -1.0).argmax(axis=1)
        logp = z[np.arange(n), a] - np.log(total[:, 0])
        return a, logp, out[:, self.actions] * self.std + self.mean


class _Sampled:
    """The actions the learner's network sampled for a step, as a policy: what a layer over
    the learner wraps, so that it decides its overrides given the network's moves."""

    observes = "vector"

    def __init__(self, obs_options: dict[str, Any] | None):
        self.obs_options = obs_options or None
        self.actions = np.zeros(0, dtype=np.int64)

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return self.actions


class LearnerLayer:
    """A fixed policy layer over the learner's network in training (`Config.learner_layer`):
    given a step's rows and the actions the network sampled for them, return the actions
    played (the layer's where it overrides, the network's elsewhere)."""

    def __init__(self, wrap: Callable[[Any], Any], obs_options: dict[str, Any] | None = None):
        self.given = _Sampled(obs_options)
        self.policy = wrap(self.given)

    def __call__(self, obs: np.ndarray, masks: np.ndarray, actions: np.ndarray) -> np.ndarray:
        self.given.actions = actions
        return np.asarray(self.policy.act_batch(obs, masks), dtype=np.int64)


def layered(cfg: Config, inner: Any, seed: int) -> Any:
    """`inner` (a policy) under the config's learner layer (`Config.learner_layer`): the
    layer the learner trains with, for its frozen copies (snapshots, an exploiter's target)
    and for playing the trained network as it trained (the trainer's evaluations); `inner`
    itself with no layer."""
    if cfg.learner_layer == "none":
        return inner
    from baselines.ppo.layer import with_layer

    return with_layer(cfg.learner_layer, cfg.learner_layer_options, cfg.game_spec(), inner, seed)


def learner_layer(cfg: Config) -> LearnerLayer | None:
    """The layer over the learner's own seats in training (None: the network plays alone)."""
    if cfg.learner_layer == "none":
        return None
    return LearnerLayer(lambda inner: layered(cfg, inner, cfg.seed + 7), cfg.obs_options())


class Rollout:
    """`B` games in lockstep and the buffers of their rollouts of `T` steps each.

    Every step records every game's acting seat; ``learn[t, b]`` marks the learner's rows,
    the only ones the update reads. The games go on from one rollout to the next.

    With a `layer` (`LearnerLayer`) the learner's rows play the layer's actions given the
    network's samples; ``chosen[t, b]`` marks the rows where the network's sample was played,
    the only ones the policy loss reads (`ppo_update`: the value loss reads every row).

    With `groups` G > 1 the games are G groups of B / G whose rollouts are staggered: each
    `collect` plays T / G lockstep steps of every game, after which one group's rollout of `T`
    steps is complete, and `batch` returns that group's (B / G games x T steps, the same shape
    of rollout as B / G games in lockstep with one group). The opponents and the learner's
    network then decide for every game of the lockstep at once, G times as many rows a call
    for the same steps an update; the price is that a group's earlier steps were sampled
    under up to G - 1 earlier updates' weights (their log-probabilities are those of the
    weights that sampled them, as the clipped ratio needs). The first G - 1 rollouts of a run
    are shorter (those groups began part way through their first window).
    """

    def __init__(
        self,
        vec: VectorMafia,
        T: int,
        opp: Opponents,
        layer: LearnerLayer | None = None,
        groups: int = 1,
    ):
        B, n = vec.num_envs, vec.n
        if groups < 1 or B % groups or T % groups:
            raise ConfigError(
                f"rollout groups must divide the games ({B}) and the steps ({T}); got {groups}"
            )
        self.vec, self.T, self.opp, self.layer = vec, T, opp, layer
        self.groups, self.span = groups, T // groups  # lockstep steps a `collect`
        self.group_of = np.arange(B) // (B // groups)  # each game's group (consecutive)
        self.size = B // groups  # games a group
        self.steps = 0  # lockstep steps played
        self.done_group = 0  # the group whose rollout the last `collect` completed
        opp.spec = vec.spec  # members that do not read the belief piece get the plain prefix
        self.obs_buf = np.zeros((T, B, vec.obs_size), dtype=np.float32)
        self.mask_buf = np.zeros((T, B, vec.action_size), dtype=bool)
        self.act_buf = np.zeros((T, B), dtype=np.int64)
        self.logp_buf = np.zeros((T, B), dtype=np.float32)
        self.val_buf = np.zeros((T, B), dtype=np.float32)
        self.learn_buf = np.zeros((T, B), dtype=bool)
        if layer is not None:  # the network's samples, and whether each was played
            self.net_buf = np.zeros((T, B), dtype=np.int64)
            self.chosen_buf = np.zeros((T, B), dtype=bool)
        self.seat_buf = np.zeros((T, B), dtype=np.int64)
        self.done_buf = np.zeros((T, B), dtype=bool)
        self.rew_buf = np.zeros((T, B, n), dtype=np.float32)
        self.boot = np.zeros((B, n), dtype=np.float32)
        # the learner's rows of each of the last T lockstep steps as the actor read them
        # (their games, and the compressed rows: `Actor.last`), by step modulo T
        self.reads: list[tuple[np.ndarray, tuple[np.ndarray, ...]] | None] = [None] * T
        self.returns: deque[float] = deque(maxlen=500)  # the learner's, against members
        self.lengths: deque[int] = deque(maxlen=500)
        self.game_len = np.zeros(B, dtype=np.int64)
        self.obs, self.masks, self.info = vec.reset()
        for b in range(B):
            opp.assign(b, self.info["teams"][b])

    def _row(self, step: int) -> np.ndarray:
        """[B]: each game's row of the buffers at lockstep step `step` (its group's place in
        its own rollout: group g runs g * T / G steps ahead)."""
        return (step + self.group_of * self.span) % self.T

    def _parts(self, rows: np.ndarray) -> list[tuple[int, slice]]:
        """Each group's row (of `rows`, a row a game) and its games, a slice."""
        size = self.size
        return [(int(rows[g * size]), slice(g * size, (g + 1) * size)) for g in range(self.groups)]

    @torch.no_grad()
    def collect(self, agent: Agent, gen: torch.Generator) -> int:
        """Play T / G lockstep steps: the agent at the learner's seats, members elsewhere.

        Return the environment steps taken (every seat's decisions).
        """
        vec, opp = self.vec, self.opp
        rows = np.arange(vec.num_envs)
        actor = Actor(agent)
        for _ in range(self.span):
            obs, masks, seat = self.obs, self.masks, self.info["seat"]
            learn = opp.learner_seat[rows, seat]
            if hasattr(vec, "fill"):  # the belief piece, computed for the learner's rows only
                vec.fill(np.flatnonzero(learn))
            r = self._row(self.steps)
            parts = self._parts(r)
            for buf, x in ((self.obs_buf, obs), (self.mask_buf, masks), (self.seat_buf, seat)):
                for row, part in parts:
                    buf[row, part] = x[part]
            for row, part in parts:
                self.learn_buf[row, part] = learn[part]

            # the learner's seats through the agent, every other seat through its member
            actions = np.zeros(vec.num_envs, dtype=np.int64)
            li = np.flatnonzero(learn)
            read = None
            if li.size:
                lmask = masks[li] != 0  # (as the bool buffer holds them)
                a, logp, v = actor(obs[li], lmask, gen)
                if actor.simple:
                    read = (li, actor.last)
                if self.layer is not None:
                    played = self.layer(obs[li], lmask, a)
                    self.net_buf[r[li], li] = a
                    self.chosen_buf[r[li], li] = played == a
                    a = played
                actions[li] = a
                self.logp_buf[r[li], li] = logp
                self.val_buf[r[li], li] = v
            self.reads[self.steps % self.T] = read
            opp.act(obs, masks, learn, actions, seat)

            self.obs, self.masks, rewards, dones, self.info = vec.step(actions)
            for buf, x in (
                (self.act_buf, actions),
                (self.done_buf, dones),
                (self.rew_buf, rewards),
            ):
                for row, part in parts:
                    buf[row, part] = x[part]
            self.steps += 1
            self.game_len += 1
            for b in np.flatnonzero(dones):
                ret = opp.record(b, rewards[b], self.info["done_teams"][b])
                if ret is not None:
                    self.returns.append(ret)
                self.lengths.append(int(self.game_len[b]))
                self.game_len[b] = 0
                opp.assign(b, self.info["teams"][b])

        # the group whose rollout these steps completed (its last row, T - 1, just written)
        ended = np.flatnonzero(self._row(self.steps - 1) == self.T - 1)
        self.done_group = int(self.group_of[ended[0]])
        # bootstrap value: each learner seat's current view, where its game goes on
        self.boot[:] = 0
        bs = np.argwhere(opp.learner_seat & (self.group_of == self.done_group)[:, None])
        if len(bs):
            views = vec.observe_many(bs[:, 0], bs[:, 1])
            v = agent.denorm(agent.get_value(torch.from_numpy(views))).numpy()
            self.boot[bs[:, 0], bs[:, 1]] = v
        return self.span * vec.num_envs

    def batch(self, gamma: float, lam: float) -> dict[str, torch.Tensor]:
        """Return the learner's decisions of the rollout the last `collect` completed (its
        group's), with GAE advantages and returns."""
        g = np.flatnonzero(self.group_of == self.done_group)
        part = slice(g[0], g[-1] + 1)  # (a group's games are consecutive)
        learn = self.learn_buf[:, part]
        adv = seat_gae(
            self.val_buf[:, part],
            learn,
            self.seat_buf[:, part],
            self.done_buf[:, part],
            self.rew_buf[:, part],
            self.boot[part],
            gamma,
            lam,
        )
        sel = learn.reshape(-1)
        flat = {
            "masks": self.mask_buf[:, part].reshape(-1, self.vec.action_size),
            "actions": self.act_buf[:, part].reshape(-1),
            "logprobs": self.logp_buf[:, part].reshape(-1),
            "advantages": adv.reshape(-1),
            "returns": (adv + self.val_buf[:, part]).reshape(-1),
            "values": self.val_buf[:, part].reshape(-1),
        }
        if self.layer is not None:
            # the network's own samples (what its log-probabilities are of), and which of
            # them were played: the policy loss reads those rows only
            flat["actions"] = self.net_buf[:, part].reshape(-1)
            flat["chosen"] = self.chosen_buf[:, part].reshape(-1)
        out = {k: torch.from_numpy(np.ascontiguousarray(v[sel])) for k, v in flat.items()}
        read = self._group_reads(part, learn)
        if read is not None:
            # the rows as the actor read them, step by step: the CSR arrays of the learner's
            # observations, in the batch's order, without copying the dense rows
            counts, col, val = read
            crow = np.zeros(len(counts) + 1, dtype=np.int64)
            np.cumsum(counts, out=crow[1:])
            out["obs_csr"] = (torch.from_numpy(crow), torch.from_numpy(col), torch.from_numpy(val))
        else:
            obs = self.obs_buf[:, part].reshape(-1, self.vec.obs_size)
            out["obs"] = torch.from_numpy(np.ascontiguousarray(obs[sel]))
        return out

    def _group_reads(
        self, part: slice, learn: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """The compressed rows the actor read for the games `part` over their rollout, in the
        batch's order (step by step, game by game); None where a step's were not kept."""
        T, last = self.T, self.steps - 1
        counts, cols, vals = [], [], []
        for t in range(T):  # the group's row t was written at lockstep step last - (T-1-t)
            want = learn[t]
            rec = self.reads[(last - (T - 1 - t)) % T]
            if rec is None:
                if want.any():
                    return None
                continue
            games, (k, c, v) = rec
            if self.groups == 1:  # every row
                counts.append(k), cols.append(c), vals.append(v)
                continue
            mine = (games >= part.start) & (games < part.stop)
            counts.append(k[mine])
            keep = np.repeat(mine, k)
            cols.append(c[keep]), vals.append(v[keep])
        if not counts:
            return None
        counts_all = np.concatenate(counts)
        if len(counts_all) != int(learn.sum()):
            return None
        return counts_all, np.concatenate(cols), np.concatenate(vals)


def batch_rows(agent: Agent, data: dict[str, Any]) -> tuple[SparseRows | None, torch.Tensor | None]:
    """The batch's observations as the update reads them: compressed rows where that pays
    (`Agent.sparse_rows`), else dense. A batch gives ``obs`` (dense rows) or ``obs_csr`` (the
    CSR arrays of them: row pointers, columns, values), which reads alike."""
    csr = data.get("obs_csr")
    if csr is None:
        return agent.sparse_rows(data["obs"]), data["obs"]
    crow, col, val = csr
    width, n = agent.trunk[0].in_features, len(crow) - 1
    if agent.heads == 1 and n >= 64 and len(val) < 0.25 * n * width:  # as sparse_rows says
        return SparseRows(None, torch.zeros(n, dtype=torch.long), (crow, col, val, width)), None
    with warnings.catch_warnings():  # torch calls its sparse CSR support beta
        warnings.simplefilter("ignore", UserWarning)
        obs = torch.sparse_csr_tensor(crow, col, val, (n, width)).to_dense()
    return agent.sparse_rows(obs), obs


def ppo_update(
    agent: Agent,
    optimizer: torch.optim.Optimizer,
    data: dict[str, torch.Tensor],
    cfg: Config,
    rng: np.random.Generator,
    proximal: bool = False,
) -> dict[str, float]:
    """The clipped-PPO update over one rollout's decisions; return the losses to log.

    `proximal`: the decisions were played by an older policy than the agent's (the overlap's
    one update of lag). The ratio is then clipped around the policy the update starts from
    (the proximal policy) rather than around the one that played, and each decision's loss is
    weighed by its probability under the proximal policy over the behaviour policy's: PPO's
    decoupled objective (Hilton et al., "Batch size-invariance for policy optimization"), so
    the lag does not use up the clip's range before the update moves.

    ``data["chosen"]`` (optional, a bool per decision): the decisions the network's own sample
    played (a layer over the learner overrode the others, `Rollout`). The policy loss, the
    entropy bonus and the advantages' normalisation read those rows only; the value loss
    reads every row. Without it every row is the network's.
    """
    b_returns, b_values = data["returns"], data["values"]
    if cfg.norm_value:  # value normalisation: the critic learns standardised returns
        agent.ret_mean.mul_(0.99).add_(0.01 * b_returns.mean())
        var = agent.ret_std.pow(2).mul(0.99).add(0.01 * b_returns.var())
        agent.ret_std.copy_(var.sqrt().clamp(min=1e-2))
    mean, std = agent.ret_mean, agent.ret_std
    b_returns_n = (b_returns - mean) / std
    b_values_n = (b_values - mean) / std

    batch_size = len(b_returns)
    b_inds = np.arange(batch_size)
    # the minibatches' first layer reads the nonzero inputs only (a row is ~3% nonzero)
    sparse, obs = batch_rows(agent, data)
    old_logp, weight = data["logprobs"], None
    chosen = data.get("chosen")
    if proximal:
        with torch.no_grad():
            every = None if sparse is None else sparse.take(torch.arange(batch_size))
            _, old_logp, _, _ = agent.get_action_and_value(
                obs, data["masks"], data["actions"], rows=every
            )
            weight = (old_logp - data["logprobs"]).exp()
    clipfracs = []
    pg_loss = v_loss = entropy_loss = old_approx_kl = approx_kl = torch.zeros(())
    for _epoch in range(cfg.update_epochs):
        rng.shuffle(b_inds)
        for mb_inds in np.array_split(b_inds, cfg.num_minibatches):
            if mb_inds.size < 2:
                continue
            mb = torch.from_numpy(mb_inds)
            _, newlogprob, entropy, newvalue = agent.get_action_and_value(
                obs[mb] if sparse is None else None,
                data["masks"][mb],
                data["actions"][mb],
                rows=None if sparse is None else sparse.take(mb),
            )
            logratio = newlogprob - old_logp[mb]
            ratio = logratio.exp()

            with torch.no_grad():
                # calculate approx_kl http://joschu.net/blog/kl-approx.html
                old_approx_kl = (-logratio).mean()
                approx_kl = ((ratio - 1) - logratio).mean()
                clipfracs += [((ratio - 1.0).abs() > cfg.clip_coef).float().mean().item()]

            mb_adv = data["advantages"][mb]
            own = None if chosen is None else chosen[mb].float()  # 1: the network's move
            if cfg.norm_adv and own is None:
                mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
            elif cfg.norm_adv:  # over the network's moves only
                k = own.sum().clamp(min=1)
                m = (mb_adv * own).sum() / k
                sd = (((mb_adv - m) * own).pow(2).sum() / (k - 1).clamp(min=1)).sqrt()
                mb_adv = (mb_adv - m) / (sd + 1e-8)

            # Policy loss
            pg_loss1 = -mb_adv * ratio
            pg_loss2 = -mb_adv * torch.clamp(ratio, 1 - cfg.clip_coef, 1 + cfg.clip_coef)
            pg_loss = torch.max(pg_loss1, pg_loss2)
            pg_loss = pg_loss if weight is None else pg_loss * weight[mb]
            if own is None:
                pg_loss = pg_loss.mean()
            else:  # a layer's moves teach the network nothing (their values still count)
                pg_loss = (pg_loss * own).sum() / own.sum().clamp(min=1)

            # Value loss
            if cfg.clip_vloss:
                v_loss_unclipped = (newvalue - b_returns_n[mb]) ** 2
                v_clipped = b_values_n[mb] + torch.clamp(
                    newvalue - b_values_n[mb], -cfg.clip_coef, cfg.clip_coef
                )
                v_loss_clipped = (v_clipped - b_returns_n[mb]) ** 2
                v_loss = 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()
            else:
                v_loss = 0.5 * ((newvalue - b_returns_n[mb]) ** 2).mean()

            if own is None:
                entropy_loss = entropy.mean()
            else:
                entropy_loss = (entropy * own).sum() / own.sum().clamp(min=1)
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
    return {
        "value_loss": v_loss.item(),
        "policy_loss": pg_loss.item(),
        "entropy": entropy_loss.item(),
        "old_approx_kl": old_approx_kl.item(),
        "approx_kl": approx_kl.item(),
        "clipfrac": float(np.mean(clipfracs)) if clipfracs else 0.0,
        "explained_variance": float(explained_var),
        "batch_size": batch_size,
    }


def train_against(
    agent: Agent,
    cfg: Config,
    target: Policy,
    updates: int,
    *,
    team: str = "any",
    against: str | None = None,
    seed: int = 0,
    writer: Any = None,
    tag: str = "best_response",
    log: Any = None,
) -> float | None:
    """Train `agent` by PPO against the frozen `target` for `updates` rollouts of `cfg`'s size.

    The agent plays one team per game (`team`), or every seat not of team `against` (the
    target plays that team). Logs ``<tag>/winrate`` per update; returns the agent's win rate
    over its last games (at most 500; None if no game ended).
    """
    vec = vector_env(cfg.variant, cfg.num_envs, cfg.num_players, seed=seed, **cfg.vec_knobs())
    rng = np.random.default_rng(seed)
    gen = torch.Generator().manual_seed(seed)
    opp = Opponents(vec.n, vec.num_envs, rng, team=team, against=against)
    opp.add("target", target)
    optimizer = torch.optim.Adam(agent.parameters(), lr=cfg.learning_rate, eps=1e-5, fused=True)
    rollout = Rollout(vec, cfg.num_steps, opp, groups=cfg.rollout_groups)
    agent.train()
    bar = progress(updates, tag, "update")
    for update in range(1, updates + 1):
        if cfg.anneal_lr:
            optimizer.param_groups[0]["lr"] = (1.0 - (update - 1.0) / updates) * cfg.learning_rate
        rollout.collect(agent, gen)
        data = rollout.batch(cfg.gamma, cfg.gae_lambda)
        ppo_update(agent, optimizer, data, cfg, rng, proximal=cfg.rollout_groups > 1)
        rate = opp.winrate("target")
        if writer is not None and rate is not None:
            steps = update * cfg.num_envs * cfg.num_steps // cfg.rollout_groups
            writer.add_scalar(f"{tag}/winrate", rate, steps)
        if log is not None and (update % 10 == 0 or update == updates):
            done = "no game ended yet" if rate is None else f"win rate {rate:.3f}"
            log(f"{tag}: update {update}/{updates}, {done}")
        bar.update(1)
    bar.close()
    return opp.winrate("target")


__all__ = [
    "SIDES",
    "LearnerLayer",
    "Opponents",
    "Rollout",
    "layered",
    "learner_layer",
    "ppo_update",
    "seat_gae",
    "train_against",
]
