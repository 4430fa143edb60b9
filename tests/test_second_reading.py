"""The seeds read a second time (issue 25): open vote counts, the mafia awake together, fouls
before a last word, FORUM's win and morning, CITY's third victim, ONLINE's doctor. Each rule as
the seed states it, with exact outcomes, and the other reading as a knob."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import mafia_env
from mafia_env.engine.events import PUBLIC, Cause, Ev, seat_sequence
from mafia_env.engine.game import Turn
from mafia_env.engine.roles import Role
from mafia_env.engine.rules import earlier_rules
from mafia_env.lang import say
from mafia_env.narrate import narrate
from mafia_env.records import FORMAT
from mafia_env.variants import get_variant
from tests.scripting import SPORT_DEAL, Table
from tests.test_city import DEAL as CITY_DEAL
from tests.test_club import DEAL as CLUB_DEAL
from tests.test_club import NAMES as CLUB_NAMES
from tests.test_forum import DEAL as FORUM_DEAL
from tests.test_online import DEAL as ONLINE_DEAL


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
    gives them to the last nominee, tests/test_club.py)."""
    t = Table("club", CLUB_DEAL, **{"nominee_votes": "none", **knobs})
    t.speeches()
    t.naming(CLUB_NAMES)
    t.speeches()
    return t


def test_club_e7_the_votes_are_counted_nominee_by_nominee_in_the_open():
    """CLUB-E7: «ведущий игр называет имена игроков, в соответствии с порядком их выдвижения и
    считает до трёх; на счёт три ... подсчитывает руки»: 7's count, then 5's, then 2's; a voter
    who raised his hand has no turn in a later count; a vote not given goes to the last nominee
    (CLUB-E3), and nominees never vote."""
    t = club_vote()
    assert seat_sequence(t.events(Ev.VOTING)[-1][3]) == [6, 4, 1]
    assert t.phase == "open_vote" and t.counted == 7
    turns = []
    plan = {1: 7, 3: 7, 4: 5, 6: 5, 8: 5, 9: 2}  # 10 never raises his hand
    while t.phase == "open_vote":
        turns.append((t.counted, t.actor))
        assert t.legal_targets("vote") == {t.counted} and t.mask_kinds() == {"pass", "vote"}
        if plan.get(t.actor) == t.counted:
            t.act(t.actor, "vote", t.counted)
        else:
            t.act(t.actor, "pass")
    voters = [1, 3, 4, 6, 8, 9, 10]
    assert turns == [(7, s) for s in voters] + [(5, s) for s in voters[2:]] + [(2, 9), (2, 10)]
    assert counts(t) == [(7, bits(1, 3)), (5, bits(4, 6, 8)), (2, bits(9))]
    silent = [(e[1] + 1, e[2] + 1, e[3]) for e in t.events(Ev.BALLOT)]
    assert silent == [(10, 2, 1)]  # CLUB-E3: his vote goes to the last nominee
    assert t.left() == [(5, Cause.VOTE)]  # 3 votes against 2 and 2 (7 and 2)
    log = t.public_log()
    assert "Votes for player 7: players 1 and 3." in log
    assert "Votes for player 5: players 4, 6 and 8." in log
    assert "Votes for player 2: player 9." in log
    assert "Player 10 did not vote: the vote goes to player 2, the last nominee." in log
    ru = "\n".join(narrate(t.game.events, None, "ru"))
    assert "Против игрока 7 проголосовали игроки 1 и 3." in ru
    uk = "\n".join(narrate(t.game.events, None, "uk"))
    assert "Проти гравця 5 проголосували гравці 4, 6 і 8." in uk


