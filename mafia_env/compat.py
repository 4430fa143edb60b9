"""What earlier versions wrote, still read: records of formats 1 to 3, tasks of versions 2 to 4.

The seeds (the rule sets' source documents) were read again three times, and each reading
changed some variants' rules. An *era* names the rules between two readings; a record or a
task keeps the rules of its era, so that it replays move for move and its scores stay
comparable:

| era | the rules | records of | tasks of |
|---|---|---|---|
| 1 | before issue 16 read the seeds again | format 1 | version 2 |
| 2 | before issue 25 read them a second time | format 2 | version 3 |
| 3 | before issue 47 read them a third time | format 3 | version 4 |
| (none) | today's | format 4 | (a later version) |

`earlier_rules(variant, era)` returns the knobs that give a variant an era's rules (the rule
bots and PPO checkpoints use it to read observations of those rules). For records,
`record_knobs` and `recorded_rules` give the knobs a record replays with and the rules it
lists, and `format_events` the events a format counted and hashed (format 1 logged no
``Ev.TURN`` and a ballot's candidates as a bitmask). For tasks, `task_knobs` gives the rules a
version's games are played with and `task_definition` what its digest hashes.
"""

from __future__ import annotations

from typing import Any

from mafia_env.engine.events import Ev, seat_sequence
from mafia_env.errors import ConfigError

# ---------------------------------------------------------------- the eras' rules

# The knob values the games of record format 1 and the benchmark tasks of version 2 were
# played with, where the variant files or new knobs differ now (issue 16 read the seeds again).
BEFORE_SEED_READING: dict[str, Any] = {
    "zero_night_don": False,
    "nominee_ban": "ballot",
    "zero_votes": "spare",
    "hunt_status": False,
    "mafia_win": "parity",
}
BEFORE_SEED_READING_BY_VARIANT: dict[str, dict[str, Any]] = {"city": {"heal_against": "all"}}
# The knob values the games of record format 2 and the benchmark tasks of version 3 were
# played with, where they differ now (issue 25 read the seeds a second time).
BEFORE_SECOND_READING: dict[str, Any] = {
    "mafia_win_maniac": "dead",
    "vote_count": "hidden",
    "fouls_take_last_word": False,
    "hunted_reveal": "none",
    "companion_reason": True,
    "heal_told": True,
}
BEFORE_SECOND_READING_BY_VARIANT: dict[str, dict[str, Any]] = {
    "club": {"mafia_see_shots": False},
    "online": {"mafia_see_shots": False},
}
# The knob values the games of record format 3 and the benchmark tasks of version 4 were
# played with, where they differ now (issue 47 read the seeds a third time).
BEFORE_THIRD_READING: dict[str, Any] = {
    "mafia_no_number": "miss",
    "zero_night_meeting": False,
    "shots_judged": "morning",
    "discussion": 0,
    "gestures": "none",
    "nominee_votes": "none",
}
BEFORE_THIRD_READING_BY_VARIANT: dict[str, dict[str, Any]] = {"city": {"mafia_pass": False}}
# each era's end: the reading that closed it, as (its knobs' old values, by variant)
READINGS: dict[int, tuple[dict[str, Any], dict[str, dict[str, Any]]]] = {
    1: (BEFORE_SEED_READING, BEFORE_SEED_READING_BY_VARIANT),
    2: (BEFORE_SECOND_READING, BEFORE_SECOND_READING_BY_VARIANT),
    3: (BEFORE_THIRD_READING, BEFORE_THIRD_READING_BY_VARIANT),
}
ERAS = tuple(READINGS)  # the earlier eras `earlier_rules` knows


def reading_rules(variant: str, era: int) -> dict[str, Any]:
    """Return the old values of the knobs that the reading closing `era` changed (version 4's
    tasks name era 2's in their definition)."""
    common, by_variant = READINGS[era]
    return {**common, **by_variant.get(variant, {})}


