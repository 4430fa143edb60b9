"""A hostile client gets clean answers (issue 30, items 6-10): deep JSON, huge URLs, crowds
of watchers, framing, symlinks and bad files in the bot folder, and a log that stays short."""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import threading
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from mafia_env.table.server import create_app, uvicorn_config
from mafia_env.table.tables import Limits
from tests.table.test_table import Player, ws_url

BODY = {"variant": "minimal", "humans": [1], "bot_delay": 0, "turn_timeout": None}
DEEP = "[" * 8000 + "]" * 8000


@pytest.fixture()
def client(tmp_path):
    with TestClient(create_app(records_dir=tmp_path), raise_server_exceptions=False) as c:
        yield c


def seat_url(links, seat=1):
    return ws_url(links["table"], seat, links["seats"][str(seat)].split("token=")[1])


# ------------------------------------------------------------------ 6. deep JSON


def test_deeply_nested_json_is_refused_cleanly(client, caplog):
    with caplog.at_level(logging.ERROR):
        r = client.post("/api/tables", content=DEEP)
        assert r.status_code == 400, r.text
        assert "nested too deeply" in r.json()["error"]
        links = client.post("/api/tables", json=BODY).json()
        with client.websocket_connect(seat_url(links)) as ws:
            me = Player(ws)
            me.play(until=lambda s: s["your_turn"])
            ws.send_text("[" * 2000 + "]" * 2000)  # under the message limit, but deep
            assert "nested too deeply" in me.until_error()
            ws.send_text(json.dumps({"type": "act", "action": [[[[[[1]]]]]]}))
            assert "action must be an action number" in me.until_error()
            end = me.play()  # the connection goes on, and the game
            assert end["winner"] is not None
    assert not [r for r in caplog.records if "Recursion" in r.getMessage() or r.exc_info]


# ------------------------------------------------------------------ 7. huge URLs


@pytest.fixture()
def served():
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn_config(create_app(records_dir=None), port=port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    yield port
    server.should_exit = True
    thread.join(timeout=5)


def raw_request(port: int, target: str, upgrade: bool = True, extra: str = "") -> bytes:
    head = f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}"
    if upgrade:
        head += (
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        )
    with socket.create_connection(("127.0.0.1", port), timeout=5) as c:
        c.sendall((head + "\r\n").encode())
        try:
            return c.recv(200)
        except TimeoutError:
            return b"(no answer in 5 s)"


@pytest.mark.parametrize("size", [9_000, 17_000, 60_000])
def test_a_websocket_upgrade_with_a_huge_url_is_answered_at_once(served, size):
    start = time.monotonic()
    answer = raw_request(served, f"/ws/abc?seat=1&token={'a' * size}")
    assert answer.startswith(b"HTTP/1.1 4"), answer
    assert time.monotonic() - start < 3
    header = raw_request(served, "/ws/abc?seat=1&token=a", extra=f"Cookie: {'c' * size}\r\n")
    assert header.startswith(b"HTTP/1.1 4"), header
    # the server goes on: a plain upgrade still opens
    assert raw_request(served, "/ws/abc?seat=1&token=x").startswith(b"HTTP/1.1 101")


# ------------------------------------------------------------------ 8. watchers


