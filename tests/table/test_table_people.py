"""The table for people (issue 49): the open count shown, fouls at the table, talk in any
script, bots that talk, a night nobody can time, and the words, restarts and ends around them.

Most tests play a table on a virtual clock (`tests.table.test_table_night.VirtualClock`): people are
scripts that answer every state they are sent, as the page does, and the host's calls are
made through `Table.call`, as the host's view sends them.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time

import pytest

import mafia_env
from mafia_env.engine.events import PUBLIC, Cause, Ev, seat_sequence
from mafia_env.engine.kinds import Turn
from mafia_env.lang import LANGS, charset
from mafia_env.seating.games import default_action
from mafia_env.seating.policies import RandomPolicy
from mafia_env.table.core import Table, TableError
from mafia_env.table.night_plan import NightPlan
from mafia_env.table.settings import NIGHT_TURN, HostError, TableConfig
from mafia_env.table.talk import voice
from mafia_env.table.view import page_words, public_phase
from mafia_env.table.words import BOT_NAMES, MESSAGES, TALK, message
from tests.scripting import to_day_one
from tests.table.test_table_night import VirtualClock

# ------------------------------------------------------------------ a table on a virtual clock


class Clock(VirtualClock):
    """A virtual clock that stands still once halted: the table stops where a test looks."""

    halted = False

    async def sleep_until(self, when: float) -> None:
        if self.halted:
            await asyncio.Event().wait()  # until the table is stopped
        await super().sleep_until(when)


class Passer:
    """A bot that does what a player who does nothing does (the rule's default action)."""

    def __init__(self, env):
        self.env = env

    def act(self, obs, mask):
        return default_action(self.env)


class Seat:
    """A person at one seat: keeps every state and the log, moves with `choose(state)`."""

    def __init__(self, table: Table, seat: int | None, choose=None):
        self.table, self.seat, self.choose = table, seat, choose
        self.states: list[dict] = []
        self.log: list[str] = []
        self.moved: list[int] = []

    async def send(self, msg: dict) -> None:
        if msg["log_from"] == 0:
            self.log = []
        assert msg["log_from"] == len(self.log), "a line was lost or sent twice"
        self.log += [line["text"] for line in msg["log"]]
        msg["narration"] = list(self.log)
        self.states.append(msg)
        if self.choose and msg["your_turn"] and msg["actions"]:
            asyncio.get_running_loop().call_soon(self._move, msg)

    def _move(self, msg: dict) -> None:
        if self.choose is None:  # the test has seen what it waited for
            return
        move = self.choose(msg)
        if move is None:
            return
        try:
            self.table.submit(self.seat, move)
            self.moved.append(move)
        except TableError:  # a state went stale under the move (the page's buttons do too)
            pass


def first_id(msg: dict) -> int:
    return msg["actions"][0]["actions"][0]["id"]


def random_choice(seed: int):
    rng = random.Random(seed)
    return lambda msg: rng.choice([a["id"] for g in msg["actions"] for a in g["actions"]])


def make_table(variant="sport", people=(1,), bots=None, env=None, seed=1, **config):
    """Return a table of `variant` (its env dealt by `seed`) with people in `people`, every
    other seat a bot (`bots(env, seat)`: a policy; default random), on a virtual clock."""
    if env is None:
        env = mafia_env.env(variant, **config.pop("knobs", {}))
        env.reset(seed=seed)
    make = bots or (lambda env, s: RandomPolicy(seed=seed + s))
    policies = {s: make(env, s) for s in range(env.n) if s + 1 not in people}
    cfg = TableConfig(
        variant=variant,
        humans=tuple(people),
        bot_delay=config.pop("bot_delay", 0.5),
        turn_timeout=config.pop("turn_timeout", None),
        **config,
    )
    return Table(cfg, bots=policies, env=env, clock=Clock())


async def play(table: Table, choosers: dict, until=None, host=None, limit=60.0):
    """Seat the people (`choosers`: seat 1..n -> choose(state)) and a host's view (`host`:
    called with each of its states), play until `until(table)` or the game's end; return the
    seats' `Seat`s by seat number (the host's as None)."""
    seats = {s: Seat(table, s - 1, choose) for s, choose in choosers.items()}
    watcher = Seat(table, None)
    done = until or (lambda t: t.over)
    stopped = []

    def watch(seat, hook=None):  # every state is looked at: the table stops where it should
        plain = seat.send

        async def send(msg):
            await plain(msg)
            if hook is not None:
                hook(msg)
            if done(table) and not stopped:
                stopped.append(True)  # no more moves: the clock halts, the people wait
                table.clock.halted = True
                for s in seats.values():
                    s.choose = None

        seat.send = send

    watch(watcher, host)
    table.connect(None, watcher.send)
    for s, seat in seats.items():
        watch(seat)
        table.connect(s - 1, seat.send)
    table.start()
    deadline = time.monotonic() + limit
    while not done(table) and not table.task.done():
        assert time.monotonic() < deadline, "the table did not get there"
        await asyncio.sleep(0.001)
    # the state that got there goes to every seat before the table stops: the first send of
    # it halts the clock (`watch`), and the rest of its round of sends follows
    grace = time.monotonic() + 1.0
    while not stopped and not table.task.done() and time.monotonic() < grace:
        await asyncio.sleep(0.001)
    await asyncio.sleep(0.01)
    while not table.task.done():  # (asyncio.wait_for of Python 3.11 may swallow a cancel)
        table.task.cancel()
        await asyncio.sleep(0.001)
    await asyncio.gather(table.task, return_exceptions=True)
    if not table.task.cancelled() and table.task.exception() is not None:
        raise table.task.exception()
    return {**seats, None: watcher}


def run(coro):
    return asyncio.run(coro)


def public(game, kind):
    return [e for e in game.events if e[0] == kind and e[4] == PUBLIC]


# ------------------------------------------------------------------ 2. the open count


@pytest.mark.parametrize("variant", ["club", "online"])
def test_the_open_count_shows_each_nominees_hands_before_the_next_is_counted(variant):
    """CLUB-E7, ONLINE-V7: a person follows the count as it runs: each nominee's hands are
    public (and shown) before the next nominee's count opens, his own hand is confirmed to him
    alone, the buttons come in nomination order and everyone sees who nominated whom."""
    table = make_table(variant, people=(1, 2), seed=4, night_turn=1.0, bot_delay=0.2)
    seats = run(play(table, {1: random_choice(1), 2: random_choice(2)}))
    game = table.env.unwrapped.game
    counts = public(game, Ev.COUNT)
    assert counts, "no open count in this game: choose another seed"
    checked = mine = 0
    for who, seat in seats.items():
        for msg in seat.states:
            vote = msg["vote"]
            if msg["phase"] != "open_vote" or not vote or vote["counting"] is None:
                continue
            order = [r["seat"] for r in vote["rows"]]
            k = order.index(vote["counting"])
            # the nominees before the one counted now have their hands shown; none after
            assert all(r["hands"] is not None for r in vote["rows"][:k]), (who, vote)
            assert all(r["hands"] is None for r in vote["rows"][k:]), (who, vote)
            assert all(r["by"] for r in vote["rows"]), vote  # who nominated each
            for r in vote["rows"]:
                card = msg["seats"][r["seat"] - 1]
                assert not card["alive"] or card["nominated_by"] == r["by"]
            checked += 1
            if who is None:
                assert vote["mine"] is None  # the host's view has no vote
            elif vote["mine"] is not None:
                # his own hand, before it is public: it is the one he raised
                assert vote["mine"]["kind"] == "hand"
                assert vote["mine"]["seat"] in order[: k + 1]
                mine += 1
            if msg["your_turn"]:
                votes = [g for g in msg["actions"] if g["kind"] == "vote"]
                assert [a["label"] for a in votes[0]["actions"]] == [str(vote["counting"])]
    assert checked > 5 and mine > 0
    # and the hands shown are the hands counted
    last = seats[None].states[-1]
    assert last["phase"] == "over"


def test_every_count_reaches_the_page_before_the_next_nominees_count():
    """CLUB-E7: the state that opens a nominee's count carries the counts of all before him,
    as the COUNT events said them (who raised a hand)."""
    table = make_table("club", people=(1,), seed=4, bot_delay=0.2)
    seats = run(play(table, {1: random_choice(1)}))
    game = table.env.unwrapped.game
    counted = {}
    for _kind, _, target, value, _ in public(game, Ev.COUNT):
        counted.setdefault(target + 1, []).append([s + 1 for s in range(game.n) if value >> s & 1])
    seen = {}
    for msg in seats[None].states:
        vote = msg["vote"]
        for r in (vote or {}).get("rows", []):
            if r["hands"] is not None and msg["phase"] == "open_vote":
                seen.setdefault(r["seat"], []).append(r["hands"])
    assert seen
    for nominee, hands in seen.items():
        assert all(h in counted[nominee] for h in hands), (nominee, hands, counted[nominee])


def test_a_hidden_ballot_confirms_a_vote_to_the_voter_only_and_lists_nominees_in_order():
    """SPORT-D3 with COMMON-8: the ballots stay hidden until the round resolves; the voter is
    told his own vote, the buttons follow the nomination order, then the tally per nominee."""
    table = make_table("sport", people=(1, 2), seed=3, night_turn=1.0, bot_delay=0.2)
    seats = run(play(table, {1: random_choice(1), 2: random_choice(2)}))
    rounds = told = 0
    for who in (1, 2, None):
        for msg in seats[who].states:
            vote = msg["vote"]
            if not vote or not vote["started"]:
                continue
            order = [r["seat"] for r in vote["rows"]]
            if msg["phase"] == "vote":
                rounds += 1
                assert all(r["hands"] is None for r in vote["rows"])  # hidden until resolved
                if who is None:
                    assert vote["mine"] is None
                elif vote["mine"] is not None:
                    told += 1
                    assert vote["mine"]["kind"] in ("vote", "silent", "abstain")
            if msg["your_turn"] and msg["phase"] == "vote":
                votes = [g for g in msg["actions"] if g["kind"] == "vote"]
                labels = [int(a["label"]) for a in votes[0]["actions"]]
                assert labels == [s for s in order if s in labels]  # nomination order
    assert rounds and told


@pytest.mark.parametrize("variant", ["sport", "city", "online", "club"])
def test_the_tally_per_nominee_is_the_ballots_of_the_round(variant):
    """Once a round resolves, each nominee's row holds who voted for him (COMMON-8: all at
    once in a hidden ballot, nominee by nominee in an open count), as the events said."""
    from mafia_env.table.view import vote_view

    env = mafia_env.env(variant)
    rng, checked = random.Random(5), 0
    for seed in range(3):
        env.reset(seed=seed)
        game = env.unwrapped.game
        while not game.over:
            before = public_phase(game)
            env.step(rng.choice(env.unwrapped.legal_actions()))
            after = public_phase(game)
            if before in ("vote", "open_vote") and after not in ("vote", "open_vote"):
                vote = vote_view(game, None, after)
                k = max(i for i, e in enumerate(game.events) if e[0] == Ev.VOTING)
                hands = {}
                for e in game.events[k:]:
                    if e[0] == Ev.BALLOT and e[2] >= 0:
                        hands.setdefault(e[2] + 1, set()).add(e[1] + 1)
                    elif e[0] == Ev.COUNT:
                        hands.setdefault(e[2] + 1, set()).update(
                            s + 1 for s in range(game.n) if e[3] >> s & 1
                        )
                order = [c + 1 for c in seat_sequence(game.events[k][3])]
                assert [r["seat"] for r in vote["rows"]] == order
                for r in vote["rows"]:
                    assert set(r["hands"] or []) == hands.get(r["seat"], set()), (variant, r)
                checked += 1
    assert checked


# ------------------------------------------------------------------ 3. fouls


def fouls_of(msg, seat):
    return msg["seats"][seat - 1]["fouls"]


def test_sport_fouls_from_the_host_silence_then_remove_and_every_seat_sees_them():
    """SPORT-F1: the host's third foul takes seat 4's next day speech, the fourth removes
    him at once without a last word; every seat, and the host, sees the counts."""
    calls = []

    def host(msg):  # the moderator calls fouls on seat 4: three on day 1, one on day 2
        if msg["phase"] == "speech" and msg["day"] == 1 and not calls:
            calls.extend(["foul"] * 3)
            for _ in range(3):
                table.call("foul", 4)
        elif msg["day"] == 2 and msg["phase"] == "speech" and len(calls) == 3:
            calls.append("foul")
            table.call("foul", 4)

    table = make_table("sport", people=(1, 3), bots=lambda env, s: Passer(env), night_turn=1.0)
    seats = run(
        play(
            table,
            {1: first_id, 3: first_id},
            host=host,
            until=lambda t: t.env.unwrapped.game.day >= 3 or t.over,
        )
    )
    game = table.env.unwrapped.game
    assert calls == ["foul"] * 4
    assert [e[3] for e in game.events if e[0] == Ev.FOUL] == [1, 2, 3, 4]
    for who in (1, 3, None):
        counts = [fouls_of(m, 4) for m in seats[who].states]
        assert 3 in counts and counts == sorted(counts), who  # public counts, as they come
        shown = [m["seats"][3]["silent_day"] for m in seats[who].states if fouls_of(m, 4) == 3]
        assert 2 in shown
    # day 2: no speech for seat 4 (SILENCED), then out at the fourth, with no last word
    silenced = [e for e in game.events if e[0] == Ev.SILENCED and e[2] == 3]
    assert silenced and silenced[0][3] == -1
    out = [e for e in game.events if e[0] == Ev.ELIMINATED and e[2] == 3]
    assert out and out[0][3] == Cause.FOUL and not game.alive[3]
    speeches = [e for e in game.events if e[0] == Ev.SPEAK and e[1] == 3]
    assert all(e[3] != Turn.LAST_WORD for e in speeches)
    # the record holds the calls, and replays
    record = table.record()
    assert [m for m in record["moves"] if m[1] == "foul"] == [[4, "foul"]] * 4
    assert mafia_env.replay(record).unwrapped.game.fouls[3] == 4


@pytest.mark.parametrize(
    ("variant", "seed", "steps", "fouls"), [("sport", 46, 173, 4), ("online", 72, 143, 3)]
)
def test_a_player_waiting_for_his_last_word_loses_it_at_the_removing_foul(
    variant, seed, steps, fouls
):
    """SPORT-F3 (4 fouls), ONLINE-F1 (3 fouls): a player voted out or killed who waits for his
    last word and reaches the removing foul at the table leaves at once: the turn never
    comes to him."""
    env = mafia_env.env(variant)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        env.step(rng.choice(env.unwrapped.legal_actions()))
    game = env.unwrapped.game
    waiting = next(s for s, t in game.queue if t == Turn.LAST_WORD and s != game.actor)
    table = make_table(variant, people=(), env=env, bots=lambda env, s: Passer(env))
    called = []

    def host(msg):
        if not called:
            called.append(1)
            for _ in range(fouls - game.fouls[waiting]):
                table.call("foul", waiting + 1)

    events, day = len(game.events), game.day
    run(play(table, {}, host=host, until=lambda t: t.over or t.env.unwrapped.game.day > day + 1))
    new = game.events[events:]
    assert any(e[0] == Ev.SILENCED and e[2] == waiting and e[3] == Turn.LAST_WORD for e in new)
    assert not any(e[0] == Ev.SPEAK and e[1] == waiting for e in new)


def test_sport_the_host_removes_a_player_at_night_without_a_last_word():
    """SPORT-F2: the moderator removes a player who opened his eyes at night: out at once,
    no last word, and the night goes on by its schedule."""
    removed = []

    def host(msg):
        if msg["phase"] == "night" and msg["day"] == 1 and not removed:
            removed.append(5)
            table.call("remove", 5)

    table = make_table("sport", people=(1,), bots=lambda env, s: Passer(env))
    seats = run(
        play(
            table, {1: first_id}, host=host, until=lambda t: t.env.unwrapped.game.day >= 2 or t.over
        )
    )
    game = table.env.unwrapped.game
    out = [e for e in game.events if e[0] == Ev.ELIMINATED and e[2] == 4]
    assert removed and out and out[0][3] == Cause.REMOVED
    assert not any(e[0] == Ev.SPEAK and e[1] == 4 and e[3] == Turn.LAST_WORD for e in game.events)
    assert not seats[1].states[-1]["seats"][4]["alive"]
    with pytest.raises(TableError) as gone:
        table.call("remove", 5)
    assert gone.value.key == "seat_out"


def test_online_f1_three_fouls_remove_the_player_at_once():
    """ONLINE-F1: fouls are public counts; the third removes the player at once."""

    def host(msg):
        if msg["phase"] == "speech" and msg["day"] == 1 and not game.fouls[6]:
            for _ in range(3):
                table.call("foul", 7)

    table = make_table("online", people=(1,), bots=lambda env, s: Passer(env))
    game = table.env.unwrapped.game
    run(play(table, {1: first_id}, host=host, until=lambda t: game.fouls[6] == 3))
    out = [e for e in game.events if e[0] == Ev.ELIMINATED and e[2] == 6]
    assert out and out[0][3] == Cause.FOUL


def test_a_call_while_a_bot_thinks_waits_for_its_thinking_and_the_bot_chooses_again():
    """A foul that ends the turn of a bot that is thinking (in a worker thread) is made when
    its thinking ends, before its move: the move is not made for a turn that is over."""
    import threading

    gate = threading.Event()
    asked = []

    class Slow(Passer):
        def act(self, obs, mask):
            asked.append(self.env.unwrapped.game.actor)
            gate.wait(5)
            return default_action(self.env)

    table = make_table("sport", people=(), bots=lambda env, s: Slow(env))
    game = table.env.unwrapped.game

    async def go():
        table.start()
        while not asked:
            await asyncio.sleep(0.001)
        speaker = asked[0]
        for _ in range(4):  # the fourth foul removes the speaker thinking now
            table.call("foul", speaker + 1)
        assert game.fouls[speaker] == 0 and table._calls  # waiting for the thinking
        gate.set()
        while game.fouls[speaker] < 4:
            await asyncio.sleep(0.001)
        await asyncio.sleep(0.05)
        table.task.cancel()
        return speaker

    speaker = run(go())
    assert not game.alive[speaker]
    # his own move (a pass that would end his speech) was not made after he left
    assert not any(e[0] == Ev.END_SPEECH and e[1] == speaker for e in game.events)


@pytest.mark.parametrize(
    ("variant", "knob", "fouled"),
    [
        ("online", None, True),
        ("sport", None, False),
        ("sport", True, True),
        ("online", False, False),
    ],
)
def test_an_overrun_speech_is_a_foul_where_the_variant_says_so(variant, knob, fouled):
    """The table's knob overrun_foul (ours: `variants/*.yaml`, ``table``): ONLINE counts a
    speech the clock ends as a foul (its seed's «виступ після завершення часу»), SPORT does
    not; the host may choose. Then the default action; a night turn never gives one (a foul
    is public: it would tell who had a night turn)."""
    table = make_table(
        variant,
        people=(1, 2),
        bots=lambda env, s: Passer(env),
        turn_timeout=0.05,
        night_turn=0.2,
        overrun_foul=knob,
    )
    game = table.env.unwrapped.game
    run(
        play(table, {1: lambda m: None, 2: lambda m: None}, until=lambda t: game.day >= 3 or t.over)
    )
    fouls = [e for e in game.events if e[0] == Ev.FOUL]
    if not fouled:
        assert not fouls
        return
    assert {e[2] for e in fouls} <= {0, 1} and fouls
    # each foul came in a speech of its player (public), never at night
    for e in fouls:
        k = game.events.index(e)
        before = [x for x in game.events[:k] if x[0] in (Ev.SPEAK, Ev.NIGHT, Ev.DAY)]
        assert before[-1][0] == Ev.SPEAK and before[-1][1] == e[2]


def test_only_the_host_calls_and_a_seat_is_told_so_in_its_language():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from mafia_env.table.server import create_app
    from tests.table.test_table import Player, ws_url

    with TestClient(create_app(records_dir=None)) as client:
        body = {"variant": "sport", "humans": [1], "bot_delay": 0, "turn_timeout": None, "seed": 2}
        links = client.post("/api/tables", json=body).json()
        token = links["seats"]["1"].split("token=")[1]
        watch = links["watch"].split("token=")[1]
        with (
            client.websocket_connect(ws_url(links["table"], 1, token) + "&lang=ru") as a,
            client.websocket_connect(ws_url(links["table"], "watch", watch)) as w,
        ):
            me, host = Player(a), Player(w)
            me.play(until=lambda s: s["started"])
            a.send_json({"type": "foul", "seat": 2})
            assert me.until_error() == message("host_only", "ru")
            w.send_json({"type": "foul", "seat": 2})
            seen = host.play(until=lambda s: s["seats"][1]["fouls"] == 1)
            assert seen["fouls"] == {"mute": 3, "out": 4}  # the rules' thresholds, shown
            assert me.play(until=lambda s: s["seats"][1]["fouls"] == 1)
            w.send_json({"type": "foul", "seat": 11})
            assert "seat must be a seat number 1..10" in host.until_error()
            w.send_json({"type": "remove", "seat": "x"})
            assert "seat must be" in host.until_error()


def test_fouls_are_stored_and_replayed_after_a_restart(tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from mafia_env.table.database import Store
    from mafia_env.table.server import create_app
    from tests.table.test_table import Player, ws_url

    db = tmp_path / "t.db"
    body = {"variant": "sport", "humans": [1], "bot_delay": 0, "turn_timeout": None, "seed": 2}
    with TestClient(create_app(records_dir=None, db=db)) as client:
        links = client.post("/api/tables", json=body).json()
        token = links["seats"]["1"].split("token=")[1]
        watch = links["watch"].split("token=")[1]
        with (
            client.websocket_connect(ws_url(links["table"], 1, token)) as a,
            client.websocket_connect(ws_url(links["table"], "watch", watch)) as w,
        ):
            Player(a).play(until=lambda s: s["started"])
            w.send_json({"type": "foul", "seat": 5})
            w.send_json({"type": "remove", "seat": 6})
            Player(w).play(until=lambda s: not s["seats"][5]["alive"])
    moves = Store(db).get(links["table"]).record["moves"]
    assert [5, "foul"] in moves and [6, "remove"] in moves
    with TestClient(create_app(records_dir=None, db=db)) as client:
        table = client.app.state.tables.live[links["table"]]
        assert table.env.unwrapped.game.fouls[4] == 1 and not table.env.unwrapped.game.alive[5]


# ------------------------------------------------------------------ 5. talk in any script

WORLD = [
    "¿Qué? 🙂",
    "пʼять гравців",
    "你好，桌子",
    "مرحبا بالجميع",
    "שלום",
    "नमस्ते",
    "👩‍💻 I checked 7: 🖤",
    "Ωmega ∑ – “quotes” — ok",
]


def test_talk_in_any_script_arrives_unchanged_less_its_control_characters():
    """Point 5: what a person types reaches every seat, the record and the replay as typed;
    control characters are dropped, line breaks read as spaces; the text observation alone
    (a fixed charset) reads a letter it lacks as "?"."""
    said = [*WORLD, "bad\x00\x07 line\nbreak\u202e!"]

    def talker(msg):  # two remarks a speech: one alone (Enter), one with the end of it
        if said and msg["may_talk"]:
            table.remark(0, said.pop(0))
            table.submit(0, first_id(msg), said.pop(0) if said else None)
            return None
        return first_id(msg)

    table = make_table("sport", people=(1,), bots=lambda env, s: Passer(env), bot_talk=False)
    seats = run(play(table, {1: talker}, until=lambda t: not said or t.over))
    game = table.env.unwrapped.game
    texts = [t for _, _, t in game.talk]
    assert texts == [*WORLD, "bad line break!"]
    record = table.record()
    assert [m[2] for m in record["moves"] if m[1] == "say"] == texts
    again = mafia_env.replay(json.loads(json.dumps(record, ensure_ascii=False)))
    assert [t for _, _, t in again.unwrapped.game.talk] == texts
    for text in WORLD:
        assert f'Player 1 says: "{text}".' in seats[None].log
    text_env = mafia_env.env("sport", obs_mode="text")
    text_env.reset(seed=1)
    to_day_one(text_env)
    text_env.unwrapped.say(text_env.agent_selection, WORLD[0])
    obs = text_env.observe(text_env.agent_selection)["observation"]
    assert set(obs) <= charset() and '"?Qu?? ?"' in obs


def test_a_remark_is_at_most_280_characters_in_any_script():
    """Point 5: the length limit counts characters, whatever the script (the page wraps a
    long word in the log: tests/table/test_table_browser.py)."""
    table = make_table("sport", people=(1,), bots=lambda env, s: Passer(env))

    async def go():
        table.connect(0, Seat(table, 0).send)
        table.start()
        while table._awaiting != 0:
            await asyncio.sleep(0.001)
        with pytest.raises(TableError) as long:
            table.remark(0, "ж" * 281)
        assert long.value.key == "remark_length"
        table.remark(0, "ж" * 280)
        table.task.cancel()

    run(go())
    assert table.env.unwrapped.game.talk[-1][2] == "ж" * 280


# ------------------------------------------------------------------ 4. bots that talk


@pytest.mark.parametrize("lang", LANGS)
def test_bots_say_their_speech_acts_as_table_talk_in_the_tables_language(lang):
    """Point 4: a bot's speech carries one remark of table talk, said as it ends, that puts
    its speech acts (claims, check reports, accusations, vouches, a nomination) in words in
    the table's language; a speech without acts says nothing."""
    table = make_table("sport", people=(1,), seed=3, lang=lang)  # random bots: many acts
    run(play(table, {1: first_id}, until=lambda t: len(t.env.unwrapped.game.talk) >= 6 or t.over))
    game, events = table.env.unwrapped.game, table.env.unwrapped.game.events
    assert len(game.talk) >= 6
    # rebuild each bot speech's acts from the public events, and its remark from them
    acts_of = {Ev.CLAIM_ROLE: 4, Ev.CLAIM_CHECK: 5, Ev.ACCUSE: 6, Ev.VOUCH: 7, Ev.NOMINATE: 1}
    for k, e in enumerate(events):
        if e[0] != Ev.TALK:
            continue
        seat, text = e[1], game.talk[e[3]][2]
        assert seat != 0  # the person said nothing
        start = max(i for i in range(k) if events[i][0] == Ev.SPEAK and events[i][1] == seat)
        end = next(i for i in range(k, len(events)) if events[i][0] == Ev.END_SPEECH)
        acts = [(acts_of[x[0]], x[2], x[3]) for x in events[start:end] if x[0] in acts_of]
        assert acts and all(x[1] == seat for x in events[start:end] if x[0] in acts_of)
        # said as the speech ends, in the table's words, from its public acts only
        assert text == voice(acts, lang, random.Random(f"{table.seed}:{k}")), text
        if lang != "en":
            assert re.search(r"[а-яіїєґ]", text.lower()), text
    # bots that make no speech acts say nothing; a host may keep the bots silent
    quiet = make_table("sport", people=(1,), bots=lambda env, s: Passer(env), lang=lang)
    run(play(quiet, {1: first_id}, until=lambda t: t.env.unwrapped.game.day >= 2))
    silent = make_table("sport", people=(1,), seed=3, lang=lang, bot_talk=False)
    run(play(silent, {1: first_id}, until=lambda t: t.env.unwrapped.game.day >= 2))
    assert quiet.env.unwrapped.game.talk == [] == silent.env.unwrapped.game.talk
    assert any(e[0] == Ev.CLAIM_ROLE for e in silent.env.unwrapped.game.events)


def test_voice_says_each_act_in_the_words_of_its_kind_and_fits_a_remark():
    rng = random.Random(0)
    assert voice([(4, -1, 1)], "ru", rng) in [
        p.format(role="шериф") for p in TALK["ru"]["claim_role"]
    ]
    assert voice([(5, 6, 1)], "en", rng) in [p.format(t=7) for p in TALK["en"]["claim_black"]]
    assert voice([(0, -1, -1)], "en", rng) == ""
    many = voice([(6, s, -1) for s in range(10)] * 5, "uk", rng)
    assert 0 < len(many) <= 280 and many.endswith(".")


def test_a_civilian_sees_the_nights_countdown_to_morning():
    """Point 4: a person with nothing to do at night is told when morning comes (the
    schedule of `night.NightPlan`, the same for everyone)."""
    table = make_table(
        "sport", people=(1, 2), bots=lambda env, s: Passer(env), night_turn=2.0, bot_delay=0.5
    )
    seats = run(
        play(table, {1: first_id, 2: first_id}, until=lambda t: t.env.unwrapped.game.day >= 2)
    )
    falls = [m for m in seats[None].states if m["phase"] == "night" and m["day"] == 1]
    assert (
        falls and falls[0]["night_left"] == NightPlan(table.env.unwrapped.game).size * 2.0 == 10.0
    )
    for who in (1, 2):
        first = next(m for m in seats[who].states if m["phase"] == "night" and m["day"] == 1)
        assert first["night_left"] == 10.0
    day = next(m for m in seats[1].states if m["phase"] != "night" and m["day"] == 2)
    assert day["night_left"] is None


# ------------------------------------------------------------------ 6. no timing at night


def test_two_people_must_have_a_night_turn_and_one_given_none_gets_the_default():
    """Point 6: with two or more people a night turn of none would let one time the other's
    night: the host cannot set it (in his language), and a table that has it (made before)
    plays fixed slots of the default night turn."""
    with pytest.raises(HostError) as refused:
        TableConfig(humans=(1, 2), night_turn=None).check_night()
    assert refused.value.key == "cfg_night_needed"
    TableConfig(humans=(1,), night_turn=None).check_night()  # alone: nobody to time him
    from tests.table.test_table_night import (
        SLOTS,
        TWO_CIVILIAN,
        TWO_SHERIFF,
        night_times,
        play_nights,
    )

    one = run(play_nights(TWO_SHERIFF, humans=(1, 3), clock=VirtualClock(), bot_delay=0.3))
    other = run(play_nights(TWO_CIVILIAN, humans=(1, 3), clock=VirtualClock(), bot_delay=0.3))
    for night in (1, 2):
        assert night_times(one[3], night) == (None, SLOTS * NIGHT_TURN)
        assert night_times(other[1], night) == (None, SLOTS * NIGHT_TURN)


def test_the_host_form_cannot_make_a_night_two_people_could_time():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from mafia_env.table.server import create_app

    with TestClient(create_app(records_dir=None)) as client:
        body = {"variant": "sport", "humans": [1, 2], "night_turn": None}
        for lang in LANGS:
            r = client.post(f"/api/tables?lang={lang}", json=body)
            assert r.status_code == 400
            assert r.json()["error"].endswith(message("cfg_night_needed", lang, people=2))
        assert client.post("/api/tables", json={**body, "night_turn": 5}).status_code == 200
        assert client.post("/api/tables", json={**body, "humans": [1]}).status_code == 200


# ------------------------------------------------------------------ 7. the waiting screen


def test_nobody_may_talk_before_the_game_begins():
    """Point 7: the waiting screen offers no talk box (a remark then was thrown away)."""
    table = make_table("sport", people=(1, 2))

    async def go():
        table.connect(0, Seat(table, 0).send)
        view = table.view(0)
        assert not view["started"] and not view["may_talk"] and view["waiting_for"] == [2]
        with pytest.raises(TableError) as early:
            table.remark(0, "hello?")
        assert early.value.key == "not_started"

    run(go())
    for lang in LANGS:
        words = page_words(lang)["page"]
        assert (
            "{seats}" in words["waiting_for_one"]
            and words["waiting_for_one"] != words["waiting_for"]
        )


# ------------------------------------------------------------------ 9. words


LATIN = re.compile(r"[A-Za-z]{3,}")
IDS = re.compile(
    r"\b(bot_delay|turn_timeout|night_turn|num_players|humans|bots|default_bot|seed|knobs|"
    r"variant|overrun_foul|bot_talk|null|true|false|JSON|PPO|ISMCTS)\b|'[^']*'|\[[^\]]*\]|\{[^}]*\}"
)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_hosts_errors_are_in_his_language_all_through(lang):
    """Point 9: what the host form can get wrong is said in the host's language, no English
    inside (the field's own name aside, in brackets, as the API spells it)."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from mafia_env.table.server import create_app

    bad = [
        {"num_players": 40},
        {"bot_delay": 99},
        {"turn_timeout": 4000},
        {"night_turn": 601},
        {"seed": -5},
        {"humans": [1, 2], "night_turn": None},
        {"humans": [1, 1]},
        {"bots": {"2": "nosuchbot"}},
        {"bots": {"1": "random"}, "humans": [1]},
        {"colour": "red"},
    ]
    with TestClient(create_app(records_dir=None)) as client:
        for body in bad:
            r = client.post(f"/api/tables?lang={lang}", json={"variant": "sport", **body})
            assert r.status_code == 400, body
            error = r.json()["error"]
            rest = IDS.sub("", error)
            names = [*client.app.state.tables.shelf.names(), "nosuchbot", "sport"]
            for name in sorted(names, key=len, reverse=True):  # style:x_late before style:x
                rest = rest.replace(name, "")
            assert not LATIN.search(rest), (body, error)
    for key, text in MESSAGES[lang].items():
        if key.startswith("cfg_") or key.startswith("bot_"):
            assert not LATIN.search(IDS.sub("", text.replace("{", " {"))), (key, text)


def test_bot_names_and_the_seed_are_in_every_language():
    for lang in LANGS:
        words = page_words(lang)
        assert set(words["bots"]) == set(BOT_NAMES["en"])
        if lang != "en":
            assert "Зерно" not in words["page"]["seed"]
            assert not any(words["bots"][b] == BOT_NAMES["en"][b] for b in ("random", "rule"))
    assert page_words("ru")["page"]["seed"].startswith("Сид")
    assert page_words("uk")["page"]["seed"].startswith("Сід")


# ------------------------------------------------------------------ 10. a restart


def test_a_restart_keeps_the_join_timeout(tmp_path):
    """Point 10: a table restored from the store is as old as it was: one nobody joined for
    longer than the join timeout expires at the next sweep, restart or not."""
    pytest.importorskip("starlette")
    import sqlite3

    from starlette.testclient import TestClient

    from mafia_env.table.server import create_app
    from mafia_env.table.tables import Limits

    db = tmp_path / "t.db"
    limits = Limits(join_timeout=900)
    body = {"variant": "minimal", "humans": [1, 2], "bot_delay": 0}
    with TestClient(create_app(records_dir=None, db=db, limits=limits)) as client:
        old = client.post("/api/tables", json=body).json()["table"]
        new = client.post("/api/tables", json=body).json()["table"]
    with sqlite3.connect(db) as c:  # the first was made 800 s ago, before the restart
        c.execute("UPDATE tables SET created = created - 800 WHERE id = ?", (old,))
    with TestClient(create_app(records_dir=None, db=db, limits=limits)) as client:
        tables = client.app.state.tables
        assert set(tables.live) == {old, new}
        sweep = lambda later: client.portal.call(tables.sweep, time.monotonic() + later)  # noqa: E731
        assert sweep(150) == [old]  # 950 s old: over 900
        assert sweep(950) == [new]


# ------------------------------------------------------------------ 11. the end


def test_the_end_says_why_and_the_record_downloads():
    """Point 11: the game's end says who won and why; the record comes as a download."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from mafia_env.table.server import create_app
    from tests.table.test_table import Player, ws_url

    with TestClient(create_app(records_dir=None)) as client:
        body = {"variant": "sport", "humans": [1], "bot_delay": 0, "turn_timeout": None, "seed": 9}
        links = client.post("/api/tables", json=body).json()
        token = links["seats"]["1"].split("token=")[1]
        with client.websocket_connect(ws_url(links["table"], 1, token)) as ws:
            end = Player(ws, random.Random(1)).play(until=lambda s: s["phase"] == "over")
        assert end["ending"]["key"] in {"town", "mafia_parity", "mafia_majority", "draw_days"}
        for lang in LANGS:
            assert page_words(lang)["page"][f"end_{end['ending']['key']}"]
        url = f"/api/tables/{links['table']}/record"
        r = client.get(url, params={"token": token, "download": 1})
        assert r.status_code == 200 and r.json()["winner"] == end["winner"]
        name = f"table-{links['table']}.json"
        assert r.headers["content-disposition"] == f'attachment; filename="{name}"'
        assert "content-disposition" not in client.get(url, params={"token": token}).headers


@pytest.mark.parametrize(
    ("variant", "seed"), [("sport", 1), ("city", 2), ("forum", 3), ("minimal", 4), ("club", 5)]
)
def test_every_ending_has_its_reason(variant, seed):
    from mafia_env.table.view import ending

    env = mafia_env.env(variant)
    env.reset(seed=seed)
    rng = random.Random(seed)
    while not env.unwrapped.game.over:
        env.step(rng.choice(env.unwrapped.legal_actions()))
    why = ending(env.unwrapped.game)
    winner = env.unwrapped.winner
    assert why["key"].split("_")[0] == {"draw": "draw"}.get(winner, winner)
    for lang in LANGS:
        assert page_words(lang)["page"][f"end_{why['key']}"].format(**why)
