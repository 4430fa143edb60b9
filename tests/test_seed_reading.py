"""The seeds read again (issue 16): each rule as the seed states it, with exact outcomes, and
the other reading where the seed can be read two ways, as a knob."""

from __future__ import annotations

import pytest

import mafia_env
from mafia_env.engine.events import Cause, Ev, Spared, seat_sequence
from mafia_env.engine.roles import Role
from mafia_env.errors import IllegalActionError, MafiaError
from mafia_env.narrate import ALL, narrate
from tests.scripting import SPORT_DEAL, Table
from tests.test_city import DEAL13
from tests.test_club import DEAL as CLUB_DEAL
from tests.test_forum import DEAL as FORUM_DEAL
from tests.test_online import DEAL as ONLINE_DEAL

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


# --------------------------------------------------------------------- SPORT-F2


def test_sport_f2_the_moderator_removes_a_player_at_once_without_a_last_word():
    """SPORT-F2: «незамедлительно удаляется из игры без права последнего слова»."""
    t = Table("sport", SPORT_DEAL)
    t.speeches()
    t.to("mafia_kill", 4)
    t.env.unwrapped.remove("player_3")
    assert t.left() == [(3, Cause.REMOVED)]
    assert "Player 3 is removed from the game by the moderator, without a last word." in (
        narrate(t.game.events)
    )
    assert t.obs(1)["eliminated"][2, Cause.FOUL] == 1  # a removal reads as one for fouls
    t.night({4: 10, 6: 10, 8: 10})
    assert [s for p, s in [(t.phase, t.actor)]] == [10]  # the night victim's last word
    record = t.env.record()
    assert [3, "remove"] in record["moves"]
    again = mafia_env.replay(record)
    assert again.game.events == t.game.events


def test_sport_f2_removing_the_speaker_ends_his_speech():
    t = Table("sport", SPORT_DEAL)
    assert (t.phase, t.actor) == ("speech", 1)
    t.env.unwrapped.remove("player_1")
    assert (t.phase, t.actor) == ("speech", 2) and t.left() == [(1, Cause.REMOVED)]
    with pytest.raises(MafiaError, match="already left"):
        t.env.unwrapped.remove("player_1")
    t.speeches({2: [("nominate", 3)]})  # a single nominee on day 1: no vote
    t.night({4: 4, 6: 4, 8: 4})  # the mafia shoot one of their own (SPORT-N1)
    assert t.left() == [(1, Cause.REMOVED), (4, Cause.NIGHT)]


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