def test_club_e7_each_count_is_public_before_the_next_and_hidden_while_it_runs():
    """CLUB-E7, COMMON-8: the hands for one nominee are hidden from the other voters until his
    count ends; then everyone sees who voted for him, before the next count begins."""
    t = club_vote()
    t.act(1, "vote", 7)
    obs3 = t.obs(3)
    assert obs3["votes"].sum() == 0 and obs3["counting"][6] == 1  # 1's hand: not yet public
    for seat in (3, 4, 6, 8, 9, 10):
        t.act(seat, "pass")
    assert t.counted == 5 and t.actor == 3
    for seat in (2, 3, 7):  # a nominee, the voter now, a civilian: the same public facts
        o = t.obs(seat)
        assert o["votes"][0, 6] == 1 and o["votes"].sum() == 1
        assert o["counting"][4] == 1 and o["counting"].sum() == 1
    assert [line for line in t.public_log().splitlines() if line.startswith("Votes")] == [
        "Votes for player 7: player 1."
    ]


def test_club_e7_a_round_of_the_parallel_view_is_one_nominees_count():
    """CLUB-E7, COMMON-8: a nominee's count is one simultaneous round: every voter who has not
    voted yet chooses at once; the next nominee's count is the next round."""
    env = mafia_env.parallel_env("club", 10, roles=CLUB_DEAL)
    env.reset(seed=0)
    game = env.aec.game
    script = club_vote()  # the same game in the AEC view: its moves up to the vote
    for seat, act, target, value, *_ in script.game.inputs:
        env.step({env.possible_agents[seat]: env.aec.layout.encode(act, target, value)})
    assert game.turn is Turn.OPEN_VOTE
    voters = ["player_1", "player_3", "player_4", "player_6", "player_8", "player_9", "player_10"]
    assert env.acting == voters
    vote7, wait = env.action_id("vote", 7), env.action_id("pass")
    env.step({a: vote7 if a in ("player_1", "player_3") else wait for a in voters})
    assert counts_of(game) == [(7, bits(1, 3))]
    assert env.acting == voters[2:]


def counts_of(game) -> list[tuple[int, int]]:
    return [(e[2] + 1, e[3]) for e in game.events if e[0] == Ev.COUNT]


def test_club_e7_the_hidden_ballot_is_a_knob():
    """CLUB-E7: knob vote_count="hidden" keeps one hidden ballot, public when complete."""
    t = club_vote(vote_count="hidden")
    assert t.phase == "vote" and t.legal_targets("vote") == {2, 5, 7}
    t.vote({1: 7, 3: 7, 4: 5, 6: 5, 8: 5, 9: 2})
    assert t.left() == [(5, Cause.VOTE)] and counts(t) == []
    assert len(t.events(Ev.BALLOT)) == 7


def test_club_e7_is_from_the_source_and_sport_keeps_the_hidden_ballot_as_default():
    """CLUB-E7, ONLINE-V7 are the seeds'; SPORT's seed does not describe the vote."""
    for name in ("club", "online"):
        rules = get_variant(name)
        assert rules.vote_count == "open" and "vote_count" not in rules.defaults
    for name in ("sport", "city", "forum", "minimal"):
        rules = get_variant(name)
        assert rules.vote_count == "hidden" and "vote_count" in rules.defaults


def test_club_e7_a_tie_recounts_the_tied_in_the_open():
    """CLUB-E5, E7: 7 and 5 tie 3:3; the re-vote among them is counted in the open too."""
    t = club_vote()
    first = {1: 7, 3: 7, 8: 7, 4: 5, 6: 5, 9: 5, 10: 2}
    while not t.events(Ev.TIE):
        t.act(t.actor, "vote", t.counted) if first[t.actor] == t.counted else t.act(t.actor, "pass")
    assert t.events(Ev.TIE)[-1][3] == bits(7, 5)
    assert t.phase == "open_vote" and t.counted == 7
    t.vote({1: 7, 3: 7, 8: 7, 4: 7})
    assert counts(t)[-2:] == [(7, bits(1, 3, 4, 8)), (5, 0)]
    assert t.left() == [(7, Cause.VOTE)]  # 4 against 3 (the silent votes go to 5)


# ----------------------------------------------------------------- ONLINE-V7


def online_vote(**knobs) -> Table:
    """ONLINE: 8 nominated, then 4; the vote is next."""
    t = Table("online", ONLINE_DEAL, **knobs)
    t.speeches({1: [("nominate", 8)], 2: [("nominate", 4)]})
    return t


