"""Ratings across policies: pooled games rated with openskill, one rating per policy per team.

    python -m baselines.ratings --config configs/eval/sport.yaml

The config's ``ratings`` section lists policies; every assignment of them to the teams
(town=rule vs mafia=random, town=random vs mafia=rule, ...) plays ``games`` games, and the
pooled games are rated in a fixed order with openskill's Plackett-Luce model. Each game is a
match between one rated entity per team, ``rule@town`` against ``random@mafia``: the winner
ranks first, a draw ranks everyone equal. A team's rating says how well a policy plays that
side; ratings of different sides are comparable only through the games between them.

The pooling and rating live in `baselines.evaluate` (whose command runs them too); this
module is the command that runs only them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from baselines.evaluate import format_ratings, load_config, rate_policies, write_ratings
from mafia_env.errors import ConfigError

__all__ = ["format_ratings", "main", "rate_policies", "write_ratings"]


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
    print(format_ratings(table))
    for p in write_ratings(table, Path(cfg.out)):
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
