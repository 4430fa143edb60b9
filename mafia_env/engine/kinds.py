"""The kinds the rules are written in: turns, acts, stages, and seat bitmasks.

`Turn` is what the acting player is doing, `Act` a kind of action (one segment of the flat
action space), `Stage` where the game stands between turns. Seats are 0-based ints; a set of
seats is a bitmask (bit s: seat s).
"""

from __future__ import annotations

from enum import IntEnum


class Turn(IntEnum):
    """What the acting player is doing."""

    SPEECH = 0  # a day speech: speech acts and (where allowed) one nomination
    LAST_WORD = 1  # a leaving player's speech
    TIE_SPEECH = 2  # a tied player's short speech before the re-vote
    VOTE = 3  # one ballot of a voting round
    CRASH_VOTE = 4  # yes/no on removing every tied player
    MAFIA_KILL = 5  # a mafia member's shot
    DON_CHECK = 6  # the don's "is this the sheriff?"
    SHERIFF_CHECK = 7  # the sheriff's "is this black?"
    PUTANA = 8  # the putana's visit, which blocks (CITY-N2)
    DOCTOR = 9  # the doctor's heal
    MANIAC = 10  # the maniac's shot, or his refusal (pass)
    EXECUTOR = 11  # a mafia member names who carries out the shot (FORUM-N1)
    HUNT = 12  # a town player's free-hunt request, or none (FORUM-N3)
    NAMING = 13  # naming a seat in the nomination round (CLUB-E1)
    MONOLOGUE = 14  # a nominee's speech before the vote (CLUB-E2)
    ANSWER = 15  # the gesture answering a speaker's question (ONLINE-D4)
    OPEN_VOTE = 16  # a hand raised for the nominee being counted, or kept down (CLUB-E7)
    MEETING = 17  # a black player's sign at the zero-night meeting: a target or none (SPORT-N3)
    DISCUSSION = 18  # a word in the general discussion: a speech act or none (ONLINE-D5)
    GESTURE = 19  # a listener's gesture during another's speech (ONLINE-D6)


class Act(IntEnum):
    """Kinds of action; each is one segment of the flat action space."""

    PASS = 0  # end a speech, abstain, skip a check, hold fire
    NOMINATE = 1
    VOTE = 2
    NIGHT = 3  # the acting role's night action on a target
    CLAIM_ROLE = 4
    CLAIM_CHECK = 5
    ACCUSE = 6
    VOUCH = 7
    VOTE_YES = 8
    VOTE_NO = 9
    ASK = 10  # ask target "do you claim role value?" (ONLINE-D4)
    ANSWER = 11  # yes / no / don't know (value: Answer)
    REVEAL_DON = 12  # the don introduces himself to the mafia (ONLINE-N2)
    EXECUTOR = 13  # name the mafia member who carries out the shot (FORUM-N1)
    HUNT = 14  # request a free hunt on target (FORUM-N3)


class Call(IntEnum):
    """A moderator's call, logged in `Game.inputs` where a move logs its act (no act is < 0)."""

    FOUL = -1
    TERMINATE = -2  # the game stopped by the player's illegal action
    REMOVE = -3


class Stage(IntEnum):
    """Where the game stands: the stage whose queued turns are being taken.

    When a stage's turns run out, the rule of that stage (`Game._END`) decides what follows,
    always one of `FOLLOWS[stage]`.
    """

    DAWN = 0  # nothing queued yet: the first day is about to begin
    SPEECHES = 1  # the night victims' last words, then the day's speeches
    NAMING = 2  # CLUB-E1: the nomination round
    MONOLOGUES = 3  # CLUB-E2: the nominees' speeches
    VOTE = 4  # one voting round
    TIE_SPEECHES = 5  # SPORT-D3, ONLINE-V4: the tied players speak before the re-vote
    CRASH = 6  # SPORT-D3: yes or no on removing every tied player
    LAST_WORDS = 7  # the last words of the players voted out
    NIGHT = 8  # the night's turns, in wake order
    OVER = 9  # the game has ended
    ZERO_NIGHT = 10  # ONLINE-N1: the mafia meet; the don may introduce himself
    COUNT = 11  # CLUB-E7, ONLINE-V7: a vote counted in the open, one nominee at a time
    DISCUSSION = 12  # ONLINE-D5: the general discussion after the speech round


