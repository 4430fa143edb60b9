"""An evaluation's reports: JSON, CSV, a PNG chart of win rates, and plain-text tables."""

from __future__ import annotations

import csv
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from baselines.evaluate.eval_config import EvalConfig


def write_reports(cfg: EvalConfig, reports: list[dict], out: Path) -> list[Path]:
    """Write report.json, report.csv and winrates.png under `out`; return the paths (no
    chart without matplotlib, the ``train`` extra)."""
    out.mkdir(parents=True, exist_ok=True)
    settings = asdict(cfg)
    settings.pop("teams")
    paths = [out / "report.json", out / "report.csv", out / "winrates.png"]
    paths[0].write_text(
        json.dumps(
            {
                "variant": cfg.variant,
                "num_players": cfg.num_players,
                "config": settings,
                "matchups": reports,
            },
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
    with paths[1].open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(
            [
                "matchup",
                "outcome",
                "policy",
                "games",
                "wins",
                "rate",
                "low",
                "high",
                "mean_days",
                "town_votes_on_mafia",
                "sheriff_found_mafia",
                "doctor_saves",
            ]
        )
        for r in reports:
            meas = r["measures"]
            extra = [
                f"{meas[k]['rate']:.4f}" if k in meas else ""
                for k in ("town_votes_on_mafia", "sheriff_found_mafia", "doctor_saves")
            ]
            for o, v in r["outcomes"].items():
                w.writerow(
                    [
                        r["name"],
                        o,
                        r["policies"].get(o, ""),
                        r["games"],
                        v["count"],
                        f"{v['rate']:.4f}",
                        f"{v['low']:.4f}",
                        f"{v['high']:.4f}",
                        f"{r['days']['mean']:.2f}",
                        *extra,
                    ]
                )
    try:
        plot(cfg, reports, paths[2])
    except ImportError:  # matplotlib: the train extra
        return paths[:2]
    return paths


def plot(cfg: EvalConfig, reports: list[dict], path: Path) -> None:
    """Draw each matchup's team win rates with their 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    teams = list(cfg.teams)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(reports) + 2), 4.5))
    width = 0.8 / len(teams)
    x = np.arange(len(reports))
    for j, team in enumerate(teams):
        rates = np.array([r["outcomes"][team]["rate"] for r in reports])
        low = np.clip(rates - np.array([r["outcomes"][team]["low"] for r in reports]), 0, 1)
        high = np.clip(np.array([r["outcomes"][team]["high"] for r in reports]) - rates, 0, 1)
        ax.bar(
            x + (j - (len(teams) - 1) / 2) * width,
            rates,
            width,
            yerr=[low, high],
            capsize=3,
            label=f"{team} wins",
        )
    ax.set_xticks(x, [r["name"].replace(" vs ", "\nvs ") for r in reports], fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title(f"{cfg.variant}, {cfg.num_players} players, {reports[0]['games']} games each")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def format_table(reports: list[dict], teams: tuple[str, ...]) -> str:
    """Return the report as a plain-text table."""
    head = f"{'matchup':<34}" + "".join(f"{t + ' wins':>22}" for t in teams)
    head += f"{'days':>7}{'votes on mafia':>16}{'sheriff found':>15}{'doctor saves':>14}"
    lines = [head]
    for r in reports:
        row = f"{r['name'][:33]:<34}"
        for t in teams:
            o = r["outcomes"][t]
            row += f"{o['rate']:>8.3f} [{o['low']:.3f},{o['high']:.3f}]"
        meas = r["measures"]
        row += f"{r['days']['mean']:>7.2f}{meas['town_votes_on_mafia']['rate']:>16.3f}"
        sf = meas.get("sheriff_found_mafia")
        row += f"{sf['rate']:>15.3f}" if sf else f"{'-':>15}"
        ds = meas.get("doctor_saves")
        row += f"{ds['rate']:>14.3f}" if ds else f"{'-':>14}"
        lines.append(row)
    return "\n".join(lines)


def format_ratings(table: list[dict[str, Any]]) -> str:
    """Return the rating table as text: one row per policy per team."""
    lines = [f"{'team':<8}{'policy':<24}{'mu':>8}{'sigma':>8}{'ordinal':>9}{'games':>7}{'wins':>7}"]
    for r in table:
        lines.append(
            f"{r['team']:<8}{r['policy'][:23]:<24}{r['mu']:>8.2f}{r['sigma']:>8.2f}"
            f"{r['ordinal']:>9.2f}{r['games']:>7}{r['win_rate']:>7.3f}"
        )
    return "\n".join(lines)


def write_ratings(table: list[dict[str, Any]], out: Path) -> list[Path]:
    """Write ratings.json under `out`; return the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "ratings.json"
    path.write_text(json.dumps(table, indent=2) + "\n", encoding="utf-8")
    return [path]
