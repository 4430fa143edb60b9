"""The table's web server: a page, a JSON API to create tables, a WebSocket per seat.

Routes:
    GET  /                         the page (host form, or a seat with ?table=&seat=&token=)
    GET  /api/options              variants, bots, models and languages the host may choose
    GET  /api/words?lang=          the page's words in a language
    POST /api/tables?lang=         create a table from a `TableConfig` JSON; returns links
                                   (in the host's language `lang`, if given)
    GET  /api/tables/{id}/record   the finished game's record (?token= of any seat or host;
                                   &download=1: as a file to save)
    WS   /ws/{id}?seat=&token=&lang=   a seat's connection; seat "watch" with the host token

On the socket the server sends ``{"type": "state", ...}`` (see `view.seat_view`; the
moderator's lines go as ``log``, the ones from index ``log_from`` on: everything on the first
message of a connection, then only what is new) and ``{"type": "error", "message": ...}``
(``"fatal": true`` with a ``code`` when the server closes the socket after it). A seat sends
``{"type": "act", "action": <index>}`` (in a speech optionally with ``"say": <table talk,
up to 280 characters>``), or in a speech ``{"type": "say", "say": <a remark>}`` (a remark
without a move: everyone hears it at once); the host's view (the moderator) sends ``{"type":
"foul", "seat": <1..n>}`` or ``{"type": "remove", "seat": <1..n>}`` (`Table.call`). Each is a
text frame of at most `MAX_MESSAGE` characters, nested `MAX_DEPTH` deep at most. Anything a
client sends is checked, and answered in the connection's language (`words`); what goes
wrong inside is logged, never sent to it. Every answer carries the security headers
(`SECURITY_HEADERS`); an upgrade to a WebSocket whose request line or a header is too long
for the socket's parser is answered at once (`TableHTTP`), not left to hang.
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
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from mafia_env.errors import MafiaError
from mafia_env.table.bots import _POOL, BotShelf, LLMEndpoint
from mafia_env.table.core import CALLS, Table
from mafia_env.table.database import EXPIRED, OPEN, OVER, Row, Store
from mafia_env.table.seats import Close, TableError, seat_for, token_hash
from mafia_env.table.settings import MAX_DEPTH, HostError, TableConfig, json_depth, parse_body
from mafia_env.table.tables import LimitError, Limits, Tables
from mafia_env.table.view import languages, page_words
from mafia_env.table.words import message
from mafia_env.variants import VARIANTS, table_knobs

log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096  # characters of a seat's message; they are tiny
MAX_FRAME = 65_536  # bytes of a WebSocket frame; the server closes on a bigger one (1009)
MAX_LINE = 8000  # bytes of an upgrade's request line or header (the socket's parser: 8192)
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # a seat's link holds its key
]


class SecurityHeaders:
    """ASGI middleware: every HTTP answer carries `SECURITY_HEADERS`."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(msg: Any) -> None:
            if msg["type"] == "http.response.start":
                known = {k.lower() for k, _ in msg.get("headers", [])}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in known]
                msg = {**msg, "headers": [*msg.get("headers", []), *extra]}
            await send(msg)

        await self.app(scope, receive, sending)