# What can follow each stage when its turns run out (its rule picks one). Any stage can also
# end the game (a win, a removal for fouls, the day limit): OVER is not listed.
FOLLOWS: dict[Stage, frozenset[Stage]] = {
    Stage.DAWN: frozenset({Stage.ZERO_NIGHT, Stage.SPEECHES}),
    Stage.ZERO_NIGHT: frozenset({Stage.SPEECHES}),
    Stage.SPEECHES: frozenset(
        {Stage.DISCUSSION, Stage.NAMING, Stage.MONOLOGUES, Stage.VOTE, Stage.COUNT, Stage.NIGHT}
    ),
    Stage.DISCUSSION: frozenset(
        {Stage.NAMING, Stage.MONOLOGUES, Stage.VOTE, Stage.COUNT, Stage.NIGHT}
    ),
    Stage.NAMING: frozenset({Stage.MONOLOGUES, Stage.VOTE, Stage.COUNT, Stage.NIGHT}),
    Stage.MONOLOGUES: frozenset({Stage.VOTE, Stage.COUNT, Stage.NIGHT}),
    Stage.VOTE: frozenset({Stage.TIE_SPEECHES, Stage.CRASH, Stage.LAST_WORDS, Stage.NIGHT}),
    Stage.COUNT: frozenset({Stage.TIE_SPEECHES, Stage.CRASH, Stage.LAST_WORDS, Stage.NIGHT}),
    Stage.TIE_SPEECHES: frozenset({Stage.VOTE, Stage.COUNT, Stage.NIGHT}),
    Stage.CRASH: frozenset({Stage.LAST_WORDS, Stage.NIGHT}),
    Stage.LAST_WORDS: frozenset({Stage.NIGHT}),
    Stage.NIGHT: frozenset({Stage.SPEECHES}),
    Stage.OVER: frozenset(),
}

SPEECH_TURNS = frozenset(
    {Turn.SPEECH, Turn.LAST_WORD, Turn.TIE_SPEECH, Turn.MONOLOGUE, Turn.DISCUSSION}
)
NIGHT_TURNS = frozenset(
    {
        Turn.MAFIA_KILL,
        Turn.MEETING,
        Turn.DON_CHECK,
        Turn.SHERIFF_CHECK,
        Turn.PUTANA,
        Turn.DOCTOR,
        Turn.MANIAC,
        Turn.EXECUTOR,
        Turn.HUNT,
    }
)
# the table sees who takes these turns; a night turn is its taker's secret
PUBLIC_TURNS = frozenset(set(Turn) - NIGHT_TURNS)
# CITY-N2: the putana's block stops these turns (not the mafia's shot)
BLOCKABLE = frozenset({Turn.DON_CHECK, Turn.SHERIFF_CHECK, Turn.DOCTOR, Turn.MANIAC})

Options = list[tuple[Act, int | None]]  # (act, bitmask of target seats or None)


def seats(bits: int) -> list[int]:
    """Return the seats of a bitmask (not PUBLIC: mask it first), in seat order."""
    if bits < 0:
        raise ValueError(f"seats() takes a non-negative bitmask; got {bits}")
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def plain(kind: type) -> type:
    """Return a plain class whose attributes are `kind`'s members (the same objects).

    CPython 3.11 reads an enum member (``Act.PASS``) through ``EnumType.__getattr__``, four
    times slower than a plain class attribute. The engine reads members a dozen times a move,
    so it reads them from these copies (``_Act.PASS is Act.PASS``): 10% of a move in
    ``scripts/bench_env.py``.
    """
    return type(kind.__name__, (), dict(kind.__members__))


__all__ = [
    "BLOCKABLE",
    "FOLLOWS",
    "NIGHT_TURNS",
    "PUBLIC_TURNS",
    "SPEECH_TURNS",
    "Act",
    "Call",
    "Options",
    "Stage",
    "Turn",
    "plain",
    "seats",
]
