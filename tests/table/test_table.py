"""The table server: whole games over WebSockets, tokens, bad messages, reconnects, secrecy."""

from __future__ import annotations

import itertools
import json
import random
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qs, urlparse

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient

import mafia_env
import mafia_env.lang
from mafia_env.engine.events import PUBLIC
from mafia_env.narrate import narrate, say
from mafia_env.table.core import Table, TableConfig, TableError
from mafia_env.table.server import create_app
from mafia_env.table.view import seat_view

# SPORT, 10 seats, dealt by seat: seat 3 a civilian, 5 the sheriff, 2/7 mafia, 9 the don
DEAL = [
    "civilian",
    "mafia",
    "civilian",
    "civilian",
    "sheriff",
    "civilian",
    "mafia",
    "civilian",
    "don",
    "civilian",
]


@pytest.fixture()
def client(tmp_path):
    app = create_app(records_dir=tmp_path)
    with TestClient(app) as c:
        c.records = tmp_path
        yield c


def new_table(client, **config):
    # night_turn None: a person's night turn lasts as long as he takes
    # (tests/table/test_table_night.py times the fixed slots of two people). Two people must
    # have a night turn (issue 49, point 6): 30 s on a virtual clock, so a night lasts as long
    # as its people take
    body = {"variant": "sport", "bot_delay": 0, "turn_timeout": None, "seed": 11}
    two = len(config.get("humans", [1])) >= 2
    body = {**body, "night_turn": 30.0 if two else None, **config}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    links = r.json()
    if two:
        from tests.table.test_table_night import VirtualClock

        client.app.state.tables.live[links["table"]].clock = VirtualClock()
    seats = {}
    for seat, link in links["seats"].items():
        q = parse_qs(urlparse(link).query)
        assert q["table"] == [links["table"]] and q["seat"] == [seat]
        seats[int(seat)] = q["token"][0]
    watch = parse_qs(urlparse(links["watch"]).query)["token"][0]
    return links["table"], seats, watch


def ws_url(table, seat, token):
    return f"/ws/{table}?seat={seat}&token={token}"


class Player:
    """A scripted person at one seat: reads every raw message, acts on its turn."""

    def __init__(self, ws, rng=None, choose=None):
        self.ws = ws
        self.raw: list[str] = []
        self.messages: list[dict] = []  # as read, states with the log so far as "narration"
        self.states: list[dict] = []
        self.errors: list[str] = []
        self.rng = rng or random.Random(0)
        self.choose = choose or self.random_choice
        self.acted = 0
        self.log: list[dict] = []
        self._last_key = None

    def random_choice(self, state):
        ids = [a["id"] for g in state["actions"] for a in g["actions"]]
        return self.rng.choice(ids)

    def receive(self) -> dict:
        """Read one message; a state's new moderator lines join the log, as the page does."""
        text = self.ws.receive_text()
        self.raw.append(text)
        msg = json.loads(text)
        self.messages.append(msg)
        if msg["type"] == "error":
            self.errors.append(msg["message"])
        else:
            if msg["log_from"] == 0:
                self.log = []
            assert msg["log_from"] == len(self.log), "a line was lost or sent twice"
            self.log += msg["log"]
            msg["narration"] = [line["text"] for line in self.log]
            self.states.append(msg)
        return msg

    def act_on(self, state):
        """Take a turn on `state` if it is this seat's turn and not acted on yet."""
        key = (len(state["narration"]), state["day"], state["phase"], json.dumps(state["actions"]))
        if state["your_turn"] and key != self._last_key:
            self._last_key = key
            self.ws.send_json({"type": "act", "action": self.choose(state)})
            self.acted += 1

    def play(self, until=lambda s: s["phase"] == "over" and s["record"], limit=5000):
        """Act on every new turn until `until(state)`; return that state (not acted on)."""
        if self.states and not until(self.states[-1]):
            self.act_on(self.states[-1])
        for _ in range(limit):
            msg = self.receive()
            if msg["type"] != "state":
                continue
            if until(msg):
                return msg
            self.act_on(msg)
        raise AssertionError("the game did not reach the awaited state")

    def until_error(self) -> str:
        """Read messages until an error comes; return its text."""
        for _ in range(5000):
            msg = self.receive()
            if msg["type"] == "error":
                return msg["message"]
        raise AssertionError("no error came")


