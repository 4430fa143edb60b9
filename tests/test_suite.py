"""The suite's own conventions hold in the run that `make test` makes (tests/conftest.py)."""

from __future__ import annotations

import os

import pytest


@pytest.mark.xdist_group("suite")
def test_an_xdist_group_reaches_the_scheduler(request):
    """Under `--dist loadgroup` a test of an `xdist_group` carries its group to xdist's
    scheduler (its node id ends in `@group`), which runs the group on one worker: the Ray
    tests must not share the machine. pytest 9.2.0 with pytest-xdist 3.8.0 lost the group
    without a word (pytest-xdist issue 1386; pyproject pins pytest below 9.2)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        pytest.skip("not an xdist worker")  # (only a worker's config has `loadgroup`)
    if not request.config.getvalue("loadgroup"):
        pytest.skip("not a --dist loadgroup run")
    assert request.node.nodeid.endswith("@suite"), request.node.nodeid
