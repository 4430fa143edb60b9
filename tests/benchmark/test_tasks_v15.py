"""Benchmark tasks of version 15 (issue 45): sport-10's and online-10's seat-filler networks of
version 14 stamped with the talk layer's ``mafia_push`` (a mafia seat's speech after day 1 that
would end nominates the town player the table suspects most, where he is a suspect), and
sport-10's with ``mafia_silent`` for ``mafia_quiet``, without ``mates`` (its mafia vouch on no
day); every other file and seat is version 14's, and so are the other pairs."""

from __future__ import annotations

import pytest

import baselines.shipped as shipped
from baselines import pins
from baselines.belief_talk import BeliefTalk
from mafia_env.engine.spec import GameSpec
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, TASKS_V14, TASKS_V15, get_task
from tests.benchmark.test_benchmark import no_version_after_latest
from tests.benchmark.test_tasks_v5 import (
    FILLER_V14,
    FILLER_V15,
    check_filler_files,
    check_filler_retrained,
    same_weights_options,
)

# Version 15: version 14's tables, seeds, games, opponents, seats and rules; sport-10's and
# online-10's filler files are others.
PINNED_V15 = {
    "sport-10": "b4dc4a9686a3b768",
    "city-13": "3e30f5a4dd720ed2",
    "club-10": "e28732cae11918a5",
    "online-10": "445ae1660057955e",
    "forum-10": "0bbf6504e9749270",
    "minimal-10": "dc4b77e21062d90c",
}
RETRAINED = ("sport-10", "online-10")  # the same networks, other options
NEW = {"sport-10": "232a5dde3052fed3", "online-10": "5d355b6795bb00d9"}
# what each file's layer record gains and loses against version 14's
GAINS = {
    "sport-10": {"mafia_silent": True, "mafia_push": True},
    "online-10": {"mafia_push": True},
}
LOSES = {"sport-10": ("mates", "mates_nominate", "mafia_quiet"), "online-10": ()}


def test_version_15_definitions_are_pinned():
    assert LATEST >= 15 and TASKS_BY_VERSION[15] is TASKS_V15  # the latest: test_tasks_v16.py
    check_filler_retrained(15, PINNED_V15, RETRAINED, NEW)
    assert all(get_task(name, 15) is task for name, task in TASKS_V15.items())
    no_version_after_latest(r"2, 3, .*, 14, 15")


@pytest.mark.parametrize("name", RETRAINED)
def test_the_filler_pins_are_the_shipped_files_and_the_stamped_ones_keep_their_weights(name):
    """Every task's filler file is the one pinned; sport-10's and online-10's are version 14's
    networks, the same weights, under the layer their files record with `GAINS` and without
    `LOSES`; version 14 plays its own file (`pins.RETIRED`: filler/v14/)."""
    check_filler_files(TASKS_V15, FILLER_V15)  # (online-10's: 16)
    old = shipped.SHIPPED / FILLER_V14[name]
    assert pins.shipped_file(get_task(name, 14), "filler") == old
    assert pins.load_options(get_task(name, 14), "filler")["file"] == old
    task = TASKS_V15[name]
    mine = pins.load_options(task, "filler")  # (online-10's file retired for 16: filler/v15/)
    assert mine == ({"file": shipped.SHIPPED / FILLER_V15[name]} if name in FILLER_V15 else {})
    assert pins.seated(task, "filler") == pins.seated(TASKS_V14[name], "filler")
    pytest.importorskip("torch")
    spec = GameSpec.make(task.variant, task.num_players, **task.play_knobs())
    now = load_policy("filler", spec, seed=1, **mine)
    assert isinstance(now, BeliefTalk) and now.mafia_push
    assert now.mafia_silent == (name == "sport-10") and not now.mates
    before = load_policy("filler", spec, seed=1, file=old)
    assert isinstance(before, BeliefTalk) and not before.mafia_push and not before.mafia_silent
    a, b = same_weights_options(old, pins.shipped_file(task, "filler"))
    kept = {k: v for k, v in a.items() if k not in LOSES[name]}
    assert b == {**kept, **GAINS[name]}
