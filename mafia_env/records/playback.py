"""Play a record back: ``mafia_env.replay(record)``.

`replay` builds the recorded table, plays every move back, checks each one and the game's end
against the record, and returns the environment in the recorded game's final state. Every
problem is a `RecordError` that says where (the key, or the index of the move) and why.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mafia_env.engine.game import Game
from mafia_env.errors import MafiaError, RecordError
from mafia_env.records.earlier import format_events, record_knobs, recorded_rules
from mafia_env.records.format import (
    FOUL,
    ILLEGAL,
    REMOVE,
    SAY,
    check_shape,
    checksum,
    is_int,
    load_record,
)
from mafia_env.variants import VARIANTS


def _build(record: dict[str, Any], **options: Any) -> Any:
    """Return a fresh environment at the start of the recorded game, after checking the deal."""
    from mafia_env.aec import MafiaEnv  # here, not above: the env imports this package

    name = record["variant"]
    if name not in VARIANTS:
        raise RecordError(
            f"record 'variant': unknown variant {name!r}; variants are: {', '.join(VARIANTS)}"
        )
    if "roles" in record["knobs"]:
        raise RecordError("record 'knobs' must not hold 'roles': the deal is under 'deal'")
    knobs = record_knobs(record)  # an earlier format's under the rules of its time
    try:
        env = MafiaEnv(name, record["num_players"], roles=record["deal"], **options, **knobs)
    except MafiaError as e:
        raise RecordError(f"record does not describe a game of {name!r}: {e}") from None
    if "illegal_action" not in record["knobs"]:
        env.knobs.pop("illegal_action", None)  # the replay's own record says it under "rules"
    now = recorded_rules(record, env.rules.knob_values())  # knobs added since: set above
    if "rules" in record and record["rules"] != now:
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


def replay(
    record: dict[str, Any] | str | bytes,
    render_mode: str | None = None,
    watch: Callable[[Any], None] | None = None,
    **options: Any,
):
    """Play a record back; return the environment in the recorded game's final state.

    `record` is a record dict or its JSON text. `options` are `obs_mode` and `lang` for the
    returned environment. `watch(env)`, if given, is called before the first move and after
    each move (a replay page marks where each move ends). A corrupt or mismatched record
    raises a RecordError that says where and why.
    """
    if isinstance(record, str | bytes):
        record = load_record(record)
    check_shape(record)
    env = _build(record, render_mode=render_mode, **options)
    env._new_game(record["seed"])
    if watch is not None:
        watch(env)
    for i, move in enumerate(record["moves"]):
        _replay_move(env, i, move)
        if watch is not None:
            watch(env)
    _check_end(env, record)
    return env


def _replay_move(env: Any, i: int, move: Any) -> None:
    """Play move `i` of a record, or raise a RecordError saying why it cannot be played."""
    game = env.game
    where = f"record 'moves'[{i}]"
    talk = isinstance(move, list) and len(move) == 3 and move[1] == SAY
    if not (isinstance(move, list) and (len(move) == 2 or talk) and is_int(move[0])):
        raise RecordError(
            f"{where}: a move is [seat, action] or [seat, {SAY!r}, text] with seat "
            f"1..{env.n}; got {move!r}"
        )
    seat, what = move[:2]
    if not 1 <= seat <= env.n:
        raise RecordError(f"{where}: seat {seat} is not at the table (seats 1..{env.n})")
    agent = f"player_{seat}"
    if what == FOUL:
        if game.over:
            raise RecordError(f"{where}: a foul for {agent} after the game ended")
        env.foul(agent)
        return
    if what == REMOVE:
        if game.over or not game.alive[seat - 1]:
            raise RecordError(f"{where}: {agent} cannot be removed: not in the game")
        env.remove(agent)
        return
    if game.over:
        raise RecordError(f"{where}: {agent} moves {what!r}, but the game is already over")
    if env.agent_selection != agent:
        raise RecordError(
            f"{where}: {agent} moves, but it is {env.agent_selection}'s turn ({env.phase})"
        )
    if talk:
        try:
            env.say(agent, move[2])
        except MafiaError as e:
            raise RecordError(f"{where}: {e}") from None
        return
    if what == ILLEGAL:
        if env.illegal_action != "terminate":
            raise RecordError(
                f"{where}: an illegal action stops the game only with the knob "
                f"illegal_action='terminate'; this game has {env.illegal_action!r}"
            )
        env.step(env.layout.size)  # outside the action space: the knob stops the game
        return
    size = env.layout.size
    if not (is_int(what) and 0 <= what < size):
        raise RecordError(
            f"{where}: the action must be an index 0..{size - 1}, {FOUL!r}, {REMOVE!r} or "
            f"{ILLEGAL!r}; "
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
    fmt = record["format"]
    checks = (
        ("winner", env.winner),
        ("truncated", game.truncated),
        ("events", len(format_events(game.events, fmt))),
        ("checksum", checksum(game.events, fmt, game.talk)),
    )
    for key, got in checks:
        if key in record and record[key] != got:
            raise RecordError(
                f"record {key!r} is {record[key]!r}, but replaying its moves gives {got!r}"
            )


__all__ = ["replay"]
