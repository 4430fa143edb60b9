"""SPORT rules (seed 001) as scripted games with exact outcomes."""

from __future__ import annotations

from mafia_env.engine.events import Cause, Ev
from tests.scripting import Table

# seats 1..10: sheriff 1, mafia 4 and 8, don 6, the rest civilians
DEAL = [
    "sheriff",
    "civilian",
    "civilian",
    "mafia",
    "civilian",
    "don",
    "civilian",
    "mafia",
    "civilian",
    "civilian",
]


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
    assert "nobody was killed" in t.public_log()


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
