"""Draw the robustness chart and write the tables of results/robust/README.md.

    python results/robust/make_page.py            # reads results/robust/*.json

Each JSON file is one `mafia robust --out` run. For each policy it draws
``robust-<policy>.png`` (the full tables; ``robust-<policy>-mixed.png`` the mixed ones:
per style and per task, side and mix, the paired difference policy - rule
bots; a cross marks a cell whose 95% interval lies wholly below 0) and writes the tables
between the markers ``<!-- tables:<policy> -->`` and ``<!-- /tables:<policy> -->`` of the
README. Needs matplotlib (extra ``train``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPLITS = ("train", "held_out")


def load(paths: list[Path]) -> dict[str, list[dict]]:
    """Every cell of the runs, by policy (a later file's cell replaces an earlier one's)."""
    by: dict[str, dict[tuple, dict]] = {}
    for path in sorted(paths):
        data = json.loads(path.read_text())
        if data.get("kind") != "robust":
            continue
        cells = by.setdefault(data["policy"], {})
        for c in data["cells"]:
            cells[(c["task"], c["side"], c["mix"], c["style"])] = c
    return {p: list(cells.values()) for p, cells in by.items()}


TASKS = ("sport-10", "city-13", "club-10", "online-10", "forum-10", "minimal-10")
SIDES = ("town", "mafia", "maniac")


def columns(cells: list[dict]) -> list[tuple[str, str, str]]:
    """The cells' (task, side, mix), in the tasks' order, then the sides', then the runs'."""
    seen: dict[tuple[str, str, str], int] = {}
    for c in cells:
        seen.setdefault((c["task"], c["side"], c["mix"]), len(seen))

    def key(k: tuple[str, str, str]) -> tuple:
        t, s, _ = k
        return (TASKS.index(t) if t in TASKS else len(TASKS), t, SIDES.index(s), seen[k])

    return sorted(seen, key=key)


def styles(cells: list[dict]) -> list[tuple[str, str]]:
    seen = {c["style"]: c["split"] for c in cells}
    order = {"train": 0, "held_out": 1}
    return sorted(seen.items(), key=lambda s: (order.get(s[1], 2), s[0]))


def chart(policy: str, cells: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    cols, rows = columns(cells), styles(cells)
    at = {(c["task"], c["side"], c["mix"], c["style"]): c for c in cells}
    grid = np.full((len(rows), len(cols)), np.nan)
    below = []
    for i, (style, _) in enumerate(rows):
        for j, col in enumerate(cols):
            c = at.get((*col, style))
            if c is not None:
                grid[i, j] = c["diff"]["mean"]
                if c["diff"]["hi"] < 0:
                    below.append((i, j))
    fig, ax = plt.subplots(figsize=(max(7.0, 3.2 + 0.5 * len(cols)), 1.2 + 0.28 * len(rows)))
    im = ax.imshow(grid, cmap="RdBu", vmin=-0.8, vmax=0.8, aspect="auto")
    for i, j in below:
        ax.text(j, i, "x", ha="center", va="center", fontsize=8, color="black")
    ax.set_xticks(range(len(cols)))
    mixes = {m for _, _, m in cols}
    ax.set_xticklabels(
        [f"{t} {s}" + ("" if len(mixes) == 1 else f" {m}") for t, s, m in cols],
        rotation=60,
        ha="right",
        fontsize=8,
    )
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(
        [f"{s} ({'held-out' if k == 'held_out' else k})" for s, k in rows], fontsize=8
    )
    deals = cells[0]["deals"]
    ax.set_title(
        f"{policy} - rule bots, paired on {deals} deals a cell (x: 95% interval below 0)",
        fontsize=9,
    )
    fig.colorbar(im, ax=ax, fraction=0.03, pad=0.02)
    fig.tight_layout()
    fig.savefig(path, dpi=90, metadata={"Software": None})
    plt.close(fig)


def fmt(d: dict) -> str:
    return f"{d['mean']:+.3f} [{d['lo']:+.3f}, {d['hi']:+.3f}]"


def tables(policy: str, cells: list[dict]) -> str:
    """The README's tables for one policy: per task, side and mix, the sets' means and the
    worst cell; then every cell below."""
    sys.path.insert(0, str(HERE.parents[1]))
    from baselines.robust import summarise

    rank = {"train": 0, "held_out": 1, "zoo": 2}
    place = {k: i for i, k in enumerate(columns(cells))}  # the runs' order of task, side, mix
    summary = sorted(
        summarise(cells),
        key=lambda s: (place[(s["task"], s["side"], s["mix"])], rank.get(s["split"], 3)),
    )
    lines = [
        "| task | side | mix | set | styles | "
        f"{policy} | rule | mean difference [95%] | worst cell | below |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in summary:
        w = s["worst_by_upper"]
        lines.append(
            f"| {s['task']} | {s['side']} | {s['mix']} | {s['split'].replace('_', '-')} | "
            f"{len(s['styles'])} | {s['policy_rate']:.3f} | {s['baseline_rate']:.3f} | "
            f"{fmt(s['diff'])} | {w['style']} {fmt(w)} | {len(s['below'])} |"
        )
    low = sorted((c for c in cells if c["diff"]["hi"] < 0), key=lambda c: c["diff"]["mean"])
    lines += [
        "",
        f"Cells where {policy} is below the rule bots beyond noise (the whole 95% interval "
        f"below 0): {len(low)} of {len(cells)}.",
        "",
        f"| task | side | mix | style | set | {policy} | rule | difference [95%] |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for c in low:
        lines.append(
            f"| {c['task']} | {c['side']} | {c['mix']} | {c['style']} | "
            f"{c['split'].replace('_', '-')} | {c['policy']['win_rate']:.2f} | "
            f"{c['baseline']['win_rate']:.2f} | {fmt(c['diff'])} |"
        )
    return "\n".join(lines)


def main() -> int:
    runs = load(list(HERE.glob("*.json")))
    readme = HERE / "README.md"
    text = readme.read_text() if readme.exists() else ""
    for policy, cells in runs.items():
        full = [c for c in cells if c["mix"] == "full"]
        mixed = [c for c in cells if c["mix"] != "full"]
        for part, name in ((full, f"robust-{policy}.png"), (mixed, f"robust-{policy}-mixed.png")):
            if part:
                chart(policy, part, HERE / name)
        start, end = f"<!-- tables:{policy} -->", f"<!-- /tables:{policy} -->"
        block = f"{start}\n{tables(policy, cells)}\n{end}"
        if start in text and end in text:
            head, rest = text.split(start, 1)
            text = head + block + rest.split(end, 1)[1]
        else:
            text += f"\n{block}\n"
    readme.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
