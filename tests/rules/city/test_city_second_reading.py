"""CITY rules as the seeds read a second time (issue 25): each rule as the seed states it, with
exact outcomes, and the other reading as a knob (this reading's tests of no one variant:
tests/rules/test_second_reading_all_variants.py)."""

from __future__ import annotations

from mafia_env.engine.events import Cause, Ev
from mafia_env.engine.roles import Role
from mafia_env.lang import say
from mafia_env.narrate import narrate
from tests.rules.city.test_city import DEAL as CITY_DEAL
from tests.scripting import Table

# -------------------------------------------------------------------- CITY-M2


def test_city_m2_the_companion_is_one_more_victim_with_no_reason():
    """CITY-M2: «Ведущий не озвучивает роли игроков, которые покидают игру»: the mafia shoot
    the putana, the maniac 10; her companion 7 is announced as one more victim, last, and no
    line says a putana was among the dead."""
    t = Table("city", CITY_DEAL)
    t.speeches()
    t.night({3: 7, 4: 3, 8: 3, 6: 3, 9: 10})
    assert t.left() == [(3, Cause.MAFIA), (10, Cause.MANIAC), (7, Cause.NIGHT)]
    morning = t.public_log().split("Morning comes.")[1]
    assert "putana" not in morning
    assert "Player 7 was killed in the night." in morning
    ru = "\n".join(narrate(t.game.events, None, "ru")).split("Наступает утро.")[1]
    assert "путан" not in ru
    eliminated = t.obs(1)["eliminated"]
    assert eliminated[6, Cause.NIGHT] == 1 and eliminated[:, Cause.COMPANION].sum() == 0


def test_city_m2_the_earlier_reading_names_the_reason():
    t = Table("city", CITY_DEAL, companion_reason=True)
    t.speeches()
    t.night({3: 7, 4: 3, 8: 3, 6: 3, 9: 10})
    assert t.left() == [(3, Cause.MAFIA), (7, Cause.COMPANION), (10, Cause.MANIAC)]
    assert "spent the night with the putana" in t.public_log()


def test_city_m1_only_the_maniacs_role_is_voiced_at_morning():
    """CITY-M1: the moderator voices no role of the dead but the maniac's."""
    t = Table("city", CITY_DEAL)
    t.speeches()
    t.night({3: 7, 4: 3, 8: 3, 6: 3, 9: 10})
    t.speeches({1: [("nominate", 9)]})
    t.vote({s: 9 for s in t.alive if s != 9})
    assert [(e[2] + 1, e[3]) for e in t.events(Ev.REVEAL)] == [(9, Role.MANIAC)]
    said = " ".join(say(e) for e in t.game.events if e[0] in (Ev.REVEAL, Ev.ELIMINATED))
    assert [r for r in ("civilian", "sheriff", "putana", "don", "maniac") if r in said] == [
        "maniac"
    ]
