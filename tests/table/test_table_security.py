"""The table on the internet: no file loads, no lock-outs, checked settings, sturdy sockets."""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
import threading
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
import httpx
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from baselines.shipped import SHIPPED, register_policy
from mafia_env.table.server import MAX_FRAME, create_app, uvicorn_config
from mafia_env.table.tables import Limits

BODY = {"variant": "minimal", "humans": [1], "bot_delay": 0, "turn_timeout": None}


@pytest.fixture()
def client(tmp_path):
    with TestClient(create_app(records_dir=tmp_path)) as c:
        yield c


def evil_checkpoint(path, marker):
    """Write a torch file whose unpickling would create `marker` (code run from a file)."""
    torch = pytest.importorskip("torch")

    class Evil:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    torch.save({"format": "mafia-ppo-1", "payload": Evil()}, path)


# ------------------------------------------------------------------ 1. no file loads


def test_a_client_cannot_make_the_server_load_a_file(client, tmp_path):
    marker = tmp_path / "ran"
    evil_checkpoint(tmp_path / "evil.pt", marker)
    (tmp_path / "profile").write_text("# a shell profile\nexport X=1\n")
    errors = []
    for name in [str(tmp_path / "evil.pt"), str(tmp_path / "profile"), str(tmp_path), "/nope.pt"]:
        for body in ({"default_bot": name}, {"bots": {"2": name}}):
            r = client.post("/api/tables", json={**BODY, **body})
            assert r.status_code == 400, r.text
            errors.append(r.json()["error"])
    assert not marker.exists()
    for error in errors:  # the same answer whatever is (or is not) at the path
        assert error.startswith("unknown policy") and "seats only the bots random" in error
        for fact in ("load key", "directory", "No such file", "Errno", "Permission"):
            assert fact not in error


def test_load_policy_reads_checkpoints_weights_only(tmp_path):
    from baselines import load_policy
    from mafia_env.errors import ConfigError

    marker = tmp_path / "ran"
    evil_checkpoint(tmp_path / "evil.pt", marker)
    with pytest.raises(ConfigError, match="not a weights-only file") as e:
        load_policy(tmp_path / "evil.pt", "sport")
    assert "it holds io.open" in str(e.value) and "save_checkpoint" in str(e.value)
    assert not marker.exists()
    # a checkpoint saved by baselines.ppo loads as before
    assert load_policy(SHIPPED / "minimal.pt", "minimal").act is not None


def test_an_operator_folder_offers_checkpoints_by_file_name(tmp_path):
    pytest.importorskip("torch")
    bots = tmp_path / "bots"
    bots.mkdir()
    shutil.copy(SHIPPED / "minimal.pt", bots / "mine.pt")
    evil_checkpoint(bots / "evil.pt", tmp_path / "ran")
    (tmp_path / "outside.pt").write_bytes((bots / "mine.pt").read_bytes())
    with TestClient(create_app(records_dir=None, bot_dir=bots)) as c:
        # issue 30 item 9: a file that does not load is not offered (evil.pt was, before)
        assert c.get("/api/options").json()["bots"][-1:] == ["mine.pt"]
        r = c.post("/api/tables", json={**BODY, "default_bot": "mine.pt", "seed": 1})
        assert r.status_code == 200, r.text
        r = c.post("/api/tables", json={**BODY, "default_bot": "evil.pt"})
        assert r.status_code == 400
        assert r.json()["error"].startswith("unknown policy 'evil.pt'")
        assert str(bots) not in r.json()["error"]
        for name in ["../outside.pt", str(tmp_path / "outside.pt"), "bots/mine.pt"]:
            r = c.post("/api/tables", json={**BODY, "default_bot": name})
            assert r.status_code == 400 and r.json()["error"].startswith("unknown policy")
    assert not (tmp_path / "ran").exists()


# ------------------------------------------------------------------ 2. no lock-outs


def from_address(client, host):
    """Make the test client's next requests come from `host` (one server, one event loop)."""
    client._transport.client = (host, 50000)
    return client


def test_a_flood_from_one_address_locks_nobody_else_out(client):
    flood = from_address(client, "10.0.0.1")
    codes = [flood.post("/api/tables", json=BODY).status_code for _ in range(200)]
    assert codes[:10] == [200] * 10 and set(codes[10:]) == {429}
    r = flood.post("/api/tables", json=BODY)
    assert "already has 10 unfinished tables (at most 10)" in r.json()["error"]
    newcomer = from_address(client, "10.0.0.2")
    assert newcomer.post("/api/tables", json=BODY).status_code == 200


