"""How a policy's side votes and talks at a mixed table of the robustness benchmark: one cell
(task, side, mix, style) played by each policy in P's place on the cell's own deals, and from
each game's events, per seat kind (P: the seats the policy holds; R: the rest of its side,
the rule bots at ``half-rule``), the side's ballots that went to the other side, the share of
them on the candidate most of R's ballots went to in the same round, the side's nominations
by the nominee's side, and the side's players voted out:

    python results/robust/experiments/mixed_votes.py forum-10 town half-rule vote_first 300 \\
        filler baselines/checkpoints/filler/v6/forum.pt rule

(the names and files `load_policy` knows; 20-40 s a policy at 300 deals).
"""

from __future__ import annotations

import sys
from collections import Counter

import baselines  # noqa: F401  (one BLAS thread)
from baselines import robust
from mafia_env.engine.events import Cause, Ev
from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.tasks import get_task

ROUND_ENDS = (Ev.VOTING, Ev.DAY, Ev.NIGHT, Ev.TIE)


def tally(game, side: int, share: float, c: Counter) -> None:
    """Add one finished game's figures to `c`."""
    teams = [int(t) for t in game.teams]
    mine = [s for s, t in enumerate(teams) if t == side]
    held = set(robust.held_seats(game.seed, mine, share)) if share < 1 else set(mine)

    def kind(seat: int) -> str:
        return "P" if seat in held else "R"

    ballots: list[tuple[int, int]] = []

    def close_round() -> None:
        r_votes = Counter(t for v, t in ballots if teams[v] == side and v not in held and t >= 0)
        top = r_votes.most_common(1)[0][0] if r_votes else None
        for v, t in ballots:
            if teams[v] != side:
                continue
            c[f"{kind(v)} ballots"] += 1
            c[f"{kind(v)} on the other side"] += t >= 0 and teams[t] != side
            c[f"{kind(v)} with R's top"] += top is not None and t == top
        ballots.clear()

    for e in game.events:
        kind_, actor, target = e[0], e[1], e[2]
        if kind_ in ROUND_ENDS:
            close_round()
        elif kind_ == Ev.BALLOT:
            ballots.append((actor, target))
        elif kind_ == Ev.NOMINATE and teams[actor] == side and target >= 0:
            whose = "other side" if teams[target] != side else "own side"
            c[f"{kind(actor)} nominations of the {whose}"] += 1
        elif kind_ == Ev.ELIMINATED and teams[target] == side and e[3] == Cause.VOTE:
            c[f"{kind(target)} voted out"] += 1
    close_round()
    c["games"] += 1


def main(argv: list[str]) -> int:
    if len(argv) < 6:
        raise SystemExit(__doc__)
    task_name, side, mix, style_name, deals, *players = argv
    task = get_task(task_name, 4)
    style = next(s for s in robust.resolve_styles("all") if s.name == style_name)
    cell = robust.Cell(task, side, style, robust.MIXES[mix])
    team, share = TEAM_NAMES.index(side), cell.mix.share
    for player in players:
        c: Counter = Counter()
        winners = robust.play_arm(
            cell,
            player,
            int(deals),
            done=lambda g, env, c=c: tally(env.unwrapped.game, team, share, c),
        )
        print(f"{player}: {side} won {winners.count(robust.WINNER_CODES[side])} of {deals} deals")
        for k in ("P", "R"):
            n = max(c[f"{k} ballots"], 1)
            print(
                f"  {k}: {c[k + ' ballots']} ballots, {c[k + ' on the other side'] / n:.3f} on "
                f"the other side, {c[k + chr(39).join([' with R', 's top'])] / n:.3f} with R's "
                f"top; nominations of the other side {c[k + ' nominations of the other side']}, "
                f"of its own {c[k + ' nominations of the own side']}; voted out "
                f"{c[k + ' voted out']}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
