"""CLUB rules as the seeds read again (issue 16): each rule as the seed states it, with
exact outcomes, and the other reading as a knob (this reading's tests of no one variant:
tests/rules/test_seed_reading_all_variants.py)."""

from __future__ import annotations

from mafia_env.engine.events import Cause, Ev
from mafia_env.narrate import narrate
from tests.rules.club.test_club import DEAL as CLUB_DEAL
from tests.scripting import Table


def test_club_e1_the_nomination_round_announces_in_crossing_order():
    """CLUB-E1: the nominees in the order in which they crossed the count: 7, 5, 2."""
    t = Table("club", CLUB_DEAL)
    t.speeches()
    t.naming({1: 5, 2: 5, 3: 7, 4: 7, 5: 7, 6: 5, 7: 2, 8: 2, 9: 2, 10: 1})
    t.speeches()  # the monologues, in that order
    assert "The vote: players 7, 5, 2 are nominated, in this order." in narrate(t.game.events)


# --------------------------------------------------------------------- CLUB-E3


def club_revote(**knobs) -> list[int]:
    """CLUB: 7, 5 and 2 nominated; 7 and 5 tie 3:3; return who votes in the re-vote (the
    nominees' votes kept out, knob nominee_votes: CLUB-E8 gives them to the last nominee)."""
    t = Table("club", CLUB_DEAL, **{"nominee_votes": "none", **knobs})
    t.speeches()
    t.naming({1: 5, 2: 5, 3: 7, 4: 7, 5: 7, 6: 5, 7: 2, 8: 2, 9: 2, 10: 1})
    t.speeches()  # the monologues
    first = {1: 7, 3: 7, 4: 5, 6: 5, 8: 7, 9: 5, 10: 2}  # 7: 3, 5: 3, 2: 1
    while len(t.events(Ev.VOTING)) == 1:
        t.act(t.actor, "vote", first[t.actor])
    assert t.events(Ev.TIE)[-1][3] == (1 << 6) | (1 << 4)
    voters = []
    while t.phase == "vote":
        voters.append(t.actor)
        t.act(t.actor, "vote", 7)
    assert t.left() == [(7, Cause.VOTE)]
    return voters


def test_club_e3_a_nominee_never_votes_that_day_not_even_in_the_revote():
    """CLUB-E3: «игроки, выдвинутые на голосование, не имеют права голосовать»: nominee 2, not
    in the 7-5 tie, stays out of the re-vote too."""
    assert club_revote(vote_count="hidden") == [
        1,
        3,
        4,
        6,
        8,
        9,
        10,
    ]  # (CLUB-E7: a knob)  # 2, 5 and 7 never vote today


def test_club_e3_the_other_reading_lets_a_nominee_vote_where_he_does_not_stand():
    assert club_revote(nominee_ban="ballot", vote_count="hidden") == [1, 2, 3, 4, 6, 8, 9, 10]
