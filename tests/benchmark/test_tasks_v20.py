"""Benchmark tasks of version 20 (issue 45): online-10's seat-filler network of versions 18-19
stamped with ``framed_out`` joined to its ``defer`` (a town seat plays as the rule bots after day
1 once a vote has put out a seat that three or more other seats accused and no claimant called
black); every other file and seat is version 19's, and so are the other pairs."""

from __future__ import annotations

import pytest

import baselines.shipped as shipped
from baselines import pins
from baselines.belief_talk import BeliefTalk
from mafia_env.engine.spec import GameSpec
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import LATEST, TASKS, TASKS_BY_VERSION, TASKS_V20, get_task
from tests.benchmark.test_benchmark import no_version_after_latest
from tests.benchmark.test_tasks_v5 import (
    FILLER_V19,
    check_filler_files,
    check_filler_retrained,
    same_weights_options,
)

# Version 20: version 19's tables, seeds, games, opponents, seats and rules; online-10's filler
# file is another.
PINNED_V20 = {
    "sport-10": "fd58b90a1868e421",
    "city-13": "89204345f1814b82",
    "club-10": "e2fffd0ffda8f8e4",
    "online-10": "7a13008ccdd05d24",
    "forum-10": "b0d2b94e40215796",
    "minimal-10": "b919c5ae991a732f",
}
RETRAINED = ("online-10",)  # the same network, another option
NEW = {"online-10": "f01edcbc5d72956f"}


def test_version_20_definitions_are_pinned():
    assert LATEST == 20 and TASKS is TASKS_V20 and TASKS_BY_VERSION[20] is TASKS_V20
    check_filler_retrained(20, PINNED_V20, RETRAINED, NEW)
    assert all(get_task(name) is task for name, task in TASKS_V20.items())
    no_version_after_latest(r"2, 3, .*, 19, 20")


def test_online_10s_filler_keeps_its_weights_under_framed_out():
    """Every task's filler file is the one pinned; online-10's is versions 18-19's network, the
    same weights, under the layer their file records with ``framed_out`` joined to its
    ``defer``; versions 18 and 19 play their own file (`pins.RETIRED`: filler/v19/)."""
    check_filler_files(TASKS_V20, {})
    old = shipped.SHIPPED / FILLER_V19["online-10"]
    for version in (18, 19):
        assert pins.shipped_file(get_task("online-10", version), "filler") == old
        assert pins.load_options(get_task("online-10", version), "filler") == {"file": old}
    task = TASKS_V20["online-10"]
    assert pins.load_options(task, "filler") == {} and pins.seated(task, "filler") == {}
    pytest.importorskip("torch")
    spec = GameSpec.make(task.variant, task.num_players, **task.play_knobs())
    before_defer = "team+unmarked+framed+impossible"
    now = load_policy("filler", spec, seed=1)
    assert isinstance(now, BeliefTalk) and now.defer == before_defer + "+framed_out"
    before = load_policy("filler", spec, seed=1, file=old)
    assert isinstance(before, BeliefTalk) and before.defer == before_defer
    a, b = same_weights_options(old, pins.shipped_file(task, "filler"))
    assert b == {**a, "defer": before_defer + "+framed_out"}
