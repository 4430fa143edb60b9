"""CITY rules (seed 000) as scripted games with exact outcomes."""

from __future__ import annotations

from mafia_env.engine.events import Cause, Ev
from mafia_env.engine.kinds import Act, Turn
from mafia_env.engine.roles import Role
from mafia_env.variants import get_variant
from tests.scripting import Table

# seats 1..10: sheriff 1, putana 3, mafia 4 and 8, don 6, maniac 9, the rest civilians
DEAL = [
    "sheriff",
    "civilian",
    "putana",
    "mafia",
    "civilian",
    "don",
    "civilian",
    "mafia",
    "maniac",
    "civilian",
]
# 13 seats: the same, plus civilian 10, doctor 11, mafia 12, civilian 13
DEAL13 = [*DEAL, "doctor", "mafia", "civilian"]
MAFIA_MASK = (1 << 3) | (1 << 5) | (1 << 7)


def table(deal=DEAL, **knobs) -> Table:
    t = Table("city", deal, **knobs)
    t.speeches()  # day 1: nobody nominated, no vote
    return t


def test_city_r1_doctor_only_from_thirteen_players():
    """CITY-R1: the doctor is dealt only at 13 or more seats."""
    rules = get_variant("city")
    for n in range(8, 21):
        counts = rules.role_counts(n)
        assert (Role.DOCTOR in counts) == (n >= 13), n
        for role in (Role.SHERIFF, Role.PUTANA, Role.DON, Role.MANIAC):
            assert counts[role] == 1
    assert rules.default_players == 10


def test_city_n1_night_order():
    """CITY-N1: putana, mafia, don, sheriff, doctor, maniac."""
    t = table(DEAL13)
    turns = t.night({3: 2, 4: 2, 8: 2, 12: 2, 6: 2, 11: 5})
    assert turns == [
        ("putana", 3),
        ("mafia_kill", 4),
        ("mafia_kill", 8),
        ("mafia_kill", 12),
        ("mafia_kill", 6),
        ("don_check", 6),
        ("sheriff_check", 1),
        ("doctor", 11),
        ("maniac", 9),
    ]


def test_city_n2_blocked_sheriff_cannot_check_and_learns_it():
    """CITY-N2: a blocked sheriff has no check that night; he alone learns he was blocked."""
    t = table()
    turns = t.night({3: 1, 4: 2, 8: 2, 6: 2})
    assert ("sheriff_check", 1) not in turns
    blocked = t.events(Ev.BLOCKED)
    assert [(e[1], e[3], e[4]) for e in blocked] == [(0, Turn.SHERIFF_CHECK, 1 << 0)]
    assert "the putana is with you" not in t.public_log()
    assert t.obs(1)["blocked"][0] == 1 and t.obs(2)["blocked"][0] == 0
    assert [e for e in t.events(Ev.CHECK) if e[1] == 0] == []


def test_city_n2_blocked_don_still_kills_but_cannot_check():
    """CITY-N2: a blocked don loses his check, not the mafia's shot."""
    t = table()
    turns = t.night({3: 6, 4: 2, 8: 2, 6: 2})
    assert ("mafia_kill", 6) in turns and ("don_check", 6) not in turns
    assert 2 not in t.alive


def test_city_n2_blocked_maniac_and_doctor_cannot_act():
    """CITY-N2: a blocked maniac does not shoot; a blocked doctor does not heal."""
    t = table()
    turns = t.night({3: 9, 4: 2, 8: 2, 6: 2})
    assert ("maniac", 9) not in turns
    assert t.left() == [(2, Cause.NIGHT)]
    t13 = table(DEAL13)
    turns = t13.night({3: 11, 4: 5, 8: 5, 12: 5, 6: 5})
    assert ("doctor", 11) not in turns
    assert 5 not in t13.alive


def test_city_n3_mafia_cannot_target_their_team():
    """CITY-N3: the mafia may not target a member of the mafia team (the maniac they may);
    no number at all is CITY-N10's forfeit (under the earlier reading, no choice of none)."""
    t = table()
    t.to("mafia_kill")
    assert t.legal_targets("night") == {1, 2, 3, 5, 7, 9, 10}
    earlier = table(mafia_pass=False, mafia_no_number="miss")
    earlier.to("mafia_kill")
    assert earlier.legal_targets("night") == {1, 2, 3, 5, 7, 9, 10}
    assert "pass" not in earlier.mask_kinds()


