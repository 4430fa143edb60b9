"""CLUB rules as the seeds read a second time (issue 25): each rule as the seed states it, with
exact outcomes, and the other reading as a knob (this reading's tests of no one variant:
tests/rules/test_second_reading_all_variants.py)."""

from __future__ import annotations

import mafia_env
from mafia_env.engine.events import Cause, Ev, seat_sequence
from mafia_env.engine.game import Turn
from mafia_env.narrate import narrate
from mafia_env.variants import get_variant
from tests.rules.club.test_club import DEAL as CLUB_DEAL
from tests.rules.second_reading_tables import bits, club_vote, counts
from tests.scripting import Table


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
