"""Benchmark tasks of version 19 (issue 45): sport-10's seat-filler network of versions 17-18
stamped with ``defer="day1_check"`` for ``"impossible"`` (a town seat plays as the rule bots
where another seat has claimed a check on day 1, not where a later claim outnumbers the nights);
every other file and seat is version 18's, and so are the other pairs."""

from __future__ import annotations

import pytest

import baselines.shipped as shipped
from baselines import pins
from baselines.belief_talk import BeliefTalk
from mafia_env.engine.spec import GameSpec
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, TASKS_V19, get_task
from tests.benchmark.test_benchmark import no_version_after_latest
from tests.benchmark.test_tasks_v5 import (
    FILLER_V18,
    FILLER_V19,
    check_filler_files,
    check_filler_retrained,
    same_weights_options,
)

# Version 19: version 18's tables, seeds, games, opponents, seats and rules; sport-10's filler
# file is another.
PINNED_V19 = {
    "sport-10": "e746e0394b6c62e1",
    "city-13": "504dd20f48c0effe",
    "club-10": "a567c40e6fc7aed0",
    "online-10": "d0a315eb09cfb03f",
    "forum-10": "cd6c19efc91ab5e9",
    "minimal-10": "5d6b73c7ef21f245",
}
RETRAINED = ("sport-10",)  # the same network, another option
NEW = {"sport-10": "059e4982430e730e"}


def test_version_19_definitions_are_pinned():
    assert LATEST >= 19 and TASKS_BY_VERSION[19] is TASKS_V19  # the latest: test_tasks_v20.py
    check_filler_retrained(19, PINNED_V19, RETRAINED, NEW)
    assert all(get_task(name, 19) is task for name, task in TASKS_V19.items())
    no_version_after_latest(r"2, 3, .*, 18, 19")


def test_sport_10s_filler_keeps_its_weights_under_day1_check():
    """Every task's filler file is the one pinned; sport-10's is versions 17-18's network, the
    same weights, under the layer their file records with ``defer="day1_check"`` for
    ``"impossible"``; versions 17 and 18 play their own file (`pins.RETIRED`: filler/v18/)."""
    check_filler_files(TASKS_V19, FILLER_V19)  # (online-10's: retired for 20)
    old = shipped.SHIPPED / FILLER_V18["sport-10"]
    for version in (17, 18):
        assert pins.shipped_file(get_task("sport-10", version), "filler") == old
        assert pins.load_options(get_task("sport-10", version), "filler") == {"file": old}
    task = TASKS_V19["sport-10"]
    assert pins.load_options(task, "filler") == {} and pins.seated(task, "filler") == {}
    pytest.importorskip("torch")
    spec = GameSpec.make(task.variant, task.num_players, **task.play_knobs())
    now = load_policy("filler", spec, seed=1)
    assert isinstance(now, BeliefTalk) and now.defer == "day1_check"
    before = load_policy("filler", spec, seed=1, file=old)
    assert isinstance(before, BeliefTalk) and before.defer == "impossible"
    a, b = same_weights_options(old, pins.shipped_file(task, "filler"))
    assert b == {**a, "defer": "day1_check"}