def test_online_v7_each_candidate_is_counted_in_turn_and_a_voter_may_abstain():
    """ONLINE-V7: «Кандидати оголошуються в порядку виставлення. Для кожного — відлік 3, 2, 1 і
    підрахунок голосів»: 8's count, then 4's; anyone may vote for himself (ONLINE-V1); who
    votes for neither abstains."""
    t = online_vote()
    assert t.phase == "open_vote" and t.counted == 8
    t.vote({1: 8, 2: 8, 5: 8, 3: 4, 4: 4, 6: 4, 8: 4})
    assert counts(t) == [(8, bits(1, 2, 5)), (4, bits(3, 4, 6, 8))]
    abstained = [(e[1] + 1, e[2]) for e in t.events(Ev.BALLOT)]
    assert abstained == [(7, -1), (9, -1), (10, -1)]
    assert t.left() == [(4, Cause.VOTE)] and (t.phase, t.actor) == ("last_word", 4)
    assert "Votes for player 4: players 3, 4, 6 and 8." in t.public_log()


def test_online_v7_a_lone_candidate_still_needs_a_strict_majority():
    """ONLINE-V2, V7: one candidate, counted in the open; 5 of 10 others are not enough."""
    t = Table("online", ONLINE_DEAL)
    t.speeches({1: [("nominate", 4)]})
    t.vote({1: 4, 2: 4, 3: 4, 5: 4, 6: 4, 4: 4})
    assert counts(t) == [(4, bits(1, 2, 3, 4, 5, 6))] and t.left() == []
    t2 = Table("online", ONLINE_DEAL)
    t2.speeches({1: [("nominate", 4)]})
    t2.vote({1: 4, 2: 4, 3: 4, 5: 4, 6: 4, 7: 4})
    assert t2.left() == [(4, Cause.VOTE)]


def test_online_v7_a_tie_debates_then_recounts_in_the_open():
    """ONLINE-V4, V7: 2:2, the debate, then a re-vote among the tied, counted in the open."""
    t = online_vote()
    t.vote({1: 8, 2: 8, 3: 4, 6: 4})
    assert t.events(Ev.TIE)[-1][3] == bits(8, 4) and t.phase == "tie_speech"
    t.speeches()
    assert t.phase == "open_vote" and t.counted == 8
    t.vote({1: 8, 2: 8, 5: 8})
    assert counts(t)[-2:] == [(8, bits(1, 2, 5)), (4, 0)] and t.left() == [(8, Cause.VOTE)]


def test_online_v7_voters_see_the_earlier_counts_in_the_vector_and_in_words():
    """ONLINE-V7: a voter sees each earlier candidate's count, and who voted, before the next
    countdown: in his vector (votes, counting) and his text observation."""
    t = online_vote()
    for seat in range(1, 11):
        t.act(seat, "vote", 8) if seat in (1, 2) else t.act(seat, "pass")
    assert t.counted == 4 and t.actor == 3
    o = t.obs(3)
    assert o["votes"][0, 7] == 1 and o["votes"][1, 7] == 1 and o["votes"].sum() == 2
    assert o["counting"][3] == 1 and o["candidates"][[7, 3]].tolist() == [1, 1]
    text = mafia_env.env("online", 10, roles=ONLINE_DEAL, obs_mode="text")
    text.reset(seed=0)
    for _, act, target, value, *_ in t.game.inputs:
        text.step(text.unwrapped.layout.encode(act, target, value))
    words = text.observe("player_3")["observation"]
    assert "Votes for player 8: players 1 and 2." in words
    assert "Raise your hand for player 4." in words and "Keep your hand down." in words


# ------------------------------------------------------------ CLUB-N4, ONLINE-N8


