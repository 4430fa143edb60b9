"""ONLINE rules (seed 003) as scripted games with exact outcomes."""

from __future__ import annotations

import numpy as np

from mafia_env.engine.events import Cause, Ev, Spared
from mafia_env.engine.kinds import Act
from mafia_env.engine.roles import Role
from mafia_env.narrate import narrate
from mafia_env.variants import get_variant
from tests.scripting import Table, compare_views, random_playout

# seats 1..10: sheriff 1, doctor 2, mafia 3 and 8, don 6, the rest civilians
DEAL = [
    "sheriff",
    "doctor",
    "mafia",
    "civilian",
    "civilian",
    "don",
    "civilian",
    "mafia",
    "civilian",
    "civilian",
]
SMALL = ["sheriff", "doctor", "mafia", "civilian", "civilian", "don"]
MAFIA_MASK = (1 << 2) | (1 << 5) | (1 << 7)


def table(deal=DEAL, **knobs) -> Table:
    t = Table("online", deal, **knobs)
    t.speeches()
    return t


def role_index(t: Table, role: Role) -> int:
    return t.env.unwrapped.rules.roles_in_play().index(role)


def test_online_n1_zero_night_has_no_actions():
    """ONLINE-N1: a zero night with no checks, heals or shots; the mafia learn each other (the
    don's one choice there, to introduce himself: test_online_seed_reading.py)."""
    t = Table("online", DEAL, skip_zero_night=False)
    assert (t.phase, t.actor) == ("mafia_kill", 6) and t.mask_kinds() == {"pass", "reveal_don"}
    t.act(6, "pass")
    assert [e[3] for e in t.events(Ev.NIGHT)] == [0]
    assert (t.phase, t.actor, t.game.day) == ("speech", 1, 1)
    assert not t.events(Ev.SHOT) and not t.events(Ev.CHECK) and not t.events(Ev.HEAL)
    assert {(e[1] + 1, e[2] + 1) for e in t.events(Ev.TEAMMATE)} == {
        (3, 6),
        (3, 8),
        (6, 3),
        (6, 8),
        (8, 3),
        (8, 6),
    }


def test_online_n2_the_don_is_unknown_until_he_introduces_himself():
    """ONLINE-N2: the mafia see the don as one of them until he introduces himself."""
    t = table()
    assert [e[3] for e in t.events(Ev.TEAMMATE) if e[2] == 5] == [Role.MAFIA, Role.MAFIA]
    assert t.obs(3)["known_roles"][5, role_index(t, Role.MAFIA)] == 1
    assert t.obs(3)["known_roles"][5, role_index(t, Role.DON)] == 0
    t.to("mafia_kill")
    assert "reveal_don" not in t.mask_kinds()  # seat 3
    t.act(3, "night", 4)
    assert "reveal_don" in t.mask_kinds()  # the don
    t.act(6, "reveal_don")
    assert (t.phase, t.actor) == ("mafia_kill", 6) and "reveal_don" not in t.mask_kinds()
    assert [e[1:] for e in t.events(Ev.DON_INTRODUCED)] == [(5, -1, Role.DON, MAFIA_MASK)]
    assert t.obs(3)["known_roles"][5, role_index(t, Role.DON)] == 1
    assert t.obs(8)["known_roles"][5, role_index(t, Role.DON)] == 1
    assert t.obs(4)["known_roles"][5].sum() == 0
    assert "is the don" not in t.public_log()
    t.act(6, "night", 4)
    t.night({8: 4})
    assert t.left() == [(4, Cause.NIGHT)]


def test_online_n3_wake_order_and_living_targets_only():
    """ONLINE-N3: mafia, doctor, sheriff, don; every target a living player."""
    t = table()
    turns = t.night({3: 4, 6: [("night", 4), ("night", 1)], 8: 4, 2: 5, 1: 3})
    assert turns == [
        ("mafia_kill", 3),
        ("mafia_kill", 6),
        ("mafia_kill", 8),
        ("doctor", 2),
        ("sheriff_check", 1),
        ("don_check", 6),
    ]
    t.speeches()
    t.to("mafia_kill")
    assert 4 not in t.legal_targets("night")
    t.act(3, "night", 5)
    t.to("doctor")
    assert 4 not in t.legal_targets("night")


