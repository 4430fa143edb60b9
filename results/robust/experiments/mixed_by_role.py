"""A mixed-table robustness file's cells split by which seat the measured policy holds: for
sport-10 at ``half-rule``, the town's deals where it holds the sheriff against those where a
rule bot does, and the mafia's where it holds the don against those where it is a member
(the deals' roles from the task's own seeds, the held seats as `baselines.robust` drew them):

    python results/robust/experiments/mixed_by_role.py \\
        results/robust/experiments/talk_layer_town_6-sport-10-mixed-500.json [STYLE ...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import baselines  # noqa: F401  (one BLAS thread)
import mafia_env
from baselines.robust import held_seats
from mafia_env.engine.roles import TEAM_NAMES, Role
from mafia_env.tasks import LATEST, get_task

KEY = {"town": Role.SHERIFF, "mafia": Role.DON}


def main(argv: list[str]) -> int:
    if not argv:
        raise SystemExit(__doc__)
    styles = argv[1:] or ["maniac_random", "framer"]
    task = get_task("sport-10", LATEST)
    env = mafia_env.raw_env(task.variant, task.num_players, **task.play_knobs())
    cells = json.loads(Path(argv[0]).read_text())["cells"]
    for c in cells:
        if c["mix"] != "half-rule" or c["style"] not in styles:
            continue
        side, pol, base = c["side"], c["winners"]["policy"], c["winners"]["baseline"]
        split: dict[str, list[int]] = {}
        for g in range(len(pol)):
            env.reset(seed=task.seed + g)
            game = env.game
            mine = [s for s, t in enumerate(game.teams) if TEAM_NAMES[int(t)] == side]
            held = held_seats(game.seed, mine, 0.5)
            key = any(Role(int(game.roles[s])) == KEY[side] for s in held)
            row = split.setdefault(f"holds the {KEY[side].name.lower()}: {key}", [0, 0, 0])
            row[0] += 1
            row[1] += pol[g] == side[0]
            row[2] += base[g] == side[0]
        for k, (n, p, b) in sorted(split.items()):
            diff = (p - b) / n
            print(f"{side} {c['style']} {k}: {n} deals, {p / n:.3f} vs {b / n:.3f} ({diff:+.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
