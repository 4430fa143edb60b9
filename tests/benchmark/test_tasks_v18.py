"""Benchmark tasks of version 18 (issue 45): online-10's seat-filler network trained two links on
from version 17's, under the layer version 17's file records (in a league of the rule, league
and PPO bots and the zoo's training styles; the second link with half its games at mixed
tables: `configs/filler/online-layer.yaml`); every other file and seat is version 17's, and so
are the other pairs."""

from __future__ import annotations

import pytest

import baselines.shipped as shipped
from baselines import pins
from baselines.belief_talk import BeliefTalk
from mafia_env.engine.spec import GameSpec
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, TASKS_V18, get_task
from tests.benchmark.test_benchmark import no_version_after_latest
from tests.benchmark.test_tasks_v5 import (
    FILLER_V17,
    FILLER_V18,
    check_filler_files,
    check_filler_retrained,
)

# Version 18: version 17's tables, seeds, games, opponents, seats and rules; online-10's filler
# file is another.
PINNED_V18 = {
    "sport-10": "15bed6cf61873b90",
    "city-13": "5b5daf2d3539b119",
    "club-10": "9ecdb39193e9832f",
    "online-10": "c4d4ab7278823af4",
    "forum-10": "e2a1d3bf08c70e8c",
    "minimal-10": "30b435346c42dcb1",
}
RETRAINED = ("online-10",)
NEW = {"online-10": "27ec9c9c3ac63b96"}


def test_version_18_definitions_are_pinned():
    assert LATEST >= 18 and TASKS_BY_VERSION[18] is TASKS_V18  # the latest: test_tasks_v19.py
    check_filler_retrained(18, PINNED_V18, RETRAINED, NEW)
    assert all(get_task(name, 18) is task for name, task in TASKS_V18.items())
    no_version_after_latest(r"2, 3, .*, 17, 18")


def test_online_10s_filler_is_trained_two_links_further_under_the_same_layer():
    """Online-10's file of version 18 is another network (two links more) under the layer
    version 17's file records, with the same input; version 17 keeps its file (`pins.RETIRED`:
    filler/v17/)."""
    torch = pytest.importorskip("torch")
    check_filler_files(TASKS_V18, FILLER_V18)  # (sport-10's: retired for 19)
    old = shipped.SHIPPED / FILLER_V17["online-10"]
    assert pins.shipped_file(get_task("online-10", 17), "filler") == old
    assert pins.load_options(get_task("online-10", 17), "filler") == {"file": old}
    task = TASKS_V18["online-10"]
    mine = shipped.SHIPPED / FILLER_V18["online-10"]  # (versions 18-19's: retired for 20)
    assert pins.load_options(task, "filler") == {"file": mine}
    assert pins.seated(task, "filler") == {}
    spec = GameSpec.make(task.variant, task.num_players, **task.play_knobs())
    now = load_policy("filler", spec, seed=1, file=mine)
    assert isinstance(now, BeliefTalk) and now.defer == "team+unmarked+framed+impossible"
    a, b = (torch.load(p, map_location="cpu", weights_only=False)
            for p in (old, pins.shipped_file(task, "filler")))  # fmt: skip
    assert b["layer"] == a["layer"] and a["model"].keys() == b["model"].keys()
    assert (a["obs_signature"], a["obs_size"]) == (b["obs_signature"], b["obs_size"])
    assert not all(torch.equal(a["model"][w], b["model"][w]) for w in a["model"])