def test_online_n4_mismatch_or_no_choice_is_no_shot():
    """ONLINE-N4: a shot only if all chose the same player; no choice at all is no shot."""
    t = table()
    t.night({3: 4, 6: 4, 8: 5, 2: 9})
    assert t.left() == [] and t.events(Ev.MISS)
    t2 = table()
    t2.night({3: 4, 6: 4, 2: 9})  # 8 chose nobody
    assert t2.left() == []


def test_online_n4_lone_mafia_may_choose_even_himself():
    """ONLINE-N4: a lone surviving mafia member cannot miss and may choose anyone, himself too."""
    t = Table("online", SMALL)
    t.to("mafia_kill")
    assert t.legal_targets("night") == {1, 2, 4, 5, 6}  # a teammate, not himself
    t.night({3: 4, 6: 5, 2: 1})
    t.speeches({1: [("nominate", 3)]})
    t.vote({1: 3, 2: 3, 4: 3, 5: 3, 6: 3})
    t.speeches()
    t.to("mafia_kill")
    assert t.actor == 6 and t.legal_targets("night") == {1, 2, 4, 5, 6}
    t.night({6: [("night", 6), ("night", 1)], 2: 1})
    assert t.left() == [(3, Cause.VOTE), (6, Cause.NIGHT)]
    assert t.env.winner == "town"


def test_online_n5_shot_on_the_healed_player_nobody_dies_heal_used():
    """ONLINE-N5: a shot without heal kills; on the healed player "nobody died", heal used."""
    t = table()
    t.night({3: 4, 6: 4, 8: 4, 2: 4})
    assert t.left() == [] and "Nobody was killed" in t.public_log()
    assert t.obs(2)["last_heal"][3] == 1
    t.speeches()
    t.to("doctor")
    assert 4 not in t.legal_targets("night")  # ONLINE-N6: not two nights running
    t.act(2, "night", 5)
    t.night({})
    t2 = table()
    t2.night({3: 4, 6: 4, 8: 4, 2: 5})
    assert t2.left() == [(4, Cause.NIGHT)]


def test_online_n4_a_miss_leaves_the_heal_unused():
    """ONLINE-N4: on a mismatch the doctor's heal counts as unused (knob heal_spent)."""
    t = table(heal_told=True)  # told so at morning (ONLINE-N9: test_online_second_reading.py)
    t.night({3: 4, 6: 4, 8: 5, 2: 2})
    assert t.obs(2)["self_heals"][0] == 0 and t.obs(2)["last_heal"].sum() == 0
    t.speeches()
    t.to("doctor")
    assert {2, 4} <= t.legal_targets("night")
    t2 = table(heal_spent="always")
    t2.night({3: 4, 6: 4, 8: 5, 2: 2})
    t2.speeches()
    t2.to("doctor")
    assert 2 not in t2.legal_targets("night")


def test_online_n6_doctor_heals_himself_once_per_game():
    """ONLINE-N6: himself once per game; never the same player two nights running."""
    t = table()
    t.night({3: 2, 6: 2, 8: 2, 2: 2})
    assert t.left() == [] and t.obs(2)["self_heals"][0] == 1
    t.speeches()
    t.night({3: 4, 6: 4, 8: 4, 2: 4})
    assert t.left() == []
    t.speeches()
    t.to("doctor")
    targets = t.legal_targets("night")
    assert 2 not in targets and 4 not in targets and 5 in targets


def test_online_n7_checks_and_a_killed_sheriff_still_checks():
    """ONLINE-N7: sheriff town/mafia, don sheriff/not; a killed sheriff or don still acts."""
    t = table()
    t.night({3: 1, 6: [("night", 1), ("night", 1)], 8: 1, 2: 5, 1: 6})
    assert t.left() == [(1, Cause.NIGHT)]
    assert [e[1:5] for e in t.events(Ev.CHECK)] == [(0, 5, 1, 1 << 0), (5, 0, 1, 1 << 5)]
    t2 = Table("online", SMALL)  # the lone don shoots himself and still checks
    t2.speeches({1: [("nominate", 3)]})
    t2.vote({1: 3, 2: 3, 4: 3, 5: 3, 6: 3})
    t2.speeches()
    t2.night({6: [("night", 6), ("night", 4)], 2: 5, 1: 4})
    assert t2.left() == [(3, Cause.VOTE), (6, Cause.NIGHT)]
    assert [e[1:4] for e in t2.events(Ev.CHECK)] == [(0, 3, 0), (5, 3, 0)]


