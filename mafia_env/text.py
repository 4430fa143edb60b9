"""Text observations for language-model agents, and the reply adapter.

`TextObserver` keeps, for every seat, the lines the moderator has told that seat so far
(public events and its own private ones, in the table's language), appending each new event
once as it happens. An observation is that story, then the seat's legal actions as a
numbered list in plain words::

    You are player 3 at a table of 10. The moderator has told you:
    Player 3, your role is sheriff.
    ...
    It is your turn. Your legal actions:
    1. End your speech.
    2. Nominate player 1.
    Reply with the number of one action.

`parse_reply(env, reply)` turns a reply into the action index, read as models write it
("2", "**2**", "(2)", "I choose 2", "Answer: 2", ``{"action": 2}``, "nominate player 1",
the short name "nominate 1", "end speech"), and raises a `ReplyError` naming the legal
choices for a reply that names none of them or two different ones; `read_reply` also
returns the table talk a reply adds ("2. Say: I trust player 5."). `TextPolicy` wraps a
text-in, text-out function (a language model) as a `Policy`, with counted fallbacks.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from mafia_env.engine.events import PUBLIC, Ev, FollowsTurns, Perceiver
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import Turn
from mafia_env.engine.roles import Role
from mafia_env.errors import ConfigError, IllegalActionError
from mafia_env.lang import DEFAULT, describe, say, table

log = logging.getLogger(__name__)

MAX_LENGTH = 1_000_000  # characters: far beyond the longest game (see tests/test_text.py)


# What a TextPolicy counts: moves asked, model calls, replies rejected, fallbacks played,
# calls that timed out or failed otherwise.
STATS = ("moves", "calls", "invalid", "fallbacks", "timeouts", "errors")


class ReplyError(IllegalActionError):
    """A reply names no legal action."""


class TextObserver(FollowsTurns, Perceiver):
    """Keeps every seat's story up to date from the game's events, in one language.

    Each event is told once, when it happens, to the seats that saw it (through `Perceiver`);
    whose turn it is comes from the events that begin turns, as the seat itself saw them.
    """

    def __init__(self, layout: Any, n: int, lang: str = DEFAULT):
        self.layout = layout
        self.n = n
        self.lang = lang
        self.ui = table(lang).UI
        self.lines: list[list[str]] = [[] for _ in range(n)]
        self._story: list[tuple[int, str]] = [(-1, "")] * n  # (lines joined, text) per seat
        self._roles: list[Role | None] = [None] * n
        self._words: dict[tuple[int, Turn | None], str] = {}
        self.talk: list[tuple[int, int, str]] = []  # the game's table talk (`Game.talk`)
        super().__init__()

    def reset(self, game: Game) -> None:
        """Start telling a new game."""
        for seat in range(self.n):
            self.lines[seat] = [self.ui["you_are"].format(a=seat + 1, n=self.n)]
        self._story = [(-1, "")] * self.n
        self._roles = [None] * self.n
        self.talk = game.talk
        self.cursor = 0  # events are told lazily, when a story is asked for
        self.actor, self.turn, self.turn_public, self.over = -1, -1, False, False

    def copy(self) -> TextObserver:
        """Return an independent copy at the same point (for a cloned game)."""
        other = TextObserver.__new__(TextObserver)
        other.__dict__.update(self.__dict__)
        other.lines = [seat_lines[:] for seat_lines in self.lines]
        other._story = self._story[:]
        other._roles = self._roles[:]
        other.bind()
        return other

    def update(self, game: Game) -> None:
        """Tell each seat the events the game logged since the last update."""
        self.talk = game.talk
        self.catch_up(game.events)

    def public_default(self, e: tuple) -> None:
        line = say(e, self.lang, talk=self.talk)
        if line:
            for seat_lines in self.lines:
                seat_lines.append(line)

    def private_default(self, seat: int, e: tuple) -> None:
        kind, actor, _, value, _ = e
        if kind == Ev.ROLE:
            self._roles[seat] = Role(value)
        line = say(e, self.lang, self._roles[seat] if actor == seat else None)
        if line:
            self.lines[seat].append(line)

    def _on_game_over(self, actor: int, target: int, value: int) -> None:
        super()._on_game_over(actor, target, value)
        self.public_default((Ev.GAME_OVER, actor, target, value, PUBLIC))

    def _on_terminated(self, actor: int, target: int, value: int) -> None:
        super()._on_terminated(actor, target, value)
        self.public_default((Ev.TERMINATED, actor, target, value, PUBLIC))

    def story(self, game: Game, seat: int) -> str:
        """Return what the moderator has told `seat` so far, one line per announcement."""
        if self.cursor != len(game.events):
            self.talk = game.talk
            self.catch_up(game.events)
        count, text = self._story[seat]
        lines = self.lines[seat]
        if count != len(lines):
            text = "\n".join(lines)
            self._story[seat] = (len(lines), text)
        return text

    def words(self, index: int, turn: Turn | None) -> str:
        """Return action `index` in plain words, as it reads in a turn of kind `turn`."""
        key = (index, turn)
        text = self._words.get(key)
        if text is None:
            act, target, value = self.layout.decoded[index]
            text = self._words[key] = describe(act, target, value, turn, self.lang)
        return text

    def choices(self, game: Game, mask: np.ndarray) -> list[tuple[int, str]]:
        """Return the acting seat's legal actions as (index, words), in index order."""
        if self.cursor != len(game.events):
            self.talk = game.talk
            self.catch_up(game.events)
        turn = None if self.over else Turn(self.turn)
        return [(int(i), self.words(int(i), turn)) for i in np.flatnonzero(mask)]

    def observe(self, game: Game, seat: int, mask: np.ndarray) -> str:
        """Return `seat`'s text observation: its story, then its numbered legal actions."""
        story = self.story(game, seat)
        ui = self.ui
        if self.over:
            return f"{story}\n{ui['game_over']}"
        if not self.acting(seat):
            return f"{story}\n{ui['not_your_turn']}"
        menu = "\n".join(f"{k}. {w}" for k, (_, w) in enumerate(self.choices(game, mask), 1))
        return f"{story}\n{ui['your_turn']}\n{menu}\n{ui['reply']}"


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


