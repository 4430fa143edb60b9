"""What earlier record formats wrote, still read: records of formats 1 to 3.

The seeds (the rule sets' source documents) were read again three times, and each reading
changed some variants' rules. An *era* names the rules between two readings
(`mafia_env.engine.eras`); a record keeps the rules of its era, so that it replays move for
move:

| era | the rules | records of |
|---|---|---|
| 1 | before issue 16 read the seeds again | format 1 |
| 2 | before issue 25 read them a second time | format 2 |
| 3 | before issue 47 read them a third time | format 3 |
| (none) | today's | format 4 |

`record_knobs` and `recorded_rules` give the knobs a record replays with and the rules it
lists, and `format_events` the events a format counted and hashed (format 1 logged no
``Ev.TURN`` and a ballot's candidates as a bitmask). Benchmark tasks of earlier versions are
played under their era's rules the same way (`mafia_env.tasks.task_knobs`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mafia_env.engine.eras import earlier_rules
from mafia_env.engine.events import Ev, seat_sequence

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
