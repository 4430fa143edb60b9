"""The single-agent Gymnasium view and the benchmark tasks and protocol (issue 10)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import mafia_env
from baselines import pins
from baselines.benchmark import main as benchmark_main
from baselines.benchmark import run_task
from mafia_env.errors import ConfigError
from mafia_env.tasks import TASKS, TASKS_V2, Task

# A task's definition never changes silently: changing one of these is a new task version.
# Version 2: the PPO opponents retrained (cloned from the rule bots, then PPO against them).
# The digests with their pins (`baselines.pins.digest`; version 3's: tests/benchmark/).
PINNED = {
    "sport-10": "fab988f242a6b87d",
    "city-13": "cb10a22106375f6f",
    "club-10": "3c7bb712f9ee2b67",
    "online-10": "5d0b4d233e0da22c",
    "forum-10": "78b728ce7b9a757f",
    "minimal-10": "5c1e7111395161c2",
}


def test_task_definitions_are_pinned():
    assert {name: pins.digest(task) for name, task in TASKS_V2.items()} == PINNED


def test_task_refuses_another_ppo_opponent(monkeypatch):
    """The shipped PPO opponent is part of a task: another file is refused, not used."""
    pytest.importorskip("torch")
    for task in [*TASKS_V2.values(), *TASKS.values()]:  # the pins match the files shipped
        run_task(dataclasses.replace(task, sides=("town",), opponents=("ppo",)), "random", games=1)
    monkeypatch.setitem(pins.PINS_V2, "sport-10", {"ppo": "0123456789abcdef"})
    moved = TASKS_V2["sport-10"]
    with pytest.raises(ConfigError, match=r"defined with the 'ppo' opponent 0123456789abcdef.*new"):
        run_task(moved, "random", games=1)


@pytest.mark.parametrize("variant", sorted(mafia_env.VARIANTS))
def test_check_env(variant):
    check_env(mafia_env.single_agent(variant), skip_render_check=True)


def test_seat_and_role_are_honoured_and_rewards_are_the_team_s():
    env = mafia_env.single_agent("sport", seat=4, role="sheriff")
    rng = np.random.default_rng(0)
    results = set()
    for seed in range(30):
        obs, info = env.reset(seed=seed)
        assert info["seat"] == 4 and info["role"] == "sheriff"
        assert env.aec.roles["player_4"] == "sheriff"
        done, reward = False, 0.0
        while not done:
            mask = env.action_masks()
            assert mask.any() and env.observation_space.contains(obs)
            obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            done = term or trunc
        results.add(reward)
        assert reward == {"town": 1.0, "mafia": -1.0, "draw": 0.0}[env.aec.winner]
    assert results == {1.0, -1.0}


def test_same_seed_same_game():
    a, b = mafia_env.single_agent("sport"), mafia_env.single_agent("sport")
    oa, ia = a.reset(seed=3)
    ob, ib = b.reset(seed=3)
    assert np.array_equal(oa, ob) and ia["seat"] == ib["seat"]


def test_unmasked_action_ends_the_game_with_a_penalty():
    env = mafia_env.single_agent("sport", seat=1)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, term, _, _ = env.step(illegal)
    assert term and reward == -1.0


def test_bad_arguments():
    with pytest.raises(ConfigError, match=r"seat must be a seat number 1\.\.10"):
        mafia_env.single_agent("sport", seat=11)
    with pytest.raises(ConfigError, match=r"no doctor at a 10-seat sport table"):
        mafia_env.single_agent("sport", role="doctor")
    with pytest.raises(ConfigError, match=r"unknown variant 'sports'"):
        mafia_env.single_agent("sports")
    with pytest.raises(ConfigError, match=r"opponents keys must be seats"):
        mafia_env.single_agent("sport", opponents={0: "random"})


def test_benchmark_protocol_end_to_end(tmp_path):
    task = Task(
        name="sport-tiny",
        variant="sport",
        num_players=10,
        sides=("town", "mafia"),
        opponents=("random",),
        games=4,
        seed=1,
    )
    result = run_task(task, "random")
    assert [(r["side"], r["opponent"], r["games"]) for r in result["rows"]] == [
        ("town", "random", 4),
        ("mafia", "random", 4),
    ]
    assert result == run_task(task, "random")  # fixed seeds: the same score twice
    assert 0 <= result["headline"] <= 1
    pytest.importorskip("torch")  # minimal-10's opponents include the shipped PPO bot
    out = tmp_path / "r.json"
    assert benchmark_main(
        ["--policy", "random", "--task", "minimal-10", "--games", "2", "--out", str(out)]
    ) in (0, 2)


def test_benchmark_bad_policy_is_a_clear_error(capsys):
    argv = ["--policy", "nonsense", "--task", "sport-10", "--version", "2", "--games", "1"]
    assert benchmark_main(argv) == 2
    assert "unknown policy 'nonsense'" in capsys.readouterr().err


def test_benchmark_json_output(tmp_path):
    out = tmp_path / "r.json"
    task = TASKS["minimal-10"]
    tiny = Task(**{**task.__dict__, "opponents": ("random",)})
    result = run_task(tiny, "random", games=2)
    out.write_text(json.dumps(result))
    assert json.loads(out.read_text())["rows"][0]["games"] == 2
