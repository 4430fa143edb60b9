"""How well `mafia_env.belief` predicts the hidden roles: the calibration table of issue 27.

For every task and opponent (the policy playing every seat: ``random``, ``rule``,
``league``), games are played and one seat per game is asked for its belief at a few moves
(`mafia_env.belief.calibration.play_and_score`); three predictions of every other seat's role
are scored: the uniform prior (over the deals the seat's own role and teammates allow),
deduction (``model=None``) and Bayes (``model=`` the opponent). Written to ``--out``:

- ``calibration.json``: every cell (log-loss, ECE, ECE of the uncertain predictions, the
  reliability bins, query times, games played);
- ``calibration.md``: the table per variant and opponent, then the reliability bins;
- ``deal_spaces.md``: the deals each role's seat weighs at the start of each task (exact or
  particles, `mafia_env.belief.EXACT_LIMIT`).

    nice python scripts/belief_calibration.py --seconds 60
    nice python scripts/belief_calibration.py --tasks sport-10 --opponents rule --games 200
    nice python scripts/belief_calibration.py --tasks forum-10 --opponents random --seed 1 --add

``--add`` adds the run's games to the cell measured before instead of replacing it (from
another ``--seed``: a seed's games are dealt from seed * 100,003 + game); the merged cell's
counts, log-losses, ECEs and bins are exact, and ``ece_open`` is "n/a" where a part was
written before its open bins were kept.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# a network model infers small batches: torch's thread pool costs more than it gives
os.environ.setdefault("OMP_NUM_THREADS", "1")

from mafia_env.belief import EXACT_LIMIT, PARTICLES, tracker  # noqa: E402
from mafia_env.belief.calibration import METHODS, merge_cells, play_and_score  # noqa: E402
from mafia_env.engine.game import Game  # noqa: E402
from mafia_env.variants import get_variant  # noqa: E402

TASKS = ("sport-10", "club-10", "online-10", "minimal-10", "forum-10", "city-13")
OPPONENTS = ("random", "rule", "league")


def deal_spaces(tasks: list[str]) -> list[dict]:
    """Return, per task and role, how many deals a seat of that role weighs at the start."""
    rows = []
    for task in tasks:
        variant, n = task.rsplit("-", 1)
        g = Game(get_variant(variant), int(n), 0)
        done = set()
        for s in range(g.n):
            role = g.roles[s]
            if role in done:
                continue
            done.add(role)
            t = tracker(g, s)
            rows.append(
                {
                    "task": task,
                    "role": role.label,
                    "deals": int(t.total),
                    "kept": "exact" if t.exact else f"{PARTICLES} particles",
                }
            )
    return rows


def _num(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.4f}"


def table(results: dict) -> str:
    lines = [
        "| task | opponent | games | predictions | "
        + " | ".join(f"{m} log-loss | {m} ECE" for m in METHODS)
        + " | Bayes ECE (uncertain) | Bayes ms/query |",
        "|---|---|---:|---:|" + "---:|---:|" * len(METHODS) + "---:|---:|",
    ]
    for key, r in results.items():
        task, opp = key.split("/")
        if "error" in r:
            lines.append(f"| {task} | {opp} | error: {r['error']} |")
            continue
        cells = " | ".join(f"{r[m]['log_loss']:.3f} | {r[m]['ece']:.4f}" for m in METHODS)
        b = r["bayes"]
        lines.append(
            f"| {task} | {opp} | {r['games']['played']} | {b['predictions']} | {cells} | "
            f"{_num(b['ece_open'])} | {b.get('query_ms', float('nan')):.2f} |"
        )
    lines.append("")
    lines.append("Reliability (Bayes): bin: predictions, mean predicted -> observed frequency")
    lines.append("")
    for key, r in results.items():
        if "error" in r:
            continue
        bins = "; ".join(
            f"{b['bin']}: {b['count']}, {b['predicted']:.3f}->{b['observed']:.3f}"
            for b in r["bayes"]["bins"]
        )
        lines.append(f"- {key}: {bins}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", default=",".join(TASKS))
    ap.add_argument("--opponents", default=",".join(OPPONENTS))
    ap.add_argument("--games", type=int, default=1000, help="games per cell at most")
    ap.add_argument("--queries", type=int, default=10, help="queries per game")
    ap.add_argument("--seconds", type=float, default=60.0, help="time per cell at most")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--add",
        action="store_true",
        help="add this run's games to the cells measured before (from another --seed)",
    )
    ap.add_argument("--out", default=str(ROOT / "results" / "belief"))
    args = ap.parse_args(argv)
    tasks = [t for t in args.tasks.split(",") if t]
    opponents = [o for o in args.opponents.split(",") if o]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "calibration.json"
    # cells measured before (another run's) are kept; the ones run now replace theirs
    results: dict[str, dict] = json.loads(path.read_text()) if path.exists() else {}
    for key in [f"{t}/{o}" for t in tasks for o in opponents] if args.add else []:
        if args.seed in results.get(key, {}).get("games", {}).get("seeds", [0]):
            ap.error(f"--add: {key} already holds the games of seed {args.seed}; pick another")
    for task in tasks:
        variant, n = task.rsplit("-", 1)
        for opp in opponents:
            t0 = time.perf_counter()
            try:
                r = play_and_score(
                    variant,
                    int(n),
                    opp,
                    games=args.games,
                    queries=args.queries,
                    seed=args.seed,
                    limit=args.seconds,
                )
            except Exception as e:  # a cell that cannot run (no shipped bot) is reported
                r = {"error": f"{type(e).__name__}: {e}"[:200]}
            r["seconds"] = time.perf_counter() - t0
            key = f"{task}/{opp}"
            if args.add and key in results and "error" not in r and "error" not in results[key]:
                r = merge_cells(results[key], r)
            results[key] = r
            print(task, opp, json.dumps({k: v for k, v in r.items() if k != "bins"})[:400])
            path.write_text(json.dumps(results, indent=1))
            (out / "calibration.md").write_text(table(results))
    spaces = deal_spaces(list(dict.fromkeys([*TASKS, *tasks])))  # every task's, always
    lines = [
        f"Deals each role's seat weighs at the deal (exact up to {EXACT_LIMIT:,}).",
        "",
        "| task | role | deals | kept as |",
        "|---|---|---:|---|",
    ]
    lines += [f"| {r['task']} | {r['role']} | {r['deals']:,} | {r['kept']} |" for r in spaces]
    (out / "deal_spaces.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
