"""Evaluate policies by team: matchups of N games each, spread over the machine's cores.

    python -m baselines.evaluate --config configs/eval/sport.yaml

A config names a variant, a table size and a list of matchups, each giving one policy per
team (``town: rule``, ``mafia: random``; plus ``maniac`` where the variant deals one). Every
game of a matchup is seeded from the config's seed, the matchup's index and the game's
index, and games are played in fixed chunks with policies seeded per chunk, so a report does
not depend on the number of worker processes. The report gives, per matchup: each outcome's
rate with a Wilson 95% interval, game length (days and moves), and per-role measures (the
share of the town's ballots that hit a mafia player, how often the sheriff finds a mafia
player before dying, how often the doctor's heal saves someone). It is written as JSON, CSV
and a PNG chart of win rates with their intervals; a ``ratings`` section of the config also
rates the policies against each other (`baselines.ratings`).

| module | |
|---|---|
| `baselines.evaluate.eval_config` | the file (`EvalFile`), the run it describes (`EvalConfig`) |
| `baselines.evaluate.metrics` | one summary per game (`summarize`), a matchup's rates |
| `baselines.evaluate.run` | seeded chunks of games over the cores: `evaluate`, `rate_policies` |
| `baselines.evaluate.report` | report.json, report.csv, winrates.png, ratings.json, text tables |
| `baselines.evaluate.command` | the command line (`main`) |
"""

from __future__ import annotations

from baselines.evaluate.command import main
from baselines.evaluate.eval_config import (
    EvalConfig,
    EvalFile,
    Matchup,
    RatingConfig,
    check_policy,
    load_config,
    parse_config,
    resolve,
    variant_teams,
)
from baselines.evaluate.metrics import rate, report_matchup, summarize
from baselines.evaluate.report import (
    format_ratings,
    format_table,
    plot,
    write_ratings,
    write_reports,
)
from baselines.evaluate.run import (
    CHUNK,
    Task,
    evaluate,
    game_seed,
    matchup_tasks,
    play_chunk,
    rate_policies,
    run_tasks,
)
from baselines.stats import wilson

__all__ = [
    "CHUNK",
    "EvalConfig",
    "EvalFile",
    "Matchup",
    "RatingConfig",
    "Task",
    "check_policy",
    "evaluate",
    "format_ratings",
    "format_table",
    "game_seed",
    "load_config",
    "main",
    "matchup_tasks",
    "parse_config",
    "play_chunk",
    "plot",
    "rate",
    "rate_policies",
    "report_matchup",
    "resolve",
    "run_tasks",
    "summarize",
    "variant_teams",
    "wilson",
    "write_ratings",
    "write_reports",
]
