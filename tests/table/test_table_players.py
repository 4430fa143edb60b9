"""Every bot the table offers plays (issue 30, items 2 and 3): the search bot gets an
information set, and the operator's language models play by name from their text view."""

from __future__ import annotations

import json
import logging
import random
import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient

import mafia_env
from mafia_env.errors import ConfigError
from mafia_env.table.server import create_app
from tests.table.test_table import Player, ws_url


def play_bots_only(client, body):
    """Create a table of bots only and watch it to its end; return the last state."""
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    links = r.json()
    table = client.app.state.tables.live[links["table"]]
    token = links["watch"].split("token=")[1]
    with client.websocket_connect(ws_url(links["table"], "watch", token)) as ws:
        end = Player(ws).play(until=lambda s: s["phase"] == "over" and s["record"])
    return table, end


def test_the_search_bot_is_offered_and_plays_from_an_information_set(tmp_path, caplog):
    pytest.importorskip("baselines")
    with TestClient(create_app(records_dir=tmp_path)) as client:
        assert "ismcts" in client.get("/api/options").json()["bots"]
        body = {"variant": "minimal", "humans": [], "bots": {"2": "ismcts"}}
        body |= {"default_bot": "rule", "bot_delay": 0, "seed": 4}
        with caplog.at_level(logging.INFO, "mafia_env"):
            table, end = play_bots_only(client, body)
    assert end["winner"] is not None
    assert table.bots[1].searched > 0  # it searched, and played its own moves
    bad = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not bad, [r.getMessage() for r in bad]
    record = json.loads((tmp_path / end["record"]).read_text())
    assert mafia_env.replay(record).winner == end["winner"]


def chatty(messages, rng):
    """A model that picks a random legal action and always adds a remark."""
    from baselines.scripted_model import menu

    k = rng.randrange(len(menu(messages))) + 1
    return f"{k}. Say: I have watched everyone closely, friends.", 0.0


@pytest.fixture()
def chat():
    pytest.importorskip("openai")
    from baselines.scripted_model import ChatServer

    with ChatServer(chatty, seed=2) as server:
        yield server


def test_an_operators_model_plays_by_name_talks_and_logs_its_stats(tmp_path, chat, caplog):
    from mafia_env.table.bots import parse_llm

    house = parse_llm(f"house={chat.url},scripted-7b")
    with TestClient(create_app(records_dir=tmp_path, llms=[house])) as client:
        options = client.get("/api/options").json()
        assert "house" in options["bots"] and options["models"] == ["house"]
        assert chat.url not in json.dumps(options)  # the page never learns the URL
        # a client names the model, never a server: a URL or the loader's name is refused
        for name in (chat.url, "llm", "scripted-7b"):
            r = client.post("/api/tables", json={"bots": {"2": name}})
            assert r.status_code == 400 and "unknown policy" in r.json()["error"], name
        body = {"variant": "sport", "humans": [1], "bots": {"2": "house", "6": "house"}}
        body |= {"default_bot": "rule", "bot_delay": 0, "turn_timeout": None, "seed": 3}
        r = client.post("/api/tables", json=body)
        assert r.status_code == 200, r.text
        links = r.json()
        table = client.app.state.tables.live[links["table"]]
        models = [table.bots[1], table.bots[5]]
        assert {m.name for m in models} == {"house"} and models[0] is not models[1]
        token = links["seats"]["1"].split("token=")[1]
        with (
            caplog.at_level(logging.INFO, "mafia_env.table"),
            client.websocket_connect(ws_url(links["table"], 1, token)) as ws,
        ):
            end = Player(ws, random.Random(5)).play()
    # the model saw its text observation, in the seat's words, with its rules
    first = chat.requests[0]["messages"]
    assert first[0]["role"] == "system" and "Mafia" in first[0]["content"]
    assert re.match(r"You are player (2|6) at a table of 10", first[1]["content"])
    assert all(m.stats["moves"] > 0 and m.stats["fallbacks"] == 0 for m in models)
    # its table talk is in everyone's narration and in the record
    said = [x for x in end["narration"] if x.startswith(("Player 2 says", "Player 6 says"))]
    assert said and "I have watched everyone closely, friends." in said[0]
    record = json.loads((tmp_path / end["record"]).read_text())
    assert any(m[0] in (2, 6) and m[1] == "say" for m in record["moves"])
    assert mafia_env.replay(record).game.talk == table.env.unwrapped.game.talk
    # and its stats are in the table's log, once per seat at the end
    lines = [r.getMessage() for r in caplog.records if "model 'house'" in r.getMessage()]
    assert len(lines) == 2 and all("moves" in x and "calls" in x for x in lines), lines


