"""FORUM rules (seed 004) as scripted games with exact outcomes."""

from __future__ import annotations

from mafia_env.engine.events import PUBLIC, Cause, Ev, Spared
from tests.scripting import Table

# seats 1..10: doctor 1, mafia 3 and 8, maniac 7, the rest civilians
DEAL = [
    "doctor",
    "civilian",
    "mafia",
    "civilian",
    "civilian",
    "civilian",
    "maniac",
    "mafia",
    "civilian",
    "civilian",
]


def table(seed: int = 0, **knobs) -> Table:
    t = Table("forum", DEAL, seed=seed, **knobs)
    t.speeches()  # day 1: nobody nominated
    return t


def kill(victim: int, executor: int = 3) -> dict:
    """Both mafia agree on a victim and an executor."""
    step = [("night", victim), ("executor", executor)]
    return {3: step, 8: list(step)}


def test_forum_n1_mafia_kill_is_optional():
    """FORUM-N1: the mafia night move is optional."""
    t = table()
    t.to("mafia_kill")
    assert "pass" in t.mask_kinds()
    t.night({})
    assert t.left() == [] and t.events(Ev.MISS)


def test_forum_n1_victim_and_executor():
    """FORUM-N1: a kill names the victim and the executor, a living mafia member."""
    t = table()
    t.to("mafia_kill")
    t.act(3, "night", 5)
    assert (t.phase, t.actor) == ("executor", 3)
    assert t.legal_targets("executor") == {3, 8}
    t.act(3, "executor", 8)
    t.night({8: [("night", 5), ("executor", 8)]})
    assert t.left() == [(5, Cause.MAFIA)]
    t2 = table()
    t2.night({3: [("night", 5), ("executor", 3)], 8: [("night", 5), ("executor", 8)]})
    assert t2.left() == []  # no agreement on the executor: no kill


def test_forum_n2_doctor_saves_from_mafia_and_maniac_not_from_a_hunt():
    """FORUM-N2: the doctor saves from the mafia's and the maniac's shots, not a hunt."""
    t = table()
    t.night({**kill(5), 1: 5, 7: 4})
    assert t.left() == [(4, Cause.MANIAC)]
    t2 = table()
    t2.night({**kill(5), 1: 4, 7: 4})
    assert t2.left() == [(5, Cause.MAFIA)]
    t3 = table()
    t3.night({2: ("hunt", 3, "mafia"), 1: 3})  # the healed mafia member still dies of the hunt
    assert t3.left() == [(3, Cause.HUNTED)]
    t4 = table()
    t4.night({2: ("hunt", 4, "mafia"), 1: 2})  # the healed hunter still dies of his failure
    assert t4.left() == [(2, Cause.HUNTER)]


def test_forum_n3_one_request_drawn_by_lot_nobody_learns_whose():
    """FORUM-N3: several requests: one is drawn by lot; nobody learns whose."""
    outcomes = set()
    for seed in range(12):
        t = table(seed, hunted_reveal="none")  # (FORUM-M1 shows a hunted mafia's card: knob)
        t.night({2: ("hunt", 3, "mafia"), 4: ("hunt", 9, "mafia")})
        left = t.left()
        assert left in ([(3, Cause.HUNTED)], [(4, Cause.HUNTER)])
        outcomes.add(tuple(left))
        hunts = t.events(Ev.HUNT)
        assert [(e[1], e[4]) for e in hunts] == [(1, 1 << 1), (3, 1 << 3)]
        night = max(i for i, e in enumerate(t.game.events) if e[0] == Ev.NIGHT)
        day = max(i for i, e in enumerate(t.game.events) if e[0] == Ev.DAY)
        public = [e[:3] for e in t.game.events[night:day] if e[4] == PUBLIC]
        assert public == [
            (Ev.NIGHT, -1, -1),
            (Ev.MORNING, -1, -1),
            (Ev.ELIMINATED, -1, left[0][0] - 1),
        ]
    assert len(outcomes) == 2


def test_forum_n4_hunt_kills_mafia_or_maniac_else_the_hunter():
    """FORUM-N4: a hunt on mafia or maniac kills the target; otherwise the hunter dies."""
    t = table()
    t.night({2: ("hunt", 7, "maniac")})
    assert t.left() == [(7, Cause.HUNTED)]
    t2 = table()
    t2.night({2: ("hunt", 8, "mafia")})
    assert t2.left() == [(8, Cause.HUNTED)]
    t3 = table()
    t3.night({2: ("hunt", 1, "mafia")})
    assert t3.left() == [(2, Cause.HUNTER)]


def test_forum_n4_the_hunt_has_priority_over_the_shots():
    """FORUM-N4: the hunt comes first: the hunter the mafia shoot dies once, of the hunt."""
    t = table()
    t.night({2: ("hunt", 4, "mafia"), **kill(2)})
    assert t.left() == [(2, Cause.HUNTER)]


def test_forum_n5_hunting_the_executor_saves_the_mafias_victim():
    """FORUM-N5: a hunt that kills the executor: the mafia's victim survives."""
    t = table()
    t.night({2: ("hunt", 3, "mafia"), **kill(5, executor=3)})
    assert t.left() == [(3, Cause.HUNTED)]
    t2 = table()
    t2.night({2: ("hunt", 8, "mafia"), **kill(5, executor=3)})  # not the executor: the shot stands
    assert t2.left() == [(5, Cause.MAFIA), (8, Cause.HUNTED)]


