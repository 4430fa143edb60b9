"""What the town's seats do on day 1, P's seats (copies) and the others apart, at the robustness
benchmark's tables: whether a seat nominated, said content (a claim, check, accusation or
vouch), voted the first nominee, and, for day 1's first speaker, whether it nominated. The
counts behind "on day 1 online-10's copies and the rule town's seats act alike"
(results/robust/README.md, the section on `defer="team"`).

    python results/robust/experiments/town_day1.py online-10 full,half-rule \\
        rule,fake_sheriff,noisy,vote_first 100 filler

(`load_policy` names or files; about 2 s a cell at 100 deals).
"""

from __future__ import annotations

import sys
from collections import Counter

from town_talk import CONTENT, each_cell, town_seats  # (this folder's)

import baselines  # noqa: F401  (one BLAS thread)
from mafia_env.engine.events import Ev


def tally(game, share: float, c: dict[str, Counter]) -> None:
    """Add one finished game's day-1 counts of its town seats to `c`."""
    mine, held = town_seats(game, share)
    day, ballots, noms, spoke, order = 0, {}, [], Counter(), []
    for e in game.events:
        if e[0] == Ev.DAY:
            day = e[3]
            if day > 1:
                break
        if day != 1:
            continue
        if e[0] == Ev.SPEAK and e[1] not in order:
            order.append(e[1])
        if e[0] == Ev.NOMINATE:
            noms.append((e[1], e[2]))
        if e[0] in CONTENT:
            spoke[e[1]] += 1
        if e[0] == Ev.BALLOT and e[1] >= 0:
            ballots[e[1]] = e[2]
    first = noms[0][1] if noms else None
    nominators = {a for a, _ in noms}
    for s in mine:
        k = "copy" if s in held else "other"
        c[k + " nominated"][s in nominators] += 1
        if s in ballots:
            c[k + " ballot=first nominee"][ballots[s] == first] += 1
        c[k + " content"][spoke[s] > 0] += 1
        if order and order[0] == s:
            c[k + " first speaker nominated"][s in nominators] += 1


def show(c: Counter) -> str:
    n = max(sum(c.values()), 1)
    return " ".join(f"{k}:{c[k] / n:.2f}" for k in sorted(c, key=str)) + f" (n={n})"


def main(argv: list[str]) -> int:
    for player, mix, styles, cells in each_cell(argv, __doc__, tally):
        total: dict[str, Counter] = {}
        for _, c in cells:
            for k in c:
                total.setdefault(k, Counter()).update(c[k])
        print(f"== {player} {mix} {styles}")
        for k in sorted(total):
            print(f"   {k:32} {show(total[k])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