def test_club_n4_the_mafia_point_together_and_see_each_other():
    """CLUB-N4: «просыпаются вместе и должны одновременно показать»: each member sees where
    the others point; nobody else does."""
    t = Table("club", CLUB_DEAL)
    t.speeches()
    t.naming({s: 4 if s != 4 else 5 for s in range(1, 11)})
    t.speeches()
    t.vote({})
    assert t.phase == "mafia_kill" and t.actor == 3
    t.act(3, "night", 5)
    shot = t.events(Ev.SHOT)[-1]
    assert shot[4] == bits(3, 6, 9)
    assert t.obs(6)["team_shots"][2, 4] == 1 and t.obs(9)["team_shots"][2, 4] == 1
    assert t.obs(1)["team_shots"].sum() == 0 and t.obs(2)["team_shots"].sum() == 0
    assert "Player 3 shoots at player 5." in narrate(t.game.events, 5)
    assert "Player 3 shoots at player 5." not in narrate(t.game.events, 0)
    # a shot the teammates watch is no simultaneous choice: a round of one
    assert t.game.pending_round() == [(5, Turn.MAFIA_KILL)]


def test_club_n4_and_online_n8_are_the_seeds_and_blind_shots_are_a_knob():
    """CLUB-N4, ONLINE-N8: the variant files mark the shared night as the source's."""
    for name in ("club", "online", "city"):
        rules = get_variant(name)
        assert rules.mafia_see_shots and "mafia_see_shots" not in rules.defaults
    t = Table("club", CLUB_DEAL, mafia_see_shots=False)
    t.speeches()
    t.naming({s: 4 if s != 4 else 5 for s in range(1, 11)})
    t.speeches()
    t.vote({})
    t.act(3, "night", 5)
    assert t.events(Ev.SHOT)[-1][4] == bits(3)
    assert t.game.pending_round() == [(5, Turn.MAFIA_KILL), (8, Turn.MAFIA_KILL)]


def test_online_n8_the_mafia_see_each_others_choice_at_night():
    """ONLINE-N8: «камери мафії бачать лише члени мафії»: 8 sees 3's and the don's choices."""
    t = Table("online", ONLINE_DEAL)
    t.speeches()
    assert (t.phase, t.actor) == ("mafia_kill", 3)
    t.act(3, "night", 5)
    t.act(6, "night", 7)
    assert t.obs(8)["team_shots"][2, 4] == 1 and t.obs(8)["team_shots"][5, 6] == 1
    assert t.obs(2)["team_shots"].sum() == 0
    assert t.game.pending_round() == [(7, Turn.MAFIA_KILL)]
    t.act(8, "night", 7)
    t.night({2: 1, 1: 9, 6: 9})
    assert t.left() == [] and t.events(Ev.MISS)  # 5, 7, 7: a miss (ONLINE-N4)


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


def online_both_leave(**knobs) -> Table:
    """ONLINE: 8 and 4 tie twice: both leave, with last words in nomination order."""
    t = online_vote(**knobs)
    t.vote({1: 8, 2: 8, 3: 4, 6: 4})
    t.speeches()
    t.vote({1: 8, 2: 8, 3: 4, 6: 4})
    assert t.left() == [(8, Cause.VOTE), (4, Cause.VOTE)]
    assert (t.phase, t.actor) == ("last_word", 8)
    return t


def test_online_f1_three_fouls_while_waiting_for_the_last_word_remove_it():
    """ONLINE-F1: «Три фоли — негайне вибуття без останнього слова», also for a player voted
    out who waits for his last word: 4's third foul comes while 8 speaks."""
    t = online_both_leave()
    for _ in range(3):
        t.env.foul("player_4")
    t.act(8, "pass")
    assert t.phase == "mafia_kill" and t.game.day == 1


def test_online_f1_the_other_reading_keeps_the_last_word():
    t = online_both_leave(fouls_take_last_word=False)
    for _ in range(3):
        t.env.foul("player_4")
    t.act(8, "pass")
    assert (t.phase, t.actor) == ("last_word", 4)


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


# ------------------------------------------------------------------- FORUM-M1


def forum_hunt(target: int, status: str, **knobs) -> Table:
    t = Table("forum", FORUM_DEAL, **knobs)
    t.speeches()
    t.night({2: ("hunt", target, status)})
    return t


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


# ------------------------------------------------------------------ ONLINE-N9


