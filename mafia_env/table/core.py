"""A table where people and bots play one game: seats, secret tokens, bots and turn timers.

`Table` knows nothing of HTTP: the server hands it a callback per connected seat and passes
on what the seat sent. The game runs in one asyncio task (`Table.run`): a bot acts after
`bot_delay` seconds, a person's turn that runs past `turn_timeout` takes the rule's default
action (`Game.default_action`). Every message a seat receives is built by
`view.seat_view`, so a seat is only ever told what it may know.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mafia_env
from mafia_env.errors import ConfigError, MafiaError
from mafia_env.table.view import NIGHT, languages, public_phase, seat_view

log = logging.getLogger(__name__)
Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(frozen=True)
class TableConfig:
    """What the host chose: the rules, who sits where, and the pace of the game."""

    variant: str = "sport"
    num_players: int | None = None  # None: the variant's default
    humans: tuple[int, ...] = (1,)  # seats (1-based) for people
    bots: dict[int, str] = field(default_factory=dict)  # seat -> policy name; default below
    default_bot: str = "random"  # any name or path `baselines.load_policy` accepts
    seed: int | None = None
    bot_delay: float = 1.0  # seconds a bot waits before it acts, so people can follow
    turn_timeout: float | None = 60.0  # seconds a person may think; None: no limit
    knobs: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Any) -> TableConfig:
        """Build a config from the host's JSON form; a bad field is a ConfigError."""
        if not isinstance(data, dict):
            raise ConfigError("a table config must be a JSON object")
        allowed = set(cls.__dataclass_fields__)
        unknown = set(data) - allowed
        if unknown:
            raise ConfigError(f"unknown table fields {sorted(unknown)}; fields: {sorted(allowed)}")
        d = dict(data)
        if "humans" in d:
            if not isinstance(d["humans"], list) or not all(_is_int(h) for h in d["humans"]):
                raise ConfigError(f"humans must be a list of seat numbers; got {d['humans']!r}")
            d["humans"] = tuple(d["humans"])
        if "bots" in d:
            bots = d["bots"]
            if not isinstance(bots, dict) or not all(isinstance(v, str) for v in bots.values()):
                raise ConfigError(f"bots must map seat numbers to policy names; got {bots!r}")
            try:
                d["bots"] = {int(k): v for k, v in bots.items()}
            except ValueError:
                raise ConfigError(f"bots keys must be seat numbers; got {list(bots)}") from None
        for key in ("bot_delay", "turn_timeout"):
            v = d.get(key, 0.0)
            if v is not None and (not isinstance(v, int | float) or isinstance(v, bool) or v < 0):
                raise ConfigError(f"{key} must be a non-negative number of seconds; got {v!r}")
        for key in ("num_players", "seed"):
            if d.get(key) is not None and not _is_int(d[key]):
                raise ConfigError(f"{key} must be an integer; got {d[key]!r}")
        if not isinstance(d.get("variant", "sport"), str):
            raise ConfigError("variant must be a variant name")
        if not isinstance(d.get("knobs", {}), dict):
            raise ConfigError("knobs must map knob names to values")
        return cls(**d)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


class TableError(MafiaError):
    """A message a seat sent cannot be carried out (out of turn, illegal, malformed)."""


