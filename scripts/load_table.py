"""Load the table server: many games at once, two scripted people each, bots in the rest.

    python scripts/load_table.py [--games 20] [--bots ppo] [--bot-delay 0.05]
                                 [--night-turn 1] [--out FILE]

It starts ``python -m mafia_env.table`` on a free port of 127.0.0.1 (loopback only, a fresh
SQLite file in a temporary folder), creates the tables at once, and plays every person's
seat over a WebSocket with random moves (mostly "pass", so games move on). It measures:

- connections that failed: a WebSocket that did not open, or closed before its game ended;
- move-to-state latency: from a person's move to the state the server answers it with, p50, p95
  and max; a move that ends a night is counted apart (the night keeps its schedule on
  purpose, so its length tells nothing: with two people at a table each night turn lasts
  `--night-turn` seconds, see `mafia_env.table.night_plan`);
- the server's resident memory (VmRSS) at the start, once the first tables are made (the
  models loaded: torch alone is some 200 MB), at the peak, and after each round of games
  has ended (`--rounds`: the same games again, so a leak would show as growth).

Everything is bounded: `--timeout` seconds in all, then the server is stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # loopback only, whatever the arguments


def rss_mb(pid: int) -> float:
    """Return the resident memory of a process in MB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Person:
    """A scripted person at one seat: plays random legal moves, times each answer."""

    def __init__(self, url: str, rng: random.Random):
        self.url, self.rng = url, rng
        self.latencies: list[float] = []  # seconds from a move to the state that shows it
        self.night_ends: list[float] = []  # the same, for moves after which morning came
        self.failed = ""  # why the connection failed, if it did
        self.moves = 0

    async def play(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        try:
            async with connect(self.url, open_timeout=10, max_size=2**22) as ws:
                await self._play(ws)
        except ConnectionClosed as e:
            if e.rcvd is None or e.rcvd.code != 1000:
                self.failed = f"closed: {e}"
        except (OSError, TimeoutError) as e:
            self.failed = f"could not connect: {e!r}"

    async def _play(self, ws) -> None:
        sent_at, phase_then = None, None
        async for raw in ws:
            msg = json.loads(raw)
            if msg["type"] == "error":
                self.failed = f"refused: {msg['message']}"
                continue
            if sent_at is not None:  # the server answers a move with the state after it
                took = time.perf_counter() - sent_at
                night_end = phase_then == "night" and msg["phase"] != "night"
                (self.night_ends if night_end else self.latencies).append(took)
                sent_at = None
            if msg["phase"] == "over":
                continue  # the server closes the socket (1000) once it has sent the end
            if msg["your_turn"] and msg["actions"]:
                await ws.send(json.dumps({"type": "act", "action": self.choose(msg)}))
                sent_at, phase_then = time.perf_counter(), msg["phase"]
                self.moves += 1

    def choose(self, state: dict) -> int:
        groups = state["actions"]
        passing = [g for g in groups if g["kind"] == "pass"]
        if passing and self.rng.random() < 0.7:
            return passing[0]["actions"][0]["id"]
        return self.rng.choice([a["id"] for g in groups for a in g["actions"]])


async def run_games(args, base: str, pid: int, memory: dict, round_: int) -> list[Person]:
    import httpx

    body = {
        "variant": args.variant,
        "humans": [1, 6],
        "default_bot": args.bots,
        "bot_delay": args.bot_delay,
        "turn_timeout": 30,
        "night_turn": args.night_turn,
    }
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        made = await asyncio.gather(
            *(
                http.post("/api/tables", json={**body, "seed": round_ * args.games + g})
                for g in range(args.games)
            )
        )
    for r in made:
        if r.status_code != 200:
            raise SystemExit(f"a table was refused: {r.status_code} {r.text}")
    memory.setdefault("tables made", rss_mb(pid))  # the models are loaded now
    people = []
    for g, r in enumerate(made):
        links = r.json()
        for seat, link in links["seats"].items():
            query = link.split("?", 1)[1]
            url = f"ws://{HOST}:{args.port}/ws/{links['table']}?{query}"
            people.append(Person(url, random.Random(g * 100 + int(seat))))
    await asyncio.gather(*(p.play() for p in people))
    return people


async def watch_memory(pid: int, memory: dict, stop: asyncio.Event) -> None:
    while not stop.is_set():
        memory["peak"] = max(memory.get("peak", 0.0), rss_mb(pid))
        await asyncio.sleep(0.1)


async def main_async(args, server: subprocess.Popen) -> dict:
    base = f"http://{HOST}:{args.port}"
    memory = {"start": rss_mb(server.pid)}
    stop = asyncio.Event()
    watcher = asyncio.ensure_future(watch_memory(server.pid, memory, stop))
    start = time.perf_counter()
    people: list[Person] = []
    for r in range(args.rounds):  # the same load again: memory must not grow with it
        people += await asyncio.wait_for(
            run_games(args, base, server.pid, memory, r), args.timeout / args.rounds
        )
        await asyncio.sleep(args.settle)  # the server drops the finished tables
        memory[f"after round {r + 1}"] = rss_mb(server.pid)
    took = time.perf_counter() - start
    stop.set()
    await watcher
    lat = sorted(x for p in people for x in p.latencies)
    nights = sorted(x for p in people for x in p.night_ends)
    q = statistics.quantiles(lat, n=100) if len(lat) > 1 else [float("nan")] * 99
    return {
        "games": args.games,
        "rounds": args.rounds,
        "people": len(people),
        "bots": args.bots,
        "bot_delay": args.bot_delay,
        "night_turn": args.night_turn,
        "seconds": round(took, 1),
        "failed_connections": sum(1 for p in people if p.failed),
        "failures": sorted({p.failed for p in people if p.failed}),
        "moves": sum(p.moves for p in people),
        "latency_ms": {
            "p50": round(q[49] * 1000, 1),
            "p95": round(q[94] * 1000, 1),
            "max": round(lat[-1] * 1000, 1) if lat else None,
            "moves": len(lat),
        },
        "night_end_ms": {
            "moves": len(nights),
            "p50": round(statistics.median(nights) * 1000, 1) if nights else None,
            "max": round(nights[-1] * 1000, 1) if nights else None,
        },
        "memory_mb": {k: round(v, 1) for k, v in memory.items()},
    }


def start_server(args, folder: Path) -> subprocess.Popen:
    import httpx

    cmd = [sys.executable, "-m", "mafia_env.table", "--host", HOST, "--port", str(args.port)]
    cmd += ["--db", str(folder / "tables.sqlite3"), "--records", str(folder / "records")]
    cmd += ["--tables-per-client", str(args.games), "--max-tables", str(args.games)]
    cmd += ["--creates-per-client", str(args.games * args.rounds + 1)]
    server = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(300):
        try:
            httpx.get(f"http://{HOST}:{args.port}/api/options", timeout=1)
            return server
        except httpx.HTTPError:
            if server.poll() is not None:
                raise SystemExit(f"the server stopped: {server.stderr.read().decode()}") from None
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start in 30 s")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--variant", default="sport")
    p.add_argument("--bots", default="ppo", help="the bot in every seat but the people's")
    p.add_argument("--bot-delay", type=float, default=0.05, help="seconds a bot waits")
    p.add_argument(
        "--night-turn", type=float, default=1.0, help="seconds each night turn lasts (2 people)"
    )
    p.add_argument("--timeout", type=float, default=900, help="seconds for all the games")
    p.add_argument("--rounds", type=int, default=2, help="times to play all the games")
    p.add_argument("--settle", type=float, default=3, help="seconds to wait after a round")
    p.add_argument("--out", type=Path, default=None, help="write the numbers here (JSON)")
    args = p.parse_args(argv)
    args.port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(args, Path(tmp))
        try:
            result = asyncio.run(main_async(args, server))
        finally:
            server.terminate()
            server.wait(timeout=20)
    print(json.dumps(result, indent=1))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    lat = result["latency_ms"]
    ok = result["failed_connections"] == 0 and lat["p95"] < 50
    verdict = "ok" if ok else "NOT MET"
    print(f"{verdict}: failed {result['failed_connections']}, p95 {lat['p95']} ms")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
