"""The ``mafia`` command: every program of the package under one name.

    mafia play --bots rule                              # a seat at a table of bots
    mafia replay game.json                              # the story of a recorded game
    mafia train --config configs/ppo/sport.yaml         # PPO, then an evaluation
    mafia benchmark --policy rule --task sport-10       # a policy on a benchmark task
    mafia <command> --help                              # its options, defaults, choices

Each command is also ``python -m <module>`` (the table below; ``python -m baselines`` is
``mafia``). A command that needs an extra the install lacks says which in one line.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass

from mafia_env.commands import run
from mafia_env.errors import MissingExtraError, missing_extra


@dataclass(frozen=True)
class Command:
    """A program of the package: its module (whose ``main(argv, prog)`` runs it)."""

    module: str
    summary: str
    extra: str | None = None  # the extra it needs beyond the core install (None: none)
    runs_as: str | None = None  # its ``python -m`` name where not `module`

    @property
    def python_m(self) -> str:
        return self.runs_as or self.module


COMMANDS: dict[str, Command] = {
    "play": Command("mafia_env.seating.terminal", "play a seat against bots in the terminal"),
    "replay": Command(
        "mafia_env.records.story",
        "print a recorded game's story (mafia play --record)",
        runs_as="mafia_env.records",
    ),
    "table": Command(
        "mafia_env.table.__main__",
        "serve the web table: people and bots",
        "table",
        runs_as="mafia_env.table",
    ),
    "train": Command("baselines.train", "train PPO (or a league) from a YAML config", "train"),
    "evaluate": Command(
        "baselines.evaluate.command",
        "win rates per matchup, and ratings",
        "train",
        runs_as="baselines.evaluate",
    ),
    "ratings": Command("baselines.ratings", "only the ratings section of an evaluation", "train"),
    "benchmark": Command("baselines.benchmark", "score a policy on the benchmark's tasks", "train"),
    "exploit": Command("baselines.exploit", "exploitability: a best response's win rate", "train"),
    "robust": Command(
        "baselines.robust", "every style of play, paired with the rule bots on the same deals"
    ),
    "arena": Command("baselines.arena", "language models, bots and checkpoints rated", "llm"),
    "model": Command("baselines.scripted_model", "serve the arena's scripted stand-in model"),
    "rllib": Command(
        "baselines.rllib.rllib_train", "train with Ray RLlib's multi-agent PPO", "rllib"
    ),
}


def usage() -> str:
    """Return the top-level help: every command, its module and the extra it needs."""
    width = max(map(len, COMMANDS))
    lines = [
        "usage: mafia <command> [options]    (mafia <command> --help: its options)",
        "",
        "The social deduction game Mafia: play it, replay it, train and score agents.",
        "",
        "commands ((extra: X): install it beyond the core package for the networks, ratings",
        "or servers the command uses: pip install 'mafia-env[X]'):",
    ]
    for name, c in COMMANDS.items():
        extra = f"  (extra: {c.extra})" if c.extra else ""
        lines.append(f"  {name:<{width}}  {c.summary}{extra}")
    lines += ["", "Each is also `python -m MODULE` (`python -m baselines` is `mafia`):"]
    lines += [f"  {name:<{width}}  python -m {c.python_m}" for name, c in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run ``mafia <command> ...``; return the exit status."""
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    if args[0] in ("-V", "--version"):
        import mafia_env

        print(f"mafia-env {mafia_env.__version__}")
        return 0
    name, rest = args[0], args[1:]
    command = COMMANDS.get(name)
    if command is None:
        import difflib

        near = difflib.get_close_matches(name, COMMANDS, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        print(
            f"mafia: no command {name!r}{hint} (commands: {', '.join(COMMANDS)})", file=sys.stderr
        )
        return 2
    what = f"mafia {name}"
    try:
        module = importlib.import_module(command.module)
    except ImportError as e:
        found = missing_extra(e, what)
        if not isinstance(found, MissingExtraError):
            raise
        print(f"error: {found}", file=sys.stderr)
        return 2
    if name == "table":  # the table's own entry point, as `python -m mafia_env.table`
        return run(module.main, rest, what=what)
    return run(module.main, rest, what, what=what)


if __name__ == "__main__":
    sys.exit(main())
