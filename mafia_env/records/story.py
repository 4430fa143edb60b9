"""A record's story, as the moderator told it, and the command line that prints it.

    mafia replay game.json [--as player_3] [--lang ru]     (python -m mafia_env.records)

prints the game's narration: what the whole table heard, or with ``--as`` what one player
heard (the public events and that player's own private ones), or with ``--all`` every event
as the moderator saw it. ``-`` reads the record from standard input. A bad record is reported
with where and why, and exit status 2. ``mafia play --record game.json`` writes a record,
as does ``env.unwrapped.record()`` saved with `json.dump`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mafia_env.commands import parse, parser
from mafia_env.errors import MafiaError
from mafia_env.lang import LANGS
from mafia_env.narrate import ALL, narrate
from mafia_env.records.format import load_record
from mafia_env.records.playback import replay as replay_record


def story(record: Any, seat: str | None = None, lang: str = "en") -> list[str]:
    """Return a record's narration: public (seat None), one agent's ("player_3"), or "all"."""
    env = replay_record(record)
    if seat is None:
        listener = None
    elif seat == "all":
        listener = ALL
    else:
        listener = env._seat_of(seat)
    return narrate(env.game.events, listener, lang, env.game.talk)


def main(argv: list[str] | None = None, prog: str = "python -m mafia_env.records") -> int:
    """Run the command line; return the exit status."""
    p = parser(
        prog,
        "Print the narration of a game record (mafia play --record FILE writes one, as does "
        "json.dump(env.unwrapped.record(), file)).",
    )
    p.add_argument("record", help="a record's JSON file (as env.record() returns), or -")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--as", dest="agent", metavar="player_N", help="one player's view")
    who.add_argument("--all", action="store_true", help="every event, as the moderator saw it")
    p.add_argument("--lang", default="en", choices=LANGS, help="language")
    args = parse(p, argv)
    if isinstance(args, int):
        return args
    try:
        if args.record == "-":
            record = load_record(sys.stdin.read())
        else:
            record = load_record(Path(args.record))
        lines = story(record, "all" if args.all else args.agent, args.lang)
    except MafiaError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        print("\n".join(lines))
        sys.stdout.flush()
    except BrokenPipeError:  # the reader (head, less) stopped early: not an error
        sys.stdout = None
    return 0


__all__ = ["main", "story"]
