"""Masked PPO for Mafia, in the manner of CleanRL: the loop reads top to bottom in `train`.

| module | |
|---|---|
| `baselines.ppo.ppo_config` | `Config`: every key of a run's YAML file, with a line of doc each |
| `baselines.ppo.agent` | `layer_init`, `CategoricalMasked`, `Agent`: a shared trunk, two heads |
| `baselines.ppo.ppo_train` | `train`: rollouts in lockstep, per-seat GAE, the clipped-PPO update |
| `baselines.ppo.checkpoint` | save and read checkpoints; `PPOPolicy` plays one as a `Policy` |
| `baselines.ppo.evaluate` | win rates per team against bots (`mafia_env.seating.play_games`) |
| `baselines.ppo.imitate` | the behaviour-cloning warm start from the rule bots |
| `baselines.ppo.layer` | the layer a network plays under (`learner_layer`), recorded in its file |
| `baselines.ppo.stamp` | record, show or remove a checkpoint's layer (`python -m`) |

    python -m baselines.train --config configs/ppo/sport.yaml
"""

from __future__ import annotations

from baselines.ppo.agent import Agent, CategoricalMasked, layer_init, make_agent, team_matrix
from baselines.ppo.checkpoint import (
    CHECKPOINT_FORMAT,
    OBS_FORMAT_VERSION,
    PPOPolicy,
    load_checkpoint_policy,
    load_shipped_policy,
    obs_signature,
    read_checkpoint,
    save_checkpoint,
)
from baselines.ppo.evaluate import evaluate, opponent_policy, play_games
from baselines.ppo.imitate import imitate
from baselines.ppo.ppo_config import LEARNER_TEAMS, OPPONENT_KINDS, Config, load_config, make_config
from baselines.ppo.ppo_train import train
from baselines.ppo.rollout import seat_gae
from baselines.stats import wilson

__all__ = [
    "CHECKPOINT_FORMAT",
    "LEARNER_TEAMS",
    "OBS_FORMAT_VERSION",
    "OPPONENT_KINDS",
    "Agent",
    "CategoricalMasked",
    "Config",
    "PPOPolicy",
    "evaluate",
    "imitate",
    "layer_init",
    "load_checkpoint_policy",
    "load_config",
    "load_shipped_policy",
    "make_agent",
    "make_config",
    "obs_signature",
    "opponent_policy",
    "play_games",
    "read_checkpoint",
    "save_checkpoint",
    "seat_gae",
    "team_matrix",
    "train",
    "wilson",
]
