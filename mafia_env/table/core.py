"""A table where people and bots play one game: seats, secret tokens, bots and turn timers.

`Table` knows nothing of HTTP: the server attaches a connection per seat and passes on what
the seat sent. The game runs in one asyncio task (`Table.run`): a bot acts after `bot_delay`
seconds (its choice is computed in a worker thread, so the server never waits on a model),
a person's turn that runs past `turn_timeout` takes the rule's default action
(`Game.default_action`). Every message a seat receives is built by `view.seat_view`, so a
seat is only ever told what it may know; the moderator's lines go out as they come (a
connection gets them all once, then only the new ones).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import mafia_env
from mafia_env.errors import MafiaError
from mafia_env.match import default_action
from mafia_env.table.config import TableConfig
from mafia_env.table.seats import Close, Closer, Conn, Send, TableError, seat_for, token_hash
from mafia_env.table.view import NIGHT, SeatLog, languages, public_phase, seat_view

log = logging.getLogger(__name__)
SEND_TIMEOUT = 5.0  # seconds a connection may take to accept a message before it is dropped


class Table:
    """One game with people in some seats and bots in the others.

    `bots` maps each bot's seat (0-based) to its policy; without it the bots are loaded here
    (`bots.BotShelf`), which may take a while for trained bots: a server loads them in a
    worker thread first. `env` is a game already under way (rebuilt from its record).
    """

    def __init__(
        self,
        config: TableConfig,
        table_id: str | None = None,
        records_dir: Path | None = None,
        bots: dict[int, Any] | None = None,
        env: Any = None,
    ):
        self.config = config
        self.id = table_id or secrets.token_hex(8)
        if env is None:
            env = new_env(config)
        self.env = env
        n = self.n = env.n
        config.check_seats(n)
        self.humans = frozenset(h - 1 for h in config.humans)
        self.seed = env.unwrapped.game_seed
        if bots is None and env.unwrapped.game.over:
            bots = {}
        elif bots is None:
            from mafia_env.table.bots import BotShelf

            shelf = BotShelf()
            self.config = config = shelf.settle(config, n)  # the default bot that can play
            bots = shelf.seat_bots(config, n, self.seed)
        self.bot_names = {
            s: config.bots.get(s + 1, config.default_bot) for s in range(n) if s not in self.humans
        }
        self.bots = bots
        # the plain tokens are known only to the process that made them, for the links;
        # a seat is opened by the hash of its token (a store keeps only the hashes)
        self.tokens = {s: secrets.token_urlsafe(18) for s in self.humans}
        self.host_token = secrets.token_urlsafe(18)
        self.token_hashes = {s: token_hash(t) for s, t in self.tokens.items()}
        self.host_hash = token_hash(self.host_token)
        self.conns: dict[int | None, dict[int, Conn]] = {}
        self.joined: set[int] = set()
        self.records_dir = records_dir
        self.record_path: Path | None = None
        self.moves = 0  # moves made at this table since it was built
        self.created = self.last_active = time.monotonic()
        self.deadline: float | None = None  # loop time when the acting person's turn ends
        # what the server keeps: called after every move (with its place in the game, the
        # seat 1..n and the action), when a person first sits down, and with the record
        self.on_move: Callable[[Table, int, int, int], None] | None = None
        self.on_join: Callable[[Table], None] | None = None
        self.on_end: Callable[[Table, dict[str, Any]], None] | None = None
        self._moved = asyncio.Event()
        self._awaiting: int | None = None  # the person's seat whose move the game awaits
        self._turn = env.unwrapped.game.actor  # the seat whose turn was last opened
        self._all_joined = asyncio.Event()
        self._logs: dict[tuple[int | None, str], SeatLog] = {}
        self._tasks: set[asyncio.Task] = set()
        self._next_conn = 0
        self._check_joined()
        # the most turns a night can have: every black player shoots, then the checks
        self.night_turns = len(env.unwrapped.game.mafia_seats()) + 2
        self.task: asyncio.Task | None = None

    # ------------------------------------------------------------- seats

    @property
    def started(self) -> bool:
        return self._all_joined.is_set()

    @property
    def over(self) -> bool:
        return bool(self.env.unwrapped.game.over)

    def seat_of(self, seat: Any, token: Any) -> int | None:
        """Return the 0-based seat a (seat, token) pair opens; None means the host's view."""
        return seat_for(seat, token, self.token_hashes, self.host_hash, self.n)

    def connect(self, seat: int | None, send: Send, lang: str = "en", close: Closer | None = None):
        """Attach a connection to a seat; return its id. A seat may come back at any time.

        A seat is played from one connection: a newer one takes it, and the older one is
        told so and closed. The host's view may be open in many places.
        """
        if lang not in languages():
            raise TableError(
                f"language {lang!r} is not offered; languages: {', '.join(languages())}",
                Close.BAD_LANG,
            )
        conns = self.conns.setdefault(seat, {})
        if seat is not None:
            for cid in list(conns):
                self._later(self._replace(conns.pop(cid)))
            if seat not in self.joined:
                self.joined.add(seat)
                self._check_joined()
                if self.on_join is not None:
                    self.on_join(self)
        self._next_conn += 1
        conn = Conn(send, close, lang)
        conns[self._next_conn] = conn
        self.last_active = time.monotonic()
        return self._next_conn

    def take_keys(self, seat_hashes: dict[int, str], host_hash: str, joined: set[int]) -> None:
        """Take a stored table's keys and who had sat down (its links were given out already).

        The plain tokens are forgotten: only the links know them.
        """
        self.tokens = {}
        self.token_hashes = dict(seat_hashes)
        self.host_hash = host_hash
        self.joined = set(joined)
        self._check_joined()

    def disconnect(self, seat: int | None, conn: int) -> None:
        self.conns.get(seat, {}).pop(conn, None)
        self.last_active = time.monotonic()

    def connected(self) -> int:
        """Return how many connections are open."""
        return sum(len(c) for c in self.conns.values())

    def _check_joined(self) -> None:
        if self.joined >= self.humans:
            self._all_joined.set()

    async def _replace(self, conn: Conn) -> None:
        message = "this seat was opened in another window; this one is closed"
        await self._send(conn, {"type": "error", "message": message, "fatal": True})
        if conn.close is not None:
            await _quietly(conn.close(Close.REPLACED, message))

    def _later(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------- what seats are told

    def view(self, seat: int | None, lang: str = "en") -> dict[str, Any]:
        """Return the state message for one seat (None: the host's public view), no log."""
        v = seat_view(self.env, seat, lang, with_narration=False)
        v["type"] = "state"
        v["table"] = self.id
        v["started"] = self.started
        if not self.started:  # nobody moves before every person has sat down
            v["your_turn"], v["actions"], v["actor"] = False, [], None
            for card in v["seats"]:
                card["acting"] = False
        v["waiting_for"] = sorted(h + 1 for h in self.humans - self.joined)
        for s, card in enumerate(v["seats"]):
            card["kind"] = "person" if s in self.humans else "bot"
            card["bot"] = self.bot_names.get(s)
        # the clock of a person's turn: shown to everyone in a public turn, else to him only
        left = None
        if self.deadline is not None and (v["actor"] is not None or v["your_turn"]):
            left = max(0.0, round(self.deadline - asyncio.get_running_loop().time(), 1))
        v["time_left"] = left
        v["record"] = self.record_path.name if self.record_path else None
        return v

    def log_lines(self, seat: int | None, lang: str) -> list[dict[str, Any]]:
        """Return every moderator line `seat` has heard, in `lang` (kept up to date)."""
        key = (seat, lang)
        book = self._logs.get(key)
        if book is None:
            book = self._logs[key] = SeatLog(seat, lang)
        game = self.env.unwrapped.game
        return book.update(game.events, game.talk)

    async def send_state(self, seat: int | None) -> None:
        """Send the current state to every connection of one seat."""
        views: dict[str, dict[str, Any]] = {}
        for cid, conn in list(self.conns.get(seat, {}).items()):
            if conn.lang not in views:
                views[conn.lang] = self.view(seat, conn.lang)
            if not await self._tell(seat, conn, views[conn.lang]):
                self.conns.get(seat, {}).pop(cid, None)

    async def send_to(self, seat: int | None, conn: int) -> None:
        """Send the current state to one connection of a seat."""
        c = self.conns.get(seat, {}).get(conn)
        if c is not None:
            await self._tell(seat, c, self.view(seat, c.lang))

    async def _tell(self, seat: int | None, conn: Conn, view: dict[str, Any]) -> bool:
        """Send a state with the lines this connection has not had; False if it is gone."""
        async with conn.lock:  # one message at a time, so no line is sent twice or lost
            lines = self.log_lines(seat, conn.lang)
            msg = {**view, "log_from": conn.told, "log": lines[conn.told :]}
            if not await self._send(conn, msg):
                return False
            conn.told = len(lines)
            return True

    async def _send(self, conn: Conn, msg: dict[str, Any]) -> bool:
        try:
            await asyncio.wait_for(conn.send(msg), SEND_TIMEOUT)
            return True
        except Exception:  # a closed or stuck socket: forget it, the table goes on
            return False

    async def broadcast(self) -> None:
        for seat in list(self.conns):
            await self.send_state(seat)

    async def close_all(self, code: int, reason: str) -> None:
        """Close every connection (the game is over, or the table expired)."""
        for conns in list(self.conns.values()):
            for conn in list(conns.values()):
                if conn.close is not None:
                    await _quietly(conn.close(code, reason))
            conns.clear()

    # ------------------------------------------------------------- moves

    def submit(self, seat: int, action: Any, say: Any = None) -> None:
        """Carry out `seat`'s action index, after its table talk `say` (in a speech); raise
        TableError if it may not take it now."""
        game = self.env.unwrapped.game
        if game.over:
            raise TableError("the game is over")
        if not self.started:
            raise TableError("the game has not started: not every person has joined")
        if game.actor != seat or self._awaiting != seat:
            raise TableError("it is not your turn")
        if not _is_int(action):
            raise TableError(f"action must be an action number; got {str(action)[:40]!r}")
        if action not in self.env.unwrapped.legal_actions():
            raise TableError(f"action {action} is not one you may take now")
        if say is not None and not isinstance(say, str):
            raise TableError(f"say must be text; got {say!r}")
        if say and say.strip():
            u = self.env.unwrapped
            if not u.may_talk(u.possible_agents[seat]):
                raise TableError("you may talk only in your speech")
            try:
                u.say(u.possible_agents[seat], say)
            except MafiaError as e:
                raise TableError(str(e)) from None
        self._step(action)

    def _step(self, action: int) -> None:
        game = self.env.unwrapped.game
        seat = game.actor
        self.env.step(action)
        self.moves += 1
        self.last_active = time.monotonic()
        self._moved.set()
        if self.on_move is not None:
            self.on_move(self, len(game.inputs) - 1, seat + 1, int(action))

    async def _bot_move(self, seat: int) -> int:
        """Return the bot's choice, computed off the event loop; the default if it fails."""
        from mafia_env.table.bots import think

        obs = self.env.observe(self.env.possible_agents[seat])
        observation, mask = obs["observation"].copy(), obs["action_mask"].copy()
        try:
            move = await think(self.bots[seat], observation, mask)
        except Exception:  # a broken bot must not stop the table
            log.exception("table %s: bot at seat %d failed", self.id, seat + 1)
            return self._default_move()
        if not _is_int(move) or move not in self.env.unwrapped.legal_actions():
            log.warning("table %s: bot at seat %d chose illegal %r", self.id, seat + 1, move)
            return self._default_move()
        return move

    def _default_move(self) -> int:
        return default_action(self.env)  # the rules' move for a seat that does nothing

    def _open_turn(self) -> None:
        """Begin the acting seat's turn: a person may move from now on, and his clock runs.

        Called before the turn is announced, so a move sent the moment the news arrives
        (while others are still being told) is taken.
        """
        game, timeout = self.env.unwrapped.game, self.config.turn_timeout
        self._moved.clear()
        self._turn = game.actor
        human = not game.over and game.actor in self.humans
        self._awaiting = game.actor if human else None
        loop = asyncio.get_running_loop()
        self.deadline = loop.time() + timeout if human and timeout is not None else None

    async def _take_turn(self, seat: int) -> None:
        """Let the bot at `seat` move, or wait for the person there (or his clock)."""
        if seat in self.bots:
            await asyncio.sleep(self.config.bot_delay)
            self._step(await self._bot_move(seat))
            return
        left = None
        if self.deadline is not None:
            left = max(0.0, self.deadline - asyncio.get_running_loop().time())
        try:
            await asyncio.wait_for(self._moved.wait(), left)
        except asyncio.TimeoutError:  # the turn ran out: the rule's default action
            if not self._moved.is_set():
                self._step(self._default_move())
        finally:
            self._awaiting = None

    async def run(self) -> None:
        """Play the game to its end, then save the record and close the connections."""
        await self._all_joined.wait()
        loop = asyncio.get_running_loop()
        game = self.env.unwrapped.game
        self._open_turn()
        await self.broadcast()
        night_began: float | None = None
        while not game.over:
            seat = self._turn
            await self._take_turn(seat)
            if public_phase(game) == NIGHT and night_began is not None:
                # the table sleeps: only the player who acted and the next one hear of it,
                # so nobody can count the night's turns from the messages he gets
                self._open_turn()
                await self.send_state(seat)
                if game.actor != seat and game.actor in self.humans:
                    await self.send_state(game.actor)
                continue
            if public_phase(game) == NIGHT:  # night falls: everyone is told, once
                night_began = loop.time()
            elif night_began is not None:
                # every night lasts at least as long as the longest one could with bots, so
                # its length does not tell who still acts at night (a don, a sheriff)
                rest = night_began + self.night_turns * self.config.bot_delay - loop.time()
                night_began = None
                if rest > 0:
                    await asyncio.sleep(rest)
            self._open_turn()
            await self.broadcast()
        record = self.save_record()
        await self.broadcast()
        if self.on_end is not None:
            self.on_end(self, record)
        await self.close_all(1000, "the game is over")

    def start(self) -> asyncio.Task:
        """Start the game's task on the running loop (once)."""
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self.run())
            self.task.add_done_callback(self._done)
        return self.task

    def _done(self, task: asyncio.Task) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s stopped", self.id, exc_info=task.exception())

    def save_record(self) -> dict[str, Any]:
        """Return the game's record; write it to `records_dir/<table>.json` if there is one."""
        record = self.env.record()
        record["table"] = {
            "id": self.id,
            "humans": sorted(h + 1 for h in self.humans),
            "bots": {str(s + 1): name for s, name in sorted(self.bot_names.items())},
        }
        if self.records_dir is not None:
            self.records_dir.mkdir(parents=True, exist_ok=True)
            self.record_path = self.records_dir / f"table-{self.id}.json"
            self.record_path.write_text(json.dumps(record, indent=1), encoding="utf-8")
        return record

    def links(self, base: str = "") -> dict[str, Any]:
        """Return the join link of every person's seat and the host's watch link."""
        return {
            "table": self.id,
            "seats": {
                str(s + 1): f"{base}/?table={self.id}&seat={s + 1}&token={t}"
                for s, t in sorted(self.tokens.items())
            },
            "watch": f"{base}/?table={self.id}&seat=watch&token={self.host_token}",
        }


def new_env(config: TableConfig) -> Any:
    """Return the environment of a new table, dealt: its seed is the config's or a random one."""
    env = mafia_env.env(config.variant, config.num_players, **config.knobs)
    env.reset(seed=config.seed if config.seed is not None else secrets.randbits(31))
    return env


async def _quietly(aw: Awaitable[Any]) -> None:
    with contextlib.suppress(Exception):  # the other side is already gone
        await aw


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


__all__ = ["Table", "TableConfig", "TableError", "new_env"]