def test_city_n3_dons_choice_is_the_mafias_and_proposals_are_seen_by_teammates():
    """CITY-N3: the others propose first, seen by teammates only; the don's choice kills."""
    t = table()
    t.to("mafia_kill")  # the putana visits seat 1 by default
    t.act(4, "night", 2)
    t.act(8, "night", 7)
    assert t.actor == 6
    shots = t.obs(6)["team_shots"]
    assert shots[3, 1] == 1 and shots[7, 6] == 1
    assert t.obs(1)["team_shots"].sum() == 0 and t.obs(9)["team_shots"].sum() == 0
    assert all(e[4] == MAFIA_MASK for e in t.events(Ev.SHOT))
    t.act(6, "night", 5)
    t.night({})
    assert t.left() == [(5, Cause.NIGHT)]


def test_city_n4_mafia_without_don_who_disagree_forfeit():
    """CITY-N4: without a don a split choice makes the whole mafia team leave at morning."""
    t = Table("city", DEAL)
    t.speeches({1: [("nominate", 6)]})
    t.vote({s: 6 for s in t.alive if s != 6})
    t.speeches()  # the don's last word
    turns = t.night({3: 10, 4: 2, 8: 5})
    assert [s for p, s in turns if p == "mafia_kill"] == [4, 8]
    assert t.left() == [(6, Cause.VOTE), (4, Cause.FORFEIT), (8, Cause.FORFEIT)]
    assert 2 in t.alive and 5 in t.alive
    assert not t.game.over  # the maniac is still alive


def test_city_n4_mafia_without_don_who_agree_kill():
    """CITY-N4: without a don the victim stands when every mafia member chose it."""
    t = Table("city", DEAL)
    t.speeches({1: [("nominate", 6)]})
    t.vote({s: 6 for s in t.alive if s != 6})
    t.speeches()
    t.night({3: 10, 4: 2, 8: 2})
    assert t.left() == [(6, Cause.VOTE), (2, Cause.NIGHT)]


def test_city_n5_don_asks_is_this_the_sheriff():
    """CITY-N5: the don's check says whether the player is the sheriff, to him alone."""
    t = table()
    t.night({3: 2, 4: 2, 8: 2, 6: [("night", 2), ("night", 1)]})
    assert [e[1:] for e in t.events(Ev.CHECK) if e[1] == 5] == [(5, 0, 1, 1 << 5)]


def test_city_n6_sheriff_sees_the_maniac_as_not_mafia():
    """CITY-N6: the sheriff's check is "mafia?"; the maniac checks as not mafia."""
    t = table()
    t.night({3: 2, 4: 2, 8: 2, 6: 2, 1: 9})
    t.speeches()
    t.night({3: 5, 4: 5, 8: 5, 6: 5, 1: 4})
    assert [e[2:5] for e in t.events(Ev.CHECK) if e[1] == 0] == [(8, 0, 1), (3, 1, 1)]
    assert t.obs(1)["checks"][8].tolist() == [0, 1]
    assert t.obs(1)["checks"][3].tolist() == [1, 0]


def test_city_n7_doctor_heals_not_twice_running_and_himself_once():
    """CITY-N7: a heal saves; never the same player two nights running; himself once."""
    t = table(DEAL13)
    t.night({3: 2, 4: 11, 8: 11, 12: 11, 6: 11, 11: 11})
    assert t.alive == set(range(1, 14)) and t.events(Ev.MISS)
    assert t.obs(11)["self_heals"][0] == 1 and t.obs(11)["last_heal"][10] == 1
    t.speeches()
    t.to("doctor")
    assert 11 not in t.legal_targets("night")  # not twice running, nor a second self-heal
    t.act(11, "night", 2)
    t.night({})
    t.speeches()
    t.to("doctor")
    targets = t.legal_targets("night")
    assert 11 not in targets and 2 not in targets and 5 in targets


def test_city_n7_heal_saves_from_the_maniac_by_knob():
    """CITY-N7: the seed heals the mafia's shot; knob heal_against="all" the maniac's too."""
    t = table(DEAL13, heal_against="all")
    t.night({3: 2, 4: 5, 8: 5, 12: 5, 6: 5, 11: 7, 9: 7})
    assert t.left() == [(5, Cause.NIGHT)]
    t2 = table(DEAL13)
    t2.night({3: 2, 4: 5, 8: 5, 12: 5, 6: 5, 11: 7, 9: 7})
    assert t2.left() == [(5, Cause.MAFIA), (7, Cause.MANIAC)]


def test_city_n8_maniac_kills_or_refuses():
    """CITY-N8: the maniac kills one player a night, or refuses to shoot."""
    t = table()
    t.to("mafia_kill")
    for seat in (4, 8, 6):  # (a timeout would show no number: CITY-N10's forfeit)
        t.act(seat, "night", 1)
    t.to("maniac")
    assert "pass" in t.mask_kinds() and t.legal_targets("night") == set(range(1, 11)) - {9}
    t.act(9, "pass")
    assert t.left() == [(1, Cause.NIGHT)]  # the mafia's choice, alone
    t2 = table()
    t2.night({3: 1, 4: 2, 8: 2, 6: 2, 9: 7})
    assert t2.left() == [(2, Cause.MAFIA), (7, Cause.MANIAC)]


