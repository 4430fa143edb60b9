"""What happens at the table, as events that know who saw them.

An event is a plain tuple ``(kind, actor, target, value, seen_by)`` appended to
``Game.events``: ``actor`` and ``target`` are 0-based seats (-1 when absent), ``value`` is a
role, a check result, a cause or a count, and ``seen_by`` is ``PUBLIC`` or a bitmask of the
seats that saw it. Encoders and narration read events, through `Perceiver`: it is the one
place that reads ``seen_by``, and nothing outside the engine reads the game's live state.
"""

from __future__ import annotations

from collections.abc import Callable
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
    BALLOT = 12  # actor voted for target (-1: abstained); value 1 if it was a silent vote,
    # 2 a nominee's vote, which goes to the last nominee (CLUB-E8)
    TIE = 13  # a vote tied between the seats of bitmask value
    CRASH_BALLOT = 14  # actor voted value 1 yes / 0 no on removing every tied player
    SPARED = 15  # the vote removed nobody (value: Spared)
    ELIMINATED = 16  # target leaves the game (value: Cause)
    MISS = 17  # the night killed nobody
    SHOT = 18  # actor (mafia) shot at target, seen by himself only
    CHECK = 19  # actor checked target: value 1 yes, 0 no (sheriff: black?; don: sheriff?)
    FOUL = 20  # target got a foul; value = his fouls now
    SILENCED = 21  # target loses today's speech for his fouls (value -1), or, value
    # Turn.LAST_WORD, the last word he waited for (SPORT-F3, ONLINE-F1)
    REVEAL = 22  # target's role (value) is shown to the table (on his leaving: knobs
    # reveal_on_death, and hunted_reveal for a player killed on the hunt, FORUM-M1)
    GAME_OVER = 23  # value: the winner (Outcome)
    TERMINATED = 24  # the game was stopped by actor's illegal action
    VOTING = 25  # a voting round begins over the candidates of value, in the order of
    # nomination (a `sequence_code`; format 1 logged a bitmask)
    CRASH = 26  # the car-crash vote begins: remove every seat of bitmask value?
    VISIT = 27  # the putana (actor) visits and blocks target tonight; seen by her
    BLOCKED = 28  # actor was blocked tonight and cannot act; seen by him
    HEAL = 29  # the doctor (actor) heals target tonight; seen by him
    HEAL_STATE = 30  # morning: the doctor's last counted heal is target (-1: none), value =
    # self-heals used; seen by him (not logged with knob heal_told off, ONLINE-N9)
    DON_INTRODUCED = 31  # actor introduces himself as the don; seen by the mafia
    ASK = 32  # actor asks target "do you claim role value?"
    ANSWER = 33  # actor answers target's question: value Answer
    NAME = 34  # actor names target in the nomination round
    HUNT = 35  # actor requests a hunt on target; seen by him
    EXECUTOR = 36  # actor (mafia) names target as the executor of the shot; seen like SHOT
    TURN = 37  # actor's turn of kind value (Turn) begins, where no SPEAK announces it: public
    # for a day turn (a ballot, a gesture, a speech resumed after an answer), the actor's own
    # at night
    MORNING = 38  # the night is over: the moderator announces the morning
    TALK = 39  # actor adds a free-text remark to his speech: value indexes `Game.talk`
    COUNT = 40  # an open count (CLUB-E7, ONLINE-V7) of the votes for target is over: the
    # seats of bitmask value raised a hand for him
    PROPOSE = 41  # at the zero-night meeting actor shows the team target (-1: no number);
    # seen by the mafia (SPORT-N3)
    GESTURE = 42  # actor shows gesture value (Answer; -1: takes his back) during target's
    # speech (ONLINE-D6)


TALK_LIMIT = 280  # characters in one remark of table talk


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
    REMOVED = 9  # removed at once by the moderator (SPORT-F2: eyes opened at night)


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

Event = tuple[int, int, int, int, int]
SEQ_BITS = 5  # bits per seat in a `sequence_code` (seats + 1 <= 31: tables of up to 30)


def sequence_code(order: list[int]) -> int:
    """Return one int that lists seats in order (an event's value can hold it)."""
    code = 0
    for i, seat in enumerate(order):
        code |= (seat + 1) << (SEQ_BITS * i)
    return code


def seat_sequence(code: int) -> list[int]:
    """Return the seats a `sequence_code` lists, in their order."""
    out = []
    while code:
        out.append((code & ((1 << SEQ_BITS) - 1)) - 1)
        code >>= SEQ_BITS
    return out


Handler = Callable[..., None]


def saw(seen_by: int, seat: int) -> bool:
    """Return whether `seat` saw an event of visibility `seen_by`."""
    return seen_by == PUBLIC or bool(seen_by >> seat & 1)


