"""Moderator narration in en, ru, uk: complete tables, visibility, rendering, golden games."""

from __future__ import annotations

import os
import string
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mafia_env
from mafia_env.engine.events import PUBLIC, Ev, sequence_code
from mafia_env.engine.kinds import NIGHT_TURNS, Act, Turn
from mafia_env.engine.roles import Role
from mafia_env.errors import ConfigError
from mafia_env.lang import LANGS, SILENT, SUBKEYS, describe, say, table
from mafia_env.narrate import ALL, narrate
from tests.scripting import SPORT_DEAL, Table, random_playout

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
UPDATE = os.environ.get("MAFIA_UPDATE_GOLDEN") == "1"
FIELDS = {"a", "t", "v", "role", "color", "seats", "order", "hunt_as", "text", "hands"}


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_kind_has_words_in_every_language(lang):
    """Every `Ev` member has a string (or one per sub-key) in each language's table, but the
    events the moderator does not announce (`SILENT`)."""
    events = table(lang).EVENTS
    missing = [e.name for e in Ev if e.name not in events and e.name not in SILENT]
    assert not missing, f"{lang}: no narration for events {missing}"
    assert set(events) | SILENT == {e.name for e in Ev}, f"{lang}: unknown event names"
    assert not set(events) & SILENT, f"{lang}: words for a silent event"
    for name, words in events.items():
        if name in SUBKEYS:
            assert isinstance(words, dict), f"{lang}: {name} needs one string per sub-key"
            assert set(words) == set(SUBKEYS[name]), f"{lang}: {name} sub-keys"
            templates = list(words.values())
        else:
            assert isinstance(words, str), f"{lang}: {name} must be one string"
            templates = [words]
        for t in templates:
            assert t.strip() and _fields(t) <= FIELDS, f"{lang}: {name}: {t!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_act_role_and_colour_is_translated(lang):
    mod = table(lang)
    assert set(mod.ROLES) == {r.label for r in Role}
    assert len(mod.COLORS) == 2
    assert set(mod.ACTIONS) == {a.name for a in Act}, f"{lang}: action words"
    turns = {t.name for t in Turn}
    for name, words in mod.ACTIONS.items():
        assert "*" in words and set(words) <= turns | {"*"}, f"{lang}: {name}"
    assert set(mod.UI) == set(table("en").UI)


def _tree(x):
    if isinstance(x, dict):
        return {k: _tree(v) for k, v in x.items()}
    return type(x).__name__


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_translations_have_the_same_keys_as_english_and_differ_from_it(lang):
    en, mod = table("en"), table(lang)
    for part in ("EVENTS", "ACTIONS", "UI", "ROLES"):
        assert _tree(getattr(mod, part)) == _tree(getattr(en, part)), f"{lang}.{part}"
    for name, words in en.EVENTS.items():
        assert words != mod.EVENTS[name], f"{lang}: {name} is not translated"


def _sample(kind: Ev) -> list[tuple[int, int, int, int, int]]:
    """Return events of `kind` that reach every sub-key of its words."""
    values = {
        Ev.ROLE: [int(r) for r in Role],
        Ev.TEAMMATE: [int(Role.DON)],
        Ev.CLAIM_ROLE: [int(r) for r in Role],
        Ev.REVEAL: [int(r) for r in Role],
        Ev.CLAIM_CHECK: [0, 1],
        Ev.SPEAK: [int(t) for t in (Turn.SPEECH, Turn.LAST_WORD, Turn.TIE_SPEECH)],
        Ev.VOTING: [sequence_code([0, 3, 1]), sequence_code([2])],
        Ev.BLOCKED: [int(t) for t in (Turn.DON_CHECK, Turn.SHERIFF_CHECK, Turn.DOCTOR)]
        + [int(Turn.MANIAC)],
        Ev.TIE: [0b110],
        Ev.CRASH: [0b110],
    }.get(kind, [0, 1, 2, 3])
    out = []
    for v in values:
        for actor, target in ((2, -1), (2, 4), (-1, 4)):
            out.append((int(kind), actor, target, v, PUBLIC))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_formats_in_every_language(lang):
    """Every event kind, with every value it takes, reads as a full sentence (a silent kind
    says nothing)."""
    for kind in Ev:
        said = set()
        for e in _sample(kind):
            for role in (None, Role.SHERIFF, Role.DON):
                try:
                    line = say(e, lang, role)
                except (ValueError, IndexError):
                    continue  # a value this kind never takes
                if line is not None:
                    assert "{" not in line and line[-1] in ".?»", (lang, kind.name, line)
                    said.add(line)
        assert bool(said) is (kind.name not in SILENT), f"{lang}: {kind.name} formats wrong"


