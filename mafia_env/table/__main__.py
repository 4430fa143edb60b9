"""Serve the table: ``python -m mafia_env.table [--host 127.0.0.1] [--port 8000]``."""

from __future__ import annotations

import argparse
import os

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
        "--forwarded-allow-ips",
        default=None,
        help="addresses of reverse proxies whose X-Forwarded-For names the client "
        "(default: 127.0.0.1); a client's address counts its tables",
    )
    args = p.parse_args(argv)
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
    defaults = {"bot_delay": args.bot_delay, "turn_timeout": args.turn_timeout or None}
    limits = Limits(args.max_tables, args.tables_per_client, args.join_timeout, args.idle_timeout)
    app = create_app(
        records_dir=args.records, defaults=defaults, db=args.db, bot_dir=args.bot_dir, limits=limits
    )
    print(f"Mafia table: open http://{args.host}:{args.port}/ to create a table", flush=True)
    proxies = (
        {}
        if args.forwarded_allow_ips is None
        else {"forwarded_allow_ips": args.forwarded_allow_ips}
    )
    uvicorn.Server(uvicorn_config(app, args.host, args.port, **proxies)).run()


if __name__ == "__main__":
    main()
