#!/usr/bin/env python
"""Check the seat-filler's bar (issues 20 and 28) from benchmark and exploit results.

    python scripts/seat_filler_check.py --results results/v3/*.json --candidate filler \
        --exploit results/exploit/*.json

For every task and side, the candidate's (``--candidate``, default ``league``) win rate
against each of random, rule, ppo and league must be at least the rule bots' (the upper end
of its Wilson interval at least their rate: where the rule bots won every game, so must the
candidate), its headline above the rule bots', ppo's and league's
(those given), and, where exploit results are given, its exploitability below the rule bots'
and ppo's. Prints a markdown table per criterion
and the shortfalls; exits 1 if any criterion fails.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference_table import load_results

from baselines.benchmark import read_exploits
from mafia_env.errors import ConfigError

OPPONENTS = ("random", "rule", "ppo", "league")  # the cells the bar reads


def check(results: list[dict], exploits: dict, candidate: str) -> tuple[list[str], list[str]]:
    """Return (markdown lines, shortfalls)."""
    by = {(r["policy"], r["task"]): r for r in results}
    tasks = list(dict.fromkeys(r["task"] for r in results if r["policy"] == candidate))
    if not tasks:
        raise ConfigError(f"no results of the candidate {candidate!r}")
    lines = [
        f"| task | side | vs | {candidate} | rule | bar met |",
        "|---|---|---|---|---|---|",
    ]
    short: list[str] = []
    for task in tasks:
        me, rule = by[(candidate, task)], by.get(("rule", task))
        if rule is None:
            raise ConfigError(f"no rule-bot results for {task}: run the benchmark for rule too")
        theirs = {(r["side"], r["opponent"]): r for r in rule["rows"]}
        for row in me["rows"]:
            if row["opponent"] not in OPPONENTS:
                continue
            ref = theirs[(row["side"], row["opponent"])]
            lo, hi = row["ci95"]
            ok = hi >= ref["win_rate"]
            lines.append(
                f"| {task} | {row['side']} | {row['opponent']} | {row['win_rate']:.3f} "
                f"[{lo:.3f}, {hi:.3f}] | {ref['win_rate']:.3f} | {'yes' if ok else 'no'} |"
            )
            if not ok:
                short.append(
                    f"{task} {row['side']} vs {row['opponent']}: {row['win_rate']:.3f} "
                    f"[{lo:.3f}, {hi:.3f}] against the rule bots' {ref['win_rate']:.3f} "
                    f"({row['win_rate'] - ref['win_rate']:+.3f})"
                )
    lines += [
        "",
        f"| task | {candidate} headline | rule | ppo | league | above them |",
        "|---|---|---|---|---|---|",
    ]
    others = [p for p in ("rule", "ppo", "league") if p != candidate]
    for task in tasks:
        h = {p: by[(p, task)]["headline"] for p in (candidate, *others) if (p, task) in by}
        ok = all(h[candidate] > h[p] for p in others if p in h)
        cells = {p: f"{h[p]:.3f}" if p in h else "-" for p in ("rule", "ppo", "league")}
        lines.append(
            f"| {task} | {h[candidate]:.3f} | {cells['rule']} | {cells['ppo']} | "
            f"{cells['league']} | {'yes' if ok else 'no'} |"
        )
        if not ok:
            named = ", ".join(f"{p} {cells[p]}" for p in others)
            short.append(f"{task} headline {h[candidate]:.3f} ({named})")
    if exploits:
        lines += ["", f"| task | {candidate} exploitability | rule | ppo | below both |"]
        lines.append("|---|---|---|---|---|")
        for task in tasks:
            e = {p: exploits[(task, p)]["exploitability"] for p in (candidate, "rule", "ppo")
                 if (task, p) in exploits}  # fmt: skip
            if candidate not in e:
                continue
            ok = all(e[candidate] < e[p] for p in ("rule", "ppo") if p in e)
            cells = " | ".join(f"{e[p]:.3f}" if p in e else "-" for p in ("rule", "ppo"))
            lines.append(f"| {task} | {e[candidate]:.3f} | {cells} | {'yes' if ok else 'no'} |")
            if not ok:
                short.append(f"{task} exploitability {e[candidate]:.3f} ({cells})")
    return lines, short


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", nargs="+", required=True, help="benchmark result files")
    parser.add_argument("--exploit", nargs="*", default=[], help="exploit result files")
    parser.add_argument("--candidate", default="league", help="the policy checked")
    args = parser.parse_args(argv)
    try:
        lines, short = check(
            load_results(args.results), read_exploits(args.exploit), args.candidate
        )
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    print("\nshortfalls:" if short else "\nevery criterion met")
    for s in short:
        print(f"- {s}")
    return 1 if short else 0


if __name__ == "__main__":
    sys.exit(main())
