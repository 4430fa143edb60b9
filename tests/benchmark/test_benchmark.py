"""Benchmark tasks of version 3, the shipped league bot, the reference table (issue 20)."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

import baselines.shipped as shipped
from baselines import load_policy, pins
from baselines.benchmark import check_opponents, main, read_exploit, run_many, run_task
from baselines.pins import PINS_V3
from mafia_env.engine.rules import earlier_rules
from mafia_env.errors import ConfigError
from mafia_env.tasks import TASKS, TASKS_BY_VERSION, TASKS_V2, TASKS_V3, Task, get_task

ROOT = Path(__file__).resolve().parents[2]

# Version 3: the rules of its time (era 2, before issue 25), opponents rule, random, ppo and
# league; the digests with their pins (`baselines.pins.digest`). Changing one of these is a new
# task version; pinning the league files (PINS_V3 in baselines/pins.py) changed them once, on
# purpose.
PINNED_V3 = {
    "sport-10": "131f731e53c8fbca",
    "city-13": "c19edf9c77c4a834",
    "club-10": "f3391e2d7fafc19e",
    "online-10": "6dd14e95c42254d8",
    "forum-10": "856d5ca688accfc6",
    "minimal-10": "8da13f328e965c83",
}

TINY = Task(
    name="minimal-tiny",
    variant="minimal",
    num_players=10,
    sides=("town", "mafia"),
    opponents=("random", "rule"),
    games=3,
    seed=5,
    version=3,
)


def no_version_after_latest(versions: str) -> None:
    """Asking for the task version after the latest is a clear error that lists the versions
    (`versions`: a pattern of the list, e.g. ``2, 3, .*, 13, 14``). The version asked for is
    the latest plus one, so that a new version changes no earlier version's test."""
    after = max(TASKS_BY_VERSION) + 1
    with pytest.raises(
        ConfigError, match=rf"no benchmark tasks of version {after}; versions: {versions}"
    ):
        get_task("sport-10", after)