def test_a_full_server_makes_room_with_the_oldest_table_nobody_joined():
    app = create_app(records_dir=None, limits=Limits(max_tables=5, per_client=100))
    tables = app.state.tables
    with TestClient(app) as client:
        flood = from_address(client, "10.0.0.1")
        made = [flood.post("/api/tables", json=BODY).json() for _ in range(5)]
        # a person sits at the first table: it is in play, and never given up
        token = made[0]["seats"]["1"].split("token=")[1]
        with client.websocket_connect(f"/ws/{made[0]['table']}?seat=1&token={token}") as ws:
            assert ws.receive_json()["started"]
            newcomer = from_address(client, "10.0.0.2")
            assert newcomer.post("/api/tables", json=BODY).status_code == 200
            assert made[0]["table"] in tables.live and made[1]["table"] not in tables.live
            assert len(tables.live) == 5
            # the dropped table's link says so
            query = made[1]["seats"]["1"].split("?", 1)[1].split("&", 1)[1]
            with client.websocket_connect(f"/ws/{made[1]['table']}?{query}") as gone:
                assert "expired" in gone.receive_json()["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    gone.receive_json()
                assert closed.value.code == 4410
            # when every table is in play, a new one waits: the server says so
            for t in made[2:]:
                q = t["seats"]["1"].split("?", 1)[1].split("&", 1)[1]
                with client.websocket_connect(f"/ws/{t['table']}?{q}") as w:
                    w.receive_json()
            full = from_address(client, "10.0.0.3").post("/api/tables", json=BODY)
            assert len(tables.live) == 5
            assert sum(1 for t in tables.live.values() if not t.joined) == 1
            assert full.status_code == 200  # the newcomer's own unjoined table made room
            again = from_address(client, "10.0.0.4").post("/api/tables", json=BODY)
            assert again.status_code == 200


def test_unjoined_and_idle_tables_expire(client):
    tables = client.app.state.tables
    waiting = client.post("/api/tables", json=BODY).json()
    played = client.post("/api/tables", json=BODY).json()
    token = played["seats"]["1"].split("token=")[1]
    with client.websocket_connect(f"/ws/{played['table']}?seat=1&token={token}") as ws:
        assert ws.receive_json()["your_turn"]  # then the person walks away
    now = time.monotonic()
    lim = tables.limits
    assert client.portal.call(tables.sweep, now + 60) == []
    assert client.portal.call(tables.sweep, now + lim.join_timeout + 1) == [waiting["table"]]
    assert client.portal.call(tables.sweep, now + lim.idle_timeout + 1) == [played["table"]]
    assert tables.live == {}
    assert tables.store.get(played["table"]).state == "expired"
    r = client.get(f"/api/tables/{played['table']}/record", params={"token": token})
    assert r.status_code == 410 and "expired before its game ended" in r.json()["error"]


# ------------------------------------------------------------------ 3, 4. settings


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ('{"turn_timeout": Infinity}', "Infinity is not a number"),
        ('{"bot_delay": NaN}', "NaN is not a number"),
        ('{"bot_delay": -Infinity}', "-Infinity is not a number"),
        ('{"turn_timeout": 1e999}', "turn_timeout must be a number of seconds"),
        ('{"bot_delay": 61}', "bot_delay must be a number of seconds from 0 to 60"),
        ('{"bot_delay": "1"}', "bot_delay must be"),
        ('{"bot_delay": true}', "bot_delay must be"),
        ('{"turn_timeout": 0}', "from above 0 to 3600 (null: no limit)"),
        ('{"turn_timeout": 3601}', "turn_timeout must be"),
        ('{"seed": -1}', "seed must be an integer 0..4294967295"),
        ('{"seed": 1.5}', "seed must be"),
        ('{"num_players": 1000}', "supports 6 to 14 players"),
        ('{"num_players": "10"}', "num_players"),
        ('{"humans": [1, 1]}', "human seats must be distinct"),
        ('{"humans": [0]}', "human seats must be distinct seats 1..10"),
        ('{"bots": {"x": "random"}}', "bots keys must be seat numbers"),
        ('{"bots": {"2": 5}}', "bots must map seat numbers to bot names"),
        ('{"default_bot": ""}', "default_bot must be a bot's name"),
        ('{"variant": ["sport"]}', "variant must be one of city, club"),
        ("[1]", "a table config must be a JSON object"),
        ('{"knobs": {"render_mode": "human"}}', "are not rule knobs; a table may set"),
        ('{"knobs": {"lang": "ru"}}', "['lang'] are not rule knobs"),
        ('{"knobs": {"obs_mode": "text"}}', "are not rule knobs"),
        ('{"knobs": {"speech_acts": 0}}', "knob 'speech_acts' must be >= 1"),
        ('{"knobs": []}', "knobs must map knob names to values"),
    ],
)
def test_every_setting_is_checked_for_its_type_and_range(client, body, words):
    r = client.post("/api/tables", content=body)
    assert r.status_code == 400, (body, r.text)
    assert words in r.json()["error"], (body, r.json())


def test_a_rule_knob_is_taken_and_a_huge_body_is_not(client):
    r = client.post("/api/tables", json={**BODY, "knobs": {"speech_acts": 2}})
    assert r.status_code == 200
    table = client.app.state.tables.live[r.json()["table"]]
    assert table.env.unwrapped.rules.speech_acts == 2 and table.env.unwrapped.render_mode is None
    r = client.post("/api/tables", content=b'{"knobs": {"x": "' + b"y" * 100_000 + b'"}}')
    assert r.status_code == 400 and "a table config is smaller" in r.json()["error"]