def test_full_game_with_one_person_and_bots(client):
    table, seats, _ = new_table(client, humans=[3])
    assert list(seats) == [3]
    with client.websocket_connect(ws_url(table, 3, seats[3])) as ws:
        me = Player(ws, random.Random(1))
        end = me.play()
    assert me.errors == []
    assert me.acted >= 2
    assert end["winner"] in ("town", "mafia", "draw")
    assert end["narration"][-1] in ("The town wins.", "The mafia wins.", "The game is a draw.")
    assert all(card["role"] for card in end["seats"])  # the deal is shown once it is over
    assert [c["kind"] for c in end["seats"]].count("person") == 1
    # the saved record replays to the same end, and the person's moves are in it
    record = json.loads((client.records / end["record"]).read_text())
    assert record["table"]["humans"] == [3]
    env = mafia_env.replay(record)
    assert env.winner == end["winner"]
    assert sum(1 for seat, *_ in record["moves"] if seat == 3) == me.acted  # bots talk too
    # every state the person got said only what seat 3 may know, as seat_view builds it
    final = seat_view(env, 2)
    assert end["narration"] == final["narration"]
    # the record endpoint gives the same record to a token of this table only
    r = client.get(f"/api/tables/{table}/record", params={"token": seats[3]})
    assert r.status_code == 200 and r.json()["moves"] == record["moves"]
    assert client.get(f"/api/tables/{table}/record", params={"token": "x"}).status_code == 403


def test_wrong_token_or_seat_is_refused_and_the_table_goes_on(client):
    table, seats, watch = new_table(client, humans=[3, 6])
    for seat, token in [(3, seats[6]), (6, "not-a-token"), (4, seats[3]), ("x", seats[3])]:
        with client.websocket_connect(ws_url(table, seat, token)) as ws:
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["fatal"]
            assert "token" in msg["message"] or "seat" in msg["message"]
    with client.websocket_connect(ws_url("nosuchtable", 3, seats[3])) as ws:
        assert ws.receive_json() == {"type": "error", "message": "no such table", "fatal": True}
    with client.websocket_connect(ws_url(table, "watch", seats[3])) as ws:
        assert "wrong token" in ws.receive_json()["message"]
    # the right tokens still open the seats, and the game waits for both people
    with (
        client.websocket_connect(ws_url(table, 3, seats[3])) as a,
        client.websocket_connect(ws_url(table, "watch", watch)) as w,
    ):
        p3 = Player(a, random.Random(3))
        first = p3.receive()
        assert first["you"] == 3 and first["started"] is False and first["waiting_for"] == [6]
        seen = w.receive_json()
        assert seen["you"] is None and seen["role"] is None and seen["actions"] == []
        assert all(c["role"] is None for c in seen["seats"])
        with client.websocket_connect(ws_url(table, 6, seats[6])) as b:
            p6 = Player(b, random.Random(6))
            # both people play, each in a thread, as two browsers would
            with ThreadPoolExecutor(2) as pool:
                ends = list(pool.map(lambda p: p.play(), [p3, p6]))
            assert p3.errors == [] and p6.errors == []
            assert p3.acted > 0 and p6.acted > 0
            assert ends[0]["narration"][-1] == ends[1]["narration"][-1]


