"""The learning curve of a training run as a PNG beside its TensorBoard logs.

``<run dir>/learning_curve.png`` is drawn again at each evaluation and at the end: the
learner's win rate as each team against the evaluation bots (the evaluations), and the mean
episodic return of its games per update. It needs matplotlib (extra ``train``); without it
the run goes on and says once that no picture is drawn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

FILE = "learning_curve.png"


def draw_curve(
    run_dir: str | Path,
    evals: list[dict[str, Any]],
    returns: list[tuple[int, float]],
    opponent: str,
    title: str,
) -> Path | None:
    """Draw the run's curve into ``run_dir/learning_curve.png``; None without matplotlib.

    `evals` are the trainer's evaluation points (``step``, ``town``, ``mafia``), `returns`
    (step, mean episodic return of the learner's games) per update."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    for team, colour in (("town", "#4e79a7"), ("mafia", "#e15759")):
        points = [(p["step"], p[team]) for p in evals if team in p]
        if points:
            xs, ys = zip(*points, strict=True)
            left.plot(xs, ys, marker="o", ms=3, color=colour, label=f"as {team}")
    left.set(title=f"win rate vs {opponent} bots", xlabel="environment steps", ylim=(0, 1))
    if evals:
        left.legend(loc="lower right")
    else:
        left.text(0.5, 0.5, "no evaluation yet", ha="center", va="center")
    if returns:
        xs, ys = zip(*returns, strict=True)
        right.plot(xs, ys, color="#59a14f")
    right.set(title="mean episodic return (learner)", xlabel="environment steps", ylim=(-1, 1))
    fig.suptitle(title)
    fig.tight_layout()
    path = Path(run_dir) / FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return path


__all__ = ["FILE", "draw_curve"]