def test_online_d1_night_victim_has_last_word():
    """ONLINE-D1: the player killed at night gets a last word, then leaves."""
    t = table()
    t.night({3: 4, 6: 4, 8: 4, 2: 5})
    assert (t.phase, t.actor) == ("last_word", 4)
    assert "nominate" not in t.mask_kinds()
    t.act(4, "pass")
    assert (t.phase, t.actor) == ("speech", 2)


def test_online_d2_first_speaker_rotates_over_living_seats():
    """ONLINE-D2: day 1 starts at seat 1; each next day at the next living seat."""
    t = table()
    t.night({3: 2, 6: 2, 8: 2, 2: 5})
    t.act(2, "pass")  # last word
    assert (t.phase, t.actor, t.game.day) == ("speech", 3, 2)
    t.speeches()
    t.night({3: 5, 6: 5, 8: 5})
    t.act(5, "pass")
    assert (t.phase, t.actor, t.game.day) == ("speech", 4, 3)


def test_online_d3_only_the_speaker_nominates_anyone_first_counts():
    """ONLINE-D3: the speaker may nominate anyone, himself too; only his first counts."""
    t = Table("online", DEAL)
    assert t.legal_targets("nominate") == set(range(1, 11))
    assert not t.env.observe("player_2")["action_mask"].any()
    t.act(1, "nominate", 1)
    assert "nominate" not in t.mask_kinds() and "pass" in t.mask_kinds()
    t.act(1, "pass")
    assert 1 not in t.legal_targets("nominate")  # already a nominee


def test_online_d4_asked_player_answers_at_once():
    """ONLINE-D4: the speaker asks a yes/no question; the asked player answers next."""
    t = Table("online", DEAL)
    t.act(1, "ask", 6, "sheriff")
    assert (t.phase, t.actor) == ("answer", 6)
    assert t.mask_kinds() == {"answer"}
    t.act(6, "answer", value="no")
    assert (t.phase, t.actor) == ("speech", 1)
    assert "ask" not in t.mask_kinds()  # one question a speech
    assert t.game.speech.acts_left == 3
    assert [e[1:4] for e in t.events(Ev.ASK)] == [(0, 5, Role.SHERIFF)]
    assert [e[1:4] for e in t.events(Ev.ANSWER)] == [(5, 0, 1)]
    obs = t.obs(9)
    assert obs["answers"][5].tolist() == [0, 1, 0]
    assert obs["questions"][5, role_index(t, Role.SHERIFF)] == 1
    assert "Player 6 answers: no." in t.public_log()


def test_online_v1_vote_for_nominees_self_or_abstain():
    """ONLINE-V1: vote only for nominees; one may vote for himself or abstain."""
    t = Table(
        "online", DEAL, vote_count="hidden"
    )  # (the hidden ballot: knob vote_count; the open count: test_online_second_reading.py)
    t.speeches({1: [("nominate", 1)], 2: [("nominate", 5)]})
    assert t.phase == "vote" and t.actor == 1
    assert t.legal_targets("vote") == {1, 5} and "pass" in t.mask_kinds()
    t.vote({1: 1, 2: 5, 3: 5, 4: 5, 5: 5, 6: 5, 7: 1})
    assert [e[2] for e in t.events(Ev.BALLOT) if e[1] == 9] == [-1]  # abstained
    assert t.left() == [(5, Cause.VOTE)]


