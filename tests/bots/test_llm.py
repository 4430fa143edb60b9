"""A chat model at the table, through the real `openai` client and a scripted loopback server."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

pytest.importorskip("openai")

import mafia_env
from baselines.llm import LLMPolicy
from baselines.prompt import KNOB_WORDS, UNSAID, VALUE_WORDS, system_prompt
from baselines.scripted_model import ChatServer, messy, well_formed
from mafia_env.engine.events import Ev
from mafia_env.engine.roles import Role
from mafia_env.engine.rules import KNOBS
from mafia_env.lang import LANGS, table
from mafia_env.seating.games import Seating, play_game, play_until
from mafia_env.seating.policies import load_policy
from mafia_env.text import parse_reply
from mafia_env.variants import get_variant

VARIANTS = sorted(mafia_env.VARIANTS)


@pytest.fixture(scope="module")
def server():
    with ChatServer(well_formed, seed=1) as s:
        yield s


def llm(server_url: str, variant: str, seed: int = 0, **options) -> LLMPolicy:
    options = {"model": "scripted", "base_url": server_url, "timeout": 5.0, **options}
    return load_policy("llm", variant, None, seed=seed, **options)


@pytest.mark.parametrize("variant", VARIANTS)
def test_full_games_of_every_variant_with_well_formed_replies(server, variant):
    models = {k: llm(server.url, variant, seed=k) for k in (1, 2, 4)}
    seating = Seating.load("rule", models, variant=variant, seed=7)
    env = mafia_env.env(variant)
    for seed in range(2):
        game = play_game(env, seating, seed=seed)
        assert game.winner is not None
        record = env.unwrapped.record()
        again = mafia_env.replay(record)
        assert again.game.events == game.events and again.game.talk == game.talk
    for model in models.values():
        s = model.stats
        assert s["moves"] > 0 and s["calls"] == s["moves"]
        assert s["fallbacks"] == s["invalid"] == s["timeouts"] == s["errors"] == 0
        assert s["prompt_tokens"] > 0 and s["completion_tokens"] > 0 and s["latency_s"] > 0


def test_the_model_talks_in_its_speeches_and_the_talk_is_public(server):
    model = llm(server.url, "sport")
    env = mafia_env.env("sport")
    game = play_game(env, Seating(default=model), seed=2)
    assert game.talk, "the scripted model adds talk to some speeches"
    talk_events = [e for e in game.events if e[0] == Ev.TALK]
    assert len(talk_events) == len(game.talk)
    text = mafia_env.replay(env.unwrapped.record(), obs_mode="text")
    story = text.observe("player_5")["observation"]
    assert f'says: "{game.talk[0][2]}".' in story


@pytest.mark.slow
def test_bad_replies_are_counted_and_fall_back_to_the_rule_bot():
    with ChatServer(messy(), seed=3) as s:
        model = llm(s.url, "sport", retries=1)
        env = mafia_env.env("sport")
        for seed in range(2):
            assert play_game(env, Seating(default=model), seed=seed).winner is not None
        stats = model.stats
        assert stats["invalid"] > 0 and stats["fallbacks"] > 0
        assert stats["calls"] == stats["moves"] + stats["invalid"] - stats["fallbacks"]
        assert len(model.fallbacks) == stats["fallbacks"]
        assert {reason for reason, _ in model.fallbacks} == {"invalid"}
        assert len(s.requests) == stats["calls"]


def test_a_model_too_slow_times_out_and_the_fallback_plays():
    with ChatServer(messy(slow=2.0, p_slow=0.1), seed=4) as s:
        model = llm(s.url, "minimal", timeout=0.25, max_retries=0, fallback="random")
        env = mafia_env.env("minimal")
        assert play_game(env, Seating.load("rule", {1: model, 2: model}, variant="minimal"),
                         seed=0).winner is not None  # fmt: skip
        stats = model.stats
        assert stats["timeouts"] > 0
        assert stats["fallbacks"] >= stats["timeouts"]
        assert {"timeout"} <= {reason for reason, _ in model.fallbacks}


def test_a_server_that_is_not_there_is_an_error_counted_not_a_crash():
    model = LLMPolicy("minimal", model="x", base_url="http://127.0.0.1:9/v1", timeout=0.5,
                      max_retries=0, fallback="first")  # fmt: skip
    env = mafia_env.env("minimal")
    assert play_game(env, Seating(default=model), seed=0).winner is not None
    assert model.stats["errors"] == model.stats["fallbacks"] == model.stats["moves"] > 0


@pytest.mark.parametrize("lang", LANGS)
def test_every_knob_has_words_in_every_language(lang):
    assert set(KNOB_WORDS[lang]) == set(KNOBS), "a new knob needs its words in baselines/prompt.py"
    for name, knob in KNOBS.items():
        for value in () if name in UNSAID else knob.choices:
            assert value in VALUE_WORDS[lang], f"{lang}: the words of {name}={value!r}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_system_prompt_states_the_variants_rules_in_the_seats_language(variant, lang):
    rules = get_variant(variant)
    n = rules.default_players
    words = table(lang)
    role = Role.SHERIFF
    prompt = system_prompt(rules, n, 3, role, lang)
    assert words.ROLES["sheriff"] in prompt and rules.title in prompt
    for r, c in rules.role_counts(n).items():
        if c:
            assert f"{c} × {words.ROLES[r.label]}" in prompt
    assert KNOB_WORDS[lang]["tie"] in prompt
    other = dataclasses.replace(rules, zero_night=not rules.zero_night)
    assert system_prompt(other, n, 3, role, lang) != prompt  # from the rules, not by hand


def test_the_prompt_reaches_the_server_with_the_seats_role(server):
    model = llm(server.url, "club", lang="ru")
    env = mafia_env.env("club", lang="ru")
    before = len(server.requests)
    play_game(env, Seating.load("rule", {3: model}, variant="club"), seed=5)
    sent = server.requests[before]["messages"]
    role = table("ru").ROLES[env.unwrapped.roles["player_3"]]
    assert sent[0]["role"] == "system" and f"Ваша роль: {role}." in sent[0]["content"]
    assert "игроком 3" in sent[0]["content"]
    assert sent[1]["content"].startswith("Вы — игрок 3")


def test_a_model_rule_bots_ppo_and_a_person_share_one_table(server):
    pytest.importorskip("torch")
    variant = "sport"
    model = llm(server.url, variant)
    seats = {1: model, 2: load_policy("ppo", variant, 10, seed=2), 3: None}
    seating = Seating.load("rule", seats, variant=variant, seed=1)
    env = mafia_env.env(variant)  # vector observations by default: each seat gets its kind
    env.reset(seed=4)
    players = seating.players(env.unwrapped.game)
    person_moves = 0
    while (seat := play_until(env, players)) is not None:
        assert seat == 2  # the person's seat index
        u = env.unwrapped
        if u.may_talk():
            u.say("player_3", "I am just a civilian, honestly.")
        text = u.text_observer.observe(u.game, seat, u._legal_mask())
        assert text.splitlines()[-1] == table("en").UI["reply"]
        env.step(parse_reply(env, "1"))  # a person who always picks the first action
        person_moves += 1
    assert env.unwrapped.winner is not None and person_moves > 0
    assert model.stats["moves"] > 0 and model.stats["fallbacks"] == 0
    assert any(seat == 2 for seat, _, _ in env.unwrapped.game.talk)
    assert mafia_env.replay(env.unwrapped.record()).game.events == env.unwrapped.game.events
    assert np.isfinite(model.stats["latency_s"])
