"""CLUB rules (seed 002) as scripted games with exact outcomes."""

from __future__ import annotations

from mafia_env.engine.events import Cause, Ev, NoVote, Spared, seat_sequence
from mafia_env.engine.roles import Role
from mafia_env.variants import get_variant
from tests.scripting import Table

# seats 1..10: commissar (sheriff) 1, mafia 3, 6 and 9, the rest civilians
DEAL = [
    "sheriff",
    "civilian",
    "mafia",
    "civilian",
    "civilian",
    "mafia",
    "civilian",
    "civilian",
    "mafia",
    "civilian",
]
# 7 is named by 3, 4, 5 (crosses at 5), 5 by 1, 2, 6 (crosses at 6), 2 by 7, 8, 9
NAMES = {1: 5, 2: 5, 3: 7, 4: 7, 5: 7, 6: 5, 7: 2, 8: 2, 9: 2, 10: 1}


def table(**knobs) -> Table:
    t = Table("club", DEAL, **knobs)
    t.speeches()
    return t


def test_club_d1_speech_round_has_no_nominations_and_rotates():
    """CLUB-D1: a speech round in seat order from a rotating first speaker, no nominations."""
    t = Table("club", DEAL)
    assert (t.phase, t.actor) == ("speech", 1)
    assert "nominate" not in t.mask_kinds()
    t.speeches()
    assert (t.phase, t.actor) == ("naming", 1)
    t.naming({s: 4 if s != 4 else 5 for s in range(1, 11)})  # 4 nominated alone
    t.speeches()  # his monologue
    t.vote({})
    t.night({1: 2})
    assert (t.phase, t.actor, t.game.day) == ("speech", 2, 2)


def test_club_e1_named_more_than_twice_is_nominated_in_crossing_order():
    """CLUB-E1: seat order from 1, never one's own number, repeats allowed, >2 nominates."""
    t = table()
    assert t.legal_targets("nominate") == set(range(2, 11))
    assert "pass" not in t.mask_kinds()
    t.naming(NAMES)
    assert [e[1:3] for e in t.events(Ev.NAME)][:3] == [(0, 4), (1, 4), (2, 6)]
    assert [e[2] + 1 for e in t.events(Ev.NOMINATE)] == [7, 5, 2]
    assert [s + 1 for s in t.game.today.nominees] == [7, 5, 2]
    assert abs(t.obs(3)["named"][4] - 3 / 9) < 1e-6  # named three times of nine at most


def test_club_e1_named_twice_is_not_nominated():
    """CLUB-E1: twice is not enough; four times nominates once."""
    t = table()
    names = {s: 8 for s in range(1, 5)} | {5: 9, 6: 9, 7: 1, 8: 1, 9: 1, 10: 1}
    t.naming(names)
    assert [s + 1 for s in t.game.today.nominees] == [8, 1]


def test_club_e2_monologues_in_nomination_order():
    """CLUB-E2: each nominee gets a monologue, in nomination order."""
    t = table(
        vote_count="hidden"
    )  # (the hidden ballot: knob vote_count; the open count: test_club_second_reading.py)
    t.naming(NAMES)
    order = []
    while t.phase == "monologue":
        order.append(t.actor)
        assert "nominate" not in t.mask_kinds()
        t.act(t.actor, "pass")
    assert order == [7, 5, 2] and t.phase == "vote"


def test_club_e3_nominees_do_not_vote_and_silence_goes_to_the_last_nominee():
    """CLUB-E3: nominees may not vote, nobody for himself; a missing vote: the last nominee."""
    # (the hidden ballot: knob vote_count; the open count: test_club_second_reading.py; the
    # nominees' votes kept out, knob nominee_votes: CLUB-E8 gives them to the last nominee)
    t = table(vote_count="hidden", nominee_votes="none")
    t.naming(NAMES)
    t.speeches()
    voters = []
    while t.phase == "vote":
        voters.append(t.actor)
        assert t.legal_targets("vote") == {7, 5, 2}
        choice = {1: 7, 3: 7, 4: 7, 8: 5, 10: 5}.get(t.actor)
        t.act(t.actor, "vote", choice) if choice else t.act(t.actor, "pass")
    assert voters == [1, 3, 4, 6, 8, 9, 10]
    silent = [(e[1] + 1, e[2] + 1) for e in t.events(Ev.BALLOT) if e[3] == 1]
    assert silent == [(6, 2), (9, 2)]
    assert t.left() == [(7, Cause.VOTE)]


