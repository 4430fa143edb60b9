"""Terminal mode: a person plays one seat against bots, choices piped through stdin."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import mafia_env
from mafia_env.engine.events import PUBLIC
from mafia_env.narrate import narrate, say
from mafia_env.seating.terminal import choices, play
from mafia_env.table.view import seat_view
from tests.scripting import to_day_one

ROOT = Path(__file__).resolve().parents[2]


def test_piped_choices_play_a_whole_game_with_the_seats_narration():
    out = io.StringIO()
    record = play("sport", seat=3, bots="random", seed=1, inp=io.StringIO("1\n" * 500), out=out)
    text = out.getvalue()
    env = mafia_env.replay(record)
    assert env.winner == record["winner"] is not None
    # the narration printed is exactly what seat 3 was told, in order
    said = narrate(env.unwrapped.game.events, 2)
    assert all(line in text for line in said)
    assert text.index(said[0]) < text.index(said[-1])
    assert f"Player 3, your role is {record['deal'][2]}." in text
    # choice 1 is always the first legal action; on a speech that is "End my speech"
    assert "    1. End my speech" in text
    mine = [what for seat, what in record["moves"] if seat == 3]
    assert mine and text.count("Your turn. What do you do?") == len(mine)


def test_bad_input_is_asked_again_and_the_end_of_input_takes_default_actions():
    out = io.StringIO()
    record = play("sport", seat=1, seed=2, inp=io.StringIO("hello\n0\n999\n2\n"), out=out)
    text = out.getvalue()
    assert "Please type a number from 1 to" in text
    assert "There is no choice 0;" in text and "There is no choice 999;" in text
    assert text.count("The input has ended: your turns take the default action.") == 1
    env = mafia_env.env("sport")
    env.reset(seed=2)
    to_day_one(env)  # (seat 1 is town: SPORT-N3's meeting is not his)
    first = choices(seat_view(env, 0))
    mine = [what for seat, what in record["moves"] if seat == 1]
    assert mine[0] == first[1][0]  # the choice "2" that was finally read
    assert set(mine[1:]) == {env.action_id("pass")}  # then the defaults: pass
    assert mafia_env.replay(record).winner == record["winner"]


def test_a_mafia_seat_is_told_its_team_and_nothing_private_of_another_seat():
    deal = ["mafia", "civilian", "don", "civilian", "sheriff", "civilian", "mafia"] + [
        "civilian"
    ] * 3
    env = mafia_env.env("sport", roles=deal)
    env.reset(seed=4)
    view = seat_view(env, 0)
    known = {c["seat"]: c["role"] for c in view["seats"] if c["role"]}
    assert known == {1: "mafia", 3: "don", 7: "mafia"}
    assert view["actions"] and view["your_turn"]  # seat 1 opens day 1
    view5 = seat_view(env, 4)
    assert view5["actions"] == [] and not view5["your_turn"]
    assert {c["seat"] for c in view5["seats"] if c["role"]} == {5}

    out = io.StringIO()
    record = play("sport", seat=1, seed=4, inp=io.StringIO("1\n" * 300), out=out, roles=deal)
    text = out.getvalue()
    assert "Player 1, player 3 is on your team (don)." in text
    assert "Player 1, player 7 is on your team (mafia)." in text
    events = mafia_env.replay(record).unwrapped.game.events
    hidden = [say(e) for e in events if e[4] != PUBLIC and not e[4] & 1 and say(e)]
    assert any(line == "Player 5, your role is sheriff." for line in hidden)
    for line in hidden:
        assert line not in text


def test_command_line_runs_and_saves_a_record(tmp_path):
    path = tmp_path / "game.json"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mafia_env.seating.terminal",
            "--variant",
            "minimal",
            "--seat",
            "2",
            "--seed",
            "3",
            "--record",
            str(path),
        ],
        input="1\n" * 200,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Player 2, your role is" in proc.stdout
    assert "Your turn. What do you do?" in proc.stdout
    record = json.loads(path.read_text())
    assert mafia_env.replay(record).winner == record["winner"]
    bad = subprocess.run(
        [sys.executable, "-m", "mafia_env.seating.terminal", "--variant", "sport", "--seat", "11"],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert bad.returncode == 2 and "seat must be 1..10" in bad.stderr


def test_unknown_bot_is_a_clear_error():
    with pytest.raises(mafia_env.MafiaError, match="unknown policy 'nosuch'"):
        play("sport", seat=1, bots="nosuch", seed=1, inp=io.StringIO(""), out=io.StringIO())
