"""Fixtures shared by several test files, and the suite's conventions.

How long a test may play (`make test` runs everything, on both cores, in under 8 minutes):

- A test that plays many games takes its count from the `games` fixture:
  ``for seed in range(games(50, 1000))``. The first number is the default run's (a few games
  per variant, table size or seating: enough that every branch the test checks is reached);
  the second is the long run's, `pytest --long` (or ``MAFIA_LONG=1``; `make test-long`),
  for a change of the rules or the engine.
- A test that still takes more than about 2 s at its default count is marked
  `@pytest.mark.slow`. Slow tests run in `make test` too; `pytest -m "not slow"` leaves
  them out for a quick loop while editing.
- A test that plays the long version of what a shorter test checks (thousands of points where
  the short one takes a few, thirty iterations where it takes five) is `@pytest.mark.long`:
  only the long run plays it. The short test stays in `make test`.
- A measurement (a win rate, a speed, a rating) is a script under `scripts/`, not a test.
- Tests run in parallel (pytest-xdist, `-n 2`): each gets its own `tmp_path`, binds port
  0, and writes nothing in the repository. Tests that must not share the machine with each
  other (a Ray cluster) carry `@pytest.mark.xdist_group("ray")`: one worker runs them in turn.
  A test that times something (a server's latency) is `@pytest.mark.serial`: `make test`
  runs it alone, after the parallel run.
- A test that needs an extra (torch, the table, Ray, OpenSpiel...) skips without it
  (`pytest.importorskip`): `make test` also runs the suite in `.venv-core`, which has only
  the core dependencies at their newest versions.
"""

from __future__ import annotations

import os
from collections.abc import Callable

# One thread per test process: xdist runs a worker per core, and torch's own thread pool on
# top of that (a tiny network's every `linear` call a rendezvous of two threads sharing one
# core) made the torch tests two to three times slower. Set before any test imports torch.
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import pytest  # noqa: E402


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--long",
        action="store_true",
        help="play the long count of the `games` fixture (MAFIA_LONG=1 does the same)",
    )


def long_run(config: pytest.Config) -> bool:
    """Return whether this run plays the long counts."""
    return bool(config.getoption("--long")) or os.environ.get("MAFIA_LONG", "") not in ("", "0")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the `long` tests outside the long run (make test-long plays them)."""
    if long_run(config):
        return
    skip = pytest.mark.skip(reason="a long check: make test-long (pytest --long) plays it")
    for item in items:
        if item.get_closest_marker("long") is not None:
            item.add_marker(skip)


@pytest.fixture()
def games(request: pytest.FixtureRequest) -> Callable[[int, int], int]:
    """Return `pick(default, long)`: the number of games this run plays."""
    long = long_run(request.config)

    def pick(default: int, long_count: int) -> int:
        return long_count if long else default

    return pick


@pytest.fixture()
def league_dir(tmp_path, monkeypatch):
    """A league folder holding a small untrained SPORT-10 file, and none for other variants;
    no filler file anywhere (so the table's default bot gives way to the league bot). Like
    the shipped files, it reads the observations of the rules before issue 47's reading (era
    3), and today's through its column map."""
    pytest.importorskip("torch")
    import baselines.shipped as shipped
    from baselines.ppo import make_agent, make_config, save_checkpoint
    from mafia_env.engine.eras import earlier_rules
    from mafia_env.vector import VectorMafia

    cfg = make_config({"variant": "sport", "hidden_size": 16, "run_dir": str(tmp_path)})
    vec = VectorMafia("sport", 1, seed=0, **earlier_rules("sport", 3))
    folder = tmp_path / "league"
    save_checkpoint(folder / "sport.pt", make_agent(cfg, vec.obs_size, vec.action_size), cfg, vec)
    monkeypatch.setitem(shipped.SHIPPED_FOLDERS, "league", folder)
    monkeypatch.setitem(shipped.SHIPPED_FOLDERS, "filler", tmp_path / "no-filler")
    return folder
