#!/usr/bin/env python
"""AgileRL 2.58: IPPO on the parallel view, the masks in ``infos``, every seat one network.

    /work/venv-agilerl/bin/python scripts/recipes/agilerl_ippo.py --variant minimal

AgileRL reads action masks only from ``infos[agent]["action_mask"]`` (it refuses a Dict
observation that holds one), so the recipe uses ``obs_mode="flat"``. Its agent ids follow
``<group>_<index>``: ``player_1 .. player_n`` are one group, so IPPO trains one shared actor
and one shared critic for every seat. The flat view's ``infos[agent]["env_defined_actions"]``
(``wait`` for a seat that waits, NaN for one that chooses) is AgileRL's convention for
actions the env defines: `get_action` plays the waits itself. The tables run in subprocesses
(`AsyncPettingZooVecEnv`); the loop is AgileRL's own on-policy multi-agent loop
(`agilerl.training.train_multi_agent_on_policy`) without its evolutionary parts. Then the
network plays the rule bots as the town and as the mafia.

AgileRL 2.58 pins pettingzoo 1.26.1, gymnasium 1.4 and tensordict 0.13 (this project's
venv has 1.27.0, 1.2.2 and 0.14.3), so it lives in its own venv: see the README.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch
from agilerl.algorithms import IPPO
from agilerl.vector.pz_async_vec_env import AsyncPettingZooVecEnv

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import NetPolicy, against_rule_bots

import mafia_env
from baselines.rule import RulePolicy
from mafia_env.seating.policies import register_policy

# what the package's entry point does where it is installed (this venv runs it from the tree)
register_policy("rule", RulePolicy)


class MaskedIPPO(IPPO):
    """IPPO whose mask reading works on numpy masks.

    AgileRL 2.58's `IPPO.extract_action_masks` asks ``None in group_masks``, which a list of
    numpy arrays cannot answer (ValueError: the truth value of an array is ambiguous), so
    every env that puts array masks in ``infos`` fails; this is the same method, fixed.
    """

    def extract_action_masks(self, infos):
        groups: dict[str, list] = {g: [] for g in self.observation_space}
        for agent_id, info in infos.items():
            if isinstance(info, dict):
                group = self.get_group_id(agent_id) if self.has_grouped_agents() else agent_id
                groups[group].append(info.get("action_mask"))
        return {
            g: None if not masks or any(m is None for m in masks) else torch.Tensor(np.array(masks))
            for g, masks in groups.items()
        }


class MakeTable:
    """A picklable factory of flat parallel tables (for AgileRL's subprocesses)."""

    def __init__(self, variant: str, num_players: int | None):
        self.variant, self.num_players = variant, num_players

    def __call__(self):
        return mafia_env.parallel_env(self.variant, self.num_players, obs_mode="flat")


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variant", default="minimal")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--envs", type=int, default=2)
    p.add_argument("--iters", type=int, default=3)
    p.add_argument("--steps", type=int, default=128, help="table steps per iteration (all envs)")
    p.add_argument("--eval-games", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    torch.manual_seed(args.seed)

    make = MakeTable(args.variant, args.players)
    probe = make()
    agents = probe.possible_agents
    env = AsyncPettingZooVecEnv([make] * args.envs)
    algo = MaskedIPPO(
        observation_spaces=[probe.observation_space(a) for a in agents],
        action_spaces=[probe.action_space(a) for a in agents],
        agent_ids=agents,
        net_config={"encoder_config": {"hidden_size": [128]}},
        batch_size=64,
        lr=3e-4,
        learn_step=args.steps,
        update_epochs=2,
    )
    algo.set_training_mode(True)
    obs, info = env.reset(seed=args.seed)
    losses, finals = [], []
    for _ in range(args.iters):
        fields: tuple[dict, ...] = tuple({a: [] for a in agents} for _ in range(6))
        states, actions, log_probs, rewards, dones, values = fields
        done = {a: np.zeros(args.envs) for a in agents}
        for _ in range(-(args.steps // -args.envs)):
            action, log_prob, _, value = algo.get_action(obs=obs, infos=info)
            for a in agents:  # the chosen action is legal for its seat
                masks = np.stack([np.asarray(m) for m in info[a]["action_mask"]])
                assert masks[np.arange(args.envs), action[a].astype(int)].all()
            next_obs, reward, term, trunc, info = env.step(action)
            for a in agents:
                states[a].append(obs[a])
                actions[a].append(action[a])
                log_probs[a].append(log_prob[a])
                rewards[a].append(reward[a])
                values[a].append(value[a])
                dones[a].append(done[a])
            done = {a: np.logical_or(term[a], trunc[a]).astype(float) for a in agents}
            for e in range(args.envs):  # a table's seats end together, with team rewards
                if all(done[a][e] for a in agents):
                    finals.append([float(reward[a][e]) for a in agents])
            obs = next_obs
        out = algo.learn((states, actions, log_probs, rewards, dones, values, next_obs, done))
        losses.append(float(np.mean(list(out.values()))))
    env.close()

    actor = algo.actors["player"]
    actor.eval()

    def predict(vectors: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            logits = actor.head_net.wrapped(actor.extract_features(torch.as_tensor(vectors)))
        logits[~torch.as_tensor(masks, dtype=torch.bool)] = -torch.inf
        return logits.argmax(-1).numpy()

    rates = against_rule_bots(NetPolicy(predict), args.variant, args.players, args.eval_games)
    result = {"library": "agilerl", "losses": losses, "finals": finals, "win_rate": rates}
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
