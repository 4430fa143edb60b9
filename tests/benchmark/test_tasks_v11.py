"""Benchmark tasks of version 11 (issue 45): club-10's seat-filler network of versions 6-10
stamped with the talk layer's ``defer="silent"`` and forum-10's of versions 7-10 with
``defer="unvouched"`` (a town seat beside teammates who are not its copies plays as the rule
bots); every other file and seat is version 10's, and so are the other pairs."""

from __future__ import annotations

import pytest

import baselines.shipped as shipped
from baselines import pins
from baselines.belief_talk import BeliefTalk
from mafia_env.engine.spec import GameSpec
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, TASKS_V10, TASKS_V11, get_task
from tests.benchmark.test_benchmark import no_version_after_latest
from tests.benchmark.test_tasks_v5 import (
    FILLER_V11,
    check_attacker_from_version_4,
    check_filler_files,
    check_filler_retrained,
    check_one_retrained,
    check_results_reused,
)

# Version 11: version 10's tables, seeds, games, opponents, seats and rules; forum-10's and
# club-10's filler files are others.
PINNED_V11 = {
    "sport-10": "a22ae0d0fb4a730b",
    "city-13": "079b15e804cee1db",
    "club-10": "610f873f7a7332c4",
    "online-10": "7c2c0889161f11af",
    "forum-10": "d67fa973fbb9904c",
    "minimal-10": "b967660346ea564d",
}
RETRAINED = ("club-10", "forum-10")
# version 10's files, retired for 11 (forum-10's: versions 7-10's)
OLD = {t: shipped.SHIPPED / f"filler/v10/{t.split('-')[0]}.pt" for t in RETRAINED}
DEFER = {"club-10": "silent", "forum-10": "unvouched"}  # the option each file records
NEW = {"club-10": "e0f6351bd346da71", "forum-10": "b10a86c824f5ea7c"}
# version 11's files (forum-10's retired for 12)
STAMPED = {t: shipped.SHIPPED / FILLER_V11.get(t, f"filler/{t.split('-')[0]}.pt") for t in NEW}


def test_version_11_definitions_are_pinned():
    assert LATEST >= 11 and TASKS_BY_VERSION[11] is TASKS_V11  # the latest: test_tasks_v12.py
    check_filler_retrained(11, PINNED_V11, RETRAINED, NEW)
    assert all(get_task(name, 11) is task for name, task in TASKS_V11.items())
    no_version_after_latest(r"2, 3, .*, 10, 11")


def test_the_filler_pins_are_the_shipped_files_and_the_stamped_ones_keep_their_weights():
    """Every task's filler file is the one pinned; club-10's and forum-10's are version 10's
    networks, the same weights, under the layer version 10's file records and ``defer``
    (`DEFER`); version 10 plays the files it pinned (`pins.RETIRED`: filler/v10/),
    and so do versions 7-9 forum-10's."""
    check_filler_files(TASKS_V11, FILLER_V11)  # (forum-10's stamped again for 12)
    for t, old in OLD.items():
        for version in range(7 if t == "forum-10" else 10, 11):
            assert pins.shipped_file(get_task(t, version), "filler") == old
            assert pins.load_options(get_task(t, version), "filler")["file"] == old
    torch = pytest.importorskip("torch")
    for t in RETRAINED:
        task = TASKS_V11[t]
        spec = GameSpec.make(task.variant, task.num_players, **task.play_knobs())
        opts = pins.load_options(task, "filler")
        assert opts.get("file") == (STAMPED[t] if t in FILLER_V11 else None)
        now = load_policy("filler", spec, seed=1, **opts)
        now = getattr(now, "default", now)  # (forum-10's maniac: the rule bots, `pins.seated`)
        assert isinstance(now, BeliefTalk) and now.defer == DEFER[t]
        assert now.mates == (t == "club-10") and not now.mates_nominate
        before = load_policy("filler", spec, seed=1, **pins.load_options(get_task(t, 10), "filler"))
        before = getattr(before, "default", before)
        assert isinstance(before, BeliefTalk) and before.defer is None
        a, b = (torch.load(p, map_location="cpu", weights_only=False)
                for p in (OLD[t], STAMPED[t]))  # fmt: skip
        assert a["model"].keys() == b["model"].keys()
        assert all(torch.equal(a["model"][w], b["model"][w]) for w in a["model"])
        assert b["layer"]["options"] == {**a["layer"]["options"], "defer": DEFER[t]}


@pytest.mark.parametrize("name", RETRAINED)
def test_pairs_with_a_new_filler_are_played_again(name):
    """`scripts/reference_table.py --reuse`: a pair of version 10 is version 11's unless
    club-10's or forum-10's stamped filler plays in it, as the learner or the opponent."""
    check_one_retrained(TASKS_V10, TASKS_V11, name, same="sport-10")


def test_results_v11_are_the_pinned_tasks():
    """The shipped results of version 11: every task, every pair, 500 games, the digests; only
    the pairs with club-10's or forum-10's filler were played again, the rest come from
    version 10."""
    check_results_reused(11, *RETRAINED)


def test_the_standard_attacker_still_starts_from_version_4s_filler():
    """`mafia exploit --start filler` starts from the filler file tasks version 4 pinned: the
    new files do not move the standard attacker."""
    for t in RETRAINED:
        check_attacker_from_version_4(TASKS_V11, t, pins.shipped_file(get_task(t, 4), "filler"))
