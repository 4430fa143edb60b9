"""Benchmark tasks of versions 12 on, each the version before with some fillers' files
retrained or stamped (each version's `RETRAINED`, in its own test file): a pair of the version
before is played again only where such a filler plays in it, the shipped results say which
rows were reused, and the standard attacker still starts from tasks version 4's filler."""

from __future__ import annotations

import importlib

import pytest

from baselines import pins
from mafia_env.tasks import TASKS_BY_VERSION, get_task
from tests.benchmark.test_tasks_v5 import (
    check_attacker_from_version_4,
    check_one_retrained,
    check_results_reused,
)

VERSIONS = range(12, max(TASKS_BY_VERSION) + 1)


def retrained(version: int) -> tuple[str, ...]:
    """The tasks whose filler file `version` changed (its test file's `RETRAINED`)."""
    return importlib.import_module(f"tests.benchmark.test_tasks_v{version}").RETRAINED


NEW_FILLERS = [(v, name) for v in VERSIONS for name in retrained(v)]


@pytest.mark.parametrize(("version", "name"), NEW_FILLERS)
def test_pairs_with_a_new_filler_are_played_again(version, name):
    """`scripts/reference_table.py --reuse`: a pair of the version before is this version's
    unless the task's new filler plays in it, as the learner or the opponent."""
    earlier, later = TASKS_BY_VERSION[version - 1], TASKS_BY_VERSION[version]
    check_one_retrained(earlier, later, name, same="city-13")


@pytest.mark.parametrize("version", VERSIONS)
def test_results_are_the_pinned_tasks(version):
    """The shipped results of each version: every task, every pair, 500 games, the digests;
    only the pairs with a new filler were played again, the rest come from the version
    before."""
    check_results_reused(version, *retrained(version))


@pytest.mark.parametrize(("version", "name"), NEW_FILLERS)
def test_the_standard_attacker_still_starts_from_version_4s_filler(version, name):
    """`mafia exploit --start filler` starts from the filler file tasks version 4 pinned: a
    new file does not move the standard attacker."""
    old = pins.shipped_file(get_task(name, 4), "filler")
    check_attacker_from_version_4(TASKS_BY_VERSION[version], name, old)
