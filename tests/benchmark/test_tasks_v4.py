"""Benchmark tasks of version 4 (issue 28 item 6): the seat-filler as a fifth, pinned opponent."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
from pathlib import Path

import pytest

import baselines.shipped as shipped
from baselines import pins
from baselines.benchmark import check_opponents, run_many, run_task
from baselines.pins import PINS_V3, PINS_V4
from mafia_env.engine.eras import reading_rules
from mafia_env.engine.rules import earlier_rules
from mafia_env.errors import ConfigError
from mafia_env.tasks import (
    LATEST,
    TASKS_BY_VERSION,
    TASKS_V3,
    TASKS_V4,
    get_task,
)
from tests.benchmark.test_benchmark import _script, no_version_after_latest

ROOT = Path(__file__).resolve().parents[2]

# Version 4: version 3's tables, seeds, games and rules (era 2, written into the knobs), and
# opponents rule, random, ppo, league and filler; the digests with their pins
# (`baselines.pins.digest`). A filler file retrained means new pins here.
PINNED_V4 = {
    "sport-10": "5d5027c20d6de78f",
    "city-13": "88febb8bc1d11643",
    "club-10": "fa8b5f031ae17146",
    "online-10": "4643baaec6c1cf84",
    "forum-10": "30054062c9fa6c53",
    "minimal-10": "4f9b37a6c09714e3",
}
FILES = {"sport-10": "sport", "city-13": "city-13", "club-10": "club", "online-10": "online",
         "forum-10": "forum", "minimal-10": "minimal"}  # fmt: skip


def test_version_4_definitions_are_pinned():
    assert LATEST >= 4 and TASKS_BY_VERSION[4] is TASKS_V4  # the latest: test_tasks_v5.py
    assert {name: pins.digest(task) for name, task in TASKS_V4.items()} == PINNED_V4
    assert list(TASKS_V4) == list(TASKS_V3)
    for name, task in TASKS_V4.items():
        v3 = TASKS_V3[name]
        assert task.version == 4
        assert task.opponents == ("rule", "random", "ppo", "league", "filler")
        same = ("variant", "num_players", "sides", "games", "seed")
        assert [getattr(task, f) for f in same] == [getattr(v3, f) for f in same]
        # version 3's rules (before issue 25), named in the definition itself (the second
        # reading's knobs; the third's earlier values come with the version: era 3)
        assert task.play_knobs() == v3.play_knobs() == earlier_rules(task.variant, 2)
        assert dict(task.knobs) == reading_rules(task.variant, 2)
        for opp in ("ppo", "league"):
            assert pins.pin(task, opp) == pins.pin(v3, opp) == PINS_V3[name][opp]
        assert pins.pin(task, "filler") == PINS_V4[name]["filler"]
        assert pins.pin(v3, "filler") == ""


def test_the_filler_pins_are_the_shipped_files():
    """Version 4's filler files stay shipped: sport-10's, retrained for version 5, under
    filler/v4/ (`pins.RETIRED`), club-10's, retrained for version 6, under filler/v5/ (the
    last version that pinned it), forum-10's, retrained for version 7, under filler/v6/,
    minimal-10's, retrained for version 8, under filler/v7/, city-13's and online-10's, others
    for version 9, under filler/v8/, the others where they were."""
    for name, task in TASKS_V4.items():
        path = pins.shipped_file(task, "filler")
        assert path.name == f"{FILES[name]}.pt"
        retired = {"sport-10": "v4", "club-10": "v5", "forum-10": "v6", "minimal-10": "v7",
                   "city-13": "v8", "online-10": "v8"}.get(name)  # fmt: skip
        assert path.parent.name == (retired or "filler")
        if not retired:
            assert path == shipped.shipped_checkpoint(task.variant, task.num_players, "filler")
        got = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        pin = pins.pin(task, "filler")
        assert got == pin, f"{path} is {got}, pinned {pin}"


def test_earlier_versions_stay_as_they_were():
    for name in TASKS_V4:
        assert get_task(name, 4) is TASKS_V4[name]
        assert get_task(name, 3) is TASKS_V3[name]
        assert get_task(name, 3).version == 3 and "filler" not in get_task(name, 3).opponents
        assert get_task(name, 2).opponents == ("rule", "random", "ppo")
    no_version_after_latest(r"2, 3, 4")


def test_version_4_loads_and_plays_against_the_filler():
    pytest.importorskip("torch")
    for task in TASKS_V4.values():
        check_opponents(task)  # every pinned file is the one on disk
    task = dataclasses.replace(TASKS_V4["minimal-10"], sides=("town",), opponents=("filler",))
    result = run_task(task, "random", games=2)
    assert result["version"] == 4 and result["standard"] is False
    assert [(r["side"], r["opponent"], r["games"]) for r in result["rows"]] == [
        ("town", "filler", 2)
    ]


def test_another_filler_file_is_refused_clearly(tmp_path, monkeypatch):
    """A filler file that is not the pinned one: the error names the file, both digests, and
    how to fix it (restore it, or a new version with the new pin)."""
    folder = tmp_path / "filler" / "v4"  # version 4's sport-10 filler (`pins.RETIRED`)
    folder.mkdir(parents=True)
    real = shipped.SHIPPED_FOLDERS["filler"]
    shutil.copy(real / "club.pt", folder / "sport.pt")  # a real checkpoint, the wrong one
    monkeypatch.setattr(pins, "SHIPPED", tmp_path)
    got = hashlib.sha256((folder / "sport.pt").read_bytes()).hexdigest()[:16]
    task = TASKS_V4["sport-10"]
    with pytest.raises(ConfigError) as e:
        check_opponents(task)
    text = str(e.value)
    assert f"defined with the 'filler' opponent {pins.pin(task, 'filler')}" in text
    assert f"{folder / 'sport.pt'} is {got}" in text
    assert "restore that file" in text and "sha256sum sport.pt" in text and "PINS_V4" in text
    with pytest.raises(ConfigError, match=r"'filler' opponent c4bd1a814f92d049"):
        run_many(["random"], [task], games=1)
    (folder / "sport.pt").unlink()
    with pytest.raises(ConfigError, match=r"sport.pt, which is not installed"):
        check_opponents(task)
    monkeypatch.setitem(PINS_V4, "sport-10", {"filler": ""})  # not pinned yet
    unpinned = dataclasses.replace(task, opponents=("filler",))
    with pytest.raises(ConfigError, match=r"no pin for its 'filler' opponent yet.*PINS_V4"):
        check_opponents(unpinned)


TINY = dataclasses.replace(
    TASKS_V3["minimal-10"], name="minimal-tiny", opponents=("random", "rule"), games=3, seed=5
)
TINY4 = dataclasses.replace(
    TINY,
    version=4,
    opponents=("random", "rule", "league"),
    knobs=tuple(sorted(earlier_rules("minimal", 2).items())),
)


def test_pairs_of_version_3_are_the_same_games_in_version_4(monkeypatch):
    """What results/v4 was built on: a pair is seeded by the task alone, so version 3's pairs
    against the opponents both have are version 4's, and reusing them gives the same rows."""
    script = _script()
    tasks = {(3, "minimal-tiny"): TINY, (4, "minimal-tiny"): TINY4}
    monkeypatch.setattr(script, "get_task", lambda name, version: tasks[version, name])
    assert script.same_games(TINY, TINY4, "rule") and script.same_games(TINY, TINY4, "random")
    assert not script.same_games(TINY, TINY4, "league")  # not an opponent of version 3
    assert not script.same_games(TINY, dataclasses.replace(TINY4, seed=6), "rule")
    assert not script.same_games(TINY, dataclasses.replace(TINY4, knobs=()), "rule")  # rules
    v3 = run_task(TINY, "random")
    known = script.reusable([v3], [TINY4])
    assert sorted(known) == [("random", "minimal-tiny", s, o)
                             for s in ("mafia", "town") for o in ("random", "rule")]  # fmt: skip
    assert all(row["from_version"] == 3 for row in known.values())
    only4 = dataclasses.replace(TINY4, opponents=("random", "rule"))
    (reused,) = run_many(["random"], [only4], known=known)
    played = run_task(only4, "random")
    assert [{k: v for k, v in r.items() if k != "from_version"} for r in reused["rows"]] == (
        played["rows"]
    )
    assert reused["headline"] == played["headline"] and reused["digest"] == pins.digest(only4)
    bad = {**v3, "digest": "0" * 16}
    with pytest.raises(ConfigError, match=r"has digest 0{16} .* do not reuse it"):
        script.reusable([bad], [TINY4])
    assert script.reusable([{**v3, "standard": False}], [TINY4]) == {}


