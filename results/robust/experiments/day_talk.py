"""What the table says on days 1 and 2 around a policy P, and how P's side fares when it is said:
for each opponent (a benchmark opponent of tasks version 4, P's side against it as the benchmark
plays it; or ``zoo:STYLE``, the robustness benchmark's full-table cell), the share of games in
which the mafia (``m``) or the town (``t``) made each kind of speech act on day 1 or 2 (a role
claim by role, a check by colour, an accusation, a vouch; and two seats or more accusing one),
and P's side's win rate in those games; and the games in which a mafia seat neither vouched nor
nominated on day 1 (what ``mates`` with ``mates_nominate`` reads as a teammate that is not a
copy).

    python results/robust/experiments/day_talk.py filler sport-10 mafia 200 \\
        rule,zoo:second_suspect

(`load_policy` names or files; a few seconds an opponent at 200 deals).
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict

import baselines  # noqa: F401  (one BLAS thread)
from baselines import pins, robust
from baselines.benchmark import play_lockstep
from baselines.zoo import get_style
from mafia_env.engine.events import Cause, Ev
from mafia_env.engine.roles import Role, Team
from mafia_env.engine.spec import GameSpec
from mafia_env.seating import Seating
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import get_task


def features(game) -> Counter:
    """The kinds of speech act said by each team on days 1 and 2 of a finished game, and whom
    each of those days' votes removed."""
    day, said = 0, Counter()
    accusers = defaultdict(set)
    spoke = set()  # the seats that vouched or nominated on day 1
    for kind, actor, target, value, _seen in game.events:
        if kind == Ev.DAY:
            day = value
        if 1 <= day <= 2 and kind == Ev.ELIMINATED and value == Cause.VOTE:
            said[f"d{day} votes out {'m' if game.teams[target] is Team.MAFIA else 't'}"] = 1
        if day > 2 or actor is None or actor < 0:
            continue
        who = "m" if game.teams[actor] is Team.MAFIA else "t"
        if kind == Ev.CLAIM_ROLE:
            said[f"d{day} {who} claims {Role(value).name.lower()}"] = 1
        elif kind == Ev.CLAIM_CHECK:
            said[f"d{day} {who} check {'black' if value else 'red'}"] = 1
        elif kind == Ev.ACCUSE:
            said[f"d{day} {who} accuses"] = 1
            accusers[(day, target)].add(actor)
        elif kind == Ev.VOUCH:
            said[f"d{day} {who} vouches"] = 1
        elif kind == Ev.NOMINATE:
            said[f"d{day} {who} nominates"] = 1
        if day == 1 and kind in (Ev.VOUCH, Ev.NOMINATE):
            spoke.add(actor)
    mafia = [s for s, t in enumerate(game.teams) if t is Team.MAFIA]
    if mafia and any(s not in spoke for s in mafia):
        said["d1 a m seat neither vouches nor nominates"] = 1
    for (d, _target), seats in accusers.items():
        if len(seats) >= 2:
            said[f"d{d} 2+ accuse one"] = 1
    for d in (1, 2):  # three seats or more that accused one seat by the end of day d
        by = defaultdict(set)
        for (day_, target), seats in accusers.items():
            if day_ <= d:
                by[target] |= seats
        if any(len(seats) >= 3 for seats in by.values()):
            said[f"d{d} 3+ accused one so far"] = 1
    return said


def main(argv: list[str]) -> None:
    policy, name, side, deals, opponents = argv[0], argv[1], argv[2], int(argv[3]), argv[4]
    task = get_task(name, version=4)
    table = GameSpec.make(task.variant, task.num_players, **task.play_knobs())
    for opp in opponents.split(","):
        games: list[tuple[Counter, bool]] = []

        def done(_g, env, games=games):
            games.append((features(env.unwrapped.game), env.winner == side))

        if opp.startswith("zoo:"):
            cell = robust.Cell(task, side, get_style(opp[4:]), robust.MIXES["full"])
            robust.play_arm(cell, policy, deals, done=done)
        else:
            me = load_policy(policy, table, seed=task.seed)
            other = load_policy(opp, table, seed=task.seed + 1, **pins.load_options(task, opp))
            play_lockstep(task, Seating(other, teams={side: me}), side, deals, done=done)
        seen, won = Counter(), Counter()
        for said, win in games:
            for k in said:
                seen[k] += 1
                won[k] += win
        n = len(games)
        print(f"== {opp}: {n} games, {side} wins {sum(w for _, w in games) / n:.3f}")
        for k in sorted(seen):
            print(f"   {k:28s} {seen[k] / n:5.2f}  {side} wins then {won[k] / seen[k]:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