def test_club_e4_executed_player_reveals_card_without_last_word():
    """CLUB-E4: most votes: executed, the card shown, no last word."""
    t = table()
    t.naming(NAMES)
    t.speeches()
    t.vote({1: 2, 3: 2, 4: 2, 6: 2, 8: 5, 9: 7, 10: 7})
    assert t.left() == [(2, Cause.VOTE)]
    assert [e[2:4] for e in t.events(Ev.REVEAL)] == [(1, Role.CIVILIAN)]
    assert t.obs(5)["revealed"][1].sum() == 1
    assert t.phase == "mafia_kill"


def test_club_e5_second_tie_cancels_the_execution():
    """CLUB-E5: a tie: a re-vote among the tied; a second tie: nobody is executed."""
    # (the hidden ballot: knob vote_count; the open count: test_club_second_reading.py; the
    # nominees' votes kept out, knob nominee_votes: CLUB-E8 gives them to the last nominee)
    t = table(vote_count="hidden", nominee_votes="none")
    t.naming({1: 5, 2: 5, 3: 7, 4: 7, 5: 7, 6: 5, 7: 1, 8: 2, 9: 3, 10: 4})
    t.speeches()
    ballots = {1: 7, 2: 7, 3: 7, 4: 7, 6: 5, 8: 5, 9: 5, 10: 5}
    t.vote(ballots)  # the vote and, straight after it (no speeches), the re-vote
    tied = (1 << 6) | (1 << 4)
    assert [e[3] for e in t.events(Ev.TIE)] == [tied, tied]
    assert [seat_sequence(e[3]) for e in t.events(Ev.VOTING)] == [[6, 4], [6, 4]]
    assert len(t.events(Ev.BALLOT)) == 16
    assert t.alive == set(range(1, 11))
    assert [e[3] for e in t.events(Ev.SPARED)] == [Spared.TIE]
    assert t.phase == "mafia_kill"


def test_club_e6_no_nominee_no_vote():
    """CLUB-E6: nobody named more than twice: no vote that day."""
    t = table()
    t.naming({s: s % 10 + 1 for s in range(1, 11)})
    assert [e[3] for e in t.events(Ev.NO_VOTE)] == [NoVote.NO_NOMINEES]
    assert t.phase == "mafia_kill"


def test_club_n1_mafia_must_all_point_at_one_player():
    """CLUB-N1: all mafia point at the same player or the kill does not happen."""
    t = table()
    t.naming({s: s % 10 + 1 for s in range(1, 11)})
    t.to("mafia_kill")
    assert 3 not in t.legal_targets("night")
    t.night({3: 4, 6: 4, 9: 4, 1: 2})
    assert t.left() == [(4, Cause.NIGHT)]
    t2 = table()
    t2.naming({s: s % 10 + 1 for s in range(1, 11)})
    t2.night({3: 4, 6: 4, 9: 5, 1: 2})
    assert t2.left() == [] and t2.events(Ev.MISS)


def test_club_n2_commissar_must_check_never_himself():
    """CLUB-N2: the commissar must check one player a night, never himself."""
    t = table()
    t.naming({s: s % 10 + 1 for s in range(1, 11)})
    turns = t.night({3: 4, 6: 4, 9: 4, 1: 6})
    assert turns[-1] == ("sheriff_check", 1)
    assert [e[1:5] for e in t.events(Ev.CHECK)] == [(0, 5, 1, 1)]
    t2 = table()
    t2.naming({s: s % 10 + 1 for s in range(1, 11)})
    t2.to("sheriff_check")
    assert "pass" not in t2.mask_kinds() and 1 not in t2.legal_targets("night")