def test_save_keeps_the_other_tasks_results(tmp_path):
    script = _script()
    old = [{"task": t, "version": 4, "policy": "rule", "rows": [], "headline": h}
           for t, h in (("sport-10", 0.1), ("minimal-10", 0.2))]  # fmt: skip
    (tmp_path / "rule.json").write_text(json.dumps(old))
    new = {"task": "minimal-10", "version": 4, "policy": "rule", "rows": [], "headline": 0.3}
    city = {**new, "task": "city-13", "headline": 0.4}
    script.save([new, city], tmp_path, ["rule"])
    saved = json.loads((tmp_path / "rule.json").read_text())
    assert [(r["task"], r["headline"]) for r in saved] == [
        ("sport-10", 0.1),
        ("city-13", 0.4),
        ("minimal-10", 0.3),
    ]


def shipped_results(version: int) -> list[tuple[str, dict]]:
    """The shipped results of a task version (results/vN), each checked: every task, every
    pair, 500 games, the version's digests, the headline the rows' mean; (policy, result)."""
    tasks = TASKS_BY_VERSION[version]
    out = []
    for policy in ("random", "rule", "ppo", "league", "filler"):
        results = json.loads((ROOT / "results" / f"v{version}" / f"{policy}.json").read_text())
        assert [r["task"] for r in results] == list(tasks)
        for r in results:
            task = tasks[r["task"]]
            assert (r["version"], r["digest"], r["policy"]) == (version, pins.digest(task), policy)
            assert r["standard"] and r["games_per_pair"] == 500
            pairs = [(x["side"], x["opponent"]) for x in r["rows"]]
            assert pairs == [(s, o) for s in task.sides for o in task.opponents]
            assert all(x["games"] == 500 for x in r["rows"])
            assert r["headline"] == sum(x["win_rate"] for x in r["rows"]) / len(r["rows"])
            out.append((policy, r))
    return out


def test_results_v4_are_the_pinned_tasks():
    """The shipped results of version 4: every task, every pair, 500 games, the digests."""
    for _, r in shipped_results(4):
        # only the pairs version 3 also has may come from it
        assert all(x["opponent"] != "filler" for x in r["rows"] if "from_version" in x)