def _script():
    spec = importlib.util.spec_from_file_location(
        "reference_table", ROOT / "scripts/reference_table.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_version_3_definitions_are_pinned():
    assert {name: pins.digest(task) for name, task in TASKS_V3.items()} == PINNED_V3
    for task in TASKS_V3.values():
        # the rules of version 3's time: before the seeds' second reading (issue 25)
        assert task.version == 3 and task.play_knobs() == earlier_rules(task.variant, 2)
        assert task.opponents == ("rule", "random", "ppo", "league")
        ppo = pins.pin(task, "ppo")
        assert ppo == pins.pin(TASKS_V2[task.name], "ppo") == PINS_V3[task.name]["ppo"]


def test_get_task_gives_every_version():
    assert get_task("sport-10") is TASKS["sport-10"]
    assert get_task("sport-10", 2) is TASKS_V2["sport-10"]
    assert get_task("sport-10", 2).play_knobs() != {}  # version 2 keeps its earlier rules
    no_version_after_latest(r"2, 3, 4")
    with pytest.raises(ConfigError, match=r"no task 'sport-9' in version 3; tasks: city-13"):
        get_task("sport-9", 3)


def test_version_2_from_the_command_line(tmp_path, capsys):
    pytest.importorskip("torch")
    out = tmp_path / "r.json"
    argv = ["--policy", "random", "--task", "minimal-10", "--version", "2", "--games", "1"]
    assert main([*argv, "--out", str(out)]) == 0
    (result,) = json.loads(out.read_text())
    assert result["version"] == 2 and result["digest"] == pins.digest(TASKS_V2["minimal-10"])
    assert [r["opponent"] for r in result["rows"]] == ["rule", "random", "ppo"] * 2
    assert "minimal-10   headline" in capsys.readouterr().out


def test_a_missing_pin_is_refused_clearly(league_dir, monkeypatch):
    task = dataclasses.replace(TASKS_V3["sport-10"], opponents=("league",), sides=("town",))
    ppo = pins.pin(task, "ppo")
    monkeypatch.setitem(PINS_V3, "sport-10", {"league": ""})  # not pinned yet
    got = hashlib.sha256((league_dir / "sport.pt").read_bytes()).hexdigest()[:16]
    with pytest.raises(
        ConfigError, match=rf"no pin for its 'league' opponent yet: .* \(pin {got}\)"
    ):
        check_opponents(task)
    with pytest.raises(ConfigError, match=r"PINS_V3.*--version 2"):
        run_task(task, "random", games=1)
    monkeypatch.setitem(PINS_V3, "sport-10", {"league": got, "ppo": ppo})  # pinned
    assert run_task(task, "random", games=1)["rows"][0]["opponent"] == "league"
    monkeypatch.setitem(PINS_V3, "sport-10", {"league": "0" * 16})  # pinned to another file
    with pytest.raises(ConfigError, match=r"defined with the 'league' opponent 0{16}"):
        check_opponents(task)
    (league_dir / "sport.pt").unlink()
    monkeypatch.setitem(PINS_V3, "sport-10", {"league": ""})
    with pytest.raises(ConfigError, match=r"sport.pt is not shipped yet"):
        check_opponents(task)


def test_the_league_policy_loads_its_shipped_file(league_dir):
    policy = load_policy("league", variant="sport", num_players=10, seed=1)
    assert policy.num_players == 10 and policy.variant == "sport"
    with pytest.raises(
        ConfigError,
        match=r"no league checkpoint is shipped for variant 'club'.*"
        r"shipped: sport$",
    ):
        load_policy("league", variant="club")
    # a table size of its own is preferred to the variant's file
    (league_dir / "sport-8.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(ConfigError, match=r"cannot read checkpoint .*sport-8.pt"):
        load_policy("league", variant="sport", num_players=8)


def test_the_league_policy_is_an_entry_point():
    text = (ROOT / "pyproject.toml").read_text()
    assert 'league = "baselines.plugin:shipped_league"' in text
    assert "league" in shipped.policy_names()


def test_the_parallel_runner_equals_the_sequential_protocol():
    sequential = [run_task(TINY, policy) for policy in ("random", "rule")]
    assert run_many(["random", "rule"], [TINY], workers=2) == sequential
    assert run_many(["random", "rule"], [TINY], workers=1) == sequential


def test_the_serial_runner_plays_on_one_torch_thread_and_gives_the_caller_its_threads(
    monkeypatch,
):
    import torch

    import baselines.benchmark as bench

    seen = []
    real = bench.play_side
    monkeypatch.setattr(
        bench, "play_side", lambda *a, **k: seen.append(torch.get_num_threads()) or real(*a, **k)
    )
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        run_many(["random"], [TINY], workers=1)
        assert seen and set(seen) == {1}
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


def test_exploit_results_are_read_and_reported(tmp_path, capsys):
    path = tmp_path / "e.json"
    path.write_text(json.dumps({"task": "minimal-10", "policy": "random", "exploitability": 0.9}))
    assert read_exploit(path)[("minimal-10", "random")]["exploitability"] == 0.9
    pytest.importorskip("torch")  # the task's opponents include the shipped PPO bot
    argv = ["--policy", "random", "--task", "minimal-10", "--version", "2", "--games", "1"]
    assert main([*argv, "--exploit", str(path), "--out", str(tmp_path / "r.json")]) == 0
    assert "exploitability 0.900" in capsys.readouterr().out
    assert json.loads((tmp_path / "r.json").read_text())[0]["exploitability"] == 0.9
    path.write_text(json.dumps({"task": "minimal-10", "policy": "random", "exploitability": "x"}))
    with pytest.raises(ConfigError, match=r'"exploitability" \(a number\)'):
        read_exploit(path)


def _result(policy, task, headline, rates):
    rows = [
        {"side": side, "opponent": opp, "games": 500, "win_rate": rate, "ci95": [0, 1]}
        for (side, opp), rate in rates.items()
    ]
    return {"task": task, "version": 3, "policy": policy, "games_per_pair": 500,
            "rows": rows, "headline": headline}  # fmt: skip


def test_reference_table_from_result_files(tmp_path):
    script = _script()
    rates = {("town", "rule"): 0.5, ("town", "league"): 0.25, ("mafia", "rule"): 1.0,
             ("mafia", "league"): 0.125}  # fmt: skip
    (tmp_path / "rule.json").write_text(json.dumps([_result("rule", "sport-10", 0.46875, rates)]))
    (tmp_path / "league.json").write_text(json.dumps(_result("league", "sport-10", 0.5, rates)))
    (tmp_path / "e.json").write_text(
        json.dumps({"task": "sport-10", "policy": "rule", "exploitability": 0.7125, "sides": {}})
    )
    readme = tmp_path / "README.md"
    readme.write_text("# x\n<!-- reference-table -->\nold\n<!-- /reference-table -->\nend\n")
    files = [str(tmp_path / "rule.json"), str(tmp_path / "league.json")]
    argv = ["--results", *files, "--exploit", str(tmp_path / "e.json"), "--readme", str(readme)]
    assert script.main(argv) == 0
    table = (
        "Tasks version 3, 500 games per pair; win rates of the policy's side against each "
        "opponent; exploitability: the best response's mean win rate against the policy "
        "(`baselines.exploit`).\n"
        "\n"
        "| policy | task | headline | as town vs rule / league | as mafia vs rule / league "
        "| exploitability |\n"
        "|---|---|---|---|---|---|\n"
        "| rule | sport-10 | **0.469** | 0.500 / 0.250 | 1.000 / 0.125 | 0.713 |\n"
        "| league | sport-10 | **0.500** | 0.500 / 0.250 | 1.000 / 0.125 | - |\n"
    )
    text = f"# x\n<!-- reference-table -->\n{table}<!-- /reference-table -->\nend\n"
    assert readme.read_text() == text
    mixed = [_result("rule", "sport-10", 0.5, rates), {**_result("rule", "city-13", 0.5, rates),
                                                       "version": 2}]  # fmt: skip
    with pytest.raises(ConfigError, match="task versions 3, 2: tabulate one version"):
        script.markdown(mixed)
    with pytest.raises(ConfigError, match="needs one <!-- reference-table --> line"):
        script.into_readme("no markers", table)


def test_reference_table_runs_the_protocol(tmp_path, monkeypatch):
    script = _script()
    monkeypatch.setattr(script, "get_task", lambda name, version: TINY)
    argv = ["--run", "--policies", "random", "--tasks", "minimal-tiny", "--workers", "1"]
    assert script.main([*argv, "--save", str(tmp_path), "--out", str(tmp_path / "t.md")]) == 0
    (saved,) = json.loads((tmp_path / "random.json").read_text())
    assert saved == run_task(TINY, "random")
    assert (
        f"| random | minimal-tiny | **{saved['headline']:.3f}** |"
        in (tmp_path / "t.md").read_text()
    )


class FirstLegal:
    """A deterministic policy: a legal action picked by the observation alone (its moves do
    not depend on the order it is asked in)."""

    def act(self, obs, mask):
        legal = np.flatnonzero(mask)
        return int(legal[int(obs.sum() * 7) % legal.size])

    def act_batch(self, obs, masks):
        return np.array([self.act(o, m) for o, m in zip(obs, masks, strict=True)])


def test_version_3_plays_the_same_deals_in_lockstep():
    # the lockstep protocol (version 3) plays the deals of seeds seed.. one game at a time
    # would: with policies whose moves do not depend on the order, the tallies are the same
    import mafia_env
    from baselines.benchmark import play_lockstep
    from mafia_env.seating.games import Seating, play_game

    task = dataclasses.replace(TINY, variant="sport", games=7)
    env = mafia_env.raw_env("sport", 10, **task.play_knobs())
    seating = Seating(FirstLegal(), teams={"town": FirstLegal()})
    winners = []
    for g in range(task.games):
        play_game(env, seating, seed=task.seed + g)
        winners.append(env.winner)
    assert len(set(winners)) > 1  # the deals differ, and so do the games
    assert play_lockstep(task, seating, "mafia", task.games, num_envs=3) == (
        winners.count("mafia"),
        winners.count("draw"),
    )


def test_lockstep_games_leave_the_old_heap_out_of_full_collections_and_free_it_after():
    import gc

    from baselines.benchmark import old_heap_frozen, play_lockstep
    from mafia_env.seating.games import Seating

    gc.unfreeze()  # (a heap frozen by the program itself is left alone: below)
    seen = []

    class Watching(FirstLegal):
        calls = 0

        def act_batch(self, obs, masks):
            # every 50th move, from the first (the count walks the whole frozen heap: a
            # test worker's, half a million objects, cost 55 ms a call, 24 s a test)
            if Watching.calls % 50 == 0:
                seen.append(gc.get_freeze_count())
            Watching.calls += 1
            return super().act_batch(obs, masks)

    task = dataclasses.replace(TINY, variant="sport", games=2)
    with old_heap_frozen():  # blocks nest: the outermost one unfreezes
        inside = gc.get_freeze_count()  # (frozen objects freed since lower it a little)
        play_lockstep(task, Seating(Watching()), "town", 2, num_envs=2)
        assert gc.get_freeze_count() > inside // 2
    assert inside > 1000 and seen and min(seen) > inside // 2  # the heap before: frozen
    assert gc.get_freeze_count() == 0  # and given back to the collector after
    with pytest.raises(RuntimeError), old_heap_frozen():
        raise RuntimeError("a failing game")
    assert gc.get_freeze_count() == 0
    gc.freeze()  # a program that froze its heap itself keeps it frozen
    try:
        frozen = gc.get_freeze_count()
        play_lockstep(task, Seating(Watching()), "town", 2, num_envs=2)
        assert gc.get_freeze_count() >= frozen // 2 > 0
    finally:
        gc.unfreeze()


def test_seat_filler_check_reports_each_criterion_and_the_shortfalls(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location(
        "seat_filler_check", ROOT / "scripts/seat_filler_check.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    pairs = [(s, o) for s in ("town", "mafia") for o in ("random", "rule", "ppo")]
    rule = _result("rule", "sport-10", 0.5, dict.fromkeys(pairs, 0.5))
    ppo = _result("ppo", "sport-10", 0.6, dict.fromkeys(pairs, 0.6))
    good = _result("league", "sport-10", 0.7, dict.fromkeys(pairs, 0.7))
    for r in good["rows"]:
        r["ci95"] = [0.65, 0.75]
    bad = json.loads(json.dumps(good))
    bad["rows"][0].update(win_rate=0.3, ci95=[0.25, 0.35])  # town vs random: wholly below 0.5
    exploit = [{"task": "sport-10", "policy": p, "exploitability": e}
               for p, e in (("rule", 0.6), ("ppo", 0.7), ("league", 0.5))]  # fmt: skip
    (tmp_path / "e.json").write_text(json.dumps(exploit))
    for name, league, code in (("good", good, 0), ("bad", bad, 1)):
        (tmp_path / f"{name}.json").write_text(json.dumps([rule, ppo, league]))
        argv = ["--results", str(tmp_path / f"{name}.json"), "--exploit", str(tmp_path / "e.json")]
        assert module.main(argv) == code
    out = capsys.readouterr().out
    assert "| sport-10 | town | random | 0.300 [0.250, 0.350] | 0.500 | no |" in out
    assert "- sport-10 town vs random: 0.300 [0.250, 0.350] against the rule bots' 0.500" in out
    assert "| sport-10 | 0.500 | 0.600 | 0.700 | yes |" in out  # exploitability below both
    assert "every criterion met" in out


def test_seat_filler_check_reads_the_league_cells_and_headline_for_issue_28(capsys):
    """Issue 28's bar: the cells against the league bot count too, and the headline must be
    above the league bot's as well as the rule bots' and ppo's."""
    spec = importlib.util.spec_from_file_location(
        "seat_filler_check", ROOT / "scripts/seat_filler_check.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    pairs = [(s, o) for s in ("town", "mafia") for o in ("random", "rule", "ppo", "league")]
    rule = _result("rule", "sport-10", 0.5, dict.fromkeys(pairs, 0.5))
    ppo = _result("ppo", "sport-10", 0.6, dict.fromkeys(pairs, 0.6))
    league = _result("league", "sport-10", 0.8, dict.fromkeys(pairs, 0.6))
    filler = _result("filler", "sport-10", 0.7, dict.fromkeys(pairs, 0.7))
    for r in filler["rows"]:
        r["ci95"] = [0.65, 0.75]
        if (r["side"], r["opponent"]) == ("mafia", "league"):
            r.update(win_rate=0.3, ci95=[0.25, 0.35])
    lines, short = module.check([rule, ppo, league, filler], {}, "filler")
    assert "sport-10 mafia vs league: 0.300 [0.250, 0.350] against the rule bots' 0.500" in (
        "\n".join(short)
    )
    assert any(s.startswith("sport-10 headline 0.700 (rule 0.500, ppo 0.600, league 0.800)")
               for s in short)  # fmt: skip
    assert "| sport-10 | 0.700 | 0.500 | 0.600 | 0.800 | no |" in lines
