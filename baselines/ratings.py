"""Ratings across policies: pooled games rated with openskill, one rating per policy per team.

    python -m baselines.ratings --config configs/eval/sport.yaml

The config's ``ratings`` section lists policies; every assignment of them to the teams
(town=rule vs mafia=random, town=random vs mafia=rule, ...) plays ``games`` games, and the
pooled games are rated in a fixed order with openskill's Plackett-Luce model. Each game is a
match between one rated entity per team, ``rule@town`` against ``random@mafia``: the winner
ranks first, a draw ranks everyone equal. A team's rating says how well a policy plays that
side; ratings of different sides are comparable only through the games between them.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path
from typing import Any

from baselines.evaluate import EvalConfig, load_config, matchup_tasks, run_tasks
from mafia_env.errors import ConfigError


def rate_policies(cfg: EvalConfig, progress: bool = True) -> list[dict[str, Any]]:
    """Play the pooled games of `cfg.ratings`; return the rating table, best first."""
    from openskill.models import PlackettLuce

    if cfg.ratings is None:
        raise ConfigError("the config has no 'ratings' section (policies: [...], games: N)")
    teams = cfg.teams
    pairings = list(itertools.product(cfg.ratings.policies, repeat=len(teams)))
    tasks, owner = [], []
    for i, combo in enumerate(pairings):
        policies = dict(zip(teams, combo, strict=True))
        for t in matchup_tasks(cfg, 1000 + i, policies, cfg.ratings.games):
            tasks.append(t)
            owner.append(policies)
    results = run_tasks(tasks, cfg.workers, progress, f"{cfg.variant} ratings")
    model = PlackettLuce()
    ratings = {(p, t): model.rating(name=f"{p}@{t}") for p in cfg.ratings.policies for t in teams}
    games = {key: 0 for key in ratings}
    wins = {key: 0 for key in ratings}
    for policies, res in zip(owner, results, strict=True):
        for g in res:
            keys = [(policies[t], t) for t in teams]
            ranks = [0 if g["winner"] in (t, "draw") else 1 for t in teams]
            new = model.rate([[ratings[k]] for k in keys], ranks=ranks)
            for k, team in zip(keys, new, strict=True):
                ratings[k] = team[0]
                games[k] += 1
                wins[k] += g["winner"] == k[1]
    table = [
        {
            "policy": p,
            "team": t,
            "mu": r.mu,
            "sigma": r.sigma,
            "ordinal": r.ordinal(),
            "games": games[(p, t)],
            "win_rate": wins[(p, t)] / games[(p, t)] if games[(p, t)] else 0.0,
        }
        for (p, t), r in ratings.items()
    ]
    table.sort(key=lambda row: (row["team"], -row["ordinal"]))
    print(format_ratings(table))
    return table


def format_ratings(table: list[dict[str, Any]]) -> str:
    """Return the rating table as text: one row per policy per team."""
    lines = [f"{'team':<8}{'policy':<24}{'mu':>8}{'sigma':>8}{'ordinal':>9}{'games':>7}{'wins':>7}"]
    for r in table:
        lines.append(
            f"{r['team']:<8}{r['policy'][:23]:<24}{r['mu']:>8.2f}{r['sigma']:>8.2f}"
            f"{r['ordinal']:>9.2f}{r['games']:>7}{r['win_rate']:>7.3f}"
        )
    return "\n".join(lines)


def write_ratings(table: list[dict[str, Any]], out: Path) -> list[Path]:
    """Write ratings.json under `out`; return the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "ratings.json"
    path.write_text(json.dumps(table, indent=2) + "\n", encoding="utf-8")
    return [path]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m baselines.ratings", description=__doc__)
    parser.add_argument("--config", required=True, help="YAML config with a ratings section")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    args = parser.parse_args(argv)
    try:
        cfg = load_config(args.config)
        if cfg.ratings is None:
            raise ConfigError(f"{args.config}: no 'ratings' section (policies: [...], games: N)")
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    table = rate_policies(cfg, progress=not args.no_progress)
    for p in write_ratings(table, Path(cfg.out)):
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
