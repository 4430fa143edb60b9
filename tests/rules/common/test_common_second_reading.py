"""COMMON rules as the seeds read a second time (issue 25): each rule as the seed states it, with
exact outcomes, and the other reading as a knob (this reading's tests of no one variant:
tests/rules/test_second_reading_all_variants.py)."""

from __future__ import annotations

from mafia_env.variants import get_variant
from tests.scripting import Table


def test_common_4_the_mafia_win_at_parity_only_once_the_maniac_is_dead():
    """COMMON-4: mafia alive >= all others alive and the maniac dead (CITY: no source rule)."""
    t = Table(
        "city", ["sheriff", "civilian", "putana", "mafia", "civilian", "don", "civilian", "maniac"]
    )
    t.speeches({1: [("nominate", 1)]})
    t.vote({s: 1 for s in t.alive if s != 1})
    t.speeches()
    t.night({3: 5, 4: 2, 6: 2, 8: 5})  # the mafia's 2 and the maniac's 5
    assert t.game.team_alive == [2, 2, 1] and not t.game.over  # parity, but the maniac lives
    assert get_variant("city").mafia_win_maniac == "dead"
