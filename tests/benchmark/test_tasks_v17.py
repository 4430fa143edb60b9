"""Benchmark tasks of version 17 (issue 45): sport-10's, club-10's and online-10's seat-filler
networks of version 16 stamped with ``impossible`` joined to their ``defer`` (a town seat plays
as the rule bots where another seat has claimed more checks than nights have passed: a sheriff's
check claimed on day 1 is a lie); every other file and seat is version 16's, and so are the
other pairs."""

from __future__ import annotations

import pytest

import baselines.shipped as shipped
from baselines import pins
from baselines.belief_talk import BeliefTalk
from mafia_env.engine.spec import GameSpec
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, TASKS_V17, get_task
from tests.benchmark.test_benchmark import no_version_after_latest
from tests.benchmark.test_tasks_v5 import (
    FILLER_V16,
    FILLER_V17,
    check_filler_files,
    check_filler_retrained,
    same_weights_options,
)

# Version 17: version 16's tables, seeds, games, opponents, seats and rules; sport-10's,
# club-10's and online-10's filler files are others.
PINNED_V17 = {
    "sport-10": "114e13513770708b",
    "city-13": "5b0287a606e40435",
    "club-10": "1f5e438299e5814f",
    "online-10": "8d21104a9710481e",
    "forum-10": "b3c939e48aa80e05",
    "minimal-10": "ff44f698a4e0a242",
}
RETRAINED = ("sport-10", "club-10", "online-10")  # the same networks, another option
NEW = {
    "sport-10": "a7f3b5d8f8965326",
    "club-10": "0bf2bc70de746e28",
    "online-10": "baa57a99382b8307",
}
# each file's ``defer`` before and now
DEFER = {
    "sport-10": (None, "impossible"),
    "club-10": ("silent", "silent+impossible"),
    "online-10": ("team+unmarked+framed", "team+unmarked+framed+impossible"),
}


def test_version_17_definitions_are_pinned():
    assert LATEST >= 17 and TASKS_BY_VERSION[17] is TASKS_V17  # the latest: test_tasks_v18.py
    check_filler_retrained(17, PINNED_V17, RETRAINED, NEW)
    assert all(get_task(name, 17) is task for name, task in TASKS_V17.items())
    no_version_after_latest(r"2, 3, .*, 16, 17")


@pytest.mark.parametrize("name", RETRAINED)
def test_the_filler_pins_are_the_shipped_files_and_the_stamped_ones_keep_their_weights(name):
    """Every task's filler file is the one pinned; the three stamped ones are version 16's
    networks, the same weights, under the layer version 16's files record with ``impossible``
    joined to their ``defer``; version 16 plays its own files (`pins.RETIRED`: filler/v16/),
    and version 17 online-10's (filler/v17/: retrained for 18)."""
    check_filler_files(TASKS_V17, FILLER_V17)
    old = shipped.SHIPPED / FILLER_V16[name]
    assert pins.shipped_file(get_task(name, 16), "filler") == old
    assert pins.load_options(get_task(name, 16), "filler") == {"file": old}
    task = TASKS_V17[name]
    mine = pins.load_options(task, "filler")
    assert mine == ({"file": shipped.SHIPPED / FILLER_V17[name]} if name in FILLER_V17 else {})
    assert pins.seated(task, "filler") == {}
    pytest.importorskip("torch")
    spec = GameSpec.make(task.variant, task.num_players, **task.play_knobs())
    before, after = DEFER[name]
    now = load_policy("filler", spec, seed=1, **mine)
    assert isinstance(now, BeliefTalk) and now.defer == after
    then = load_policy("filler", spec, seed=1, file=old)
    assert isinstance(then, BeliefTalk) and then.defer == before
    a, b = same_weights_options(old, pins.shipped_file(task, "filler"))
    assert b == {**a, "defer": after}