def test_a_model_that_fails_falls_back_to_the_rule_bot_and_says_so_in_the_log(tmp_path, caplog):
    pytest.importorskip("openai")
    from mafia_env.table.bots import parse_llm

    gone = parse_llm("gone=http://127.0.0.1:9/v1,nothing")  # nobody listens there
    with TestClient(create_app(records_dir=tmp_path, llms=[gone])) as client:
        body = {"variant": "minimal", "humans": [], "bots": {"3": "gone"}, "seed": 2}
        body |= {"default_bot": "rule", "bot_delay": 0}
        with caplog.at_level(logging.INFO, "mafia_env.table"):
            table, end = play_bots_only(client, body)
    model = table.bots[2]
    assert end["winner"] is not None
    assert model.stats["errors"] == model.stats["fallbacks"] == model.stats["moves"] > 0
    stats = [r.getMessage() for r in caplog.records if "model 'gone'" in r.getMessage()]
    assert len(stats) == 1 and "fallbacks" in stats[0]


def test_model_endpoints_are_checked_when_the_server_starts(monkeypatch):
    from mafia_env.table.bots import parse_llm

    e = parse_llm("big=https://models.example/v1,qwen2.5-72b,MY_MODEL_KEY")
    assert (e.name, e.base_url, e.model, e.key_env) == (
        "big",
        "https://models.example/v1",
        "qwen2.5-72b",
        "MY_MODEL_KEY",
    )
    bad = [
        ("big", "NAME=BASE_URL,MODEL[,KEY_ENV]"),
        ("big=https://x/v1", "NAME=BASE_URL,MODEL[,KEY_ENV]"),
        ("big=ftp://x/v1,m", "http:// or https://"),
        ("b/g=http://x/v1,m", "a model's name"),
        ("x.pt=http://x/v1,m", "a model's name"),
        ("big=http://x/v1,m,K,extra", "NAME=BASE_URL,MODEL[,KEY_ENV]"),
    ]
    for text, words in bad:
        with pytest.raises(ConfigError, match=re.escape(words)):
            parse_llm(text)
    monkeypatch.delenv("NO_SUCH_KEY_FOR_TEST", raising=False)
    with pytest.raises(ConfigError, match="NO_SUCH_KEY_FOR_TEST is not set"):
        create_app(records_dir=None, llms=[parse_llm("k=http://x/v1,m,NO_SUCH_KEY_FOR_TEST")])
    with pytest.raises(ConfigError, match="'rule' is a bot's name already"):
        create_app(records_dir=None, llms=[parse_llm("rule=http://x/v1,m")])
    two = [parse_llm("a=http://x/v1,m"), parse_llm("a=http://y/v1,m")]
    with pytest.raises(ConfigError, match="'a' is given twice"):
        create_app(records_dir=None, llms=two)


def test_the_key_comes_from_the_operators_environment(tmp_path, chat, monkeypatch):
    from mafia_env.table.bots import parse_llm

    monkeypatch.setenv("TABLE_TEST_MODEL_KEY", "sk-test-123")
    keyed = parse_llm(f"keyed={chat.url},scripted,TABLE_TEST_MODEL_KEY")
    with TestClient(create_app(records_dir=None, llms=[keyed])) as client:
        body = {"variant": "minimal", "humans": [1], "bots": {"2": "keyed"}, "seed": 1}
        links = client.post("/api/tables", json=body).json()
        bot = client.app.state.tables.live[links["table"]].bots[1]
        assert bot.client.api_key == "sk-test-123"
        assert "sk-test-123" not in json.dumps(client.get("/api/options").json())
