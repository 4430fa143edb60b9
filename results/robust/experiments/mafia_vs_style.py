"""Who the town votes out on days 1-3 against P's mafia, and what P's mafia say on day 1, at a
style's full table: the counts behind "why the mafia loses to the second-suspect town"
(results/robust/README.md, the closing note of tasks version 12).

    python results/robust/experiments/mafia_vs_style.py sport-10 second_suspect 200 filler rule

(`load_policy` names or files; about 10 s for 200 deals).
"""

from __future__ import annotations

import sys
from collections import Counter

import baselines  # noqa: F401  (one BLAS thread)
from baselines import robust
from mafia_env.engine.events import Cause, Ev
from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.tasks import get_task

SAID = (Ev.CLAIM_ROLE, Ev.CLAIM_CHECK, Ev.ACCUSE, Ev.VOUCH, Ev.NOMINATE)


def main(argv: list[str]) -> int:
    if len(argv) < 4:
        raise SystemExit(__doc__)
    task_name, style_name, deals, *players = argv
    task = get_task(task_name)
    style = robust.resolve_styles(style_name)[0]
    for player in players:
        cell = robust.Cell(task, "mafia", style, robust.MIXES["full"])
        out, acts = Counter(), Counter()

        def done(g, env, out=out, acts=acts) -> None:
            game = env.unwrapped.game
            teams = [TEAM_NAMES[int(t)] for t in game.teams]
            day = 0
            for e in game.events:
                if e[0] == Ev.DAY:
                    day = e[3]
                if e[0] == Ev.ELIMINATED and e[3] == Cause.VOTE and day <= 3:
                    out[(day, teams[e[2]])] += 1
                if day == 1 and e[0] in SAID and e[1] >= 0 and teams[e[1]] == "mafia":
                    acts[Ev(e[0]).name] += 1

        robust.play_arm(cell, player, int(deals), done=done)
        print(
            f"{player}: voted out by day {sorted(out.items())}; the mafia's day-1 acts {dict(acts)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
