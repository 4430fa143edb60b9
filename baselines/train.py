"""Train masked PPO from a YAML config, then evaluate against the bots.

    python -m baselines.train --config configs/ppo/sport.yaml
    python -m baselines.train --config configs/ppo/sport.yaml --resume runs/.../checkpoint.pt
    tensorboard --logdir runs

Every key of the config file is a field of `baselines.ppo.Config`; an unknown key is an
error. ``--set key=value`` overrides one key (YAML syntax for the value; ``league.key`` one
key of the league section).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from baselines.ppo import load_config, train
from baselines.ppo.config import with_overrides
from mafia_env.errors import MafiaError


def report(result: dict) -> str:
    """Return the final report: the learning curve and the final win rates with intervals."""
    opp = result["eval_opponent"]
    lines = [
        f"run: {result['run_dir']}",
        f"training speed: {result['sps']} env steps/s of wall time, "
        f"{result['cpu_sps']} per second of this process's CPU time",
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True, help="a YAML run config")
    parser.add_argument("--resume", help="a checkpoint.pt to continue from")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key"
    )
    args = parser.parse_args(argv)
    try:
        cfg = load_config(args.config)
        if args.set:
            cfg = with_overrides(cfg, args.set)
        if args.resume and not Path(args.resume).exists():
            raise MafiaError(f"no checkpoint at {args.resume}")
        result = train(cfg, resume=args.resume, log=lambda s: print(s, flush=True))
    except MafiaError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print()
    print(report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
