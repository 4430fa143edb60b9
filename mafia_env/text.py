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

`parse_reply(env, reply)` turns a reply ("2", "2.", "nominate player 1", "Nominate player
1.", or the action's short name "nominate 1") into the action index, and raises a
`ReplyError` naming the legal choices for anything else. `TextPolicy` wraps a text-in,
text-out function (a language model) as a `Policy`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from mafia_env.engine.events import PUBLIC, Ev, FollowsTurns, Perceiver
from mafia_env.engine.game import Game, Turn
from mafia_env.engine.roles import Role
from mafia_env.errors import IllegalActionError
from mafia_env.lang import DEFAULT, describe, say, table

MAX_LENGTH = 1_000_000  # characters: far beyond the longest game (see tests/test_text.py)


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
        super().__init__()

    def reset(self, game: Game) -> None:
        """Start telling a new game."""
        for seat in range(self.n):
            self.lines[seat] = [self.ui["you_are"].format(a=seat + 1, n=self.n)]
        self._story = [(-1, "")] * self.n
        self._roles = [None] * self.n
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
        self.catch_up(game.events)

    def public_default(self, e: tuple) -> None:
        line = say(e, self.lang)
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

    def _on_speak(self, actor: int, target: int, value: int) -> None:
        super()._on_speak(actor, target, value)
        self.public_default((Ev.SPEAK, actor, target, value, PUBLIC))

    def _on_game_over(self, actor: int, target: int, value: int) -> None:
        super()._on_game_over(actor, target, value)
        self.public_default((Ev.GAME_OVER, actor, target, value, PUBLIC))

    def _on_terminated(self, actor: int, target: int, value: int) -> None:
        super()._on_terminated(actor, target, value)
        self.public_default((Ev.TERMINATED, actor, target, value, PUBLIC))

    def story(self, game: Game, seat: int) -> str:
        """Return what the moderator has told `seat` so far, one line per announcement."""
        if self.cursor != len(game.events):
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


def _norm(text: str) -> str:
    """Fold case, quotes, spaces and end punctuation, so that replies match loosely."""
    text = _SPACES.sub(" ", text.strip().casefold().replace("ё", "е"))
    text = text.replace("«", "").replace("»", "").replace('"', "")
    return text.strip(" .!;")


def match_reply(
    reply: Any, choices: list[tuple[int, str]], aliases: dict[str, int] | None = None, ui=None
) -> int:
    """Return the index a reply names among `choices` (numbered from 1), else raise ReplyError.

    A reply is a number from the list (optionally followed by that action's words), the
    action's words, what follows their verb where that names one action ("I am the
    sheriff" for "Say: I am the sheriff."), or one of `aliases` (such as "nominate 3").
    """
    ui = ui or table(DEFAULT).UI
    if not choices:
        raise ReplyError("there is nothing to choose: no legal action now")
    if not isinstance(reply, str):
        raise ReplyError(f"a reply must be text, such as '1'; got {reply!r}")
    said = _norm(reply)
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
    menu = "\n".join(f"{k}. {w}" for k, (_, w) in enumerate(choices, 1))
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
    return match_reply(reply, choices, aliases, observer.ui)


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


class TextPolicy:
    """A `Policy` over text observations: asks `complete(prompt) -> reply` for each move.

    A reply that names no legal action is answered with the error (which lists the legal
    choices, in `lang`) and asked again, up to `retries` times; then the first legal action
    is taken.
    """

    observes = "text"  # the seating code gives it text observations (`mafia_env.match`)

    def __init__(self, complete: Callable[[str], str], retries: int = 2, lang: str = DEFAULT):
        self.complete = complete
        self.retries = retries
        self.ui = table(lang).UI
        self.errors: list[str] = []  # every rejected reply's message, for inspection

    def act(self, obs: Any, mask: np.ndarray) -> int:
        """Return the action index the model's reply names."""
        prompt = str(obs)
        choices = choices_from_text(prompt, mask)
        for _ in range(self.retries + 1):
            reply = self.complete(prompt)
            try:
                return match_reply(reply, choices, None, self.ui)
            except ReplyError as e:
                self.errors.append(str(e))
                prompt = f"{obs}\n{e}"
        return choices[0][0]

    def act_batch(self, obs: Any, masks: np.ndarray) -> np.ndarray:
        """Return one action per row of `masks`."""
        return np.array([self.act(o, m) for o, m in zip(obs, masks, strict=True)], dtype=np.int64)


__all__ = [
    "MAX_LENGTH",
    "ReplyError",
    "TextObserver",
    "TextPolicy",
    "choices_from_text",
    "match_reply",
    "parse_reply",
]
