"""Nothing lost, nothing kept forever (issue 30, items 4 and 5): table talk survives a
restart; bots-only tables count against their address; records are kept under a limit."""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient

import mafia_env
from mafia_env.table.database import Store
from mafia_env.table.server import create_app
from mafia_env.table.tables import Limits
from tests.table.test_table import Player, ws_url
from tests.table.test_table_security import from_address

REMARKS = ["I am the sheriff, believe me.", "Seat 7 looks black to me."]


def said(text: str, seat: int = 1) -> str:
    return f'Player {seat} says: "{text}".'


def read_until(player: Player, cond) -> dict:
    """Read states (acting on none) until one satisfies `cond`; return it."""
    for _ in range(5000):
        msg = player.receive()
        if msg["type"] == "state" and cond(msg):
            return msg
    raise AssertionError("the awaited state did not come")


def test_table_talk_is_stored_and_replayed_after_a_restart(tmp_path):
    db, records = tmp_path / "tables.sqlite3", tmp_path / "records"
    body = {"variant": "sport", "humans": [1], "default_bot": "rule", "seed": 5}
    body |= {"bot_delay": 0, "turn_timeout": None, "bot_talk": False}  # the person's talk
    with TestClient(create_app(records_dir=records, db=db)) as client:
        links = client.post("/api/tables", json=body).json()
        token = links["seats"]["1"].split("token=")[1]
        with client.websocket_connect(ws_url(links["table"], 1, token)) as ws:
            me = Player(ws)
            first = read_until(me, lambda s: s["your_turn"])  # seat 1 opens day 1
            ws.send_json({"type": "say", "say": REMARKS[0]})  # a remark alone (Enter)
            again = read_until(me, lambda s: said(REMARKS[0]) in s["narration"])
            assert again["your_turn"]  # a remark is not a move: the speech goes on
            passing = first["actions"][0]["actions"][0]["id"]
            ws.send_json({"type": "act", "action": passing, "say": REMARKS[1]})
            read_until(me, lambda s: said(REMARKS[1]) in s["narration"] and s["your_turn"])
        stored = Store(db).get(links["table"]).record["moves"]
        assert [m for m in stored if m[1] == "say"] == [[1, "say", r] for r in REMARKS]
    # the server starts again: the talk is back in the seat's log and the host's
    with (
        TestClient(create_app(records_dir=records, db=db)) as client,
        client.websocket_connect(ws_url(links["table"], 1, token)) as ws,
    ):
        me = Player(ws)
        back = read_until(me, lambda s: True)
        assert [said(r) for r in REMARKS] == [x for x in back["narration"] if "says" in x]
        watch = links["watch"].split("token=")[1]
        with client.websocket_connect(ws_url(links["table"], "watch", watch)) as w:
            host = read_until(Player(w), lambda s: True)
            assert said(REMARKS[1]) in host["narration"]
        end = me.play()
    # and in the finished game's record, which replays with it
    record = json.loads((records / end["record"]).read_text())
    assert [m for m in record["moves"] if m[1] == "say"][:2] == [[1, "say", r] for r in REMARKS]
    assert [t for _, _, t in mafia_env.replay(record).game.talk][:2] == REMARKS
    assert said(REMARKS[0]) in end["narration"]


BOTS_ONLY = {"variant": "minimal", "humans": [], "default_bot": "random", "bot_delay": 0}


def test_bots_only_tables_count_against_their_address(tmp_path):
    limits = Limits(per_client=100, creates_per_window=5, create_window=60)
    with TestClient(create_app(records_dir=tmp_path, limits=limits)) as client:
        flood = from_address(client, "10.0.0.1")
        codes = []
        for _ in range(12):  # each table plays to its end at once and leaves memory
            codes.append(flood.post("/api/tables", json=BOTS_ONLY).status_code)
        assert codes == [200] * 5 + [429] * 7
        r = flood.post("/api/tables", json=BOTS_ONLY)
        assert "this address made 5 tables in the last 60 s (at most 5)" in r.json()["error"]
        newcomer = from_address(client, "10.0.0.2")
        assert newcomer.post("/api/tables", json=BOTS_ONLY).status_code == 200
        # the window moves on: an hour later the address may make tables again
        tables = client.app.state.tables
        tables.made["10.0.0.1"] = [t - 3600 for t in tables.made["10.0.0.1"]]
        again = from_address(client, "10.0.0.1")
        assert again.post("/api/tables", json=BOTS_ONLY).status_code == 200
    assert Limits().creates_per_window <= 30  # the default: the 82 of 82 in 10 s are refused


def wait_finished(store: Store, ids, seconds=30):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if all((row := store.get(i)) is not None and row.state == "over" for i in ids):
            return
        time.sleep(0.05)
    raise AssertionError("the bots-only tables did not finish")


def test_finished_tables_are_kept_under_the_operators_retention_limit(tmp_path):
    db, records = tmp_path / "t.sqlite3", tmp_path / "records"
    limits = Limits(keep_records=3)
    with TestClient(create_app(records_dir=records, db=db, limits=limits)) as client:
        tables = client.app.state.tables
        ids = []
        for _ in range(5):  # each finished before the next: they end in the order made
            ids.append(client.post("/api/tables", json=BOTS_ONLY).json()["table"])
            wait_finished(tables.store, ids[-1:])  # (played at once, a shorter game ended
            time.sleep(0.02)  # first: a fresh clone once dropped the 3rd and kept the 2nd)
        assert len(list(records.glob("table-*.json"))) == 5
        gone = client.portal.call(tables.prune)
        assert sorted(gone) == sorted(ids[:2])
        assert [tables.store.get(i) is None for i in ids] == [True, True, False, False, False]
        assert sorted(p.name for p in records.glob("table-*.json")) == sorted(
            f"table-{i}.json" for i in ids[2:]
        )
        r = client.get(f"/api/tables/{ids[0]}/record", params={"token": "x"})
        assert r.status_code == 404
        # and by age: a record older than keep_days goes too
        tables.limits = Limits(keep_records=100, keep_days=1)
        older = "UPDATE tables SET updated = updated - 2 * 86400 WHERE id = ?"
        tables.store.db.execute(older, (ids[2],))
        assert client.portal.call(tables.prune) == [ids[2]]
    assert Limits().keep_records is not None and Limits().keep_days is not None