def test_online_v2_single_candidate_needs_strict_majority_without_own_vote():
    """ONLINE-V2: 10 alive, 5 others vote for him and he for himself: he stays."""
    t = Table("online", DEAL)
    t.speeches({1: [("nominate", 5)]})
    t.vote({1: 5, 2: 5, 3: 5, 4: 5, 5: 5, 6: 5})
    assert 5 in t.alive and [e[3] for e in t.events(Ev.SPARED)] == [Spared.NO_MAJORITY]
    t2 = Table("online", DEAL)
    t2.speeches({1: [("nominate", 5)]})
    t2.vote({1: 5, 2: 5, 3: 5, 4: 5, 6: 5, 7: 5})
    assert t2.left() == [(5, Cause.VOTE)]


def test_online_v3_most_votes_last_word_then_leaves():
    """ONLINE-V3: the player with most votes gets a last word and leaves."""
    t = Table("online", DEAL)
    t.speeches({1: [("nominate", 4)], 2: [("nominate", 7)]})
    t.vote({1: 4, 2: 4, 3: 7})
    assert t.left() == [(4, Cause.VOTE)]
    assert (t.phase, t.actor) == ("last_word", 4)
    t.act(4, "pass")
    assert t.phase == "mafia_kill"


def test_online_v4_tie_debate_then_revote_among_tied():
    """ONLINE-V4: the tied players debate (a speech each), then re-vote among them only."""
    t = Table(
        "online", DEAL, vote_count="hidden"
    )  # (the hidden ballot: knob vote_count; the open count: test_online_second_reading.py)
    t.speeches({1: [("nominate", 4)], 2: [("nominate", 7)], 3: [("nominate", 9)]})
    t.vote({1: 4, 2: 4, 3: 7, 5: 7, 6: 9})
    assert (t.phase, t.actor) == ("tie_speech", 4)
    t.act(4, "pass")
    assert (t.phase, t.actor) == ("tie_speech", 7)
    t.act(7, "pass")
    assert t.phase == "vote" and t.legal_targets("vote") == {4, 7}
    t.vote({1: 7, 2: 7})
    assert t.left() == [(7, Cause.VOTE)]


def test_online_v5_second_tie_all_tied_leave_with_last_words():
    """ONLINE-V5: a second tie: all tied players leave, last words in nomination order."""
    t = Table("online", DEAL)
    t.speeches({1: [("nominate", 7)], 2: [("nominate", 4)]})
    t.vote({1: 4, 2: 7})
    t.speeches()  # the debate
    t.vote({1: 4, 2: 7})
    assert t.left() == [(7, Cause.VOTE), (4, Cause.VOTE)]
    assert (t.phase, t.actor) == ("last_word", 7)
    t.act(7, "pass")
    assert (t.phase, t.actor) == ("last_word", 4)


def test_online_v6_roles_are_not_revealed():
    """ONLINE-V6: roles of the eliminated are not revealed until the game ends."""
    t = Table("online", DEAL)
    t.speeches({1: [("nominate", 6)]})
    t.vote({s: 6 for s in range(1, 11) if s != 6})
    t.speeches()
    t.night({3: 1, 8: 1, 2: 4})
    assert t.left() == [(6, Cause.VOTE), (1, Cause.NIGHT)]
    assert t.events(Ev.REVEAL) == [] and t.obs(4)["revealed"].sum() == 0


def test_online_f1_three_fouls_remove_at_once_without_last_word():
    """ONLINE-F1: fouls are public counts; three fouls remove the player at once."""
    t = Table("online", DEAL)
    t.env.foul("player_5")
    t.env.foul("player_5")
    assert t.obs(1)["fouls"][4] == 0.5 and 5 in t.alive
    t.env.foul("player_5")
    assert t.left() == [(5, Cause.FOUL)]
    t.speeches()
    assert t.phase == "mafia_kill"  # nobody's last word
    assert 5 not in {e[1] + 1 for e in t.events(Ev.SPEAK)}


def test_online_d4_questions_per_speech_is_a_knob():
    """ONLINE-D4: how many questions a speech may hold is our default (1), a knob."""
    t = Table("online", DEAL, questions=2)
    t.act(1, "ask", 6, "sheriff")
    t.act(6, "answer", value="yes")
    assert "ask" in t.mask_kinds()
    t.act(1, "ask", 3, "don")
    t.act(3, "answer", value="dont_know")
    assert "ask" not in t.mask_kinds() and t.game.speech.acts_left == 2
    none = Table("online", DEAL, questions=0)
    assert "ask" not in none.mask_kinds()
    assert Act.ASK not in none.env.unwrapped.layout.offset  # not in the action space


