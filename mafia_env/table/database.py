"""Every table of a server in one SQLite file, so that a restart loses no game.

A row of ``tables`` holds what a table was made with (its settings, the hashes of its
tokens, the client that made it), who has sat down, and its game's record (`env.record()`);
``moves`` gets a row for every move as it is made, and for every remark of table talk (its
text in ``say``), so the record of a game in play is its stored head (variant, knobs, seed,
deal) with its moves and talk: writing a move costs the same on the first day as on the
last. `mafia_env.replay` plays a record back to the same state, so a
server that starts again rebuilds each unfinished table (`Tables.restore`) and every
person's link still opens the seat, and every seat's log has the talk again. A finished
table's row keeps its whole final record; `prune` drops the oldest finished and expired
tables beyond the operator's retention limits.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,       -- the TableConfig as JSON
    owner TEXT NOT NULL,        -- the address of the client that made the table
    host_hash TEXT NOT NULL,    -- sha256 of the host's watch token
    seat_hashes TEXT NOT NULL,  -- {"3": sha256 of seat 3's token, ...}
    joined TEXT NOT NULL,       -- [3, ...]: seats whose person has sat down
    state TEXT NOT NULL,        -- "open", "over" or "expired"
    created REAL NOT NULL,      -- wall-clock seconds
    updated REAL NOT NULL,
    record TEXT NOT NULL        -- the record: of the deal while open, of the game once over
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL,
    n INTEGER NOT NULL,         -- 0, 1, ...: the move's place in the game
    seat INTEGER NOT NULL,      -- 1..n
    action INTEGER NOT NULL,    -- the action index (-1 a remark, -2 a foul, -3 a removal)
    say TEXT,                   -- a remark of table talk (then no action), else NULL
    PRIMARY KEY (table_id, n)
);
"""
# a file made before table talk was stored: its moves get the column
_ADD_SAY = "ALTER TABLE moves ADD COLUMN say TEXT"
OPEN, OVER, EXPIRED = "open", "over", "expired"
# what a record says of the game's end; the head of a game in play has none of them
ENDING = ("moves", "winner", "truncated", "events", "checksum")


@dataclass(frozen=True)
class Row:
    """One stored table."""

    id: str
    config: dict[str, Any]
    owner: str
    host_hash: str
    seat_hashes: dict[int, str]  # 0-based seat -> hash
    joined: set[int]  # 0-based seats
    state: str
    record: dict[str, Any]  # the game so far (open) or the whole game (over)
    created: float = 0.0  # wall-clock seconds when the table was made


