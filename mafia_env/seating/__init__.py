"""Seating: the policies that fill a table's seats, and the games they play.

- `mafia_env.seating.policies`: the `Policy` protocol every agent implements and the registry
  `load_policy` reads (``random`` built in; `baselines` registers the rest);
- `mafia_env.seating.games`: `Seating` (who plays each seat) and the one loop every caller
  shares (`play_until`, `play_game`, `play_games` in lockstep);
- `mafia_env.seating.terminal`: ``mafia play``, one seat played in the terminal against bots.

The web table (`mafia_env.table`) seats its bots through the same registry and loop.
"""

from __future__ import annotations

from mafia_env.seating.games import Seating, play_game, play_games, play_until
from mafia_env.seating.policies import (
    Policy,
    RandomPolicy,
    load_policy,
    policy_names,
    register_policy,
)

__all__ = [
    "Policy",
    "RandomPolicy",
    "Seating",
    "load_policy",
    "play_game",
    "play_games",
    "play_until",
    "policy_names",
    "register_policy",
]
