"""Re-deal what one seat does not know: the determinizations that information-set search needs.

`resample(game, seat, rng)` returns a game in the same information set as `game` for `seat`:
the seat would have seen exactly the same events, yet the roles it does not know are dealt
again at random. It works in three steps.

1. What the seat knows fixes some roles: its own, its teammates' (the don among them only once
   he is known), the roles revealed to the table, and what its own checks answered. A deal
   is drawn uniformly among those that respect them (`deal_constraints`, `draw_deal`), and
   deals under which a team would already have won are dropped at once (`plausible`).
2. The game is played again from the start under the new deal: every public move as it was
   made (speeches, votes, gestures, fouls), and every hidden night choice by the new holder
   of the role whose holder made it (a seat that keeps its role keeps its own choices; a
   town player's hunt request stays with a seat of the town). A choice the new game cannot
   take, or that nobody made (the old holder was blocked), is drawn at random.
3. The copy is kept only if the seat saw exactly what it saw in `game`; else another deal is
   drawn. The copy's randomness for the future is drawn from `rng` too.

The deals that pass are the deals the seat cannot rule out with the choices re-attributed as
above; every deal consistent with the seat's knowledge that such a replay can produce can
appear. If no deal passes within `tries`, the game itself (cloned) is returned: it is always
in the information set.
"""

from __future__ import annotations

import random
from typing import Any

from mafia_env.engine.events import PUBLIC, Ev
from mafia_env.engine.kinds import NIGHT_TURNS, Act, Turn
from mafia_env.engine.roles import Role, Team

Game = Any  # the `mafia_env.engine.game.Game` being resampled (that module imports this one)

MAFIA_ROLES = frozenset(r for r in Role if r.team is Team.MAFIA)


def seen_by(events: list, seat: int) -> list:
    """Return the events `seat` saw, in order (table talk aside: a copy replays no talk)."""
    return [e for e in events if (e[4] == PUBLIC or e[4] >> seat & 1) and e[0] != Ev.TALK]


def deal_constraints(game: Game, seat: int) -> list[frozenset[Role]]:
    """Return, for every seat, the roles `seat` cannot rule out for it."""
    dealt = frozenset(game.roles)
    allowed = [set(dealt) for _ in range(game.n)]
    mates: set[int] = set()
    don_known = game.rules.don_known
    for kind, actor, target, value, vis in game.events:
        if vis != PUBLIC and not vis >> seat & 1:
            continue
        if kind == Ev.ROLE and actor == seat:
            allowed[seat] = {Role(value)}
        elif kind == Ev.TEAMMATE and actor == seat:
            mates.add(target)
            told = Role(value)
            allowed[target] &= {told} if don_known or told is not Role.MAFIA else MAFIA_ROLES
        elif kind == Ev.REVEAL:
            allowed[target] = {Role(value)}
        elif kind == Ev.DON_INTRODUCED:
            for s in range(game.n):
                allowed[s].discard(Role.DON)
            allowed[actor] = {Role.DON}
        elif kind == Ev.CHECK and actor == seat:
            if game.roles[seat] is Role.DON:  # "is this the sheriff?"
                if value:
                    allowed[target] &= {Role.SHERIFF}
                else:
                    allowed[target].discard(Role.SHERIFF)
            elif value:  # the sheriff's "black": the mafia team
                allowed[target] &= MAFIA_ROLES
            else:
                allowed[target] -= MAFIA_ROLES
    if game.teams[seat] is Team.MAFIA:  # the mafia know their whole team
        for s in range(game.n):
            if s != seat and s not in mates:
                allowed[s] -= MAFIA_ROLES
    return [frozenset(a) for a in allowed]


def draw_deal(
    game: Game, allowed: list[frozenset[Role]], rng: random.Random, tries: int = 20_000
) -> list[Role] | None:
    """Return a deal drawn uniformly among those that respect `allowed` (None: none found)."""
    fixed = {s: next(iter(a)) for s, a in enumerate(allowed) if len(a) == 1}
    pool = list(game.roles)
    for role in fixed.values():
        pool.remove(role)
    free = [s for s in range(game.n) if s not in fixed]
    deal = [Role.CIVILIAN] * game.n
    for s, role in fixed.items():
        deal[s] = role
    for _ in range(tries):
        rng.shuffle(pool)  # every assignment of the multiset is equally likely
        if all(role in allowed[s] for s, role in zip(free, pool, strict=True)):
            for s, role in zip(free, pool, strict=True):
                deal[s] = role
            return deal
    return None


def plausible(game: Game, deal: list[Role]) -> bool:
    """Return False if under `deal` a team would have won before the game got where it is."""
    alive = [0, 0, 0]
    for role in deal:
        alive[role.team] += 1
    events = game.events
    last = len(events)
    i = 0
    while i < last:
        if events[i][0] != Ev.ELIMINATED:
            i += 1
            continue
        while i < last and events[i][0] in (Ev.ELIMINATED, Ev.REVEAL):  # one batch of removals
            if events[i][0] == Ev.ELIMINATED:
                alive[deal[events[i][2]].team] -= 1
            i += 1
        if (i < last or not game.over) and game.rules.winner(*alive) is not None:
            return False
    return True


