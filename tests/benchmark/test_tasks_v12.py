"""Benchmark tasks of version 12 (issue 45): forum-10's seat-filler network of versions 7-11
and sport-10's of versions 6-11 stamped with the talk layer's ``mates`` and ``mates_nominate``
as well (a mafia seat beside teammates who are not its copies plays as the rule bots), and
online-10's of versions 9-11 with ``defer="team"`` (a town seat plays as the rule bots where
three or more seats claim the sheriff), and club-10's of versions 6-11 trained one link
further under the same layer; every other file and seat is version 11's, and so are the other
pairs."""

from __future__ import annotations

import pytest

import baselines.shipped as shipped
from baselines import pins
from baselines.belief_talk import BeliefTalk
from mafia_env.engine.spec import GameSpec
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, TASKS_V12, get_task
from tests.benchmark.test_benchmark import no_version_after_latest
from tests.benchmark.test_tasks_v5 import (
    FILLER_V12,
    check_filler_files,
    check_filler_retrained,
)

# Version 12: version 11's tables, seeds, games, opponents, seats and rules; sport-10's,
# club-10's, online-10's and forum-10's filler files are others.
PINNED_V12 = {
    "sport-10": "6e107ca3afa6b99f",
    "city-13": "e64aae184933d4fc",
    "club-10": "01f69dc5c6de6c7b",
    "online-10": "60548b988835dc33",
    "forum-10": "86b818bf321f4c49",
    "minimal-10": "221d5625b24155ee",
}
STAMPED = ("sport-10", "online-10", "forum-10")  # the same networks, more options
RETRAINED = (*STAMPED, "club-10")  # (club-10's: one link further)
# version 11's files, retired for 12 (sport-10's: versions 6-11's, online-10's: 9-11's)
OLD = {t: shipped.SHIPPED / f"filler/v11/{t.split('-')[0]}.pt" for t in RETRAINED}
NEW = {
    "sport-10": "ad5c1a4bfb929569",
    "club-10": "18db6bcdcbee97c9",
    "online-10": "c60fe3a78a3b7ec6",
    "forum-10": "513f99b96c15b20e",
}
FIRST = {"sport-10": 6, "online-10": 9, "forum-10": 11}  # the first version playing the old
SEATED = {"sport-10": {}, "online-10": {}, "forum-10": {"maniac": "rule"}}
MATES = {"mates": True, "mates_nominate": True}
# the options each new file adds to the layer its old file records
ADDED = {"sport-10": MATES, "online-10": {"defer": "team"}, "forum-10": MATES}
DEFER = {"sport-10": None, "online-10": "team", "forum-10": "unvouched"}


def test_version_12_definitions_are_pinned():
    assert LATEST >= 12 and TASKS_BY_VERSION[12] is TASKS_V12  # the latest: test_tasks_v13.py
    check_filler_retrained(12, PINNED_V12, RETRAINED, NEW)
    assert all(get_task(name, 12) is task for name, task in TASKS_V12.items())
    no_version_after_latest(r"2, 3, .*, 12, 13")


def test_the_filler_pins_are_the_shipped_files_and_the_stamped_ones_keep_their_weights():
    """Every task's filler file is the one pinned; sport-10's, online-10's and forum-10's are
    version 11's networks, the same weights, under the layer version 11's files record and the
    options of `ADDED`; the versions before play the files they pinned (`pins.RETIRED`:
    filler/v11/), and forum-10's maniac's seat stays the rule bots'."""
    check_filler_files(TASKS_V12, FILLER_V12)  # (online-10's stamped again for 13)
    torch = pytest.importorskip("torch")
    for t in STAMPED:
        old = OLD[t]
        for version in range(FIRST[t], 12):
            assert pins.shipped_file(get_task(t, version), "filler") == old
            assert pins.load_options(get_task(t, version), "filler")["file"] == old
        task = TASKS_V12[t]
        spec = GameSpec.make(task.variant, task.num_players, **task.play_knobs())
        opts = pins.load_options(task, "filler")
        # (a retired file, `FILLER_V12`, loads with the version's own seats: forum-10's maniac)
        expect = {"file": shipped.SHIPPED / FILLER_V12[t]} if t in FILLER_V12 else {}
        assert {k: v for k, v in opts.items() if k != "sides"} == expect
        assert opts.get("sides", SEATED[t]) == SEATED[t]
        assert pins.seated(task, "filler") == SEATED[t]
        now = load_policy("filler", spec, seed=1, **opts)
        now = getattr(now, "default", now)  # (forum-10's maniac's seat: the rule bots)
        assert isinstance(now, BeliefTalk) and now.defer == DEFER[t]
        assert now.mates == now.mates_nominate == (ADDED[t] is MATES)
        before = load_policy("filler", spec, seed=1, **pins.load_options(get_task(t, 11), "filler"))
        before = getattr(before, "default", before)
        assert isinstance(before, BeliefTalk) and not before.mates and not before.mates_nominate
        assert before.defer == ("unvouched" if t == "forum-10" else None)
        a, b = (torch.load(p, map_location="cpu", weights_only=False)
                for p in (old, pins.shipped_file(task, "filler")))  # fmt: skip
        assert a["model"].keys() == b["model"].keys()
        assert all(torch.equal(a["model"][w], b["model"][w]) for w in a["model"])
        assert b["layer"]["options"] == {**a["layer"]["options"], **ADDED[t]}


def test_club_10s_filler_is_trained_one_link_further_under_the_same_layer():
    """Club-10's file of version 12 is another network (one link more) under the layer
    version 11's file records (`mates`, ``defer="silent"``); version 11 keeps its file."""
    torch = pytest.importorskip("torch")
    task, old = TASKS_V12["club-10"], OLD["club-10"]
    assert pins.shipped_file(get_task("club-10", 11), "filler") == old
    assert pins.load_options(get_task("club-10", 11), "filler") == {"file": old}
    assert pins.shipped_file(get_task("club-10", 10), "filler").parent.name == "v10"
    spec = GameSpec.make(task.variant, task.num_players, **task.play_knobs())
    now = load_policy("filler", spec, seed=1, **pins.load_options(task, "filler"))
    assert isinstance(now, BeliefTalk) and now.mates and now.defer == "silent"
    a, b = (torch.load(p, map_location="cpu", weights_only=False)
            for p in (old, pins.shipped_file(task, "filler")))  # fmt: skip
    assert b["layer"] == a["layer"] and a["model"].keys() == b["model"].keys()
    assert not all(torch.equal(a["model"][w], b["model"][w]) for w in a["model"])
