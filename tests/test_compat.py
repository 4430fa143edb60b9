"""`mafia_env.compat`: the one home of what reads records of formats 1 and 2 and tasks of
versions 2 and 3 under the rules of their time."""

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
    assert mafia_env.engine.rules.ERAS is compat.ERAS == (1, 2)
    assert mafia_env.record.format_events is compat.format_events
    with pytest.raises(ConfigError, match="no earlier rules of era 3; eras: 1, 2"):
        compat.earlier_rules("sport", 3)


def test_formats_and_versions_map_to_their_eras():
    assert compat.RECORD_ERAS == {1: 1, 2: 2} and compat.TASK_ERAS == {2: 1, 3: 2}
    record = {"format": 3, "variant": "city", "knobs": {"max_days": 4}}
    assert compat.record_knobs(record) == {"max_days": 4}
    for fmt, era in compat.RECORD_ERAS.items():
        knobs = compat.record_knobs({**record, "format": fmt})
        assert knobs == {**compat.earlier_rules("city", era), "max_days": 4}
    old = {"format": 2, "variant": "sport", "knobs": {}, "rules": {"illegal_action": "raise"}}
    assert compat.record_knobs(old)["illegal_action"] == "raise"  # COMMON-7's defaults
    assert compat.recorded_rules(old, {"illegal_action": "raise", "new": 1}) == {
        "illegal_action": "raise"
    }
    assert compat.recorded_rules({**old, "format": 3}, {"new": 1}) == {"new": 1}
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
