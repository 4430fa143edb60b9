#!/usr/bin/env python
"""SuperSuit + Stable-Baselines3: parameter-shared masked PPO on `concat_vec_envs_v1`.

    python scripts/recipes/supersuit_sb3.py --variant minimal --steps 2048

Every seat of every table is one row of an SB3 vector env (SuperSuit's
`pettingzoo_env_to_vec_env_v1`, then `concat_vec_envs_v1`), and one network plays them all.
SB3's own PPO has no action masks, so the recipe uses sb3-contrib's MaskablePPO (PPO with
masks) and `InfoMasks`, a ten-line wrapper that hands it the masks the parallel view puts in
``infos``. The waiting seats' rows are in the batch too (their only legal action is ``wait``):
parameter sharing as SuperSuit's tutorials do it. SB3's rollout buffer cannot drop rows, but
with masks a row whose only legal action is ``wait`` adds nothing to the policy loss (its
log-probability is 0 whatever the weights: the ratio is 1, the entropy 0); it trains the
value head and costs compute. ``infos[i]["acting"]`` marks the rows with a choice, for a
trainer that can drop the others (scripts/recipes/torchrl_ppo.py does). Plain SB3 PPO also
runs on the same vector env with the default settings (an illegal move ends that table's
game, -1 to the offender: COMMON-7's ``terminate``), but learns little. Copies of one env
deal their own games; seed the vector env (``reset(seed=s)``: table i gets ``s + i``) for a
reproducible run. Then the trained network plays the rule bots as the town and as the mafia.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import supersuit as ss
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecEnvWrapper

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import NetPolicy, against_rule_bots

import mafia_env


class InfoMasks(VecEnvWrapper):
    """Expose the masks of ``infos[i]["action_mask"]`` as MaskablePPO's `action_masks`.

    It also takes SB3's `seed(s)` (SuperSuit 3.11's vector env has no `seed` method, which
    SB3 2.x calls): the next reset seeds table i with ``s + i``.
    """

    _seed: int | None = None

    def seed(self, seed: int | None = None) -> list:
        self._seed = seed
        return [seed]

    def reset(self):
        if self._seed is None:
            obs = self.venv.reset()
        else:  # the concatenated env takes the seed (SuperSuit's SB3 wrapper cannot)
            obs, self.venv.reset_infos = self.venv.venv.reset(seed=self._seed)
            self._seed = None
        self.masks = np.stack([i["action_mask"] for i in self.venv.reset_infos])
        return obs

    finals: list[list[float]]  # each finished table's final rewards, seat by seat

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        self.masks = np.stack([i["action_mask"] for i in infos])
        n = len(self.venv.venv.vec_envs[0].par_env.possible_agents)
        for start in range(0, self.num_envs, n):  # a table's rows end together
            if dones[start]:
                self.finals.append(rewards[start : start + n].tolist())
        return obs, rewards, dones, infos

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or self.venv.has_attr(attr_name)

    def env_method(self, method_name, *args, indices=None, **kwargs):
        if method_name == "action_masks":
            return list(self.masks)
        return self.venv.env_method(method_name, *args, indices=indices, **kwargs)


def black_death(env):
    """Return SuperSuit's `black_death_v3` with its end-of-episode test fixed.

    SuperSuit 3.11 ends an episode only when every agent is terminated *and* truncated
    (SuperSuit issue 254; fixed upstream by pull request 265, not yet released), so with it a
    finished Mafia game is stepped again. Mafia never removes an agent before the end, so
    black death changes nothing else here.
    """
    from supersuit.multiagent_wrappers.black_death import black_death_par

    class Fixed(black_death_par):
        def step(self, actions):
            obs, rews, terms, truncs, infos = super().step(actions)
            if self.env.agents or not self.agents:
                return obs, rews, terms, truncs, infos
            done = dict.fromkeys(self.agents, True)  # the game is over: every agent is done
            self.agents.clear()
            return obs, rews, done, done, infos

    return Fixed(env)


def make_vec_env(variant: str, num_players: int | None, tables: int, seed: int):
    """Return `tables` parallel tables as one SB3 vector env, a row per seat."""
    par = mafia_env.parallel_env(variant, num_players, obs_mode="flat")
    vec = ss.pettingzoo_env_to_vec_env_v1(par)
    vec = ss.concat_vec_envs_v1(vec, tables, num_cpus=0, base_class="stable_baselines3")
    env = InfoMasks(vec)
    env.finals = []
    return env


def main(argv: list[str] | None = None) -> dict:
    from sb3_contrib import MaskablePPO

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variant", default="minimal")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--tables", type=int, default=2)
    p.add_argument("--steps", type=int, default=2048, help="env rows stepped in all")
    p.add_argument("--eval-games", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)

    env = make_vec_env(args.variant, args.players, args.tables, args.seed)
    n_steps = max(16, 256 // env.num_envs)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=n_steps,
        batch_size=n_steps * env.num_envs // 4,
        n_epochs=2,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    losses: list[float] = []

    class LossLog(BaseCallback):
        """Keep PPO's loss of each update (read before the next rollout dumps the log)."""

        def _on_rollout_start(self) -> None:
            value = model.logger.name_to_value.get("train/loss")
            if value is not None:
                losses.append(float(value))

        def _on_step(self) -> bool:
            return True

    log = LossLog()
    model.learn(total_timesteps=args.steps, callback=log)
    log._on_rollout_start()
    finals = env.finals
    env.close()

    def predict(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions, _ = model.predict(obs, action_masks=masks.astype(bool), deterministic=True)
        return actions

    rates = against_rule_bots(NetPolicy(predict), args.variant, args.players, args.eval_games)
    result = {"library": "supersuit+sb3", "losses": losses, "finals": finals, "win_rate": rates}
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
