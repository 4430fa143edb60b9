"""Text observations for language-model agents: content, no leaks, the reply adapter."""

from __future__ import annotations

import re

import numpy as np
import pytest
from gymnasium import spaces

import mafia_env
from mafia_env.actions import ActionLayout
from mafia_env.engine.events import PUBLIC, Cause, Ev
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import NIGHT_TURNS, Act, Turn
from mafia_env.engine.roles import Role, Team
from mafia_env.lang import LANGS, describe, table
from mafia_env.narrate import narrate
from mafia_env.text import MAX_LENGTH, ReplyError, TextObserver, TextPolicy, parse_reply
from tests.scripting import to_day_one

VARIANTS = sorted(mafia_env.VARIANTS)


def menu(text: str) -> list[str]:
    return re.findall(r"^\d+\. (.*)$", text, re.M)


def words_now(env, index: int, lang: str) -> str:
    """An action's words, read from the live game where they depend on the moment (the text
    observer reads them from the events): a vote not given goes to the last nominee (SPORT-D3,
    CLUB-E8), no number forfeits (CITY-N10), a gesture shown again is taken back (ONLINE-D6)."""
    u = env.unwrapped
    game, rules, ui = u.game, u.rules, table(lang).UI
    act, target, value = u.layout.decoded[index]
    v, turn = game.vote, game.turn
    last = v.candidates[-1] + 1 if v.candidates else 0
    if act is Act.PASS and rules.silent_vote == "last_nominee" and last:
        if turn is Turn.VOTE:
            return ui["silent_vote_counts"].format(t=last)
        if turn is Turn.OPEN_VOTE and v.counted == len(v.candidates) - 1:
            return ui["hand_down_counts"].format(t=last)
    if act is Act.PASS and turn is Turn.MAFIA_KILL and rules.mafia_no_number == "forfeit":
        return ui["no_number"]
    if act is Act.ANSWER and turn is Turn.GESTURE and game.gestures[game.actor] == value:
        return ui["take_back"].format(answer=table(lang).ANSWERS[value])
    return describe(act, target, value, turn, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_text_observation_is_the_story_so_far_and_the_legal_actions(variant, lang, games):
    env = mafia_env.env(variant, obs_mode="text", lang=lang)
    vec = mafia_env.env(variant)
    space = env.observation_space("player_1")
    assert isinstance(space["observation"], spaces.Text)
    rng = np.random.default_rng(3)
    for seed in range(games(1, 3)):
        env.reset(seed=seed)
        vec.reset(seed=seed)
        game = env.unwrapped.game
        ui = table(lang).UI
        while not game.over:
            agent = env.agent_selection
            obs = env.observe(agent)
            assert space.contains(obs)
            mask = obs["action_mask"]
            assert np.array_equal(mask, vec.observe(agent)["action_mask"])
            seat = game.actor
            head = ui["you_are"].format(a=seat + 1, n=env.unwrapped.n)
            story = "\n".join([head, *narrate(game.events, seat, lang)])
            legal = np.flatnonzero(mask)
            words = [words_now(env, i, lang) for i in legal]
            assert obs["observation"] == "\n".join(
                [
                    story,
                    ui["your_turn"],
                    *(f"{k}. {w}" for k, w in enumerate(words, 1)),
                    ui["reply"],
                ]
            )
            assert menu(obs["observation"]) == words
            other = env.possible_agents[(seat + 1) % env.unwrapped.n]
            assert env.observe(other)["observation"].endswith(ui["not_your_turn"])
            index = int(rng.choice(legal))
            env.step(index)
            vec.step(index)
        last = env.observe("player_1")["observation"]
        assert last.endswith(table(lang).UI["game_over"]) and len(last) < MAX_LENGTH // 20


class TextView:
    """The text encoder with the interface of the vector one, for the no-leak driver."""

    def __init__(self, rules, n: int, lang: str):
        self.layout = ActionLayout(rules, n)
        self.text = TextObserver(self.layout, n, lang)

    def reset(self, game: Game) -> None:
        self.text.reset(game)

    def observe(self, game: Game, seat: int) -> str:
        if seat == game.actor and not game.over:
            mask = self.layout.mask(game)
        else:
            mask = np.zeros(self.layout.size, dtype=np.int8)
        return self.text.observe(game, seat, mask)


def knowledge(game: Game, watcher: int) -> tuple[int, int]:
    """Return how many public events and events private to `watcher` the game has logged."""
    public = private = 0
    for e in game.events:
        if e[4] == PUBLIC:
            public += 1
        elif e[4] >> watcher & 1:
            private += 1
    return public, private


def agreed(x: list, y: list) -> int:
    """Return the length of the common prefix of two lists."""
    k = 0
    for a, b in zip(x, y, strict=False):
        if a != b:
            break
        k += 1
    return k


def drive_b(b: Game, view: TextView, watcher: int, day_inputs, victims):
    """Drive B with A's day moves and A's night victims; return the watcher's trace."""
    victims, inputs = iter(victims), iter(day_inputs)
    trace = []
    while not b.over:
        if b.turn in NIGHT_TURNS:
            victim = next(victims, None)
            if victim is None:
                break
            while b.turn in NIGHT_TURNS:
                legal = dict(b.legal())
                targets = legal.get(Act.NIGHT) or 0  # a bitmask of seats
                if b.turn is Turn.MAFIA_KILL and victim >= 0 and targets >> victim & 1:
                    b.apply(Act.NIGHT, victim)
                elif Act.PASS in legal:
                    b.apply(Act.PASS)
                else:
                    b.apply(*b.default_action())
            continue
        trace.append((knowledge(b, watcher), view.observe(b, watcher)))
        nxt = next(inputs, None)
        if nxt is None or nxt[0] != b.actor:
            break  # A's game ended here, or the public turn order parted
        b.apply(*nxt[1:])
    else:
        trace.append((knowledge(b, watcher), view.observe(b, watcher)))
    return trace


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.slow
def test_no_leak_same_public_history_same_text(variant):
    """COMMON-2: two deals a watcher cannot tell apart give it the same text, word for word.

    The watcher is a civilian or a mafia member; two other players whose roles it does not
    know swap roles; B replays A's day moves and A's night victims. Wherever the watcher has
    been told the same things in both games (the same public events and the same private
    ones), its text observation must be the same.
    """
    rules = mafia_env.VARIANTS[variant]
    n = rules.default_players
    layout = ActionLayout(rules, n)
    rng = np.random.default_rng(2)
    compared = 0
    for seed in range(120):
        lang = LANGS[seed % 3]
        a = Game(rules, n, seed)
        deal = a.roles
        want = (Role.CIVILIAN, Role.MAFIA)[seed % 2]
        watcher = next((s for s in range(n) if deal[s] is want), deal.index(Role.CIVILIAN))
        mine = deal[watcher].team is Team.MAFIA
        unknown = [  # a mafia member knows his team; nobody knows the rest
            s for s in range(n) if s != watcher and not (mine and deal[s].team is Team.MAFIA)
        ]
        x, y = rng.choice(unknown, 2, replace=False)
        if deal[x] == deal[y]:
            continue
        deal_b = list(deal)
        deal_b[x], deal_b[y] = deal_b[y], deal_b[x]
        view_a, view_b = TextView(rules, n, lang), TextView(rules, n, lang)
        view_a.reset(a)
        trace_a, day_inputs, victims = [], [], []
        while not a.over:
            action = layout.decoded[int(rng.choice(np.flatnonzero(layout.mask(a))))]
            if a.turn not in NIGHT_TURNS:
                trace_a.append((knowledge(a, watcher), view_a.observe(a, watcher)))
                day_inputs.append((a.actor, *action))
            elif not victims or victims[-1][0] != a.day:
                victims.append((a.day, -1))
            before = len(a.events)
            a.apply(*action)
            if a.turn not in NIGHT_TURNS and victims and victims[-1][1] == -1:
                gone = [
                    e[2] for e in a.events[before:] if e[0] == Ev.ELIMINATED and e[3] != Cause.VOTE
                ]
                victims[-1] = (victims[-1][0], gone[0] if gone else -2)  # -2: a miss
        trace_a.append((knowledge(a, watcher), view_a.observe(a, watcher)))
        b = Game(rules, n, seed, deal_b)
        view_b.reset(b)
        trace_b = drive_b(b, view_b, watcher, day_inputs, [v for _, v in victims])
        public_a = [e for e in a.events if e[4] == PUBLIC]
        public_b = [e for e in b.events if e[4] == PUBLIC]
        private_a = [e for e in a.events if e[4] != PUBLIC and e[4] >> watcher & 1]
        private_b = [e for e in b.events if e[4] != PUBLIC and e[4] >> watcher & 1]
        same_public, same_private = agreed(public_a, public_b), agreed(private_a, private_b)
        k = 0
        for ((pub_a, priv_a), text_a), ((pub_b, priv_b), text_b) in zip(
            trace_a, trace_b, strict=False
        ):
            told_a, told_b = (pub_a, priv_a), (pub_b, priv_b)
            if told_a != told_b or pub_a > same_public or priv_a > same_private:
                break  # the watcher has been told different things: the texts may differ
            assert text_a == text_b, f"seed {seed}: text {k} differs"
            k += 1
        compared += k > 10
    assert compared >= 20


def test_a_mafia_member_is_told_his_team_and_a_civilian_only_his_own_role():
    deal = ["civilian"] * 6 + ["sheriff", "mafia", "mafia", "don"]
    env = mafia_env.env("sport", obs_mode="text", roles=deal)
    env.reset(seed=0)
    mafia = env.observe("player_8")["observation"]
    assert re.findall(r"Player (\d+), your role is (\w+)", mafia) == [("8", "mafia")]
    assert re.findall(r"player (\d+) is on your team \((\w+)\)", mafia) == [
        ("9", "mafia"),
        ("10", "don"),
    ]
    town = env.observe("player_7")["observation"]
    assert re.findall(r"Player (\d+), your role is (\w+)", town) == [("7", "sheriff")]
    assert "on your team" not in town


# ------------------------------------------------------------------------ replies


@pytest.fixture
def speech_env():
    env = mafia_env.env("sport", obs_mode="text")
    env.reset(seed=1)
    return to_day_one(env)


def test_parse_reply_takes_a_number_or_the_words(speech_env):
    env = speech_env
    obs = env.observe(env.agent_selection)
    legal = np.flatnonzero(obs["action_mask"]).tolist()
    words = menu(obs["observation"])
    assert words[0] == "End your speech." and words[1] == "Nominate player 1."
    assert parse_reply(env, "1") == legal[0] == env.action_id("pass")
    assert parse_reply(env, " 2. ") == legal[1] == env.action_id("nominate", 1)
    assert parse_reply(env, "2. Nominate player 1.") == legal[1]
    assert parse_reply(env, "nominate PLAYER   1") == legal[1]
    assert parse_reply(env, "nominate 1") == legal[1]  # the short name of describe_action
    assert parse_reply(env, "#3") == legal[2]
    assert parse_reply(env, "Say: I checked player 4: black.") == env.action_id(
        "claim_check", 4, "black"
    )
    assert parse_reply(env, f"{len(legal)}", agent=env.agent_selection) == legal[-1]
    assert parse_reply(env, "i am the don") == env.action_id("claim_role", value="don")


@pytest.mark.parametrize(
    "reply", ["0", "999", "2. Vote for player 3.", "dance", "", "vote 3", "nominate 11"]
)
def test_a_reply_that_names_no_legal_action_is_rejected_with_the_choices(speech_env, reply):
    with pytest.raises(ReplyError) as err:
        parse_reply(speech_env, reply)
    message = str(err.value)
    assert f"{reply!r} is not one of your legal actions; reply with a number 1.." in message
    assert "\n1. End your speech.\n2. Nominate player 1.\n" in message


def test_replies_in_russian_and_ukrainian():
    for lang, nominate in (("ru", "Выставить игрока 1"), ("uk", "виставити гравця 1")):
        env = mafia_env.env("sport", obs_mode="text", lang=lang)
        env.reset(seed=1)
        to_day_one(env)
        assert parse_reply(env, nominate) == env.action_id("nominate", 1)
    env = mafia_env.env("sport", obs_mode="text", lang="ru")
    env.reset(seed=1)
    to_day_one(env)
    claim = "сказать: «я проверил игрока 4: черный»"  # ё written as е, any case
    assert parse_reply(env, claim) == env.action_id("claim_check", 4, "black")
    with pytest.raises(ReplyError, match=r"'танцевать' — не допустимое действие.*\n1\. Закончить"):
        parse_reply(env, "танцевать")


def test_an_answer_may_be_just_its_words():
    """ONLINE-D4: the asked player may reply "Не знаю" for "Відповісти: «Не знаю»."."""
    env = mafia_env.env("online", obs_mode="text", lang="uk")
    env.reset(seed=0)
    env.step(env.action_id("pass"))  # the don's zero-night turn (ONLINE-N1)
    assert env.agent_selection == "player_1"
    env.step(env.action_id("ask", 2, "sheriff"))
    assert env.agent_selection == "player_2"
    assert parse_reply(env, "Не знаю") == env.action_id("answer", value="dont_know")
    assert parse_reply(env, "так") == env.action_id("answer", value="yes")


def test_bad_reply_kinds(speech_env):
    env = speech_env
    with pytest.raises(ReplyError, match=r"a reply must be text, such as '1'; got 3"):
        parse_reply(env, 3)
    with pytest.raises(ReplyError, match=r"player_5 is not acting now; player_1 is"):
        parse_reply(env, "1", agent="player_5")
    vector = mafia_env.env("minimal")  # the adapter works whatever the obs mode
    vector.reset(seed=0)
    assert parse_reply(vector, "1") == vector.legal_actions()[0]


class ScriptedModel:
    """A stand-in for a language model: sometimes rambles, else picks a listed action."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.prompts = 0

    def __call__(self, prompt: str) -> str:
        self.prompts += 1
        choices = menu(prompt.split("legal actions")[-1] if "\n1. " in prompt else prompt)
        roll = self.rng.random()
        if roll < 0.1:
            return "I think player 3 is suspicious."
        k = int(self.rng.integers(len(choices)))
        return str(k + 1) if roll < 0.6 else f"  {choices[k].upper()}  "


@pytest.mark.parametrize("lang", LANGS)
def test_text_policy_plays_whole_games_with_a_scripted_model(lang):
    model = ScriptedModel(0)
    policy = TextPolicy(model, retries=2, lang=lang)
    env = mafia_env.env("sport", obs_mode="text", lang=lang)
    for seed in range(3):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(policy.act(obs["observation"], obs["action_mask"]))
        assert env.unwrapped.winner is not None
    intro = table(lang).UI["bad_reply"].split("{k}")[1][:20]  # the words after the count
    assert policy.errors and all(intro in e and "\n1. " in e for e in policy.errors)
    assert model.prompts > 100