def test_check_reads_as_the_sheriff_or_the_don_heard_it():
    e = (Ev.CHECK, 0, 4, 1, 1)
    assert say(e, "en", Role.SHERIFF) == "Player 1, player 5 is black: mafia."
    assert say(e, "en", Role.DON) == "Player 1, yes: player 5 is the sheriff."
    assert say(e, "ru", Role.SHERIFF) == "Игрок 1, игрок 5 — чёрный: мафия."
    assert say(e, "uk", Role.DON) == "Гравцю 1, так: гравець 5 — шериф."


def test_action_words():
    assert describe(Act.NIGHT, 2, -1, Turn.MAFIA_KILL, "en") == "Shoot player 3."
    assert describe(Act.NIGHT, 2, -1, Turn.SHERIFF_CHECK, "ru") == "Проверить, мафия ли игрок 3."
    assert describe(Act.PASS, -1, -1, Turn.VOTE, "uk") == "Не голосувати."
    assert describe(Act.CLAIM_ROLE, -1, int(Role.DON), Turn.SPEECH, "ru") == (
        "Сказать: «Моя роль — дон»."
    )


def test_lang_is_validated():
    with pytest.raises(ConfigError, match=r"unknown lang 'fr'; languages are: en, ru, uk"):
        mafia_env.env("sport", lang="fr")
    with pytest.raises(ConfigError, match="unknown lang"):
        narrate([], lang="EN")


@pytest.mark.parametrize("variant", sorted(mafia_env.VARIANTS))
def test_each_seat_hears_public_events_and_only_its_own_private_ones(variant):
    env = mafia_env.env(variant)
    env.reset(seed=11)
    random_playout(env, np.random.default_rng(11))
    game = env.unwrapped.game
    events = game.events
    public = narrate(events)
    assert len(public) == sum(1 for e in events if e[4] == PUBLIC and say(e) is not None)
    assert not any("your role" in line for line in public)
    for seat in range(env.unwrapped.n):
        mine = narrate(events, seat)
        private = [e for e in events if e[4] != PUBLIC and e[4] >> seat & 1 and say(e) is not None]
        assert len(mine) == len(public) + len(private)
        team = game.teams[seat]
        for e in private:  # his own, or his team's (a mafia member sees the team's shots)
            assert e[1] == seat or (e[1] >= 0 and game.teams[e[1]] == team), e
        assert f"Player {seat + 1}, your role is" in mine[0]
        assert sum("your role is" in line for line in mine) == 1
    everything = narrate(events, ALL)
    assert len(everything) == sum(1 for e in events if say(e) is not None)


@pytest.mark.parametrize("lang", LANGS)
def test_render_ansi_returns_the_public_narration_and_human_prints_it(lang, capsys):
    ansi = mafia_env.env("sport", render_mode="ansi", lang=lang)
    human = mafia_env.env("sport", render_mode="human", lang=lang)
    for env in (ansi, human):
        env.reset(seed=5)
        random_playout(env, np.random.default_rng(5))
    text = ansi.render()
    assert text == "\n".join(narrate(ansi.unwrapped.game.events, None, lang))
    assert capsys.readouterr().out == text + "\n"
    assert table(lang).EVENTS["NIGHT"]["zero"] in text


# ------------------------------------------------------------------ golden games


def night(t: Table, plan: dict[tuple[str, int], Any]) -> None:
    """Play the night: the turn (phase, seat) in `plan` takes its step, others pass.

    A step is a target seat (the turn's night action), a (kind, target) pair, or a list of
    those for the seat's successive acts in that phase; a turn with no step passes where it
    may, else takes its default action.
    """
    while t.game.turn in NIGHT_TURNS and not t.game.over:
        step = plan.get((t.phase, t.actor))
        if isinstance(step, list):
            step = step.pop(0) if step else None
        if step is None:
            t.act(t.actor, "pass") if "pass" in t.mask_kinds() else t.default()
        elif isinstance(step, int):
            t.act(t.actor, "night", step)
        else:
            t.act(t.actor, *step)


