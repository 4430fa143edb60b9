"""FORUM rules as the seeds read again (issue 16): each rule as the seed states it, with
exact outcomes, and the other reading as a knob (this reading's tests of no one variant:
tests/rules/test_seed_reading_all_variants.py)."""

from __future__ import annotations

import pytest

from mafia_env.engine.events import Cause, Ev
from mafia_env.errors import IllegalActionError
from tests.rules.forum.test_forum import DEAL as FORUM_DEAL
from tests.scripting import Table

# --------------------------------------------------------------- FORUM-N3, N4


def forum(**knobs) -> Table:
    t = Table("forum", FORUM_DEAL, **knobs)
    t.speeches()
    return t


@pytest.mark.parametrize(
    ("target", "status", "left"),
    [
        (8, "mafia", [(8, Cause.HUNTED)]),  # a mafia member guessed as mafia
        (7, "maniac", [(7, Cause.HUNTED)]),  # the maniac guessed as the maniac
        (8, "maniac", [(2, Cause.HUNTER)]),  # the right target, the wrong status
        (7, "mafia", [(2, Cause.HUNTER)]),
        (4, "mafia", [(2, Cause.HUNTER)]),  # a civilian: the hunter dies
    ],
)
def test_forum_n4_a_hunt_names_the_status_and_a_wrong_one_kills_the_hunter(target, status, left):
    """FORUM-N4: «охотился на мирного или неверно угадал статус — погибает охотник»."""
    t = forum()
    t.night({2: ("hunt", target, status)})
    assert t.left() == left


def test_forum_n3_a_hunt_request_carries_target_and_status():
    """FORUM-N3: the request names a player and the status guessed; nobody learns whose."""
    t = forum()
    t.to("hunt", 2)
    assert t.legal_targets("hunt") == set(range(1, 11)) - {2}
    index = t.env.action_id("hunt", 7, value="maniac")
    assert t.env.describe_action(index) == "hunt 7 maniac"
    with pytest.raises(IllegalActionError, match="hunt needs the status guessed"):
        t.env.action_id("hunt", 7)
    t.act(2, "hunt", 7, "maniac")
    hunt = t.events(Ev.HUNT)[-1]
    assert (hunt[1], hunt[2], hunt[3], hunt[4]) == (1, 6, 1, 1 << 1)


def test_forum_n4_without_the_status_knob_any_black_target_dies():
    t = forum(hunt_status=False)
    with pytest.raises(IllegalActionError, match="takes no value"):
        t.env.action_id("hunt", 7, value="mafia")
    assert t.env.describe_action(t.env.action_id("hunt", 7)) == "hunt 7"
    t.night({2: ("hunt", 7)})
    assert t.left() == [(7, Cause.HUNTED)]


# --------------------------------------------------------------------- FORUM-W1


def forum_endgame(**knobs) -> Table:
    """FORUM at 7: the maniac voted out, then the mafia shoot until 2 town and 1 mafia remain."""
    t = Table(
        "forum",
        ["doctor", "civilian", "civilian", "civilian", "civilian", "maniac", "mafia"],
        **knobs,
    )
    t.speeches({1: [("nominate", 6)]})
    t.vote({1: 6})
    t.night({7: [("night", 2), ("executor", 7)], 1: 3})
    t.speeches({1: [("nominate", 4)]})
    t.vote({1: 4, 3: 4})
    t.night({7: [("night", 5), ("executor", 7)], 1: 1})
    assert t.game.team_alive == [2, 1, 0] and not t.game.over
    t.speeches({1: [("nominate", 3)]})
    t.vote({1: 3, 7: 3})
    assert t.game.team_alive == [1, 1, 0]  # one town player, one mafia member
    return t


def test_forum_w1_the_mafia_need_a_clear_majority():
    """FORUM-W1: «до явного численного преимущества мафии»: 1 against 1 is not enough."""
    t = forum_endgame()
    assert not t.game.over and t.game.day == 3
    t.night({7: [("night", 1), ("executor", 7)]})
    assert t.env.winner == "mafia" and t.game.team_alive == [0, 1, 0]


def test_forum_w1_the_parity_knob_ends_it_at_equal_numbers():
    t = forum_endgame(mafia_win="parity")
    assert t.env.winner == "mafia"
