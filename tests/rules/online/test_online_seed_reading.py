"""ONLINE rules as the seeds read again (issue 16): each rule as the seed states it, with
exact outcomes, and the other reading as a knob (this reading's tests of no one variant:
tests/rules/test_seed_reading_all_variants.py)."""

from __future__ import annotations

from mafia_env.engine.events import Cause, Ev, Spared, seat_sequence
from mafia_env.engine.roles import Role
from mafia_env.narrate import narrate
from tests.rules.online.test_online import DEAL as ONLINE_DEAL
from tests.scripting import Table

# ----------------------------------------------------------------- ONLINE-N1


def test_online_n1_the_don_may_introduce_himself_on_the_zero_night():
    """ONLINE-N1: the mafia meet on the zero night; the don may introduce himself there, nobody
    is shot, and day 1 follows."""
    t = Table("online", ONLINE_DEAL, skip_zero_night=False)
    assert (t.phase, t.actor, t.game.day) == ("mafia_kill", 6, 0)
    assert t.mask_kinds() == {"pass", "reveal_don"}  # no shot on the zero night
    t.act(6, "reveal_don")
    intro = t.events(Ev.DON_INTRODUCED)
    assert [(e[1] + 1, e[4]) for e in intro] == [(6, (1 << 2) | (1 << 5) | (1 << 7))]
    assert t.mask_kinds() == {"pass"}
    t.act(6, "pass")
    assert (t.phase, t.actor, t.game.day) == ("speech", 1, 1)
    assert not t.events(Ev.SHOT) and not t.events(Ev.MISS) and t.alive == set(range(1, 11))
    assert t.obs(3)["known_roles"][5, t.env.unwrapped.rules.roles_in_play().index(Role.DON)] == 1
    assert t.events(Ev.NIGHT)[0][3] == 0


def test_online_n1_without_the_knob_the_zero_night_is_silent():
    t = Table("online", ONLINE_DEAL, zero_night_don=False)
    assert (t.phase, t.actor, t.game.day) == ("speech", 1, 1)


def test_online_n1_a_don_who_keeps_quiet_stays_unknown():
    t = Table("online", ONLINE_DEAL, skip_zero_night=False)
    t.act(6, "pass")
    assert not t.events(Ev.DON_INTRODUCED) and t.phase == "speech"
    assert t.obs(3)["known_roles"][5, t.env.unwrapped.rules.roles_in_play().index(Role.DON)] == 0


# ------------------------------------------------------- ONLINE-V1, CLUB-E1: the order


def test_online_v1_nominees_are_announced_in_the_order_of_nomination():
    """ONLINE-V1: «Кандидати оголошуються в порядку виставлення»: 8 nominated before 7."""
    t = Table("online", ONLINE_DEAL, zero_night_don=False)
    t.speeches({1: [("nominate", 8)], 2: [("nominate", 7)]})
    voting = t.events(Ev.VOTING)[-1]
    assert seat_sequence(voting[3]) == [7, 6]
    log = narrate(t.game.events, None, "en")
    assert "The vote: players 8, 7 are nominated, in this order." in log
    assert "Голосование. На голосование выставлены игроки 8, 7, в этом порядке." in narrate(
        t.game.events, None, "ru"
    )
    assert "Голосування. На голосування виставлені гравці 8, 7, у цьому порядку." in narrate(
        t.game.events, None, "uk"
    )
    text = t.env.unwrapped.text_observer.story(t.game, 0)
    assert "players 8, 7 are nominated" in text


# ------------------------------------------------------------------ ONLINE-V4


def test_online_v4_zero_to_zero_is_a_tie_debate_revote_then_all_leave():
    """ONLINE-V4, V5: «Кандидати з однаковою найбільшою кількістю голосів проходять дебати»:
    two nominees without a vote tie; a second 0:0 sends both out."""
    t = Table("online", ONLINE_DEAL, zero_night_don=False, vote_count="hidden")
    t.speeches({1: [("nominate", 4)], 2: [("nominate", 7)]})
    t.vote({})  # everyone abstains (ONLINE-V1)
    assert t.events(Ev.TIE)[-1][3] == (1 << 3) | (1 << 6)
    assert (t.phase, t.actor) == ("tie_speech", 4)
    t.speeches()
    assert t.phase == "vote"
    t.vote({})
    assert t.left() == [(4, Cause.VOTE), (7, Cause.VOTE)]


def test_online_v4_the_spare_knob_keeps_the_old_reading():
    t = Table("online", ONLINE_DEAL, zero_night_don=False, zero_votes="spare")
    t.speeches({1: [("nominate", 4)], 2: [("nominate", 7)]})
    t.vote({})
    assert [e[3] for e in t.events(Ev.SPARED)] == [Spared.NO_VOTES] and t.phase == "mafia_kill"
