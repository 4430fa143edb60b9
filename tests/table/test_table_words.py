"""The server speaks the seat's language (issue 30, item 12): its messages in en, ru and uk,
no internal ids, and links that carry the host's language."""

from __future__ import annotations

import re
import string

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from mafia_env.lang import LANGS
from mafia_env.table.server import create_app
from mafia_env.table.tables import Limits
from mafia_env.table.words import MESSAGES, PAGE, message
from tests.table.test_table import Player, ws_url
from tests.table.test_table_night import VirtualClock
from tests.table.test_table_security import from_address

BODY = {"variant": "sport", "bot_delay": 0, "turn_timeout": None, "seed": 2}


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_and_page_word_is_in_every_language(lang):
    assert set(MESSAGES[lang]) == set(MESSAGES["en"])
    for key, text in MESSAGES["en"].items():
        assert fields(MESSAGES[lang][key]) == fields(text), (lang, key)
        assert "player_" not in text
    assert set(PAGE[lang]) == set(PAGE["en"])
    for key, text in PAGE["en"].items():
        assert fields(PAGE[lang][key]) == fields(text), (lang, key)
    if lang != "en":  # translated, not copied
        same = [k for k in MESSAGES["en"] if MESSAGES[lang][k] == MESSAGES["en"][k]]
        assert not same, same


@pytest.fixture()
def client(tmp_path):
    with TestClient(create_app(records_dir=tmp_path)) as c:
        yield c


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_seats_errors_come_in_its_language(client, lang):
    links = client.post("/api/tables", json={**BODY, "humans": [1, 2]}).json()
    # two people: the night keeps its fixed schedule, on a clock that skips the waiting
    client.app.state.tables.live[links["table"]].clock = VirtualClock()
    token = {s: link.split("token=")[1] for s, link in links["seats"].items()}
    with (
        client.websocket_connect(ws_url(links["table"], 1, token["1"]) + f"&lang={lang}") as a,
        client.websocket_connect(ws_url(links["table"], 2, token["2"]) + f"&lang={lang}") as b,
    ):
        p1, p2 = Player(a), Player(b)
        first = p1.play(until=lambda s: s["started"] and s["your_turn"])
        p2.play(until=lambda s: s["started"])
        legal = first["actions"][0]["actions"][0]["id"]
        b.send_json({"type": "act", "action": legal})
        assert p2.until_error() == message("not_your_turn", lang)
        a.send_json({"type": "hello"})
        assert p1.until_error() == message("unknown_message", lang)
        a.send_json({"type": "act", "action": 10**6})
        assert p1.until_error() == message("not_legal", lang, action=10**6)
        a.send_json({"type": "act", "action": legal, "say": "x" * 300})
        error = p1.until_error()
        assert error == message("remark_length", lang, most=280, got=300)
        assert "player_" not in error and not re.search(r"[A-Za-z]{4}", error)
    with client.websocket_connect(ws_url(links["table"], 1, "wrong") + f"&lang={lang}") as c:
        msg = c.receive_json()
        assert msg["fatal"] and msg["message"] == message("wrong_token", lang, s=1)
        with pytest.raises(WebSocketDisconnect) as closed:
            c.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect(ws_url("nosuch", 1, "x") + f"&lang={lang}") as c:
        assert c.receive_json()["message"] == message("no_table", lang)


def test_the_english_messages_stay_as_they_were():
    assert message("not_your_turn", "en") == "it is not your turn"
    assert message("wrong_token", "en", s=1) == "wrong token for seat 1"
    assert message("no_table", "en") == "no such table"


def test_links_carry_the_hosts_language(client):
    r = client.post("/api/tables?lang=uk", json={**BODY, "humans": [1, 4]})
    links = r.json()
    assert all(link.endswith("&lang=uk") for link in links["seats"].values())
    assert links["watch"].endswith("&lang=uk")
    plain = client.post("/api/tables", json={**BODY, "humans": [1]}).json()
    assert "lang=" not in plain["seats"]["1"]  # the page's own choice then
    r = client.post("/api/tables?lang=xx", json={**BODY, "humans": [1]})
    assert r.status_code == 400 and "languages: en, ru, uk" in r.json()["error"]


def test_refusals_of_a_table_come_in_the_hosts_language(tmp_path):
    app = create_app(records_dir=None, limits=Limits(per_client=1))
    with TestClient(app) as client:
        c = from_address(client, "10.1.1.1")
        assert c.post("/api/tables?lang=ru", json={**BODY, "humans": [1]}).status_code == 200
        r = c.post("/api/tables?lang=ru", json={**BODY, "humans": [1]})
        assert r.status_code == 429
        assert r.json()["error"] == message("address_full", "ru", mine=1, most=1, minutes=15)
        bad = c.post("/api/tables?lang=uk", json={"bot_delay": -1})
        assert bad.status_code == 400
        # a rule's own words stay as the rules say them, inside the language's frame
        assert bad.json()["error"].startswith(message("not_made", "uk", why="")[:10])
        assert "bot_delay" in bad.json()["error"]
