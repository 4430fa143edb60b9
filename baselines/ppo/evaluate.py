"""Evaluation during and after training: win rates per team against bots, in lockstep games."""

from __future__ import annotations

from typing import Any

from baselines.stats import wilson
from mafia_env.commands import progress
from mafia_env.errors import ConfigError
from mafia_env.seating.games import Seating
from mafia_env.seating.games import play_games as play_in_lockstep
from mafia_env.seating.policies import Policy, load_policy


def opponent_policy(kind: str, variant: str, n: int, seed: int) -> tuple[Policy, str]:
    """Return a bot policy and its name; "rule" falls back to random where none is installed."""
    try:
        return load_policy(kind, variant=variant, num_players=n, seed=seed), kind
    except ConfigError:
        if kind != "rule":
            raise
        return load_policy("random", variant=variant, num_players=n, seed=seed), "random"


def play_games(
    variant: str,
    num_players: int | None,
    team_policies: dict[str, Policy],
    others: Policy,
    games: int,
    seed: int = 0,
    num_envs: int = 64,
    knobs: dict[str, Any] | None = None,
) -> dict[str, int]:
    """Play `games` games, a policy per named team and `others` for the rest; count outcomes.

    The games are `mafia_env.seating.games.play_games`'s: the first `games` dealt, each to its end.
    """
    seating = Seating(others, teams=team_policies)
    return play_in_lockstep(variant, num_players, seating, games, seed, num_envs, knobs)


def evaluate(
    policy: Policy,
    bots: Policy,
    variant: str,
    num_players: int | None,
    games: int,
    seed: int = 0,
    knobs: dict[str, Any] | None = None,
    baseline: bool = False,
) -> dict[str, dict[str, Any]]:
    """Return the policy's win rate (with a Wilson interval) as town and as mafia vs `bots`.

    With ``baseline=True`` each entry also holds the bots' own win rate for that team in
    games of bots against bots (``bot_rate``, ``bot_lo``, ``bot_hi``) and ``better``: whether
    the policy's interval lies wholly above the bots'.
    """
    out = {}
    bar = progress(games * (3 if baseline else 2), "evaluation", "game", leave=baseline)
    for team in ("town", "mafia"):
        counts = play_games(variant, num_players, {team: policy}, bots, games, seed, knobs=knobs)
        out[team] = _rate(counts[team], games)
        bar.update(games)
    if baseline:
        counts = play_games(variant, num_players, {}, bots, games, seed, knobs=knobs)
        for team in ("town", "mafia"):
            bot = _rate(counts[team], games)
            out[team].update({f"bot_{k}": v for k, v in bot.items()})
            out[team]["better"] = out[team]["lo"] > bot["hi"]
        bar.update(games)
    bar.close()
    return out


def _rate(wins: int, games: int) -> dict[str, Any]:
    lo, hi = wilson(wins, games)
    return {"wins": wins, "games": games, "rate": wins / games, "lo": lo, "hi": hi}


__all__ = ["evaluate", "opponent_policy", "play_games"]
