"""The tiny task (issue 31 item 5): OpenSpiel's exact NashConv and CFR on MINIMAL-3, one day.

The pinned values of `mafia_env.tasks.TINY_TASKS` are measured here again, so that a rule
change that moves them fails (and a new value is pinned on purpose), and approximate measures
can lean on them.
"""

from __future__ import annotations

import pytest

from mafia_env.errors import ConfigError
from mafia_env.tasks import TINY_TASKS, get_tiny_task

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python import policy  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability, get_all_states  # noqa: E402

import mafia_env.openspiel as mos  # noqa: E402

TASK = TINY_TASKS["minimal-3-day1"]


def test_the_tiny_task_is_pinned():
    assert TASK.digest() == "df6781f29cf9faaa"
    with pytest.raises(ConfigError, match=r"no tiny task 'huge'.*minimal-3-day1"):
        get_tiny_task("huge")


def test_the_tiny_game_is_the_python_mafia_game_of_its_parameters():
    game = mos.load_tiny(TASK.name)
    params = game.get_parameters()
    for key, value in TASK.openspiel_params().items():
        assert params[key] == value
    again = pyspiel.load_game("python_mafia", TASK.openspiel_params())
    assert str(again) == str(game)
    assert game.spec is TASK.spec()  # one spec for the task, cached


def test_the_tiny_game_has_its_pinned_number_of_states():
    game = mos.load_tiny(TASK.name)
    states = get_all_states.get_all_states(
        game, depth_limit=-1, include_terminals=True, include_chance_states=True
    )
    assert len(states) == TASK.states == 2067


def test_uniform_play_has_the_pinned_nash_conv():
    game = mos.load_tiny(TASK.name)
    value = exploitability.nash_conv(game, policy.UniformRandomPolicy(game))
    assert value == pytest.approx(TASK.uniform_nash_conv, abs=1e-9)
    assert value == pytest.approx(0.906, abs=5e-4)
    assert TASK.exploitability(value) == pytest.approx(value / 3)


def _cfr(iterations: int) -> dict[int, float]:
    game = mos.load_tiny(TASK.name)
    solver = cfr.CFRSolver(game)
    out = {}
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        out[i] = exploitability.nash_conv(game, solver.average_policy())
    return out


def test_cfr_brings_nash_conv_down_as_pinned():
    pinned = dict(TASK.cfr_nash_conv)
    got = _cfr(5)
    for i in (1, 5):
        assert got[i] == pytest.approx(pinned[i], abs=1e-9)
    assert got[5] < TASK.uniform_nash_conv


@pytest.mark.slow
@pytest.mark.long  # 72 s; the five-iteration test above checks the same solver every run
def test_thirty_cfr_iterations_reach_the_pinned_nash_conv():
    got = _cfr(30)[30]
    assert got == pytest.approx(dict(TASK.cfr_nash_conv)[30], abs=1e-9)
    assert got == pytest.approx(0.216, abs=5e-4)
