"""What a seat is shown: its language everywhere, flags instead of words, what is public."""

from __future__ import annotations

import random
import re
import string

import pytest

import mafia_env
from mafia_env.engine.events import PUBLIC, Ev
from mafia_env.engine.kinds import Act, Turn
from mafia_env.lang import LANGS, table
from mafia_env.narrate import narrate
from mafia_env.table.core import Table
from mafia_env.table.view import SeatLog, action_groups, known_roles, public_phase, seat_view

VARIANTS = ["sport", "city", "club", "online", "forum", "minimal"]


def play_until(env, done, rng, choose=None, limit=3000):
    """Play random legal moves until `done(game)`; return whether it came."""
    game = env.unwrapped.game
    for _ in range(limit):
        if game.over:
            return False
        if done(game):
            return True
        legal = env.unwrapped.legal_actions()
        pick = choose(env, legal) if choose else None
        env.step(pick if pick is not None else rng.choice(legal))
    return False


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def tree(value, path=()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from tree(v, (*path, k))
    else:
        yield path, value


# ------------------------------------------------------------------ 12. languages


@pytest.mark.parametrize("part", ["TABLE", "PAGE"])
@pytest.mark.parametrize("lang", [x for x in LANGS if x != "en"])
def test_the_tables_words_exist_in_every_language_with_the_same_fields(part, lang):
    en = dict(tree(getattr(table("en"), part)))
    other = dict(tree(getattr(table(lang), part)))
    assert set(other) == set(en), f"{lang}.{part}: keys differ from English"
    for key, text in other.items():
        assert isinstance(text, str) and text.strip(), (lang, key)
        assert fields(text) == fields(en[key]), (lang, key, text)
        assert text != en[key], f"{lang}.{part}{list(key)} is not translated"


@pytest.mark.parametrize("variant", VARIANTS)
def test_buttons_speak_the_seats_language(variant):
    rng = random.Random(3)
    env = mafia_env.env(variant)
    env.reset(seed=5)
    game = env.unwrapped.game
    seen = set()
    while not game.over:
        for lang in ("ru", "uk"):
            for g in action_groups(env, game.actor, lang):
                seen.add(g["kind"])
                for word in [g["title"], *(a["label"] for a in g["actions"])]:
                    assert not re.search("[A-Za-z]", word), (lang, variant, word)
                for a in g["actions"]:
                    assert not re.search("[A-Za-z]", a["text"]), (lang, variant, a["text"])
        env.step(rng.choice(env.unwrapped.legal_actions()))
    assert {"pass", "vote"} <= seen


def test_line_flags_do_not_depend_on_the_words():
    env = mafia_env.env("sport")
    env.reset(seed=2)
    play_until(env, lambda g: g.over, random.Random(2))
    events = env.unwrapped.game.events
    for seat in [None, 0, 4]:
        books = {lang: SeatLog(seat, lang).update(events) for lang in LANGS}
        flags = {k: [(x["private"], x["mine"], x["mark"]) for x in b] for k, b in books.items()}
        assert flags["ru"] == flags["en"] == flags["uk"]
        assert [x["text"] for x in books["ru"]] == narrate(events, seat, "ru")
        heard = [e for e in events if e[4] == PUBLIC or (seat is not None and e[4] >> seat & 1)]
        heard = [e for e in heard if narrate([e], seat)]  # an event with words
        marks = [x["mark"] for x in books["en"]]
        assert marks.count("day") == sum(1 for e in heard if e[0] == Ev.DAY)
        assert marks.count("night") == sum(1 for e in heard if e[0] == Ev.NIGHT)
        if seat is None:
            assert not any(x["private"] or x["mine"] for x in books["en"])
            continue
        for line, e in zip(books["en"], heard, strict=False):
            assert line["private"] == (e[4] != PUBLIC)
        assert books["en"][0]["mine"] and books["en"][0]["private"]  # "Player n, your role"


def test_a_log_reads_only_the_new_events():
    env = mafia_env.env("minimal")
    env.reset(seed=1)
    book = SeatLog(0, "en")
    events = env.unwrapped.game.events
    first = list(book.update(events))
    play_until(env, lambda g: g.day >= 2, random.Random(1))
    lines = book.update(events)
    assert lines[: len(first)] == first  # the lines already made stay as they were
    assert [x["text"] for x in lines] == narrate(events, 0)
    assert book.update(events) is lines and len(lines) == len(narrate(events, 0))


# ------------------------------------------------------------------ public turns


@pytest.mark.parametrize(("variant", "turn"), [("club", Turn.NAMING), ("online", Turn.ANSWER)])
def test_the_naming_round_and_an_answer_are_public_turns(variant, turn):
    env = mafia_env.env(variant)
    env.reset(seed=1)
    assert play_until(env, lambda g: g.turn == turn, random.Random(4))
    game = env.unwrapped.game
    phase = turn.name.lower()
    assert public_phase(game) == phase
    other = (game.actor + 1) % game.n
    view = seat_view(env, other)
    assert view["phase"] == phase and view["actor"] == game.actor + 1
    assert [c["seat"] for c in view["seats"] if c["acting"]] == [game.actor + 1]


# ------------------------------------------------------------------ 13. the silent vote


def pass_label_at_a_vote(variant, lang="en"):
    env = mafia_env.env(variant)
    env.reset(seed=3)
    game = env.unwrapped.game

    def vote_with_nominees(g):
        return g.turn == Turn.VOTE and len(g.vote.candidates) > 1

    assert play_until(env, vote_with_nominees, random.Random(5))
    groups = action_groups(env, game.actor, lang)
    return next(g for g in groups if g["kind"] == "pass")["actions"][0]["label"], game


def test_a_silent_vote_is_labelled_by_what_it_does():
    label, game = pass_label_at_a_vote("sport")  # SPORT-D3: it goes to the last nominee
    last = game.vote.candidates[-1] + 1
    assert label == f"Do not vote: it goes to player {last}, the last nominee"
    ru, game = pass_label_at_a_vote("sport", "ru")
    last = game.vote.candidates[-1] + 1
    assert ru == f"Не голосовать: голос уйдёт игроку {last}, последнему выставленному"
    assert pass_label_at_a_vote("city")[0] == "Abstain"  # CITY-D1: an abstention


# ------------------------------------------------------------------ 14. small things


def test_a_player_voted_out_is_not_shown_nominated_during_his_last_word():
    env = mafia_env.env("sport")
    env.reset(seed=0)

    def last_word_after_vote(g):
        out = [e for e in g.events[-6:] if e[0] == Ev.ELIMINATED]
        return g.turn == Turn.LAST_WORD and out and out[-1][3] == 0  # Cause.VOTE

    assert play_until(env, last_word_after_vote, random.Random(0))
    game = env.unwrapped.game
    assert game.actor in game.today.nominees  # the engine still lists him
    view = seat_view(env, None)
    assert not any(c["nominated"] for c in view["seats"])


def test_the_team_sees_the_don_once_he_introduces_himself():
    env = mafia_env.env("online")
    env.reset(seed=2)
    game = env.unwrapped.game
    don = next(s for s, r in enumerate(game.roles) if r.label == "don")
    mate = next(s for s, r in enumerate(game.roles) if r.label == "mafia")
    assert known_roles(game, mate)[don] == "mafia"  # ONLINE-N2: the don hides at first

    def reveal(env, legal):
        reveal_id = env.unwrapped.layout.encode(Act.REVEAL_DON)
        return reveal_id if reveal_id in legal else None

    assert play_until(env, lambda g: g.don_introduced, random.Random(1), reveal)
    assert known_roles(game, mate)[don] == "don"
    assert known_roles(game, None).get(don) is None
    civilian = next(s for s, r in enumerate(game.roles) if r.team.name == "TOWN")
    assert don not in known_roles(game, civilian)


def test_nobody_is_shown_acting_before_the_game_begins():
    import asyncio

    from mafia_env.table.settings import TableConfig

    async def go():
        # (a table that opens with day 1's first speech: SPORT-N3's meeting is a night)
        config = TableConfig(
            humans=(1, 2),
            seed=1,
            bot_delay=0,
            turn_timeout=None,
            knobs={"zero_night_meeting": False},
        )
        t = Table(config)
        t.connect(0, None)
        view = t.view(0)
        assert not view["started"] and view["actor"] is None and not view["your_turn"]
        assert not any(c["acting"] for c in view["seats"])
        t.connect(1, None)
        assert t.view(0)["actor"] == 1 and t.view(0)["seats"][0]["acting"]

    asyncio.run(go())
