"""Benchmark tasks of version 16 (issue 45): online-10's seat-filler network of version 15
stamped with ``defer="team+unmarked+framed"`` (on day 1 a town seat plays as the rule bots where
three or more other seats have accused one seat that no claimant called black); every other
file and seat is version 15's, and so are the other pairs."""

from __future__ import annotations

import pytest

import baselines.shipped as shipped
from baselines import pins
from baselines.belief_talk import BeliefTalk
from mafia_env.engine.spec import GameSpec
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, TASKS_V16, get_task
from tests.benchmark.test_benchmark import no_version_after_latest
from tests.benchmark.test_tasks_v5 import (
    FILLER_V15,
    FILLER_V16,
    check_filler_files,
    check_filler_retrained,
    same_weights_options,
)

# Version 16: version 15's tables, seeds, games, opponents, seats and rules; online-10's filler
# file is another.
PINNED_V16 = {
    "sport-10": "bcd7df7834ed69f2",
    "city-13": "a69f74048228d5bc",
    "club-10": "8f35f55507d9b7db",
    "online-10": "2d3f83377c966f13",
    "forum-10": "39f4f2204c721501",
    "minimal-10": "85611628332f8c72",
}
RETRAINED = ("online-10",)  # the same network, another option
NEW = {"online-10": "b94f3b1f0e890f87"}


def test_version_16_definitions_are_pinned():
    assert LATEST >= 16 and TASKS_BY_VERSION[16] is TASKS_V16  # the latest: test_tasks_v17.py
    check_filler_retrained(16, PINNED_V16, RETRAINED, NEW)
    assert all(get_task(name, 16) is task for name, task in TASKS_V16.items())
    no_version_after_latest(r"2, 3, .*, 15, 16")


def test_the_filler_pins_are_the_shipped_files_and_online_10s_keeps_its_weights():
    """Every task's filler file is the one pinned; online-10's is version 15's network, the
    same weights, under the layer version 15's file records with ``framed`` joined to its
    ``defer``; version 15 plays its own file (`pins.RETIRED`: filler/v15/), and version 16 its
    (filler/v16/: retired for 17, with sport-10's and club-10's)."""
    check_filler_files(TASKS_V16, FILLER_V16)
    old = shipped.SHIPPED / FILLER_V15["online-10"]
    assert pins.shipped_file(get_task("online-10", 15), "filler") == old
    assert pins.load_options(get_task("online-10", 15), "filler") == {"file": old}
    task = TASKS_V16["online-10"]
    mine = pins.load_options(task, "filler")
    assert mine == {"file": shipped.SHIPPED / FILLER_V16["online-10"]}
    assert pins.seated(task, "filler") == {}
    pytest.importorskip("torch")
    spec = GameSpec.make(task.variant, task.num_players, **task.play_knobs())
    now = load_policy("filler", spec, seed=1, **mine)
    assert isinstance(now, BeliefTalk) and now.defer == "team+unmarked+framed"
    before = load_policy("filler", spec, seed=1, file=old)
    assert isinstance(before, BeliefTalk) and before.defer == "team+unmarked"
    a, b = same_weights_options(old, pins.shipped_file(task, "filler"))
    assert b == {**a, "defer": "team+unmarked+framed"}
