"""Benchmark tasks of version 5 (issue 45 item 4): sport-10's seat-filler retrained and shipped
as ``filler``; version 4 keeps playing the file it pinned."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import pytest

import baselines.shipped as shipped
from baselines import pins
from baselines.belief_talk import BeliefTalk
from baselines.pins import PINS_V4, PINS_V5
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, TASKS_V4, TASKS_V5, get_task
from tests.benchmark.test_benchmark import _script
from tests.benchmark.test_tasks_v4 import shipped_results

# Version 5: version 4's tables, seeds, games, opponents and rules; the digests with their pins
# (`baselines.pins.digest`), sport-10's with its new filler file.
PINNED_V5 = {
    "sport-10": "528d23949fc306f3",
    "city-13": "7d581c94315a308c",
    "club-10": "66785e5eb86c6fd3",
    "online-10": "ac9d231edb2cae8a",
    "forum-10": "203ff0157d3e7faa",
    "minimal-10": "0912232a3f1eaa2c",
}
# the options sport-10's filler file records for its layer (baselines.belief_talk)
TALK = dict(fallback="vouch", mafia=False, sheriff_first=True, meet=True, sparing=True, agree=True)


def same_definition(task, earlier, version: int) -> None:
    """`task` is of `version` and is `earlier`'s definition: the same table, seeds, games,
    opponents and rules (only its version, and so its pins and digest, differ)."""
    assert task.version == version
    same = ("variant", "num_players", "sides", "opponents", "games", "seed", "knobs")
    assert [getattr(task, f) for f in same] == [getattr(earlier, f) for f in same]
    assert task.play_knobs() == earlier.play_knobs()  # the rules of the version before


def test_version_5_definitions_are_pinned():
    assert LATEST >= 5 and TASKS_BY_VERSION[5] is TASKS_V5  # the latest: test_tasks_v6.py
    assert {name: pins.digest(task) for name, task in TASKS_V5.items()} == PINNED_V5
    assert list(TASKS_V5) == list(TASKS_V4)
    for name, task in TASKS_V5.items():
        v4 = TASKS_V4[name]
        same_definition(task, v4, 5)
        for opp in pins.SHIPPED_OPPONENTS:
            same_file = name != "sport-10" or opp != "filler"
            assert (pins.pin(task, opp) == pins.pin(v4, opp) == PINS_V4[name][opp]) is same_file
        assert pins.pin(task, "filler") == PINS_V5[name]["filler"]
        assert pins.digest(task) != pins.digest(v4)  # another version
        assert get_task(name, 5) is task


def test_the_filler_pins_are_the_shipped_files():
    """Version 5's filler files stay shipped: sport-10's and club-10's, retrained for version 6,
    under filler/v5/ (`pins.RETIRED`), forum-10's, retrained for version 7, under filler/v6/,
    minimal-10's, retrained for version 8, under filler/v7/, city-13's and online-10's, others
    for version 9, under filler/v8/, the others where they were."""
    club = shipped.SHIPPED / "filler/v5/club.pt"
    forum = shipped.SHIPPED / "filler/v6/forum.pt"
    sport = shipped.SHIPPED / "filler/v5/sport.pt"
    minimal = shipped.SHIPPED / "filler/v7/minimal.pt"
    city, online = shipped.SHIPPED / "filler/v8/city-13.pt", shipped.SHIPPED / "filler/v8/online.pt"
    retired = {"sport-10": sport, "club-10": club, "forum-10": forum, "minimal-10": minimal,
               "city-13": city, "online-10": online}  # fmt: skip
    for task in TASKS_V5.values():
        path = pins.shipped_file(task, "filler")
        if task.name in retired:
            assert path == retired[task.name]
        else:
            assert path == shipped.shipped_checkpoint(task.variant, task.num_players, "filler")
        got = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        assert got == pins.pin(task, "filler"), f"{path} is {got}"
        # (city-13's: version 6 seats the rule bots on its maniac's side too; 5 on the town's)
        seated = {"sides": {"town": "rule"}} if task.name == "city-13" else {}
        mine = {"file": retired[task.name]} if task.name in retired else {}
        assert pins.load_options(task, "filler") == {**mine, **seated}
    old = TASKS_V4["sport-10"]
    assert pins.load_options(old, "filler") == {"file": shipped.SHIPPED / "filler/v4/sport.pt"}
    assert pins.load_options(old, "rule") == {}
    assert pins.load_options(TASKS_V4["online-10"], "filler") == {"file": online}
    # (forum-10's retired file: its network on every side, as versions 4-6 played it)
    assert pins.load_options(TASKS_V4["forum-10"], "filler") == {"file": forum}
    assert pins.load_options(TASKS_V4["club-10"], "filler") == {"file": club}


def test_sport_filler_plays_under_its_talk_layer_and_version_4_plays_its_own_file():
    """The shipped file records the talk layer it was trained under: ``filler`` plays it with
    the recorded options; ``filler_talk`` wraps the bare network; version 4's task plays the
    network it pinned, bare (`pins.RETIRED`)."""
    pytest.importorskip("torch")
    from baselines.ppo.checkpoint import PPOPolicy

    spec = GameSpec.make("sport", 10, **TASKS_V5["sport-10"].play_knobs())
    filler = load_policy("filler", spec, seed=1)
    assert isinstance(filler, BeliefTalk) and isinstance(filler.inner, PPOPolicy)
    assert {k: getattr(filler, k) for k in TALK} == TALK
    talk = load_policy("filler_talk", spec, seed=1)
    assert isinstance(talk, BeliefTalk) and isinstance(talk.inner, PPOPolicy)  # not two layers
    old = load_policy("filler", spec, seed=1, **pins.load_options(TASKS_V4["sport-10"], "filler"))
    assert isinstance(old, PPOPolicy)


def earlier_results(tasks: dict, names: tuple[str, ...]) -> list[dict]:
    """Standard results of the filler and the rule bots on the tasks `names` of `tasks` (one
    version's), every pair at 0.5: what `scripts/reference_table.py --reuse` reads."""
    out = []
    for t in names:
        task = tasks[t]
        rows = [{"side": s, "opponent": o, "games": 500, "win_rate": 0.5}
                for s in ("town", "mafia") for o in task.opponents]  # fmt: skip
        out += [
            {"task": t, "version": task.version, "policy": p, "standard": True,
             "games_per_pair": 500, "digest": pins.digest(task), "rows": rows, "headline": 0.5}
            for p in ("filler", "rule")
        ]  # fmt: skip
    return out


# the filler files later versions retrained, as the versions before keep them (`pins.RETIRED`)
FILLER_V19 = {"online-10": "filler/v19/online.pt"}
FILLER_V18 = {**FILLER_V19, "sport-10": "filler/v18/sport.pt"}
FILLER_V17 = {**FILLER_V18, "online-10": "filler/v17/online.pt"}
FILLER_V16 = {
    "sport-10": "filler/v16/sport.pt",
    "club-10": "filler/v16/club.pt",
    "online-10": "filler/v16/online.pt",
}
FILLER_V15 = {**FILLER_V16, "online-10": "filler/v15/online.pt"}
FILLER_V14 = {
    "sport-10": "filler/v14/sport.pt",
    "club-10": "filler/v16/club.pt",
    "online-10": "filler/v14/online.pt",
}
FILLER_V13 = {
    "sport-10": "filler/v13/sport.pt",
    "club-10": "filler/v13/club.pt",
    "forum-10": "filler/v13/forum.pt",
    "online-10": "filler/v14/online.pt",
}
FILLER_V12 = {**FILLER_V13, "online-10": "filler/v12/online.pt"}
FILLER_V11 = {
    "forum-10": "filler/v11/forum.pt",
    "sport-10": "filler/v11/sport.pt",
    "online-10": "filler/v11/online.pt",
    "club-10": "filler/v11/club.pt",
}
FILLER_V10 = {**FILLER_V11, "club-10": "filler/v10/club.pt", "forum-10": "filler/v10/forum.pt"}
FILLER_V9 = {**FILLER_V10, "club-10": "filler/v9/club.pt"}
FILLER_V8 = {**FILLER_V9, "city-13": "filler/v8/city-13.pt", "online-10": "filler/v8/online.pt"}
FILLER_V7 = {"minimal-10": "filler/v7/minimal.pt", **FILLER_V8}
FILLER_V6 = {**FILLER_V7, "forum-10": "filler/v6/forum.pt"}


def same_weights_options(old, new) -> tuple[dict, dict]:
    """The layer options the checkpoints `old` and `new` record, after checking that they hold
    the same network, weight for weight (a file stamped with another layer: `baselines.ppo.
    stamp`)."""
    torch = pytest.importorskip("torch")
    a, b = (torch.load(p, map_location="cpu", weights_only=False) for p in (old, new))
    assert a["model"].keys() == b["model"].keys()
    assert all(torch.equal(a["model"][w], b["model"][w]) for w in a["model"])
    return a["layer"]["options"], b["layer"]["options"]


def check_filler_retrained(version: int, pinned: dict, retrained: tuple, new: dict) -> None:
    """Tasks `version` are the version before's tables, seeds, games, opponents, seats and
    rules, each task's digest `pinned[task]`; only the filler files of the tasks `retrained`
    are others, pinned `new[task]`."""
    tasks, earlier = TASKS_BY_VERSION[version], TASKS_BY_VERSION[version - 1]
    now, before = pins.PINS_BY_VERSION[version], pins.PINS_BY_VERSION[version - 1]
    assert {name: pins.digest(task) for name, task in tasks.items()} == pinned
    assert list(tasks) == list(earlier)
    assert {**now, **{t: before[t] for t in retrained}} == before
    for t in retrained:
        assert now[t] == {**before[t], "filler": new[t]}
    for name, task in tasks.items():
        old = earlier[name]
        same_definition(task, old, version)
        for opp in pins.SHIPPED_OPPONENTS:
            moved = name in retrained and opp == "filler"
            assert (pins.pin(task, opp) != pins.pin(old, opp)) is moved
            assert (pins.shipped_file(task, opp) != pins.shipped_file(old, opp)) is moved
            assert pins.seated(task, opp) == pins.seated(old, opp)
        assert pins.digest(task) != pins.digest(old)  # another version
        assert get_task(name, version) is task


def check_filler_files(tasks: dict, retired: dict[str, str]) -> None:
    """Each task's filler file of `tasks` (one version's) is its retired file where `retired`
    names one (under baselines/checkpoints), else the shipped one, and hashes to its pin."""
    for task in tasks.values():
        path = pins.shipped_file(task, "filler")
        if task.name in retired:
            assert path == shipped.SHIPPED / retired[task.name]
        else:
            assert path == shipped.shipped_checkpoint(task.variant, task.num_players, "filler")
        got = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        assert got == pins.pin(task, "filler"), f"{path} is {got}"


def check_one_retrained(earlier: dict, later: dict, name: str, same: str = "online-10") -> None:
    """`scripts/reference_table.py --reuse` from `earlier`'s version to `later`'s, where task
    `name`'s filler was retrained: a pair is reused unless that filler plays in it, as the
    learner or the opponent (task `same`'s, not retrained, all are)."""
    results = earlier_results(earlier, (name, same))
    known = _script().reusable(results, [later[name], later[same]])
    assert not any(o == "filler" and t == name for _, t, _, o in known)
    assert not any(p == "filler" and t == name for p, t, _, _ in known)
    assert ("rule", name, "mafia", "league") in known
    assert ("filler", same, "town", "filler") in known
    assert len(known) == 8 + 10 + 10  # `name`: the rule bots' not vs filler; `same`: all


def check_results_reused(version: int, *names: str) -> None:
    """The shipped results of `version`: only the pairs with the filler of a task of `names`
    (retrained for it) were played again, the rest come from the version before."""
    for policy, r in shipped_results(version):
        for x in r["rows"]:
            new = r["task"] in names and "filler" in (policy, x["opponent"])
            assert ("from_version" not in x) if new else (x.get("from_version") == version - 1)


def check_attacker_from_version_4(tasks: dict, name: str, old: Path) -> None:
    """`mafia exploit --start filler` on every task of `tasks` starts from the filler file
    tasks version 4 pinned (task `name`'s: `old`, its file before it was retrained)."""
    from baselines.exploit import start_file

    for t, task in tasks.items():
        first = pins.shipped_file(get_task(t, 4), "filler")
        assert start_file(task, "filler") == first
        assert hashlib.sha256(first.read_bytes()).hexdigest()[:16] == PINS_V4[t]["filler"]
    assert start_file(tasks[name], "filler") == old


def test_a_retrained_learner_is_not_reused():
    """`scripts/reference_table.py --reuse`: a pair of version 4 is version 5's where the
    opponent's and the learner's files are pinned alike; sport-10's filler was retrained, so
    its pairs as the learner and as the opponent are played again."""
    script = _script()
    results = earlier_results(TASKS_V4, ("sport-10", "club-10"))
    known = script.reusable(results, [TASKS_V5["sport-10"], TASKS_V5["club-10"]])
    assert not any(p == "filler" and t == "sport-10" for p, t, _, _ in known)
    assert not any(t == "sport-10" and o == "filler" for _, t, _, o in known)
    assert ("filler", "club-10", "town", "filler") in known
    assert ("rule", "sport-10", "mafia", "league") in known
    assert len(known) == 10 + 10 + 8  # club-10: both; sport-10: the rule bots, not vs filler


def test_results_v5_are_the_pinned_tasks():
    """The shipped results of version 5: every task, every pair, 500 games, the digests; only
    pairs that version 4 played alike come from it."""
    for policy, r in shipped_results(5):
        for x in r["rows"]:
            new = r["task"] == "sport-10" and "filler" in (policy, x["opponent"])
            assert ("from_version" not in x) if new else (x.get("from_version") == 4)


def test_benchmark_refuses_a_version_5_task_without_its_filler(tmp_path, monkeypatch):
    folder = tmp_path / "filler"
    folder.mkdir()
    monkeypatch.setitem(shipped.SHIPPED_FOLDERS, "filler", folder)
    monkeypatch.setattr(pins, "SHIPPED", tmp_path)  # (version 5's sport file is retired: v5/)
    from baselines.benchmark import check_opponents

    with pytest.raises(ConfigError, match=r"sport.pt, which is not installed"):
        check_opponents(dataclasses.replace(TASKS_V5["sport-10"], opponents=("filler",)))
