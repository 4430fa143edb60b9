"""Table talk: a speech's free-text remarks are public, recorded, narrated, never in vectors."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

import mafia_env
from mafia_env.engine.events import TALK_LIMIT, Ev
from mafia_env.errors import IllegalActionError, RecordError
from mafia_env.lang import LANGS
from mafia_env.narrate import narrate
from tests.scripting import to_day_one

VARIANTS = sorted(mafia_env.VARIANTS)
WORDS = {"en": 'Player {a} says: "{text}".', "ru": "Игрок {a} говорит: «{text}».",
         "uk": "Гравець {a} каже: «{text}»."}  # fmt: skip


def play_talking(env, seed: int, every: float = 0.5, lang: str = "en"):
    """Play random legal moves; in speeches, say something half the time. Return the talk."""
    env.reset(seed=seed)
    u = env.unwrapped
    rng = np.random.default_rng(seed)
    said = []
    while not u.game.over:
        agent = env.agent_selection
        if u.may_talk() and rng.random() < every:
            text = f"{agent} here: trust {rng.integers(1, 11)}, «ёж» {len(said)}"
            u.say(agent, text)
            said.append((agent, text))
        env.step(int(rng.choice(env.unwrapped.legal_actions())))
    return said


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_vector_observation_never_sees_talk(variant):
    quiet, loud = mafia_env.env(variant), mafia_env.env(variant)
    quiet.reset(seed=5)
    loud.reset(seed=5)
    rng = np.random.default_rng(5)
    talks = 0
    while not quiet.unwrapped.game.over:
        agent = loud.agent_selection
        if loud.unwrapped.may_talk():
            loud.unwrapped.say(agent, "I am the sheriff, and player 2 is black.")
            talks += 1
        for a in quiet.possible_agents:
            q, lo = quiet.observe(a), loud.observe(a)
            assert np.array_equal(q["observation"], lo["observation"])
            assert np.array_equal(q["action_mask"], lo["action_mask"])
        index = int(rng.choice(quiet.unwrapped.legal_actions()))
        quiet.step(index)
        loud.step(index)
    assert talks > 3 and loud.unwrapped.winner == quiet.unwrapped.winner


@pytest.mark.parametrize("lang", LANGS)
def test_talk_is_told_to_every_seat_and_narrated(lang):
    env = mafia_env.env("sport", obs_mode="text", lang=lang)
    said = play_talking(env, seed=2, lang=lang)
    u = env.unwrapped
    assert said and len(u.game.talk) == len(said)
    lines = [WORDS[lang].format(a=agent.split("_")[1], text=text) for agent, text in said]
    for agent in env.possible_agents:
        story = env.observe(agent)["observation"].splitlines()
        assert [x for x in story if x in lines] == lines
    public = narrate(u.game.events, None, lang, u.game.talk)
    assert [x for x in public if x in lines] == lines
    assert env.observation_space("player_1").contains(env.observe("player_1"))
    talk_events = [e for e in u.game.events if e[0] == Ev.TALK]
    assert [e[3] for e in talk_events] == list(range(len(said)))  # value indexes game.talk


def test_talk_is_recorded_and_replays():
    env = mafia_env.env("online", obs_mode="text")
    said = play_talking(env, seed=1)
    record = env.unwrapped.record()
    talk_moves = [m for m in record["moves"] if len(m) == 3]
    assert [(f"player_{s}", t) for s, _, t in talk_moves] == said
    again = mafia_env.replay(record, obs_mode="text")
    assert again.game.talk == env.unwrapped.game.talk
    assert again.observe("player_3")["observation"] == env.observe("player_3")["observation"]
    forged = copy.deepcopy(record)
    k = record["moves"].index(talk_moves[0])
    forged["moves"][k][2] = "something else"
    with pytest.raises(RecordError, match="'checksum'"):
        mafia_env.replay(forged)
    misplaced = copy.deepcopy(record)
    misplaced["moves"].insert(0, [5, "say", "out of turn"])
    with pytest.raises(RecordError, match=r"'moves'\[0\]: player_5 moves, but it is player_\d+'s"):
        mafia_env.replay(misplaced)


def test_talk_only_in_a_speech_and_short():
    env = mafia_env.env("sport")
    env.reset(seed=0)
    to_day_one(env)  # past SPORT-N3's meeting: day 1's first speech
    u = env.unwrapped
    with pytest.raises(IllegalActionError, match="player_4 is not speaking now"):
        u.say("player_4", "hello")
    with pytest.raises(IllegalActionError, match=f"1..{TALK_LIMIT} characters; got 281"):
        u.say(env.agent_selection, "x" * 281)
    with pytest.raises(IllegalActionError, match=r"1\.\.280 characters; got 0"):
        u.say(env.agent_selection, "  \n ")
    u.say(env.agent_selection, "  two\n lines  ")
    assert u.game.talk[-1][2] == "two lines"
    while u.may_talk():  # past the speeches: the vote
        env.step(u.action_id("pass"))
    assert not u.may_talk()
    with pytest.raises(IllegalActionError, match="nobody is speaking now"):
        u.say(env.agent_selection, "my vote")


def test_a_copy_keeps_its_own_talk_and_resampling_ignores_it():
    env = mafia_env.env("sport", obs_mode="text")
    env.reset(seed=4)
    to_day_one(env)  # past SPORT-N3's meeting: day 1's first speech
    u = env.unwrapped
    u.say(env.agent_selection, "first")
    twin = u.clone()
    twin.say(twin.agent_selection, "only in the copy")
    assert [t for *_, t in u.game.talk] == ["first"]
    assert [t for *_, t in twin.game.talk] == ["first", "only in the copy"]
    assert "only in the copy" not in env.observe("player_2")["observation"]
    assert "only in the copy" in twin.observe("player_2")["observation"]
    env.step(u.action_id("pass"))
    g = u.game.resample(1, random.Random(0))
    assert g.n == u.game.n and not g.over
