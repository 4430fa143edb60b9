"""The doctor's saves in an evaluation report are the engine's count (`Game.saves`)."""

from __future__ import annotations

from baselines.evaluate import summarize
from mafia_env.engine.events import Cause
from tests.scripting import Table

# seats 1..10: doctor 1, mafia 3 and 8, maniac 7, the rest civilians (as in test_forum.py)
DEAL = ["doctor", "civilian", "mafia", "civilian", "civilian"]
DEAL += ["civilian", "maniac", "mafia", "civilian", "civilian"]


def forum(night: dict) -> Table:
    t = Table("forum", DEAL)
    t.speeches()  # day 1: nobody nominated
    t.night(night)
    return t


def saves(t: Table) -> int:
    g = summarize(t.game, 0)
    assert g["doctor_saves"] == t.game.saves
    return g["doctor_saves"]


def test_forum_n2_a_heal_on_the_mafia_s_or_the_maniac_s_victim_is_a_save():
    agreed = {3: [("night", 5), ("executor", 3)], 8: [("night", 5), ("executor", 3)]}
    t = forum({**agreed, 1: 5, 7: 4})
    assert t.left() == [(4, Cause.MANIAC)] and saves(t) == 1
    t = forum({**agreed, 1: 4, 7: 4})
    assert t.left() == [(5, Cause.MAFIA)] and saves(t) == 1


def test_forum_n1_a_heal_where_the_executors_differ_saves_nobody():
    """FORUM-N1: the mafia agree on the victim but not on the executor: no shot, no save
    (a count of the shots alone, outside the engine, called it one)."""
    split = {3: [("night", 5), ("executor", 3)], 8: [("night", 5), ("executor", 8)]}
    t = forum({**split, 1: 5})
    assert t.left() == [] and saves(t) == 0


def test_forum_n2_a_healed_player_who_dies_of_the_hunt_was_not_saved():
    t = forum({2: ("hunt", 3, "mafia"), 1: 3})
    assert t.left() == [(3, Cause.HUNTED)] and saves(t) == 0
