"""Train masked PPO from a YAML config, then evaluate against the bots.

    mafia train --config configs/ppo/sport.yaml        (python -m baselines.train ...)
    mafia train --config ppo/sport --resume runs/ppo_sport_1/checkpoint.pt
    tensorboard --logdir runs

Every key of the config file is a field of `baselines.ppo.Config`; an unknown key is an
error. ``--set key=value`` overrides one key (YAML syntax for the value; ``league.key`` one
key of the league section). ``--config`` takes a path or a shipped config's name
(``ppo/sport``: `baselines.resources`). The run writes ``runs/<exp_name>_<variant>_<seed>``
(TensorBoard logs, ``checkpoint.pt``, ``agent.pt``, ``learning_curve.png``); where an earlier
run is there, ``...-2`` (``--force``: over it); ``--resume`` goes on in the checkpoint's folder.
"""

from __future__ import annotations

import sys
from pathlib import Path

from baselines.resources import config_names, config_path
from mafia_env.commands import add_quiet, echo, parse, parser, run, showing_progress
from mafia_env.errors import MafiaError


def report(result: dict) -> str:
    """Return the final report: the learning curve and the final win rates with intervals."""
    opp = result["eval_opponent"]
    lines = [
        f"run: {result['run_dir']}",
        f"training speed: {result['sps']} env steps/s of wall time, "
        f"{result['cpu_sps']} per second of this process's CPU time",
        *([f"learning curve: {result['curve_png']}"] if result.get("curve_png") else []),
        "",
    ]
    if result["curve"]:
        lines.append(f"win rate vs {opp} bots during training (town / mafia):")
        for p in result["curve"]:
            lines.append(f"  step {p['step']:>10}: {p['town']:.3f} / {p['mafia']:.3f}")
        lines.append("")
    lines.append(f"final evaluation vs {opp} bots (Wilson 95% intervals):")
    lines.extend(comparison_lines(result["final"], opp))
    lines.append(f"checkpoint: {result['checkpoint']}  (weights only: {result['agent']})")
    return "\n".join(lines)


def comparison_lines(final: dict, opp: str) -> list[str]:
    """Return PPO's win rate per team beside the bots' own, and whether PPO is better."""
    lines = []
    for team, r in final.items():
        other = "mafia" if team == "town" else "town"
        lines.append(
            f"  PPO {team:<5} vs {opp} {other:<5}: {r['wins']}/{r['games']} = {r['rate']:.3f} "
            f"[{r['lo']:.3f}, {r['hi']:.3f}]"
        )
        if "bot_rate" in r:
            verdict = "better, intervals apart" if r["better"] else "not yet apart"
            lines.append(
                f"  {opp} {team:<5} vs {opp} {other:<5}: {r['bot_wins']}/{r['bot_games']} = "
                f"{r['bot_rate']:.3f} [{r['bot_lo']:.3f}, {r['bot_hi']:.3f}]  -> {verdict}"
            )
    return lines


def main(argv: list[str] | None = None, prog: str = "python -m baselines.train") -> int:
    p = parser(prog, __doc__)
    shipped = [*config_names("ppo"), *config_names("league"), *config_names("filler")]
    p.add_argument(
        "--config",
        required=True,
        help=f"a YAML run config: a path, or a shipped one's name ({', '.join(shipped[:6])}, ...)",
    )
    p.add_argument("--resume", help="a checkpoint.pt to continue from (in its own folder)")
    p.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key"
    )
    p.add_argument("--force", action="store_true", help="overwrite an earlier run's folder")
    add_quiet(p, "progress bar and log lines (only the final report)")
    args = parse(p, argv)
    if isinstance(args, int):
        return args
    from baselines.ppo import load_config, train  # after the help, which needs no torch
    from baselines.ppo.ppo_config import with_overrides

    try:
        cfg = load_config(config_path(args.config))
        if args.set:
            cfg = with_overrides(cfg, args.set)
        if args.resume and not Path(args.resume).exists():
            raise MafiaError(f"no checkpoint at {args.resume}")
        log = (lambda s: None) if args.quiet else echo
        with showing_progress(not args.quiet):
            result = train(cfg, resume=args.resume, log=log, force=args.force)
    except MafiaError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print()
    print(report(result))
    return 0


if __name__ == "__main__":
    sys.exit(run(main, what="mafia train"))
