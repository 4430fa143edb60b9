#!/usr/bin/env python
"""Regenerate the README's reference table from benchmark and exploit results.

    python scripts/reference_table.py --results random.json rule.json --exploit exploit/*.json
    python scripts/reference_table.py --run --policies random rule ppo league \\
        --tasks sport-10 city-13 --save results/ --readme README.md
    python scripts/reference_table.py --run --policies random rule ppo league filler \\
        --reuse results/v3/*.json --save results/v4 --exploit results/exploit/*.json \\
        results/exploit/filler/*.json

From result files (`python -m baselines.benchmark ... --out FILE`: a result or a list of them)
or, with ``--run``, by playing the protocol here: every (policy, task, side, opponent) pair is
one job of a process pool over ``--workers`` cores, each pair seeded as the sequential protocol
seeds it, so the numbers are the same as one process would give. Exploit results
(`python -m baselines.exploit ... --out FILE`) add the exploitability column. The table is
printed, written to ``--out``, or put into ``--readme`` between the markers
``<!-- reference-table -->`` and ``<!-- /reference-table -->``.

``--save DIR`` writes DIR/POLICY.json; results there of other tasks (of the same version) are
kept, so one task can be played again alone. ``--reuse FILES`` (with ``--run``) takes the
pairs that results of an earlier task version played where they are the same games
(`reusable`): the same table, rules, seeds and games per pair, and the opponent the same
pinned file. Each such row says ``"from_version"``; the headline is computed over all pairs.
A shipped bot as the learner (``filler``, ``ppo``, ``league``) is reused only where both
versions pin its file alike; any other learner is trusted to be the one the earlier result
played: a policy whose file changed since (a retrained checkpoint) must not be given with its
old results.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from baselines import pins
from baselines.benchmark import attach_exploits, json_items, one_thread, read_exploits, run_many
from mafia_env.errors import ConfigError, MafiaError
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, Task, get_task

START, END = "<!-- reference-table -->", "<!-- /reference-table -->"


def load_results(paths: list[str | Path]) -> list[dict[str, Any]]:
    """Read benchmark result files (one result or a list each), in order."""
    out: list[dict[str, Any]] = []
    for path in paths:
        items = json_items(path, "benchmark result")
        for item in items:
            if not (isinstance(item, dict) and {"task", "policy", "rows", "headline"} <= set(item)):
                raise ConfigError(
                    f"{path} is not a benchmark result (python -m baselines.benchmark --out): "
                    "each needs task, policy, rows and headline"
                )
        out.extend(items)
    return out


def same_games(earlier: Task, task: Task, opponent: str) -> bool:
    """Whether `task`'s pairs against `opponent` are the games `earlier` played against it:
    each pair is seeded by the task alone (`baselines.benchmark.play_side`), so the same
    table, rules, seeds, games and protocol, and the opponent's same pinned file seated alike
    (`baselines.pins.seated`: the same bots on the same sides), give them."""
    return (
        (earlier.variant, earlier.num_players, earlier.seed, earlier.games)
        == (task.variant, task.num_players, task.seed, task.games)
        and earlier.play_knobs() == task.play_knobs()
        and (earlier.version >= 3) == (task.version >= 3)  # the lockstep protocol
        and opponent in earlier.opponents
        and pins.pin(earlier, opponent) == pins.pin(task, opponent)
        and pins.seated(earlier, opponent) == pins.seated(task, opponent)
    )


def reusable(
    results: list[dict[str, Any]], tasks: list[Task]
) -> dict[tuple[str, str, str, str], dict]:
    """Return the rows of `results` (of earlier task versions) that are the same games as a
    pair of `tasks`, by (policy, task, side, opponent), each marked with its ``from_version``.

    Only standard results of a definition still pinned (their digest is that version's) count.
    """
    by_name = {t.name: t for t in tasks}
    known: dict[tuple[str, str, str, str], dict] = {}
    for r in results:
        task = by_name.get(r["task"])
        if task is None or r.get("version") == task.version or not r.get("standard"):
            continue
        earlier = get_task(r["task"], r["version"])
        if pins.pin(earlier, r["policy"]) != pins.pin(task, r["policy"]):
            continue  # a shipped learner that was retrained since: other games
        if r.get("digest") != pins.digest(earlier) or r.get("games_per_pair") != task.games:
            raise ConfigError(
                f"a {r['policy']} result of {r['task']} version {r['version']} has digest "
                f"{r.get('digest')} and {r.get('games_per_pair')} games a pair: not the "
                f"pinned definition ({pins.digest(earlier)}, {earlier.games}); do not reuse it"
            )
        mine, now = pins.seated(earlier, r["policy"]), pins.seated(task, r["policy"])
        for row in r["rows"]:
            side, opp = row["side"], row["opponent"]
            if mine.get(side) != now.get(side):
                continue  # the learner's side is played by another bot now: other games
            if side in task.sides and same_games(earlier, task, opp):
                key = (r["policy"], task.name, side, opp)
                known[key] = {**row, "from_version": earlier.version}
    return known


def save(results: list[dict[str, Any]], folder: str | Path, policies: list[str]) -> None:
    """Write each policy's results to FOLDER/POLICY.json, keeping the results already there of
    other tasks of the same version (in the version's task order)."""
    Path(folder).mkdir(parents=True, exist_ok=True)
    for policy in policies:
        mine = [r for r in results if r["policy"] == policy]
        name = Path(policy).stem if policy.endswith(".pt") else policy
        path = Path(folder, f"{name}.json")
        if path.exists() and mine:
            done = {r["task"] for r in mine}
            kept = [
                r
                for r in load_results([path])
                if r["task"] not in done and r.get("version") == mine[0]["version"]
            ]
            order = list(TASKS_BY_VERSION.get(mine[0]["version"], {}))
            rank = {t: i for i, t in enumerate(order)}
            mine = sorted(kept + mine, key=lambda r: rank.get(r["task"], len(order)))
        path.write_text(json.dumps(mine, indent=2))


def _order(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


def markdown(results: list[dict[str, Any]]) -> str:
    """Return the reference table: one row per (policy, task), in the order given."""
    if not results:
        raise ConfigError("no benchmark results to tabulate")
    versions = _order([str(r.get("version", "?")) for r in results])
    if len(versions) > 1:
        raise ConfigError(f"results of task versions {', '.join(versions)}: tabulate one version")
    latest = {(r["policy"], r["task"]): r for r in results}  # a later result replaces one
    rows = [r for r in results if latest[(r["policy"], r["task"])] is r]
    sides = _order([x["side"] for r in rows for x in r["rows"]])
    opps = _order([x["opponent"] for r in rows for x in r["rows"]])
    games = _order([str(r.get("games_per_pair", "?")) for r in rows])
    vs = " / ".join(opps)
    lines = [
        f"Tasks version {versions[0]}, {' or '.join(games)} games per pair; win rates of the "
        "policy's side against each opponent; exploitability: the best response's mean win "
        "rate against the policy (`baselines.exploit`).",
        "",
        "| policy | task | headline | "
        + " | ".join(f"as {side} vs {vs}" for side in sides)
        + " | exploitability |",
        "|---|---|---|" + "---|" * len(sides) + "---|",
    ]
    for r in rows:
        rate = {(x["side"], x["opponent"]): x["win_rate"] for x in r["rows"]}
        cells = [
            " / ".join(f"{rate[s, o]:.3f}" if (s, o) in rate else "-" for o in opps) for s in sides
        ]
        e = r.get("exploitability")
        unsure = " (unreliable)" if r.get("exploit_reliable") is False else ""
        cells.append("-" if e is None else f"{e:.3f}{unsure}")
        lines.append(
            f"| {r['policy']} | {r['task']} | **{r['headline']:.3f}** | " + " | ".join(cells) + " |"
        )
    return "\n".join(lines) + "\n"


def into_readme(text: str, table: str) -> str:
    """Return `text` with the part between the table's markers replaced by `table`."""
    if text.count(START) != 1 or text.count(END) != 1 or text.index(START) > text.index(END):
        raise ConfigError(f"the README needs one {START} line and, after it, one {END} line")
    head, rest = text.split(START)
    _, tail = rest.split(END)
    return f"{head}{START}\n{table}{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Regenerate the benchmark's reference table.")
    p.add_argument("--results", nargs="*", default=[], help="benchmark result JSON files")
    p.add_argument("--exploit", nargs="*", default=[], help="exploit result JSON files")
    p.add_argument("--run", action="store_true", help="play the protocol here first")
    p.add_argument("--policies", nargs="*", default=["random", "rule", "ppo", "league"])
    p.add_argument("--tasks", nargs="*", help="task names (default: every task)")
    p.add_argument("--version", type=int, default=LATEST, choices=sorted(TASKS_BY_VERSION))
    p.add_argument("--games", type=int, help="games per pair (non-standard: for smoke runs)")
    p.add_argument("--workers", type=int, default=2, help="processes for --run (default 2)")
    p.add_argument(
        "--save",
        help="with --run: write each policy's results to DIR/POLICY.json (other tasks' kept)",
    )
    p.add_argument(
        "--reuse",
        nargs="*",
        default=[],
        help="with --run: result files of an earlier version whose pairs are the same games",
    )
    p.add_argument("--out", help="write the table here")
    p.add_argument("--readme", help="put the table into this README between its markers")
    args = p.parse_args(argv)
    try:
        results = load_results(args.results)
        if args.run:
            names = args.tasks or list(TASKS_BY_VERSION[args.version])
            tasks = [get_task(name, args.version) for name in names]
            if args.reuse and args.games:
                raise ConfigError("--reuse takes standard results: drop --games")
            known = reusable(load_results(args.reuse), tasks) if args.reuse else {}
            ran = run_many(args.policies, tasks, args.games, args.workers, known=known)
            if args.save:
                save(ran, args.save, args.policies)
            results += ran
        attach_exploits(results, read_exploits(args.exploit))
        table = markdown(results)
        if args.readme:
            readme = Path(args.readme)
            readme.write_text(into_readme(readme.read_text(), table))
    except (ConfigError, MafiaError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.out:
        Path(args.out).write_text(table)
    print(table, end="")
    return 0


if __name__ == "__main__":
    one_thread()  # the command's process; a caller of main() keeps its own threads
    sys.exit(main())