def earlier_rules(variant: str, era: int = 1) -> dict[str, Any]:
    """Return the knobs that give `variant` the rules of an earlier era.

    Era 1: before issue 16 read the seeds again (records of format 1, tasks of version 2).
    Era 2: before issue 25 read them a second time (records of format 2, tasks of version 3).
    Era 3: before issue 47 read them a third time (records of format 3, tasks of version 4).
    An era's rules hold every later reading's old values too: those knobs did not exist yet.
    """
    if era not in ERAS:
        raise ConfigError(f"no earlier rules of era {era!r}; eras: {', '.join(map(str, ERAS))}")
    knobs: dict[str, Any] = {}
    for e in ERAS:
        if e >= era:
            knobs |= reading_rules(variant, e)
    return knobs


# ---------------------------------------------------------------- records

RECORD_ERAS = {1: 1, 2: 2, 3: 3}  # record format -> the era its games were played in (4: today)

# The events a game of record format 1 logged (format 2 added TURN): its checksum covers these.
FORMAT_1_KINDS = frozenset(range(Ev.TURN))


def format_events(events: list[tuple[int, int, int, int, int]], fmt: int) -> list:
    """Return the events a record of format `fmt` counts and hashes, as it logged them."""
    if fmt >= 2:
        return events
    out = []
    for e in events:
        if e[0] not in FORMAT_1_KINDS:
            continue
        if e[0] == Ev.VOTING:  # format 1 logged the candidates as a bitmask
            e = (*e[:3], sum(1 << s for s in seat_sequence(e[3])), e[4])
        out.append(e)
    return out


def format_1_bytes(events: list) -> bytes:
    """Return the bytes a record of format 1 hashes for its events (`format_events`): int64s."""
    import numpy as np  # here, not above: the engine's rules import this module

    return np.asarray(events, dtype=np.int64).tobytes() if events else b""


def record_knobs(record: dict[str, Any]) -> dict[str, Any]:
    """Return the knobs a record's game replays with: its own, over its era's rules.

    A record that does not set ``illegal_action`` but lists it under ``rules`` was written
    before the views had defaults of their own (COMMON-7: the variant files had "raise"),
    and replays under the recorded one.
    """
    knobs = dict(record["knobs"])
    era = RECORD_ERAS.get(record["format"])
    if era is not None:  # played under the rules of its time
        knobs = {**earlier_rules(record["variant"], era), **knobs}
    recorded = record.get("rules", {}).get("illegal_action")
    if "illegal_action" not in knobs and recorded is not None:
        knobs["illegal_action"] = recorded
    return knobs


def recorded_rules(record: dict[str, Any], now: dict[str, Any]) -> dict[str, Any]:
    """Return the replay's knob values `now` as the record lists them under ``rules``: a
    record of an earlier format lacks the knobs added since (`record_knobs` sets those)."""
    if record["format"] in RECORD_ERAS:
        return {k: v for k, v in now.items() if k in record.get("rules", now)}
    return now


# ---------------------------------------------------------------- benchmark tasks

TASK_ERAS = {2: 1, 3: 2, 4: 3}  # task version -> the era its games are played in


def task_knobs(variant: str, version: int) -> dict[str, Any]:
    """Return the knobs that give a task of `version` the rules it was defined under."""
    era = TASK_ERAS.get(version)
    return earlier_rules(variant, era) if era is not None else {}


def task_definition(fields: dict[str, Any]) -> dict[str, Any]:
    """Return the fields of a task (`dataclasses.asdict`) its digest hashes: ``pins`` came
    with version 3, so a definition without them hashes as it always did."""
    if not fields.get("pins"):
        fields = {k: v for k, v in fields.items() if k != "pins"}
    return fields


__all__ = [
    "ERAS",
    "FORMAT_1_KINDS",
    "RECORD_ERAS",
    "TASK_ERAS",
    "earlier_rules",
    "format_1_bytes",
    "format_events",
    "reading_rules",
    "record_knobs",
    "recorded_rules",
    "task_definition",
    "task_knobs",
]
