"""Moderator narration: events as a moderator would say them, to whoever saw them.

The words live in one table per language (`mafia_env.lang.en`, ``ru``, ``uk``); this module
decides who hears what: a public event is told to the table, a private one only to the seats
in its ``seen_by`` mask.
"""

from __future__ import annotations

from collections.abc import Iterable

from mafia_env.engine.events import PUBLIC, Ev
from mafia_env.engine.roles import Role
from mafia_env.lang import DEFAULT, LANGS, check_lang, say, seat_list

ALL = -2  # narrate every event, public and private: the moderator's own view


def narrate(
    events: Iterable[tuple[int, int, int, int, int]],
    seat: int | None = None,
    lang: str = DEFAULT,
) -> list[str]:
    """Return the lines of `events` that `seat` heard (0-based; None: the public, ALL: all)."""
    check_lang(lang)
    lines = []
    roles: dict[int, Role] = {}  # actors' roles, as their listener learned them
    for e in events:
        kind, actor, _, value, seen_by = e
        if kind == Ev.ROLE:
            roles[actor] = Role(value)
        if seen_by == PUBLIC or seat == ALL or (seat is not None and seen_by >> seat & 1):
            line = say(e, lang, roles.get(actor))
            if line:
                lines.append(line)
    return lines


seats = seat_list  # the older name

__all__ = ["ALL", "LANGS", "narrate", "say"]
