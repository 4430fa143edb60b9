"""League training: the learner against a pool that keeps changing, drawn by PFSP.

As in AlphaStar's league, the learner plays itself in a fixed share of its games
(`LeagueConfig.self_play`) and in the others a member of the pool: fixed policies (the rule
bots, random play, the shipped PPO bot: `LeagueConfig.fixed`), snapshots of itself (one every
`Config.snapshot_every` updates, the last `Config.pool_size` kept; the first is the rule-bot
clone PPO starts from), and exploiters. A member is drawn with weight f(x) = (1 - x)^p, x the
learner's running win rate against it over its last `winrate_window` games (prioritised
fictitious self-play), never below `pfsp_floor`: a member the learner always beats is drawn
rarely, never not at all. With `pfsp_sides` (the default) each (member, side) pair has its
own x and weight, and the learner plays the side it loses on more often: a town that loses
to random mafia plays town against random, not mafia, where it wins anyway.

Every `exploiter_every` updates an exploiter starts from the rule-bot clone's weights and
trains `exploiter_updates` PPO updates against the frozen current learner (which plays every
seat the exploiter does not; the exploiter plays one team per game), then joins the pool
frozen; the oldest leaves beyond `max_exploiters`.

TensorBoard: ``league/winrate_vs_<member>`` (the learner's), ``league/weight_<member>`` (the
chance a game draws it) and ``league/<exploiter>/winrate`` (each exploiter's own, during
its training, by its own steps) with ``league/exploiter_final_winrate``.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import torch

from baselines.ppo.agent import Agent
from baselines.ppo.checkpoint import PPOPolicy
from baselines.ppo.evaluate import opponent_policy
from baselines.ppo.ppo_config import Config
from baselines.ppo.rollout import Opponents, layered, train_against


def pfsp_weights(winrates: dict[Any, float | None], power: float, floor: float) -> dict[Any, float]:
    """Return each member's chance to be drawn: (1 - x)^power, at least `floor`, normalised.

    `winrates` holds the learner's win rate x against each member (None: no games yet, taken
    as 0.5).
    """
    raw = {k: max((1.0 - (0.5 if x is None else x)) ** power, floor) for k, x in winrates.items()}
    total = sum(raw.values())
    return {k: w / total for k, w in raw.items()}


class League:
    """The league's members, their win rates and weights, snapshots and exploiters."""

    def __init__(self, cfg: Config, n: int, B: int, rng: np.random.Generator, agent: Agent):
        assert cfg.league is not None
        self.cfg, self.lc, self.n = cfg, cfg.league, n
        self.opp = Opponents.of_config(cfg, n, B, rng, window=self.lc.winrate_window)
        self.template = copy.deepcopy(agent)  # the network shape frozen members are built in
        self.snapshots: dict[str, dict[str, torch.Tensor]] = {}
        self.exploiters: dict[str, dict[str, torch.Tensor]] = {}
        self.clone: dict[str, torch.Tensor] | None = None  # where exploiters start
        self.made = 0  # exploiters made so far
        if self.lc.self_play > 0:
            self.opp.add("self", None, self.lc.self_play)
        for name in self.lc.fixed:
            policy, label = opponent_policy(name, cfg.variant, n, cfg.seed)
            self.opp.add(label if label not in self.opp.players else name, policy)

    # ------------------------------------------------------------------ members

    def frozen(self, weights: dict[str, torch.Tensor], seed: int, learner: bool = True) -> Any:
        """A member playing `weights` (sampled moves, as the learner plays in training);
        `learner`: a copy of the learner, under its layer (`Config.learner_layer`) if any."""
        agent = copy.deepcopy(self.template)
        agent.load_state_dict(weights)
        agent.eval()
        policy = PPOPolicy.from_agent(agent, seed)
        return layered(self.cfg, policy, seed) if learner else policy

    def add_snapshot(self, name: str, weights: dict[str, torch.Tensor]) -> None:
        self.snapshots[name] = weights
        self.opp.add(name, self.frozen(weights, self.cfg.seed + len(self.snapshots)))
        while len(self.snapshots) > self.cfg.pool_size:
            oldest = next(iter(self.snapshots))
            del self.snapshots[oldest]
            self.opp.remove(oldest)

    def add_exploiter(self, name: str, weights: dict[str, torch.Tensor]) -> None:
        self.exploiters[name] = weights
        self.opp.add(name, self.frozen(weights, self.cfg.seed + 1000 + self.made, False))
        while len(self.exploiters) > self.lc.max_exploiters:
            oldest = next(iter(self.exploiters))
            del self.exploiters[oldest]
            self.opp.remove(oldest)

    def reweigh(self) -> dict[str, float]:
        """Set the members' weights: self-play its share, the rest by PFSP.

        With `LeagueConfig.pfsp_sides` each (member, side) pair is weighed by the learner's
        win rate on that side: a member is drawn by the sum of its two pairs' weights, and
        the side the learner plays by its pair's share.
        """
        others = [k for k in self.opp.weights if k != "self"]
        lc = self.lc
        if lc.pfsp_sides:
            pairs = pfsp_weights(
                {(k, t): self.opp.winrate(k, t) for k in others for t in ("town", "mafia")},
                lc.pfsp_power,
                lc.pfsp_floor,
            )
            pfsp = {k: pairs[(k, "town")] + pairs[(k, "mafia")] for k in others}
            self.opp.town_share = {k: pairs[(k, "town")] / pfsp[k] for k in others}
        else:
            pfsp = pfsp_weights(
                {k: self.opp.winrate(k) for k in others}, lc.pfsp_power, lc.pfsp_floor
            )
        share = self.lc.self_play if others else 1.0
        weights = {k: (1 - share) * w for k, w in pfsp.items()}
        if "self" in self.opp.weights:
            weights["self"] = share
        self.opp.set_weights(weights)
        return weights

    # ------------------------------------------------------------------ the trainer's hooks

    def start(self, agent: Agent) -> None:
        """Keep the weights PPO starts from (the clone) for exploiters and as a snapshot."""
        if self.clone is None:
            self.clone = copy.deepcopy(agent.state_dict())
        if not self.snapshots:
            self.add_snapshot("snap_0", copy.deepcopy(agent.state_dict()))
        self.reweigh()

    def before_rollout(self) -> None:
        pass

    def after_update(self, update: int, agent: Agent, writer: Any, step: int, log: Any) -> None:
        """Snapshot, train an exploiter when due, reweigh the pool and log it."""
        if update % self.cfg.snapshot_every == 0:
            self.add_snapshot(f"snap_{update}", copy.deepcopy(agent.state_dict()))
        if self.lc.exploiter_every and update % self.lc.exploiter_every == 0:
            self.train_exploiter(agent, writer, step, log)
        weights = self.reweigh()
        for name, w in weights.items():
            writer.add_scalar(f"league/weight_{name}", w, step)
            x = self.opp.winrate(name)
            if name != "self" and x is not None:
                writer.add_scalar(f"league/winrate_vs_{name}", x, step)

    def train_exploiter(self, learner: Agent, writer: Any, step: int, log: Any) -> float | None:
        """Train an exploiter of the frozen learner from the clone; add it to the pool."""
        self.made += 1
        name = f"exploiter_{self.made}"
        exploiter = copy.deepcopy(self.template)
        exploiter.load_state_dict(self.clone)
        target = self.frozen(copy.deepcopy(learner.state_dict()), self.cfg.seed + 2000 + self.made)
        log(f"training {name} against the learner for {self.lc.exploiter_updates} updates")
        rate = train_against(
            exploiter,
            self.cfg,
            target,
            self.lc.exploiter_updates,
            team="any",
            seed=self.cfg.seed + 3000 + self.made,
            writer=writer,
            tag=f"league/{name}",
            log=log,
        )
        if rate is not None:
            writer.add_scalar("league/exploiter_final_winrate", rate, step)
        won = "finished no game" if rate is None else f"wins {rate:.3f} against the learner"
        log(f"{name} {won}; it joins the pool")
        self.add_exploiter(name, copy.deepcopy(exploiter.state_dict()))
        return rate

    # ------------------------------------------------------------------ checkpoints

    def state(self) -> dict[str, Any]:
        return {
            "league": {
                "snapshots": self.snapshots,
                "exploiters": self.exploiters,
                "clone": self.clone,
                "made": self.made,
                "windows": self.opp.state(),
            }
        }

    def load_state(self, ckpt: dict[str, Any]) -> None:
        state = ckpt.get("league")
        if state is None:
            return  # a run without a league: the league starts from this checkpoint
        self.clone, self.made = state["clone"], state["made"]
        for name, w in state["snapshots"].items():
            self.add_snapshot(name, w)
        for name, w in state["exploiters"].items():
            self.add_exploiter(name, w)
        self.opp.load_state(state["windows"])


__all__ = ["League", "pfsp_weights"]
