"""SPORT rules (seed 001) as scripted games with exact outcomes."""

from __future__ import annotations

import mafia_env.narrate
from mafia_env.engine.events import Cause, Ev
from mafia_env.engine.kinds import Turn
from mafia_env.variants import get_variant
from tests.scripting import SPORT_DEAL, Table

DEAL = SPORT_DEAL


def table(**knobs) -> Table:
    return Table("sport", DEAL, **knobs)


def events(t: Table, kind: Ev) -> list[tuple]:
    return [e for e in t.game.events if e[0] == kind]


def test_sport_roles_table_for_ten():
    """SPORT: 6 civilians, 1 sheriff, 2 mafia and 1 don at the standard table."""
    t = Table("sport", DEAL)
    assert sorted(t.env.roles.values()) == sorted(DEAL)


def test_sport_n1_kill_needs_every_black_on_same_seat():
    """SPORT-N1: the kill happens only if every black player alive shot the same seat."""
    t = table()
    t.speeches()  # nobody nominated: no vote, night 1
    assert t.phase == "mafia_kill"
    t.night({4: 2, 6: 2, 8: 2})
    assert 2 not in t.alive
    assert events(t, Ev.ELIMINATED)[-1][2:4] == (1, Cause.NIGHT)


def test_sport_n1_split_shots_are_a_miss():
    """SPORT-N1: otherwise it is a miss."""
    t = table()
    t.speeches()
    t.night({4: 2, 6: 2, 8: 3})
    assert t.alive == set(range(1, 11))
    assert events(t, Ev.MISS)


def test_sport_n1_one_black_holding_fire_is_a_miss():
    """SPORT-N1: a black player who does not shoot spoils the kill."""
    t = table()
    t.speeches()
    t.night({4: 2, 6: 2})
    assert t.alive == set(range(1, 11))


def test_sport_n1_mafia_may_shoot_their_own():
    """SPORT-N1: mafia may shoot one of their own (a legal strategy)."""
    t = table()
    t.speeches()
    assert {4, 6, 8} <= t.legal_targets("night")
    t.night({4: 8, 6: 8, 8: 8})
    assert 8 not in t.alive


def test_sport_n2_don_then_sheriff_check_privately():
    """SPORT-N2: after the kill the don checks "sheriff?", then the sheriff checks "black?"."""
    t = table()
    t.speeches()
    order = []
    while t.phase != "speech":
        order.append((t.phase, t.actor))
        if t.phase == "don_check":
            t.act(6, "night", 1)
        elif t.phase == "sheriff_check":
            t.act(1, "night", 8)
        else:
            t.act(t.actor, "pass")
    assert order == [
        ("mafia_kill", 4),
        ("mafia_kill", 6),
        ("mafia_kill", 8),
        ("don_check", 6),
        ("sheriff_check", 1),
    ]
    checks = events(t, Ev.CHECK)
    assert [(e[1], e[2], e[3], e[4]) for e in checks] == [(5, 0, 1, 1 << 5), (0, 7, 1, 1 << 0)]


def test_sport_n2_checks_may_be_skipped():
    """SPORT-N2: each check may be skipped (a "skip" action, default allowed)."""
    t = table()
    t.speeches()
    t.to("don_check")
    assert "pass" in t.mask_kinds()
    t.act(6, "pass")
    assert t.phase == "sheriff_check" and "pass" in t.mask_kinds()
    t2 = table(check_skip=False)
    t2.speeches()
    t2.to("don_check")
    assert "pass" not in t2.mask_kinds()


def test_sport_n2_killed_sheriff_still_checks_that_night():
    """SPORT-N2: the sheriff shot tonight still makes his check; he dies at morning."""
    t = table()
    t.speeches()
    t.night({4: 1, 6: 1, 8: 1, 1: 4})
    assert 1 not in t.alive
    assert events(t, Ev.CHECK)[-1][1:4] == (0, 3, 1)


def test_sport_m1_night_victim_gets_last_word_then_day():
    """SPORT-M1: the moderator names the victim; a player killed at night gets a last word."""
    t = table()
    t.speeches()
    t.night({4: 3, 6: 3, 8: 3})
    assert (t.phase, t.actor) == ("last_word", 3)
    assert "nominate" not in t.mask_kinds()
    t.act(3, "claim_role", value="sheriff")
    t.act(3, "pass")
    assert (t.phase, t.actor, t.game.day) == ("speech", 2, 2)


def test_sport_m1_miss_is_announced():
    """SPORT-M1: or announces a miss."""
    t = table()
    t.speeches()
    t.night({4: 3, 6: 5, 8: 3})
    assert "Nobody was killed" in t.public_log()


