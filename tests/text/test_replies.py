"""Replies as language models write them (`mafia_env.text.read_reply`) and the fallbacks."""

from __future__ import annotations

import numpy as np
import pytest

import mafia_env
from mafia_env.errors import ConfigError
from mafia_env.text import Defer, ReplyError, TextPolicy, parse_reply, read_reply
from tests.scripting import to_day_one


@pytest.fixture
def speech():
    """Seat 1's first speech in SPORT: 1 ends it, 2.. nominate, then claims."""
    env = mafia_env.env("sport", obs_mode="text")
    env.reset(seed=1)
    to_day_one(env)  # past SPORT-N3's meeting
    u = env.unwrapped
    choices = u.text_observer.choices(u.game, u._legal_mask())
    return env, choices


def nth(choices, k):
    return choices[k - 1][0]


@pytest.mark.parametrize(
    "reply, k",
    [
        ("**3**", 3),
        ("(3)", 3),
        ("'3'", 3),
        ("[3]", 3),
        ("`3`.", 3),
        ("I choose 3", 3),
        ("Answer: 3", 3),
        ("my answer is 3", 3),
        ("Option #3, because player 2 was quiet.", 3),
        ("I'll go with **3** this time.", 3),
        ('{"action": 3}', 3),
        ('Here you go:\n```json\n{"choice": "3"}\n```', 3),
        ("end speech", 1),
        ("END YOUR SPEECH", 1),
        ("Pass", 1),
        ("I nominate player 2.", 3),
        ("NOMINATE 2", 3),
    ],
)
def test_replies_as_models_write_them(speech, reply, k):
    env, choices = speech
    assert parse_reply(env, reply) == nth(choices, k)


def test_a_reply_may_carry_table_talk(speech):
    env, choices = speech
    got = read_reply("My choice: 49. Say: I trust player 2, not 7.", choices)
    assert (got.index, got.talk) == (nth(choices, 49), "I trust player 2, not 7.")
    got = read_reply('{"action": 2, "say": "Player 1 was too quiet."}', choices)
    assert (got.index, got.talk) == (nth(choices, 2), "Player 1 was too quiet.")
    claim = env.action_id("claim_role", value="sheriff")
    assert read_reply("Say: I am the sheriff.", choices).index == claim  # the action's words
    assert read_reply("Say: I am the sheriff.", choices).talk is None


@pytest.mark.parametrize(
    "reply",
    ["Nominate player 1. I checked player 4: black.", "I choose 2. Answer: 3", "**2** **3**"],
)
def test_a_reply_naming_two_actions_is_rejected_with_the_choices(speech, reply):
    env, _ = speech
    with pytest.raises(ReplyError) as err:
        parse_reply(env, reply)
    message = str(err.value)
    assert "names more than one of your legal actions" in message
    assert "\n1. End your speech.\n2. Nominate player 1.\n" in message


@pytest.mark.parametrize("reply", ["I have no idea", "choice: 99", "(0)", "player 3", "vote 3"])
def test_a_reply_naming_none_is_rejected(speech, reply):
    env, _ = speech
    with pytest.raises(ReplyError, match="is not one of your legal actions"):
        parse_reply(env, reply)


def test_labels_and_talk_in_russian():
    env = mafia_env.env("sport", obs_mode="text", lang="ru")
    env.reset(seed=1)
    to_day_one(env)  # past SPORT-N3's meeting
    u = env.unwrapped
    choices = u.text_observer.choices(u.game, u._legal_mask())
    got = read_reply("Мой выбор: 2. Скажу: игрок 1 слишком тихий.", choices, lang="ru")
    assert (got.index, got.talk) == (nth(choices, 2), "игрок 1 слишком тихий.")


def play(policy, seeds=range(2)):
    env = mafia_env.env("sport", obs_mode="text")
    for seed in seeds:
        env.reset(seed=seed)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else policy.act(obs["observation"], obs["action_mask"]))
    return env


def test_well_formed_replies_need_no_fallback():
    policy = TextPolicy(lambda prompt: "**1**")
    play(policy)
    assert policy.stats["fallbacks"] == 0 and policy.stats["invalid"] == 0
    assert policy.stats["moves"] == policy.stats["calls"] > 50


@pytest.mark.parametrize("fallback", ["first", "random"])
def test_every_fallback_is_counted(fallback):
    policy = TextPolicy(lambda prompt: "no idea", retries=1, fallback=fallback)
    play(policy, seeds=[0])
    s = policy.stats
    assert s["fallbacks"] == s["moves"] == len(policy.fallbacks) > 20
    assert s["invalid"] == s["calls"] == 2 * s["moves"]
    assert {reason for reason, _ in policy.fallbacks} == {"invalid"}


def test_failed_calls_are_counted_apart_and_not_retried():
    def complete(prompt):
        raise TimeoutError("the model took too long")

    policy = TextPolicy(complete, retries=3)
    play(policy, seeds=[0])
    s = policy.stats
    assert s["timeouts"] == s["calls"] == s["fallbacks"] == s["moves"] > 0
    assert s["invalid"] == 0


def test_fallback_raise_and_rule():
    env = play(TextPolicy(lambda p: "1"), seeds=[0])
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    with pytest.raises(ReplyError, match="not one of your legal actions"):
        TextPolicy(lambda p: "?", retries=0, fallback="raise").act(
            obs["observation"], obs["action_mask"]
        )
    bot = mafia_env.seating.policies.RandomPolicy()
    with pytest.raises(Defer) as err:
        TextPolicy(lambda p: "?", retries=0, fallback="rule", backup=bot).act(
            obs["observation"], obs["action_mask"]
        )
    assert err.value.policy is bot
    with pytest.raises(ConfigError, match="fallback is one of rule, random, first, raise"):
        TextPolicy(lambda p: "1", fallback="guess")
    with pytest.raises(ConfigError, match="needs backup"):
        TextPolicy(lambda p: "1", fallback="rule")
    assert np.all(obs["action_mask"] >= 0)