def test_city_n9_putanas_companion_dies_with_her():
    """CITY-N9: a killer who hits the putana kills the player she visited too."""
    t = table(companion_reason=True)  # CITY-M2 announces him with no reason: knob off
    t.night({3: 7, 4: 3, 8: 3, 6: 3})
    assert t.left() == [(3, Cause.NIGHT), (7, Cause.COMPANION)]


def test_city_n9_three_victims_in_one_night():
    """CITY-N9: one, two or three victims: the mafia hit the putana, the maniac another."""
    t = table(companion_reason=True)  # CITY-M2 announces him last, with no reason: knob off
    t.night({3: 7, 4: 3, 8: 3, 6: 3, 9: 10})
    assert t.left() == [(3, Cause.MAFIA), (7, Cause.COMPANION), (10, Cause.MANIAC)]
    assert len(t.alive) == 7


def test_city_m1_one_victim_is_not_attributed():
    """CITY-M1: with one victim the moderator does not say who killed."""
    t = table()
    t.night({3: 1, 4: 10, 8: 10, 6: 10, 9: 10})
    assert t.left() == [(10, Cause.NIGHT)]
    assert "Player 10 was killed in the night." in t.public_log()


def test_city_m1_two_victims_mafias_first_then_maniacs():
    """CITY-M1: with two victims the mafia's is named first, the maniac's second."""
    t = table()
    t.night({3: 1, 4: 10, 8: 10, 6: 10, 9: 2})
    assert t.left() == [(10, Cause.MAFIA), (2, Cause.MANIAC)]
    log = t.public_log()
    assert log.index("Player 10 was killed by the mafia") < log.index("Player 2 was killed by")


def test_city_m1_only_the_maniacs_role_is_announced():
    """CITY-M1: roles of the dead stay hidden, except the maniac's when he leaves."""
    t = table()
    t.night({3: 1, 4: 2, 8: 2, 6: 2})
    assert t.events(Ev.REVEAL) == []
    t.speeches({1: [("nominate", 9)]})
    t.vote({s: 9 for s in t.alive if s != 9})
    assert [e[2:4] for e in t.events(Ev.REVEAL)] == [(8, Role.MANIAC)]
    assert "Player 9 was the maniac." in t.public_log()
    assert t.obs(1)["revealed"].sum() == 1


def test_city_d1_speeches_rotate_and_vote_as_online():
    """CITY-D1: a rotating first speaker; a lone nominee needs a strict majority (ONLINE-V2)."""
    t = table()
    t.night({3: 1, 4: 10, 8: 10, 6: 10})
    assert (t.phase, t.actor) == ("last_word", 10)
    t.speeches({2: [("nominate", 5)]})
    assert t.game.today.first_speaker == 1
    # 9 alive: 4 other votes and his own are not a strict majority of the living
    t.vote({1: 5, 2: 5, 3: 5, 4: 5, 5: 5})
    assert 5 in t.alive and t.events(Ev.SPARED)


def test_city_common4_one_mafia_and_the_maniac_is_a_draw():
    """COMMON-4: one mafia and the maniac, nobody else: a draw."""
    t = _down_to_four()
    t.night({4: 5, 8: 7})
    assert t.alive == {4, 8} and t.env.winner == "draw"


def test_city_common4_maniac_wins_with_one_other_left():
    """COMMON-4: the maniac wins alive with at most one other player alive."""
    t = _down_to_four()
    t.night({4: 5, 8: 4})
    assert t.alive == {7, 8} and t.env.winner == "maniac"
    rewards = t.env.rewards
    assert rewards["player_8"] == 1 and rewards["player_7"] == -1 and rewards["player_4"] == -1


def _down_to_four() -> Table:
    """8 seats: vote out the don, two killed, vote out the putana: 4, 5, 7, 8 are left."""
    t = Table(
        "city", ["sheriff", "civilian", "putana", "mafia", "civilian", "don", "civilian", "maniac"]
    )
    t.speeches({1: [("nominate", 6)]})
    t.vote({s: 6 for s in t.alive if s != 6})
    t.speeches()
    t.night({3: 5, 4: 1, 8: 2})
    t.speeches({3: [("nominate", 3)]})
    t.vote({s: 3 for s in t.alive if s != 3})
    t.speeches()
    assert t.alive == {4, 5, 7, 8} and t.phase == "mafia_kill"
    return t