def test_sport_w1_town_wins_when_all_black_are_out():
    """SPORT-W1: town wins when all black players are out."""
    t = Table("sport", ["sheriff", "civilian", "civilian", "civilian", "mafia", "don"])
    for black in (5, 6):
        t.speeches({1: [("nominate", black)], 2: [("nominate", 4)]})
        t.vote({s: black for s in t.alive})
        if t.game.over:
            break
        t.to("last_word", black)
        t.speeches()
        t.night({})
    assert t.env.winner == "town"


def test_sport_w1_mafia_wins_at_parity():
    """SPORT-W1: mafia wins when red and black alive are equal."""
    t = Table("sport", ["sheriff", "civilian", "civilian", "civilian", "mafia", "don"])
    t.speeches({1: [("nominate", 2)], 2: [("nominate", 3)]})
    t.vote({s: 2 for s in t.alive})  # 3 red, 2 black
    t.speeches()  # the last word
    t.night({5: 3, 6: 3})  # 2 red, 2 black
    assert t.env.winner == "mafia"
    assert t.game.team_alive == [2, 2, 0]


def test_sport_d1_self_nomination_and_self_vote():
    """SPORT-D1: players may nominate themselves and vote for themselves."""
    t = table()
    assert 1 in t.legal_targets("nominate")
    t.speeches({1: [("nominate", 1)], 2: [("nominate", 2)]})
    assert t.phase == "vote" and 1 in t.legal_targets("vote")
    t.vote({s: 1 for s in range(1, 11)})
    assert 1 not in t.alive


def test_sport_d2_anyone_may_claim_any_role_and_false_checks():
    """SPORT-D2: any role may be claimed; a false sheriff may announce false checks."""
    t = table()
    t.act(1, "claim_check", 4, "black")  # the real sheriff (unchecked: still allowed)
    t.act(1, "pass")
    t.act(2, "pass")
    t.act(3, "pass")
    t.act(4, "claim_role", value="sheriff")  # mafia counter-claims
    t.act(4, "claim_check", 1, "black")
    assert {"claim_role", "claim_check", "accuse", "vouch"} <= t.mask_kinds()
    log = t.public_log()
    assert "Player 4: I am the sheriff." in log and "Player 4: I checked player 1: black." in log


def test_sport_d2_last_word_may_claim():
    """SPORT-D2: in the last word a player may claim any role and checks."""
    t = table()
    t.speeches()
    t.night({4: 5, 6: 5, 8: 5})
    assert t.phase == "last_word"
    assert {"pass", "claim_role", "claim_check", "accuse", "vouch"} == t.mask_kinds()


def test_sport_d3_speeches_rotate_first_speaker():
    """SPORT-D3: speeches in seat order from a rotating first speaker."""
    t = table()
    order = []
    t.until(
        lambda tb: (
            (tb.phase == "speech" and order.append((tb.game.day, tb.actor))) or tb.game.day == 3
        )
    )
    day1 = [s for d, s in order if d == 1]
    day2 = [s for d, s in order if d == 2]
    assert day1 == list(range(1, 11))
    assert day2[0] == 2 and day2 == sorted(day2, key=lambda s: (s - 2) % 10)


def test_sport_d3_one_nomination_per_speech_first_counts():
    """SPORT-D3: each speaker may nominate one player."""
    t = table()
    t.act(1, "nominate", 5)
    assert "nominate" not in t.mask_kinds() and t.actor == 1
    t.act(1, "pass")
    assert 5 not in t.legal_targets("nominate")  # already on the list


def test_sport_d3_vote_over_nominees_in_nomination_order_silent_to_last():
    """SPORT-D3: vote over nominees; a player who does not vote goes to the last nominee."""
    t = table()
    t.speeches({2: [("nominate", 9)], 3: [("nominate", 7)], 5: [("nominate", 3)]})
    assert t.phase == "vote" and t.legal_targets("vote") == {9, 7, 3}
    t.vote({1: 9, 2: 9, 3: 9, 4: 9, 5: 7})  # 6..10 do not vote: their votes go to 3
    assert 3 not in t.alive
    ballots = [e for e in t.game.events if e[0] == Ev.BALLOT]
    assert [(e[1] + 1, e[2] + 1, e[3]) for e in ballots][5:] == [(s, 3, 1) for s in range(6, 11)]
    assert (t.phase, t.actor) == ("last_word", 3)  # a player voted out gets a last word


