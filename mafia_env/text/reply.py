"""Replies: the action index a language model's reply names, and the table talk it adds.

`read_reply` reads a reply as models write it ("2", "**2**", "(2)", "I choose 2", "Answer: 2",
``{"action": 2}``, "nominate player 1", the short name "nominate 1", "end speech") and
raises a `ReplyError` naming the legal choices for a reply that names none of them or two
different ones; `parse_reply(env, reply)` does so for the acting agent of an environment, and
`choices_from_text` reads the numbered legal actions back out of a text observation.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np

from mafia_env.errors import IllegalActionError
from mafia_env.lang import DEFAULT, table


class ReplyError(IllegalActionError):
    """A reply names no legal action."""


_SPACES = re.compile(r"\s+")
_NUMBERED = re.compile(r"^#?(\d+)\s*[.):]?\s*(.*)$", re.S)
_DECOR = re.compile(r"[*_`'\"«»“”„‘’()\[\]{}<>]")
_BARE = re.compile(r"^\W*#?\s*(\d+)\s*[.)!:]?\W*$")  # "**3**", "(3)", "'3'", "[#3]."
_BOLD = re.compile(r"(?:\*\*|__|`)\s*#?(\d+)\s*[.)]?\s*(?:\*\*|__|`)")  # "... **3** ..."
_JSON = re.compile(r"\{.*\}", re.S)
_JSON_KEYS = ("action", "choice", "answer", "number", "index", "option", "move", "id")
_TALK_KEYS = ("say", "talk", "speech", "remark", "message")
_WORD = re.compile(r"\w+")
FILLER = frozenset({"the", "a", "an", "your", "my", "to", "for", "i", "will", "you", "of", "is"})


def _norm(text: str) -> str:
    """Fold case, quotes, spaces and end punctuation, so that replies match loosely."""
    text = _SPACES.sub(" ", text.strip().casefold().replace("ё", "е"))
    text = text.replace("«", "").replace("»", "").replace('"', "")
    return text.strip(" .!;")


def _bag(text: str) -> frozenset[str]:
    """Return the words of a normalized text that carry meaning (no fillers)."""
    return frozenset(w for w in _WORD.findall(text) if w not in FILLER)


class Reply:
    """A model's reply split into the action it names and the words it adds (table talk)."""

    __slots__ = ("index", "talk")

    def __init__(self, index: int, talk: str | None = None):
        self.index = index
        self.talk = talk

    def __repr__(self) -> str:
        return f"Reply({self.index}, talk={self.talk!r})"


_LABELS: dict[str, re.Pattern] = {}


def _labels(lang: str) -> re.Pattern:
    """Return the pattern of a labelled number in `lang` or English: "I choose 3"."""
    pattern = _LABELS.get(lang)
    if pattern is None:
        words = {*table(DEFAULT).REPLY_LABELS, *table(lang).REPLY_LABELS}
        alts = "|".join(sorted((re.escape(w.casefold()) for w in words), key=len, reverse=True))
        pattern = _LABELS[lang] = re.compile(
            rf"(?<!\w)(?:{alts})\w*\W{{0,4}}(?:is\s+|:\s*)?(?:#|№\s*)?(\d+)(?!\w)"
        )
    return pattern


def _talk_markers(lang: str) -> tuple[str, ...]:
    return tuple({*table(DEFAULT).TALK_MARKERS, *table(lang).TALK_MARKERS})


def _from_json(reply: str) -> tuple[str, str | None] | None:
    """Return (the choice, the talk) of a JSON object reply, else None."""
    found = _JSON.search(reply)
    if not found:
        return None
    try:
        data = json.loads(found.group(0))
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    keys = {str(k).casefold(): v for k, v in data.items()}
    choice = next((keys[k] for k in _JSON_KEYS if k in keys), None)
    if choice is None or isinstance(choice, bool | dict | list):
        return None
    talk = next((keys[k] for k in _TALK_KEYS if isinstance(keys.get(k), str)), None)
    return str(choice), talk


