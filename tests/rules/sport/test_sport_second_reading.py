"""SPORT rules as the seeds read a second time (issue 25): each rule as the seed states it, with
exact outcomes, and the other reading as a knob (this reading's tests of no one variant:
tests/rules/test_second_reading_all_variants.py)."""

from __future__ import annotations

import mafia_env
from mafia_env.engine.events import Ev
from mafia_env.engine.game import Turn
from mafia_env.variants import get_variant
from tests.rules.second_reading_tables import sport_crash
from tests.scripting import SPORT_DEAL, Table


def test_sport_f3_a_fourth_foul_before_the_last_word_takes_it():
    """SPORT-F3: «За четвёртое замечание игрок незамедлительно удаляется из игры без права
    последнего слова»: 3, voted out in the car crash, gets his fourth foul while 2 speaks; he
    loses his last word, and the turn after 2's is not his."""
    t = sport_crash()
    for _ in range(4):
        t.env.foul("player_3")
    assert (t.phase, t.actor) == ("last_word", 2)
    assert [(e[2] + 1, e[3]) for e in t.events(Ev.SILENCED)] == [(3, Turn.LAST_WORD)]
    t.act(2, "pass")
    assert (t.phase, t.actor) == ("mafia_kill", 4)
    assert "Player 3 loses his last word for fouls." in t.public_log()


def test_sport_f3_the_other_reading_keeps_the_last_word():
    t = sport_crash(fouls_take_last_word=False)
    for _ in range(4):
        t.env.foul("player_3")
    t.act(2, "pass")
    assert (t.phase, t.actor) == ("last_word", 3)


def test_sport_f1_three_fouls_leave_the_car_crash_speech_and_the_last_word():
    """SPORT-F1: three fouls take the next day speech, not the 30 seconds of a car crash (the
    tied players' speech) and not the last word."""
    t = Table("sport", SPORT_DEAL)
    for _ in range(3):
        t.env.foul("player_3")
    t.speeches()
    t.night({})  # a miss
    t.speeches({1: [("nominate", 2)], 4: [("nominate", 3)]})
    assert [(e[2] + 1, e[3]) for e in t.events(Ev.SILENCED)] == [(3, -1)]  # no day speech
    split = {1: 2, 4: 2, 5: 2, 6: 2, 7: 2, 2: 3, 3: 3, 8: 3, 9: 3, 10: 3}
    t.vote(split)  # 4 nominated 3 before 1 nominated 2 (day 2 begins at seat 2)
    assert (t.phase, t.actor) == ("tie_speech", 3)  # his short speech in the car crash
    t.act(3, "pass")
    t.act(2, "pass")
    t.vote(split)
    t.vote(dict.fromkeys(range(1, 11), True))
    assert (t.phase, t.actor) == ("last_word", 3)  # and his last word


# ---------------------------------------------------------------- SPORT roles


def test_sport_roles_the_role_table_is_marked_a_default():
    """SPORT roles: the seed gives no table size or role counts: the variant file marks the
    role table as our default, as every variant's."""
    assert get_variant("sport").role_table == "default"
    assert {v.role_table for v in mafia_env.VARIANTS.values()} == {"default"}