def online_night(shots: dict[int, int], heal: int, **knobs) -> Table:
    t = Table("online", ONLINE_DEAL, **knobs)
    t.speeches()
    t.night({**shots, 2: heal, 1: 9})
    return t


def test_online_n9_the_doctor_is_not_told_whether_his_heal_counted():
    """ONLINE-N9 (a reading): after "nobody died" the doctor cannot tell a miss from a save:
    his observations are the same; only whom he may heal next night differs."""
    miss = online_night({3: 5, 6: 5, 8: 4}, heal=5)  # the mafia disagree: the heal is unused
    save = online_night({3: 5, 6: 5, 8: 5}, heal=5)  # they shoot 5, the doctor saves him
    for t in (miss, save):
        assert t.left() == [] and t.events(Ev.MISS) and not t.events(Ev.HEAL_STATE)
    assert narrate(miss.game.events, 1) == narrate(save.game.events, 1)
    seen = [t.env.observe("player_2")["observation"] for t in (miss, save)]
    assert np.array_equal(*seen)
    assert miss.obs(2)["last_heal"][4] == 1  # his own last heal, as he remembers it
    for t in (miss, save):
        t.speeches()
        t.to("doctor", 2)
    assert 5 in miss.legal_targets("night") and 5 not in save.legal_targets("night")


def test_online_n9_the_other_reading_tells_him():
    miss = online_night({3: 5, 6: 5, 8: 4}, heal=5, heal_told=True)
    save = online_night({3: 5, 6: 5, 8: 5}, heal=5, heal_told=True)
    assert miss.obs(2)["last_heal"].sum() == 0 and save.obs(2)["last_heal"][4] == 1
    assert "Player 2, your last heal that counts: player 5; self-heals used: 0." in narrate(
        save.game.events, 1
    )


# ---------------------------------------------------------------- SPORT roles


def test_sport_roles_the_role_table_is_marked_a_default():
    """SPORT roles: the seed gives no table size or role counts: the variant file marks the
    role table as our default, as every variant's."""
    assert get_variant("sport").role_table == "default"
    assert {v.role_table for v in mafia_env.VARIANTS.values()} == {"default"}


# ------------------------------------------------------ earlier rules, records


def test_earlier_rules_of_era_2_give_the_rules_before_this_reading():
    """Records of format 2 and tasks of version 3 were played before issue 25."""
    for name in ("club", "online"):
        rules = get_variant(name).with_knobs(**earlier_rules(name, 2))
        assert rules.vote_count == "hidden" and not rules.mafia_see_shots
    era1 = earlier_rules("city", 1)
    assert era1["heal_against"] == "all" and era1["companion_reason"] is True
    from mafia_env.tasks import TASKS_V2, TASKS_V3

    assert TASKS_V3["club-10"].play_knobs()["vote_count"] == "hidden"
    assert TASKS_V2["club-10"].play_knobs()["nominee_ban"] == "ballot"


RECORDS_V2 = Path(__file__).parent / "records" / "v2"


@pytest.mark.parametrize("path", sorted(RECORDS_V2.glob("*.json")), ids=lambda p: p.stem)
def test_records_of_format_2_replay_under_the_rules_of_their_time(path):
    """Records written before issue 25 (format 2, made by the engine of that time) replay to
    the same events, checksum included, and again as format 3. Among them: a SPORT game where
    a player waiting for his last word reached the foul limit, an ONLINE night victim fouled
    out in his last word, a CLUB vote of three nominees, a FORUM hunt that killed a mafia
    member, a CITY putana's companion."""
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["format"] == 2
    env = mafia_env.replay(record)
    assert env.winner == record["winner"]
    again = mafia_env.replay(env.record())
    assert again.record()["format"] == FORMAT and again.game.events == env.game.events
    if path.stem.endswith("fouls-waiting"):  # the last word kept, as the engine then did
        lost = [e for e in env.game.events if e[0] == Ev.SILENCED and e[3] == Turn.LAST_WORD]
        assert not lost and not env.rules.fouls_take_last_word