def test_sport_d3_tie_then_speeches_then_revote_among_tied():
    """SPORT-D3: a tie: the tied players speak again, then a re-vote among them."""
    t = table()
    t.speeches({1: [("nominate", 9)], 2: [("nominate", 7)], 3: [("nominate", 3)]})
    t.vote({1: 9, 2: 9, 3: 9, 4: 9, 5: 9, 6: 7, 7: 7, 8: 7, 9: 7, 10: 7})
    order = []
    while t.phase == "tie_speech":
        order.append(t.actor)
        assert "nominate" not in t.mask_kinds()
        t.act(t.actor, "pass")
    assert order == [9, 7]
    assert t.phase == "vote" and t.legal_targets("vote") == {9, 7}
    t.vote({s: 7 for s in range(1, 11)})
    assert 7 not in t.alive and t.alive == set(range(1, 11)) - {7}


def crash_table(yes: int) -> Table:
    t = table()
    t.speeches({1: [("nominate", 9)], 2: [("nominate", 7)]})
    split = {1: 9, 2: 9, 3: 9, 4: 9, 5: 9, 6: 7, 7: 7, 8: 7, 9: 7, 10: 7}
    t.vote(split)
    t.speeches()
    t.vote(split)
    assert t.phase == "crash_vote" and t.mask_kinds() == {"vote_yes", "vote_no"}
    t.vote({s: s <= yes for s in range(1, 11)})
    return t


def test_sport_d3_second_tie_car_crash_majority_removes_all():
    """SPORT-D3: a second tie: strictly more than half yes removes all tied, each a last word."""
    t = crash_table(yes=6)
    assert t.alive == set(range(1, 11)) - {7, 9}
    lw = []
    while t.phase == "last_word":
        lw.append(t.actor)
        t.act(t.actor, "pass")
    assert lw == [9, 7] and t.phase == "mafia_kill"


def test_sport_d3_car_crash_half_is_not_enough():
    """SPORT-D3: exactly half yes is not strictly more than half: nobody leaves."""
    t = crash_table(yes=5)
    assert t.alive == set(range(1, 11)) and t.phase == "mafia_kill"


def test_sport_d4_single_nominee_on_day_one_no_vote():
    """SPORT-D4: with a single nominee on day 1 no vote is held."""
    t = table()
    t.speeches({3: [("nominate", 8)]})
    assert t.phase == "mafia_kill" and 8 in t.alive


def test_sport_d4_single_nominee_later_days_is_voted():
    """SPORT-D4: only day 1 skips the vote of a lone nominee."""
    t = table()
    t.speeches()
    t.night({})
    t.speeches({3: [("nominate", 8)]})
    assert t.phase == "vote" and t.legal_targets("vote") == {8}
    t.vote({})
    assert 8 not in t.alive  # every silent vote goes to the last (only) nominee


def test_sport_f1_three_fouls_take_next_day_speech_not_last_word():
    """SPORT-F1: three fouls take away the player's next day speech (not the last word)."""
    t = table()
    for _ in range(3):
        t.env.foul("player_5")
    speakers = []
    t.until(
        lambda tb: (
            (tb.phase == "speech" and speakers.append((tb.game.day, tb.actor))) or tb.game.day == 3
        )
    )
    assert (1, 5) in speakers and (2, 5) not in speakers and (2, 6) in speakers
    assert "no speech today" in t.public_log()
    t2 = table()
    for _ in range(3):
        t2.env.foul("player_5")
    t2.speeches()
    t2.night({4: 5, 6: 5, 8: 5})
    assert (t2.phase, t2.actor) == ("last_word", 5)


def test_sport_f1_fourth_foul_removes_at_once_without_last_word():
    """SPORT-F1: the fourth foul removes the player at once, without a last word."""
    t = table()
    t.act(1, "pass")
    for _ in range(4):
        t.env.foul("player_2")
    assert 2 not in t.alive and (t.phase, t.actor) == ("speech", 3)
    assert t.env.agent_selection == "player_3"
    assert "removed for fouls" in t.public_log()


def test_sport_f1_fouls_from_illegal_actions():
    """SPORT-F1: fouls come from COMMON-7's foul knob too: four illegal moves remove."""
    t = table(illegal_action="foul")
    bad = t.env.action_id("vote", 2)
    for _ in range(3):
        t.env.step(bad)  # each: foul, then the default action (end speech)
    assert t.game.fouls[:3] == [1, 1, 1]


