#!/usr/bin/env python
"""TorchRL: masked multi-agent PPO (IPPO, one shared network) on the parallel view.

    python scripts/recipes/torchrl_ppo.py --variant minimal --iters 3

TorchRL's `PettingZooWrapper(use_mask=True)` takes `mafia_env.parallel_env` as it is: every
seat is one row of the group ``player``, the mask of each row is
``("player", "action_mask")`` (only ``wait`` for the seats that wait) and ``("player",
"mask")`` says which seats are still in the game (all of them until the end). The actor is a
`MaskedCategorical` over the logits, so no illegal action is ever sampled; the loss is
TorchRL's `ClipPPOLoss` with GAE, as in TorchRL's multi-agent PPO tutorial. Then the network
plays the rule bots as the town and as the mafia.

About nine rows in ten are a seat that waits (its mask allows only ``wait``): no choice, so
nothing for the actor to learn. GAE runs over the whole batch (every seat's trajectory), then
`decisions` keeps the rows with a choice for the loss (``--all-rows`` keeps them all, as the
tutorial does): the advantage is normalised over real decisions and each epoch costs a tenth.
In ``obs_mode="flat"`` the same rows are ``("player", "info", "acting")``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch
from tensordict import TensorDict, TensorDictBase
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.collectors import Collector
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.modules import MaskedCategorical, ProbabilisticActor, ValueOperator
from torchrl.objectives import ClipPPOLoss, ValueEstimators

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import NetPolicy, against_rule_bots

import mafia_env

OBS = ("player", "observation", "observation")
MASK = ("player", "action_mask")


def make_env(variant: str, num_players: int | None, seed: int) -> PettingZooWrapper:
    par = mafia_env.parallel_env(variant, num_players)
    return PettingZooWrapper(par, use_mask=True, categorical_actions=True, seed=seed)


def decisions(batch: TensorDictBase) -> TensorDict:
    """Return the rows of a collected batch where a seat had a choice, each its own group of
    one seat, with its advantage and value target (computed on the whole batch before)."""
    acting = batch[MASK][..., :-1].any(-1)  # [T, n]: more than `wait` is legal
    rows = batch["player"][acting]
    return TensorDict(
        {
            "player": rows.unsqueeze(-1),
            "advantage": batch["advantage"][acting].unsqueeze(1),
            "value_target": batch["value_target"][acting].unsqueeze(1),
        },
        batch_size=rows.batch_size,
    )


def mlp(inputs: int, outputs: int, hidden: int = 128) -> nn.Module:
    return nn.Sequential(
        nn.Linear(inputs, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
        nn.Linear(hidden, outputs),
    )  # fmt: skip


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variant", default="minimal")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--iters", type=int, default=3)
    p.add_argument("--frames", type=int, default=256, help="env steps per iteration")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--eval-games", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--all-rows", action="store_true", help="train on the waiting rows too")
    args = p.parse_args(argv)
    torch.manual_seed(args.seed)

    env = make_env(args.variant, args.players, args.seed)
    obs_size = env.observation_spec[OBS].shape[-1]
    actions = env.full_action_spec["player", "action"].space.n
    net = TensorDictModule(mlp(obs_size, actions), in_keys=[OBS], out_keys=[("player", "logits")])
    actor = ProbabilisticActor(
        net,
        in_keys={"logits": ("player", "logits"), "mask": MASK},
        out_keys=[("player", "action")],
        distribution_class=MaskedCategorical,
        return_log_prob=True,
    )
    critic = ValueOperator(mlp(obs_size, 1), in_keys=[OBS], out_keys=[("player", "state_value")])
    loss = ClipPPOLoss(actor, critic, entropy_coeff=0.01, normalize_advantage=True)
    loss.set_keys(
        action=("player", "action"),
        sample_log_prob=("player", "action_log_prob"),
        value=("player", "state_value"),
        reward=("player", "reward"),
        done=("player", "done"),
        terminated=("player", "terminated"),
    )
    loss.make_value_estimator(ValueEstimators.GAE, gamma=0.99, lmbda=0.95)
    optim = torch.optim.Adam(loss.parameters(), lr=3e-4)
    collector = Collector(
        env, actor, frames_per_batch=args.frames, total_frames=args.frames * args.iters
    )

    losses, finals = [], []
    for batch in collector:
        done = batch["next", "player", "done"].squeeze(-1).all(-1)
        finals += batch["next", "player", "reward"][done].squeeze(-1).tolist()
        with torch.no_grad():
            loss.value_estimator(batch, params=loss.critic_network_params)
        flat = batch.reshape(-1) if args.all_rows else decisions(batch)
        for _ in range(args.epochs):
            out = loss(flat)
            total = out["loss_objective"] + out["loss_critic"] + out["loss_entropy"]
            optim.zero_grad()
            total.backward()
            nn.utils.clip_grad_norm_(loss.parameters(), 1.0)
            optim.step()
            losses.append(float(total.detach()))
        collector.update_policy_weights_()
    collector.shutdown()

    def predict(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            logits = net.module(torch.as_tensor(obs))
        logits[~torch.as_tensor(masks, dtype=torch.bool)] = -torch.inf
        return logits.argmax(-1).numpy()

    rates = against_rule_bots(NetPolicy(predict), args.variant, args.players, args.eval_games)
    result = {"library": "torchrl", "losses": losses, "finals": finals, "win_rate": rates}
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
