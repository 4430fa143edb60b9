"""Benchmark tasks of version 10 (issue 45): club-10's seat-filler network of versions 6-9
stamped with the talk layer's ``mates`` (a mafia seat beside teammates who are not its copies
plays as the rule bots); every other file and seat is version 9's, and so are the other
pairs."""

from __future__ import annotations

import hashlib

import pytest

import baselines.shipped as shipped
from baselines import pins
from baselines.belief_talk import BeliefTalk
from baselines.pins import PINS_V9
from mafia_env.engine.spec import GameSpec
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, TASKS_V9, TASKS_V10, get_task
from tests.benchmark.test_benchmark import no_version_after_latest
from tests.benchmark.test_tasks_v5 import (
    FILLER_V10,
    check_attacker_from_version_4,
    check_filler_files,
    check_filler_retrained,
    check_one_retrained,
    check_results_reused,
)

# Version 10: version 9's tables, seeds, games, opponents, seats and rules; club-10's filler
# file is another.
PINNED_V10 = {
    "sport-10": "b2ba913005684ada",
    "city-13": "02d515025531a1e3",
    "club-10": "c4348cbee033d702",
    "online-10": "7c6be694575770b9",
    "forum-10": "7fc1734db57ca7e4",
    "minimal-10": "45ab9deea4de651c",
}
RETRAINED = ("club-10",)
OLD = {"club-10": shipped.SHIPPED / "filler/v9/club.pt"}  # versions 6-9's file
NEW = {"club-10": "e7886588811b603e"}
STAMPED = {"club-10": shipped.SHIPPED / "filler/v10/club.pt"}  # version 10's (retired for 11)


def test_version_10_definitions_are_pinned():
    assert LATEST >= 10 and TASKS_BY_VERSION[10] is TASKS_V10  # the latest: test_tasks_v11.py
    check_filler_retrained(10, PINNED_V10, RETRAINED, NEW)
    assert all(get_task(name, 10) is task for name, task in TASKS_V10.items())
    no_version_after_latest(r"2, 3, .*, 9, 10")


def test_the_filler_pins_are_the_shipped_files_and_the_stamped_ones_keep_their_weights():
    """Every task's filler file is the one pinned; club-10's is version 9's network, the same
    weights, under the layer its run trained with and ``mates``, as its file records; versions
    6-9 play the file they pinned (`pins.RETIRED`: filler/v9/), without it."""
    check_filler_files(TASKS_V10, FILLER_V10)  # (club-10's and forum-10's stamped for 11)
    for t, old in OLD.items():
        for version in range(6, 10):
            assert pins.shipped_file(get_task(t, version), "filler") == old
            assert pins.load_options(get_task(t, version), "filler")["file"] == old
        assert hashlib.sha256(old.read_bytes()).hexdigest()[:16] == PINS_V9[t]["filler"]
    torch = pytest.importorskip("torch")
    for t in RETRAINED:
        task = TASKS_V10[t]
        spec = GameSpec.make(task.variant, task.num_players, **task.play_knobs())
        opts = pins.load_options(task, "filler")
        assert opts == {"file": STAMPED[t]}
        now = load_policy("filler", spec, seed=1, **opts)
        assert isinstance(now, BeliefTalk) and now.mates and now.defer is None
        before = load_policy("filler", spec, seed=1, **pins.load_options(get_task(t, 9), "filler"))
        assert isinstance(before, BeliefTalk) and not before.mates
        a, b = (torch.load(p, map_location="cpu", weights_only=False)
                for p in (OLD[t], STAMPED[t]))  # fmt: skip
        assert a["model"].keys() == b["model"].keys()
        assert all(torch.equal(a["model"][w], b["model"][w]) for w in a["model"])
        assert b["layer"]["options"] == {**a["layer"]["options"], "mates": True}


@pytest.mark.parametrize("name", RETRAINED)
def test_pairs_with_a_new_filler_are_played_again(name):
    """`scripts/reference_table.py --reuse`: a pair of version 9 is version 10's unless
    club-10's stamped filler plays in it, as the learner or the opponent."""
    check_one_retrained(TASKS_V9, TASKS_V10, name, same="sport-10")


def test_results_v10_are_the_pinned_tasks():
    """The shipped results of version 10: every task, every pair, 500 games, the digests; only
    the pairs with club-10's filler were played again, the rest come from version 9."""
    check_results_reused(10, *RETRAINED)


def test_the_standard_attacker_still_starts_from_version_4s_filler():
    """`mafia exploit --start filler` starts from the filler file tasks version 4 pinned: the
    new files do not move the standard attacker."""
    for t in RETRAINED:
        check_attacker_from_version_4(TASKS_V10, t, pins.shipped_file(get_task(t, 4), "filler"))