def test_online_n2_no_leak_which_teammate_is_the_don():
    """ONLINE-N2: a mafia member's view is the same whichever teammate is the don."""
    swapped = list(DEAL)
    swapped[5], swapped[7] = "mafia", "don"  # the don at 8 instead of 6
    rng = np.random.default_rng(5)
    compared = 0
    for seed in range(40):
        c, _ = compare_views("online", DEAL, swapped, 3, seed, rng)
        compared += c
    assert compared > 400


def test_online_n3_shots_are_simultaneous_hidden_from_teammates():
    """ONLINE-N3, COMMON-8: a mafia member does not see his teammates' choices (with knob
    mafia_see_shots off: ONLINE-N8 has them see each other, test_online_second_reading.py)."""
    t = table(mafia_see_shots=False)
    t.to("mafia_kill")
    t.act(3, "night", 4)
    assert "team_shots" not in t.obs(6)  # no piece for teammates' choices here
    assert t.obs(6)["my_night"].sum() == 0 and t.obs(3)["my_night"][3] == 1
    assert [e[4] for e in t.events(Ev.SHOT)] == [1 << 2]


# ------------------------------------------------------------ the third reading (issue 47)


def test_online_n4_a_shot_is_judged_when_it_is_fired():
    """ONLINE-N4, SPORT-N4: «Постріл відбувається, лише якщо вся мафія обрала одного гравця»:
    the shot is judged as it was fired; a member removed for fouls later that night does not
    turn a mismatch into a kill."""
    t = table()
    t.to("mafia_kill")
    for seat, target in ((3, 4), (6, 4), (8, 5)):
        t.act(seat, "night", target)
    for _ in range(3):
        t.env.foul("player_8")  # ONLINE-F1: three fouls remove him at once
    t.night({2: 1})
    assert 4 in t.alive and 5 in t.alive and t.events(Ev.MISS)
    later = Table("online", DEAL, shots_judged="morning")
    later.speeches()
    later.to("mafia_kill")
    for seat, target in ((3, 4), (6, 4), (8, 5)):
        later.act(seat, "night", target)
    for _ in range(3):
        later.env.foul("player_8")
    later.night({2: 1})
    assert 4 not in later.alive  # the earlier reading: only the shooters alive at morning


def test_online_d5_a_general_discussion_follows_the_speech_round():
    """ONLINE-D5: «Після кола промов усі живі гравці можуть говорити»: after the speech round
    every living player, from the day's first speaker, may speak (a speech act or nothing;
    no nominations) before the vote; one round (our default, knob discussion)."""
    t = Table("online", DEAL)
    t.speeches({1: [("nominate", 6)]}, stop_phase="discussion", discussion=False)
    turns = []
    while t.phase == "discussion":
        turns.append(t.actor)
        kinds = t.mask_kinds()
        assert "nominate" not in kinds and "ask" not in kinds
        assert {"pass", "claim_role", "accuse", "vouch", "claim_check"} <= kinds
        if t.actor == 6:
            t.act(6, "claim_role", value="sheriff")
        elif t.actor == 3:
            t.act(3, "say", value="I trust player 6.")
            t.act(3, "vouch", 6)
        else:
            t.act(t.actor, "pass")
        while t.phase == "gesture":
            t.act(t.actor, "pass")
    assert turns == list(range(1, 11))
    assert t.phase == "open_vote"
    log = "\n".join(narrate(t.game.events, None, talk=t.game.talk))
    assert "Player 6: I am the sheriff." in log and 'Player 3 says: "I trust player 6."' in log
    assert get_variant("online").discussion == 1 and "discussion" in get_variant("online").defaults