# ------------------------------------------------------------------ 5, 6. sockets


def test_a_non_ascii_token_or_a_binary_frame_closes_with_a_reason(client):
    table = client.post("/api/tables", json=BODY).json()
    with client.websocket_connect(f"/ws/{table['table']}?seat=1&token=%C3%A9") as ws:
        assert ws.receive_json() == {
            "type": "error",
            "message": "wrong token for seat 1",
            "fatal": True,
        }
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403 and closed.value.reason == "wrong token for seat 1"
    token = table["seats"]["1"].split("token=")[1]
    with client.websocket_connect(f"/ws/{table['table']}?seat=1&token={token}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_bytes(b'{"type": "act", "action": 0}')
        msg = ws.receive_json()
        while msg["type"] == "state":  # the game's own news may come first
            msg = ws.receive_json()
        assert msg["fatal"] and "send JSON text frames, not binary ones" in msg["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1003


def test_a_seat_open_twice_goes_to_the_newest_window(client):
    table = client.post("/api/tables", json=BODY).json()
    url = f"/ws/{table['table']}?seat=1&token={table['seats']['1'].split('token=')[1]}"
    with client.websocket_connect(url) as old:
        assert old.receive_json()["your_turn"]  # the game begins: everyone is told
        with client.websocket_connect(url) as new:
            state = new.receive_json()
            assert state["your_turn"] and state["log_from"] == 0
            # the newest window plays on
            new.send_json({"type": "act", "action": state["actions"][0]["actions"][0]["id"]})
            assert new.receive_json()["type"] == "state"
            msg = old.receive_json()
            assert msg["type"] == "error" and msg["fatal"]
            assert "opened in another window" in msg["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                old.receive_json()
            assert closed.value.code == 4409


@pytest.fixture()
def served(tmp_path):
    """Serve the table with uvicorn, as `python -m mafia_env.table` does; yield its port."""
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


def test_a_huge_frame_is_refused_before_it_is_read(served):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    table = httpx.post(f"http://127.0.0.1:{served}/api/tables", json=BODY).json()
    token = table["seats"]["1"].split("token=")[1]
    url = f"ws://127.0.0.1:{served}/ws/{table['table']}?seat=1&token={token}"
    with connect(url, max_size=2**24) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        start = time.monotonic()
        with pytest.raises(ConnectionClosed) as closed:
            ws.send("x" * 8_000_000)
            for _ in range(5):  # the game's news that was already on its way, then the close
                ws.recv(timeout=10)
        assert closed.value.rcvd.code == 1009 and time.monotonic() - start < 5
    assert MAX_FRAME <= 65_536
    # the server goes on: the same seat opens again
    with connect(url) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"


# ------------------------------------------------------------------ 8. bots off the loop


@pytest.mark.serial  # it times the server's answers: alone on the machine, after the rest
def test_loading_and_running_bots_never_holds_up_the_server(tmp_path):
    class Slow:
        def __init__(self, **kwargs):
            time.sleep(0.3)  # a model being read

        def act(self, obs, mask):
            time.sleep(0.2)  # a model thinking
            return int(mask.nonzero()[0][0])

    register_policy("slow-for-test", Slow)
    app = create_app(records_dir=None)

    async def go():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            body = {**BODY, "variant": "sport", "humans": [], "default_bot": "slow-for-test"}
            creating = asyncio.ensure_future(c.post("/api/tables", json=body))
            await asyncio.sleep(0.05)
            waits = []
            for _ in range(10):  # the bots load (9 x 0.3 s), then think (0.2 s a move)
                start = time.monotonic()
                assert (await c.get("/api/options")).status_code == 200
                waits.append(time.monotonic() - start)
                await asyncio.sleep(0.25)
            assert (await creating).status_code == 200
            await app.state.tables.close()
            return waits

    try:
        waits = asyncio.run(go())
    finally:
        import mafia_env.seating.policies as policy

        policy._REGISTRY.pop("slow-for-test")
    assert max(waits) < 0.15, waits


def test_a_trained_bot_is_loaded_once_for_every_seat_and_table(client, monkeypatch):
    pytest.importorskip("torch")
    import baselines.ppo.checkpoint as ppo  # where load_policy("ppo") reads its file

    reads = []
    real = ppo.read_checkpoint

    def counted(*args, **kwargs):
        reads.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(ppo, "read_checkpoint", counted)
    for seed in range(3):
        body = {**BODY, "default_bot": "ppo", "seed": seed}
        assert client.post("/api/tables", json=body).status_code == 200
    assert len(reads) == 1
    bots = [b for t in client.app.state.tables.live.values() for b in t.bots.values()]
    assert len(bots) == 3 * 9 and len({id(b.agent) for b in bots}) == 1
    assert len({id(b.generator) for b in bots}) == 27  # each seat samples on its own
