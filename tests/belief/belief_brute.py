"""Brute force for the belief tests: every deal, every hidden history, kept if the seat sees
exactly what it saw (events and options), with no shortcut of `mafia_env.belief.search`.

For each deal of the role table the game is played again from the deal: every public move
(and moderator's call) as the real game made it, every hidden night choice and every chance
draw of the engine tried in turn (a branch is dropped as soon as the seat's view differs),
and the moderator's calls at every moment between hidden turns. Branches that reach the same
state (the whole game but its events) with the same view so far are merged: they have the
same futures. Nothing else is assumed.
"""

from __future__ import annotations

import numpy as np

from mafia_env.belief.deals import DealSpace
from mafia_env.belief.search import Chance, expand_options, fork, state_key
from mafia_env.engine.events import PUBLIC, Ev
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import NIGHT_TURNS


def seen_events(game: Game, seat: int) -> list[tuple]:
    bit = 1 << seat
    return [e for e in game.events if (e[4] == PUBLIC or e[4] & bit) and e[0] != Ev.TALK]


def public_inputs(game: Game) -> list[tuple]:
    """The real game's public moves and moderator's calls, in order."""
    return [x for x in game.inputs if x[4] == -1 or x[4] not in NIGHT_TURNS]


def _apply_all(g: Game, do) -> list[Game]:
    """Apply `do` to copies of `g`, once per outcome of the engine's draws."""
    out = []
    pending = [()]
    while pending:
        script = pending.pop()
        chance = Chance(script)
        h = fork(g, chance)
        try:
            do(h)
        except (ValueError, RuntimeError):
            continue
        for j in range(len(script), len(chance.calls)):
            for v in range(1, chance.calls[j]):
                pending.append(script + (0,) * (j - len(script)) + (v,))
        out.append(h)
    return out


def _moderator(g: Game, x: tuple) -> None:
    seat, act = x[0], x[1]
    if act == -1:
        g.foul(seat)
    elif act == -3:
        g.remove(seat)
    else:
        g.terminate(seat)


def consistent(game: Game, seat: int, deal: tuple, masks: dict[int, tuple]) -> bool:
    """Return whether some hidden history under `deal` gives `seat` the same view as `game`.

    `masks`: index in the seat's view of each own turn that began -> the options it had.
    """
    want = seen_events(game, seat)
    public = public_inputs(game)
    bit = 1 << seat
    start = Game(game.rules, game.n, 0, list(deal))
    start.rng = Chance()
    k = 0
    for e in start.events:
        if (e[4] == PUBLIC or e[4] & bit) and e[0] != Ev.TALK:
            if k >= len(want) or e != want[k]:
                return False
            k += 1
    start.events = []
    frontier = {(): (start, 0, k)}
    while frontier:
        nxt: dict = {}
        for g, i, k in frontier.values():
            own = not g.over and g.actor == seat and k - 1 in masks
            if own and tuple(g.legal()) != masks[k - 1]:
                continue
            if k == len(want) and i == len(public):
                return True
            if g.over:
                continue
            moves = []
            if i < len(public) and public[i][1] < 0:  # the moderator's call: now, or later
                x = public[i]
                moves.append((lambda h, x=x: _moderator(h, x), i + 1))
            if g.turn in NIGHT_TURNS:
                for act, target, value in expand_options(g):
                    moves.append((lambda h, a=(act, target, value): h.apply(*a), i))
            elif i < len(public) and public[i][1] >= 0:
                s, act, target, value, turn, _ = public[i]
                if s == g.actor and turn == g.turn:
                    moves.append((lambda h, a=(act, target, value): h.apply(*a), i + 1))
            for do, j in moves:
                for h in _apply_all(g, do):
                    kk = k
                    ok = True
                    for e in h.events:
                        if (e[4] == PUBLIC or e[4] & bit) and e[0] != Ev.TALK:
                            if kk >= len(want) or e != want[kk]:
                                ok = False
                                break
                            kk += 1
                    if not ok:
                        continue
                    h.events = []
                    nxt.setdefault((state_key(h), j, kk), (h, j, kk))
        frontier = nxt
    return False


def support(game: Game, seat: int, masks: dict[int, tuple]) -> set[tuple[int, ...]]:
    """Return every deal (as role indices) that some hidden history makes consistent."""
    space = DealSpace(game.rules, game.n)
    deals = space.enumerate(np.ones((game.n, len(space.roles)), dtype=bool))
    out = set()
    for row in deals:
        if consistent(game, seat, space.as_roles(row), masks):
            out.add(tuple(row.tolist()))
    return out
