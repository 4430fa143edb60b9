"""ONLINE rules as the seeds read a second time (issue 25): each rule as the seed states it, with
exact outcomes, and the other reading as a knob (this reading's tests of no one variant:
tests/rules/test_second_reading_all_variants.py)."""

from __future__ import annotations

import numpy as np

import mafia_env
from mafia_env.engine.events import Cause, Ev
from mafia_env.engine.game import Turn
from mafia_env.narrate import narrate
from tests.rules.online.test_online import DEAL as ONLINE_DEAL
from tests.rules.second_reading_tables import bits, counts, online_vote
from tests.scripting import Table


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
