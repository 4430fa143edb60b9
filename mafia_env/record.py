"""Game records: the game so far as JSON-ready data, and replay of a record."""

from __future__ import annotations

from typing import Any

from mafia_env.errors import MafiaError, RecordError

FORMAT = 1


def make_record(env: Any) -> dict[str, Any]:
    """Return `env`'s game as a record: variant, knobs, seed, deal and every input."""
    game = env._require_game()
    moves: list[list[Any]] = []
    for seat, act, target, value in game.inputs:
        if act < 0:
            moves.append([seat + 1, "foul"])
        else:
            moves.append([seat + 1, env.layout.encode(act, target, value)])
    return {
        "format": FORMAT,
        "variant": env.rules.name,
        "num_players": env.n,
        "knobs": dict(env.knobs),
        "seed": env.seed,
        "deal": [r.label for r in game.roles],
        "moves": moves,
        "winner": env.winner,
        "truncated": game.truncated,
    }


def replay(record: dict[str, Any], render_mode: str | None = None) -> Any:
    """Play a record back; return the environment in the recorded game's final state.

    A corrupt or mismatched record raises a RecordError that says where and why.
    """
    from mafia_env.aec import MafiaEnv

    if not isinstance(record, dict):
        raise RecordError(f"a record must be a dict; got {type(record).__name__}")
    need = {"format", "variant", "num_players", "knobs", "seed", "deal", "moves"}
    missing = need - set(record)
    if missing:
        raise RecordError(f"record is missing {sorted(missing)}; a record has {sorted(need)}")
    if record["format"] != FORMAT:
        raise RecordError(f"record format {record['format']!r} is not supported (only {FORMAT})")
    if not isinstance(record["knobs"], dict) or not isinstance(record["moves"], list):
        raise RecordError("record 'knobs' must be a dict and 'moves' a list")
    if not isinstance(record["seed"], int):
        raise RecordError(f"record 'seed' must be an integer; got {record['seed']!r}")
    try:
        env = MafiaEnv(
            record["variant"],
            record["num_players"],
            render_mode=render_mode,
            roles=record["deal"],
            **record["knobs"],
        )
    except MafiaError as e:
        raise RecordError(f"record does not describe a valid game: {e}") from None
    env._new_game(record["seed"])
    for i, move in enumerate(record["moves"]):
        if not (isinstance(move, list) and len(move) == 2):
            raise RecordError(f"move {i}: expected [seat, action], got {move!r}")
        seat, what = move
        agent = f"player_{seat}"
        try:
            if what == "foul":
                env.foul(agent)
                continue
            if env.agent_selection != agent or env.game.over:
                raise RecordError(
                    f"move {i}: {agent} moves, but it is {env.agent_selection}'s turn"
                    + (" (the game is over)" if env.game.over else "")
                )
            env.step(what)
        except RecordError:
            raise
        except MafiaError as e:
            raise RecordError(f"move {i} ({move!r}) does not replay: {e}") from None
    if "winner" in record and record["winner"] != env.winner:
        raise RecordError(
            f"the record says winner {record['winner']!r}, but its moves give {env.winner!r}"
        )
    return env
