"""Games through the AEC env with one policy on a team's seats and another on the rest."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import mafia_env
from baselines.rllib.rllib_config import RLlibConfig
from baselines.stats import wilson
from mafia_env.seating.games import Seating, play_game
from mafia_env.seating.policies import Policy


@dataclass(frozen=True)
class MatchResult:
    """Winners of the games where `policy` played `team`."""

    team: str
    winners: Counter
    games: int
    moves: int

    @property
    def wins(self) -> int:
        return self.winners[self.team]

    def summary(self) -> str:
        """Return the win rate with its 95% Wilson interval, and every outcome's count."""
        lo, hi = wilson(self.wins, self.games)
        counts = ", ".join(f"{w} {c}" for w, c in sorted(self.winners.items()))
        return f"{self.wins}/{self.games} won [{lo:.2f}, {hi:.2f}] ({counts})"


def team_match(
    policy: Policy, opponent: Policy, team: str, games: int, cfg: RLlibConfig, seed: int = 0
) -> MatchResult:
    """Play games with `policy` on the seats of `team` (dealt at random), `opponent` elsewhere."""
    env = mafia_env.raw_env(cfg.variant, cfg.num_players, **cfg.knobs)
    seating = Seating(opponent, teams={team: policy})
    winners: Counter = Counter()
    moves = 0

    def count(env: object) -> None:  # called before every move
        nonlocal moves
        moves += 1

    for g in range(games):
        play_game(env, seating, seed=seed + g, watch=count)
        winners[env.winner] += 1
    return MatchResult(team, winners, games, moves)
