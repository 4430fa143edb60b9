"""What happens at the table, as events that know who saw them.

An event is a plain tuple ``(kind, actor, target, value, seen_by)`` appended to
``Game.events``: ``actor`` and ``target`` are 0-based seats (-1 when absent), ``value`` is a
role, a check result, a cause or a count, and ``seen_by`` is ``PUBLIC`` or a bitmask of the
seats that saw it. Encoders and narration read events; they never look at hidden state.
"""

from __future__ import annotations

from enum import IntEnum

PUBLIC = -1


class Ev(IntEnum):
    ROLE = 0  # actor learns his own role (value)
    TEAMMATE = 1  # actor learns that target is on his team, in role value
    NIGHT = 2  # night `value` begins (0: the zero night)
    DAY = 3  # day `value` begins
    SPEAK = 4  # actor's turn to speak begins (value: Turn)
    CLAIM_ROLE = 5  # actor claims role value
    CLAIM_CHECK = 6  # actor says he checked target: value 0 red, 1 black
    ACCUSE = 7  # actor says target is black
    VOUCH = 8  # actor says target is red
    NOMINATE = 9  # actor nominates target
    END_SPEECH = 10  # actor ends his speech
    NO_VOTE = 11  # no vote today (value: NoVote)
    BALLOT = 12  # actor voted for target (-1: abstained); value 1 if it was a silent vote
    TIE = 13  # a vote tied between the seats of bitmask value
    CRASH_BALLOT = 14  # actor voted value 1 yes / 0 no on removing every tied player
    SPARED = 15  # the vote removed nobody (value: Spared)
    ELIMINATED = 16  # target leaves the game (value: Cause)
    MISS = 17  # the night killed nobody
    SHOT = 18  # actor (mafia) shot at target, seen by himself only
    CHECK = 19  # actor checked target: value 1 yes, 0 no (sheriff: black?; don: sheriff?)
    FOUL = 20  # target got a foul; value = his fouls now
    SILENCED = 21  # target loses today's speech for his fouls
    REVEAL = 22  # target's role (value) is shown to the table
    GAME_OVER = 23  # value: the winner (Outcome)
    TERMINATED = 24  # the game was stopped by actor's illegal action
    VOTING = 25  # a voting round begins over the seats of bitmask value, in seat order
    CRASH = 26  # the car-crash vote begins: remove every seat of bitmask value?
    VISIT = 27  # the putana (actor) visits and blocks target tonight; seen by her
    BLOCKED = 28  # actor was blocked tonight and cannot act; seen by him
    HEAL = 29  # the doctor (actor) heals target tonight; seen by him
    HEAL_STATE = 30  # morning: the doctor's last counted heal is target (-1: none), value =
    # self-heals used; seen by him
    DON_INTRODUCED = 31  # actor introduces himself as the don; seen by the mafia
    ASK = 32  # actor asks target "do you claim role value?"
    ANSWER = 33  # actor answers target's question: value Answer
    NAME = 34  # actor names target in the nomination round
    HUNT = 35  # actor requests a hunt on target; seen by him
    EXECUTOR = 36  # actor (mafia) names target as the executor of the shot; seen like SHOT


class Cause(IntEnum):
    VOTE = 0
    NIGHT = 1
    FOUL = 2
    MAFIA = 3  # announced as the mafia's victim
    MANIAC = 4  # announced as the maniac's victim
    COMPANION = 5  # the putana's companion, who leaves with her
    HUNTED = 6  # a mafia member or the maniac killed by the town's hunt
    HUNTER = 7  # the victim of a failed hunt (the hunter)
    FORFEIT = 8  # the mafia could not agree on a victim: the whole team leaves


class NoVote(IntEnum):
    NO_NOMINEES = 0
    SINGLE_NOMINEE_DAY1 = 1


class Spared(IntEnum):
    NO_VOTES = 0  # nobody got a vote
    TIE = 1  # the tie rule removes nobody
    CRASH_FAILED = 2  # the car-crash vote had no strict majority
    NO_MAJORITY = 3  # a lone nominee without a strict majority


class Answer(IntEnum):
    YES = 0
    NO = 1
    DONT_KNOW = 2


ANSWER_NAMES = ("yes", "no", "dont_know")


class Outcome(IntEnum):
    TOWN = 0
    MAFIA = 1
    MANIAC = 2
    DRAW = 3


OUTCOME_NAMES = tuple(o.name.lower() for o in Outcome)
