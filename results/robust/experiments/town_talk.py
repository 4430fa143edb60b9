"""How many seats vouch on day 1 around a town seat of P, at the robustness benchmark's tables
(the counts behind the talk layer's option ``silent``): for each cell (task, town, mix, style)
played by each policy in P's place on the cell's deals, and for each of P's town seats alive
when day 1's speeches end, the number of OTHER seats (every side) that vouched for someone on
day 1, that said any speech act on day 1 (a claim, check, accusation, vouch or nomination),
that said a claim, check, accusation or vouch on day 1 (content: not a nomination),
and that had vouched for someone, or said content, by the end of day 2 (or 3: the layer
reads what the table has said so far, a late word counts then).

    python results/robust/experiments/town_talk.py forum-10 full,half-rule rule,talkative 100 \\
        filler rule

(`load_policy` names or files; about 1 s a cell at 100 deals).
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict

import baselines  # noqa: F401  (one BLAS thread)
from baselines import robust
from mafia_env.engine.events import Ev
from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.tasks import get_task

SAID = (Ev.CLAIM_ROLE, Ev.CLAIM_CHECK, Ev.ACCUSE, Ev.VOUCH, Ev.NOMINATE)
# what a speech says, bar a nomination
CONTENT = (Ev.CLAIM_ROLE, Ev.CLAIM_CHECK, Ev.ACCUSE, Ev.VOUCH)
KEYS = (
    "vouched day 1",
    "content day 1",
    "said day 1",
    "vouched by day 2",
    "content by day 2",
    "content by day 3",
)


def town_seats(game, share: float) -> tuple[list[int], set[int]]:
    """A finished game's town seats, and those of them P held (`share` of them, as the
    benchmark's mix seats them; every one at a full table)."""
    town = TEAM_NAMES.index("town")
    mine = [s for s, t in enumerate(game.teams) if int(t) == town]
    return mine, set(robust.held_seats(game.seed, mine, share)) if share < 1 else set(mine)


def cell_counts(task, mix: str, style, player: str, deals: int, tally) -> dict[str, Counter]:
    """Play P's arm of the town's cell (`task`, `mix`, `style`) on `deals` deals and return
    the counters `tally(game, share, counters)` filled from each finished game."""
    cell = robust.Cell(task, "town", style, robust.MIXES[mix])
    c: dict[str, Counter] = defaultdict(Counter)
    share = cell.mix.share
    robust.play_arm(cell, player, deals, done=lambda g, env: tally(env.unwrapped.game, share, c))
    return c


def tally(game, share: float, c: dict[str, Counter]) -> None:
    """Add one finished game's counts, one a P seat alive at day 1's end, to `c`."""
    _, held = town_seats(game, share)
    day, out = 0, set()
    vouch1, said1, vouch2, content1 = set(), set(), set(), set()
    content2, content3 = set(), set()
    out_by_day1 = None
    for e in game.events:
        kind, actor, target = e[0], e[1], e[2]
        if kind == Ev.DAY:
            day = e[3]
        elif kind == Ev.NIGHT and day == 1:
            out_by_day1 = set(out)
        elif kind == Ev.ELIMINATED:
            out.add(target)
        if kind in SAID and actor >= 0:
            if day == 1:
                said1.add(actor)
                if kind in CONTENT:
                    content1.add(actor)
                if kind == Ev.VOUCH:
                    vouch1.add(actor)
            if kind == Ev.VOUCH and day <= 2:
                vouch2.add(actor)
            if kind in CONTENT and day <= 2:
                content2.add(actor)
            if kind in CONTENT and day <= 3:
                content3.add(actor)
    if out_by_day1 is None:
        out_by_day1 = set(out)
    c["games"]["n"] += 1
    for s in held:
        if s in out_by_day1:
            continue
        others = [o for o in range(game.n) if o != s]
        c["vouched day 1"][sum(o in vouch1 for o in others)] += 1
        c["said day 1"][sum(o in said1 for o in others)] += 1
        c["content day 1"][sum(o in content1 for o in others)] += 1
        c["content by day 2"][sum(o in content2 for o in others)] += 1
        c["content by day 3"][sum(o in content3 for o in others)] += 1
        c["vouched by day 2"][sum(o in vouch2 for o in others)] += 1
        c["own vouch day 1"][s in vouch1] += 1


def show(c: Counter) -> str:
    n = max(sum(c.values()), 1)
    return " ".join(f"{k}:{c[k] / n:.2f}" for k in sorted(c))


def each_cell(argv: list[str], doc: str, tally):
    """The cells a script of this folder plays (its arguments TASK MIXES STYLES DEALS P...):
    for each P and mix, (P, mix, STYLES, [(style, its counts by `tally`), ...])."""
    if len(argv) < 5:
        raise SystemExit(doc)
    task_name, mixes, styles, deals, *players = argv
    task = get_task(task_name)
    for player in players:
        for mix in mixes.split(","):
            cells = [
                (style, cell_counts(task, mix, style, player, int(deals), tally))
                for style in robust.resolve_styles(styles)
            ]
            yield player, mix, styles, cells


def main(argv: list[str]) -> int:
    for player, mix, styles, cells in each_cell(argv, __doc__, tally):
        total: dict[str, Counter] = {}
        for style, c in cells:
            print(f"{player} {mix} {style.name}: seats {sum(c['vouched day 1'].values())}")
            for k in KEYS:
                print(f"    others {k:17} {show(c[k])}")
                total.setdefault(k, Counter()).update(c[k])
            total.setdefault("own", Counter()).update(c["own vouch day 1"])
        print(f"== {player} {mix} ({styles}): P seats' own vouch {show(total['own'])}")
        for k in KEYS:
            print(f"    others {k:17} {show(total[k])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
