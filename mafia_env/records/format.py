"""Game records: the game so far as JSON-ready data (`mafia_env.replay` plays one back).

A record (format 4) is a dict::

    {"format": 4, "variant": "sport", "num_players": 10,
     "knobs": {...},            # the knobs the game overrode (as given to env())
     "rules": {...},            # every knob's value the game was played with
     "seed": 123, "deal": ["sheriff", "civilian", ...], "dealt": "seed" | "given",
     "moves": [[3, 0], [3, "say", "I trust 5."], [3, "foul"], [7, "remove"], [4, "illegal"]],
     "winner": "town" | "mafia" | "maniac" | "draw" | None, "truncated": false,
     "events": 412, "checksum": "9f1c..."}   # the game's events, counted and hashed

A move is ``[seat 1..n, what]``: an action index of the variant's flat action space,
``"foul"`` (a foul the moderator called), ``"remove"`` (the moderator removed the player,
SPORT-F2) or ``"illegal"`` (an illegal action that stopped the game, knob ``illegal_action:
terminate``); or ``[seat, "say", text]``, a remark of table talk in the seat's speech
(`Game.say`), whose text the checksum covers too. Formats 2 to 4 count and hash every event;
format 1 (before the events that begin a turn, ``Ev.TURN``, were logged) counts and hashes
the events of its time. Records of formats 1 to 3 still replay, under the rules of their time
(`mafia_env.records.earlier`: format 1 before the seeds were read again, issue 16; format 2 before
their second reading, issue 25; format 3 before their third, issue 47). ``mafia_env.replay``
plays a record back and checks every step; the optional keys (``rules``, ``dealt``,
``winner``, ``truncated``, ``events``, ``checksum``, ``meta``) are checked when present; other
keys (what a table server adds about its seats, say) are kept by the caller and ignored here.
Every problem is a `RecordError` that names where (the key, or the index of the move) and why.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from mafia_env.engine.kinds import Call
from mafia_env.errors import RecordError
from mafia_env.records.earlier import format_1_bytes, format_events

FORMAT = 4
FORMATS = (1, 2, 3, 4)  # the formats `replay` reads
REQUIRED = ("format", "variant", "num_players", "knobs", "seed", "deal", "moves")
OPTIONAL = ("rules", "dealt", "winner", "truncated", "events", "checksum", "meta")
FOUL, ILLEGAL, REMOVE, SAY = "foul", "illegal", "remove", "say"


def checksum(
    events: list[tuple[int, int, int, int, int]],
    fmt: int = FORMAT,
    talk: list[tuple[int, int, str]] | None = None,
) -> str:
    """Return a short hash of an event list (and the talk's texts): equal games, equal sums."""
    events = format_events(events, fmt)
    if fmt < 2:
        data = format_1_bytes(events)
    else:  # a value may exceed 64 bits (a long sequence code)
        data = ";".join(",".join(str(int(x)) for x in e) for e in events).encode()
    if talk:  # a game without talk hashes as before talk existed
        data += "\n".join(text for _, _, text in talk).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:16]


def make_record(env: Any) -> dict[str, Any]:
    """Return `env`'s game as a record: variant, knobs, seed, deal and every input."""
    game = env._require_game()
    moves: list[list[Any]] = []
    talk = iter(game.talk)
    said = next(talk, None)
    for k, (seat, act, target, value, _, _) in enumerate(game.inputs):
        while said is not None and said[1] == k:  # the remarks made before input k
            moves.append([said[0] + 1, SAY, said[2]])
            said = next(talk, None)
        if act == Call.FOUL:
            moves.append([seat + 1, FOUL])
        elif act == Call.TERMINATE:
            moves.append([seat + 1, ILLEGAL])
        elif act == Call.REMOVE:
            moves.append([seat + 1, REMOVE])
        else:
            moves.append([seat + 1, env.layout.encode(act, target, value)])
    while said is not None:  # the remarks after the last input
        moves.append([said[0] + 1, SAY, said[2]])
        said = next(talk, None)
    return {
        "format": FORMAT,
        "variant": env.rules.name,
        "num_players": env.n,
        "knobs": dict(env.knobs),
        "rules": env.rules.knob_values(),
        "seed": env.game_seed,
        "deal": [r.label for r in game.roles],
        "dealt": "seed" if env.deal is None else "given",
        "moves": moves,
        "winner": env.winner,
        "truncated": game.truncated,
        "events": len(game.events),
        "checksum": checksum(game.events, FORMAT, game.talk),
    }


def load_record(source: str | bytes | Path) -> dict[str, Any]:
    """Return the record in a JSON text or file; bad JSON is a RecordError saying where."""
    where = "record"
    if isinstance(source, Path):
        where = str(source)
        try:
            source = source.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise RecordError(f"{where}: cannot read the record: {e}") from None
    if isinstance(source, str | bytes) and not source.strip():
        raise RecordError(
            f"{where}: the file is empty; a record is the JSON object env.record() returns"
        )
    try:
        data = json.loads(source)
    except json.JSONDecodeError as e:
        raise RecordError(
            f"{where}: bad JSON at line {e.lineno}, column {e.colno}: {e.msg}"
        ) from None
    except (TypeError, UnicodeDecodeError) as e:
        raise RecordError(f"{where}: a record is JSON text; {e}") from None
    return data


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_shape(record: Any) -> None:
    """Check the keys and types of a record (not yet its meaning)."""
    if not isinstance(record, dict):
        raise RecordError(
            f"a record must be a JSON object (dict); got {type(record).__name__} (a record is "
            "the JSON object env.record() returns)"
        )
    missing = [k for k in REQUIRED if k not in record]
    if missing:
        raise RecordError(f"record is missing {missing}; a record has {list(REQUIRED)}")
    if record["format"] not in FORMATS:
        supported = ", ".join(map(str, FORMATS))
        raise RecordError(f"record 'format' is {record['format']!r}; supported: {supported}")
    types = {
        "variant": (str, "a string"),
        "knobs": (dict, "an object of knob values"),
        "deal": (list, "a list of role names, one per seat"),
        "moves": (list, "a list of [seat, action] pairs"),
        "rules": (dict, "an object of knob values"),
        "meta": (dict, "an object"),
        "checksum": (str, "a string"),
    }
    for key, (kind, what) in types.items():
        if key in record and not isinstance(record[key], kind):
            raise RecordError(f"record {key!r} must be {what}; got {record[key]!r}")
    for key in ("num_players", "seed", "events"):
        if key in record and not (is_int(record[key]) and record[key] >= 0):
            raise RecordError(f"record {key!r} must be a non-negative integer; got {record[key]!r}")
    if record.get("dealt", "seed") not in ("seed", "given"):
        raise RecordError(f"record 'dealt' must be 'seed' or 'given'; got {record['dealt']!r}")
    if not isinstance(record.get("truncated", False), bool):
        raise RecordError(f"record 'truncated' must be true or false; got {record['truncated']!r}")


__all__ = ["FORMAT", "FORMATS", "check_shape", "checksum", "load_record", "make_record"]