def test_forum_n5_hunting_the_maniac_saves_his_victim():
    """FORUM-N5: a hunt that kills the maniac: the maniac's victim survives."""
    t = table()
    t.night({2: ("hunt", 7, "maniac"), 7: 5})
    assert t.left() == [(7, Cause.HUNTED)]


def test_forum_n6_hunting_doctor_cannot_heal():
    """FORUM-N6: a doctor who requests a hunt cannot heal that night, whoever's is drawn."""
    for seed in range(6):
        t = table(seed)
        turns = t.night({1: ("hunt", 8, "mafia"), 2: ("hunt", 3, "mafia"), **kill(5, executor=8)})
        assert ("doctor", 1) not in turns
    t2 = table()
    turns = t2.night({2: ("hunt", 3, "mafia"), 1: 5})
    assert ("doctor", 1) in turns


def test_forum_n7_town_loses_the_hunt_at_two_per_mafia():
    """FORUM-N7: at two town players or fewer per mafia member the town cannot hunt."""
    t = table()
    turns = t.night(kill(4))
    assert [s for p, s in turns if p == "hunt"] == [1, 2, 4, 5, 6, 9, 10]
    t.speeches({2: [("nominate", 2)]})
    t.vote({2: 2})
    t.speeches()  # town 5 (1, 5, 6, 9, 10), mafia 2: still the right
    turns = t.night(kill(5))
    assert [s for p, s in turns if p == "hunt"] == [1, 5, 6, 9, 10]
    assert t.game.team_alive == [4, 2, 1]  # 4 town, 2 mafia: the right is lost
    t.speeches()
    turns = t.night({})
    assert not [p for p, _ in turns if p == "hunt"]
    assert not t.game.hunt_allowed()


def test_forum_n7_a_lone_town_player_cannot_hunt():
    """FORUM-N7: the town loses the hunt when only one town player is left."""
    deal = ["doctor", "civilian", "civilian", "civilian", "civilian", "maniac", "mafia"]
    t = Table("forum", deal, hunt_ratio=0)  # only the lone-player rule is in play
    t.speeches()
    t.night({7: [("night", 2), ("executor", 7)], 6: 3})
    t.speeches({1: [("nominate", 4)]})
    t.vote({1: 4})
    t.speeches()
    turns = t.night({7: [("night", 5), ("executor", 7)]})
    assert [s for p, s in turns if p == "hunt"] == [1, 5]  # two town players: the right
    assert t.game.team_alive == [1, 1, 1] and not t.game.over
    t.speeches()
    turns = t.night({})
    assert not [p for p, _ in turns if p == "hunt"]


def test_forum_m1_morning_announcements():
    """FORUM-M1: the mafia's victim; a failed hunt's victim as such; a mafia member hunted."""
    t = table()
    t.night({2: ("hunt", 6, "mafia"), **kill(5)})
    assert t.left() == [(5, Cause.MAFIA), (2, Cause.HUNTER)]
    log = t.public_log()
    assert "Player 5 was killed by the mafia." in log
    assert "Player 2 fell in a failed hunt." in log
    assert "6" not in log.split("Night 1 falls.")[1]  # the hunt's target is not named
    t2 = table()
    t2.night({2: ("hunt", 8, "mafia")})
    assert "Player 8 was caught by the town's hunt." in t2.public_log()


def test_forum_w1_mafia_wins_at_parity_by_knob():
    """FORUM-W1: with knob mafia_win="parity" the mafia win at equal numbers (the seed's
    clear majority is the default: test_forum_seed_reading.py)."""
    t = Table(
        "forum",
        ["doctor", "civilian", "civilian", "civilian", "civilian", "maniac", "mafia"],
        mafia_win="parity",
    )
    t.speeches({1: [("nominate", 6)]})
    t.vote({1: 6})
    t.night({7: [("night", 2), ("executor", 7)], 1: 3})
    assert t.alive == {1, 3, 4, 5, 7} and not t.game.over
    t.speeches({1: [("nominate", 4)]})
    t.vote({1: 4, 3: 4})
    t.night({7: [("night", 5), ("executor", 7)], 1: 1})
    assert t.game.team_alive == [2, 1, 0] and not t.game.over  # 2 town, 1 mafia
    t.speeches({1: [("nominate", 3)]})
    t.vote({1: 3, 7: 3})
    assert t.game.team_alive == [1, 1, 0] and t.env.winner == "mafia"


def test_forum_d1_plurality_and_a_tie_spares():
    """FORUM-D1: nominations in speeches, plurality vote, a tie means no one leaves."""
    t = Table("forum", DEAL)
    t.speeches({1: [("nominate", 4)], 2: [("nominate", 5)]})
    t.vote({1: 4, 2: 5})
    assert t.left() == [] and [e[3] for e in t.events(Ev.SPARED)] == [Spared.TIE]
    assert t.phase == "hunt"
    t.night({})
    t.speeches({1: [("nominate", 4)], 2: [("nominate", 5)]})
    t.vote({1: 4, 2: 5, 3: 5})
    assert t.left() == [(5, Cause.VOTE)]


def test_forum_n1_mafia_see_each_others_choices_others_do_not():
    """FORUM-N1: the mafia's choice of victim and executor is shared in their thread only."""
    t = table()
    t.to("mafia_kill")
    t.act(3, "night", 5)
    t.act(3, "executor", 8)
    seen = t.obs(8)
    assert seen["team_shots"][2, 4] == 1 and seen["team_executors"][2, 7] == 1
    for seat in (1, 2, 7):
        assert t.obs(seat)["team_shots"].sum() == 0 and t.obs(seat)["team_executors"].sum() == 0
