"""Where the shipped seat-fillers stand against issue 45's bars, from the 500-deal runs that
judged them (`experiments/`): for each task and side, the cells below the rule bots at full
and at mixed tables, and the mean over the zoo at full tables (training / held-out / all).

    python results/robust/bars.py            # the latest tasks version's fillers
    python results/robust/bars.py --cells    # every cell below the rule bots, worst first

`SHIPPED` names, for each task and side of the latest version's filler, the runs that played
it (a side the rule bots hold, `baselines.pins.seated`, is level with them by construction:
no run). Each run is one `mafia robust` of 500 deals a cell, its rule bots' arm reused from
an earlier run of the same deals; the file records its command. A side's cells may span
several files (the training and held-out styles apart, or full and mixed tables apart).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNS = HERE / "experiments"
RULE = "rule bots (seated: the same games)"

# task -> side -> the runs (files under experiments/) that judged tasks version 20's filler
SHIPPED: dict[str, dict[str, list[str] | str]] = {
    "sport-10": {
        "town": [
            "sport_v19-sport-10-town-full-500.json",
            "sport_v19-sport-10-town-mixed-500.json",
        ],
        "mafia": [
            "sport_v15-sport-10-mafia-full-500.json",
            "sport_v15-sport-10-mafia-mixed-500.json",
        ],
    },
    "city-13": {
        "town": RULE,
        "mafia": ["city_agree5-city-13-mafia-500.json"],
        "maniac": RULE,
    },
    "club-10": {
        "town": [f"club_v17-club-10-town-{mix}-500.json" for mix in ("full", "mixed")],
        "mafia": [f"club_v14-club-10-mafia-{mix}-500.json" for mix in ("full", "mixed")],
    },
    "online-10": {
        "town": [f"online_v20-online-10-town-{mix}-500.json" for mix in ("full", "mixed")],
        "mafia": [f"online_v18-online-10-mafia-{mix}-500.json" for mix in ("full", "mixed")],
    },
    "forum-10": {
        "town": [
            f"town_unvouched-forum-10-{mix}{split}-500.json"
            for mix in ("", "mixed-")
            for split in ("train", "held_out")
        ],
        "mafia": [f"forum_v14-forum-10-mafia-{mix}-500.json" for mix in ("full", "mixed")],
        "maniac": RULE,
    },
    "minimal-10": {
        side: ["minimal_agree1-minimal-10-500.json", "minimal_agree1-minimal-10-mixed-500.json"]
        for side in ("town", "mafia")
    },
}
MIXED = ("half-rule", "half-style")


def cells(task: str, side: str, files: list[str]) -> list[dict]:
    """The cells of `side` in the runs `files` (each cell once: the zoo's 28 styles, every mix
    the runs played)."""
    out: dict[tuple, dict] = {}
    for name in files:
        data = json.loads((RUNS / name).read_text())
        for c in data["cells"]:
            if c["task"] == task and c["side"] == side and c["split"] in ("train", "held_out"):
                key = (c["mix"], c["style"])
                if key in out:
                    raise SystemExit(f"{name}: cell {key} of {task} {side} twice")
                out[key] = c
    return list(out.values())


def mean(rows: list[dict]) -> float:
    """The mean of the cells' paired differences (filler - rule bots)."""
    return sum(c["diff"]["mean"] for c in rows) / len(rows) if rows else float("nan")


def table() -> list[str]:
    """The bars' table (markdown rows), its last row the totals."""
    lines = [
        "| task | side | full: below (of 28) | mixed: below (of 56) | full: mean over the zoo "
        "(training / held-out / all) | all >= +0.05 |",
        "|---|---|---:|---:|---|---|",
    ]
    total = [0, 0]
    for task, sides in SHIPPED.items():
        for side, files in sides.items():
            if files == RULE:
                lines.append(f"| {task} | {side} | 0 | 0 | +0.000 ({RULE}) | no |")
                continue
            got = cells(task, side, files)
            full = [c for c in got if c["mix"] == "full"]
            mixed = [c for c in got if c["mix"] in MIXED]
            if len(full) != 28 or len(mixed) != 56:
                raise SystemExit(f"{task} {side}: {len(full)} full and {len(mixed)} mixed cells")
            below = [sum(c["diff"]["hi"] < 0 for c in rows) for rows in (full, mixed)]
            total = [t + b for t, b in zip(total, below, strict=True)]
            train = mean([c for c in full if c["split"] == "train"])
            held = mean([c for c in full if c["split"] == "held_out"])
            zoo = mean(full)
            bar = "met" if zoo >= 0.05 else "no"
            lines.append(
                f"| {task} | {side} | {below[0]} | {below[1]} | "
                f"{train:+.3f} / {held:+.3f} / {zoo:+.3f} | {bar} |"
            )
    lines.append(f"| all | | {total[0]} | {total[1]} | {total[0] + total[1]} cells below | |")
    return lines


def below() -> list[str]:
    """Every cell below the rule bots (its paired interval under 0), a line each: task, side,
    mix, style, split, the filler's and the rule bots' scores, the difference and its 95%
    interval; worst first within each side."""
    lines = []
    for task, sides in SHIPPED.items():
        for side, files in sides.items():
            if files == RULE:
                continue
            rows = [c for c in cells(task, side, files) if c["diff"]["hi"] < 0]
            for c in sorted(rows, key=lambda c: c["diff"]["mean"]):
                d = c["diff"]
                lines.append(
                    f"{task:10} {side:6} {c['mix']:10} {c['style']:20} {c['split']:8} "
                    f"{c['policy']['score']:.3f} vs {c['baseline']['score']:.3f}  "
                    f"{d['mean']:+.3f} [{d['lo']:+.3f}, {d['hi']:+.3f}]"
                )
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cells", action="store_true", help="list every cell below, worst first")
    args = ap.parse_args(argv)
    print("\n".join(below() if args.cells else table()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