# ------------------------------------------------------ random play, both readings


def other_reading(variant: str) -> dict:
    """Return this reading's knobs at the values other than `variant`'s (earlier_rules 2)."""
    rules = get_variant(variant)
    flip = {
        "vote_count": "hidden" if rules.vote_count == "open" else "open",
        "mafia_see_shots": not rules.mafia_see_shots,
        "fouls_take_last_word": not rules.fouls_take_last_word,
        "mafia_win_maniac": "dead" if rules.mafia_win_maniac == "counted" else "counted",
        "hunted_reveal": "none" if rules.hunted_reveal != "none" else "all",
        "companion_reason": not rules.companion_reason,
        "heal_told": not rules.heal_told,
    }
    if rules.fouls_remove == 0:  # the fouls' reading shows only where fouls remove
        flip["fouls_remove"] = 3
    return flip


def check_random_game(variant: str, seed: int, knobs: dict) -> None:
    """Play one game of random legal moves (with moderator fouls); check the open count's
    turns and events, the masks, and that the winner is the rules' (`winner`)."""
    env = mafia_env.raw_env(variant, **knobs)
    env.reset(seed=seed)
    game, rng = env.game, np.random.default_rng(seed)
    rules = game.rules
    steps = 0
    while not game.over:
        steps += 1
        if rules.fouls_remove and steps % 29 == 0:
            env.foul(env.possible_agents[int(rng.integers(env.n))])
            continue
        mask = env.observe(env.agent_selection)["action_mask"]
        legal = np.flatnonzero(mask)
        assert legal.size, (variant, seed, env.phase)
        if game.turn is Turn.OPEN_VOTE:
            v = game.vote
            assert rules.vote_count == "open" and game.actor in v.waiting
            counted = v.candidates[v.counted]
            assert set(legal.tolist()) == {
                env.action_id("pass"),
                env.action_id("vote", counted + 1),
            }
        assert game.turn is not Turn.VOTE or rules.vote_count == "hidden"
        env.step(int(rng.choice(legal)))
    voted: set[int] = set()
    order: list[int] = []
    for kind, actor, target, value, seen in game.events:
        if kind == Ev.VOTING:
            voted, order = set(), seat_sequence(value)
        elif kind == Ev.COUNT:  # in nomination order, each voter once a round
            assert rules.vote_count == "open" and seen == PUBLIC
            assert target == order.pop(0)
            hands = {s for s in range(game.n) if value >> s & 1}
            assert not hands & voted
            voted |= hands
        elif kind == Ev.BALLOT and rules.vote_count == "open":
            assert not order and actor not in voted  # the votes not given, after the count
            voted.add(actor)
        elif kind == Ev.SHOT and game.teams[actor] == game.teams[game.mafia_seats()[0]]:
            assert seen == (game.mafia_mask if rules.mafia_see_shots else 1 << actor)
        elif kind == Ev.HEAL_STATE:
            assert rules.heal_told
        elif kind == Ev.ELIMINATED and value == Cause.COMPANION:
            assert rules.companion_reason
    if not game.truncated and env.winner != "draw":
        assert game.winner == rules.winner(*game.team_alive)


@pytest.mark.parametrize("reading", ["seed", "other"])
@pytest.mark.parametrize("variant", sorted(mafia_env.VARIANTS))
def test_random_games_under_both_readings(variant, reading):
    """Random legal play, a few games per variant under the seed's and the other reading."""
    knobs = {} if reading == "seed" else other_reading(variant)
    for seed in range(3):
        check_random_game(variant, seed, knobs)


@pytest.mark.slow
@pytest.mark.parametrize("reading", ["seed", "other"])
@pytest.mark.parametrize("variant", sorted(mafia_env.VARIANTS))
def test_many_random_games_under_both_readings(variant, reading):
    """As above, many games (MAFIA_PLAYOUTS, default 50; 1000 a cell was run for issue 25)."""
    import os

    knobs = {} if reading == "seed" else other_reading(variant)
    for seed in range(3, 3 + int(os.environ.get("MAFIA_PLAYOUTS", "50"))):
        check_random_game(variant, seed, knobs)


