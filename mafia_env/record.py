"""Game records: the game so far as JSON-ready data, and replay of a record.

A record (format 1) is a dict::

    {"format": 1, "variant": "sport", "num_players": 10,
     "knobs": {...},            # the knobs the game overrode (as given to env())
     "rules": {...},            # every knob's value the game was played with
     "seed": 123, "deal": ["sheriff", "civilian", ...], "dealt": "seed" | "given",
     "moves": [[3, 0], [3, "foul"], [4, "illegal"], ...],  # [seat 1..n, action index]
     "winner": "town" | "mafia" | "maniac" | "draw" | None, "truncated": false,
     "events": 412, "checksum": "9f1c..."}   # the game's events, counted and hashed

A move is an action index of the variant's flat action space, ``"foul"`` (a foul the
moderator called) or ``"illegal"`` (an illegal action that stopped the game, knob
``illegal_action: terminate``). ``replay`` plays a record back and checks every step; the
optional keys (``rules``, ``dealt``, ``winner``, ``truncated``, ``events``, ``checksum``,
``meta``) are checked when present; other keys (what a table server adds about its seats,
say) are kept by the caller and ignored here. Every problem is a `RecordError` that names where (the
key, or the index of the move) and why.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from mafia_env.errors import MafiaError, RecordError

FORMAT = 1
REQUIRED = ("format", "variant", "num_players", "knobs", "seed", "deal", "moves")
OPTIONAL = ("rules", "dealt", "winner", "truncated", "events", "checksum", "meta")
FOUL, ILLEGAL = "foul", "illegal"


def checksum(events: list[tuple[int, int, int, int, int]]) -> str:
    """Return a short hash of an event list: equal games, equal checksums."""
    data = np.asarray(events, dtype=np.int64).tobytes() if events else b""
    return hashlib.sha256(data).hexdigest()[:16]


def make_record(env: Any) -> dict[str, Any]:
    """Return `env`'s game as a record: variant, knobs, seed, deal and every input."""
    game = env._require_game()
    moves: list[list[Any]] = []
    for seat, act, target, value in game.inputs:
        if act == -1:
            moves.append([seat + 1, FOUL])
        elif act == -2:
            moves.append([seat + 1, ILLEGAL])
        else:
            moves.append([seat + 1, env.layout.encode(act, target, value)])
    return {
        "format": FORMAT,
        "variant": env.rules.name,
        "num_players": env.n,
        "knobs": dict(env.knobs),
        "rules": env.rules.knob_values(),
        "seed": env.seed,
        "deal": [r.label for r in game.roles],
        "dealt": "seed" if env.deal is None else "given",
        "moves": moves,
        "winner": env.winner,
        "truncated": game.truncated,
        "events": len(game.events),
        "checksum": checksum(game.events),
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
    try:
        data = json.loads(source)
    except json.JSONDecodeError as e:
        raise RecordError(
            f"{where}: bad JSON at line {e.lineno}, column {e.colno}: {e.msg}"
        ) from None
    except (TypeError, UnicodeDecodeError) as e:
        raise RecordError(f"{where}: a record is JSON text; {e}") from None
    return data


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_shape(record: Any) -> None:
    """Check the keys and types of a record (not yet its meaning)."""
    if not isinstance(record, dict):
        raise RecordError(f"a record must be a JSON object (dict); got {type(record).__name__}")
    missing = [k for k in REQUIRED if k not in record]
    if missing:
        raise RecordError(f"record is missing {missing}; a record has {list(REQUIRED)}")
    if record["format"] != FORMAT:
        raise RecordError(f"record 'format' is {record['format']!r}; supported: {FORMAT}")
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
        if key in record and not (_int(record[key]) and record[key] >= 0):
            raise RecordError(f"record {key!r} must be a non-negative integer; got {record[key]!r}")
    if record.get("dealt", "seed") not in ("seed", "given"):
        raise RecordError(f"record 'dealt' must be 'seed' or 'given'; got {record['dealt']!r}")
    if not isinstance(record.get("truncated", False), bool):
        raise RecordError(f"record 'truncated' must be true or false; got {record['truncated']!r}")


def _build(record: dict[str, Any], **options: Any) -> Any:
    """Return a fresh environment at the start of the recorded game, after checking the deal."""
    from mafia_env.aec import MafiaEnv
    from mafia_env.engine.game import Game
    from mafia_env.variants import VARIANTS

    name = record["variant"]
    if name not in VARIANTS:
        raise RecordError(
            f"record 'variant': unknown variant {name!r}; variants are: {', '.join(VARIANTS)}"
        )
    if "roles" in record["knobs"]:
        raise RecordError("record 'knobs' must not hold 'roles': the deal is under 'deal'")
    try:
        env = MafiaEnv(
            name, record["num_players"], roles=record["deal"], **options, **record["knobs"]
        )
    except MafiaError as e:
        raise RecordError(f"record does not describe a game of {name!r}: {e}") from None
    if "rules" in record and record["rules"] != env.rules.knob_values():
        now = env.rules.knob_values()
        diff = sorted(
            k for k in set(now) | set(record["rules"]) if now.get(k) != record["rules"].get(k)
        )
        k = diff[0]
        raise RecordError(
            f"record 'rules': the game was played with {k}={record['rules'].get(k, '(none)')!r}, "
            f"but variant {name!r} with the record's knobs has {k}={now.get(k, '(none)')!r} "
            f"(knobs that differ: {', '.join(diff)}; has the variant file changed?)"
        )
    if record.get("dealt", "seed") == "seed":
        dealt = [r.label for r in Game(env.rules, env.n, record["seed"]).roles]
        if dealt != record["deal"]:
            raise RecordError(
                f"record 'deal' {record['deal']} is not the deal of seed {record['seed']} "
                f'({dealt}); a deal given by the knob \'roles\' is marked "dealt": "given"'
            )
        env.deal = None  # dealt by the seed, as the recorded game was
    return env


def replay(record: dict[str, Any] | str | bytes, render_mode: str | None = None, **options: Any):
    """Play a record back; return the environment in the recorded game's final state.

    `record` is a record dict or its JSON text. `options` are `obs_mode` and `lang` for the
    returned environment. A corrupt or mismatched record raises a RecordError that says
    where and why.
    """
    if isinstance(record, str | bytes):
        record = load_record(record)
    _check_shape(record)
    env = _build(record, render_mode=render_mode, **options)
    env._new_game(record["seed"])
    for i, move in enumerate(record["moves"]):
        _replay_move(env, i, move)
    _check_end(env, record)
    return env


def _replay_move(env: Any, i: int, move: Any) -> None:
    """Play move `i` of a record, or raise a RecordError saying why it cannot be played."""
    game = env.game
    where = f"record 'moves'[{i}]"
    if not (isinstance(move, list) and len(move) == 2 and _int(move[0])):
        raise RecordError(f"{where}: a move is [seat, action] with seat 1..{env.n}; got {move!r}")
    seat, what = move
    if not 1 <= seat <= env.n:
        raise RecordError(f"{where}: seat {seat} is not at the table (seats 1..{env.n})")
    agent = f"player_{seat}"
    if what == FOUL:
        if game.over:
            raise RecordError(f"{where}: a foul for {agent} after the game ended")
        env.foul(agent)
        return
    if game.over:
        raise RecordError(f"{where}: {agent} moves {what!r}, but the game is already over")
    if env.agent_selection != agent:
        raise RecordError(
            f"{where}: {agent} moves, but it is {env.agent_selection}'s turn ({env.phase})"
        )
    if what == ILLEGAL:
        if env.rules.illegal_action != "terminate":
            raise RecordError(
                f"{where}: an illegal action stops the game only with the knob "
                f"illegal_action='terminate'; this game has {env.rules.illegal_action!r}"
            )
        env.step(env.layout.size)  # outside the action space: the knob stops the game
        return
    size = env.layout.size
    if not (_int(what) and 0 <= what < size):
        raise RecordError(
            f"{where}: the action must be an index 0..{size - 1}, {FOUL!r} or {ILLEGAL!r}; "
            f"got {what!r}"
        )
    mask = env._legal_mask()
    if not mask[what]:
        legal = ", ".join(f"{j} ({env.describe_action(j)})" for j in np.flatnonzero(mask))
        raise RecordError(
            f"{where}: {what} ({env.describe_action(what)}) is not legal for {agent} now "
            f"({env.phase}, day {game.day}); legal: {legal}"
        )
    env.step(what)


def _check_end(env: Any, record: dict[str, Any]) -> None:
    """Check the replayed game against what the record says about its end."""
    game = env.game
    checks = (
        ("winner", env.winner),
        ("truncated", game.truncated),
        ("events", len(game.events)),
        ("checksum", checksum(game.events)),
    )
    for key, got in checks:
        if key in record and record[key] != got:
            raise RecordError(
                f"record {key!r} is {record[key]!r}, but replaying its moves gives {got!r}"
            )


__all__ = ["FORMAT", "checksum", "load_record", "make_record", "replay"]
