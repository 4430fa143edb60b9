"""Serve the table: ``python -m mafia_env.table [--host 127.0.0.1] [--port 8000]``."""

from __future__ import annotations

import argparse
import logging
import os

from mafia_env.errors import ConfigError
from mafia_env.table.tables import Limits


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve the table page until interrupted."""
    p = argparse.ArgumentParser(
        prog="python -m mafia_env.table", description="Serve a Mafia table: people and bots."
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--records", default="artifacts/records", help="folder for finished games")
    p.add_argument(
        "--db",
        default="artifacts/tables.sqlite3",
        help="SQLite file of the tables: unfinished games are rebuilt from it on start",
    )
    p.add_argument("--bot-delay", type=float, default=1.0, help="seconds a bot waits to act")
    p.add_argument(
        "--turn-timeout",
        type=float,
        default=60.0,
        help="seconds a person may take for a turn (0: no limit); then the default action",
    )
    p.add_argument(
        "--night-turn",
        type=float,
        default=10.0,
        help="seconds every night turn lasts where two or more people are alive, taken or "
        "not, so no person can time another's night (0: a person's night turn lasts as long "
        "as he takes)",
    )
    p.add_argument(
        "--llm",
        action="append",
        default=[],
        metavar="NAME=BASE_URL,MODEL[,KEY_ENV]",
        help="offer a language model behind an OpenAI-compatible server; hosts seat it by "
        "NAME, never by URL or key; its API key is read from the environment variable "
        "KEY_ENV (none: no key is sent). Repeatable",
    )
    p.add_argument(
        "--bot-dir",
        default=None,
        help="a folder of PPO checkpoints (*.pt) hosts may seat by file name; without it "
        "hosts seat only the named bots (a client never gives a path)",
    )
    d = Limits()
    p.add_argument(
        "--max-tables",
        type=int,
        default=d.max_tables,
        help="unfinished tables the server holds at once",
    )
    p.add_argument(
        "--tables-per-client",
        type=int,
        default=d.per_client,
        help="unfinished tables one client address may hold",
    )
    p.add_argument(
        "--join-timeout",
        type=float,
        default=d.join_timeout,
        help="seconds a table waits for its people to sit down, then expires",
    )
    p.add_argument(
        "--idle-timeout",
        type=float,
        default=d.idle_timeout,
        help="seconds a started table may go with no move and nobody connected",
    )
    p.add_argument(
        "--creates-per-client",
        type=int,
        default=d.creates_per_window,
        help=f"tables one client address may make in {d.create_window:g} seconds (bots-only "
        "ones too)",
    )
    p.add_argument(
        "--max-watchers",
        type=int,
        default=d.max_watchers,
        help="connections of the host's view one table takes (0: any number)",
    )
    p.add_argument(
        "--keep-records",
        type=int,
        default=d.keep_records,
        help="finished and expired tables kept, in the database and as record files; the "
        "oldest go first (0: all)",
    )
    p.add_argument(
        "--keep-days",
        type=float,
        default=d.keep_days,
        help="days a finished or expired table is kept (0: no limit)",
    )
    p.add_argument(
        "--forwarded-allow-ips",
        default=None,
        help="addresses of reverse proxies whose X-Forwarded-For names the client "
        "(default: 127.0.0.1); a client's address counts its tables",
    )
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    # a bot's network is small: one thread a call is the fastest (more spin against each
    # other and the server), and bots already think side by side in a pool of threads
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    try:
        import uvicorn

        from mafia_env.table.server import create_app, uvicorn_config
    except ImportError as e:
        raise SystemExit(
            f"the table needs the extra: pip install 'mafia-env[table]' ({e})"
        ) from None
    from mafia_env.table.bots import parse_llm

    defaults = {
        "bot_delay": args.bot_delay,
        "turn_timeout": args.turn_timeout or None,
        "night_turn": args.night_turn or None,
    }
    limits = Limits(
        max_tables=args.max_tables,
        per_client=args.tables_per_client,
        join_timeout=args.join_timeout,
        idle_timeout=args.idle_timeout,
        creates_per_window=args.creates_per_client,
        keep_records=args.keep_records or None,
        keep_days=args.keep_days or None,
        max_watchers=args.max_watchers or None,
    )
    try:
        llms = [parse_llm(x) for x in args.llm]
        app = create_app(
            records_dir=args.records,
            defaults=defaults,
            db=args.db,
            bot_dir=args.bot_dir,
            limits=limits,
            llms=llms,
        )
    except ConfigError as e:
        raise SystemExit(f"python -m mafia_env.table: {e}") from None
    print(f"Mafia table: open http://{args.host}:{args.port}/ to create a table", flush=True)
    proxies = (
        {}
        if args.forwarded_allow_ips is None
        else {"forwarded_allow_ips": args.forwarded_allow_ips}
    )
    uvicorn.Server(uvicorn_config(app, args.host, args.port, **proxies)).run()


if __name__ == "__main__":
    main()
