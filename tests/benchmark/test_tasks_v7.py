"""Benchmark tasks of version 7 (issue 45): forum-10's seat-filler retrained (it talks, under the
layer its file records) and its maniac's seat held by the rule bots; every other file and seat
is version 6's, and so are the other pairs."""

from __future__ import annotations

import hashlib

import pytest

import baselines.shipped as shipped
from baselines import pins
from baselines.belief_talk import BeliefTalk
from baselines.filler import BySide
from baselines.pins import PINS_V6, PINS_V7
from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.engine.spec import GameSpec
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, TASKS_V6, TASKS_V7, get_task
from tests.benchmark.test_benchmark import no_version_after_latest
from tests.benchmark.test_tasks_v5 import (
    FILLER_V7,
    check_attacker_from_version_4,
    check_filler_files,
    check_one_retrained,
    check_results_reused,
    same_definition,
)

# Version 7: version 6's tables, seeds, games, opponents and rules; forum-10's filler file is
# another, and seats the rule bots on the maniac's side (`pins.SEATED_V7`).
PINNED_V7 = {
    "sport-10": "a9cdc908c2c3e9f3",
    "city-13": "ef17ad1718cba5d8",
    "club-10": "f414c7abcd948e76",
    "online-10": "56a54b26736212fa",
    "forum-10": "2be95d4143e4dd52",
    "minimal-10": "ea82293cdafc7208",
}


def test_version_7_definitions_are_pinned():
    assert LATEST >= 7 and TASKS_BY_VERSION[7] is TASKS_V7  # the latest: test_tasks_v8.py
    assert {name: pins.digest(task) for name, task in TASKS_V7.items()} == PINNED_V7
    assert list(TASKS_V7) == list(TASKS_V6)
    assert {**PINS_V7, "forum-10": PINS_V6["forum-10"]} == PINS_V6
    assert PINS_V7["forum-10"] == {**PINS_V6["forum-10"], "filler": "23b13a657c147ed7"}
    for name, task in TASKS_V7.items():
        v6 = TASKS_V6[name]
        same_definition(task, v6, 7)
        for opp in pins.SHIPPED_OPPONENTS:
            retrained = name == "forum-10" and opp == "filler"
            assert (pins.pin(task, opp) != pins.pin(v6, opp)) is retrained
            assert (pins.shipped_file(task, opp) != pins.shipped_file(v6, opp)) is retrained
            assert (pins.seated(task, opp) != pins.seated(v6, opp)) is retrained
        assert pins.digest(task) != pins.digest(v6)  # another version
        assert get_task(name, 7) is task
    assert pins.seated(TASKS_V7["forum-10"], "filler") == {"maniac": "rule"}
    assert pins.seated(TASKS_V6["forum-10"], "filler") == {}
    no_version_after_latest(r"2, 3, 4, 5, 6, 7")


def test_the_filler_pins_are_the_shipped_files_and_forum_10s_talks():
    """Every task's filler file is the one pinned; forum-10's (retrained) plays under the talk
    layer its file records, its maniac's rows by the rule bots, and version 6's task plays the
    file it pinned (`pins.RETIRED`: filler/v6/forum.pt), the network on every side. Versions
    7-10's file is retired since version 11 (filler/v10/forum.pt, stamped for 11): version 7
    plays it, with the rule bots on the maniac's seat as version 7 seats them."""
    check_filler_files(TASKS_V7, FILLER_V7)  # (minimal-10's, city-13's, online-10's retired)
    old = shipped.SHIPPED / "filler/v6/forum.pt"
    for version in (4, 5, 6):
        assert pins.shipped_file(get_task("forum-10", version), "filler") == old
    assert hashlib.sha256(old.read_bytes()).hexdigest()[:16] == PINS_V6["forum-10"]["filler"]
    pytest.importorskip("torch")
    from baselines.ppo.checkpoint import PPOPolicy

    forum = TASKS_V7["forum-10"]
    spec = GameSpec.make("forum", 10, **forum.play_knobs())
    mine = pins.load_options(forum, "filler")
    assert mine == {"file": shipped.SHIPPED / "filler/v10/forum.pt", "sides": {"maniac": "rule"}}
    now = load_policy("filler", spec, seed=1, **mine)
    town, mafia, maniac = (TEAM_NAMES.index(t) for t in ("town", "mafia", "maniac"))
    assert isinstance(now, BySide) and isinstance(now.default, BeliefTalk)
    assert isinstance(now.default.inner, PPOPolicy) and not now.default.inner.obs_options
    assert type(now.policies[maniac]).__name__ == "RulePolicy"
    assert now.policies[town] is now.default and now.policies[mafia] is now.default
    opts = pins.load_options(TASKS_V6["forum-10"], "filler")
    assert opts == {"file": old}
    before = load_policy("filler", spec, seed=1, **opts)
    assert isinstance(before, PPOPolicy)


def test_pairs_with_forum_10s_filler_are_played_again():
    """`scripts/reference_table.py --reuse`: a pair of version 6 is version 7's unless
    forum-10's filler plays in it, as the learner or the opponent."""
    check_one_retrained(TASKS_V6, TASKS_V7, "forum-10")


def test_results_v7_are_the_pinned_tasks():
    """The shipped results of version 7: every task, every pair, 500 games, the digests; only
    the pairs with forum-10's filler were played again, the rest come from version 6."""
    check_results_reused(7, "forum-10")


def test_the_standard_attacker_still_starts_from_version_4s_filler():
    """`mafia exploit --start filler` starts from the filler file tasks version 4 pinned:
    forum-10's retrained filler does not move the standard attacker."""
    check_attacker_from_version_4(TASKS_V7, "forum-10", shipped.SHIPPED / "filler/v6/forum.pt")
