"""What reads records of formats 1 to 3 (`mafia_env.records.earlier`) and tasks of versions 2
to 4 (`mafia_env.tasks`) under the rules of their time (`mafia_env.engine.eras`)."""

from __future__ import annotations

import pytest

import mafia_env.engine.rules
import mafia_env.records.format
from mafia_env.engine import eras
from mafia_env.engine.events import Ev
from mafia_env.errors import ConfigError
from mafia_env.records import earlier
from mafia_env.tasks import TASK_ERAS, TASKS_BY_VERSION


def test_the_eras_rules_are_still_importable_from_the_engine():
    assert mafia_env.engine.rules.earlier_rules is eras.earlier_rules
    assert mafia_env.engine.rules.ERAS is eras.ERAS == (1, 2, 3)
    assert mafia_env.records.format.format_events is earlier.format_events
    with pytest.raises(ConfigError, match="no earlier rules of era 4; eras: 1, 2, 3"):
        eras.earlier_rules("sport", 4)


def test_formats_and_versions_map_to_their_eras():
    assert earlier.RECORD_ERAS == {1: 1, 2: 2, 3: 3}
    # 5-20: 4's era
    by_version = {2: 1, 3: 2, **{version: 3 for version in range(4, 21)}}
    assert by_version == TASK_ERAS
    record = {"format": 4, "variant": "city", "knobs": {"max_days": 4}}
    assert earlier.record_knobs(record) == {"max_days": 4}
    for fmt, era in earlier.RECORD_ERAS.items():
        knobs = earlier.record_knobs({**record, "format": fmt})
        assert knobs == {**eras.earlier_rules("city", era), "max_days": 4}
    old = {"format": 2, "variant": "sport", "knobs": {}, "rules": {"illegal_action": "raise"}}
    assert earlier.record_knobs(old)["illegal_action"] == "raise"  # COMMON-7's defaults
    assert earlier.recorded_rules(old, {"illegal_action": "raise", "new": 1}) == {
        "illegal_action": "raise"
    }
    assert earlier.recorded_rules({**old, "format": 4}, {"new": 1}) == {"new": 1}
    for version, tasks in TASKS_BY_VERSION.items():
        for task in tasks.values():
            era = TASK_ERAS.get(version)
            want = eras.earlier_rules(task.variant, era) if era else {}
            assert task.play_knobs() == {**want, **dict(task.knobs)}


def test_format_1_counts_the_events_of_its_time():
    turn = (Ev.TURN, 0, -1, 0, 0)
    assert earlier.format_events([turn], 1) == [] and earlier.format_events([turn], 2) == [turn]
    assert Ev.TURN not in earlier.FORMAT_1_KINDS and Ev.VOTING in earlier.FORMAT_1_KINDS
    assert earlier.format_1_bytes([]) == b""
    assert len(earlier.format_1_bytes([(1, 2, 3, 4, 5)])) == 5 * 8


def test_each_era_holds_the_later_readings_old_values():
    """Era 3 is the rules before issue 47's third reading (CITY-N10, SPORT-N3, SPORT-N4,
    ONLINE-D5, ONLINE-D6, CLUB-E8 at their earlier values); era 2 and era 1 hold them too, and
    `reading_rules` gives one reading's knobs alone (version 4's tasks name era 2's)."""
    third = eras.earlier_rules("city", 3)
    assert third == {**eras.reading_rules("city", 3)}
    assert third["mafia_pass"] is False and third["mafia_no_number"] == "miss"
    assert eras.earlier_rules("sport", 3)["zero_night_meeting"] is False
    assert eras.earlier_rules("online", 3)["discussion"] == 0
    for era in (1, 2):
        assert eras.earlier_rules("city", era).items() >= third.items()
    assert eras.reading_rules("sport", 2) == eras.BEFORE_SECOND_READING
    v4 = TASKS_BY_VERSION[4]["club-10"]
    assert dict(v4.knobs) == eras.reading_rules("club", 2)
    assert v4.play_knobs()["nominee_votes"] == "none"