def sport_game() -> Table:
    """A SPORT game: the mafia's meeting, a miss, checks, claims, a tie, a re-vote, a car
    crash, fouls, a kill."""
    t = Table("sport", SPORT_DEAL, skip_zero_night=False)
    t.act(4, "night", 2)  # SPORT-N3: the meeting; 8 shows no number, the don his word
    t.act(8, "pass")
    t.act(6, "night", 2)
    t.speeches({1: [("claim_role", None, "sheriff")], 2: [("accuse", 8)]})  # no nominee
    kill = "mafia_kill"  # split shots: a miss; the don checks 2, the sheriff 4
    night(
        t, {(kill, 4): 2, (kill, 6): 2, (kill, 8): 3, ("don_check", 6): 2, ("sheriff_check", 1): 4}
    )
    t.speeches(
        {
            1: [("claim_check", 4, "black"), ("nominate", 4)],
            3: [("nominate", 6)],
            4: [("vouch", 6), ("claim_role", None, "sheriff")],
        }
    )
    for _ in range(3):  # SPORT-F1: three fouls take away the next day's speech
        t.env.foul("player_5")
    split = {1: 4, 2: 4, 3: 4, 5: 4, 7: 4, 4: 6, 6: 6, 8: 6, 9: 6, 10: 6}
    t.vote(split)  # 5-5: the tied players speak again, then a re-vote
    t.speeches()
    while t.phase == "vote":  # tied again: the car crash
        t.act(t.actor, "vote", split[t.actor])
    while t.phase == "crash_vote":  # six of ten say yes: both leave
        t.act(t.actor, "vote_yes" if t.actor in (1, 2, 3, 5, 7, 9) else "vote_no")
    t.speeches()  # last words of 4 and 6
    night(t, {(kill, 8): 1, ("sheriff_check", 1): 8})  # the sheriff checks 8, then dies
    t.speeches({1: [("accuse", 8)], 2: [("nominate", 8)]})  # 5 is silenced today
    t.vote(dict.fromkeys((1, 2, 3, 7, 9, 10), 8))
    assert t.env.winner == "town"
    return t


def minimal_game() -> Table:
    """A MINIMAL game: a vote, a night kill, a last vote."""
    t = Table("minimal", ["civilian", "civilian", "mafia", "civilian", "mafia"])
    t.speeches({1: [("nominate", 3)], 2: [("nominate", 5)]})
    t.vote({1: 3, 2: 5, 3: 5, 4: 3, 5: 3})
    night(t, {("mafia_kill", 5): 1})
    t.speeches({2: [("nominate", 5)]})
    t.vote({2: 5, 4: 5, 5: 5})
    assert t.env.winner == "town"
    return t


def vote_all(t: Table, target: int) -> None:
    """Every living player but `target` votes for him; he does not vote."""
    t.vote({s: target for s in t.alive if s != target})


def city_game() -> Table:
    """A CITY game: the maniac voted out and shown, the putana's visits, a check, a kill."""
    deal = [*SPORT_DEAL[:2], "putana", "mafia", "civilian", "don", "civilian", "mafia"]
    t = Table("city", [*deal, "maniac", "civilian"])
    t.speeches({1: [("nominate", 9)]})
    vote_all(t, 9)  # CITY-M1: the maniac's role is announced
    t.speeches()  # his last word
    kill = "mafia_kill"
    night(t, {("putana", 3): 1, (kill, 4): 2, (kill, 8): 2, (kill, 6): 2, ("don_check", 6): 1})
    t.speeches({2: [("accuse", 4)], 3: [("nominate", 4)]})
    vote_all(t, 4)
    t.speeches()
    night(
        t,
        {
            ("putana", 3): 5,
            (kill, 8): 7,
            (kill, 6): 7,
            ("don_check", 6): 5,
            ("sheriff_check", 1): 8,
        },
    )
    t.speeches({1: [("claim_check", 8, "black"), ("nominate", 8)]})
    vote_all(t, 8)
    t.speeches()
    night(t, {("putana", 3): 10, (kill, 6): 10})
    t.speeches({1: [("nominate", 6)]})
    vote_all(t, 6)
    assert t.env.winner == "town"
    return t