class Perceiver:
    """Folds one game's events into what each seat perceived: subclass it and add handlers.

    `catch_up(events)` takes every event logged since the last call once: an event the whole
    table saw goes to the method ``_on_<event>(actor, target, value)`` (``_on_claim_role``),
    and a private one to ``_saw_<event>(seat, actor, target, value)`` once for each seat that
    saw it, lowest seat first. An event without such a method goes to
    ``public_default(event)`` / ``private_default(seat, event)`` where a subclass defines
    them, else nowhere. The vector and text observers, the narration and the table's view all
    perceive through this one path.

    The events that begin turns have no handlers: `catch_up` follows them itself, for speed.
    ``actor``, ``turn`` (a `Turn` value) and ``turn_public`` are the current turn's, as the
    seats that saw it begin know it (a night turn is seen by its taker only: only the
    taker's view may use them then); a SPEAK also sets ``speech_acts_made`` to 0 (a subclass
    that counts speech acts adds 1 in their handlers) and then goes to ``public_default``;
    a TURN goes nowhere else.
    """

    public_default: Callable[[Event], None] | None = None
    private_default: Callable[[int, Event], None] | None = None
    actor = -1
    turn = -1
    turn_public = False
    speech_acts_made = 0

    def __init__(self) -> None:
        self.cursor = 0
        self.bind()

    def bind(self) -> None:
        """Fill the handler tables from the ``_on_*`` and ``_saw_*`` methods (once, and on copy)."""
        names = _HANDLER_NAMES.get(type(self))
        if names is None:
            for m in ("_on_speak", "_on_turn", "_saw_turn"):
                if hasattr(self, m):
                    raise TypeError(
                        f"{type(self).__name__}.{m}: SPEAK and TURN have no handlers; "
                        "catch_up follows them itself (actor, turn, turn_public), and a "
                        "SPEAK goes on to public_default"
                    )
            names = _HANDLER_NAMES[type(self)] = tuple(
                [
                    (int(k), f"{prefix}{k.name.lower()}")
                    for k in Ev
                    if k not in (Ev.SPEAK, Ev.TURN) and hasattr(self, f"{prefix}{k.name.lower()}")
                ]
                for prefix in ("_on_", "_saw_")
            )
        # the tables are lists by event kind (None: no handler): faster than dicts to index
        self.on_public: list[Handler | None] = [None] * _KINDS
        self.on_private: list[Handler | None] = [None] * _KINDS
        for k, m in names[0]:
            self.on_public[k] = getattr(self, m)
        for k, m in names[1]:
            self.on_private[k] = getattr(self, m)

    def catch_up(self, events: list[Event]) -> None:
        """Deliver the events logged since the last call to the seats that saw them."""
        start, end = self.cursor, len(events)
        if end - start == 1:  # the common cases: a turn began, or one public event
            kind, actor, target, value, seen_by = events[start]
            if kind == _TURN:
                self.actor, self.turn, self.turn_public = actor, value, seen_by < 0
                self.cursor = end
                return
            h = self.on_public[kind] if seen_by < 0 else None
            if h is not None:
                self.cursor = end
                h(actor, target, value)
                return
        pub, priv = self.on_public, self.on_private
        for e in events[start:end]:
            kind, actor, target, value, seen_by = e
            if seen_by < 0:  # PUBLIC
                h = pub[kind]
                if h is not None:
                    h(actor, target, value)
                    continue
                if kind == _TURN:  # whose turn it is (no handler: kept here)
                    self.actor, self.turn, self.turn_public = actor, value, True
                    continue
                if kind == _SPEAK:  # a speech begins (no handler: kept here)
                    self.actor, self.turn, self.turn_public = actor, value, True
                    self.speech_acts_made = 0
                if self.public_default is not None:
                    self.public_default(e)
                continue
            if kind == _TURN:  # a night turn: its taker's alone
                self.actor, self.turn, self.turn_public = actor, value, False
                continue
            h = priv[kind]
            if h is None:
                h = self.private_default
                if h is None:
                    continue
                while seen_by:
                    low = seen_by & -seen_by
                    h(low.bit_length() - 1, e)
                    seen_by ^= low
                continue
            while seen_by:
                low = seen_by & -seen_by
                h(low.bit_length() - 1, actor, target, value)
                seen_by ^= low
        self.cursor = end


_HANDLER_NAMES: dict[type, tuple[list[tuple[int, str]], list[tuple[int, str]]]] = {}
_TURN = int(Ev.TURN)
_SPEAK = int(Ev.SPEAK)
_KINDS = max(Ev) + 1


class FollowsTurns:
    """Adds ``over``, set when the game ends, to what a `Perceiver` follows of the turns."""

    over = False

    def _on_game_over(self, actor: int, target: int, value: int) -> None:
        self.over = True

    def _on_terminated(self, actor: int, target: int, value: int) -> None:
        self.over = True

    def acting(self, seat: int) -> bool:
        """Return whether `seat` takes the current turn (as `seat` itself knows)."""
        return not self.over and self.actor == seat
