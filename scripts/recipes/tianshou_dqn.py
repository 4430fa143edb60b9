#!/usr/bin/env python
"""Tianshou 2.0.1: masked DQN for one seat, the rule bots in every other seat.

    /work/venv-tianshou/bin/python scripts/recipes/tianshou_dqn.py --variant minimal

Tianshou's multi-agent path (`PettingZooEnv` over the AEC env, `MultiAgentPolicyManager`)
hands the end-of-game reward to the transition of whoever moved last, so a seat's own
transitions rarely carry its result (3 games in 40 in SPORT). This recipe learns one seat
through `mafia_env.single_agent` instead: the other seats are played by the rule bots inside
each step, and when the game ends the seat's team result (+1, -1, 0) is the reward of the
seat's own last transition. `SeatEnv` is the small wrapper Tianshou needs on top: the
observation as ``{"obs": vector, "mask": legal actions}``, which Tianshou's DQN reads to
mask its Q-values and its exploration. Tianshou pins pandas < 3 and filelock < 4, so it
lives in its own venv (see the README); `DummyVectorEnv(...).seed(0)` works on the AEC env
since the env's game seed is `game_seed`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from tianshou.algorithm import DQN
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.utils.net.common import Net
from tianshou.utils.torch_utils import policy_within_training_step, torch_train_mode

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import mafia_env
from baselines.rule import RulePolicy
from mafia_env.seating.policies import register_policy

# what the package's entry point does where it is installed (this venv runs it from the tree)
register_policy("rule", RulePolicy)

TEAM = {"civilian": "town", "sheriff": "town", "doctor": "town", "putana": "town"}
TEAM |= {"mafia": "mafia", "don": "mafia", "maniac": "maniac"}


class SeatEnv(gym.Wrapper):
    """One seat (`mafia_env.single_agent`) with the mask inside the observation, for Tianshou."""

    def __init__(self, env: gym.Env):
        super().__init__(env)
        n = int(env.action_space.n)
        self.observation_space = gym.spaces.Dict(
            {"obs": env.observation_space, "mask": gym.spaces.MultiBinary(n)}
        )

    def _pack(self, obs: np.ndarray) -> dict[str, Any]:
        return {"obs": obs, "mask": self.env.unwrapped.action_masks()}

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        return self._pack(obs), info

    def step(self, action: Any):
        obs, reward, term, trunc, info = self.env.step(int(action))
        return self._pack(obs), reward, term, trunc, info


def make_env(variant: str, num_players: int | None, **knobs: Any) -> SeatEnv:
    return SeatEnv(
        mafia_env.single_agent(variant, num_players=num_players, opponents="rule", **knobs)
    )


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variant", default="minimal")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--envs", type=int, default=4)
    p.add_argument("--iters", type=int, default=6)
    p.add_argument("--steps", type=int, default=128, help="seat moves collected per iteration")
    p.add_argument("--eval-games", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)

    train = DummyVectorEnv([lambda: make_env(args.variant, args.players)] * args.envs)
    train.seed(args.seed)
    probe = make_env(args.variant, args.players)
    actions = int(probe.action_space.n)
    net = Net(
        state_shape=probe.observation_space["obs"].shape,
        action_shape=actions,
        hidden_sizes=[128, 128],
    )
    policy = DiscreteQLearningPolicy(
        model=net, action_space=gym.spaces.Discrete(actions), eps_training=0.2
    )
    algo = DQN(
        policy=policy, optim=AdamOptimizerFactory(lr=1e-3), gamma=0.99, target_update_freq=20
    )
    buffer = VectorReplayBuffer(4096, args.envs)
    collector = Collector(algo, train, buffer, exploration_noise=True)
    collector.reset()
    losses, finals = [], []
    for _ in range(args.iters):
        with policy_within_training_step(policy), torch_train_mode(policy, False):
            stats = collector.collect(n_step=args.steps)
        finals += [float(r) for r in stats.returns]
        with policy_within_training_step(policy), torch_train_mode(policy):
            for _ in range(4):
                losses.append(float(algo.update(buffer=buffer, sample_size=64).loss))

    test = make_env(args.variant, args.players, illegal_action="raise")  # raises if illegal
    games = []
    for g in range(args.eval_games):
        obs, info = test.reset(seed=args.seed + 1000 + g)
        done, ret = False, 0.0
        while not done:
            with torch.no_grad():
                q, _ = net(obs["obs"][None])
            q[0, ~torch.as_tensor(obs["mask"], dtype=torch.bool)] = -torch.inf
            obs, reward, term, trunc, info = test.step(int(q.argmax()))
            ret += reward
            done = term or trunc
        games.append(
            {"team": TEAM[info["role"]], "winner": test.unwrapped.aec.winner, "return": ret}
        )
    wins = float(np.mean([g["team"] == g["winner"] for g in games]))
    result = {
        "library": "tianshou",
        "losses": losses,
        "finals": finals,
        "games": games,
        "win_rate": wins,
    }
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