# ------------------------------------------------ the bots of earlier rules, today


def test_rule_bots_play_the_rules_of_their_time_and_of_today():
    """The rule bot of a variant plays a game under today's rules (the open count, the
    shared night) and under the rules of version 3's tasks (era 2), whichever it is given."""
    from mafia_env.seating.policies import load_policy

    pytest.importorskip("baselines")
    for variant in ("club", "online"):
        bot = load_policy("rule", variant=variant, seed=1)
        for knobs in ({}, earlier_rules(variant, 2)):
            env = mafia_env.raw_env(variant, **knobs)
            env.reset(seed=4)
            while not env.game.over:
                o = env.observe(env.agent_selection)
                env.step(bot.act(o["observation"], o["action_mask"]))
            assert any(e[0] == Ev.COUNT for e in env.game.events) is (not knobs)


def test_shipped_checkpoints_of_club_and_online_load_and_play_both_rules():
    """The shipped CLUB and ONLINE files were trained before this reading: they load, play
    version 3's tasks (era 2) unchanged, and play today's rules reading the pieces they know."""
    pytest.importorskip("torch")
    from baselines.ppo.checkpoint import column_map
    from mafia_env.observe import ObsLayout
    from mafia_env.seating.policies import load_policy

    old = ObsLayout(get_variant("club").with_knobs(**earlier_rules("club", 2)), 10)
    new = ObsLayout(get_variant("club"), 10)
    cols = column_map(old, new)
    assert len(cols) == old.size and new.size - old.size == 10 * 10 + 10 + 10 + 1 + 1
    for variant in ("club", "online"):
        policy = load_policy("league", variant=variant, seed=1)
        for knobs in ({}, earlier_rules(variant, 2)):
            env = mafia_env.raw_env(variant, **knobs)
            env.reset(seed=2)
            while not env.game.over:
                o = env.observe(env.agent_selection)
                env.step(policy.act(o["observation"], o["action_mask"]))
        with pytest.raises(ValueError, match="reads observations of"):
            policy.act(np.zeros(7, np.float32), np.ones(74, np.int8))


# --------------------------------------------------------------- golden words

GOLDEN = Path(__file__).parent / "golden"


def second_reading_games() -> dict[str, Table]:
    """Short scripted games of this reading's rules, for their moderator's words."""
    club = club_vote()
    club.vote({1: 7, 3: 7, 4: 5, 6: 5, 8: 5, 9: 2})  # CLUB-E7, a silent vote (CLUB-E3)
    online = online_vote()
    online.vote({1: 8, 2: 8, 5: 8, 3: 4, 4: 4, 6: 4, 8: 4})  # ONLINE-V7, abstentions
    online.speeches()
    online.night({3: 5, 6: 5, 8: 5, 2: 5, 1: 9})  # ONLINE-N8, N9: the shots seen, a save
    sport = sport_crash()
    for _ in range(4):  # SPORT-F3
        sport.env.foul("player_3")
    sport.act(2, "pass")
    city = Table("city", CITY_DEAL)
    city.speeches()
    city.night({3: 7, 4: 3, 8: 3, 6: 3, 9: 10})  # CITY-M2
    return {
        "club": club,
        "online": online,
        "sport": sport,
        "city": city,
        "forum": forum_hunt(8, "mafia"),  # FORUM-M1
    }


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_golden_narration_of_the_second_reading(lang):
    """CLUB-E7, ONLINE-V7, ONLINE-N8, ONLINE-N9, SPORT-F3, CITY-M2, FORUM-M1 in the
    moderator's words (every event, as the moderator saw it), stored under tests/golden/."""
    import os

    from mafia_env.narrate import ALL

    parts = []
    for name, t in second_reading_games().items():
        parts.append(f"== {name}")
        parts += narrate(t.game.events, ALL, lang, t.game.talk)
    text = "\n".join(parts) + "\n"
    path = GOLDEN / f"second_reading_{lang}.txt"
    if os.environ.get("MAFIA_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
