"""The command line: ``mafia evaluate --config configs/eval/sport.yaml`` (``python -m
baselines.evaluate``)."""

from __future__ import annotations

import sys
from pathlib import Path

from baselines.evaluate.eval_config import load_config, parse_config
from baselines.evaluate.report import format_ratings, format_table, write_ratings, write_reports
from baselines.evaluate.run import evaluate, rate_policies
from baselines.resources import config_names, config_path
from baselines.runs import claim_dir, fresh_dir
from mafia_env import yaml_config
from mafia_env.commands import add_quiet, parse, parser, require, run
from mafia_env.errors import MafiaError


def main(argv: list[str] | None = None, prog: str = "python -m baselines.evaluate") -> int:
    p = parser(prog, "Evaluate policies by team: matchups of N games each, and ratings.")
    p.add_argument(
        "--config",
        required=True,
        help="a YAML evaluation config: a path, or a shipped one's name ("
        + ", ".join(config_names("eval"))
        + ")",
    )
    p.add_argument(
        "--games",
        type=int,
        help="games per matchup and per ratings pairing, instead of the config's (a bound on "
        "every game the run plays)",
    )
    p.add_argument("--workers", type=int, help="worker processes instead of the config's (0: all)")
    p.add_argument("--out", help="the output folder instead of the config's")
    p.add_argument("--force", action="store_true", help="overwrite an earlier run's folder")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    add_quiet(p, "progress bar")
    args = parse(p, argv)
    if isinstance(args, int):
        return args
    try:
        path = config_path(args.config)
        cfg = load_config(path)
        overrides = {k: getattr(args, k) for k in ("games", "workers", "out")}
        overrides = {k: v for k, v in overrides.items() if v is not None}
        if overrides:
            data = {**yaml_config.read_yaml(path), **overrides}
            if args.games is not None and isinstance(data.get("ratings"), dict):
                data["ratings"] = {**data["ratings"], "games": args.games}
            cfg = parse_config(data, str(path))
        if cfg.ratings is not None:  # before any game is played
            require("openskill", "a ratings section")
    except MafiaError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    show = not (args.no_progress or args.quiet)
    out = fresh_dir(Path(cfg.out), args.force)
    if out != Path(cfg.out):
        print(f"{cfg.out} holds an earlier run: this one writes {out} (--force: over it)")
    reports = evaluate(cfg, progress=show) if cfg.matchups else None
    table = rate_policies(cfg, progress=show) if cfg.ratings is not None else None
    claim_dir(out, args.force)
    if reports is not None:
        print(format_table(reports, cfg.teams))
        written = write_reports(cfg, reports, out)
        for p_ in written:
            print(f"wrote {p_}")
        if not any(p_.suffix == ".png" for p_ in written):
            print("no winrates.png: the chart needs matplotlib (pip install 'mafia-env[train]')")
    if table is not None:
        print(format_ratings(table))
        for p_ in write_ratings(table, out):
            print(f"wrote {p_}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main, what="mafia evaluate"))
