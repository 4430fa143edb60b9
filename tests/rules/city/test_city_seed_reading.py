"""CITY rules as the seeds read again (issue 16): each rule as the seed states it, with
exact outcomes, and the other reading as a knob (this reading's tests of no one variant:
tests/rules/test_seed_reading_all_variants.py)."""

from __future__ import annotations

from mafia_env.engine.events import Cause
from mafia_env.narrate import ALL, narrate
from tests.rules.city.test_city import DEAL13
from tests.scripting import Table

# --------------------------------------------------------------------- CITY-N7


def test_city_n7_the_doctor_saves_from_the_mafias_shot_only():
    """CITY-N7: «спасти от «выстрела» Мафии»: a heal on the maniac's victim saves nobody."""
    t = Table("city", DEAL13)
    t.speeches()
    t.night({3: 2, 4: 5, 8: 5, 12: 5, 6: 5, 11: 7, 9: 7})  # heal 7, whom the maniac shoots
    assert t.left() == [(5, Cause.MAFIA), (7, Cause.MANIAC)]
    t2 = Table("city", DEAL13)
    t2.speeches()
    t2.night({3: 2, 4: 5, 8: 5, 12: 5, 6: 5, 11: 5, 9: 7})  # heal the mafia's victim
    assert t2.left() == [(7, Cause.NIGHT)]


def test_city_n7_the_other_reading_heals_the_maniacs_shot_too():
    t = Table("city", DEAL13, heal_against="all")
    t.speeches()
    t.night({3: 2, 4: 5, 8: 5, 12: 5, 6: 5, 11: 7, 9: 7})
    assert t.left() == [(5, Cause.NIGHT)]


# ---------------------------------------------------------------------- words


def test_city_n6_the_sheriffs_check_on_the_maniac_reads_not_mafia():
    """CITY-N6: «нет, это не Мафия»: the maniac is not town, so never "red"."""
    t = Table("city", DEAL13)
    t.speeches()
    t.night({3: 2, 4: 5, 8: 5, 12: 5, 6: 5, 1: 9})  # the sheriff checks the maniac
    lines = narrate(t.game.events, 0)
    assert "Player 1, player 9 is not mafia." in lines
    assert not any("red" in line for line in lines)


def test_city_n2_a_blocked_don_is_told_he_cannot_check_but_his_shot_counts():
    """CITY-N2: the putana's block stops the don's check, not the mafia's shot."""
    t = Table("city", DEAL13)
    t.speeches()
    t.night({3: 6, 4: 5, 8: 5, 12: 5, 6: 5})
    assert (5, Cause.MAFIA) in t.left() or t.left() == [(5, Cause.NIGHT)]
    lines = narrate(t.game.events, 5)
    assert (
        "Player 6, the putana is with you tonight: you cannot check; your choice of victim "
        "still counts." in lines
    )


def test_city_m1_one_morning_announcement_for_two_victims():
    """CITY-M1: a night with two victims is announced after one "Morning", not two."""
    t = Table("city", DEAL13, night_announce="plain")
    t.speeches()
    t.night({3: 2, 4: 5, 8: 5, 12: 5, 6: 5, 9: 7})
    assert len(t.left()) == 2
    lines = narrate(t.game.events, ALL)
    assert sum(line.startswith("Morning") for line in lines) == 1
    assert sum("Наступает утро" in line for line in narrate(t.game.events, ALL, "ru")) == 1
