"""FORUM rules as the seeds read a second time (issue 25): each rule as the seed states it, with
exact outcomes, and the other reading as a knob (this reading's tests of no one variant:
tests/rules/test_second_reading_all_variants.py)."""

from __future__ import annotations

from mafia_env.engine.events import PUBLIC, Cause, Ev
from mafia_env.engine.roles import Role
from mafia_env.variants import get_variant
from tests.rules.second_reading_tables import forum_hunt
from tests.scripting import Table

# ------------------------------------------------------------------- FORUM-W1

FORUM8 = ["doctor", "civilian", "civilian", "civilian", "civilian", "maniac", "mafia", "mafia"]


def forum_two_against_the_maniac(**knobs) -> Table:
    """FORUM at 8: the doctor voted out; 2 and 3 killed; 5 voted out; 4 shot: 2 mafia and the
    maniac are left, no town."""
    t = Table("forum", FORUM8, **knobs)
    t.speeches({2: [("nominate", 1)]})
    t.vote({2: 1, 3: 1})
    shot = [("night", 2), ("executor", 7)]
    t.night({7: shot, 8: list(shot), 6: 3})
    assert t.game.team_alive == [2, 2, 1] and not t.game.over
    t.speeches({4: [("nominate", 5)]})
    t.vote({4: 5, 7: 5, 8: 5})
    assert t.game.team_alive == [1, 2, 1] and not t.game.over  # 2 against 2: no majority
    shot = [("night", 4), ("executor", 7)]
    t.night({7: shot, 8: list(shot)})
    assert t.game.team_alive == [0, 2, 1]
    return t


def test_forum_w1_the_maniac_counts_among_the_others():
    """FORUM-W1: «до явного численного преимущества мафии»: 2 mafia against the maniac alone
    outnumber everyone else: the mafia win (the seed sets no condition on the maniac)."""
    t = forum_two_against_the_maniac()
    assert t.env.winner == "mafia"


def test_forum_w1_the_maniac_must_be_dead_by_knob():
    t = forum_two_against_the_maniac(mafia_win_maniac="dead")
    assert not t.game.over and t.game.day == 3


def test_forum_w1_parity_with_the_maniac_counted():
    """FORUM-W1: knob mafia_win="parity": 2 mafia against 1 town and the maniac win."""
    t = Table("forum", FORUM8, mafia_win="parity")
    t.speeches({2: [("nominate", 1)]})
    t.vote({2: 1, 3: 1})
    shot = [("night", 2), ("executor", 7)]
    t.night({7: shot, 8: list(shot), 6: 3})
    t.speeches({4: [("nominate", 5)]})
    t.vote({4: 5, 7: 5, 8: 5})
    assert t.game.team_alive == [1, 2, 1] and t.env.winner == "mafia"


def test_forum_w1_is_marked_the_sources():
    rules = get_variant("forum")
    assert rules.mafia_win == "majority" and rules.mafia_win_maniac == "counted"
    assert not {"mafia_win", "mafia_win_maniac"} & rules.defaults


def test_forum_m1_a_mafia_member_killed_on_the_hunt_is_announced_as_mafia():
    """FORUM-M1: «Ведущий ... объявляет: ... мафа, убитого на охоте»: the table learns 8 was
    a mafia member; his card is in every seat's view."""
    t = forum_hunt(8, "mafia")
    assert t.left() == [(8, Cause.HUNTED)]
    reveal = t.events(Ev.REVEAL)
    assert [(e[2] + 1, e[3], e[4]) for e in reveal] == [(8, Role.MAFIA, PUBLIC)]
    log = t.public_log()
    assert "Player 8 was caught by the town's hunt." in log and "Player 8 was the mafia." in log
    mafia = t.env.unwrapped.rules.roles_in_play().index(Role.MAFIA)
    assert all(t.obs(s)["revealed"][7, mafia] == 1 for s in (1, 4, 7))


def test_forum_m1_the_maniac_caught_is_announced_as_the_hunts_catch():
    """FORUM-M1 (default): the seed lists no line for the maniac: he is the hunt's catch."""
    t = forum_hunt(7, "maniac")
    assert t.left() == [(7, Cause.HUNTED)] and t.events(Ev.REVEAL) == []
    assert "Player 7 was caught by the town's hunt." in t.public_log()
    t2 = forum_hunt(7, "maniac", hunted_reveal="all")
    assert [(e[2] + 1, e[3]) for e in t2.events(Ev.REVEAL)] == [(7, Role.MANIAC)]


def test_forum_m1_the_earlier_reading_names_nobody():
    t = forum_hunt(8, "mafia", hunted_reveal="none")
    assert t.left() == [(8, Cause.HUNTED)] and t.events(Ev.REVEAL) == []
