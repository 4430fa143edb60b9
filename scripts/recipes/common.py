"""What every recipe shares: a trained network as a `Policy`, and a match against the rule bots.

The recipes train on `mafia_env.parallel_env`, whose action space is the AEC env's plus
``wait`` at the end, and on the acting seat's observation, which is the AEC env's. So a
network trained there plays an AEC table unchanged: `NetPolicy` appends a zero ``wait``
column to the AEC mask and asks the network for the rest.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mafia_env.seating.games import Seating, play_games
from mafia_env.seating.policies import load_policy

# (observations [B, D] float32, masks [B, A + 1] int8) -> action indices [B]
Predict = Callable[[np.ndarray, np.ndarray], np.ndarray]


class NetPolicy:
    """A network trained on the parallel view, behind the `Policy` protocol (AEC tables)."""

    observes = "vector"

    def __init__(self, predict: Predict):
        self.predict = predict

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(self.act_batch(obs[None], mask[None])[0])

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        padded = np.zeros((masks.shape[0], masks.shape[1] + 1), dtype=np.int8)
        padded[:, :-1] = masks
        actions = np.asarray(self.predict(np.asarray(obs, np.float32), padded)).reshape(-1)
        legal = padded[np.arange(len(actions)), actions].astype(bool)
        if not legal.all():
            raise AssertionError(f"the network chose illegal actions: {actions[~legal]}")
        return actions


def against_rule_bots(
    policy: NetPolicy, variant: str, num_players: int | None, games: int, seed: int = 0
) -> dict[str, float]:
    """Return the policy's win rate as the town and as the mafia, the rule bots opposite."""
    rule = load_policy("rule", variant=variant, num_players=num_players, seed=seed)
    rates = {}
    for team, other in (("town", "mafia"), ("mafia", "town")):
        seating = Seating(default=rule, teams={team: policy, other: rule})
        counts = play_games(variant, num_players, seating, games, seed=seed, num_envs=games)
        rates[team] = counts[team] / games
    return rates


def masked_argmax(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Return the best legal action of each row."""
    return np.where(masks.astype(bool), logits, -np.inf).argmax(axis=1)


__all__ = ["NetPolicy", "Predict", "against_rule_bots", "masked_argmax"]