def _matching(old: tuple, new: list, rng: random.Random) -> dict[int, int]:
    """Return new seat -> old seat, pairing holders of the same key (identity where it stays)."""
    out: dict[int, int] = {}
    for key in set(old):
        olds = [s for s, k in enumerate(old) if k == key]
        news = [s for s, k in enumerate(new) if k == key]
        stay = set(olds) & set(news)
        out.update((s, s) for s in stay)
        rest_old = [s for s in olds if s not in stay]
        rest_new = [s for s in news if s not in stay]
        rng.shuffle(rest_old)
        out.update(zip(rest_new, rest_old, strict=True))
    return out


def _is_legal(game: Game, act: int, target: int) -> bool:
    for a, bits in game.legal():
        if a == act and (bits is None or (target >= 0 and bits >> target & 1)):
            return True
    return False


def _any_legal(game: Game, rng: random.Random) -> tuple[Act, int, int]:
    act, bits = rng.choice(game.legal())
    if bits is None:
        return act, -1, -1
    targets = [s for s in range(game.n) if bits >> s & 1]
    status = rng.randrange(2) if act is Act.HUNT and game.rules.hunt_status else -1
    return act, rng.choice(targets), status


def replay_as(game: Game, deal: list[Role], seat: int, rng: random.Random) -> Game | None:
    """Play `game` again under `deal` (see the module docstring); None if `seat` would see a
    difference."""
    by_role = _matching(game.roles, deal, rng)
    by_team = _matching(game.teams, [r.team for r in deal], rng)
    hidden: dict[tuple[int, int, int], list[tuple[int, int, int, int]]] = {}
    public: list[tuple[int, int, int, int, int, int]] = []
    for k, (s, act, target, value, turn, day) in enumerate(game.inputs):
        if turn is not None and turn in NIGHT_TURNS:
            hidden.setdefault((day, turn, s), []).append((k, act, target, value))
        else:
            public.append((k, s, act, target, value, turn))
    g = type(game)(game.rules, game.n, game.seed, deal)
    want = seen_by(game.events, seat)
    i = 0
    while not g.over:
        t, s = g.turn, g.actor
        if t in NIGHT_TURNS:
            old = (by_team if t is Turn.HUNT else by_role)[s]
            moves = hidden.get((g.day, t, old))
            if moves:
                k, act, target, value = moves.pop(0)
                i = _fouls_before(g, public, i, k)
                if g.over or g.actor != s or g.turn != t:
                    continue
                if not _is_legal(g, act, target):
                    act, target, value = _any_legal(g, rng)
            else:
                if i == len(public) and len(seen_by(g.events, seat)) >= len(want):
                    break
                act, target, value = _any_legal(g, rng)
            g.apply(act, target, value)
            continue
        if i < len(public) and public[i][2] < 0:  # a foul (or the stop) before this turn
            _apply_extra(g, public[i])
            i += 1
            continue
        if i == len(public):
            break
        k, ps, act, target, value, pt = public[i]
        if ps != s or pt != t or not _is_legal(g, act, target):
            return None
        g.apply(act, target, value)
        i += 1
    while i < len(public) and public[i][2] < 0 and not g.over:
        _apply_extra(g, public[i])
        i += 1
    if i != len(public) or seen_by(g.events, seat) != want:
        return None
    return g


def _fouls_before(g: Game, public: list, i: int, k: int) -> int:
    """Apply the moderator's calls recorded before input `k` that are pending at `public[i:]`;
    return the index of the first public entry left."""
    while i < len(public) and public[i][2] < 0 and public[i][0] < k:
        if not g.over:
            _apply_extra(g, public[i])
        i += 1
    return i


def _apply_extra(g: Game, entry: tuple) -> None:
    _, s, act = entry[:3]
    if act == -1:
        g.foul(s)
    elif act == -3:
        if g.alive[s]:
            g.remove(s)
    else:
        g.terminate(s)


def resample(game: Game, seat: int, rng: random.Random, tries: int = 1000) -> Game:
    """Return a copy of `game` with what `seat` does not know dealt again (module docstring)."""
    if not 0 <= seat < game.n:
        raise ValueError(f"seat must be 0..{game.n - 1}; got {seat}")
    if game.over:
        return game.clone()
    allowed = deal_constraints(game, seat)
    for _ in range(tries):
        deal = draw_deal(game, allowed, rng)
        if deal is None:
            break
        if not plausible(game, deal):
            continue
        g = replay_as(game, deal, seat, rng)
        if g is not None:
            g.rng = random.Random(rng.getrandbits(64))  # the future's chance is unknown too
            return g
    g = game.clone()
    g.rng = random.Random(rng.getrandbits(64))
    return g


__all__ = ["deal_constraints", "draw_deal", "plausible", "replay_as", "resample", "seen_by"]
