"""The table's web server: a page, a JSON API to create tables, a WebSocket per seat.

Routes:
    GET  /                         the page (host form, or a seat with ?table=&seat=&token=)
    GET  /api/options              variants, bots and languages the host may choose
    GET  /api/words?lang=          the page's words in a language
    POST /api/tables               create a table from a `TableConfig` JSON; returns links
    GET  /api/tables/{id}/record   the finished game's record (?token= of any seat or host)
    WS   /ws/{id}?seat=&token=&lang=   a seat's connection; seat "watch" with the host token

On the socket the server sends ``{"type": "state", ...}`` (see `view.seat_view`; the
moderator's lines go as ``log``, the ones from index ``log_from`` on: everything on the first
message of a connection, then only what is new) and ``{"type": "error", "message": ...}``
(``"fatal": true`` with a ``code`` when the server closes the socket after it). A seat sends
``{"type": "act", "action": <index>}`` (in a speech optionally with ``"say": <table talk,
up to 280 characters>``) as a text frame of at most `MAX_MESSAGE` characters.
Anything a client sends is checked; what goes wrong inside is logged, never sent to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from mafia_env.errors import MafiaError
from mafia_env.table.bots import BotShelf
from mafia_env.table.config import TableConfig, parse_body
from mafia_env.table.core import Table
from mafia_env.table.seats import Close, TableError, seat_for, token_hash
from mafia_env.table.store import EXPIRED, OPEN, OVER, Row, Store
from mafia_env.table.tables import LimitError, Limits, Tables
from mafia_env.table.view import languages, page_words
from mafia_env.variants import VARIANTS

log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096  # characters of a seat's message; they are tiny
MAX_FRAME = 65_536  # bytes of a WebSocket frame; the server closes on a bigger one (1009)


def create_app(
    records_dir: str | Path | None = "artifacts/records",
    defaults: dict[str, Any] | None = None,
    db: str | Path = ":memory:",
    bot_dir: str | Path | None = None,
    limits: Limits | None = None,
) -> Starlette:
    """Return the Starlette app; finished games are saved under `records_dir`.

    Tables live in the SQLite file `db` (":memory:": for this process only); on start the
    app rebuilds every unfinished table found there. Bots are the registered policies and,
    with `bot_dir`, the checkpoint files in that folder: a client never names a path.
    """
    records = None if records_dir is None else Path(records_dir)
    tables = Tables(Store(db), BotShelf(bot_dir), records, limits or Limits())
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
                "bots": tables.shelf.names(),
                "languages": list(languages()),
                "defaults": {
                    "bot": tables.shelf.default_name(base.get("default_bot")),
                    "bot_delay": base.get("bot_delay", TableConfig.bot_delay),
                    "turn_timeout": base.get("turn_timeout", TableConfig.turn_timeout),
                },
            }
        )

    async def words(request: Request) -> JSONResponse:
        lang = request.query_params.get("lang", "en")
        if lang not in languages():
            return JSONResponse(
                {"error": f"languages: {', '.join(languages())}", "words": page_words("en")},
                status_code=404,
            )
        return JSONResponse(page_words(lang))

    async def create(request: Request) -> JSONResponse:
        try:
            data = parse_body(await _body(request))
            config = TableConfig.from_json({**base, **data} if isinstance(data, dict) else data)
            owner = request.client.host if request.client else "unknown"
            table = await tables.create(config, owner)
        except LimitError as e:
            return JSONResponse({"error": str(e)}, status_code=e.status)
        except (MafiaError, TypeError, ValueError) as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        return JSONResponse(table.links())

    async def record(request: Request) -> JSONResponse:
        found = tables.find(request.path_params["table"])
        token = request.query_params.get("token", "")
        if found is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        hashes = _hashes(found)
        if not any(secrets.compare_digest(token_hash(token), h) for h in hashes):
            return JSONResponse({"error": "wrong token"}, status_code=403)
        if isinstance(found, Table) or found.state == OPEN:
            return JSONResponse({"error": "the game is not over yet"}, status_code=409)
        if found.state != OVER:
            return JSONResponse({"error": "the table expired before its game ended"}, 410)
        return JSONResponse(found.record)

    async def seat_socket(ws: WebSocket) -> None:
        await ws.accept()
        try:
            await serve_seat(ws, tables)
        except (WebSocketDisconnect, asyncio.CancelledError):
            pass
        except Exception:  # a fault of ours: logged here, the client is told no more
            log.exception("table connection failed")
            with contextlib.suppress(Exception):
                await ws.close(code=1011, reason="server error")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        restored = await tables.restore()
        if restored:
            log.warning("rebuilt %d unfinished tables from %s", restored, db)
        sweeper = asyncio.get_running_loop().create_task(tables.sweep_forever())
        try:
            yield
        finally:
            sweeper.cancel()
            await tables.close()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/api/options", options),
            Route("/api/words", words),
            Route("/api/tables", create, methods=["POST"]),
            Route("/api/tables/{table}/record", record),
            WebSocketRoute("/ws/{table}", seat_socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.tables = tables
    return app


async def serve_seat(ws: WebSocket, tables: Tables) -> None:
    """Open the seat a connection asks for, send it the state, carry out what it sends."""
    q = ws.query_params
    try:
        where = ws.path_params["table"]
        table, seat, live = open_seat(tables, where, q.get("seat"), q.get("token"))
        was_started = table.started
        conn = table.connect(seat, ws.send_json, q.get("lang", "en"), ws.close)
    except TableError as e:
        await refuse(ws, str(e), e.close)
        return
    try:
        if was_started or not table.started:  # else the game begins: everyone is told
            await table.send_to(seat, conn)
        if not live:  # a finished game: its end was all there is to show
            await ws.close(code=1000, reason="the game is over")
            return
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                return
            if msg.get("text") is None:
                await refuse(ws, "send JSON text frames, not binary ones", Close.UNSUPPORTED)
                return
            try:
                handle(table, seat, msg["text"])
            except TableError as e:
                await ws.send_json({"type": "error", "message": str(e)})
                await table.send_to(seat, conn)
    finally:
        table.disconnect(seat, conn)


def open_seat(
    tables: Tables, table_id: str, seat: Any, token: Any
) -> tuple[Table, int | None, bool]:
    """Return the table, the seat a link opens and whether the game is live; else TableError."""
    found = tables.find(table_id)
    if found is None:
        raise TableError("no such table", Close.NO_TABLE)
    if isinstance(found, Table):
        return found, found.seat_of(seat, token), True
    if found.state == EXPIRED:
        raise TableError("this table expired: nobody played it for too long", Close.EXPIRED)
    # the key first: a finished game is rebuilt (replayed) only for one of its own links
    n = found.record["num_players"]
    opened = seat_for(seat, token, found.seat_hashes, found.host_hash, n)
    return tables.finished(found), opened, False


async def refuse(ws: WebSocket, message: str, close: int) -> None:
    """Tell the client why its connection ends, then close it with that code and reason."""
    await ws.send_json({"type": "error", "message": message, "fatal": True})
    await ws.close(code=close, reason=message.encode()[:120].decode("utf-8", "ignore"))


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


async def _body(request: Request) -> bytes:
    """Return a request's body, reading no more than a table config may hold."""
    from mafia_env.table.config import MAX_BODY

    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise MafiaError(f"the request is over {MAX_BODY} bytes; a table config is smaller")
        chunks.append(chunk)
    return b"".join(chunks)


def _hashes(found: Table | Row) -> list[str]:
    if isinstance(found, Table):
        return [found.host_hash, *found.token_hashes.values()]
    return [found.host_hash, *found.seat_hashes.values()]


def uvicorn_config(app: Starlette, host: str = "127.0.0.1", port: int = 8000, **kw: Any):
    """Return the uvicorn settings the table is served with (frames capped at MAX_FRAME)."""
    import uvicorn

    return uvicorn.Config(
        app, host=host, port=port, ws_max_size=MAX_FRAME, log_level="warning", **kw
    )


__all__ = ["MAX_FRAME", "MAX_MESSAGE", "create_app", "handle", "uvicorn_config"]
