"""Games that survive a restart of the server, and finished tables that leave its memory."""

from __future__ import annotations

import gc
import json
import random
import signal
import socket
import subprocess
import sys
import time
import weakref
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("httpx")
import httpx
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import mafia_env
from mafia_env.table.database import Store
from mafia_env.table.server import create_app

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, tmp: Path) -> subprocess.Popen:
    """Run `python -m mafia_env.table` on a port, its tables in tmp/tables.sqlite3."""
    cmd = [sys.executable, "-m", "mafia_env.table", "--port", str(port)]
    cmd += ["--db", str(tmp / "tables.sqlite3"), "--records", str(tmp / "records")]
    cmd += ["--bot-delay", "0", "--turn-timeout", "0"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    for _ in range(200):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/options", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"the server did not start: {proc.stdout.read().decode()}")


class Seat:
    """A person at one seat over a real WebSocket: keeps the moderator's log as the page does."""

    def __init__(self, url: str):
        from websockets.sync.client import connect

        self.ws = connect(url, open_timeout=10, legacy=True)  # closed by the server's end
        self.log: list[str] = []

    def state(self) -> dict:
        while True:
            msg = json.loads(self.ws.recv(timeout=20))
            if msg["type"] != "state":
                continue
            if msg["log_from"] == 0:
                self.log = []
            assert msg["log_from"] == len(self.log)
            self.log += [line["text"] for line in msg["log"]]
            return msg

    def my_turn(self) -> dict:
        """Return the next state in which this seat acts (or the game's end)."""
        while True:
            s = self.state()
            if (s["your_turn"] and s["actions"]) or s["phase"] == "over":
                return s


def moves_of(state: dict) -> list[tuple[str, int, str]]:
    return [(g["title"], a["id"], a["text"]) for g in state["actions"] for a in g["actions"]]


def test_kill_the_server_mid_game_restart_and_reconnect(tmp_path):
    port = free_port()
    server = start_server(port, tmp_path)
    base = f"http://127.0.0.1:{port}"
    try:
        # seat 3 is the don: the rule bots' mafia never shoots him; he only passes
        deal = ["civilian", "mafia", "don", "civilian", "sheriff", "civilian"]
        deal += ["mafia", "civilian", "civilian", "civilian"]
        body = {"variant": "sport", "humans": [3], "default_bot": "rule", "seed": 4}
        body["knobs"] = {"roles": deal}
        links = httpx.post(f"{base}/api/tables", json=body, timeout=30).json()
        url = f"ws://127.0.0.1:{port}/ws/{links['table']}?" + links["seats"]["3"].split("?")[1]
        url = url.replace(f"table={links['table']}&", "")
        rng = random.Random(1)
        me = Seat(url)
        before = me.my_turn()
        while before["day"] < 2:  # the person plays day 1, the bots play between his turns
            me.ws.send(json.dumps({"type": "act", "action": moves_of(before)[0][1]}))
            before = me.my_turn()
        # the game waits for the person now: nothing moves
        log_before = list(me.log)
        assert before["phase"] != "over" and len(log_before) > 30
    finally:
        server.send_signal(signal.SIGKILL)  # no goodbye: as a crash or a power cut
        server.wait(timeout=10)
    server = start_server(port, tmp_path)
    try:
        me = Seat(url)
        after = me.my_turn()
        assert me.log == log_before  # every line, again, from the first
        for key in ("you", "role", "day", "phase", "actor", "seats", "waiting_for", "started"):
            assert after[key] == before[key], key
        assert moves_of(after) == moves_of(before)  # the same legal moves, the same numbers
        # the host's watch link works too, and the game plays on to its end
        watch = f"ws://127.0.0.1:{port}/ws/{links['table']}?" + links["watch"].split("?")[1]
        Seat(watch.replace(f"table={links['table']}&", "")).state()
        s = after
        while s["phase"] != "over":
            me.ws.send(json.dumps({"type": "act", "action": rng.choice(moves_of(s))[1]}))
            s = me.my_turn()
        while not s["record"]:
            s = me.state()
        token = links["seats"]["3"].split("token=")[1]
        record = httpx.get(f"{base}/api/tables/{links['table']}/record?token={token}").json()
        assert mafia_env.replay(record).winner == s["winner"] is not None
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)
    rows = Store(tmp_path / "tables.sqlite3")
    row = rows.get(links["table"])
    assert row.state == "over" and row.record["winner"] == s["winner"]
    assert links["seats"]["3"].split("token=")[1] not in json.dumps(row.seat_hashes)