FALLBACKS = ("rule", "random", "first", "raise")  # what a TextPolicy plays when replies fail


class Defer(ReplyError):
    """A policy hands this move to `policy` (its fallback), which takes its own observation.

    The seating code (`mafia_env.match.choose`) asks `policy` with the observation it takes
    (the rule bot reads the vector) and plays its move.
    """

    def __init__(self, message: str, policy: Any):
        super().__init__(message)
        self.policy = policy


def _is_timeout(error: BaseException) -> bool:
    """Return whether a failed call ran out of time (the openai client's APITimeoutError too)."""
    return isinstance(error, TimeoutError) or "timeout" in type(error).__name__.casefold()


class TextPolicy:
    """A `Policy` over text observations: asks `complete(prompt) -> reply` for each move.

    A reply that names no legal action (`read_reply`) is answered with the error (which
    lists the legal choices, in `lang`) and asked again, up to `retries` times. A call that
    raises (a timeout, a server error) is not asked again. Then `fallback` plays the move:
    ``"first"`` the first legal action, ``"random"`` a random legal one, ``"rule"`` the
    `backup` policy (the rule bot: it raises `Defer`, and the seating code asks the bot with
    its own observation), ``"raise"`` raises the ReplyError. Every fallback is counted in
    `stats` and listed in `fallbacks` (with its reason), and logged: never silent.

    A reply may add table talk ("3. Say: I trust player 2."): `talk` holds it after `act`,
    for the seating code to say during a speech (`mafia_env.match`).
    """

    observes = "text"  # the seating code gives it text observations (`mafia_env.match`)

    def __init__(
        self,
        complete: Callable[[str], str] | None = None,
        retries: int = 2,
        lang: str = DEFAULT,
        fallback: str = "first",
        backup: Any = None,
        seed: int = 0,
        describe: Callable[[int], str] | None = None,
    ):
        if fallback not in FALLBACKS:
            raise ConfigError(f"fallback is one of {', '.join(FALLBACKS)}; got {fallback!r}")
        if fallback == "rule" and backup is None:
            raise ConfigError("fallback 'rule' needs backup=<the rule bot's policy>")
        self.complete = complete
        self.retries = retries
        self.lang = lang
        self.ui = table(lang).UI
        self.fallback = fallback
        self.backup = backup
        self.describe = describe  # action index -> short name ("nominate 3"), if known
        self.rng = np.random.default_rng(seed)
        self.errors: list[str] = []  # every rejected reply's message, for inspection
        self.fallbacks: list[tuple[str, str]] = []  # (reason, message) of every fallback
        self.stats = dict.fromkeys(STATS, 0)
        self.talk: str | None = None

    def seed(self, seed: int) -> None:
        """Restart the random fallback's stream (and the backup's)."""
        self.rng = np.random.default_rng(seed)
        if self.backup is not None and callable(getattr(self.backup, "seed", None)):
            self.backup.seed(seed)

    def reply(self, prompt: str, tries: list[tuple[str, str]]) -> str:
        """Return the model's reply to `prompt`, after the rejected `tries` (reply, error)."""
        if self.complete is None:
            raise ConfigError("TextPolicy needs complete(prompt) -> reply, or a reply() method")
        return self.complete(prompt if not tries else f"{prompt}\n{tries[-1][1]}")

    def act(self, obs: Any, mask: np.ndarray) -> int:
        """Return the action index the model's reply names, else the fallback's."""
        self.talk = None
        prompt = str(obs)
        choices = choices_from_text(prompt, mask)
        aliases = None
        if self.describe is not None:
            aliases = {_norm(self.describe(i)): i for i, _ in choices}
        stats = self.stats
        stats["moves"] += 1
        tries: list[tuple[str, str]] = []
        for _ in range(self.retries + 1):
            stats["calls"] += 1
            try:
                reply = self.reply(prompt, tries)
            except Exception as e:  # the model did not answer: no retry, the fallback plays
                reason = "timeout" if _is_timeout(e) else "error"
                stats["timeouts" if reason == "timeout" else "errors"] += 1
                return self._fall_back(reason, f"{type(e).__name__}: {e}", choices)
            try:
                got = read_reply(reply, choices, aliases, self.ui, self.lang)
            except ReplyError as e:
                stats["invalid"] += 1
                self.errors.append(str(e))
                tries.append((reply, str(e)))
                continue
            self.talk = got.talk
            return got.index
        return self._fall_back("invalid", tries[-1][1], choices)

    def _fall_back(self, reason: str, message: str, choices: list[tuple[int, str]]) -> int:
        self.stats["fallbacks"] += 1
        self.fallbacks.append((reason, message))
        log.warning("%s: %s; fallback %r plays", type(self).__name__, reason, self.fallback)
        if self.fallback == "raise":
            raise ReplyError(message)
        if self.fallback == "rule":
            raise Defer(message, self.backup)
        if self.fallback == "random":
            return choices[int(self.rng.integers(len(choices)))][0]
        return choices[0][0]

    def act_batch(self, obs: Any, masks: np.ndarray) -> np.ndarray:
        """Return one action per row of `masks`."""
        return np.array([self.act(o, m) for o, m in zip(obs, masks, strict=True)], dtype=np.int64)


__all__ = [
    "FALLBACKS",
    "MAX_LENGTH",
    "STATS",
    "Defer",
    "Reply",
    "ReplyError",
    "TextObserver",
    "TextPolicy",
    "choices_from_text",
    "match_reply",
    "parse_reply",
    "read_reply",
]
