"""A table where people and bots play one game: seats, secret tokens, bots and turn timers.

`Table` knows nothing of HTTP: the server attaches a connection per seat and passes on what
the seat sent. The game runs in one asyncio task (`Table.run`): by day a bot acts after
`bot_delay` seconds (its choice is computed in a worker thread, so the server never waits on
a model: `bots.think`, which seats it through `mafia_env.seating.games.ask` with the observation it
takes: a vector, a text for a language model, an information set for the search bot), a
person's turn that runs past `turn_timeout` takes the rule's default action
(`Game.default_action`). A night keeps the schedule of `night.NightPlan`, so its timing
tells nobody who holds which role. Every message a seat receives is built by
`view.seat_view`, so a seat is only ever told what it may know; the moderator's lines go out
as they come (a connection gets them all once, then only the new ones). Errors a seat gets
are in its language (`words`). A bot that fails is logged once per table and kind of
fault, with a count at the end of the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import mafia_env
from mafia_env.engine.events import TALK_LIMIT
from mafia_env.engine.kinds import SPEECH_TURNS, Act
from mafia_env.errors import MafiaError
from mafia_env.seating.games import default_action, speak
from mafia_env.seating.policies import observes
from mafia_env.table.night_plan import Clock, NightPlan
from mafia_env.table.seats import Close, Closer, Conn, Send, TableError, seat_for, token_hash
from mafia_env.table.settings import NIGHT_TURN, TableConfig
from mafia_env.table.talk import voice
from mafia_env.table.view import NIGHT, SeatLog, languages, public_phase, seat_view
from mafia_env.table.words import message

log = logging.getLogger(__name__)
SEND_TIMEOUT = 5.0  # seconds a connection may take to accept a message before it is dropped
MAX_REMARKS = 5  # remarks of table talk one person may make in one turn
CALLS = ("foul", "remove")  # the host's calls: a foul (SPORT-F1), a removal (SPORT-F2)
_BY_THE_CLOCK = object()  # `_open_turn`: the deadline of the turn's own clock


class Table:
    """One game with people in some seats and bots in the others.

    `bots` maps each bot's seat (0-based) to its policy; without it the bots are loaded here
    (`bots.BotShelf`), which may take a while for trained bots: a server loads them in a
    worker thread first. `env` is a game already under way (rebuilt from its record).
    `clock` is the table's time (`night.Clock`; tests give a virtual one).
    """

    def __init__(
        self,
        config: TableConfig,
        table_id: str | None = None,
        records_dir: Path | None = None,
        bots: dict[int, Any] | None = None,
        env: Any = None,
        clock: Clock | None = None,
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
        self.clock = clock or Clock()
        # the plain tokens are known only to the process that made them, for the links;
        # a seat is opened by the hash of its token (a store keeps only the hashes)
        self.tokens = {s: secrets.token_urlsafe(18) for s in self.humans}
        self.host_token = secrets.token_urlsafe(18)
        self.token_hashes = {s: token_hash(t) for s, t in self.tokens.items()}
        self.host_hash = token_hash(self.host_token)
        self.conns: dict[int | None, dict[int, Conn]] = {}
        self.joined: set[int] = set()
        self.max_watchers: int | None = None  # connections of the host's view at most
        self.records_dir = records_dir
        self.record_path: Path | None = None
        self.moves = 0  # moves made at this table since it was built
        game = env.unwrapped.game
        self.recorded = len(game.inputs) + len(game.talk)  # the record's moves so far
        self.created = self.last_active = time.monotonic()
        self.deadline: float | None = None  # clock time when the acting person's turn ends
        # what the server keeps: called with every entry of the record's moves as it is made
        # (its place, and [seat 1..n, action] or [seat, "say", text]), when a person first
        # sits down, and with the record at the end
        self.on_move: Callable[[Table, int, list], None] | None = None
        self.on_join: Callable[[Table], None] | None = None
        self.on_end: Callable[[Table, dict[str, Any]], None] | None = None
        self._moved = asyncio.Event()
        self._awaiting: int | None = None  # the person's seat whose move the game awaits
        self._turn = game.actor  # the seat whose turn was last opened
        self._remarks = 0  # remarks made in the open turn
        self._all_joined = asyncio.Event()
        self._logs: dict[tuple[int | None, str], SeatLog] = {}
        self._tasks: set[asyncio.Task] = set()
        self._next_conn = 0
        self._faults: Counter[str] = Counter()  # bot faults by kind, logged once each
        self._reported = False
        # the host's calls (`call`) change the game between moves: each one counts here, and
        # a turn opened before one is looked at again; a call made while a bot thinks (in a
        # worker thread, reading the game) waits in `_calls` for its move
        self._version = 0
        self._turn_version = 0
        self._thinking = 0
        self._calls: list[tuple[str, int]] = []
        self._speech: tuple[tuple[int, int, int], list[tuple[int, int, int]]] | None = None
        self.night_end: float | None = None  # clock time the night's schedule ends
        self._schedule: tuple[NightPlan, float, float, bool] | None = None
        self._check_joined()
        self.task: asyncio.Task | None = None
        self.stopped = False

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
        told so and closed. The host's view may be open in `max_watchers` places.
        """
        if lang not in languages():
            raise TableError("bad_lang", Close.BAD_LANG, lang=lang, langs=", ".join(languages()))
        conns = self.conns.setdefault(seat, {})
        if seat is None and self.max_watchers is not None and len(conns) >= self.max_watchers:
            raise TableError("watchers_full", Close.FULL, most=self.max_watchers)
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
        text = message("replaced", conn.lang)
        await self._send(conn, {"type": "error", "message": text, "fatal": True})
        if conn.close is not None:
            await _quietly(conn.close(Close.REPLACED, message("replaced")))

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
        elif v["your_turn"] and self._awaiting != seat:
            # the game has come to this seat, but the table has not opened its turn yet
            # (a night turn opens in its slot): no buttons before then
            v["your_turn"], v["actions"], v["may_talk"] = False, [], False
        if not self.started or self._awaiting != seat:
            v["may_talk"] = False  # nobody talks before the game, or out of his open turn
        v["waiting_for"] = sorted(h + 1 for h in self.humans - self.joined)
        for s, card in enumerate(v["seats"]):
            card["kind"] = "person" if s in self.humans else "bot"
            card["bot"] = self.bot_names.get(s)
        # the clock of a person's turn: shown to everyone in a public turn, else to him only
        left = None
        if self.deadline is not None and (v["actor"] is not None or v["your_turn"]):
            left = max(0.0, round(self.deadline - self.clock.now(), 1))
        v["time_left"] = left
        # the night's end, by its schedule (`night`): the same for every seat
        night = None
        if v["phase"] == "night" and self.night_end is not None:
            night = max(0.0, round(self.night_end - self.clock.now(), 1))
        v["night_left"] = night
        v["record"] = self.record_path.name if self.record_path else None
        return v

    def message(self, seat: int | None, lang: str = "en") -> dict[str, Any]:
        """Return the state message a new connection of `seat` gets: the view, the whole log."""
        return {**self.view(seat, lang), "log_from": 0, "log": self.log_lines(seat, lang)}

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

    def _check_turn(self, seat: int) -> None:
        game = self.env.unwrapped.game
        if game.over:
            raise TableError("game_over")
        if not self.started:
            raise TableError("not_started")
        if game.actor != seat or self._awaiting != seat:
            raise TableError("not_your_turn")

    def _check_remark(self, seat: int, say: Any) -> str:
        """Return the remark `seat` may say now, its spaces folded; else raise TableError."""
        if not isinstance(say, str):
            raise TableError("say_text", got=repr(say)[:40])
        u = self.env.unwrapped
        if not u.may_talk(u.possible_agents[seat]):
            raise TableError("talk_in_speech")
        text = " ".join(say.split())
        if len(text) > TALK_LIMIT:
            raise TableError("remark_length", most=TALK_LIMIT, got=len(text))
        if self._remarks >= MAX_REMARKS:
            raise TableError("too_many_remarks", most=MAX_REMARKS)
        return text

    def _say(self, seat: int, text: str) -> None:
        u = self.env.unwrapped
        try:
            u.say(u.possible_agents[seat], text)
        except MafiaError:  # checked above; the engine's words name internal ids
            log.warning("table %s: seat %d's remark refused", self.id, seat + 1, exc_info=True)
            raise TableError("talk_in_speech") from None
        self._remarks += 1
        self.last_active = time.monotonic()
        self._record_talk()

    def submit(self, seat: int, action: Any, say: Any = None) -> None:
        """Carry out `seat`'s action index, after its table talk `say` (in a speech); raise
        TableError if it may not take it now."""
        self._check_turn(seat)
        if not _is_int(action):
            raise TableError("not_a_number", got=repr(str(action)[:40]))
        if action not in self.env.unwrapped.legal_actions():
            raise TableError("not_legal", action=action)
        if say is not None and not isinstance(say, str):
            raise TableError("say_text", got=repr(say)[:40])
        if say and say.strip():
            self._say(seat, self._check_remark(seat, say))
        self._step(action)

    def remark(self, seat: int, say: Any) -> None:
        """Add `seat`'s remark to its speech without moving (the talk box's Enter); everyone
        hears it at once. Raise TableError if it may not talk now."""
        self._check_turn(seat)
        text = self._check_remark(seat, say)
        if not text:
            raise TableError("remark_length", most=TALK_LIMIT, got=0)
        self._say(seat, text)
        self._later(self.broadcast())

    # ------------------------------------------------------------- the host's calls

    def call(self, kind: Any, seat: Any) -> None:
        """Carry out the host's call on `seat` (1..n): ``"foul"`` (SPORT-F1, SPORT-F3,
        ONLINE-F1: the rules' thresholds silence or remove him) or ``"remove"`` (SPORT-F2: out
        at once, without a last word); raise TableError if it cannot be made now.

        Every seat hears of it at once (fouls are public counts). A call made while a bot
        thinks is made as soon as its thinking ends, before its move (which is then chosen
        again).
        """
        game = self.env.unwrapped.game
        if kind not in CALLS:
            raise TableError("unknown_message")
        if game.over:
            raise TableError("game_over")
        if not self.started:
            raise TableError("not_started")
        if not _is_int(seat) or not 1 <= seat <= self.n:
            raise TableError("bad_seat", n=self.n, got=repr(str(seat)[:20]))
        if not self._in_game(seat - 1, kind):
            raise TableError("seat_out", s=seat)
        if self._thinking:
            self._calls.append((kind, seat - 1))
            return
        self._call(kind, seat - 1)
        self._later(self.broadcast())

    def _in_game(self, seat: int, kind: str) -> bool:
        """Return whether a call on `seat` still means something: he plays, or a foul waits
        for his last word (SPORT-F3, ONLINE-F1: out already, a foul may take it)."""
        game = self.env.unwrapped.game
        if game.alive[seat]:
            return True
        from mafia_env.engine.kinds import Turn

        last = (seat, Turn.LAST_WORD)
        waiting = last in list(game.queue) or (game.actor, game.turn) == last
        return kind == "foul" and waiting

    def _call(self, kind: str, seat: int) -> None:
        """Make a call of the host now, and record it; a turn it ends is looked at again."""
        u = self.env.unwrapped
        game = u.game
        before = (game.turn, game.actor)
        (u.foul if kind == "foul" else u.remove)(u.possible_agents[seat])
        self._version += 1
        self.last_active = time.monotonic()
        self._record([seat + 1, kind])
        if game.over or (game.turn, game.actor) != before:
            self._moved.set()  # the turn under way is over: the table opens the next

    def _take_calls(self) -> None:
        """Make the calls that waited for a bot's thinking (those that still mean something)."""
        calls, self._calls = self._calls, []
        made = False
        for kind, seat in calls:
            if not self.env.unwrapped.game.over and self._in_game(seat, kind):
                self._call(kind, seat)
                made = True
        if made:
            self._later(self.broadcast())

    def _record(self, move: list) -> None:
        n, self.recorded = self.recorded, self.recorded + 1
        if self.on_move is not None:
            self.on_move(self, n, move)

    def _record_talk(self) -> None:
        talk = self.env.unwrapped.game.talk
        game = self.env.unwrapped.game
        while self.recorded < len(game.inputs) + len(talk):  # the remarks not recorded yet
            seat, _, text = talk[self.recorded - len(game.inputs)]
            self._record([seat + 1, "say", text])

    def _step(self, action: int) -> None:
        game = self.env.unwrapped.game
        seat = game.actor
        self.env.step(action)
        self.moves += 1
        self.last_active = time.monotonic()
        self._moved.set()
        self._record([seat + 1, int(action)])

    async def _bot_move(self, seat: int) -> int | None:
        """Return the bot's choice, computed off the event loop; the default if it fails;
        None if a call of the host changed the game meanwhile (the turn is looked at again).

        Its table talk is said first: a language model's own, else its speech acts in the
        table's words (`talk.voice`).
        """
        from mafia_env.table.bots import think

        policy = self.bots[seat]
        version = self._version
        self._thinking += 1
        try:
            move = await think(self.env, seat, policy)
        except Exception as e:  # a broken bot must not stop the table
            self._fault(f"failed ({type(e).__name__})", seat, e)
            move = self._default_move()
        finally:
            self._thinking -= 1
            self._take_calls()
        if self._version != version:
            return None
        if not _is_int(move) or move not in self.env.unwrapped.legal_actions():
            self._fault("illegal", seat, move)
            move = self._default_move()
        game = self.env.unwrapped.game
        before = len(game.talk)
        speak(self.env, seat, policy)  # a language model's table talk, in its speech
        self._voice(seat, int(move), talked=len(game.talk) > before)
        if len(game.talk) > before:
            self._record_talk()
        return int(move)

    def _voice(self, seat: int, move: int, talked: bool) -> None:
        """Gather a bot's speech acts; as its speech ends, say them as one remark of table
        talk in the table's language (`talk.voice`), unless it talked in this speech."""
        u = self.env.unwrapped
        game = u.game
        if not self.config.bot_talk or not u.may_talk(u.possible_agents[seat]):
            return
        key = (seat, game.day, int(game.turn))
        if self._speech is None or self._speech[0] != key:
            self._speech = (key, [])
        acts = self._speech[1]
        act, target, value = u.layout.decoded[move]
        if talked:
            acts.append((-1, -1, -1))  # it spoke for itself: nothing is said for it
        if act != Act.PASS:
            acts.append((int(act), int(target), int(value)))
        left = getattr(getattr(game, "speech", None), "acts_left", 2)
        if act != Act.PASS and left > 1:
            return  # the speech goes on
        self._speech = None
        if any(a < 0 for a, _, _ in acts):
            return
        rng = random.Random(f"{self.seed}:{len(game.events)}")
        text = voice(acts, self.config.lang, rng)
        if text:
            u.say(u.possible_agents[seat], text)

    def _fault(self, kind: str, seat: int, what: Any) -> None:
        """Log a bot's fault the first time its kind comes at this table; count the rest."""
        self._faults[kind] += 1
        if self._faults[kind] > 1:
            return
        if kind == "illegal":
            log.warning(
                "table %s: bot at seat %d chose illegal %r: the default move instead "
                "(counted from now on)",
                self.id,
                seat + 1,
                what,
            )
        else:
            log.error(
                "table %s: bot at seat %d failed: the default move instead (counted from now on)",
                self.id,
                seat + 1,
                exc_info=what,
            )

    def _report(self) -> None:
        """Log the bots' faults of the game, and each language model's stats (once)."""
        if self._reported:
            return
        self._reported = True
        if self._faults:
            words = {"illegal": "chose a move outside its mask"}
            parts = ", ".join(f"{words.get(k, k)} {c}" for k, c in sorted(self._faults.items()))
            total = sum(self._faults.values())
            log.warning("table %s: bot faults, %d times in this game: %s", self.id, total, parts)
        for seat, policy in sorted(self.bots.items()):
            stats = getattr(policy, "stats", None)
            if observes(policy) != "text" or not isinstance(stats, dict):
                continue
            name = getattr(policy, "name", type(policy).__name__)
            told = ", ".join(
                f"{k} {round(v, 2) if isinstance(v, float) else v}" for k, v in stats.items()
            )
            log.info("table %s: seat %d, model %r: %s", self.id, seat + 1, name, told)

    def _default_move(self) -> int:
        return default_action(self.env)  # the rules' move for a seat that does nothing

    def _open_turn(self, deadline: Any = _BY_THE_CLOCK) -> None:
        """Begin the acting seat's turn: a person may move from now on, and his clock runs
        (to `deadline`, by default his turn's time from now).

        Called before the turn is announced, so a move sent the moment the news arrives
        (while others are still being told) is taken.
        """
        game, timeout = self.env.unwrapped.game, self.config.turn_timeout
        self._moved.clear()
        self._turn = game.actor
        self._turn_version = self._version
        self._remarks = 0
        human = not game.over and game.actor in self.humans
        self._awaiting = game.actor if human else None
        if deadline is _BY_THE_CLOCK:
            deadline = self.clock.now() + timeout if timeout is not None else None
        self.deadline = deadline if human else None

    def _close_turn(self) -> None:
        """No turn is open (night falls: the table sleeps until a slot opens one)."""
        self._awaiting = None
        self.deadline = None

    async def _await_person(self) -> None:
        """Wait for the person whose turn is open, or his clock: then the default move."""
        left = None
        if self.deadline is not None:
            left = max(0.0, self.deadline - self.clock.now())
        try:
            await asyncio.wait_for(self._moved.wait(), left)
        except asyncio.TimeoutError:  # the turn ran out: the rule's default action
            if not self._moved.is_set():
                self._overrun()
        finally:
            self._awaiting = None

    def _overrun(self) -> None:
        """A person's turn ran out: a foul where the table counts an overrun speech as one
        (`TableConfig.overruns_foul`; a speech is public, so the foul tells nothing hidden),
        then the rule's default action (unless the foul removed him)."""
        game = self.env.unwrapped.game
        seat, turn = game.actor, game.turn
        if turn in SPEECH_TURNS and self.config.overruns_foul():
            self._call("foul", seat)
            if game.over or (game.turn, game.actor) != (turn, seat):
                return
        self._step(self._default_move())

    async def _take_turn(self, seat: int) -> None:
        """Let the bot at `seat` move, or wait for the person there (or his clock). A call
        of the host meanwhile ends the wait: the table looks at the game again."""
        if self._turn_version != self._version:
            return
        if seat in self.bots:
            await self.clock.sleep(self.config.bot_delay)
            if self._turn_version != self._version:
                return
            move = await self._bot_move(seat)
            if move is not None:
                self._step(move)
            return
        await self._await_person()

    def _fixed_slots(self) -> bool:
        """Return whether tonight every slot lasts a person's night turn: two or more people
        are alive, each of whom could time the other (point 6 of issue 49: whatever the host
        gave; a table of two people is refused a night turn of none, `check_night`)."""
        game = self.env.unwrapped.game
        return sum(1 for h in self.humans if game.alive[h]) >= 2

    def _nightfall(self) -> None:
        """Fix tonight's schedule as night falls (`night.NightPlan`): its slots, how long
        each lasts and when the night ends (told to every seat: a countdown to morning)."""
        game, clock = self.env.unwrapped.game, self.clock
        plan = NightPlan(game)
        fixed = self._fixed_slots()
        slot = self.config.bot_delay
        if fixed:
            turn = self.config.night_turn
            slot = max(slot, turn if turn is not None else NIGHT_TURN)
        began = clock.now()
        self._schedule = (plan, slot, began, fixed)
        self.night_end = began + plan.size * slot

    async def _night(self) -> None:
        """Play the night's turns, each in its slot (`night.NightPlan`), and wait for its
        end: its length, and when a person's turn opens, depend on the public rules alone.

        A bot thinks during its slot and moves at its end. A person's turn opens at the start
        of its slot; where slots are fixed he has until its end (then the default move),
        else his slot lasts as long as he takes, and the night waits for him.
        """
        game, clock = self.env.unwrapped.game, self.clock
        if self._schedule is None:
            self._nightfall()
        plan, slot, began, fixed = self._schedule
        timeout = self.config.turn_timeout
        shift, unknown = 0.0, False
        while not game.over and public_phase(game) == NIGHT:
            seat, turn = game.actor, game.turn
            try:
                k = plan.slot(turn, seat)
            except KeyError:  # a night turn the plan does not know: taken at once
                if not unknown:
                    log.warning("table %s: night turn %r has no slot", self.id, turn)
                unknown = True
                k = None
            start = clock.now() if k is None else began + shift + k * slot
            end = start + slot
            await clock.sleep_until(start)
            if seat in self.bots:
                thinking = asyncio.ensure_future(self._bot_move(seat))
                try:
                    await clock.sleep_until(end)
                    move = await thinking
                finally:
                    thinking.cancel()
                if move is None or (game.turn, game.actor) != (turn, seat):
                    continue  # a call of the host changed the night: look again
                self._step(move)
            else:
                now = clock.now()
                if fixed:
                    deadline = end if timeout is None else min(end, now + timeout)
                else:
                    deadline = None if timeout is None else now + timeout
                self._open_turn(deadline)
                await self.send_state(seat)  # his turn: only he hears of it
                await self._await_person()
                if not game.over and public_phase(game) == NIGHT:
                    await self.send_state(seat)  # what his move showed him (the morning
                    # waits for the night's end: he is told with everyone then)
            if game.over or (game.turn, game.actor) == (turn, seat):
                continue  # the same turn goes on (a don introduces himself, then shoots)
            overrun = clock.now() - end
            if overrun > 0 and not fixed:
                shift += overrun  # a lone person's own time (or a slow bot): later slots wait
            else:
                await clock.sleep_until(end)
        await clock.sleep_until(began + shift + plan.size * slot)
        self._schedule, self.night_end = None, None

    async def run(self) -> None:
        """Play the game to its end, then save the record and close the connections."""
        await self._all_joined.wait()
        game = self.env.unwrapped.game
        told: int | None = None  # the night everyone was told has fallen
        try:
            if public_phase(game) != NIGHT:
                self._open_turn()
                await self.broadcast()
            while not game.over:
                if self.stopped:  # a cancel that asyncio.wait_for (3.11) let through
                    raise asyncio.CancelledError
                if public_phase(game) == NIGHT:
                    if told != game.day:  # night falls: everyone is told, once
                        told = game.day
                        self._close_turn()
                        self._nightfall()
                        await self.broadcast()
                        continue
                    await self._night()
                else:
                    # (a person's move may have come while his turn was being announced)
                    await self._take_turn(self._turn)
                if not game.over and public_phase(game) != NIGHT:
                    self._open_turn()
                    await self.broadcast()
        finally:
            self._report()
        self._close_turn()
        record = self.save_record()
        await self.broadcast()
        if self.on_end is not None:
            self.on_end(self, record)
        await self.close_all(1000, "the game is over")

    def stop(self) -> None:
        """Stop the game's task (the table expired, or the server stops)."""
        self.stopped = True
        if self.task is not None:
            self.task.cancel()

    def start(self) -> asyncio.Task:
        """Start the game's task on the running loop (once)."""
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self.run())
            self.task.add_done_callback(self._done)
        return self.task

    def _done(self, task: asyncio.Task) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s stopped", self.id, exc_info=task.exception())

    def record(self) -> dict[str, Any]:
        """Return the game's record so far, with the table's seats (`mafia_env.replay`)."""
        record = self.env.record()
        record["table"] = {
            "id": self.id,
            "humans": sorted(h + 1 for h in self.humans),
            "bots": {str(s + 1): name for s, name in sorted(self.bot_names.items())},
        }
        return record

    def save_record(self) -> dict[str, Any]:
        """Return the game's record; write it to `records_dir/<table>.json` if there is one."""
        record = self.record()
        if self.records_dir is not None:
            self.records_dir.mkdir(parents=True, exist_ok=True)
            self.record_path = self.records_dir / f"table-{self.id}.json"
            self.record_path.write_text(json.dumps(record, indent=1), encoding="utf-8")
        return record

    def links(self, base: str = "", lang: str | None = None) -> dict[str, Any]:
        """Return the join link of every person's seat and the host's watch link (in the
        host's language `lang`, if given: a link opens the page in it)."""
        tail = "" if lang is None else f"&lang={lang}"
        return {
            "table": self.id,
            "seats": {
                str(s + 1): f"{base}/?table={self.id}&seat={s + 1}&token={t}{tail}"
                for s, t in sorted(self.tokens.items())
            },
            "watch": f"{base}/?table={self.id}&seat=watch&token={self.host_token}{tail}",
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
