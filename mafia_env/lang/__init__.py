"""Moderator languages: one table per language, keyed by event name, and one formatter.

Each language module (`en`, `ru`, `uk`) holds ``ROLES`` (role label -> name), ``COLORS``
(red, black), ``EVENTS`` (event name -> template, or a dict of templates chosen by the
event's value), ``ACTIONS`` (act name -> templates by the kind of turn, ``"*"`` for any) and
``UI`` (the frame of a text observation). Templates name their fields: ``{a}`` the actor's
seat, ``{t}`` the target's seat (both numbered from 1), ``{v}`` the raw value, ``{role}`` the
role of the value, ``{color}`` the colour of the value, ``{seats}`` the seats of a bitmask,
``{answer}`` the answer of the value, ``{order}`` the seats of a sequence code in their order,
``{hunt_as}`` the status a hunter guesses (empty without one), ``{text}`` the remark of table
talk (``TALK``, whose value indexes the game's ``talk``), ``{hands}`` the seats of a bitmask
as a list ending in the language's ``AND`` ("2, 5 and 9": who voted in an open count).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache
from importlib import import_module
from types import ModuleType
from typing import Any

from mafia_env.engine.events import (
    SEQ_BITS,
    Answer,
    Cause,
    Ev,
    NoVote,
    Outcome,
    Spared,
    seat_sequence,
)
from mafia_env.engine.kinds import SPEECH_TURNS, Act, Turn
from mafia_env.engine.roles import Role
from mafia_env.errors import ConfigError

LANGS = ("en", "ru", "uk")
DEFAULT = "en"

# Events whose words depend on their value: event name -> the sub-keys every language gives.
SUBKEYS: dict[str, tuple[str, ...]] = {
    "NIGHT": ("zero", "night"),
    "SPEAK": tuple(t.name for t in Turn if t in SPEECH_TURNS),
    "NO_VOTE": tuple(x.name for x in NoVote),
    "NOMINATE": ("by", "round"),
    "VOTING": ("one", "many"),
    "BALLOT": ("vote", "silent", "barred", "abstain"),
    "CRASH_BALLOT": ("yes", "no"),
    "SPARED": tuple(x.name for x in Spared),
    "ELIMINATED": tuple(x.name for x in Cause),
    "SHOT": ("shot", "hold"),
    "CHECK": ("sheriff_yes", "sheriff_no", "don_yes", "don_no", "yes", "no"),
    "GAME_OVER": tuple(x.name for x in Outcome),
    "HEAL_STATE": ("some", "none"),
    "BLOCKED": ("DON_CHECK", "SHERIFF_CHECK", "DOCTOR", "MANIAC"),
    "ANSWER": tuple(x.name for x in Answer),
    "SILENCED": ("speech", "last_word"),
    "COUNT": ("none", "one", "many"),
    "PROPOSE": ("shown", "none"),
    "GESTURE": (*(x.name for x in Answer), "NONE"),
}

# Events the moderator does not announce: the start of a turn is told by SPEAK for speeches
# and needs no words elsewhere (a ballot, a gesture, a night action says it was taken).
SILENT = frozenset({"TURN"})

# Letters and marks a remark of table talk may use beyond the tables' own (`charset`): the
# Russian and Ukrainian alphabets and typographic punctuation.
TALK_CHARS = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяієїґАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯІЄЇҐ«»“”„‘’—–…№"

# Characters a remark of table talk loses (`talk_text`): controls, lone surrogates, and the
# bidirectional embeddings, overrides and isolates that would turn the lines after them
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

_loaded: dict[str, ModuleType] = {}


def talk_text(text: str) -> str:
    """Return a remark of table talk as it is kept: every script and emoji as written, less
    its control characters (a line break, a tab or another space reads as a space)."""
    out = []
    for c in text:
        if c.isprintable():
            out.append(c)
            continue
        kind = unicodedata.category(c)
        if kind[0] == "Z" or c in "\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85":
            out.append(" ")
        elif kind in ("Cf", "Co", "Cn") and c not in _BIDI:
            out.append(c)  # a joiner, a variation selector, a character newer than Python's
    return "".join(out)


def talk_line(line: str) -> str:
    """Return a narrated line with the characters the text observation's charset lacks as
    "?" (`charset`: a remark keeps its own script in the narration and the record)."""
    allowed = charset()
    return "".join(c if c in allowed else "?" for c in line)


def check_lang(code: Any) -> str:
    """Return `code` if it names a language, else raise a ConfigError listing them."""
    if not isinstance(code, str) or code not in LANGS:
        raise ConfigError(f"unknown lang {code!r}; languages are: {', '.join(LANGS)}")
    return code


def table(code: str) -> ModuleType:
    """Return the module of strings of language `code`."""
    mod = _loaded.get(code)
    if mod is None:
        mod = _loaded[code] = import_module(f"mafia_env.lang.{check_lang(code)}")
    return mod


def seat_list(mask: int) -> str:
    """Return the seats of a bitmask, numbered from 1: "2, 5, 7"."""
    return ", ".join(str(s + 1) for s in range(mask.bit_length()) if mask >> s & 1)


def _subkey(kind: int, actor: int, target: int, value: int, role: Role | None) -> str | None:
    """Return the sub-key of an event whose words depend on its value, else None."""
    if kind == Ev.NIGHT:
        return "zero" if value == 0 else "night"
    if kind == Ev.SPEAK:
        return Turn(value).name
    if kind == Ev.NO_VOTE:
        return NoVote(value).name
    if kind == Ev.NOMINATE:
        return "by" if actor >= 0 else "round"  # CLUB-E1: the naming round nominates
    if kind == Ev.VOTING:  # a sequence code: one seat fits in its lowest SEQ_BITS
        return "one" if value >> SEQ_BITS == 0 else "many"
    if kind == Ev.BLOCKED:
        return Turn(value).name
    if kind == Ev.BALLOT:  # value 2: a nominee's vote (CLUB-E8)
        return (
            "abstain" if target < 0 else ("barred" if value == 2 else "silent" if value else "vote")
        )
    if kind == Ev.CRASH_BALLOT:
        return "yes" if value else "no"
    if kind == Ev.SPARED:
        return Spared(value).name
    if kind == Ev.ELIMINATED:
        return Cause(value).name
    if kind == Ev.SHOT:
        return "shot" if target >= 0 else "hold"
    if kind == Ev.CHECK:
        answer = "yes" if value else "no"
        if role is Role.SHERIFF or role is Role.DON:
            return f"{role.label}_{answer}"
        return answer
    if kind == Ev.GAME_OVER:
        return Outcome(value).name
    if kind == Ev.HEAL_STATE:
        return "some" if target >= 0 else "none"
    if kind == Ev.ANSWER:
        return Answer(value).name
    if kind == Ev.SILENCED:  # SPORT-F3: a last word lost; else today's speech
        return "last_word" if value == Turn.LAST_WORD else "speech"
    if kind == Ev.COUNT:
        return "none" if value == 0 else ("one" if value & (value - 1) == 0 else "many")
    if kind == Ev.PROPOSE:
        return "shown" if target >= 0 else "none"
    if kind == Ev.GESTURE:
        return Answer(value).name if value >= 0 else "NONE"
    return None


class _Fields(dict):
    """Template fields, computed only when a template asks for them."""

    def __init__(self, lang: ModuleType, actor: int, target: int, value: int):
        super().__init__(a=actor + 1, t=target + 1, v=value)
        self.lang = lang

    def __missing__(self, key: str) -> str:
        v = self["v"]
        if key == "role":
            return self.lang.ROLES[Role(v).label]
        if key == "color":
            return self.lang.COLORS[v]
        if key == "seats":
            return seat_list(v)
        if key == "answer":
            return self.lang.ANSWERS[v]
        if key == "order":  # seats in the order of a sequence code
            return ", ".join(str(s + 1) for s in seat_sequence(v))
        if key == "hunt_as":  # FORUM-N4: the status guessed, where there is one
            return self.lang.HUNT_AS[v] if v >= 0 else ""
        if key == "hands":  # CLUB-E7: "2, 5 and 9"
            *rest, last = seat_list(v).split(", ")
            return f"{', '.join(rest)} {self.lang.AND} {last}" if rest else last
        raise KeyError(key)


def say(
    event: tuple[int, int, int, int, int],
    lang: str = DEFAULT,
    role: Role | None = None,
    talk: Sequence[tuple[int, int, str]] | None = None,
):
    """Return one event as the moderator says it in `lang`, or None if it is not announced.

    `role` is the actor's role where the listener knows it (a check reads as the sheriff's
    "black" or the don's "sheriff" answer). `talk` is the game's table talk (`Game.talk`),
    which a TALK event indexes; without it a remark reads as "…".
    """
    kind, actor, target, value, _ = event
    words = table(lang).EVENTS.get(Ev(kind).name)
    if words is None:
        return None
    if isinstance(words, dict):
        words = words.get(_subkey(kind, actor, target, value, role))
        if words is None:
            return None
    fields = _Fields(table(lang), actor, target, value)
    if kind == Ev.TALK:
        fields["text"] = talk[value][2] if talk is not None and 0 <= value < len(talk) else "…"
    return words.format_map(fields)


def describe(act: Act, target: int, value: int, turn: Turn | None, lang: str = DEFAULT) -> str:
    """Return an action in plain words of `lang`, as it reads in a turn of kind `turn`."""
    mod = table(lang)
    words = mod.ACTIONS[Act(act).name]
    text = words.get(turn.name if turn is not None else "*") or words["*"]
    return text.format_map(_Fields(mod, -1, target, value))


@cache
def charset() -> frozenset[str]:
    """Return every character a text observation may hold, in any language."""
    import string

    chars = set(string.printable) | set(TALK_CHARS)
    for code in LANGS:
        mod = table(code)
        for tree in (
            mod.ROLES,
            mod.COLORS,
            mod.ANSWERS,
            mod.HUNT_AS,
            mod.AND,
            mod.EVENTS,
            mod.ACTIONS,
            mod.UI,
            mod.NAME,
        ):
            chars |= set(_flatten(tree))
    return frozenset(chars)


def _flatten(tree: Any) -> str:
    if isinstance(tree, str):
        return tree
    if isinstance(tree, dict):
        return "".join(_flatten(v) for v in tree.values())
    return "".join(_flatten(v) for v in tree)


__all__ = [
    "DEFAULT",
    "LANGS",
    "SILENT",
    "SUBKEYS",
    "TALK_CHARS",
    "check_lang",
    "describe",
    "say",
    "seat_list",
    "table",
    "talk_line",
    "talk_text",
]
