"""What an evaluation measures: one summary per game, and a matchup's rates over its games.

Per game (`summarize`): the winner, the length in days and moves, the share of the town's
ballots that hit a mafia player, whether the sheriff found a mafia player, the doctor's heals
and saves. Per matchup (`report_matchup`): each outcome's rate with a Wilson 95% interval,
the mean and spread of the game length, and the per-role measures as rates.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from baselines.evaluate.eval_config import Matchup
from baselines.stats import wilson
from mafia_env.engine.events import OUTCOME_NAMES, Ev
from mafia_env.engine.kinds import seats
from mafia_env.engine.roles import Role, Team


def summarize(game: Any, index: int) -> dict[str, Any]:
    """Return the measures of one finished game (read from the moderator's event log).

    A doctor's save is the engine's count (`Game.saves`): a night whose heal cancelled a kill
    under that table's rules, the healed player surviving the night.
    """
    teams, roles = game.teams, game.roles
    town_votes = town_hits = 0
    sheriff = next((s for s, r in enumerate(roles) if r is Role.SHERIFF), -1)
    found = False
    heals = 0
    for kind, actor, target, value, _ in game.events:
        if kind == Ev.BALLOT and target >= 0 and teams[actor] is Team.TOWN:
            town_votes += 1
            town_hits += teams[target] is Team.MAFIA
        elif kind == Ev.COUNT:  # an open count (CLUB-E7): the hands raised for target
            for voter in seats(value):
                if teams[voter] is Team.TOWN:
                    town_votes += 1
                    town_hits += teams[target] is Team.MAFIA
        elif kind == Ev.CHECK and actor == sheriff and value:
            found = True
        elif kind == Ev.HEAL:
            heals += 1
    return {
        "index": index,
        "winner": OUTCOME_NAMES[game.winner] if game.winner is not None else "draw",
        "days": game.day,
        "moves": len(game.inputs),
        "town_votes": town_votes,
        "town_votes_on_mafia": town_hits,
        "sheriff": sheriff >= 0,
        "sheriff_found_mafia": found,
        "doctor": any(r is Role.DOCTOR for r in roles),
        "doctor_heals": heals,
        "doctor_saves": game.saves,
    }


def rate(k: int, n: int) -> dict[str, float]:
    low, high = wilson(k, n)
    return {"count": k, "rate": k / n if n else 0.0, "low": low, "high": high}


def report_matchup(m: Matchup, games: list[dict[str, Any]], teams: tuple[str, ...]) -> dict:
    """Summarize one matchup's games."""
    n = len(games)
    outcomes = [*teams, "draw"]
    wins = {o: sum(g["winner"] == o for g in games) for o in outcomes}
    days = np.array([g["days"] for g in games], dtype=float)
    moves = np.array([g["moves"] for g in games], dtype=float)
    votes = sum(g["town_votes"] for g in games)
    hits = sum(g["town_votes_on_mafia"] for g in games)
    measures: dict[str, Any] = {"town_votes_on_mafia": rate(hits, votes)}
    with_sheriff = [g for g in games if g["sheriff"]]
    if with_sheriff:
        found = sum(g["sheriff_found_mafia"] for g in with_sheriff)
        measures["sheriff_found_mafia"] = rate(found, len(with_sheriff))
    heals = sum(g["doctor_heals"] for g in games)
    if any(g["doctor"] for g in games) and heals:
        measures["doctor_saves"] = rate(sum(g["doctor_saves"] for g in games), heals)
    return {
        "name": m.name,
        "policies": m.policies,
        "games": n,
        "outcomes": {o: rate(wins[o], n) for o in outcomes},
        "days": {"mean": float(days.mean()), "std": float(days.std())},
        "moves": {"mean": float(moves.mean()), "std": float(moves.std())},
        "measures": measures,
    }