def test_online_d5_more_rounds_end_at_a_round_of_silence_and_none_is_a_knob():
    """ONLINE-D5: knob discussion bounds the rounds; a round in which nobody spoke ends the
    discussion early; discussion=0 goes to the vote at once."""
    t = Table("online", DEAL, discussion=3, gestures="none")
    t.speeches({1: [("nominate", 6)]}, stop_phase="discussion", discussion=False)
    rounds = 0
    while t.phase == "discussion":
        first = t.actor
        rounds += first == 1
        if rounds == 1 and first == 2:
            t.act(2, "accuse", 6)
        else:
            t.act(first, "pass")
    assert rounds == 2 and t.phase == "open_vote"
    none = Table("online", DEAL, discussion=0)
    none.speeches({1: [("nominate", 6)]})
    assert none.phase == "open_vote"


def test_online_d6_a_named_listener_gestures_during_the_speech():
    """ONLINE-D6: «Під час чужої промови доступні три жести: «Так», «Ні», «Не знаю»»: the
    player a speech act names may show yes, no or don't know at once (our bound, knob
    gestures="named"); everyone sees it; the speaker goes on."""
    t = Table("online", DEAL)
    t.act(1, "accuse", 6)
    assert (t.phase, t.actor) == ("gesture", 6)
    assert t.mask_kinds() == {"pass", "answer"}
    t.act(6, "answer", value="no")
    assert (t.phase, t.actor) == ("speech", 1)
    assert [(e[1] + 1, e[2] + 1, e[3], e[4]) for e in t.events(Ev.GESTURE)] == [(6, 1, 1, -1)]
    for seat in (1, 4, 6, 8):
        assert t.obs(seat)["gestures"][5].tolist() == [0, 1, 0]
    assert "Player 6 gestures: no." in t.public_log()
    t.act(1, "claim_role", value="sheriff")  # names nobody: no gesture
    assert (t.phase, t.actor) == ("speech", 1)


def test_online_d6_a_gesture_is_changed_or_withdrawn():
    """ONLINE-D6: «натисніть ще раз, щоб прибрати»: showing one's gesture again takes it
    back, another replaces it, pass keeps it."""
    t = Table("online", DEAL)
    t.act(1, "accuse", 6)
    t.act(6, "answer", value="no")
    t.act(1, "vouch", 6)
    t.act(6, "pass")  # keeps "no"
    assert t.obs(2)["gestures"][5].tolist() == [0, 1, 0]
    t.act(1, "claim_check", 6, "black")
    words = dict(t.env.unwrapped.text_observer.choices(t.game, t.env.unwrapped._legal_mask()))
    assert any("Take back" in w for w in words.values())
    t.act(6, "answer", value="no")  # the same again: withdrawn
    assert t.obs(2)["gestures"][5].sum() == 0
    assert [e[3] for e in t.events(Ev.GESTURE)] == [1, -1]
    assert "Player 6 takes back his gesture." in t.public_log()


def test_online_d6_every_listener_after_every_act_is_a_knob():
    """ONLINE-D6: knob gestures="all" offers every living listener a gesture after each act
    of a speech (from the seat after the speaker); "none" offers none."""
    t = Table("online", DEAL, gestures="all")
    t.act(1, "claim_role", value="sheriff")
    turns = []
    while t.phase == "gesture":
        turns.append(t.actor)
        t.act(t.actor, "answer", value="yes") if t.actor == 4 else t.act(t.actor, "pass")
    assert turns == list(range(2, 11)) and (t.phase, t.actor) == ("speech", 1)
    assert t.obs(9)["gestures"][3].tolist() == [1, 0, 0]
    none = Table("online", DEAL, gestures="none")
    none.act(1, "accuse", 6)
    assert (none.phase, none.actor) == ("speech", 1)
    assert (
        get_variant("online").gestures == "named" and "gestures" in get_variant("online").defaults
    )


def test_online_d6_d5_random_play_stays_short():
    """ONLINE-D5, D6: our bounds keep a random game within 1.6 times the moves it took without
    the discussion and the gestures (the knob "all" is for those who want every window)."""
    rng = np.random.default_rng(0)
    import mafia_env

    def moves(**knobs) -> float:
        total = 0
        for seed in range(30):
            env = mafia_env.env("online", 10, **knobs)
            env.reset(seed=seed)
            total += random_playout(env, rng)[0]
        return total / 30

    plain = moves(discussion=0, gestures="none")
    assert moves() < 1.6 * plain
