"""How a seat-filler talks at the table: the share of its day speeches that say something,
and how the first nomination of day 1 spreads over the seats.

    python -m baselines.filler_table --policy filler --tasks sport-10 --deals 200
    python -m baselines.filler_table --policy filler_talk --all --others rule --out FILE

The policy plays the task's own deals (seeds ``task.seed ..``), on every seat, or
(``--others rule``) on the even seats with another policy on the odd ones (a table the filler
shares, as with people). Measured, from each game's events:

- ``content``: the share of the policy's day speeches (a speech, a last word, a tie speech)
  in which it says a claim, a check, an accusation or a vouch;
- ``first_nominee_top``: the share of day 1s on which the seat nominated first most often
  (over the deals) is nominated first; ``first_nominee_seats``: how often each seat is.
  Only day 1s with a nomination count.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

from baselines.benchmark import play_lockstep
from baselines.robust import table_of
from mafia_env.commands import parser
from mafia_env.engine.events import Ev
from mafia_env.errors import ConfigError
from mafia_env.match import Seating
from mafia_env.policy import load_policy
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, get_task

CONTENT = frozenset({int(Ev.CLAIM_ROLE), int(Ev.CLAIM_CHECK), int(Ev.ACCUSE), int(Ev.VOUCH)})
BREAKS = frozenset({int(Ev.SPEAK), int(Ev.DAY), int(Ev.NIGHT), int(Ev.VOTING), int(Ev.END_SPEECH)})
FIRST = frozenset({int(Ev.NOMINATE), int(Ev.NAME)})


def speeches(events: list[tuple], seats: set[int]) -> tuple[int, int]:
    """(speeches by `seats`, those of them with content) in one game's events."""
    total = said = 0
    speaker, content = None, False
    for kind, actor, _target, _value, *_ in events:
        if kind in BREAKS:
            if speaker is not None:
                total += 1
                said += content
            speaker, content = (actor, False) if kind == int(Ev.SPEAK) else (None, False)
            if speaker is not None and speaker not in seats:
                speaker = None
        elif kind in CONTENT and speaker is not None and actor == speaker:
            content = True
    if speaker is not None:
        total += 1
        said += content
    return total, said


def first_nominee(events: list[tuple]) -> int | None:
    """The seat nominated first on day 1, or None."""
    day = 0
    for kind, _actor, target, value, *_ in events:
        if kind == int(Ev.DAY):
            day = value
            if day > 1:
                return None
        elif kind in FIRST and day == 1:
            return target
    return None


def measure(
    policy: str, task_name: str, deals: int, others: str | None = None, **options: Any
) -> dict:
    """Play `deals` deals of the task with `policy` seated (loaded with `options`); return the
    table's figures."""
    task = get_task(task_name, LATEST)
    spec = table_of(task)
    n = spec.n
    mine = set(range(n)) if others is None else set(range(0, n, 2))
    seats = {
        s + 1: (
            load_policy(policy, spec, seed=task.seed + s, **options)
            if s in mine
            else load_policy(others, spec, seed=task.seed + s)
        )
        for s in range(n)
    }
    seating = Seating(seats=seats)
    total = said = 0
    firsts: Counter[int] = Counter()

    def done(g: int, env: Any) -> None:
        nonlocal total, said
        ev = env.unwrapped.game.events
        t, s = speeches(ev, mine)
        total += t
        said += s
        f = first_nominee(ev)
        if f is not None:
            firsts[f] += 1

    start = time.perf_counter()
    play_lockstep(task, seating, "town", deals, done=done)
    days = sum(firsts.values())
    return {
        "task": task_name,
        "policy": policy,
        "others": others,
        "deals": deals,
        "speeches": total,
        "content": said / total if total else 0.0,
        "day1_nominations": days,
        "first_nominee_top": max(firsts.values()) / days if days else 0.0,
        "first_nominee_seats": {str(k): v for k, v in sorted(firsts.items())},
        "seconds": round(time.perf_counter() - start, 1),
    }


def main(argv: list[str] | None = None) -> int:
    p = parser("python -m baselines.filler_table", __doc__)
    p.add_argument("--policy", default="filler")
    p.add_argument("--tasks", default="sport-10", help="comma-separated task names")
    p.add_argument("--all", action="store_true", help="every task of the latest version")
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--others", default=None, help="a policy on the odd seats (default: none)")
    p.add_argument("--out", default=None, help="write the figures here (JSON)")
    a = p.parse_args(argv)
    names = list(TASKS_BY_VERSION[LATEST]) if a.all else a.tasks.split(",")
    if a.deals < 1:
        raise ConfigError(f"--deals must be at least 1; got {a.deals}")
    rows = []
    for name in names:
        r = measure(a.policy, name.strip(), a.deals, a.others)
        rows.append(r)
        print(
            f"{r['task']:10} {r['policy']:12} others={r['others']}: content "
            f"{r['content']:.3f} of {r['speeches']} speeches; first nominee of day 1: top seat "
            f"{r['first_nominee_top']:.3f} of {r['day1_nominations']} ({r['seconds']} s)",
            flush=True,
        )
    if a.out:
        Path(a.out).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