def test_city_n2_putanas_visit_is_hers_alone():
    """CITY-N2: the putana's choice is seen by her only (the blocked learn it at their turn)."""
    t = table()
    t.to("putana")
    t.act(3, "night", 7)
    assert [e[1:] for e in t.events(Ev.VISIT)] == [(2, 6, -1, 1 << 2)]
    assert t.obs(3)["my_night"][6] == 1 and t.obs(7)["my_night"].sum() == 0
    assert t.obs(7)["blocked"][0] == 0  # a civilian has no action to lose: he learns nothing


def test_city_n9_companion_dies_even_if_healed_by_default():
    """CITY-N9: the companion dies "with her" (our reading; knob companion_heal)."""
    t = table(DEAL13, companion_reason=True)  # (CITY-M2's reason named: knob)
    t.night({3: 7, 4: 3, 8: 3, 12: 3, 6: 3, 11: 7})
    assert t.left() == [(3, Cause.NIGHT), (7, Cause.COMPANION)]
    t2 = table(DEAL13, companion_heal=True)
    t2.night({3: 7, 4: 3, 8: 3, 12: 3, 6: 3, 11: 7})
    assert t2.left() == [(3, Cause.NIGHT)]


def test_city_n2_putana_blocks_another_player_by_default():
    """CITY-N2: she blocks one player, not herself (our reading; knob putana_self)."""
    t = table()
    t.to("putana")
    assert t.legal_targets("night") == set(range(1, 11)) - {3}
    t2 = table(putana_self=True)
    t2.to("putana")
    assert t2.legal_targets("night") == set(range(1, 11))


# ------------------------------------------------------------ the third reading (issue 47)


def test_city_n10_a_dons_timeout_shows_no_number_and_the_mafia_forfeit():
    """CITY-N10: «не смогла в течение одной минуты ... показать Ведущему номер участника ...
    присуждается поражение»: the don whose time runs out has shown no number (the turn's
    default is no number, never a shot at a seat he did not choose): the team forfeits."""
    t = table()
    t.to("mafia_kill")
    t.act(4, "night", 2)
    t.act(8, "night", 2)
    assert t.actor == 6 and "pass" in t.mask_kinds()
    assert t.game.default_action() == (Act.PASS, -1, -1)
    t.default()  # the don's time runs out
    t.night({})
    assert t.left() == [(4, Cause.FORFEIT), (6, Cause.FORFEIT), (8, Cause.FORFEIT)]
    assert 2 in t.alive


def test_city_n10_without_a_don_a_members_timeout_is_the_forfeit():
    """CITY-N10, CITY-N4: without a don, a member who shows no number leaves the team without
    an agreement: the whole mafia leave at morning."""
    t = Table("city", DEAL)
    t.speeches({1: [("nominate", 6)]})
    t.vote({s: 6 for s in t.alive if s != 6})
    t.speeches()  # the don's last word
    t.to("mafia_kill")
    t.act(4, "night", 2)
    t.default()  # 8's time runs out
    t.night({})
    assert t.left() == [(6, Cause.VOTE), (4, Cause.FORFEIT), (8, Cause.FORFEIT)]


def test_city_n10_a_members_no_number_beside_a_living_don_changes_nothing():
    """CITY-N10, CITY-N3: with the don alive his word is the mafia's: a member who shows no
    number only made no proposal."""
    t = table()
    t.to("mafia_kill")
    t.default()  # 4's time runs out
    t.act(8, "night", 2)
    t.act(6, "night", 5)
    t.night({})
    assert t.left() == [(5, Cause.NIGHT)]


def test_city_n10_the_tables_turn_timer_takes_the_same_default():
    """CITY-N10: the table's turn timer plays `match.default_action`, the same default: no
    number (a legal move, so the table and its record take it)."""
    from mafia_env.seating.games import default_action

    t = table()
    t.to("mafia_kill")
    index = default_action(t.env)
    assert t.env.describe_action(index) == "pass"
    assert t.env.observe("player_4")["action_mask"][index]


def test_city_n10_the_earlier_reading_is_a_knob():
    """CITY-N10 is the seed's; the earlier reading (a timeout shoots the lowest legal seat, no
    choice of none) is knobs mafia_pass=False, mafia_no_number="miss"."""
    rules = get_variant("city")
    assert rules.mafia_pass and rules.mafia_no_number == "forfeit"
    assert "mafia_pass" not in rules.defaults and "mafia_no_number" not in rules.defaults
    t = table(mafia_pass=False, mafia_no_number="miss")
    t.to("mafia_kill")
    assert "pass" not in t.mask_kinds()
    assert t.game.default_action() == (Act.NIGHT, 0, -1)
