"""Scripted tables of the seeds' second reading (issue 25), shared by the variants' tests
of that reading and its golden narration (tests/rules/test_second_reading_all_variants.py)."""

from __future__ import annotations

from mafia_env.engine.events import Cause, Ev
from tests.rules.club.test_club import DEAL as CLUB_DEAL
from tests.rules.club.test_club import NAMES as CLUB_NAMES
from tests.rules.forum.test_forum import DEAL as FORUM_DEAL
from tests.rules.online.test_online import DEAL as ONLINE_DEAL
from tests.scripting import SPORT_DEAL, Table


def bits(*seats: int) -> int:
    """Return the bitmask of 1-based seats."""
    return sum(1 << (s - 1) for s in seats)


def counts(t: Table) -> list[tuple[int, int]]:
    """Return the open counts so far: (nominee 1-based, bitmask of who voted for him)."""
    return [(e[2] + 1, e[3]) for e in t.events(Ev.COUNT)]


# ------------------------------------------------------------------ CLUB-E7


def club_vote(**knobs) -> Table:
    """CLUB: 7, 5 and 2 nominated (CLUB-E1), the monologues said: the vote is next (the
    nominees' votes kept out, as the second reading had them: knob nominee_votes; CLUB-E8
    gives them to the last nominee, tests/rules/club/test_club.py)."""
    t = Table("club", CLUB_DEAL, **{"nominee_votes": "none", **knobs})
    t.speeches()
    t.naming(CLUB_NAMES)
    t.speeches()
    return t


# ----------------------------------------------------------------- ONLINE-V7


def online_vote(**knobs) -> Table:
    """ONLINE: 8 nominated, then 4; the vote is next."""
    t = Table("online", ONLINE_DEAL, **knobs)
    t.speeches({1: [("nominate", 8)], 2: [("nominate", 4)]})
    return t


# --------------------------------------------------------- SPORT-F3, ONLINE-F1


def sport_crash(**knobs) -> Table:
    """SPORT: 2 and 3 tie twice; the car crash removes both; 2's last word is under way."""
    t = Table("sport", SPORT_DEAL, **knobs)
    t.speeches({1: [("nominate", 2)], 4: [("nominate", 3)]})
    split = {1: 2, 4: 2, 5: 2, 6: 2, 7: 2, 2: 3, 3: 3, 8: 3, 9: 3, 10: 3}
    t.vote(split)
    t.speeches()
    t.vote(split)
    t.vote(dict.fromkeys(range(1, 11), True))  # the car crash: yes
    assert t.left() == [(2, Cause.VOTE), (3, Cause.VOTE)]
    assert (t.phase, t.actor) == ("last_word", 2)
    return t


# ------------------------------------------------------------------- FORUM-M1


def forum_hunt(target: int, status: str, **knobs) -> Table:
    t = Table("forum", FORUM_DEAL, **knobs)
    t.speeches()
    t.night({2: ("hunt", target, status)})
    return t
