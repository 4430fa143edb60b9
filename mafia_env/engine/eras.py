"""The rules of earlier eras: the knob values each reading of the seeds changed.

The seeds (the rule sets' source documents) were read again three times, and each reading
changed some variants' rules. An *era* names the rules between two readings;
`earlier_rules(variant, era)` returns the knobs that give a variant an era's rules (records
and benchmark tasks of those eras replay with them: `mafia_env.records.earlier`, `mafia_env.tasks`).
"""

from __future__ import annotations

from typing import Any

from mafia_env.engine.errors import ConfigError

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


__all__ = ["ERAS", "READINGS", "earlier_rules", "reading_rules"]
