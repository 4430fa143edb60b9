"""Serve the table: ``python -m mafia_env.table [--host 127.0.0.1] [--port 8000]``."""

from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve the table page until interrupted."""
    p = argparse.ArgumentParser(
        prog="python -m mafia_env.table", description="Serve a Mafia table: people and bots."
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--records", default="artifacts/records", help="folder for finished games")
    p.add_argument("--bot-delay", type=float, default=1.0, help="seconds a bot waits to act")
    p.add_argument(
        "--turn-timeout",
        type=float,
        default=60.0,
        help="seconds a person may take for a turn (0: no limit); then the default action",
    )
    p.add_argument(
        "--no-bot-paths",
        action="store_true",
        help="let hosts seat only named bots, not checkpoint paths (for a server others reach)",
    )
    args = p.parse_args(argv)
    try:
        import uvicorn

        from mafia_env.table.server import create_app
    except ImportError as e:
        raise SystemExit(
            f"the table needs the extra: pip install 'mafia-env[table]' ({e})"
        ) from None
    defaults = {
        "bot_delay": args.bot_delay,
        "turn_timeout": args.turn_timeout or None,
    }
    app = create_app(records_dir=args.records, defaults=defaults, bot_paths=not args.no_bot_paths)
    print(f"Mafia table: open http://{args.host}:{args.port}/ to create a table")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
