"""What the learner layer (`learner_layer: belief_talk`) costs a rollout, and how many of the
learner's moves it overrides: the shipped sport-10 filler's network plays rollouts of the
trainer's size against the rule bots and itself (half each), with and without the layer,
in turns, on the same seeded games; CPU seconds of this process per rollout.

    python results/robust/experiments/layer_cost.py [ROUNDS] [WEIGHTS]

WEIGHTS: the network's checkpoint (default: the shipped sport-10 filler's).
"""

from __future__ import annotations

import sys
import time

import numpy as np
import torch

from baselines.ppo import make_agent
from baselines.ppo.checkpoint import load_weights, read_checkpoint
from baselines.ppo.evaluate import opponent_policy
from baselines.ppo.ppo_config import load_config
from baselines.ppo.rollout import Opponents, Rollout, learner_layer
from mafia_env.seat_obs import vector_env

CONFIG = "configs/filler/sport-talk-layer.yaml"
WEIGHTS = "baselines/checkpoints/filler/sport.pt"


def rollout_cpu(cfg, agent, layer: bool, seed: int) -> tuple[float, float, int]:
    vec = vector_env(cfg.variant, cfg.num_envs, cfg.num_players, seed=seed, **cfg.vec_knobs())
    opp = Opponents(vec.n, vec.num_envs, np.random.default_rng(seed))
    opp.add("self", None)
    opp.add("rule", opponent_policy("rule", cfg.variant, vec.n, seed)[0])
    r = Rollout(vec, cfg.num_steps, opp, learner_layer(cfg) if layer else None)
    t = time.process_time()
    r.collect(agent, torch.Generator().manual_seed(seed))
    cpu = time.process_time() - t
    learn = int(r.learn_buf.sum())
    over = float((~r.chosen_buf[r.learn_buf]).mean()) if layer else 0.0
    return cpu, over, learn


def main(argv: list[str]) -> int:
    rounds = int(argv[0]) if argv else 3
    weights = argv[1] if len(argv) > 1 else WEIGHTS
    torch.set_num_threads(1)
    cfg = load_config(CONFIG)
    vec = vector_env(cfg.variant, 1, cfg.num_players, **cfg.vec_knobs())
    agent = make_agent(cfg, vec.obs_size, vec.action_size)
    load_weights(agent, read_checkpoint(weights, cfg.variant, vec.n), weights, True, vec.obs_layout)
    plain, layered, overs = [], [], []
    for i in range(rounds):
        plain.append(rollout_cpu(cfg, agent, False, 100 + i)[0])
        cpu, over, learn = rollout_cpu(cfg, agent, True, 100 + i)
        layered.append(cpu)
        overs.append(over)
        print(
            f"round {i}: plain {plain[-1]:.2f} s, layer {cpu:.2f} s, {learn} learner rows, "
            f"{over:.3f} overridden",
            flush=True,
        )
    p, q = float(np.median(plain)), float(np.median(layered))
    print(
        f"median CPU per rollout ({cfg.num_envs} x {cfg.num_steps} steps): plain {p:.2f} s, "
        f"with the layer {q:.2f} s (x{q / p:.2f}); overridden {np.mean(overs):.3f} of the "
        "learner's rows"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
