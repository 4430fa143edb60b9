"""What one seat knows for sure from its own events, and who answers what it cannot know.

`deal_constraints(game, seat)` lists, for every seat, the roles `seat` cannot rule out from
the facts it was told: its role, its teammates, the roles shown to the table, the don's
introduction and its own checks' answers. Everything the seat could deduce beyond these
(from the play) is the belief's work (`mafia_env.belief`), a layer above the engine that
plays the engine to deduce.

`Game.belief` and `Game.resample` are answered by that layer: `install(belief, sample)`
gives the engine the two functions (the package `mafia_env` installs
`mafia_env.infoset`'s when it is imported); the engine imports nothing above itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from mafia_env.engine.events import PUBLIC, Ev
from mafia_env.engine.roles import Role, Team

Game = Any  # a `mafia_env.engine.game.Game` (that module imports this one)

MAFIA_ROLES = frozenset(r for r in Role if r.team is Team.MAFIA)

# the kinds of event `deal_constraints` reads (the rest it passes over)
FACT_KINDS = frozenset(
    int(k) for k in (Ev.ROLE, Ev.TEAMMATE, Ev.REVEAL, Ev.DON_INTRODUCED, Ev.CHECK)
)

Belief = Callable[[Game, int, Any], Any]  # (game, seat, model) -> the seat's belief
Sample = Callable[[Game, int, random.Random], Game]  # (game, seat, rng) -> a world

_ANSWERS: dict[str, Callable[..., Any]] = {}


def install(belief: Belief, sample: Sample) -> None:
    """Give the engine what answers `Game.belief(seat, model)` and `Game.resample(seat, rng)`."""
    _ANSWERS["belief"] = belief
    _ANSWERS["sample"] = sample


def answer(name: str) -> Callable[..., Any]:
    """Return the installed function `name` ("belief" or "sample"); a clear error if none."""
    try:
        return _ANSWERS[name]
    except KeyError:
        raise RuntimeError(
            f"Game.{'belief' if name == 'belief' else 'resample'} is answered by the belief "
            "layer above the engine: import mafia_env (it installs mafia_env.infoset's), or "
            "call mafia_env.engine.knowledge.install(belief, sample)"
        ) from None


def deal_constraints(game: Game, seat: int) -> list[frozenset[Role]]:
    """Return, for every seat, the roles `seat` cannot rule out for it. (A game may list its
    events of the kinds read here, in order, as ``fact_events``: they are read instead of
    every event.)"""
    dealt = frozenset(game.roles)
    allowed = [set(dealt) for _ in range(game.n)]
    mates: set[int] = set()
    don_known = game.rules.don_known
    for kind, actor, target, value, vis in getattr(game, "fact_events", game.events):
        if kind not in FACT_KINDS or (vis != PUBLIC and not vis >> seat & 1):
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


__all__ = ["FACT_KINDS", "MAFIA_ROLES", "answer", "deal_constraints", "install"]