def test_bad_messages_get_errors_and_the_table_goes_on(client):
    table, seats, _ = new_table(client, humans=[1, 2])
    with (
        client.websocket_connect(ws_url(table, 1, seats[1])) as ws1,
        client.websocket_connect(ws_url(table, 2, seats[2])) as ws2,
    ):
        p1, p2 = Player(ws1), Player(ws2)
        # seat 1 opens day 1 (after the bots' zero-night meeting, SPORT-N3), and the game
        # waits for it: nothing else moves meanwhile
        state = p2.play(until=lambda s: s["started"] and s["day"] == 1)
        assert state["day"] == 1 and state["actor"] == 1 and not state["your_turn"]
        first = p1.play(until=lambda s: s["started"] and s["day"] == 1)
        assert first["your_turn"]
        legal = [a["id"] for g in first["actions"] for a in g["actions"]]
        bad = [
            "not json",
            json.dumps([1, 2]),
            json.dumps({"type": "hello"}),
            json.dumps({"type": "act"}),
            json.dumps({"type": "act", "action": "pass"}),
            json.dumps({"type": "act", "action": True}),
            json.dumps({"type": "act", "action": 10**9}),
            json.dumps({"type": "act", "action": -1}),
            "x" * 10_000,
        ]
        for text in bad:
            ws1.send_text(text)
            p1.until_error()
        assert "JSON" in p1.errors[0] and "too long" in p1.errors[-1]
        assert "not one you may take now" in p1.errors[-2]
        assert "action must be an action number" in p1.errors[4]
        # seat 2 tries a move that is legal for seat 1 now: out of turn, refused
        ws2.send_json({"type": "act", "action": legal[0]})
        assert p2.until_error() == "it is not your turn"
        assert len(p1.errors) == len(bad) and len(p2.errors) == 1
        # nothing changed: seat 1 is still to speak, then both play to the end
        again = p1.play(until=lambda s: True)
        assert again["narration"] == first["narration"] and again["your_turn"]
        with ThreadPoolExecutor(2) as pool:
            ends = list(pool.map(lambda p: p.play(), [p1, p2]))
        assert ends[0]["winner"] is not None
        assert len(p1.errors) == len(bad) and len(p2.errors) == 1


def test_reconnect_in_the_middle_of_a_day_keeps_the_seat(client):
    table, seats, _ = new_table(client, humans=[4], seed=3)
    url = ws_url(table, 4, seats[4])
    with client.websocket_connect(url) as ws:
        me = Player(ws, random.Random(2))
        mid = me.play(until=lambda s: s["day"] == 2 and s["phase"] == "speech")
    # gone: if it is the person's turn the game waits for them (no timer at this table)
    with client.websocket_connect(url) as ws:
        again = Player(ws, random.Random(3))
        back = again.play(until=lambda s: True)
        assert back["you"] == 4 and back["role"] == mid["role"]
        assert back["narration"][: len(mid["narration"])] == mid["narration"]
        assert back["day"] >= 2
        end = again.play()
    assert end["winner"] is not None and end["record"]


def test_a_person_who_does_not_act_gets_the_default_action_when_the_turn_runs_out(client):
    table, seats, _ = new_table(client, humans=[2], turn_timeout=0.01, variant="minimal")
    with client.websocket_connect(ws_url(table, 2, seats[2])) as ws:
        me = Player(ws)
        timed = None
        for _ in range(5000):
            msg = me.receive()
            if msg.get("your_turn") and msg["time_left"] is not None:
                timed = msg
            if msg.get("phase") == "over" and msg.get("record"):
                break
    assert timed is not None and 0 <= timed["time_left"] <= 0.01
    record = json.loads((client.records / msg["record"]).read_text())
    env = mafia_env.env("minimal")
    mine = [what for seat, what, *_ in record["moves"] if seat == 2]  # bots talk too
    # every turn of seat 2 was the default action: pass (end the speech, abstain)
    assert mine and set(mine) == {env.action_id("pass")}


def private_lines_of_others(events, seat):
    """Return the narration of every event that `seat` did not see."""
    return {
        say(e) for e in events if e[4] != PUBLIC and not (e[4] >> seat & 1) and say(e) is not None
    }


