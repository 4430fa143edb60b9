"""Benchmark tasks of version 14 (issue 45): sport-10's, club-10's and forum-10's seat-filler
networks of versions 12-13 stamped with the talk layer's ``mafia_quiet`` as well (a mafia
seat's vouch after day 1 ends its speech instead); every other file and seat is version 13's,
and so are the other pairs."""

from __future__ import annotations

import pytest

import baselines.shipped as shipped
from baselines import pins
from baselines.belief_talk import BeliefTalk
from mafia_env.engine.spec import GameSpec
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, TASKS_V13, TASKS_V14, get_task
from tests.benchmark.test_benchmark import no_version_after_latest
from tests.benchmark.test_tasks_v5 import (
    FILLER_V13,
    FILLER_V14,
    check_filler_files,
    check_filler_retrained,
    same_weights_options,
)

# Version 14: version 13's tables, seeds, games, opponents, seats and rules; sport-10's,
# club-10's and forum-10's filler files are others.
PINNED_V14 = {
    "sport-10": "5c576501a1ed52a5",
    "city-13": "62a466cb3ad1b47e",
    "club-10": "9b411392ae90261f",
    "online-10": "d5c96a6835384098",
    "forum-10": "a323ab0774603ecc",
    "minimal-10": "51af4f47aebc1c21",
}
RETRAINED = ("sport-10", "club-10", "forum-10")  # the same networks, other options
NEW = {
    "sport-10": "5bd236113ce5d1f2",
    "club-10": "5983442cc48d30c2",
    "forum-10": "046009d727dafcc4",
}


def test_version_14_definitions_are_pinned():
    assert LATEST >= 14 and TASKS_BY_VERSION[14] is TASKS_V14  # the latest: test_tasks_v15.py
    check_filler_retrained(14, PINNED_V14, RETRAINED, NEW)
    assert all(get_task(name, 14) is task for name, task in TASKS_V14.items())
    no_version_after_latest(r"2, 3, .*, 13, 14")


@pytest.mark.parametrize("name", RETRAINED)
def test_the_filler_pins_are_the_shipped_files_and_the_stamped_ones_keep_their_weights(name):
    """Every task's filler file is the one pinned; sport-10's, club-10's and forum-10's are
    versions 12-13's networks, the same weights, under the layer their files record with
    ``mafia_quiet``; versions 12 and 13 play their own files (`pins.RETIRED`: filler/v13/)."""
    check_filler_files(TASKS_V14, FILLER_V14)  # (sport-10's and online-10's: 15)
    old = shipped.SHIPPED / FILLER_V13[name]
    for version in (12, 13):
        assert pins.shipped_file(get_task(name, version), "filler") == old
        assert pins.load_options(get_task(name, version), "filler")["file"] == old
    task = TASKS_V14[name]
    mine = pins.load_options(task, "filler")  # (sport-10's file retired for 15: filler/v14/)
    assert mine == ({"file": shipped.SHIPPED / FILLER_V14[name]} if name in FILLER_V14 else {})
    assert pins.seated(task, "filler") == pins.seated(TASKS_V13[name], "filler")
    pytest.importorskip("torch")
    spec = GameSpec.make(task.variant, task.num_players, **task.play_knobs())
    now = load_policy("filler", spec, seed=1, **mine)
    now = getattr(now, "default", now)  # (forum-10's maniac's seat: the rule bots)
    assert isinstance(now, BeliefTalk) and now.mafia_quiet
    before = load_policy("filler", spec, seed=1, file=old)
    before = getattr(before, "default", before)
    assert isinstance(before, BeliefTalk) and not before.mafia_quiet
    a, b = same_weights_options(old, pins.shipped_file(task, "filler"))
    assert b == {**a, "mafia_quiet": True}
