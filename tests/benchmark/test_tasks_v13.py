"""Benchmark tasks of version 13 (issue 45): online-10's seat-filler network of versions 9-12
stamped with the talk layer's ``mark`` and ``mark_civilian`` as well, and ``defer="team+
unmarked"`` where version 12's file had ``defer="team"`` (a town seat's empty day-1 speech
claims the civilian's role, a mark its copies read; a town seat beside too few marked seats
plays as the rule bots); every other file and seat is version 12's, and so are the other
pairs."""

from __future__ import annotations

import pytest

import baselines.shipped as shipped
from baselines import pins
from baselines.belief_talk import BeliefTalk
from mafia_env.engine.spec import GameSpec
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, TASKS_V13, get_task
from tests.benchmark.test_benchmark import no_version_after_latest
from tests.benchmark.test_tasks_v5 import (
    FILLER_V12,
    FILLER_V13,
    check_filler_files,
    check_filler_retrained,
    same_weights_options,
)

# Version 13: version 12's tables, seeds, games, opponents, seats and rules; online-10's
# filler file is another.
PINNED_V13 = {
    "sport-10": "e8f528eb219eb306",
    "city-13": "b129dd1706ea0131",
    "club-10": "00e44a21bc7a10a4",
    "online-10": "0c7d0cade61617d9",
    "forum-10": "3b234b20121aee75",
    "minimal-10": "ab433d2f67ce2918",
}
RETRAINED = ("online-10",)  # the same network, other options
NEW = {"online-10": "f60cf7a2796e4974"}
OLD = shipped.SHIPPED / FILLER_V12["online-10"]  # version 12's file, retired for 13
MARK = {"mark": True, "mark_civilian": True, "defer": "team+unmarked"}


def test_version_13_definitions_are_pinned():
    assert LATEST >= 13 and TASKS_BY_VERSION[13] is TASKS_V13  # the latest: test_tasks_v14.py
    check_filler_retrained(13, PINNED_V13, RETRAINED, NEW)
    assert all(get_task(name, 13) is task for name, task in TASKS_V13.items())
    no_version_after_latest(r"2, 3, .*, 13, 14")


def test_the_filler_pins_are_the_shipped_files_and_online_10s_keeps_its_weights():
    """Every task's filler file is the one pinned; online-10's is version 12's network, the
    same weights, under the layer version 12's file records with `MARK`'s options; version 12
    plays its own file (`pins.RETIRED`: filler/v12/)."""
    check_filler_files(TASKS_V13, FILLER_V13)  # (sport-10's, club-10's, forum-10's: 14; online: 15)
    task = TASKS_V13["online-10"]
    assert pins.shipped_file(get_task("online-10", 12), "filler") == OLD
    assert pins.load_options(get_task("online-10", 12), "filler") == {"file": OLD}
    mine = pins.load_options(task, "filler")  # (its file retired for 15: filler/v14/)
    assert mine == {"file": shipped.SHIPPED / FILLER_V13["online-10"]}
    assert pins.seated(task, "filler") == {}
    pytest.importorskip("torch")
    spec = GameSpec.make(task.variant, task.num_players, **task.play_knobs())
    now = load_policy("filler", spec, seed=1, **mine)
    assert isinstance(now, BeliefTalk) and now.mark and now.mark_civilian
    assert now.defer == "team+unmarked"
    before = load_policy("filler", spec, seed=1, file=OLD)
    assert isinstance(before, BeliefTalk) and not before.mark and before.defer == "team"
    a, b = same_weights_options(OLD, pins.shipped_file(task, "filler"))
    assert b == {**a, **MARK}
