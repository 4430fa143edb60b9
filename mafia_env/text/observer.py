"""The text observer: every seat's story, told by the moderator, and its numbered legal actions.

`TextObserver` keeps, for every seat, the lines the moderator has told that seat so far
(public events and its own private ones, in the table's language), appending each new event
once as it happens. An observation is that story, then the seat's legal actions as a
numbered list in plain words (`mafia_env.text`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mafia_env.engine.events import PUBLIC, Ev, FollowsTurns, Perceiver, seat_sequence
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import Act, Turn
from mafia_env.engine.roles import Role
from mafia_env.lang import DEFAULT, describe, say, table, talk_line

MAX_LENGTH = 1_000_000  # characters: far beyond the longest game (see tests/text/test_text.py)


class TextObserver(FollowsTurns, Perceiver):
    """Keeps every seat's story up to date from the game's events, in one language.

    Each event is told once, when it happens, to the seats that saw it (through `Perceiver`);
    whose turn it is comes from the events that begin turns, as the seat itself saw them.
    """

    def __init__(self, layout: Any, n: int, lang: str = DEFAULT, belief: bool = False):
        self.layout = layout
        self.n = n
        self.lang = lang
        self.belief = belief  # the option belief="deduction": the seat's certainties too
        self.ui = table(lang).UI
        self.lines: list[list[str]] = [[] for _ in range(n)]
        self._story: list[tuple[int, str]] = [(-1, "")] * n  # (lines joined, text) per seat
        self._roles: list[Role | None] = [None] * n
        self._words: dict[tuple[int, Turn | None], str] = {}
        self.talk: list[tuple[int, int, str]] = []  # the game's table talk (`Game.talk`)
        rules = layout.spec.rules
        # actions whose words depend on the moment: a vote not given goes to the last nominee
        # (SPORT-D3, CLUB-E3, E8); no number forfeits (CITY-N10); a gesture shown again is
        # taken back (ONLINE-D6)
        self._silent_to_last = rules.silent_vote == "last_nominee"
        self._no_number = rules.mafia_no_number == "forfeit"
        self._order: list[int] = []  # the vote's candidates, in order ...
        self._counted = 0  # ... and the open count's place among them
        self._gestures = [-1] * n
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
        self._order, self._counted, self._gestures = [], 0, [-1] * self.n

    def copy(self) -> TextObserver:
        """Return an independent copy at the same point (for a cloned game)."""
        other = TextObserver.__new__(TextObserver)
        other.__dict__.update(self.__dict__)
        other.lines = [seat_lines[:] for seat_lines in self.lines]
        other._story = self._story[:]
        other._roles = self._roles[:]
        other._gestures = self._gestures[:]
        other.bind()
        return other

    def update(self, game: Game) -> None:
        """Tell each seat the events the game logged since the last update."""
        self.talk = game.talk
        self.catch_up(game.events)

    def public_default(self, e: tuple) -> None:
        line = say(e, self.lang, talk=self.talk)
        if line and e[0] == Ev.TALK:  # a remark in any script: the charset's letters only
            line = talk_line(line)
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

    def _on_voting(self, actor: int, target: int, value: int) -> None:
        self._order, self._counted = seat_sequence(value), 0
        self.public_default((Ev.VOTING, actor, target, value, PUBLIC))

    def _on_count(self, actor: int, target: int, value: int) -> None:
        self._counted += 1
        self.public_default((Ev.COUNT, actor, target, value, PUBLIC))

    def _on_gesture(self, actor: int, target: int, value: int) -> None:
        self._gestures[actor] = value
        self.public_default((Ev.GESTURE, actor, target, value, PUBLIC))

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
        out = []
        for i in np.flatnonzero(mask):
            i = int(i)
            act, _, value = self.layout.decoded[i]
            out.append((i, self._moment(act, value, turn) or self.words(i, turn)))
        return out

    def _moment(self, act: Act, value: int, turn: Turn | None) -> str | None:
        """Return an action's words where they depend on the moment, else None."""
        ui = self.ui
        if act is Act.PASS:
            last = self._order[-1] + 1 if self._order else 0
            if turn is Turn.VOTE and self._silent_to_last and last:
                return ui["silent_vote_counts"].format(t=last)
            at_last = self._counted == len(self._order) - 1  # CLUB-E8: the last one's count
            if turn is Turn.OPEN_VOTE and self._silent_to_last and last and at_last:
                return ui["hand_down_counts"].format(t=last)
            if turn is Turn.MAFIA_KILL and self._no_number:  # CITY-N10
                return ui["no_number"]
        elif act is Act.ANSWER and turn is Turn.GESTURE and self._gestures[self.actor] == value:
            return ui["take_back"].format(answer=table(self.lang).ANSWERS[value])
        return None

    def observe(self, game: Game, seat: int, mask: np.ndarray) -> str:
        """Return `seat`'s text observation: its story, then its numbered legal actions."""
        story = self.story(game, seat)
        ui = self.ui
        if self.over:
            return f"{story}\n{ui['game_over']}"
        if not self.acting(seat):
            return f"{story}\n{ui['not_your_turn']}"
        if self.belief:
            story = f"{story}\n{self.certainties(game, seat)}".rstrip("\n")
        menu = "\n".join(f"{k}. {w}" for k, (_, w) in enumerate(self.choices(game, mask), 1))
        return f"{story}\n{ui['your_turn']}\n{menu}\n{ui['reply']}"

    def certainties(self, game: Game, seat: int) -> str:
        """Return what `seat`'s deduction makes sure of the others (`mafia_env.belief`), each
        with why ("player 3 is of the mafia: you checked him"); empty if nothing."""
        from mafia_env.belief import belief

        sure = belief(game, seat).certain()
        if not sure:
            return ""
        ui, roles = self.ui, table(self.lang).ROLES
        bit = 1 << seat
        why: dict[int, str] = {}
        for kind, actor, target, _, vis in game.events:
            if vis != PUBLIC and not vis & bit:
                continue
            if kind == Ev.REVEAL:
                why[target] = "why_shown"
            elif kind == Ev.CHECK and actor == seat:
                why.setdefault(target, "why_checked")
            elif kind == Ev.TEAMMATE and actor == seat:
                why.setdefault(target, "why_team")
        lines = [ui["certain"]]
        for s, name in sure:
            reason = ui[why.get(s, "why_deduced")]
            if name in ("town", "mafia"):
                lines.append(ui[f"sure_{name}"].format(t=s + 1, why=reason))
            else:
                lines.append(ui["sure_role"].format(t=s + 1, role=roles[name], why=reason))
        return "\n".join(lines)


__all__ = ["MAX_LENGTH", "TextObserver"]