def _split_talk(reply: str, markers: tuple[str, ...]) -> tuple[str, str | None]:
    """Split "My choice: 49. Say: I trust player 2." into the choice and the talk.

    A marker ("Say:") at the very start is the action's own words (a claim), not talk.
    """
    low = reply.casefold()
    best = -1
    for marker in markers:
        for m in re.finditer(rf"(?<!\w){re.escape(marker.casefold())}\s*:", low):
            if reply[: m.start()].strip(" \t*_") and (best < 0 or m.start() < best):
                best = m.start()
                end = m.end()
    if best < 0:
        return reply, None
    talk = reply[end:].strip().strip("*_\"'«»“” ").strip()
    return reply[:best].rstrip(" \t*_,;-—"), talk or None


def _strict(
    said: str, choices: list[tuple[int, str]], aliases: dict[str, int] | None
) -> int | None:
    """Return the index an exact reply names: a menu number, the words, or a short name."""
    numbered = _NUMBERED.match(said)
    if numbered:
        k, rest = int(numbered.group(1)), numbered.group(2)
        if 1 <= k <= len(choices) and (not rest or _norm(rest) == _norm(choices[k - 1][1])):
            return choices[k - 1][0]
    for index, words in choices:
        if said == _norm(words):
            return index
    # what follows the verb ("Say: I am the sheriff." -> "i am the sheriff"), if unambiguous
    tails = [index for index, words in choices if _norm(words.partition(": ")[2]) == said]
    if len(tails) == 1 and said:
        return tails[0]
    if aliases:
        index = aliases.get(said)
        if index is not None and any(index == i for i, _ in choices):
            return index
    return None


def _loose(
    reply: str,
    choices: list[tuple[int, str]],
    aliases: dict[str, int] | None,
    labels: re.Pattern,
) -> set[int]:
    """Return every legal index a free-form reply names (two or more: it is ambiguous).

    A number counts where it is the whole reply in markdown, quotes or brackets (``**3**``,
    ``(3)``), in bold inside a sentence, or after a label ("I choose 3", "Answer: 3"); a
    number after "player" is a seat, not a choice. Words count where an action's words, the
    words after its verb, or its short name stand in the reply whole, or where the reply
    holds exactly the action's meaningful words ("end speech").
    """
    named: set[int] = set()
    k = len(choices)
    numbers = []
    bare = _BARE.match(reply)
    if bare:
        numbers.append(int(bare.group(1)))
    numbers += [int(n) for n in _BOLD.findall(reply)]
    numbers += [int(m.group(1)) for m in labels.finditer(reply.casefold())]
    bad = [n for n in numbers if not 1 <= n <= k]
    if bad and len(bad) == len(numbers):
        return set()
    named |= {choices[n - 1][0] for n in numbers if 1 <= n <= k}
    said = _norm(_DECOR.sub(" ", reply))
    strict = _strict(said, choices, aliases)
    if strict is not None:
        named.add(strict)
    bag = _bag(said)
    spans: list[tuple[int, int, int]] = []
    for index, words in choices:
        whole, tail = _norm(words), _norm(words.partition(": ")[2])
        for phrase in (whole, tail):
            if phrase:
                for m in re.finditer(rf"(?<!\w){re.escape(phrase)}(?!\w)", said):
                    spans.append((m.start(), m.end(), index))
        if bag and _bag(whole) == bag:
            named.add(index)
    for name, index in (aliases or {}).items():
        if any(index == i for i, _ in choices):
            for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", said):
                spans.append((m.start(), m.end(), index))
    for s, e, index in spans:  # a phrase inside a longer named phrase is not named itself
        if not any(s2 <= s and e <= e2 and (e2 - s2) > (e - s) for s2, e2, _ in spans):
            named.add(index)
    return named


def match_reply(
    reply: Any,
    choices: list[tuple[int, str]],
    aliases: dict[str, int] | None = None,
    ui=None,
    lang: str = DEFAULT,
) -> int:
    """Return the index a reply names among `choices` (numbered from 1), else raise ReplyError.

    See `read_reply`, which also returns the table talk a reply carries.
    """
    return read_reply(reply, choices, aliases, ui, lang).index