class Store:
    """The tables' SQLite file (":memory:" keeps them for this process only)."""

    def __init__(self, path: str | Path = ":memory:"):
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # autocommit; made in one thread, used from the server's event loop (one at a time)
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        # a write-ahead log: a move's write does not wait for the disk to sync
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)
        columns = {r[1] for r in self.db.execute("PRAGMA table_info(moves)")}
        if "say" not in columns:
            self.db.execute(_ADD_SAY)

    def add(self, table: Any, owner: str) -> None:
        """Store a new table: its settings, token hashes and the head of its record."""
        now = time.time()
        record = table.env.record()
        head = {k: v for k, v in record.items() if k not in ENDING}
        with self._transaction():
            self.db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table.id,
                    json.dumps(table.config.to_json()),
                    owner,
                    table.host_hash,
                    json.dumps({str(s + 1): h for s, h in table.token_hashes.items()}),
                    _seats(table.joined),
                    OPEN,
                    now,
                    now,
                    json.dumps(head),
                ),
            )
            self._add_moves(table.id, 0, record["moves"])

    def moved(self, table_id: str, n: int, move: list) -> None:
        """Store entry `n` of a table's record moves: ``[seat, action]`` (seat 1..n) or a
        remark ``[seat, "say", text]``."""
        self.db.execute("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", (table_id, n, *_row_of(move)))

    def joined(self, table: Any) -> None:
        """Store who has sat down at a table."""
        self.db.execute(
            "UPDATE tables SET joined = ?, updated = ? WHERE id = ?",
            (_seats(table.joined), time.time(), table.id),
        )

    def finish(self, table: Any, record: dict[str, Any]) -> None:
        """Store a finished game's whole record in place of its moves."""
        with self._transaction():
            self.db.execute(
                "UPDATE tables SET joined = ?, state = ?, updated = ?, record = ? WHERE id = ?",
                (_seats(table.joined), OVER, time.time(), json.dumps(record), table.id),
            )
            self.db.execute("DELETE FROM moves WHERE table_id = ?", (table.id,))

    def prune(self, keep: int | None = None, days: float | None = None) -> list[str]:
        """Delete the finished and expired tables beyond the newest `keep`, and those not
        touched for `days` days; return their ids (their record files are the caller's)."""
        gone: list[str] = []
        if keep is not None:
            cur = self.db.execute(
                "SELECT id FROM tables WHERE state != ? ORDER BY updated DESC, created DESC "
                "LIMIT -1 OFFSET ?",
                (OPEN, keep),
            )
            gone += [r[0] for r in cur.fetchall()]
        if days is not None:
            cur = self.db.execute(
                "SELECT id FROM tables WHERE state != ? AND updated < ?",
                (OPEN, time.time() - days * 86400),
            )
            gone += [r[0] for r in cur.fetchall() if r[0] not in gone]
        if gone:
            with self._transaction():
                self.db.executemany("DELETE FROM tables WHERE id = ?", [(i,) for i in gone])
                self.db.executemany("DELETE FROM moves WHERE table_id = ?", [(i,) for i in gone])
        return gone

    def set_state(self, table_id: str, state: str) -> None:
        self.db.execute(
            "UPDATE tables SET state = ?, updated = ? WHERE id = ?", (state, time.time(), table_id)
        )

    def get(self, table_id: str) -> Row | None:
        cur = self.db.execute("SELECT * FROM tables WHERE id = ?", (table_id,))
        found = cur.fetchone()
        return None if found is None else self._row(found)

    def open_rows(self) -> list[Row]:
        """Return the unfinished tables, oldest first."""
        cur = self.db.execute("SELECT * FROM tables WHERE state = ? ORDER BY created", (OPEN,))
        return [self._row(r) for r in cur.fetchall()]

    def close(self) -> None:
        self.db.close()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """Make the statements inside all or nothing."""
        self.db.execute("BEGIN")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def _add_moves(self, table_id: str, start: int, moves: list[list[Any]]) -> None:
        rows = [(table_id, start + i, *_row_of(m)) for i, m in enumerate(moves)]
        self.db.executemany("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", rows)

    def _row(self, r: tuple) -> Row:
        id_, config, owner, host_hash, seat_hashes, joined, state, created, _, record = r
        record = json.loads(record)
        if state == OPEN:  # the head, and the moves so far
            cur = self.db.execute(
                "SELECT seat, action, say FROM moves WHERE table_id = ? ORDER BY n", (id_,)
            )
            record["moves"] = [_move_of(*row) for row in cur.fetchall()]
        return Row(
            id=id_,
            config=json.loads(config),
            owner=owner,
            host_hash=host_hash,
            seat_hashes={int(s) - 1: h for s, h in json.loads(seat_hashes).items()},
            joined={s - 1 for s in json.loads(joined)},
            state=state,
            record=record,
            created=created,
        )


# the moderator's calls a record holds (`mafia_env.records.format`), by their action column
_CALLS = {"foul": -2, "remove": -3}
_CALL_OF = {v: k for k, v in _CALLS.items()}


def _row_of(move: list) -> tuple[int, int, str | None]:
    """Return the (seat, action, say) columns of a record move."""
    if len(move) == 3 and move[1] == "say":
        return move[0], -1, move[2]
    seat, action = move
    if action in _CALLS:
        return seat, _CALLS[action], None
    if not isinstance(action, int) or isinstance(action, bool):
        raise ValueError(f"the table stores actions, calls and remarks only; got {move!r}")
    return seat, action, None


def _move_of(seat: int, action: int, say: str | None) -> list:
    """Return the record move of a row's (seat, action, say) columns."""
    if say is not None:
        return [seat, "say", say]
    if action in _CALL_OF:
        return [seat, _CALL_OF[action]]
    return [seat, action]


def _seats(seats: set[int]) -> str:
    return json.dumps(sorted(s + 1 for s in seats))


__all__ = ["EXPIRED", "OPEN", "OVER", "Row", "Store"]