class Table:
    """One game with people in some seats and bots in the others."""

    def __init__(
        self, config: TableConfig, table_id: str | None = None, records_dir: Path | None = None
    ):
        from baselines import load_policy  # the agents package; imported only by the table

        self.config = config
        self.id = table_id or secrets.token_hex(4)
        self.env = mafia_env.env(config.variant, config.num_players, **config.knobs)
        n = self.n = self.env.n
        bad = [h for h in config.humans if not 1 <= h <= n]
        if bad or len(set(config.humans)) != len(config.humans):
            raise ConfigError(f"human seats must be distinct seats 1..{n}; got {config.humans}")
        wrong = [s for s in config.bots if not 1 <= s <= n or s in config.humans]
        if wrong:
            raise ConfigError(f"bots are for seats 1..{n} that no person takes; got {wrong}")
        self.humans = frozenset(h - 1 for h in config.humans)
        seed = config.seed if config.seed is not None else secrets.randbits(31)
        self.seed = seed
        self.bots = {
            s: load_policy(
                config.bots.get(s + 1, config.default_bot), config.variant, n, seed=seed + s
            )
            for s in range(n)
            if s not in self.humans
        }
        self.bot_names = {s: config.bots.get(s + 1, config.default_bot) for s in self.bots}
        # secrets.compare_digest is used to check tokens, so timing says nothing of them
        self.tokens = {s: secrets.token_urlsafe(18) for s in self.humans}
        self.host_token = secrets.token_urlsafe(18)
        self.langs = dict.fromkeys(self.humans, "en")
        self.conns: dict[int | None, dict[int, Send]] = {}
        self.joined: set[int] = set()
        self.records_dir = records_dir
        self.record_path: Path | None = None
        self.moves = 0
        self.deadline: float | None = None  # loop time when the acting person's turn ends
        self._moved = asyncio.Event()
        self._awaiting: int | None = None  # the person's seat whose move the game awaits
        self._all_joined = asyncio.Event()
        if not self.humans:
            self._all_joined.set()
        self._next_conn = 0
        self.env.reset(seed=seed)
        # the most turns a night can have: every black player shoots, then the checks
        self.night_turns = len(self.env.unwrapped.game.mafia_seats()) + 2
        self.task: asyncio.Task | None = None

    # ------------------------------------------------------------- seats

    def seat_of(self, seat: Any, token: Any) -> int | None:
        """Return the 0-based seat a (seat, token) pair opens; None means the host's view."""
        if not isinstance(token, str):
            raise TableError("a token is needed to sit at this table")
        if seat in (None, "", "watch"):
            if secrets.compare_digest(token, self.host_token):
                return None
            raise TableError("wrong token for watching this table")
        try:
            s = int(seat) - 1
        except (TypeError, ValueError):
            raise TableError(f"seat must be a seat number 1..{self.n}; got {seat!r}") from None
        if s not in self.tokens or not secrets.compare_digest(token, self.tokens[s]):
            raise TableError(f"wrong token for seat {seat}")
        return s

    def connect(self, seat: int | None, send: Send, lang: str = "en") -> int:
        """Attach a connection to a seat; return its id. A seat may come back at any time."""
        if lang not in languages():
            raise TableError(f"language {lang!r} is not offered; languages: {languages()}")
        if seat is not None:
            self.langs[seat] = lang
            self.joined.add(seat)
            if self.joined >= self.humans:
                self._all_joined.set()
        self._next_conn += 1
        self.conns.setdefault(seat, {})[self._next_conn] = send
        return self._next_conn

    def disconnect(self, seat: int | None, conn: int) -> None:
        self.conns.get(seat, {}).pop(conn, None)

    def view(self, seat: int | None) -> dict[str, Any]:
        """Return the state message for one seat (None: the host's public view)."""
        lang = "en" if seat is None else self.langs.get(seat, "en")
        v = seat_view(self.env, seat, lang)
        v["type"] = "state"
        v["table"] = self.id
        v["started"] = self._all_joined.is_set()
        if not v["started"]:  # nobody moves before every person has sat down
            v["your_turn"], v["actions"] = False, []
        v["waiting_for"] = sorted(h + 1 for h in self.humans - self.joined)
        v["players"] = [
            {
                "seat": s + 1,
                "kind": "person" if s in self.humans else "bot",
                "bot": self.bot_names.get(s),
            }
            for s in range(self.n)
        ]
        for card, p in zip(v["seats"], v["players"], strict=True):
            card.update(p)
        del v["players"]
        # the clock of a person's turn: shown to everyone in a public turn, else to him only
        left = None
        if self.deadline is not None and (v["actor"] is not None or v["your_turn"]):
            left = max(0.0, round(self.deadline - asyncio.get_running_loop().time(), 1))
        v["time_left"] = left
        v["record"] = self.record_path.name if self.record_path else None
        return v

    async def send_state(self, seat: int | None) -> None:
        """Send the current state to every connection of one seat."""
        conns = self.conns.get(seat, {})
        if not conns:
            return
        msg = self.view(seat)
        for cid, send in list(conns.items()):
            try:
                await send(msg)
            except Exception:  # a closed socket: forget it, the table goes on
                conns.pop(cid, None)

    async def broadcast(self) -> None:
        for seat in list(self.conns):
            await self.send_state(seat)

    # ------------------------------------------------------------- moves

    def submit(self, seat: int, action: Any, say: Any = None) -> None:
        """Carry out `seat`'s action index, after its table talk `say` (in a speech); raise
        TableError if it may not take it now."""
        game = self.env.unwrapped.game
        if game.over:
            raise TableError("the game is over")
        if not self._all_joined.is_set():
            raise TableError("the game has not started: not every person has joined")
        if game.actor != seat or self._awaiting != seat:
            raise TableError("it is not your turn")
        if not _is_int(action):
            raise TableError(f"action must be an action number; got {action!r}")
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
        self.env.step(action)
        self.moves += 1
        self._moved.set()

    def _bot_move(self, seat: int) -> int:
        obs = self.env.observe(self.env.possible_agents[seat])
        return int(self.bots[seat].act(obs["observation"], obs["action_mask"]))

    def _default_move(self) -> int:
        u = self.env.unwrapped
        act, target, value = u.game.default_action()
        return u.layout.encode(act, target, value)

    def _arm(self) -> None:
        """Start the clock of the acting seat's turn if a person acts (and timers are on)."""
        game, timeout = self.env.unwrapped.game, self.config.turn_timeout
        human = not game.over and game.actor in self.humans
        loop = asyncio.get_running_loop()
        self.deadline = loop.time() + timeout if human and timeout is not None else None

    async def run(self) -> None:
        """Play the game to its end, then save the record."""
        await self._all_joined.wait()
        loop = asyncio.get_running_loop()
        game = self.env.unwrapped.game
        self._arm()
        await self.broadcast()
        night_began: float | None = None
        while not game.over:
            seat, moves = game.actor, self.moves
            self._moved.clear()
            if seat in self.bots:
                await asyncio.sleep(self.config.bot_delay)
                if self.moves == moves and not game.over:
                    try:
                        move = self._bot_move(seat)
                    except Exception:  # a broken bot must not stop the table
                        log.exception("table %s: bot at seat %d failed", self.id, seat + 1)
                        move = self._default_move()
                    if move not in self.env.unwrapped.legal_actions():
                        log.warning(
                            "table %s: bot at seat %d chose illegal %r", self.id, seat + 1, move
                        )
                        move = self._default_move()
                    self._step(move)
            else:
                left = None if self.deadline is None else max(0.0, self.deadline - loop.time())
                self._awaiting = seat
                try:
                    await asyncio.wait_for(self._moved.wait(), left)
                except asyncio.TimeoutError:  # the turn ran out: the rule's default action
                    if self.moves == moves and not game.over:
                        self._step(self._default_move())
                finally:
                    self._awaiting = None
            if public_phase(game) == NIGHT and night_began is not None:
                # the table sleeps: only the player who acted and the next one hear of it,
                # so nobody can count the night's turns from the messages he gets
                self._arm()
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
            self._arm()
            await self.broadcast()
        self.save_record()
        await self.broadcast()

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


__all__ = ["Table", "TableConfig", "TableError"]
