"""Moderator narration: events as a moderator would say them, to whoever saw them.

The words live in one table per language (`mafia_env.lang.en`, ``ru``, ``uk``); this module
decides who hears what: a public event is told to the table, a private one only to the seats
in its ``seen_by`` mask.
"""

from __future__ import annotations

from collections.abc import Sequence

from mafia_env.engine.events import Ev, Perceiver
from mafia_env.engine.roles import Role
from mafia_env.lang import DEFAULT, LANGS, check_lang, say

ALL = -2  # narrate every event, public and private: the moderator's own view


class _Listener(Perceiver):
    """The lines one seat heard (None: only the public ones), as they were said."""

    def __init__(self, seat: int | None, lang: str, talk: Sequence | None = None):
        self.seat = seat
        self.lang = lang
        self.talk = talk
        self.lines: list[str] = []
        self.role: Role | None = None  # the listener's own role, once told
        super().__init__()

    def public_default(self, e: tuple) -> None:
        line = say(e, self.lang, talk=self.talk)
        if line:
            self.lines.append(line)

    def private_default(self, seat: int, e: tuple) -> None:
        if seat != self.seat:
            return
        kind, actor, _, value, _ = e
        if kind == Ev.ROLE:
            self.role = Role(value)
        line = say(e, self.lang, self.role if actor == seat else None)
        if line:
            self.lines.append(line)


def narrate(
    events: Sequence[tuple[int, int, int, int, int]],
    seat: int | None = None,
    lang: str = DEFAULT,
    talk: Sequence[tuple[int, int, str]] | None = None,
) -> list[str]:
    """Return the lines of `events` that `seat` heard (0-based; None: the public, ALL: all).

    `talk` is the game's table talk (`Game.talk`): the remarks TALK events stand for.
    """
    check_lang(lang)
    events = list(events)
    if seat == ALL:  # the moderator hears everything
        roles: dict[int, Role] = {}
        lines = []
        for e in events:
            if e[0] == Ev.ROLE:
                roles[e[1]] = Role(e[3])
            line = say(e, lang, roles.get(e[1]), talk)
            if line:
                lines.append(line)
        return lines
    listener = _Listener(seat, lang, talk)
    listener.catch_up(events)
    return listener.lines


__all__ = ["ALL", "LANGS", "narrate", "say"]
