"""The tables of one server: how many there may be, when they expire, and a restart.

A table lives in memory while its game is played, and in the store (`store.Store`) from
its creation on: its record is written after every move, so a server that starts again
rebuilds every unfinished table (`Tables.restore`). A finished table leaves memory at once;
so does one that expires: a table whose people have not all sat down within
`Limits.join_timeout`, or a started one with nobody connected and no move for
`Limits.idle_timeout`. One client address may hold `Limits.per_client` unfinished tables,
and make `Limits.creates_per_window` tables in `Limits.create_window` seconds (so a table of
bots only, which plays to its end at once, counts too); when the server holds
`Limits.max_tables`, a new table takes the place of the oldest one nobody has joined, taken
from the address that holds the most, so a flood of tables from one place never keeps a
newcomer out. Finished and expired tables are kept, rows and record files, up to
`Limits.keep_records` of them and `Limits.keep_days` days (`Tables.prune`). A table takes
`Limits.max_watchers` connections of its host's view at most.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mafia_env
from mafia_env.table.bots import BotShelf
from mafia_env.table.core import Table, new_env
from mafia_env.table.database import EXPIRED, Row, Store
from mafia_env.table.seats import Close, TableError
from mafia_env.table.settings import TableConfig

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limits:
    """How many tables a server keeps, and how long a table may wait."""

    max_tables: int = 200  # unfinished tables in memory at once
    per_client: int = 10  # unfinished tables one client address may hold
    join_timeout: float = 900.0  # seconds a table waits for its people to sit down
    idle_timeout: float = 1800.0  # seconds a started table may go with no move, nobody there
    sweep_every: float = 30.0  # seconds between looks for expired tables
    creates_per_window: int = 30  # tables one client address may make in create_window
    create_window: float = 600.0  # seconds
    keep_records: int | None = 10_000  # finished and expired tables kept (None: all)
    keep_days: float | None = 30.0  # days a finished or expired table is kept (None: ever)
    max_watchers: int | None = 50  # connections of the host's view per table (None: any)


class LimitError(TableError):
    """A table cannot be made now: `status` is the HTTP answer (429, 503)."""

    def __init__(self, key: str, status: int, /, **fields: Any):
        super().__init__(key, **fields)
        self.status = status


class Tables:
    """Every table of a server: live ones by id, and the store behind them."""

    def __init__(
        self,
        store: Store | None = None,
        shelf: BotShelf | None = None,
        records_dir: Path | None = None,
        limits: Limits | None = None,
    ):
        self.store = store or Store()
        self.shelf = shelf or BotShelf()
        self.records_dir = records_dir
        self.limits = limits or Limits()
        self.live: dict[str, Table] = {}
        self.owners: dict[str, str] = {}  # table id -> the address that made it
        self.made: defaultdict[str, list[float]] = defaultdict(list)  # when, by address
        self._pending: Counter[str] = Counter()  # tables being made, by address

    # ------------------------------------------------------------- making tables

    async def create(self, config: TableConfig, owner: str) -> Table:
        """Make, store and start a table for the client at `owner`; LimitError if it may not."""
        self._make_room(owner)
        self._pending[owner] += 1
        try:
            env = new_env(config)
            config.check_seats(env.n)
            config.check_night()
            config = await self.shelf.settled(config, env.n)
            self.shelf.check(config)
            bots = await self.shelf.load(config, env.n, env.unwrapped.game_seed)
        finally:
            self._pending[owner] -= 1
            if not self._pending[owner]:
                del self._pending[owner]
        self.made[owner].append(time.monotonic())
        table = Table(config, records_dir=self.records_dir, bots=bots, env=env)
        self.store.add(table, owner)
        self._adopt(table, owner)
        return table

    def _make_room(self, owner: str) -> None:
        lim = self.limits
        mine = sum(1 for o in self.owners.values() if o == owner) + self._pending[owner]
        if mine >= lim.per_client:
            minutes = f"{lim.join_timeout / 60:g}"
            raise LimitError("address_full", 429, mine=mine, most=lim.per_client, minutes=minutes)
        since = time.monotonic() - lim.create_window
        made = self.made.get(owner, [])
        while made and made[0] < since:  # the window moves on
            made.pop(0)
        if not made:
            self.made.pop(owner, None)
        elif len(made) + self._pending[owner] >= lim.creates_per_window:
            raise LimitError(
                "address_rate",
                429,
                made=len(made),
                window=f"{lim.create_window:g}",
                most=lim.creates_per_window,
            )
        while len(self.live) + sum(self._pending.values()) >= lim.max_tables:
            victim = self._unjoined_victim()
            if victim is None:
                raise LimitError("server_full", 503)
            log.info("table %s: dropped for a new table (nobody had joined)", victim)
            self.expire(victim)

    def _unjoined_victim(self) -> str | None:
        """Return the oldest table nobody joined, of the address that holds the most."""
        # nobody has sat down, and nobody watches (a table of bots only is in play if watched)
        idle = [t for t in self.live.values() if not t.joined and not t.connected()]
        if not idle:
            return None
        held = Counter(self.owners.values())
        return min(idle, key=lambda t: (-held[self.owners[t.id]], t.created)).id

    def _adopt(self, table: Table, owner: str) -> None:
        table.on_move = lambda t, n, move: self.store.moved(t.id, n, move)
        table.on_join = self.store.joined
        table.max_watchers = self.limits.max_watchers
        table.on_end = self._ended
        self.live[table.id] = table
        self.owners[table.id] = owner
        table.start()

    def _ended(self, table: Table, record: dict[str, Any]) -> None:
        self.store.finish(table, record)
        self._forget(table.id)

    def _forget(self, table_id: str) -> Table | None:
        self.owners.pop(table_id, None)
        return self.live.pop(table_id, None)

    # ------------------------------------------------------------- finding tables

    def find(self, table_id: str) -> Table | Row | None:
        """Return the live table, else its stored row (finished or expired), else None."""
        if not isinstance(table_id, str) or len(table_id) > 64:
            return None
        return self.live.get(table_id) or self.store.get(table_id)

    def finished(self, row: Row) -> Table:
        """Return a finished table rebuilt from its row, to show its end (not kept)."""
        table = self._rebuild(row, {})
        path = None if self.records_dir is None else self.records_dir / f"table-{row.id}.json"
        table.record_path = path if path is not None and path.exists() else None
        return table

    def _rebuild(self, row: Row, bots: dict[int, Any] | None, env: Any = None) -> Table:
        config = TableConfig.from_json(row.config)
        env = env if env is not None else mafia_env.replay(row.record)
        table = Table(config, table_id=row.id, records_dir=self.records_dir, bots=bots, env=env)
        table.take_keys(row.seat_hashes, row.host_hash, row.joined)
        # its age goes on from when it was made: a restart gives no table more time to be
        # joined (`sweep`)
        age = max(0.0, time.time() - row.created) if row.created else 0.0
        table.created = time.monotonic() - age
        return table

    # ------------------------------------------------------------- restart, expiry

    async def restore(self) -> int:
        """Rebuild every unfinished table of the store and start it; return how many."""
        count = 0
        for row in self.store.open_rows():
            try:
                env = mafia_env.replay(row.record)
                if env.unwrapped.game.over:  # it ended as the server stopped
                    table = self._rebuild(row, {}, env)
                    self.store.finish(table, table.save_record())
                    continue
                config = TableConfig.from_json(row.config)
                bots = await self.shelf.load(config, env.n, env.unwrapped.game_seed)
                table = self._rebuild(row, bots, env)
            except Exception:
                log.exception("table %s cannot be rebuilt from its record: expired", row.id)
                self.store.set_state(row.id, EXPIRED)
                continue
            self._adopt(table, row.owner)
            count += 1
        return count

    def expire(self, table_id: str) -> None:
        """Stop a table, close its connections and mark it expired in the store."""
        table = self._forget(table_id)
        if table is None:
            return
        table.stop()
        table._later(table.close_all(Close.EXPIRED, "the table expired"))
        self.store.set_state(table_id, EXPIRED)

    def sweep(self, now: float | None = None) -> list[str]:
        """Expire the tables that waited too long; return their ids."""
        now = time.monotonic() if now is None else now
        lim = self.limits
        gone = []
        for t in list(self.live.values()):
            unjoined = not t.started and now - t.created > lim.join_timeout
            idle = t.started and not t.connected() and now - t.last_active > lim.idle_timeout
            if unjoined or idle:
                gone.append(t.id)
        for table_id in gone:
            log.info("table %s expired", table_id)
            self.expire(table_id)
        return gone

    def prune(self) -> list[str]:
        """Drop the finished and expired tables beyond the retention limits (rows and record
        files); return their ids."""
        lim = self.limits
        gone = self.store.prune(lim.keep_records, lim.keep_days)
        for table_id in gone:
            if self.records_dir is not None:
                (self.records_dir / f"table-{table_id}.json").unlink(missing_ok=True)
        if gone:
            log.info("dropped %d old tables (retention limits)", len(gone))
        return gone

    async def sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_every)
            self.sweep()
            self.prune()

    async def close(self) -> None:
        """Stop every game's task (their rows stay, to be rebuilt) and close the store."""
        tasks = [t.task for t in self.live.values() if t.task is not None]
        for table in self.live.values():
            table.stop()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.live.clear()
        self.owners.clear()
        self.store.close()


__all__ = ["LimitError", "Limits", "Tables"]