def test_watchers_of_a_table_are_capped():
    app = create_app(records_dir=None, limits=Limits(max_watchers=3))
    with TestClient(app) as client:
        links = client.post("/api/tables", json=BODY).json()
        watch = ws_url(links["table"], "watch", links["watch"].split("token=")[1])
        with (
            client.websocket_connect(watch) as a,
            client.websocket_connect(watch) as b,
            client.websocket_connect(watch) as c,
        ):
            for w in (a, b, c):
                assert w.receive_json()["type"] == "state"
            with client.websocket_connect(watch) as d:
                msg = d.receive_json()
                assert msg["fatal"] and "3 watchers already (at most 3)" in msg["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    d.receive_json()
                assert closed.value.code == 4429
            # a person's seat is never refused for the watchers
            with client.websocket_connect(seat_url(links)) as me:
                assert me.receive_json()["your_turn"]
        # a watcher who leaves makes room
        with client.websocket_connect(watch) as e:
            assert e.receive_json()["type"] == "state"
    assert Limits().max_watchers <= 100


# ------------------------------------------------------------------ 9. headers, bot folder


def test_every_answer_carries_the_security_headers(client):
    for path in ("/", "/static/app.js", "/api/options", "/api/words?lang=ru", "/nope"):
        r = client.get(path)
        h = r.headers
        assert h["x-content-type-options"] == "nosniff", path
        assert h["x-frame-options"] == "DENY", path
        csp = h["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, path
        assert h["referrer-policy"] == "no-referrer", path  # the links carry keys
    assert client.post("/api/tables", content=b"{").headers["x-frame-options"] == "DENY"


def test_the_bot_folder_offers_only_files_of_its_own_that_load(tmp_path):
    torch = pytest.importorskip("torch")
    from baselines.shipped import SHIPPED

    bots, outside = tmp_path / "bots", tmp_path / "outside"
    bots.mkdir()
    outside.mkdir()
    shutil.copy(SHIPPED / "minimal.pt", bots / "mine.pt")
    shutil.copy(SHIPPED / "minimal.pt", outside / "theirs.pt")
    os.symlink(outside / "theirs.pt", bots / "link.pt")  # a symlink out of the folder
    os.symlink(bots / "mine.pt", bots / "alias.pt")  # a symlink inside it is fine
    (bots / "broken.pt").write_bytes(b"not a checkpoint at all")
    torch.save({"format": "something else"}, bots / "other.pt")
    with TestClient(create_app(records_dir=None, bot_dir=bots)) as c:
        offered = c.get("/api/options").json()["bots"]
        assert [b for b in offered if b.endswith(".pt")] == ["alias.pt", "mine.pt"]
        for name in ("link.pt", "broken.pt", "other.pt"):
            r = c.post("/api/tables", json={**BODY, "default_bot": name})
            assert r.status_code == 400 and r.json()["error"].startswith("unknown policy"), name
        r = c.post("/api/tables", json={**BODY, "default_bot": "mine.pt", "seed": 1})
        assert r.status_code == 200, r.text
        # a listed file for another table: it says which table it plays
        r = c.post("/api/tables", json={**BODY, "variant": "sport", "default_bot": "mine.pt"})
        assert r.status_code == 400
        error = r.json()["error"]
        assert "bot 'mine.pt' plays minimal with 10 players, not sport with 10" in error
        # a file whose contents go bad after it was listed says so, not "trained for"
        (bots / "mine.pt").write_bytes(b"now garbage")
        r = c.post("/api/tables", json={**BODY, "default_bot": "alias.pt", "seed": 2})
        assert r.status_code == 400
        error = r.json()["error"]
        assert "bot 'alias.pt' cannot be read: it is not a checkpoint this server loads" in error
        assert "trained" not in error and str(bots) not in error
        assert "mine.pt" not in c.get("/api/options").json()["bots"]


# ------------------------------------------------------------------ 10. a short log


def test_a_broken_bot_logs_one_line_per_table_and_kind(client, caplog):
    import mafia_env.seating.policies as policy
    from baselines import register_policy

    class Broken:
        def __init__(self, **kwargs):
            self.calls = 0

        def act(self, obs, mask):
            self.calls += 1
            if self.calls % 2:
                raise RuntimeError("bot crashed")
            return 10**6  # not a legal action

    register_policy("broken-for-log-test", Broken)
    try:
        with caplog.at_level(logging.INFO, "mafia_env"):
            links = client.post(
                "/api/tables", json={**BODY, "default_bot": "broken-for-log-test"}
            ).json()
            with client.websocket_connect(seat_url(links)) as ws:
                end = Player(ws).play()
    finally:
        policy._REGISTRY.pop("broken-for-log-test")
    assert end["winner"] is not None
    mine = [r for r in caplog.records if links["table"] in r.getMessage()]
    tracebacks = [r for r in mine if r.exc_info]
    assert len(tracebacks) == 1 and "RuntimeError" in "".join(
        __import__("traceback").format_exception(*tracebacks[0].exc_info)
    )
    illegal = [r for r in mine if "illegal" in r.getMessage()]
    assert len(illegal) == 1, [r.getMessage() for r in illegal]
    summary = [r for r in mine if "times in this game" in r.getMessage()]
    assert summary, [r.getMessage() for r in mine]
    assert len(mine) <= 4, [r.getMessage() for r in mine]
