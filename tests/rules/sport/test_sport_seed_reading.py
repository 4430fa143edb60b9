"""SPORT rules as the seeds read again (issue 16): each rule as the seed states it, with
exact outcomes, and the other reading as a knob (this reading's tests of no one variant:
tests/rules/test_seed_reading_all_variants.py)."""

from __future__ import annotations

import pytest

import mafia_env
from mafia_env.engine.events import Cause
from mafia_env.errors import MafiaError
from mafia_env.narrate import narrate
from tests.scripting import SPORT_DEAL, Table

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
