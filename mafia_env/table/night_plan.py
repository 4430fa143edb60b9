"""The schedule of a night at the table, fixed by the public rules alone: its timing leaks nothing.

A person may time the night: when his own night turn opens, and when morning comes. So the
table never lets the length of a turn tell who took it. A night is a row of slots, one for
every night turn the rules could hold that night whoever is alive (`NightPlan`): every seat
dealt to the mafia shoots in its slot (and names the executor in the next, FORUM-N1), then
the checks, visits, heals and shots of the roles dealt, each in the night order; the free
hunt (FORUM-N3) has a slot for every seat, so a hunter's place tells nothing of the others.
A turn nobody takes (its holder is dead, blocked or absent from the deal) still lasts its
slot. Each slot lasts the same: the bot pause, or, at a table where two or more people are
alive, the night turn of a person (`TableConfig.night_turn`), and a person then moves
within his slot, so no person can time another. A lone person's own slot lasts as long as he
takes (nobody else at the table could time it). Only the player who moved hears of a move at
night (`Table.run`), so the slots are the only clock there is.

The slots depend on the rules, the table size and the roles the rules deal, never on who is
alive: a night of SPORT at 10 is five slots (three shooters, the don's check, the sheriff's)
on every night of every game.
"""

from __future__ import annotations

import asyncio
from typing import Any

from mafia_env.engine.kinds import Turn
from mafia_env.engine.roles import Role, Team

# the night order's steps (`Rules.night_order`) and the turns of each, one role's seats each
_ROLE_STEPS = {
    "don": (Turn.DON_CHECK, Role.DON, "don_check"),
    "sheriff": (Turn.SHERIFF_CHECK, Role.SHERIFF, "sheriff_check"),
    "putana": (Turn.PUTANA, Role.PUTANA, None),
    "doctor": (Turn.DOCTOR, Role.DOCTOR, None),
    "maniac": (Turn.MANIAC, Role.MANIAC, None),
}


class NightPlan:
    """The slots of the night `game` is in (or about to begin): `slot(turn, seat)`, `size`.

    Built from the rules, the table size and the deal's role counts (public: the variant's
    role table); which seat holds a slot matters only for the order inside the mafia's own
    slots, which the mafia know anyway.
    """

    def __init__(self, game: Any):
        rules, roles, teams, n = game.rules, game.roles, game.teams, game.n
        slots: dict[tuple[int, int], int] = {}
        k = 0
        if game.day == 0:  # the zero night: the mafia's meeting (SPORT-N3, the don last),
            if rules.zero_night_meeting:  # and a don who may introduce himself (ONLINE-N1)
                black = [s for s in range(n) if teams[s] is Team.MAFIA]
                for s in sorted(black, key=lambda s: roles[s] is Role.DON):
                    slots[(Turn.MEETING, s)] = k
                    k += 1
            if rules.zero_night_don:
                for s in range(n):
                    if roles[s] is Role.DON:
                        slots[(Turn.MAFIA_KILL, s)] = k
                        k += 1
            self._slots, self.size = slots, k
            return
        for step in rules.night_order.split():
            if step == "mafia":
                black = [s for s in range(n) if teams[s] is Team.MAFIA]
                if rules.mafia_kill == "don":  # CITY-N3: the don decides last
                    black.sort(key=lambda s: roles[s] is Role.DON)
                for s in black:
                    slots[(Turn.MAFIA_KILL, s)] = k
                    k += 1
                    if rules.mafia_kill == "executor":  # FORUM-N1: he names the executor
                        slots[(Turn.EXECUTOR, s)] = k
                        k += 1
            elif step == "hunt":
                if rules.hunt:
                    for s in range(n):
                        slots[(Turn.HUNT, s)] = k
                        k += 1
            elif step in _ROLE_STEPS:
                turn, role, knob = _ROLE_STEPS[step]
                if knob is not None and not getattr(rules, knob):
                    continue
                for s in range(n):
                    if roles[s] is role:
                        slots[(turn, s)] = k
                        k += 1
        self._slots, self.size = slots, k

    def slot(self, turn: int, seat: int) -> int:
        """Return the slot of `seat`'s night turn `turn`; KeyError if the plan has none."""
        return self._slots[(int(turn), seat)]


class Clock:
    """The table's time: the event loop's clock. Tests give a table a virtual one."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    async def sleep_until(self, when: float) -> None:
        rest = when - self.now()
        if rest > 0:
            await asyncio.sleep(rest)

    async def sleep(self, seconds: float) -> None:
        if seconds > 0:
            await asyncio.sleep(seconds)


__all__ = ["Clock", "NightPlan"]