@pytest.mark.parametrize("me", [3, 7])  # a civilian, and a mafia member (knows 2 and 9)
def test_raw_messages_to_a_seat_hold_nothing_private_of_another_seat(client, me):
    table, seats, _ = new_table(client, humans=[me], knobs={"roles": DEAL}, seed=5)
    with client.websocket_connect(ws_url(table, me, seats[me])) as ws:
        p = Player(ws, random.Random(me))
        end = p.play()
    record = json.loads((client.records / end["record"]).read_text())
    env = mafia_env.replay(record)
    events = env.unwrapped.game.events
    secret = private_lines_of_others(events, me - 1)
    assert any("your role is don" in line for line in secret)  # the check can fail
    mates = {2, 7, 9} - {me} if DEAL[me - 1] in ("mafia", "don") else set()
    for text, msg in zip(p.raw, p.messages, strict=True):
        for line in secret:
            assert line not in text, line
        assert "token" not in text
        if msg["type"] != "state" or msg["phase"] == "over":
            continue
        # roles: own, and the team's for the mafia; nobody else's (SPORT reveals none)
        known = {c["seat"]: c["role"] for c in msg["seats"] if c["role"]}
        assert set(known) == {me} | mates
        assert known[me] == DEAL[me - 1]
        # the mask goes to the acting seat only, and nobody is named acting at night
        assert bool(msg["actions"]) == msg["your_turn"]
        if msg["phase"] == "night":
            assert msg["actor"] is None
            assert not any(c["acting"] for c in msg["seats"])
        # narration: exactly the public lines and this seat's own, as a prefix of the game's
        talk = env.unwrapped.game.talk  # the bots' table talk (issue 49)
        assert msg["narration"] == narrate(events, me - 1, talk=talk)[: len(msg["narration"])]
    # at night a civilian hears nothing until morning: one message when night falls
    if DEAL[me - 1] == "civilian":
        states = [json.loads(r) for r in p.raw]
        nights = [s["day"] for s in states if s.get("phase") == "night"]
        assert nights and len(nights) == len(set(nights))


def test_bad_table_configs_are_refused_with_a_reason(client):
    cases = [
        ({"humans": [11]}, "human seats"),
        ({"humans": "3"}, "humans must be a list"),
        ({"bots": {"3": "random"}, "humans": [3]}, "bots are for seats"),
        ({"bots": {"2": "nosuchbot"}}, "unknown policy"),
        ({"variant": "nosuch"}, "nosuch"),
        ({"colour": "red"}, "unknown table fields"),
        ({"bot_delay": -1}, "bot_delay"),
        ({"knobs": {"nosuch": 1}}, "nosuch"),
    ]
    for body, words in cases:
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400, body
        assert words in r.json()["error"], (body, r.json())
    r = client.post("/api/tables", content=b"{not json")
    assert r.status_code == 400 and "JSON" in r.json()["error"]


