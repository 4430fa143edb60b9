#!/usr/bin/env python
"""sb3-contrib MaskablePPO on one seat: `mafia_env.single_agent`, the rule bots in the others.

    python scripts/recipes/sb3_single.py --variant minimal --steps 2048

The single-agent view is a plain Gymnasium env whose `action_masks()` MaskablePPO reads, so
nothing else is needed. One seat (a random one each game) learns; every other seat is played
by the rule bots, during training and evaluation alike. The evaluation env raises on an
illegal action (knob ``illegal_action="raise"``), so a finished evaluation had none.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import mafia_env

TEAM = {"civilian": "town", "sheriff": "town", "doctor": "town", "putana": "town"}
TEAM |= {"mafia": "mafia", "don": "mafia", "maniac": "maniac"}


def main(argv: list[str] | None = None) -> dict:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variant", default="minimal")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--steps", type=int, default=1024)
    p.add_argument("--eval-games", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)

    env = mafia_env.single_agent(args.variant, num_players=args.players, opponents="rule")
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=2, seed=args.seed, device="cpu"
    )
    losses: list[float] = []

    class LossLog(BaseCallback):
        def _on_rollout_start(self) -> None:
            value = model.logger.name_to_value.get("train/loss")
            if value is not None:
                losses.append(float(value))

        def _on_step(self) -> bool:
            return True

    log = LossLog()
    model.learn(total_timesteps=args.steps, callback=log)
    log._on_rollout_start()

    test = mafia_env.single_agent(
        args.variant, num_players=args.players, opponents="rule", illegal_action="raise"
    )
    games = []
    for g in range(args.eval_games):
        obs, info = test.reset(seed=args.seed + 1000 + g)
        done, ret = False, 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=test.action_masks(), deterministic=True)
            obs, reward, term, trunc, info = test.step(int(action))
            ret += reward
            done = term or trunc
        games.append({"team": TEAM[info["role"]], "winner": test.aec.winner, "return": ret})
    wins = np.mean([g["team"] == g["winner"] for g in games])
    result = {"library": "sb3-contrib", "losses": losses, "games": games, "win_rate": wins}
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
