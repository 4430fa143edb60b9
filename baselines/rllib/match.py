"""Games through the AEC env with one policy on a team's seats and another on the rest."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import mafia_env
from baselines.policy import Policy
from baselines.rllib.config import RLlibConfig
from baselines.stats import wilson
from mafia_env.engine.roles import role_from_name


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
    winners: Counter = Counter()
    moves = 0
    for g in range(games):
        env.reset(seed=seed + g)
        ours = {a for a, r in env.roles.items() if role_from_name(r).team.name.lower() == team}
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            actor = policy if agent in ours else opponent
            env.step(actor.act(obs["observation"], obs["action_mask"]))
            moves += 1
        winners[env.winner] += 1
    return MatchResult(team, winners, games, moves)
