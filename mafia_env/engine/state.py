"""The parts of a game's state that live for a day, a speech, a vote or a night.

Plain data: ints, seat bitmasks and small lists, so that a game copies, pickles and compares
as data. Each part has `copy()`, which `Game.clone` uses (the lists inside are copied, the
tuples inside are immutable and shared).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Today:
    """Today's public business: the first speaker and who has been nominated, in order."""

    first_speaker: int = -1  # kept from day to day: the next day starts after him
    nominees: list[int] = field(default_factory=list)  # in the order of nomination
    nominee_bits: int = 0
    named: list[int] = field(default_factory=list)  # CLUB-E1: times each seat was named
    rounds: int = 0  # ONLINE-D5: rounds of the general discussion held today ...
    spoken: bool = False  # ... and whether anyone spoke in the one under way

    def copy(self) -> Today:
        return Today(
            self.first_speaker,
            self.nominees[:],
            self.nominee_bits,
            self.named[:],
            self.rounds,
            self.spoken,
        )


@dataclass(slots=True)
class Speech:
    """The speech being made: acts left, whether it nominated, the question asked in it."""

    acts_left: int = 0
    nominated: bool = False
    asked: int = 0  # questions asked in this speech (ONLINE-D4)
    asker: int = -1  # the speaker waiting for an answer (-1: none) ...
    asker_turn: Any = -1  # ... and the kind (Turn) of his speech

    def copy(self) -> Speech:
        return Speech(self.acts_left, self.nominated, self.asked, self.asker, self.asker_turn)


@dataclass(slots=True)
class Vote:
    """The voting round under way (or the last one today)."""

    candidates: list[int] = field(default_factory=list)  # in the order of nomination
    candidate_bits: int = 0
    ballots: list[tuple[int, int, bool]] = field(default_factory=list)  # voter, choice, silent
    crash_ballots: list[tuple[int, bool]] = field(default_factory=list)  # voter, yes
    revote: bool = False  # today's vote has tied once already
    tied: list[int] = field(default_factory=list)  # the players of the re-vote to come
    # an open count (CLUB-E7, ONLINE-V7): the index in `candidates` of the nominee being
    # counted (-1: a hidden ballot, or none under way), and the voters who have not voted yet
    counted: int = -1
    waiting: list[int] = field(default_factory=list)

    def copy(self) -> Vote:
        return Vote(
            self.candidates[:],
            self.candidate_bits,
            self.ballots[:],
            self.crash_ballots[:],
            self.revote,
            self.tied[:],
            self.counted,
            self.waiting[:],
        )


@dataclass(slots=True)
class Night:
    """Tonight's choices, resolved at morning, and who died in the night."""

    shots: dict[int, int] = field(default_factory=dict)  # mafia member -> target (-1: none)
    executors: dict[int, int] = field(default_factory=dict)  # mafia member -> executor named
    blocked: int = -1  # the putana's visit
    heal: int = -1  # the doctor's heal
    maniac_shot: int = -1
    hunts: list[tuple[int, int, int]] = field(default_factory=list)  # hunter, target, status
    victims: list[int] = field(default_factory=list)  # killed last night: their last words

    def copy(self) -> Night:
        return Night(
            dict(self.shots),
            dict(self.executors),
            self.blocked,
            self.heal,
            self.maniac_shot,
            self.hunts[:],
            self.victims[:],
        )


__all__ = ["Night", "Speech", "Today", "Vote"]
