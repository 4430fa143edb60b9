"""Ratings across policies: pooled games rated with openskill, one rating per policy per team.

    mafia ratings --config configs/eval/sport.yaml        (python -m baselines.ratings ...)

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

import sys
from pathlib import Path

from baselines.evaluate import format_ratings, load_config, rate_policies, write_ratings
from baselines.resources import config_path
from mafia_env.commands import add_quiet, parse, parser, require, run
from mafia_env.errors import ConfigError, MafiaError

__all__ = ["format_ratings", "main", "rate_policies", "write_ratings"]


def main(argv: list[str] | None = None, prog: str = "python -m baselines.ratings") -> int:
    p = parser(prog, __doc__)
    p.add_argument(
        "--config", required=True, help="YAML config with a ratings section (a path or a name)"
    )
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    add_quiet(p, "progress bar")
    args = parse(p, argv)
    if isinstance(args, int):
        return args
    try:
        cfg = load_config(config_path(args.config))
        if cfg.ratings is None:
            raise ConfigError(f"{args.config}: no 'ratings' section (policies: [...], games: N)")
        require("openskill", "ratings")
    except MafiaError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    table = rate_policies(cfg, progress=not (args.no_progress or args.quiet))
    print(format_ratings(table))
    for p in write_ratings(table, Path(cfg.out)):
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    raise SystemExit(run(main, what="mafia ratings"))
