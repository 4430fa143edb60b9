"""What the C core reads of the rules' definitions: the one place its constants come from.

The enums and tables the core is written in are the Python engine's (`engine.kinds`,
`roles`, `events`, `rules`' knob choices, `turns.SPEECH_EVENT`); this module adds what only
the core's interface needs: the C name of each enum (its prefix), the observation pieces in
the order of the core's offsets, the knobs the core reads. `generate.py` writes
``src/kinds.h`` from it at build time, and `mafia_env.ccore` builds the core's config from
it: nothing here is written again in C.

It imports the engine only (no numpy), so that the build can read it.
"""

from __future__ import annotations

from enum import IntEnum

from mafia_env.engine.events import PUBLIC, SEQ_BITS, Answer, Cause, Ev, NoVote, Outcome, Spared
from mafia_env.engine.kinds import BLOCKABLE, PUBLIC_TURNS, SPEECH_TURNS, Act, Call, Stage, Turn
from mafia_env.engine.roles import ROLE_TEAM, Role, Team
from mafia_env.engine.rules import KNOBS
from mafia_env.engine.turns import SPEECH_EVENT

# the largest table: a `sequence_code` holds a seat + 1 in SEQ_BITS bits, a bitmask 32 seats
MAX_SEATS = (1 << SEQ_BITS) - 2

# each enum the core reads: its C prefix, and the name of its member count (None: no count)
ENUMS: tuple[tuple[type[IntEnum], str, str | None], ...] = (
    (Turn, "T_", "N_TURNS"),
    (Act, "A_", "N_ACTS"),
    (Stage, "S_", None),
    (Call, "CALL_", None),
    (Ev, "E_", "N_EVENTS"),
    (Cause, "C_", None),
    (Role, "R_", "N_ROLES"),
    (Team, "TEAM_", None),
    (Outcome, "O_", None),
    (NoVote, "NV_", None),
    (Spared, "SP_", None),
    (Answer, "ANS_", None),
)

# the knobs of named choices the core reads, and the C prefix of their choices (the config
# passes a choice as its index in the knob's `choices`)
CHOICE_PREFIX = {
    "nominations": "NOM_",
    "nominee_ban": "BAN_",
    "silent_vote": "SILENT_",
    "single_nominee": "SINGLE_",
    "tie": "TIE_",
    "zero_votes": "ZV_",
    "reveal_on_death": "REVEAL_",
    "night_order": "NS_",
    "mafia_kill": "KILL_",
    "mafia_split": "SPLIT_",
    "self_shot": "SELF_",
    "heal_against": "HA_",
    "heal_spent": "HS_",
    "night_announce": "ANN_",
    "mafia_win": "WIN_",
    "mafia_win_maniac": "WM_",
    "vote_count": "VC_",
    "hunted_reveal": "HR_",
    "mafia_no_number": "NN_",
    "shots_judged": "SJ_",
    "gestures": "G_",
    "nominee_votes": "NVOTE_",
}

# the pieces of an observation, in the order of the core's offsets (P_* in C)
PIECES = (
    "seat",
    "role",
    "known_roles",
    "checks",
    "my_turn",
    "my_night",
    "team_shots",
    "team_executors",
    "blocked",
    "last_heal",
    "self_heals",
    "phase",
    "day",
    "speaker",
    "acts_left",
    "alive",
    "eliminated",
    "fouls",
    "revealed",
    "nominees",
    "candidates",
    "votes",
    "votes_before",
    "crash",
    "nominations",
    "claimed_role",
    "claimed_check",
    "accused",
    "vouched",
    "questions",
    "answers",
    "named",
    "counting",
    "team_plan",
    "gestures",
)
# the knobs the core reads (fields of its Config), each as an int: a choice's index among the
# knob's choices, a bool, a count; night_order as its steps, heal_self -1 for no limit
CORE_KNOBS = (
    "zero_night", "zero_night_don", "speech_acts", "claims", "nominations", "self_nomination",
    "self_vote", "nominees_vote", "nominee_ban", "silent_vote", "single_nominee", "tie",
    "tie_speeches", "zero_votes", "last_word_vote", "last_word_night", "reveal_on_death",
    "mafia_target_team", "don_check", "sheriff_check", "check_skip", "fouls_mute",
    "fouls_remove", "night_order", "mafia_kill", "mafia_split", "mafia_pass", "self_shot",
    "mafia_see_shots", "don_known", "heal_repeat", "heal_self", "heal_skip", "heal_against",
    "heal_spent", "night_announce", "putana_self", "companion_reason", "companion_heal",
    "questions", "naming_threshold", "nominee_speeches", "hunt", "hunt_status", "mafia_win",
    "hunt_ratio", "mafia_win_maniac", "vote_count", "fouls_take_last_word", "hunted_reveal",
    "heal_told", "mafia_no_number", "zero_night_meeting", "shots_judged", "discussion",
    "gestures", "nominee_votes",
)  # fmt: skip
# the knobs the core reads as a list, not one int
LIST_KNOBS = frozenset({"night_order"})
NIGHT_STEPS = KNOBS["night_order"].choices


def constants() -> dict[str, int]:
    """Return every named constant of the core's header, by its C name."""
    out = {"MAXN": MAX_SEATS, "PUBLIC": PUBLIC}
    for kind, prefix, count in ENUMS:
        out.update((prefix + m.name, int(m)) for m in kind)
        if count:
            out[count] = len(kind)
    for knob, prefix in CHOICE_PREFIX.items():
        out.update((prefix + c.upper(), i) for i, c in enumerate(KNOBS[knob].choices))
    out.update(("P_" + p.upper(), i) for i, p in enumerate(PIECES))
    out["N_PIECES"] = len(PIECES)
    named = 2 + len(PIECES) + 1 + sum(len(k) + bool(c) for k, _, c in ENUMS)
    named += sum(len(KNOBS[k].choices) for k in CHOICE_PREFIX)
    if len(out) != named:  # two prefixes made one C name twice
        raise ValueError(f"the core's C names clash: {named - len(out)} of them")
    return out


def tables() -> dict[str, tuple[int, ...]]:
    """Return the core's lookup tables, by their C name (each indexed by an enum's value)."""
    return {
        "ROLE_TEAM": tuple(int(ROLE_TEAM[r]) for r in Role),
        "IS_SPEECH": tuple(int(t in SPEECH_TURNS) for t in Turn),
        "IS_PUBLIC": tuple(int(t in PUBLIC_TURNS) for t in Turn),
        "BLOCKABLE": tuple(int(t in BLOCKABLE) for t in Turn),
        # the event a speech act logs (turns.py SPEECH_EVENT; -1: none)
        "SPEECH_EVENT": tuple(int(SPEECH_EVENT.get(a, -1)) for a in Act),
    }


# the enum each table is indexed by (its length in C)
TABLE_INDEX = {
    "ROLE_TEAM": "N_ROLES",
    "IS_SPEECH": "N_TURNS",
    "IS_PUBLIC": "N_TURNS",
    "BLOCKABLE": "N_TURNS",
    "SPEECH_EVENT": "N_ACTS",
}
