"""Benchmark tasks of version 8 (issue 45): minimal-10's seat-filler trained against the zoo of
styles (it shoots its team's agreed target, under the layer its file records); every other
file and seat is version 7's, and so are the other pairs."""

from __future__ import annotations

import hashlib

import pytest

import baselines.shipped as shipped
from baselines import pins
from baselines.belief_talk import BeliefTalk
from baselines.pins import PINS_V7, PINS_V8
from mafia_env.engine.spec import GameSpec
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, TASKS_V7, TASKS_V8, get_task
from tests.benchmark.test_benchmark import no_version_after_latest
from tests.benchmark.test_tasks_v5 import (
    FILLER_V8,
    check_attacker_from_version_4,
    check_filler_files,
    check_one_retrained,
    check_results_reused,
    same_definition,
)

# Version 8: version 7's tables, seeds, games, opponents, seats and rules; minimal-10's filler
# file is another.
PINNED_V8 = {
    "sport-10": "a0890c82ead159af",
    "city-13": "f0ff053d684903ce",
    "club-10": "9dbeb5d28798092b",
    "online-10": "bc97011b72bfa1bd",
    "forum-10": "053e25af1e6e7c95",
    "minimal-10": "ab50dd145f042887",
}
OLD = shipped.SHIPPED / "filler/v7/minimal.pt"  # versions 4-7's minimal-10 filler


def test_version_8_definitions_are_pinned():
    assert LATEST >= 8 and TASKS_BY_VERSION[8] is TASKS_V8  # the latest: test_tasks_v9.py
    assert {name: pins.digest(task) for name, task in TASKS_V8.items()} == PINNED_V8
    assert list(TASKS_V8) == list(TASKS_V7)
    assert {**PINS_V8, "minimal-10": PINS_V7["minimal-10"]} == PINS_V7
    assert PINS_V8["minimal-10"] == {**PINS_V7["minimal-10"], "filler": "d0aade3a9f7b29e7"}
    for name, task in TASKS_V8.items():
        v7 = TASKS_V7[name]
        same_definition(task, v7, 8)
        for opp in pins.SHIPPED_OPPONENTS:
            retrained = name == "minimal-10" and opp == "filler"
            assert (pins.pin(task, opp) != pins.pin(v7, opp)) is retrained
            assert (pins.shipped_file(task, opp) != pins.shipped_file(v7, opp)) is retrained
            assert pins.seated(task, opp) == pins.seated(v7, opp)
        assert pins.digest(task) != pins.digest(v7)  # another version
        assert get_task(name, 8) is task
    no_version_after_latest(r"2, 3, .*, 7, 8")


def test_the_filler_pins_are_the_shipped_files_and_minimal_10s_agrees():
    """Every task's filler file is the one pinned; minimal-10's (retrained) reads the belief
    piece and plays under the talk layer's agreed shot alone, as its file records, and
    versions 4-7 play the file they pinned (`pins.RETIRED`: filler/v7/minimal.pt), the bare
    network."""
    check_filler_files(TASKS_V8, FILLER_V8)  # (city-13's and online-10's retired for 9)
    for version in (4, 5, 6, 7):
        assert pins.shipped_file(get_task("minimal-10", version), "filler") == OLD
        assert pins.load_options(get_task("minimal-10", version), "filler") == {"file": OLD}
    assert hashlib.sha256(OLD.read_bytes()).hexdigest()[:16] == PINS_V7["minimal-10"]["filler"]
    pytest.importorskip("torch")
    from baselines.ppo.checkpoint import PPOPolicy

    minimal = TASKS_V8["minimal-10"]
    spec = GameSpec.make("minimal", 10, **minimal.play_knobs())
    now = load_policy("filler", spec, seed=1)
    assert isinstance(now, BeliefTalk) and isinstance(now.inner, PPOPolicy)
    assert now.inner.obs_options == {"belief": "deduction"}
    assert now.agree and not (now.speech or now.nominate or now.vote)
    assert pins.load_options(minimal, "filler") == {}
    before = load_policy("filler", spec, seed=1, file=OLD)
    assert isinstance(before, PPOPolicy) and before.obs_options == {"belief": "deduction"}


def test_pairs_with_minimal_10s_filler_are_played_again():
    """`scripts/reference_table.py --reuse`: a pair of version 7 is version 8's unless
    minimal-10's filler plays in it, as the learner or the opponent."""
    check_one_retrained(TASKS_V7, TASKS_V8, "minimal-10")


def test_results_v8_are_the_pinned_tasks():
    """The shipped results of version 8: every task, every pair, 500 games, the digests; only
    the pairs with minimal-10's filler were played again, the rest come from version 7."""
    check_results_reused(8, "minimal-10")


def test_the_standard_attacker_still_starts_from_version_4s_filler():
    """`mafia exploit --start filler` starts from the filler file tasks version 4 pinned:
    minimal-10's retrained filler does not move the standard attacker."""
    check_attacker_from_version_4(TASKS_V8, "minimal-10", OLD)
