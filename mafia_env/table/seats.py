"""Who may sit where: the links' tokens, the connections of a seat, and the errors they get.

A person's link holds a random token; the server keeps only its hash (`token_hash`) and
opens a seat by comparing hashes in constant time (`seat_for`). A connection (`Conn`)
knows how to send to the browser and close it, and how many of the moderator's lines it
has been told. When the server ends a connection it says why with a code of `Close`.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Awaitable, Callable
from enum import IntEnum
from typing import Any

from mafia_env.errors import MafiaError
from mafia_env.table.words import message

Send = Callable[[dict[str, Any]], Awaitable[None]]
Closer = Callable[[int, str], Awaitable[None]]


class Close(IntEnum):
    """The codes a connection is closed with; the page tells the person why by them."""

    UNSUPPORTED = 1003  # a binary frame: the table speaks JSON text
    BAD_LANG = 4400
    REFUSED = 4403  # a wrong token or seat
    NO_TABLE = 4404
    REPLACED = 4409  # another window opened the seat
    EXPIRED = 4410
    FULL = 4429  # the table has as many watchers as it takes


def token_hash(token: str) -> str:
    """Return the hash under which a seat's token is kept (tokens are random: no salt)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class TableError(MafiaError):
    """A message a seat sent cannot be carried out (out of turn, illegal, malformed).

    `key` names the message (`words.MESSAGES`), `fields` fill it in: ``str(error)`` is the
    English text, `text(lang)` the seat's. `close` is the code a connection closes with when
    the error ends it (see above).
    """

    def __init__(self, key: str, close: int = Close.REFUSED, /, **fields: Any):
        self.key, self.fields, self.close = key, fields, close
        super().__init__(message(key, "en", **fields))

    def text(self, lang: str = "en") -> str:
        """Return the message in `lang`."""
        return message(self.key, lang, **self.fields)


class Conn:
    """One open connection: how to send to it and close it, and what it has been told."""

    def __init__(self, send: Send, close: Closer | None = None, lang: str = "en"):
        self.send, self.close, self.lang = send, close, lang
        self.told = 0  # the moderator's lines sent so far
        self.lock = asyncio.Lock()


def seat_for(
    seat: Any, token: Any, seat_hashes: dict[int, str], host_hash: str, n: int
) -> int | None:
    """Return the 0-based seat a link's (seat, token) opens, None for the host's view.

    Raise a TableError if it opens none. Tokens are compared by their hashes, in constant
    time, so neither the answer nor its timing tells anything of a token.
    """
    if not isinstance(token, str) or not token:
        raise TableError("token_needed")
    digest = token_hash(token)
    if seat in (None, "", "watch"):
        if secrets.compare_digest(digest, host_hash):
            return None
        raise TableError("wrong_watch_token")
    try:
        s = int(seat) - 1
    except (TypeError, ValueError):
        raise TableError("bad_seat", n=n, got=repr(str(seat)[:20])) from None
    if s not in seat_hashes or not secrets.compare_digest(digest, seat_hashes[s]):
        raise TableError("wrong_token", s=s + 1)
    return s


__all__ = ["Close", "Closer", "Conn", "Send", "TableError", "seat_for", "token_hash"]
