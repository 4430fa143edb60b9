"""The table's web server: a page, a JSON API to create tables, a WebSocket per seat.

Routes:
    GET  /                         the page (host form, or a seat with ?table=&seat=&token=)
    GET  /api/options              variants, bots and languages the host may choose
    POST /api/tables               create a table from a `TableConfig` JSON; returns links
    GET  /api/tables/{id}/record   the finished game's record (?token= of any seat or host)
    WS   /ws/{id}?seat=&token=&lang=   a seat's connection; seat "watch" with the host token

On the socket the server sends ``{"type": "state", ...}`` (see `view.seat_view`) and
``{"type": "error", "message": ...}``; a seat sends ``{"type": "act", "action": <index>}``,
in a speech optionally with ``"say": <table talk, up to 280 characters>``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from mafia_env.errors import MafiaError
from mafia_env.table.core import Table, TableConfig, TableError
from mafia_env.table.view import languages
from mafia_env.variants import VARIANTS

STATIC = Path(__file__).parent / "static"
MAX_TABLES = 200
MAX_MESSAGE = 4096  # bytes; a seat's messages are tiny


def bot_names() -> list[str]:
    """Return the policy names `baselines.load_policy` knows now (a path works too)."""
    import baselines.policy as policy

    names = set(getattr(policy, "_REGISTRY", {})) - {"checkpoint"}
    return sorted(names, key=lambda x: (x != "random", x))


def create_app(
    records_dir: str | Path | None = "artifacts/records",
    defaults: dict[str, Any] | None = None,
    bot_paths: bool = True,
) -> Starlette:
    """Return the Starlette app; finished games are saved under `records_dir`.

    With `bot_paths` False a host may seat only the named bots, not a checkpoint path (a
    checkpoint is code to load: refuse paths on a server others can reach).
    """
    tables: dict[str, Table] = {}
    records = None if records_dir is None else Path(records_dir)
    base = dict(defaults or {})

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def options(request: Request) -> JSONResponse:
        variants = {
            name: {
                "title": r.title,
                "min": r.min_players,
                "max": r.max_players,
                "default": r.default_players,
            }
            for name, r in sorted(VARIANTS.items())
        }
        return JSONResponse(
            {
                "variants": variants,
                "bots": bot_names(),
                "languages": list(languages()),
                "defaults": {
                    "bot_delay": base.get("bot_delay", TableConfig.bot_delay),
                    "turn_timeout": base.get("turn_timeout", TableConfig.turn_timeout),
                },
            }
        )

    async def create(request: Request) -> JSONResponse:
        if len(tables) >= MAX_TABLES:  # forget finished games first (their records stay)
            for key in [k for k, t in tables.items() if t.task is not None and t.task.done()]:
                del tables[key]
        if len(tables) >= MAX_TABLES:
            return JSONResponse({"error": "too many tables on this server"}, status_code=503)
        try:
            data = json.loads(await request.body())
            config = TableConfig.from_json({**base, **data} if isinstance(data, dict) else data)
            if not bot_paths:
                names = bot_names()
                paths = [b for b in [config.default_bot, *config.bots.values()] if b not in names]
                if paths:
                    raise TableError(
                        f"this server seats only the bots {', '.join(names)}; got {paths}"
                    )
            table = Table(config, records_dir=records)
        except json.JSONDecodeError as e:
            return JSONResponse({"error": f"the body is not JSON: {e}"}, status_code=400)
        except (MafiaError, TypeError, ValueError) as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        tables[table.id] = table
        table.start()
        return JSONResponse(table.links())

    async def record(request: Request) -> JSONResponse:
        table = tables.get(request.path_params["table"])
        token = request.query_params.get("token", "")
        if table is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        if not any(_same(token, t) for t in [table.host_token, *table.tokens.values()]):
            return JSONResponse({"error": "wrong token"}, status_code=403)
        if not table.env.unwrapped.game.over:
            return JSONResponse({"error": "the game is not over yet"}, status_code=409)
        return JSONResponse(table.save_record())

    async def seat_socket(ws: WebSocket) -> None:
        await ws.accept()
        table = tables.get(ws.path_params["table"])
        q = ws.query_params
        try:
            if table is None:
                raise TableError("no such table")
            seat = table.seat_of(q.get("seat"), q.get("token"))
            conn = table.connect(seat, ws.send_json, q.get("lang", "en"))
        except TableError as e:
            await ws.send_json({"type": "error", "message": str(e), "fatal": True})
            await ws.close(code=4403)
            return
        try:
            await table.send_state(seat)
            while True:
                text = await ws.receive_text()
                try:
                    handle(table, seat, text)
                except TableError as e:
                    await ws.send_json({"type": "error", "message": str(e)})
                    await table.send_state(seat)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            table.disconnect(seat, conn)

    return Starlette(
        routes=[
            Route("/", index),
            Route("/api/options", options),
            Route("/api/tables", create, methods=["POST"]),
            Route("/api/tables/{table}/record", record),
            WebSocketRoute("/ws/{table}", seat_socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
    )


def handle(table: Table, seat: int | None, text: str) -> None:
    """Carry out one message from a seat; raise TableError saying what was wrong."""
    if len(text) > MAX_MESSAGE:
        raise TableError(f"message too long ({len(text)} characters; at most {MAX_MESSAGE})")
    try:
        msg = json.loads(text)
    except json.JSONDecodeError:
        raise TableError('a message must be JSON: {"type": "act", "action": <number>}') from None
    if not isinstance(msg, dict) or msg.get("type") not in ("act", "ping"):
        raise TableError('unknown message; send {"type": "act", "action": <number>}')
    if msg["type"] == "ping":
        return
    if seat is None:
        raise TableError("a watcher cannot act")
    table.submit(seat, msg.get("action"), msg.get("say"))


def _same(a: str, b: str) -> bool:
    import secrets

    return secrets.compare_digest(a.encode(), b.encode())


__all__ = ["create_app", "handle"]