def test_sport_f1_fourth_foul_in_last_word_ends_it():
    """SPORT-F1: fouls count in the last word; the fourth ends it."""
    t = table()
    t.speeches()
    t.night({4: 5, 6: 5, 8: 5})
    assert (t.phase, t.actor) == ("last_word", 5)
    for _ in range(4):
        t.env.foul("player_5")
    assert (t.phase, t.actor) == ("speech", 2)


# ------------------------------------------------------------ the third reading (issue 47)

MAFIA_MASK = (1 << 3) | (1 << 5) | (1 << 7)


def test_sport_n3_the_mafia_meet_on_the_zero_night_seen_by_the_team_only():
    """SPORT-N3: «в кого мафия договорилась стрелять», «ставить своих игроков в договорку»: on
    the zero night each black player shows a proposed target (or none), the don last, his
    word; the team sees it, nobody else does; nobody is shot."""
    t = Table("sport", DEAL, skip_zero_night=False)
    turns = []
    plan = {4: 2, 8: None, 6: 8}  # the don puts a teammate in the agreement: allowed
    while t.game.day == 0:
        turns.append((t.phase, t.actor))
        assert t.mask_kinds() == {"pass", "night"}
        assert t.legal_targets("night") == set(range(1, 11))  # SPORT-N1: own players too
        target = plan[t.actor]
        t.act(t.actor, "night", target) if target else t.act(t.actor, "pass")
    assert turns == [("meeting", 4), ("meeting", 8), ("meeting", 6)]
    shown = [(e[1] + 1, e[2] + 1, e[4]) for e in t.events(Ev.PROPOSE)]
    assert shown == [(4, 2, MAFIA_MASK), (8, 0, MAFIA_MASK), (6, 8, MAFIA_MASK)]
    for seat in (4, 6, 8):
        plan_seen = t.obs(seat)["team_plan"]
        assert plan_seen[3, 1] == 1 and plan_seen[5, 7] == 1 and plan_seen.sum() == 2
    for seat in (1, 2, 10):
        assert t.obs(seat)["team_plan"].sum() == 0
    assert (t.phase, t.actor, t.game.day) == ("speech", 1, 1)
    assert t.alive == set(range(1, 11)) and not t.events(Ev.SHOT)
    town = "\n".join(mafia_env.narrate.narrate(t.game.events, 0))
    assert "shows" not in town and "the team" not in town


def test_sport_n3_the_town_sees_only_that_night_falls():
    """SPORT-N3, COMMON-8: during the meeting a town player's view says "night", no speaker."""
    t = Table("sport", DEAL, skip_zero_night=False)
    assert t.phase == "meeting"
    o = t.obs(1)
    layout = t.env.unwrapped.obs_layout
    assert o["phase"][layout.phases.index("night")] == 1 and o["speaker"].sum() == 0
    assert t.obs(4)["my_turn"][layout.turns.index(Turn.MEETING)] == 1


def test_sport_n3_the_meeting_is_the_seeds_and_a_knob():
    """SPORT-N3 is the seed's (knob zero_night_meeting); off, day 1 follows the zero night."""
    rules = get_variant("sport")
    assert rules.zero_night_meeting and "zero_night_meeting" not in rules.defaults
    t = Table("sport", DEAL, skip_zero_night=False, zero_night_meeting=False)
    assert (t.phase, t.game.day) == ("speech", 1)
    assert not any(
        get_variant(v).zero_night_meeting for v in ("city", "club", "online", "forum", "minimal")
    )


def test_sport_n4_a_shot_is_judged_when_it_is_fired():
    """SPORT-N4: «каждый чёрный игрок за столом совершил выстрел только в него»: a kill needs
    every black player at the table at the shot on one seat; a shooter removed later that
    night (SPORT-F2) does not turn the split into a kill."""
    t = table()
    t.speeches()
    for seat, target in ((4, 2), (6, 2), (8, 3)):
        t.act(seat, "night", target)
    assert t.phase == "don_check"
    t.env.unwrapped.remove("player_8")  # eyes opened at night: removed at once
    t.night({})
    assert 2 in t.alive and t.events(Ev.MISS)
    assert t.left() == [(8, Cause.REMOVED)]


def test_sport_n4_judged_at_morning_is_a_knob():
    """SPORT-N4's earlier reading (the shooters alive at morning count): knob
    shots_judged="morning"."""
    assert get_variant("sport").shots_judged == "fired"
    t = table(shots_judged="morning")
    t.speeches()
    for seat, target in ((4, 2), (6, 2), (8, 3)):
        t.act(seat, "night", target)
    t.env.unwrapped.remove("player_8")
    t.night({})
    assert 2 not in t.alive
