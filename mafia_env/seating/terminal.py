"""Play one seat in the terminal against bots: ``mafia play --seat 3`` (or ``python -m
mafia_env.seating.terminal``).

The moderator's narration for your seat is printed as the game goes; on your turn the legal
actions are a numbered list and you type a number (input can be piped, for tests and
scripts). If the input ends, your remaining turns take the rule's default action, as a turn
that runs out of time does at the table.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

import mafia_env
from mafia_env.commands import parse, parser
from mafia_env.errors import MafiaError
from mafia_env.seating.games import Seating, default_action, play_until
from mafia_env.seating.policies import policy_names
from mafia_env.table.view import languages, narration, seat_view


def choices(view: dict) -> list[tuple[int, str, str]]:
    """Return the legal actions of a seat view as (index, group title, sentence), in order."""
    return [(a["id"], g["title"], a["text"]) for g in view["actions"] for a in g["actions"]]


def status(view: dict) -> str:
    """Return the table as one line per seat: alive or out, fouls, the roles you know."""
    lines = [f"-- Day {view['day']}, {view['phase'].replace('_', ' ')} --"]
    for s in view["seats"]:
        bits = [f"{s['seat']:>2}", "alive" if s["alive"] else "out  "]
        if s["role"]:
            bits.append(s["role"])
        if s["fouls"]:
            bits.append(f"{s['fouls']} foul(s)")
        if s["nominated"]:
            bits.append("nominated")
        if s["seat"] == view["you"]:
            bits.append("<- you")
        lines.append("  " + "  ".join(bits))
    return "\n".join(lines)


def ask(view: dict, inp: TextIO, out: TextIO) -> int | None:
    """Print the numbered legal actions and read a choice; None when the input has ended."""
    options = choices(view)
    out.write(status(view) + "\nYour turn. What do you do?\n")
    last = None
    for i, (_, title, text) in enumerate(options, 1):
        if title and title != last:
            out.write(f"  {title}:\n")
            last = title
        out.write(f"  {i:>3}. {text}\n")
    while True:
        out.write(f"Choose 1..{len(options)}: ")
        out.flush()
        line = inp.readline()
        if not line:
            out.write("\n")
            return None
        try:
            k = int(line.strip())
        except ValueError:
            out.write(f"Please type a number from 1 to {len(options)}.\n")
            continue
        if 1 <= k <= len(options):
            return options[k - 1][0]
        out.write(f"There is no choice {k}; type a number from 1 to {len(options)}.\n")


def play(
    variant: str = "sport",
    seat: int = 1,
    bots: str = "random",
    seed: int | None = None,
    num_players: int | None = None,
    lang: str = "en",
    inp: TextIO | None = None,
    out: TextIO | None = None,
    **knobs: Any,
) -> dict:
    """Play a game with a person in `seat` (1-based) and bots elsewhere; return its record.

    `knobs` override the variant's rules (``roles=[...]`` deals the roles by seat); `inp` and
    `out` default to the standard input and output of the time of the call.
    """
    inp = sys.stdin if inp is None else inp
    out = sys.stdout if out is None else out
    env = mafia_env.env(variant, num_players, **knobs)
    if not 1 <= seat <= env.n:
        raise MafiaError(f"seat must be 1..{env.n} for {variant} with {env.n} players; got {seat}")
    if lang not in languages():
        raise MafiaError(f"language {lang!r} is not offered; languages: {', '.join(languages())}")
    env.reset(seed=seed)
    me = seat - 1
    seating = Seating.load(
        bots, {seat: None}, variant=variant, num_players=env.n, seed=0 if seed is None else seed
    )
    out.write(
        f"{variant} rules, {env.n} players: you are player {seat}; the {bots} bots play the "
        f"other {env.n - 1} seats.\n"
    )
    players = seating.players(env.unwrapped.game)
    said = 0

    def tell(env: Any) -> None:
        """Print what the moderator has told this seat since the last time."""
        nonlocal said
        lines = narration(env.unwrapped.game.events, me, lang)
        for line in lines[said:]:
            out.write(line + "\n")
        said = len(lines)

    gone_quiet = False
    while play_until(env, players, watch=tell) == me:  # told up to now: your turn
        index = None if gone_quiet else ask(seat_view(env, me, lang), inp, out)
        if index is None:
            if not gone_quiet:
                out.write("The input has ended: your turns take the default action.\n")
            gone_quiet = True
            index = default_action(env)
        env.step(int(index))
    tell(env)
    view = seat_view(env, me, lang)
    out.write(status(view) + "\n")
    return env.record()


def bot_names() -> list[str]:
    """Return the policies a bot seat may name without options (``llm`` needs a model)."""
    return [n for n in policy_names() if n not in ("checkpoint", "llm")]


def record_refused(path: Path | None, force: bool) -> str | None:
    """Return why the game cannot be saved at `path` (None: it can)."""
    if path is None:
        return None
    if path.is_dir():
        return f"--record {path} is a folder: name a file, such as {path / 'game.json'}"
    if not path.parent.is_dir():
        return f"--record {path}: the folder {path.parent} does not exist"
    if path.exists() and not force:
        return f"{path} exists (an earlier game): give another --record, or --force to overwrite it"
    return None


def main(argv: list[str] | None = None, prog: str = "python -m mafia_env.seating.terminal") -> int:
    """Parse the command line and play one game; return the exit status."""
    p = parser(prog, "Play a seat of Mafia against bots, in the terminal.")
    p.add_argument(
        "--variant", default="sport", choices=sorted(mafia_env.VARIANTS), help="the rule set"
    )
    p.add_argument("--seat", type=int, default=1, help="your seat number (1-based)")
    p.add_argument("--players", type=int, default=None, help="table size (variant default)")
    p.add_argument(
        "--bots",
        default="rule",
        metavar="POLICY",
        help=f"the bots in the other seats: {', '.join(bot_names())}, or a checkpoint path",
    )
    p.add_argument("--seed", type=int, default=None, help="the deal's seed (none: a random one)")
    p.add_argument("--lang", default="en", choices=languages(), help="narration language")
    p.add_argument("--record", type=Path, default=None, help="save the finished game here")
    p.add_argument("--force", action="store_true", help="let --record overwrite an earlier file")
    args = parse(p, argv)
    if isinstance(args, int):
        return args
    refused = record_refused(args.record, args.force)
    if refused:  # before the game: a player never plays one that cannot be saved
        print(f"error: {refused}", file=sys.stderr)
        return 2
    try:
        record = play(args.variant, args.seat, args.bots, args.seed, args.players, args.lang)
    except MafiaError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nleft the table", file=sys.stderr)
        return 130
    if args.record is not None:
        args.record.write_text(json.dumps(record, indent=1), encoding="utf-8")
        print(f"The game is saved as {args.record}.")
    return 0


if __name__ == "__main__":
    from mafia_env.commands import run

    sys.exit(run(main, what="mafia play"))