def test_club_n3_night_victim_reveals_card_and_civilians_sleep():
    """CLUB-N3: the victim leaves at morning showing his card; civilians have no night turn."""
    t = table()
    t.naming({s: s % 10 + 1 for s in range(1, 11)})
    turns = t.night({3: 1, 6: 1, 9: 1, 1: 6})
    assert [s for _, s in turns] == [3, 6, 9, 1]
    assert t.left() == [(1, Cause.NIGHT)]
    assert [e[2:4] for e in t.events(Ev.REVEAL)] == [(0, Role.SHERIFF)]
    assert (t.phase, t.actor) == ("speech", 2)  # no last word


# ------------------------------------------------------------ the third reading (issue 47)

# 7 (named by 3, 4, 5) and 5 (by 1, 2, 6) are nominated, 5 last
TWO = {1: 5, 2: 5, 3: 7, 4: 7, 5: 7, 6: 5, 7: 1, 8: 2, 9: 3, 10: 4}


def test_club_e8_a_nominees_vote_goes_to_the_last_nominee():
    """CLUB-E8, CLUB-E3: «выдвинутые ... не имеют права голосовать», «каждый игрок имеет право
    одного голоса», «голос автоматически начисляется игроку, находящемуся в списке выдвижения
    последним» (the last nominee's own too: the seed's exception): a 4:4 count is 4:6."""
    t = table()
    t.naming(TWO)
    t.speeches()
    t.vote({1: 7, 2: 7, 3: 7, 4: 7, 6: 5, 8: 5, 9: 5, 10: 5})
    barred = [(e[1] + 1, e[2] + 1) for e in t.events(Ev.BALLOT) if e[3] == 2]
    assert barred == [(7, 5), (5, 5)]
    assert t.left() == [(5, Cause.VOTE)] and not t.events(Ev.TIE)
    log = t.public_log()
    assert "Player 7 may not vote: his vote goes to player 5, the last nominee." in log
    assert t.obs(2)["votes"][6, 4] == 1 and t.obs(2)["votes"][4, 4] == 1


def test_club_e8_in_every_ballot_of_the_day_and_the_earlier_reading_is_a_knob():
    """CLUB-E8: the earlier reading (a nominee has no vote at all) is knob
    nominee_votes="none": the same hands tie 4:4 and go to a re-vote."""
    rules = get_variant("club")
    assert rules.nominee_votes == "last_nominee" and "nominee_votes" not in rules.defaults
    t = table(nominee_votes="none")
    t.naming(TWO)
    t.speeches()
    t.vote({1: 7, 2: 7, 3: 7, 4: 7, 6: 5, 8: 5, 9: 5, 10: 5})
    assert t.events(Ev.TIE)[0][3] == (1 << 6) | (1 << 4)
    assert not [e for e in t.events(Ev.BALLOT) if e[3] == 2]


def test_club_e8_the_voter_is_told_a_withheld_hand_counts_for_the_last_nominee():
    """CLUB-E8, CLUB-E7: at the last nominee's count a voter is told that keeping his hand
    down gives that nominee his vote («Keep your hand down: it counts for player N»); at an
    earlier count, only to keep it down."""
    from mafia_env.table.view import action_groups

    t = table()
    t.naming(TWO)
    t.speeches()
    assert t.counted == 7
    text = t.env.unwrapped.text_observer.observe(t.game, t.actor - 1, t.env.unwrapped._legal_mask())
    assert "Keep your hand down." in text and "counts for" not in text
    while t.counted == 7:
        t.act(t.actor, "pass")
    assert t.counted == 5
    text = t.env.unwrapped.text_observer.observe(t.game, t.actor - 1, t.env.unwrapped._legal_mask())
    assert "Keep your hand down: it counts for player 5." in text
    labels = [a["label"] for g in action_groups(t.env, t.actor - 1) for a in g["actions"]]
    assert "Keep my hand down: it counts for player 5" in labels
