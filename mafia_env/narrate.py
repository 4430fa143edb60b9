"""Moderator narration: events as a moderator would say them, to whoever saw them."""

from __future__ import annotations

from collections.abc import Iterable

from mafia_env.engine.events import PUBLIC, Cause, Ev, NoVote, Outcome, Spared
from mafia_env.engine.game import Turn
from mafia_env.engine.roles import Role

COLOR = ("red", "black")
CAUSE = {
    Cause.VOTE: "was voted out",
    Cause.NIGHT: "was killed in the night",
    Cause.FOUL: "was removed for fouls",
    Cause.MAFIA: "was killed by the mafia",
    Cause.MANIAC: "was killed by the maniac",
    Cause.COMPANION: "spent the night with the putana and leaves with her",
    Cause.HUNTED: "was caught by the town's hunt",
    Cause.HUNTER: "fell in a failed hunt",
    Cause.FORFEIT: "leaves with the mafia, who could not agree on a victim",
}
ANSWER_WORDS = dict(enumerate(("yes", "no", "don't know")))
BLOCKED_TURN = {
    Turn.DON_CHECK: "check",
    Turn.SHERIFF_CHECK: "check",
    Turn.DOCTOR: "heal",
    Turn.MANIAC: "shot",
}
SPARED = {
    Spared.NO_VOTES: "Nobody received a vote: nobody leaves.",
    Spared.TIE: "The vote is tied: nobody leaves today.",
    Spared.CRASH_FAILED: "No majority to remove them all: nobody leaves.",
    Spared.NO_MAJORITY: "No strict majority: the nominee stays.",
}
OUTCOME = {
    Outcome.TOWN: "The town wins.",
    Outcome.MAFIA: "The mafia wins.",
    Outcome.MANIAC: "The maniac wins.",
    Outcome.DRAW: "The game is a draw.",
}


def seats(mask: int) -> str:
    return ", ".join(str(s + 1) for s in range(mask.bit_length()) if mask >> s & 1)


def say(event: tuple[int, int, int, int, int]) -> str | None:
    """Return one event in English, or None for an event a moderator does not announce."""
    kind, a, t, v, _ = event
    p, q = f"Player {a + 1}", f"player {t + 1}"
    if kind == Ev.ROLE:
        return f"{p}, your role is {Role(v).label}."
    if kind == Ev.TEAMMATE:
        return f"{p}, player {t + 1} is on your team ({Role(v).label})."
    if kind == Ev.NIGHT:
        return "The zero night falls: the mafia meet." if v == 0 else f"Night {v} falls."
    if kind == Ev.DAY:
        return f"Day {v} begins."
    if kind == Ev.SPEAK:
        return {
            Turn.SPEECH: f"{p} speaks.",
            Turn.LAST_WORD: f"{p} has a last word.",
            Turn.TIE_SPEECH: f"{p} speaks again before the re-vote.",
            Turn.MONOLOGUE: f"{p} has a minute of monologue.",
        }.get(v)
    if kind == Ev.CLAIM_ROLE:
        return f"{p}: I am the {Role(v).label}."
    if kind == Ev.CLAIM_CHECK:
        return f"{p}: I checked player {t + 1}: {COLOR[v]}."
    if kind == Ev.ACCUSE:
        return f"{p}: player {t + 1} is black."
    if kind == Ev.VOUCH:
        return f"{p}: player {t + 1} is red."
    if kind == Ev.NOMINATE:
        if a < 0:
            return f"Player {t + 1} was named often enough to be nominated."
        return f"{p} nominates {q}."
    if kind == Ev.END_SPEECH:
        return f"{p} ends the speech."
    if kind == Ev.NO_VOTE:
        return (
            "Nobody was nominated: no vote today."
            if v == NoVote.NO_NOMINEES
            else "A single nominee on day 1: no vote."
        )
    if kind == Ev.VOTING:
        return f"Vote over players {seats(v)}."
    if kind == Ev.BALLOT:
        if t < 0:
            return f"{p} abstains."
        return f"{p} votes for {q}" + (" (no vote cast: to the last nominee)." if v else ".")
    if kind == Ev.TIE:
        return f"Tie between players {seats(v)}."
    if kind == Ev.CRASH:
        return f"Vote: remove all of players {seats(v)}?"
    if kind == Ev.CRASH_BALLOT:
        return f"{p} votes {'yes' if v else 'no'}."
    if kind == Ev.SPARED:
        return SPARED[Spared(v)]
    if kind == Ev.ELIMINATED:
        return f"Player {t + 1} {CAUSE[Cause(v)]}."
    if kind == Ev.MISS:
        return "Morning: nobody was killed tonight."
    if kind == Ev.SHOT:
        return f"{p}, you shot at {q}." if t >= 0 else f"{p}, you held your fire."
    if kind == Ev.CHECK:
        return f"{p}, your check of {q}: {'yes' if v else 'no'}."
    if kind == Ev.VISIT:
        return f"{p}, you visit {q} tonight."
    if kind == Ev.BLOCKED:
        return f"{p}, the putana is with you: no {BLOCKED_TURN[Turn(v)]} tonight."
    if kind == Ev.HEAL:
        return f"{p}, you heal {q} tonight."
    if kind == Ev.HEAL_STATE:
        last = f"player {t + 1}" if t >= 0 else "nobody"
        return f"{p}, your last heal that counts: {last}; self-heals used: {v}."
    if kind == Ev.DON_INTRODUCED:
        return f"{p} is the don."
    if kind == Ev.ASK:
        return f"{p} asks {q}: are you the {Role(v).label}?"
    if kind == Ev.ANSWER:
        return f"{p} answers: {ANSWER_WORDS[v]}."
    if kind == Ev.NAME:
        return f"{p} names {q}."
    if kind == Ev.HUNT:
        return f"{p}, you request a hunt on {q}."
    if kind == Ev.EXECUTOR:
        return f"{p} names {q} to carry out the shot."
    if kind == Ev.FOUL:
        return f"Player {t + 1} gets a foul ({v} in all)."
    if kind == Ev.SILENCED:
        return f"Player {t + 1} has no speech today for fouls."
    if kind == Ev.REVEAL:
        return f"Player {t + 1} was the {Role(v).label}."
    if kind == Ev.GAME_OVER:
        return OUTCOME[Outcome(v)]
    if kind == Ev.TERMINATED:
        return f"The game is stopped: player {a + 1} made an illegal move."
    return None


def narrate(events: Iterable[tuple[int, int, int, int, int]], seat: int | None = None) -> list[str]:
    """Return the lines of `events` that `seat` saw (public ones only for seat None)."""
    lines = []
    for e in events:
        seen_by = e[4]
        if seen_by == PUBLIC or (seat is not None and seen_by >> seat & 1):
            line = say(e)
            if line:
                lines.append(line)
    return lines
