"""The command line: ``python -m baselines.evaluate --config configs/eval/sport.yaml``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from baselines.evaluate.config import load_config, parse_config
from baselines.evaluate.report import format_ratings, format_table, write_ratings, write_reports
from baselines.evaluate.run import evaluate, rate_policies
from mafia_env import config
from mafia_env.errors import ConfigError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m baselines.evaluate",
        description="Evaluate policies by team: matchups of N games each, and ratings.",
    )
    parser.add_argument("--config", required=True, help="YAML evaluation config")
    parser.add_argument("--games", type=int, help="override the games per matchup")
    parser.add_argument("--workers", type=int, help="override the worker processes (0: all)")
    parser.add_argument("--out", help="override the output directory")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    args = parser.parse_args(argv)
    try:
        cfg = load_config(args.config)
        overrides = {k: getattr(args, k) for k in ("games", "workers", "out")}
        overrides = {k: v for k, v in overrides.items() if v is not None}
        if overrides:
            cfg = parse_config({**config.read_yaml(args.config), **overrides}, args.config)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    out = Path(cfg.out)
    if cfg.matchups:
        reports = evaluate(cfg, progress=not args.no_progress)
        print(format_table(reports, cfg.teams))
        for p in write_reports(cfg, reports, out):
            print(f"wrote {p}")
    if cfg.ratings is not None:
        table = rate_policies(cfg, progress=not args.no_progress)
        print(format_ratings(table))
        for p in write_ratings(table, out):
            print(f"wrote {p}")
    return 0
