#!/usr/bin/env python
"""Draw the site's charts from the result files in results/ (PNG, small, under docs/images/).

    python scripts/docs/charts.py          # every chart
    python scripts/docs/charts.py --check  # exit 1 if a chart is older than its result files

- ``task-<task>.png``: per task, the win rate of each policy's side against each opponent
  (the latest tasks version: results/vN/*.json), with Wilson 95% intervals;
- ``headlines.png``: every policy's headline on every task (results/vN/*.json);
- ``exploitability.png``: every policy's exploitability on every task, the standard attacker's
  runs (results/exploit/filler/*.json), hatched where the attacker's check failed.

Each PNG carries, in its ``Source`` text chunk, the digest of the files it was drawn from;
tests/docs/test_docs.py compares it with the files shipped, so a new result file needs a new chart.
Needs matplotlib (extra ``train``).
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import resultpage as results  # noqa: E402

COLORS = {"random": "#9e9e9e", "rule": "#4e79a7", "ppo": "#f28e2b", "league": "#59a14f",
          "filler": "#b07aa1"}  # fmt: skip
OTHER = ("#e15759", "#76b7b2", "#edc948", "#b07aa1")


def png_source(path: Path) -> str | None:
    """Return the digest a chart says it was drawn from (its ``Source`` text chunk)."""
    from PIL import Image

    with Image.open(path) as im:
        return im.info.get("Source")


def save(fig, path: Path, source: str) -> None:
    """Write `fig` as a small palette PNG that records `source`."""
    from PIL import Image, PngImagePlugin

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    buf.seek(0)
    im = Image.open(buf).convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    info = PngImagePlugin.PngInfo()
    info.add_text("Source", source)
    path.parent.mkdir(parents=True, exist_ok=True)
    im.save(path, optimize=True, pnginfo=info)


def color(policy: str, i: int) -> str:
    return COLORS.get(policy, OTHER[i % len(OTHER)])


def task_chart(task: str, rows: list[dict], source: str, out: Path) -> None:
    import matplotlib.pyplot as plt
    import numpy as np

    sides = list(dict.fromkeys(x["side"] for r in rows for x in r["rows"]))
    opps = list(dict.fromkeys(x["opponent"] for r in rows for x in r["rows"]))
    fig, axes = plt.subplots(1, len(sides), figsize=(9, 3.3), sharey=True)
    width = 0.8 / len(rows)
    for ax, side in zip(np.atleast_1d(axes), sides, strict=True):
        for i, r in enumerate(rows):
            got = {x["opponent"]: x for x in r["rows"] if x["side"] == side}
            rate = [got[o]["win_rate"] if o in got else np.nan for o in opps]
            lo = [got[o]["win_rate"] - got[o]["ci95"][0] if o in got else 0 for o in opps]
            hi = [got[o]["ci95"][1] - got[o]["win_rate"] if o in got else 0 for o in opps]
            x = np.arange(len(opps)) + (i - (len(rows) - 1) / 2) * width
            label = f"{r['policy']} ({r['headline']:.3f})"
            ax.bar(
                x,
                rate,
                width,
                yerr=[lo, hi],
                color=color(r["policy"], i),
                label=label,
                capsize=2,
                error_kw={"elinewidth": 0.8},
            )
        ax.set_xticks(np.arange(len(opps)), [f"vs {o}" for o in opps], fontsize=8)
        ax.set_title(f"as {side}")
        ax.set_ylim(0, 1.05)
        ax.grid(axis="y", alpha=0.3)
    np.atleast_1d(axes)[0].set_ylabel("win rate")
    fig.suptitle(f"{task}: win rate of the policy's side (tasks v{rows[0]['version']})")
    handles, labels = np.atleast_1d(axes)[0].get_legend_handles_labels()
    fig.legend(
        handles,
        labels,
        loc="center right",
        title="policy (headline)",
        fontsize=8,
        title_fontsize=8,
    )
    fig.tight_layout(rect=(0, 0, 0.83, 1))
    save(fig, out, source)
    plt.close(fig)


def by_task_chart(
    values: dict[tuple[str, str], tuple[float, bool]],
    title: str,
    ylabel: str,
    source: str,
    out: Path,
) -> None:
    """Draw one bar per (policy, task): tasks along x, a colour per policy; a hatched bar is
    a figure marked unreliable."""
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.patches import Patch

    tasks = list(dict.fromkeys(t for _, t in values))
    names = list(dict.fromkeys(p for p, _ in values))
    fig, ax = plt.subplots(figsize=(9, 3.3))
    width = 0.8 / len(names)
    for i, policy in enumerate(names):
        x = np.arange(len(tasks)) + (i - (len(names) - 1) / 2) * width
        got = [values.get((policy, t), (np.nan, False)) for t in tasks]
        bars = ax.bar(x, [v for v, _ in got], width, color=color(policy, i), label=policy)
        for bar, (_, unsure) in zip(bars, got, strict=True):
            if unsure:
                bar.set_hatch("///")
                bar.set_edgecolor("white")
    ax.set_xticks(np.arange(len(tasks)), tasks, fontsize=9)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    handles = [Patch(color=color(p, i), label=p) for i, p in enumerate(names)]
    ax.legend(handles=handles, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8)
    fig.tight_layout()
    save(fig, out, source)
    plt.close(fig)


def headline_chart(results: list[dict], source: str, out: Path) -> None:
    values = {(r["policy"], r["task"]): (r["headline"], False) for r in results}
    version = results[0]["version"]
    title = f"Headline: mean win rate over both sides and every opponent (tasks v{version})"
    by_task_chart(values, title, "headline", source, out)


def exploit_chart(rows: list[dict], order: list[str], source: str, out: Path) -> None:
    rows = sorted(rows, key=lambda r: order.index(r["task"]) if r["task"] in order else 99)
    values = {(r["policy"], r["task"]): (r["exploitability"], r.get("reliable") is False)
              for r in rows}  # fmt: skip
    title = "Exploitability: a best response's win rate against the policy (hatched: unreliable)"
    by_task_chart(values, title, "exploitability", source, out)


def wanted() -> dict[Path, str]:
    """Return chart path -> the digest of the files it is drawn from."""
    files = results.result_files()
    out = {results.IMAGES / "headlines.png": results.digest(files)}
    for task in results.tasks(results.reference()):
        out[results.IMAGES / f"task-{task}.png"] = results.digest(files)
    if results.exploit_files():
        out[results.IMAGES / "exploitability.png"] = results.digest(results.exploit_files())
    return out


def draw() -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    ref = results.reference()
    charts = wanted()
    path = results.IMAGES / "headlines.png"
    headline_chart(ref, charts[path], path)
    for task in results.tasks(ref):
        path = results.IMAGES / f"task-{task}.png"
        task_chart(task, [r for r in ref if r["task"] == task], charts[path], path)
    path = results.IMAGES / "exploitability.png"
    if path in charts:
        exploit_chart(results.exploit_rows(), results.tasks(ref), charts[path], path)
    return list(charts)


def stale() -> list[str]:
    """Return the charts that are missing or were drawn from other result files."""
    out = []
    for path, source in wanted().items():
        if not path.exists() or png_source(path) != source:
            out.append(str(path.relative_to(results.ROOT)))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true", help="only say which charts are stale")
    args = p.parse_args(argv)
    if args.check:
        old = stale()
        for path in old:
            print(f"stale: {path} (python scripts/docs/charts.py draws it again)")
        return 1 if old else 0
    for path in draw():
        print(f"{path.relative_to(results.ROOT)}: {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