def create_app(
    records_dir: str | Path | None = "artifacts/records",
    defaults: dict[str, Any] | None = None,
    db: str | Path = ":memory:",
    bot_dir: str | Path | None = None,
    limits: Limits | None = None,
    llms: list[LLMEndpoint] | tuple[LLMEndpoint, ...] = (),
) -> Starlette:
    """Return the Starlette app; finished games are saved under `records_dir`.

    Tables live in the SQLite file `db` (":memory:": for this process only); on start the
    app rebuilds every unfinished table found there. Bots are the registered policies, the
    operator's language models `llms` (by name) and, with `bot_dir`, the checkpoint files in
    that folder: a client never names a path, a URL or a key.
    """
    records = None if records_dir is None else Path(records_dir)
    tables = Tables(Store(db), BotShelf(bot_dir, llms), records, limits or Limits())
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
                "overrun_foul": table_knobs(name).overrun_foul,
            }
            for name, r in sorted(VARIANTS.items())
        }
        loop = asyncio.get_running_loop()  # a new file in the bot folder is read first
        bots = await loop.run_in_executor(_POOL, tables.shelf.names)
        return JSONResponse(
            {
                "variants": variants,
                "bots": bots,
                "models": tables.shelf.models(),
                "languages": list(languages()),
                "defaults": {
                    "bot": tables.shelf.default_name(base.get("default_bot")),
                    "bot_delay": base.get("bot_delay", TableConfig.bot_delay),
                    "turn_timeout": base.get("turn_timeout", TableConfig.turn_timeout),
                    "night_turn": base.get("night_turn", TableConfig.night_turn),
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
        lang = request.query_params.get("lang")
        if lang is not None and lang not in languages():
            error = message("bad_lang", "en", lang=lang[:20], langs=", ".join(languages()))
            return JSONResponse({"error": error}, status_code=400)
        say = lang or "en"
        try:
            data = parse_body(await _body(request))
            if isinstance(data, dict):  # the table talks in its host's language
                data = {**base, **({"lang": lang} if lang else {}), **data}
            config = TableConfig.from_json(data)
            owner = request.client.host if request.client else "unknown"
            table = await tables.create(config, owner)
        except LimitError as e:
            return JSONResponse({"error": e.text(say)}, status_code=e.status)
        except TableError as e:
            return JSONResponse({"error": e.text(say)}, status_code=400)
        except HostError as e:  # what the host chose, in his language
            return JSONResponse({"error": message("not_made", say, why=e.text(say))}, 400)
        except (MafiaError, TypeError, ValueError) as e:
            return JSONResponse({"error": message("not_made", say, why=e)}, status_code=400)
        return JSONResponse(table.links(lang=lang))

    async def record(request: Request) -> JSONResponse:
        found = tables.find(request.path_params["table"])
        token = request.query_params.get("token", "")
        lang = request.query_params.get("lang", "en")

        def error(key: str, status: int) -> JSONResponse:
            return JSONResponse({"error": message(key, lang)}, status_code=status)

        if found is None:
            return error("no_table", 404)
        hashes = _hashes(found)
        if not any(secrets.compare_digest(token_hash(token), h) for h in hashes):
            return error("wrong_key", 403)
        if isinstance(found, Table):  # over, its row not written yet; else still in play
            if not found.over:
                return error("not_over", 409)
            data = found.record()
        elif found.state == OPEN:
            return error("not_over", 409)
        elif found.state != OVER:
            return error("expired_early", 410)
        else:
            data = found.record
        headers = {}
        if request.query_params.get("download"):  # saved as a file, not shown
            name = f"table-{request.path_params['table']}.json"
            headers["content-disposition"] = f'attachment; filename="{name}"'
        return JSONResponse(data, headers=headers)

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
        middleware=[Middleware(SecurityHeaders)],
        lifespan=lifespan,
    )
    app.state.tables = tables
    return app


async def serve_seat(ws: WebSocket, tables: Tables) -> None:
    """Open the seat a connection asks for, send it the state, carry out what it sends."""
    q = ws.query_params
    lang = q.get("lang", "en")
    say = lang if lang in languages() else "en"  # the language of its errors
    try:
        where = ws.path_params["table"]
        table, seat, live = open_seat(tables, where, q.get("seat"), q.get("token"))
        was_started = table.started
        conn = table.connect(seat, ws.send_json, lang, ws.close)
    except TableError as e:
        await refuse(ws, e, say)
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
                await refuse(ws, TableError("binary", Close.UNSUPPORTED), say)
                return
            try:
                handle(table, seat, msg["text"])
            except TableError as e:
                await ws.send_json({"type": "error", "message": e.text(say)})
                await table.send_to(seat, conn)
    finally:
        table.disconnect(seat, conn)


def open_seat(
    tables: Tables, table_id: str, seat: Any, token: Any
) -> tuple[Table, int | None, bool]:
    """Return the table, the seat a link opens and whether the game is live; else TableError."""
    found = tables.find(table_id)
    if found is None:
        raise TableError("no_table", Close.NO_TABLE)
    if isinstance(found, Table):
        return found, found.seat_of(seat, token), True
    if found.state == EXPIRED:
        raise TableError("expired", Close.EXPIRED)
    # the key first: a finished game is rebuilt (replayed) only for one of its own links
    n = found.record["num_players"]
    opened = seat_for(seat, token, found.seat_hashes, found.host_hash, n)
    return tables.finished(found), opened, False


async def refuse(ws: WebSocket, error: TableError, lang: str = "en") -> None:
    """Tell the client why its connection ends (in `lang`), then close it with the error's
    code and reason."""
    text = error.text(lang)
    await ws.send_json({"type": "error", "message": text, "fatal": True})
    await ws.close(code=error.close, reason=text.encode()[:120].decode("utf-8", "ignore"))


def handle(table: Table, seat: int | None, text: str) -> None:
    """Carry out one message from a seat; raise TableError saying what was wrong."""
    if len(text) > MAX_MESSAGE:
        raise TableError("too_long", got=len(text), most=MAX_MESSAGE)
    if json_depth(text) > MAX_DEPTH:
        raise TableError("too_deep", most=MAX_DEPTH)
    try:
        msg = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise TableError("not_json") from None
    if not isinstance(msg, dict) or msg.get("type") not in ("act", "say", "ping", *CALLS):
        raise TableError("unknown_message")
    if msg["type"] == "ping":
        return
    if msg["type"] in CALLS:  # the moderator's call: the host's view only
        if seat is not None:
            raise TableError("host_only")
        table.call(msg["type"], msg.get("seat"))
        return
    if seat is None:
        raise TableError("watcher_acts")
    if msg["type"] == "say":
        table.remark(seat, msg.get("say"))
        return
    table.submit(seat, msg.get("action"), msg.get("say"))


async def _body(request: Request) -> bytes:
    """Return a request's body, reading no more than a table config may hold."""
    from mafia_env.table.settings import MAX_BODY

    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise TableError("body_too_big", most=MAX_BODY)
        chunks.append(chunk)
    return b"".join(chunks)


def _hashes(found: Table | Row) -> list[str]:
    if isinstance(found, Table):
        return [found.host_hash, *found.token_hashes.values()]
    return [found.host_hash, *found.seat_hashes.values()]


def _table_http() -> type:
    """Return uvicorn's HTTP protocol (h11), answering an upgrade the socket cannot parse.

    The WebSocket's own parser reads lines of 8192 bytes at most; an upgrade with a longer
    URL or header left the connection waiting for the client to give up. This one answers
    it at once (414 or 431) and closes.
    """
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class TableHTTP(H11Protocol):
        def handle_websocket_upgrade(self, event: Any) -> None:
            if len(event.method) + len(event.target) + 11 > MAX_LINE:
                self._refuse(414, "URI Too Long")
            elif any(len(k) + len(v) + 2 > MAX_LINE for k, v in self.headers):
                self._refuse(431, "Request Header Fields Too Large")
            else:
                super().handle_websocket_upgrade(event)

        def _refuse(self, status: int, phrase: str) -> None:
            body = f"{phrase}: the table reads {MAX_LINE} bytes a line at most\n".encode()
            head = (
                f"HTTP/1.1 {status} {phrase}\r\ncontent-type: text/plain; charset=utf-8\r\n"
                f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
            )
            self.transport.write(head.encode() + body)
            self.transport.close()

    return TableHTTP


def uvicorn_config(app: Starlette, host: str = "127.0.0.1", port: int = 8000, **kw: Any):
    """Return the uvicorn settings the table is served with (frames capped at MAX_FRAME,
    upgrades too long to parse answered at once)."""
    import uvicorn

    kw.setdefault("http", _table_http())
    return uvicorn.Config(
        app, host=host, port=port, ws_max_size=MAX_FRAME, log_level="warning", **kw
    )


__all__ = [
    "MAX_FRAME",
    "MAX_MESSAGE",
    "SECURITY_HEADERS",
    "SecurityHeaders",
    "create_app",
    "handle",
    "uvicorn_config",
]