def club_game() -> Table:
    """A CLUB game: naming rounds, monologues, cards shown, a split night, a kill."""
    deal = ["sheriff", "civilian", "mafia", "civilian", "civilian", "mafia", "civilian"]
    t = Table("club", [*deal, "civilian", "mafia", "civilian"])
    t.speeches({1: [("accuse", 3)]})
    t.naming({s: 3 if s != 3 else 5 for s in range(1, 11)})  # CLUB-E1
    t.speeches()  # CLUB-E2: his monologue
    vote_all(t, 3)
    night(t, {("mafia_kill", 6): 2, ("mafia_kill", 9): 4, ("sheriff_check", 1): 6})
    t.speeches()
    t.naming({s: 6 if s != 6 else 9 for s in sorted(t.alive)})
    t.speeches()
    vote_all(t, 6)
    night(t, {("mafia_kill", 9): 2, ("sheriff_check", 1): 9})
    t.speeches({1: [("claim_role", None, "sheriff")]})
    t.naming({s: 9 if s != 9 else 1 for s in sorted(t.alive)})
    t.speeches()
    vote_all(t, 9)
    assert t.env.winner == "town"
    return t


def online_game() -> Table:
    """An ONLINE game: a question and its answer, table talk, the don introduced, heals, a
    kill."""
    deal = ["sheriff", "doctor", "mafia", "civilian", "civilian", "don", "civilian", "mafia"]
    t = Table("online", [*deal, "civilian", "civilian"])
    talk = ("say", None, "Six, you hesitated: I do not believe you.")
    t.speeches(
        {1: [("ask", 6, "sheriff"), talk, ("nominate", 3)], 5: [("accuse", 6)]},
        answers={6: "no"},
        gestures={3: "no", 6: "dont_know"},  # ONLINE-D6: the named listeners' gestures
    )
    vote_all(t, 3)
    t.speeches()  # his last word
    kill = "mafia_kill"
    night(
        t,
        {
            (kill, 6): [("reveal_don", None), 4],
            (kill, 8): 4,
            ("doctor", 2): 4,
            ("sheriff_check", 1): 8,
            ("don_check", 6): 1,
        },
    )
    t.speeches({1: [("claim_check", 8, "black"), ("nominate", 8)]})
    vote_all(t, 8)
    t.speeches()
    night(t, {(kill, 6): 5, ("doctor", 2): 2, ("sheriff_check", 1): 6})
    t.speeches({1: [("nominate", 6)]})
    vote_all(t, 6)
    assert t.env.winner == "town"
    return t


def forum_game() -> Table:
    """A FORUM game: the maniac voted out, a hunt, a victim and an executor, a self-heal."""
    deal = ["doctor", "civilian", "mafia", "civilian", "civilian", "civilian", "maniac"]
    t = Table("forum", [*deal, "mafia", "civilian", "civilian"])
    t.speeches({2: [("nominate", 7)]})
    vote_all(t, 7)
    shot = [5]
    night(
        t,
        {
            ("hunt", 2): ("hunt", 8, "mafia"),
            ("mafia_kill", 3): shot,
            ("executor", 3): ("executor", 3),
            ("mafia_kill", 8): 5,
            ("executor", 8): ("executor", 3),
            ("doctor", 1): 1,
        },
    )
    t.speeches({4: [("nominate", 3)]})
    vote_all(t, 3)
    assert t.env.winner == "town"
    return t


GAMES = {
    "sport": sport_game,
    "minimal": minimal_game,
    "city": city_game,
    "club": club_game,
    "online": online_game,
    "forum": forum_game,
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", sorted(GAMES))
def test_golden_narration(variant, lang):
    """The moderator's full narration of a scripted game, as stored under tests/data/golden/."""
    game = GAMES[variant]().game
    text = "\n".join(narrate(game.events, ALL, lang, game.talk)) + "\n"
    path = GOLDEN / f"{variant}_{lang}.txt"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_golden_games_cover_every_event():
    seen = {e[0] for play in GAMES.values() for e in play().game.events}
    never = {Ev.TERMINATED, Ev.SPARED}  # a stopped game, a vote that removes nobody
    assert {e for e in Ev if e not in seen} <= never
