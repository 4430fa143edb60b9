"""The site's results page, from the result files shipped in ``results/``.

The tables are written from the JSON files at build time; the charts beside them are PNG files
that `charts.py` draws from the same files (each PNG carries the digest of the files it was
drawn from, and tests/docs/test_docs.py checks it against the files here).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from reference_table import load_results, markdown  # noqa: E402

from baselines.benchmark import attach_exploits, read_exploits  # noqa: E402
from mafia_env.tasks import LATEST  # noqa: E402

RESULTS = ROOT / "results" / f"v{LATEST}"  # the latest task version's
EXPLOITS = ROOT / "results" / "exploit"
STANDARD = EXPLOITS / "filler"  # the standard attacker's runs (results/exploit/README.md)
IMAGES = ROOT / "docs" / "images"
POLICIES = ("random", "rule", "ppo", "league", "filler")  # the reference table's order


def result_files() -> list[Path]:
    """Return the benchmark result files, in the reference table's policy order."""
    found = {p.stem: p for p in RESULTS.glob("*.json")}
    order = [found.pop(k) for k in POLICIES if k in found]
    return order + [found[k] for k in sorted(found)]


def exploit_files() -> list[Path]:
    """The exploitability runs of the reference column: one attacker for every policy and
    task, started from the task's seat-filler (``results/exploit/filler/``)."""
    return sorted(STANDARD.glob("*.json"))


def column_files() -> list[Path]:
    """The exploit results of the reference table's column (the standard runs)."""
    return exploit_files()


def digest(paths: list[Path]) -> str:
    """Return a short hash of the files' contents (what a chart was drawn from)."""
    h = hashlib.sha256()
    for p in paths:
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def reference() -> list[dict[str, Any]]:
    results = load_results(result_files())
    attach_exploits(results, read_exploits(column_files()))
    return results


def tasks(results: list[dict[str, Any]]) -> list[str]:
    return list(dict.fromkeys(r["task"] for r in results))


def exploit_rows() -> list[dict[str, Any]]:
    rows = [json.loads(p.read_text()) for p in exploit_files()]
    rank = {k: i for i, k in enumerate(POLICIES)}
    return sorted(rows, key=lambda r: (r["task"], rank.get(r["policy"], 99), r["policy"]))


def policies(results: list[dict[str, Any]]) -> list[str]:
    return list(dict.fromkeys(r["policy"] for r in results))


def headline_table(results: list[dict[str, Any]]) -> str:
    """Return the headlines, one row per policy and a column per task."""
    names = tasks(results)
    got = {(r["policy"], r["task"]): r["headline"] for r in results}
    lines = ["| policy | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for policy in policies(results):
        cells = [f"{got[policy, t]:.3f}" if (policy, t) in got else "-" for t in names]
        lines.append(f"| `{policy}` | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def exploit_table(results: list[dict[str, Any]]) -> str:
    """Return the exploitability of each policy on each task; *u*: the attacker's check failed."""
    names = tasks(results)
    got = {(r["policy"], r["task"]): r for r in exploit_rows()}
    lines = ["| policy | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for policy in policies(results):
        cells = []
        for t in names:
            r = got.get((policy, t))
            mark = " *u*" if r is not None and r.get("reliable") is False else ""
            cells.append("-" if r is None else f"{r['exploitability']:.3f}{mark}")
        lines.append(f"| `{policy}` | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def exploit_method() -> str:
    """Return how the standard runs were made, read from their files."""
    rows = exploit_rows()
    steps = sorted({r["steps_per_side"] for r in rows})
    games = sorted({r["games_per_side"] for r in rows})
    starts = sorted({str(r.get("start")) for r in rows})
    piece = sorted({r["task"] for r in rows if r.get("belief")})
    return (
        f"Each figure is one run of `mafia exploit` ({', '.join(f'{s:,}' for s in steps)} "
        f"steps a side, {', '.join(map(str, games))} games a side; the attacker starts from the "
        f"task's {' / '.join(starts)} network and reads the belief piece where that network "
        f"does: {', '.join(piece) or 'nowhere'}); the command: [exploitability]"
        "(guides/exploitability.md#the-standard-attacker). *u* (unreliable): the attacker's "
        "own town beat random mafia less often than the rule bots' town does on the same "
        "deals (its 95% interval wholly below their rate), so it may have missed what a "
        "stronger attacker would find: the figure is a lower bound."
    )


def results_page() -> str:
    results = reference()
    city = "city-13" in tasks(results)
    lines = [
        "# Reference results",
        "",
        "<!-- generated by scripts/docs/resultpage.py from results/: edit the files, not this -->",
        "",
        f"The benchmark's reference results (tasks version {LATEST}) and every policy's "
        f"exploitability, read from the files in `results/v{LATEST}/` and "
        "`results/exploit/filler/` "
        "when the site is built. How they are made, and how to report a result of your own: "
        "[the benchmark](guides/benchmark.md).",
        "",
        "## Headlines",
        "",
        "A policy's headline on a task is its mean win rate over the ten (side, opponent) "
        "pairs: it plays every seat of the town, then of the mafia, against each of the five "
        "reference opponents, 500 games a pair.",
        "",
        headline_table(results),
        "![Headline per task and policy](images/headlines.png)",
        "",
        "## Exploitability",
        "",
        "The win rate of a best response trained against the policy, averaged over the two "
        "sides: lower is harder to exploit. " + exploit_method(),
        "",
        exploit_table(results),
        "![Exploitability per task and policy](images/exploitability.png)",
        "",
        "## Win rates against each opponent, per task",
        "",
        "Each bar is one policy playing every seat of one side against one opponent (500 "
        "games, Wilson 95% interval); the legend gives each policy's headline."
        + (
            " On city-13 the seat-filler seats the rule bots as town (its network is "
            "trained for the mafia alone), so its town bars and rows are the rule bots', "
            "game for game."
            if city
            else ""
        ),
        "",
    ]
    for task in tasks(results):
        rows = [r for r in results if r["task"] == task]
        lines += [
            f"### {task}",
            "",
            f"![{task}: win rates by opponent](images/task-{task}.png)",
            "",
            f'??? note "{task}: the table"',
            "",
            *("    " + ln if ln else "" for ln in markdown(rows).splitlines()),
            "",
        ]
    return "\n".join(lines)


def pages() -> dict[str, str]:
    return {"results.md": results_page()}