def test_the_page_and_its_files_are_served_from_the_package(client):
    page = client.get("/")
    assert page.status_code == 200 and "<title>Mafia table</title>" in page.text
    assert "http" not in page.text.replace("http-equiv", "")  # nothing from outside
    for name in ("app.js", "style.css"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and "http://" not in r.text and "https://" not in r.text
    options = client.get("/api/options").json()
    assert "sport" in options["variants"] and "random" in options["bots"]
    assert options["variants"]["sport"]["default"] == 10


def test_table_rejects_moves_out_of_turn_without_a_server():
    import asyncio

    async def go():
        t = Table(TableConfig(humans=(1,), seed=1, bot_delay=0, turn_timeout=None))
        with pytest.raises(TableError, match="not started"):
            t.submit(0, 0)
        with pytest.raises(TableError, match="wrong token for seat 1"):
            t.seat_of(1, "guess")
        with pytest.raises(TableError, match="wrong token for seat 2"):
            t.seat_of(2, t.tokens[0])
        assert t.seat_of("1", t.tokens[0]) == 0
        with pytest.raises(TableError, match="language"):
            t.connect(0, None, lang="xx")

    asyncio.run(go())


def test_a_broken_bot_takes_the_default_action_and_the_table_goes_on(client):
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

    register_policy("broken-for-test", Broken)
    try:
        table, seats, _ = new_table(client, humans=[1], default_bot="broken-for-test")
        with client.websocket_connect(ws_url(table, 1, seats[1])) as ws:
            end = Player(ws).play()
    finally:
        policy._REGISTRY.pop("broken-for-test")
    record = json.loads((client.records / end["record"]).read_text())
    env = mafia_env.replay(record)
    assert env.winner == end["winner"] is not None
    # every bot move was the rule's default: pass, or "no" in a car-crash vote
    allowed = {env.action_id("pass"), env.action_id("vote_no")}
    assert {what for seat, what in record["moves"] if seat != 1} <= allowed


def test_a_server_may_refuse_checkpoint_paths_for_bots(tmp_path):
    ckpt = tmp_path / "bot.pt"
    ckpt.write_bytes(b"not a checkpoint")
    with TestClient(create_app(records_dir=None)) as c:
        r = c.post("/api/tables", json={"bots": {"2": str(ckpt)}})
        assert r.status_code == 400 and "seats only the bots random" in r.json()["error"]
        r = c.post("/api/tables", json={"bots": {"2": "random"}, "seed": 1})
        assert r.status_code == 200


def test_each_seat_gets_narration_in_its_own_language(client):
    assert client.get("/api/options").json()["languages"] == ["en", "ru", "uk"]
    table, seats, _ = new_table(client, humans=[1, 2])
    with (
        client.websocket_connect(ws_url(table, 1, seats[1]) + "&lang=ru") as a,
        client.websocket_connect(ws_url(table, 2, seats[2])) as b,
    ):
        ru = Player(a).play(until=lambda s: s["started"])
        en = Player(b).play(until=lambda s: s["started"])
        role_ru = mafia_env.lang.table("ru").ROLES[ru["role"]]
        assert ru["narration"][0] == f"Игрок 1, ваша роль: {role_ru}."
        assert en["narration"][0] == "Player 2, your role is " + en["role"] + "."
    with client.websocket_connect(ws_url(table, 1, seats[1]) + "&lang=xx") as c:
        msg = c.receive_json()
        assert msg["fatal"] and "language 'xx' is not offered" in msg["message"]


def test_state_messages_carry_only_the_new_lines_of_the_moderator(client):
    table, seats, _ = new_table(client, humans=[3])
    with client.websocket_connect(ws_url(table, 3, seats[3])) as ws:
        me = Player(ws, random.Random(4))
        end = me.play()
    states = [m for m in me.messages if m["type"] == "state"]
    sent = sum(len(m["log"]) for m in states)
    # every line once (the first state of the connection starts the log), in order
    assert sent == len(end["narration"]) and len(states) > 20
    assert [m["log_from"] for m in states][:1] == [0]
    for a, b in itertools.pairwise(states):
        assert a["log_from"] + len(a["log"]) == b["log_from"]
    assert all("narration" not in json.loads(raw) for raw in me.raw)
    # reconnecting to the finished table: the whole log once more, then goodbye
    with client.websocket_connect(ws_url(table, 3, seats[3])) as ws:
        again = Player(ws).receive()
    assert again["log_from"] == 0 and again["narration"] == end["narration"]


class Talker(Player):
    """A person who adds table talk to each speech act (and once, wrongly, to a vote)."""

    def __init__(self, ws, rng):
        super().__init__(ws, rng)
        self.said: list[str] = []
        self.tried_outside = False

    def act_on(self, state):
        key = (len(state["narration"]), state["day"], state["phase"], json.dumps(state["actions"]))
        if not state["your_turn"] or key == self._last_key:
            return
        self._last_key = key
        msg = {"type": "act", "action": self.choose(state)}
        if state["may_talk"]:
            msg["say"] = f"Remark {len(self.said) + 1}: I am a civilian."
            self.said.append(msg["say"])
        elif not self.tried_outside:
            self.tried_outside = True
            self.ws.send_json({**msg, "say": "talk in a vote"})
            assert "only in your speech" in self.until_error()
        self.ws.send_json(msg)
        self.acted += 1


def test_a_person_types_table_talk_with_a_speech_act(client):
    table, seats, _ = new_table(client, humans=[3], bot_talk=False)  # the person's talk
    with client.websocket_connect(ws_url(table, 3, seats[3])) as ws:
        me = Talker(ws, random.Random(2))
        end = me.play()
    assert me.said and me.tried_outside
    lines = [f'Player 3 says: "{text}".' for text in me.said]
    assert [x for x in end["narration"] if x in lines] == lines
    record = json.loads((client.records / end["record"]).read_text())
    assert [m[2] for m in record["moves"] if len(m) == 3] == me.said
    assert mafia_env.replay(record).game.talk[0][2] == me.said[0]