def read_reply(
    reply: Any,
    choices: list[tuple[int, str]],
    aliases: dict[str, int] | None = None,
    ui=None,
    lang: str = DEFAULT,
) -> Reply:
    """Return the action a reply names among `choices` and the talk it adds, or raise.

    A reply is, first exactly: a number from the list (optionally followed by that action's
    words), the action's words, what follows their verb where that names one action ("I am
    the sheriff" for "Say: I am the sheriff."), or one of `aliases` (such as "nominate 3").
    Else, as models write: a JSON object (``{"action": 3, "say": "..."}``), a number in
    markdown, quotes or brackets, a labelled number in a sentence ("I choose 3", "Answer:
    3"), an action's words or short name inside a sentence, in any case, or its meaningful
    words alone ("end speech"). Words after "Say:" (past the start) are table talk. A reply
    that names two different legal actions, or none, is a ReplyError listing the choices.
    """
    words_of = table(lang)
    ui = ui or words_of.UI
    if not choices:
        raise ReplyError("there is nothing to choose: no legal action now")
    if not isinstance(reply, str):
        raise ReplyError(f"a reply must be text, such as '1'; got {reply!r}")
    strict = _strict(_norm(reply), choices, aliases)
    if strict is not None:
        return Reply(strict)
    talk = None
    head = reply
    parsed = _from_json(reply)
    if parsed is not None:
        head, talk = parsed
        strict = _strict(_norm(head), choices, aliases)
        if strict is not None:
            return Reply(strict, talk)
    else:
        head, talk = _split_talk(reply, _talk_markers(lang))
    named = _loose(head, choices, aliases, _labels(lang))
    if not named and talk is not None:  # "Say:" was part of the action's words after all
        named, talk = _loose(reply, choices, aliases, _labels(lang)), None
    if len(named) == 1:
        return Reply(named.pop(), talk)
    menu = "\n".join(f"{k}. {w}" for k, (_, w) in enumerate(choices, 1))
    if named:
        which = ", ".join(f"{k}" for k, (i, _) in enumerate(choices, 1) if i in named)
        head = ui["ambiguous_reply"].format(reply=reply, which=which, k=len(choices))
        raise ReplyError(f"{head}\n{menu}")
    raise ReplyError(f"{ui['bad_reply'].format(reply=reply, k=len(choices))}\n{menu}")


def parse_reply(env: Any, reply: Any, agent: str | None = None) -> int:
    """Return the action index that `reply` names for the acting agent of `env`.

    `agent`, when given, must be the acting agent. Raises ReplyError naming the legal
    choices when the reply names none of them.
    """
    env = getattr(env, "unwrapped", env)
    game = env._require_game()
    if game.over:
        raise ReplyError("the game is over: nobody acts")
    if agent is not None and agent != env.agent_selection:
        raise ReplyError(
            table(env.lang).UI["not_acting"].format(agent=agent, actor=env.agent_selection)
        )
    observer = env.text_observer
    choices = observer.choices(game, env._legal_mask())
    aliases = {_norm(env.layout.describe(i)): i for i, _ in choices}
    return match_reply(reply, choices, aliases, observer.ui, env.lang)


_MENU_LINE = re.compile(r"^(\d+)\. (.*)$")


def choices_from_text(observation: str, mask: np.ndarray) -> list[tuple[int, str]]:
    """Read the numbered legal actions back out of a text observation, matched to `mask`."""
    legal = np.flatnonzero(mask).tolist()
    lines = observation.splitlines()[-len(legal) - 1 : -1] if legal else []
    menu = []
    for k, line in enumerate(lines, 1):
        m = _MENU_LINE.match(line)
        if not m or int(m.group(1)) != k:
            break
        menu.append(m.group(2))
    if not legal or len(menu) != len(legal):
        raise ReplyError(
            f"the observation does not end with a numbered list of the {len(legal)} legal "
            "actions of the mask; is it a text observation of the acting agent?"
        )
    return list(zip(legal, menu, strict=True))


__all__ = ["Reply", "ReplyError", "choices_from_text", "match_reply", "parse_reply", "read_reply"]
