"""`mafia_env.compat`: the one home of what reads records of formats 1 to 3 and tasks of
versions 2 to 4 under the rules of their time."""

from __future__ import annotations

import pytest

import mafia_env.engine.rules
import mafia_env.record
from mafia_env import compat
from mafia_env.engine.events import Ev
from mafia_env.errors import ConfigError
from mafia_env.tasks import TASKS_BY_VERSION


def test_the_eras_rules_are_still_importable_from_the_engine():
    assert mafia_env.engine.rules.earlier_rules is compat.earlier_rules
    assert mafia_env.engine.rules.ERAS is compat.ERAS == (1, 2, 3)
    assert mafia_env.record.format_events is compat.format_events
    with pytest.raises(ConfigError, match="no earlier rules of era 4; eras: 1, 2, 3"):
        compat.earlier_rules("sport", 4)


def test_formats_and_versions_map_to_their_eras():
    assert compat.RECORD_ERAS == {1: 1, 2: 2, 3: 3}
    assert compat.TASK_ERAS == {2: 1, 3: 2, 4: 3}
    record = {"format": 4, "variant": "city", "knobs": {"max_days": 4}}
    assert compat.record_knobs(record) == {"max_days": 4}
    for fmt, era in compat.RECORD_ERAS.items():
        knobs = compat.record_knobs({**record, "format": fmt})
        assert knobs == {**compat.earlier_rules("city", era), "max_days": 4}
    old = {"format": 2, "variant": "sport", "knobs": {}, "rules": {"illegal_action": "raise"}}
    assert compat.record_knobs(old)["illegal_action"] == "raise"  # COMMON-7's defaults
    assert compat.recorded_rules(old, {"illegal_action": "raise", "new": 1}) == {
        "illegal_action": "raise"
    }
    assert compat.recorded_rules({**old, "format": 4}, {"new": 1}) == {"new": 1}
    for version, tasks in TASKS_BY_VERSION.items():
        for task in tasks.values():
            era = compat.TASK_ERAS.get(version)
            want = compat.earlier_rules(task.variant, era) if era else {}
            assert task.play_knobs() == {**want, **dict(task.knobs)}


def test_format_1_counts_the_events_of_its_time():
    turn = (Ev.TURN, 0, -1, 0, 0)
    assert compat.format_events([turn], 1) == [] and compat.format_events([turn], 2) == [turn]
    assert Ev.TURN not in compat.FORMAT_1_KINDS and Ev.VOTING in compat.FORMAT_1_KINDS
    assert compat.format_1_bytes([]) == b""
    assert len(compat.format_1_bytes([(1, 2, 3, 4, 5)])) == 5 * 8


def test_each_era_holds_the_later_readings_old_values():
    """Era 3 is the rules before issue 47's third reading (CITY-N10, SPORT-N3, SPORT-N4,
    ONLINE-D5, ONLINE-D6, CLUB-E8 at their earlier values); era 2 and era 1 hold them too, and
    `reading_rules` gives one reading's knobs alone (version 4's tasks name era 2's)."""
    third = compat.earlier_rules("city", 3)
    assert third == {**compat.reading_rules("city", 3)}
    assert third["mafia_pass"] is False and third["mafia_no_number"] == "miss"
    assert compat.earlier_rules("sport", 3)["zero_night_meeting"] is False
    assert compat.earlier_rules("online", 3)["discussion"] == 0
    for era in (1, 2):
        assert compat.earlier_rules("city", era).items() >= third.items()
    assert compat.reading_rules("sport", 2) == compat.BEFORE_SECOND_READING
    v4 = TASKS_BY_VERSION[4]["club-10"]
    assert dict(v4.knobs) == compat.reading_rules("club", 2)
    assert v4.play_knobs()["nominee_votes"] == "none"