def test_every_move_is_stored_and_a_rebuilt_table_opens_with_the_same_links(tmp_path):
    db = tmp_path / "tables.sqlite3"
    with TestClient(create_app(records_dir=None, db=db)) as client:
        body = {"variant": "minimal", "humans": [1], "bot_delay": 0, "turn_timeout": None}
        links = client.post("/api/tables", json=body).json()
        token = links["seats"]["1"].split("token=")[1]
        url = f"/ws/{links['table']}?seat=1&token={token}"
        with client.websocket_connect(url) as ws:
            s = ws.receive_json()
            while not s["your_turn"] or not s["started"]:
                s = ws.receive_json()
            ws.send_json({"type": "act", "action": s["actions"][0]["actions"][0]["id"]})
            said = []
            while True:  # the bots play until the person's next turn
                s = ws.receive_json()
                said += [line["text"] for line in s["log"]]
                if s["your_turn"] and "Player 1 ends the speech." in said:
                    break
        live = client.app.state.tables.live[links["table"]]
        stored = Store(db).get(links["table"])
        assert stored.record["moves"] == live.env.record()["moves"] and stored.state == "open"
        assert stored.joined == {0}
    # a second server on the same file: the table is back, the person's link opens it
    with TestClient(create_app(records_dir=None, db=db)) as client:
        table = client.app.state.tables.live[links["table"]]
        assert table.env.record()["moves"] == stored.record["moves"]
        assert table.tokens == {} and table.started
        with client.websocket_connect(url) as ws:
            again = ws.receive_json()
            assert again["your_turn"] and again["actions"] == s["actions"]


def test_a_finished_table_leaves_memory_and_its_link_shows_the_end(tmp_path):
    with TestClient(create_app(records_dir=tmp_path)) as client:
        tables = client.app.state.tables
        body = {"variant": "minimal", "humans": [2], "bot_delay": 0, "turn_timeout": 0.01}
        links = client.post("/api/tables", json=body).json()
        token = links["seats"]["2"].split("token=")[1]
        url = f"/ws/{links['table']}?seat=2&token={token}"
        held = weakref.ref(tables.live[links["table"]])
        with client.websocket_connect(url) as ws:
            while True:  # the person never moves: the clock moves for him
                try:
                    end = ws.receive_json()
                except WebSocketDisconnect as closed:
                    assert closed.code == 1000  # the game is over: the server says goodbye
                    break
        assert end["phase"] == "over" and end["record"]
        assert tables.live == {} and tables.owners == {}
        gc.collect()
        assert held() is None  # nothing holds the finished table: its memory is free
        # a wrong key is refused before the finished game is rebuilt for it
        rebuilt = []
        finished = tables.finished
        tables.finished = lambda row: rebuilt.append(row) or finished(row)
        with client.websocket_connect(url.replace("token=", "token=x")) as ws:
            assert "wrong token for seat 2" in ws.receive_json()["message"]
        assert rebuilt == []
        # the link still shows how the game ended, then closes
        with client.websocket_connect(url) as ws:
            shown = ws.receive_json()
            assert shown["phase"] == "over" and shown["winner"] == end["winner"]
            assert shown["log_from"] == 0 and shown["log"][-1]["text"].endswith(".")
            assert shown["record"] == end["record"]
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()
        assert len(rebuilt) == 1
        r = client.get(f"/api/tables/{links['table']}/record", params={"token": token})
        assert r.status_code == 200 and r.json()["winner"] == end["winner"]
        assert tables.live == {}


def test_the_store_keeps_hashes_not_tokens(tmp_path):
    with TestClient(create_app(records_dir=None, db=tmp_path / "t.db")) as client:
        links = client.post("/api/tables", json={"variant": "minimal", "humans": [1, 2]}).json()
    text = (tmp_path / "t.db").read_bytes() + b"".join(
        p.read_bytes() for p in tmp_path.glob("t.db-*")
    )
    for link in [*links["seats"].values(), links["watch"]]:
        assert link.split("token=")[1].encode() not in text
