"""What a policy's side does at sport-10's ``half-rule`` tables (the policy on half its side's
seats, the rule bots on the rest, a style on the other side), against the rule bots' own
games on the same deals: the events counted per arm, to find where a mixed team loses.

    python results/robust/experiments/mixed_probe.py town FILE [DEALS] [STYLE]
    python results/robust/experiments/mixed_probe.py mafia FILE [DEALS] [STYLE]

``town`` splits the deals by whether the policy holds the sheriff and counts his day-1 claims,
his removal on day 1 unclaimed, the day votes' victims by day (the policy's seats, the rule
bots', the sheriff, the mafia) and how often each half's ballots hit the mafia; ``mafia``
counts the nights whose shots went to more than one seat (a miss, SPORT-N4). FILE is a
checkpoint (played under the layer it records) or a registry name. The defaults: 300 deals,
the style ``quiet_town`` for the town (its mafia is the rule bots') and ``fake_sheriff``
for the mafia (its town is the rule bots').
"""

from __future__ import annotations

import collections
import sys

import baselines  # noqa: F401  (one BLAS thread)
from baselines import robust
from mafia_env.engine.events import Ev
from mafia_env.engine.roles import TEAM_NAMES, Role
from mafia_env.tasks import LATEST, get_task

TASK = get_task("sport-10", LATEST)


def arm(player: str, side: str, style: str, deals: int, count) -> collections.Counter:
    """Play one arm of the half-rule cell; `count(c, game, held, winner)` tallies a deal."""
    cell = robust.cells_of(
        [TASK], robust.resolve_styles(style), [robust.MIXES["half-rule"]], [side]
    )[0]
    c: collections.Counter = collections.Counter()

    def done(g, env):
        game = env.game
        mine = [s for s, t in enumerate(game.teams) if TEAM_NAMES[int(t)] == side]
        held = set(robust.held_seats(game.seed, mine, 0.5))
        c["deals"] += 1
        c["wins"] += env.winner == side
        count(c, game, held)

    robust.play_arm(cell, player, deals, done=done)
    return c


def town(c: collections.Counter, game, held: set) -> None:
    roles = [Role(int(r)) for r in game.roles]
    teams = [TEAM_NAMES[int(t)] for t in game.teams]
    sheriff = roles.index(Role.SHERIFF)
    key = "P sheriff" if sheriff in held else "rule sheriff"
    c[key] += 1
    day, claimed = 0, False
    for kind, actor, target, value, _seen in game.events:
        if kind == Ev.DAY:
            day = value
        elif kind == Ev.CLAIM_ROLE and actor == sheriff and value == int(Role.SHERIFF):
            if not claimed and day == 1:
                c[f"{key}: claims on day 1"] += 1
            claimed = True
        elif kind == Ev.ELIMINATED and value == 0:  # a day vote
            who = (
                "mafia"
                if teams[target] == "mafia"
                else "sheriff"
                if target == sheriff
                else "P"
                if target in held
                else "rule"
            )
            c[f"day {min(day, 4)} out: {who}"] += 1
            if target == sheriff and day == 1 and not claimed:
                c[f"{key}: out on day 1 unclaimed"] += 1
        elif kind == Ev.BALLOT and target >= 0 and teams[actor] == "town":
            half = "P" if actor in held else "rule"
            c[f"{half} ballots"] += 1
            c[f"{half} ballots on mafia"] += teams[target] == "mafia"


def night_shots(events) -> dict[int, set]:
    """Each night's set of seats the mafia shot at (one seat: a kill or a miss by another
    rule; more: a split, a miss under SPORT-N4)."""
    shots: dict[int, set] = {}
    night = 0
    for kind, _actor, target, value, _seen in events:
        if kind == Ev.NIGHT:
            night = value
        elif kind == Ev.SHOT:
            shots.setdefault(night, set()).add(target)
    return shots


def mafia(c: collections.Counter, game, held: set) -> None:
    shots = night_shots(game.events)
    c["nights shot"] += len(shots)
    c["nights split"] += sum(len(s) > 1 for s in shots.values())


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] not in ("town", "mafia"):
        raise SystemExit(__doc__)
    side, player = argv[0], argv[1]
    deals = int(argv[2]) if len(argv) > 2 else 300
    style = argv[3] if len(argv) > 3 else ("quiet_town" if side == "town" else "fake_sheriff")
    count = town if side == "town" else mafia
    for name, p in (("P", player), ("rule bots", "rule")):
        c = arm(p, side, style, deals, count)
        print(f"{name}: {side} wins {c['wins']}/{c['deals']}")
        for k in sorted(k for k in c if k not in ("wins", "deals")):
            print(f"   {k}: {c[k]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
