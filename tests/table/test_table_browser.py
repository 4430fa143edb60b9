"""End to end: a person sets a table and plays a seat through the page in a real browser.

Needs Debian's chromium at /usr/bin/chromium (CI: ``apt-get install -y chromium``) and
Playwright's Python package; it never downloads a browser. Screenshots go to artifacts/.
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed at /usr/bin/chromium "
        "(apt-get install -y chromium); the browser test never downloads one",
    ),
]


@pytest.fixture()
def server(tmp_path):
    """Serve the table on a free local port in a thread; yield its base URL."""
    from mafia_env.table.server import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(records_dir=tmp_path / "records")
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(100):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", tmp_path / "records"
    srv.should_exit = True
    thread.join(timeout=5)


def test_person_plays_a_seat_through_the_page_to_the_end(server):
    base, records = server
    ARTIFACTS.mkdir(exist_ok=True)
    rng = random.Random(3)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        try:
            # the host sets a SPORT table: a person in seat 1, the default bot in the others
            page.goto(base + "/")
            page.locator("#variant option").first.wait_for(state="attached")
            assert page.is_hidden("#game") and page.is_visible("#host-form")
            page.select_option("#variant", "sport")
            page.fill("#num", "10")
            page.fill("#bot-delay", "0.02")
            page.fill("#turn-timeout", "0")
            page.fill("#seed", "5")
            assert page.input_value("#who-1") == "person"
            with urllib.request.urlopen(base + "/api/options") as r:
                default = json.load(r)["defaults"]["bot"]
            assert default in ("filler", "rule")  # the filler where its plugin is installed
            assert page.input_value("#who-2") == f"bot:{default}"
            page.click("button[type=submit]")
            link = page.locator("#link-list a").first
            link.wait_for()
            href = link.get_attribute("href")
            assert "seat=1" in href and "token=" in href

            page.goto(base + href)
            page.locator(".card").first.wait_for()
            assert page.locator(".card").count() == 10
            assert page.locator("#me .role-big").inner_text().startswith("You are the ")
            shot_mid = False
            deadline = time.monotonic() + 45
            clicks = 0
            while "Winner" not in page.inner_text("#outcome"):
                assert time.monotonic() < deadline, "the game did not end through the page"
                buttons = page.locator("#actions button")
                try:
                    count = buttons.count()
                    if count == 0:
                        page.wait_for_timeout(20)
                        continue
                    pass_button = page.locator("#actions .group[data-kind=pass] button")
                    if pass_button.count() and rng.random() < 0.6:
                        target = pass_button.first
                    else:
                        target = buttons.nth(rng.randrange(count))
                    if not shot_mid and clicks >= 3:
                        page.screenshot(path=str(ARTIFACTS / "table_midgame.png"))
                        shot_mid = True
                        # the person reloads the page: the link brings them back to the seat
                        said = page.locator("#narration li").count()
                        page.reload()
                        page.locator("#narration li").nth(said - 1).wait_for()
                        assert "You are the " in page.inner_text("#me")
                        continue
                    target.click(timeout=500)
                    clicks += 1
                except sync_api.Error:
                    continue  # the buttons were redrawn under the click: look again
            # the end says why, and offers the record as a download (issue 49, point 11:
            # it named the server's file, "saved as table-....json", before)
            link = page.locator("#me a.download")
            link.wait_for(timeout=5000)
            assert page.inner_text("#me .ending").startswith("Winner: ")
            with page.expect_download() as got:
                link.click()
            downloaded = json.loads(Path(got.value.path()).read_text())
            download_name = got.value.suggested_filename
            page.screenshot(path=str(ARTIFACTS / "table_end.png"))
            assert clicks >= 1
            assert page.locator(".card .role:not(:empty)").count() == 10  # all revealed
            narration = page.inner_text("#narration")
            assert "Day 1 begins." in narration
            assert "wins." in narration or "draw" in narration
        finally:
            browser.close()
    saved = list(records.glob("table-*.json"))
    assert len(saved) == 1

    import mafia_env

    record = json.loads(saved[0].read_text())
    assert downloaded == record and download_name == saved[0].name
    env = mafia_env.replay(record)
    assert env.winner == record["winner"]
    assert (ARTIFACTS / "table_end.png").stat().st_size > 10_000


def boxes_overlap(a, b, slack=1.0):
    """Return whether two bounding boxes {x, y, width, height} overlap (beyond `slack` px)."""
    return (
        a["x"] + a["width"] - slack > b["x"]
        and b["x"] + b["width"] - slack > a["x"]
        and a["y"] + a["height"] - slack > b["y"]
        and b["y"] + b["height"] - slack > a["y"]
    )


def new_seat_link(base, **config):
    """Create a table over the API; return the seat-1 link and the watch link."""
    import httpx

    body = {"variant": "sport", "humans": [1], "bot_delay": 0.01, "turn_timeout": None, **config}
    r = httpx.post(base + "/api/tables", json=body, timeout=30)
    assert r.status_code == 200, r.text
    return r.json()["seats"]["1"], r.json()["watch"]


@pytest.mark.parametrize("viewport", [(390, 844), (1280, 900)], ids=["phone", "desktop"])
def test_the_page_fits_a_phone_and_a_desktop_in_every_language(server, viewport):
    from mafia_env.lang import table as words

    base, _ = server
    ARTIFACTS.mkdir(exist_ok=True)
    width, height = viewport
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            for lang in ("en", "ru", "uk"):
                page = browser.new_page(viewport={"width": width, "height": height})
                # the host's form fits the screen, in the language chosen
                page.goto(f"{base}/?lang={lang}")
                page.locator("#variant option").first.wait_for(state="attached")
                assert page.evaluate("document.documentElement.scrollWidth") <= width
                assert page.text_content("#host h2") == words(lang).PAGE["set_table"]
                page.screenshot(path=str(ARTIFACTS / f"table_host_{lang}_{width}x{height}.png"))
                link, watch = new_seat_link(base, seed=7)
                page.goto(f"{base}{link}&lang={lang}")
                # seat 1 opens day 1: the page waits for the person's first move
                page.locator("#actions .group[data-kind=pass] button").wait_for()
                page.wait_for_timeout(300)  # let the layout settle
                page.screenshot(path=str(ARTIFACTS / f"table_{lang}_{width}x{height}.png"))
                cards = [c.bounding_box() for c in page.locator(".card").all()]
                assert len(cards) == 10
                center = [page.locator(s).bounding_box() for s in ("#phase", "#outcome")]
                for i, a in enumerate(cards):
                    assert a["x"] >= 0 and a["x"] + a["width"] <= width, (lang, i, a)
                    for b in cards[i + 1 :] + center:
                        assert not boxes_overlap(a, b), (lang, viewport, a, b)
                scroll = page.evaluate("document.documentElement.scrollWidth")
                assert scroll <= width, f"the page is {scroll}px wide on a {width}px screen"
                # every word on the page in the seat's language, from the language tables
                page_words, table_words = words(lang).PAGE, words(lang).TABLE
                assert page.text_content("#moves-title") == page_words["your_turn"]
                assert page.inner_text("#outcome") == page_words["your_turn"]
                assert page_words["you_are"].split("{")[0] in page.inner_text("#me")
                role = page.locator(".card.you .role").text_content()
                assert role in words(lang).ROLES.values()
                passing = page.inner_text("#actions .group[data-kind=pass] button")
                assert passing == table_words["pass"]["SPEECH"]
                titles = page.locator("#actions .group .title").all_inner_texts()
                assert table_words["groups"]["nominate"] in titles
                assert page.text_content("#story h2") == page_words["moderator"]
                first = page.locator("#narration li").first
                assert "mine" in first.get_attribute("class")  # told to this seat alone
                assert first.inner_text().startswith(words(lang).EVENTS["ROLE"].split("{")[0])
                # a player who is out is told he may watch, not to wait for a turn
                page.evaluate(
                    """() => {
                        const s = structuredClone(state);
                        s.seats[0].alive = false;
                        Object.assign(s, {actions: [], your_turn: false, log: [],
                                          log_from: log.length});
                        render(s);
                    }"""
                )
                assert page.inner_text("#actions") == page_words["you_are_out"]
                # the host's view shows no moves panel
                page.goto(f"{base}{watch}&lang={lang}")
                page.locator(".card").first.wait_for()
                assert page.is_hidden("#moves")
                # a link with a wrong key: a clear page, not an empty table
                page.goto(f"{base}{link.replace('token=', 'token=x')}&lang={lang}")
                page.locator("#closed-title").wait_for()
                assert page.is_hidden("#game")
                assert page.text_content("#closed-title") == page_words["closed_title"]
                assert page.inner_text("#closed-reason") == page_words["reasons"]["bad_token"]
                page.close()
        finally:
            browser.close()


def last_line_in_view(page) -> bool:
    """Return whether the moderator's last line is on screen and not covered by anything."""
    return page.evaluate(
        """() => {
            const items = document.querySelectorAll('#narration li');
            const li = items[items.length - 1];
            if (!li) return false;
            const r = li.getBoundingClientRect();
            const x = r.left + Math.min(20, r.width / 2), y = r.top + r.height / 2;
            if (y < 0 || y > innerHeight || x < 0 || x > innerWidth) return false;
            const hit = document.elementFromPoint(x, y);
            return hit === li || li.contains(hit);
        }"""
    )


@pytest.mark.parametrize("viewport", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_the_log_stays_in_view_messages_are_translated_and_a_lost_link_shows(server, viewport):
    """Issue 30, items 11-13, in every language: the log in view during a speech, a labelled
    talk box that sends on Enter; the server's messages and the seat link in the host's
    language; a busy create button, and a page that stops its actions while disconnected."""
    from mafia_env.lang import table as words
    from mafia_env.table.words import PAGE, message

    base, _ = server
    width, height = viewport
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            for lang in ("en", "ru", "uk"):
                mine = PAGE[lang]
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(f"{base}/?lang={lang}")
                page.locator("#variant option").first.wait_for(state="attached")
                page.select_option("#variant", "sport")
                page.fill("#bot-delay", "0.01")
                page.fill("#turn-timeout", "300")
                page.fill("#seed", "7")
                # 13. creating takes a while (held here until released): the page shows it
                held: list = []

                def hold(route):  # one parameter: playwright passes (route, request) to two
                    held.append(route)  # noqa: B023 (called within this iteration)

                page.route("**/api/tables**", hold)
                create = page.locator("#host-form button[type=submit]")
                create.click()
                while not held:
                    page.wait_for_timeout(20)
                assert page.evaluate("document.querySelector('#host-form').ariaBusy") == "true"
                assert create.is_disabled() and create.inner_text() == mine["creating"]
                page.wait_for_timeout(300)
                assert create.is_disabled()  # still at work
                held[0].continue_()
                link = page.locator("#link-list a").first
                link.wait_for()
                assert not create.is_disabled()
                assert create.inner_text() == words(lang).PAGE["create"]
                page.unroute("**/api/tables**")
                # 12. the seat's link carries the host's language
                href = link.get_attribute("href")
                assert f"lang={lang}" in href, href
                page.goto(base + href)
                passing = page.locator("#actions .group[data-kind=pass] button")
                passing.wait_for()
                assert page.evaluate("document.documentElement.lang") == lang
                # 11. during the speech the log is in view, at the top and by the buttons
                page.wait_for_timeout(200)
                assert last_line_in_view(page), (lang, viewport, "top")
                passing.scroll_into_view_if_needed()
                assert last_line_in_view(page), (lang, viewport, "by the buttons")
                label = page.locator("label[for=say]")
                assert label.is_visible() and label.inner_text() == mine["say_label"]
                page.fill("#say", "Hello, table!")
                page.press("#say", "Enter")
                page.locator("#narration li", has_text="Hello, table!").wait_for()
                assert page.input_value("#say") == ""
                assert passing.is_visible()  # a remark is not a move: the speech goes on
                assert last_line_in_view(page), (lang, viewport, "after the remark")
                page.screenshot(path=str(ARTIFACTS / f"table_speech_{lang}_{width}x{height}.png"))
                # 12. the server's messages come in the page's language
                page.evaluate("ws.send(JSON.stringify({type: 'hello'}))")
                toast = page.locator("#toast.show")
                toast.wait_for()
                assert toast.inner_text() == message("unknown_message", lang)
                # 13. the connection drops (and stays down): the page says so and stops
                clock = page.inner_text("#clock")
                assert clock, "a person's turn with a time limit shows its clock"
                page.evaluate(
                    """() => {
                        window.RealWebSocket = WebSocket;
                        window.WebSocket = function (url) {
                            return new RealWebSocket(url.replace('/ws/', '/nowhere/'));
                        };
                        ws.close();
                    }"""
                )
                offline = page.locator("#offline")
                offline.wait_for()
                assert offline.inner_text() == mine["offline"]
                buttons = page.locator("#actions button")
                assert buttons.count() > 0
                assert all(b.is_disabled() for b in buttons.all())
                assert page.locator("#say").is_disabled()
                stopped = page.inner_text("#clock")
                page.wait_for_timeout(1300)
                assert page.inner_text("#clock") == stopped  # the clock stands still
                assert page.locator("#clock.stopped").count() == 1
                page.screenshot(path=str(ARTIFACTS / f"table_offline_{lang}_{width}x{height}.png"))
                # it comes back: the same seat, live again
                page.evaluate("() => { window.WebSocket = window.RealWebSocket; }")
                offline.wait_for(state="hidden", timeout=15_000)
                passing.wait_for()
                assert not passing.is_disabled() and not page.locator("#say").is_disabled()
                assert page.locator("#clock.stopped").count() == 0
                page.close()
        finally:
            browser.close()


# ------------------------------------------------------------------ issue 49: people's table


def seat_state(variant, until, seat, lang="en", n=None, knobs=None, seed=0, people=(1,)):
    """Return the state message the server sends `seat` (0-based; None: the host) at the
    first point of a random game of `variant` where `until(game)` holds (the first seed
    whose game gets there), with the whole log, as a connection's first message."""
    import asyncio

    import mafia_env
    from mafia_env.table.core import Table
    from mafia_env.table.settings import TableConfig

    for s in range(seed, seed + 300):
        env = mafia_env.env(variant, n, **(knobs or {}))
        env.reset(seed=s)
        rng, u = random.Random(s), env.unwrapped
        while not u.game.over and not until(u.game):
            env.step(rng.choice(u.legal_actions()))
        if until(u.game):
            break
    else:
        raise AssertionError("no game got there")

    async def view():
        config = TableConfig(variant=variant, humans=people, knobs=knobs or {})
        t = Table(config, bots={}, env=env)
        t._all_joined.set()  # everyone sat down; the turn of `seat` is open
        t._awaiting = seat if seat is not None and u.game.actor == seat else None
        return t.message(seat, lang)

    return json.loads(json.dumps(asyncio.run(view())))


MOVES_IN_VIEW = """() => {
    // every move button shown (not in a folded group) and every fold's title: inside the
    // viewport and not covered, where a finger or a mouse lands on its centre
    const out = [];
    for (const b of document.querySelectorAll('#actions button, #actions summary')) {
        if (!b.checkVisibility()) continue;
        const r = b.getBoundingClientRect();
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        const inside = r.top >= 0 && r.bottom <= innerHeight && r.left >= 0
            && r.right <= innerWidth;
        const hit = document.elementFromPoint(x, y);
        out.push({what: b.textContent, inside, free: !!hit && (hit === b || b.contains(hit)),
                  hit: hit ? (hit.id || hit.className || hit.tagName) : null, y});
    }
    return out;
}"""


def moves_in_view(page, what):
    """Assert every move of the turn is in view and uncovered; return how many there are."""
    found = page.evaluate(MOVES_IN_VIEW)
    bad = [m for m in found if not (m["inside"] and m["free"])]
    assert found and not bad, (what, bad)
    return len(found)


def show(page, state):
    """Render a state as the page does a connection's first message."""
    page.evaluate("(s) => { log = []; turnKey = null; render(s); }", state)  # a new turn
    page.wait_for_timeout(50)


def no_overlap(page, what):
    cards = [c.bounding_box() for c in page.locator(".card").all()]
    center = [page.locator(s).bounding_box() for s in ("#phase", "#outcome")]
    width = page.viewport_size["width"]
    for i, a in enumerate(cards):
        assert a["x"] >= 0 and a["x"] + a["width"] <= width, (what, i, a)
        for b in cards[i + 1 :] + center:
            assert not boxes_overlap(a, b), (what, i, a, b)
    assert page.evaluate("document.documentElement.scrollWidth") <= width, what


@pytest.mark.parametrize("viewport", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_every_move_of_a_turn_is_in_view_and_the_vote_shows_the_count(server, viewport):
    """Issue 49, points 1, 2, 5, 8: when a turn comes, the page brings its moves into view,
    none under the moderator's panel, in a speech, a vote, an open count and at night, at 13
    and 20 seats; the count per nominee in nomination order, the voter's own vote; long words
    wrap, and the log's numbers of 100 and more show whole."""
    from mafia_env.engine.kinds import Turn

    base, _ = server
    width, height = viewport
    tag = f"{width}x{height}"
    ARTIFACTS.mkdir(exist_ok=True)
    sheriff = ["sheriff", "mafia", "civilian", "civilian", "civilian", "civilian", "mafia"]
    sheriff += ["civilian", "don", "civilian"]
    states = {
        "vote": seat_state("sport", lambda g: g.turn == Turn.VOTE and g.actor == 0, 0),
        "count": seat_state(
            "club", lambda g: g.turn == Turn.OPEN_VOTE and g.actor == 0 and g.vote.counted, 0
        ),
        "night": seat_state(
            "sport",
            lambda g: g.turn == Turn.SHERIFF_CHECK and g.actor == 0,
            0,
            knobs={"roles": sheriff},
        ),
        "city13": seat_state("city", lambda g: g.turn == Turn.SPEECH and g.actor == 0, 0, n=13),
        "city20": seat_state(
            "city", lambda g: g.turn == Turn.SPEECH and g.actor == 0, 0, n=20, lang="ru"
        ),
    }
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": width, "height": height})
        try:
            link, _ = new_seat_link(base, seed=7)
            page.goto(f"{base}{link}")
            page.locator("#actions .group[data-kind=pass] button").wait_for()
            page.wait_for_timeout(200)
            assert moves_in_view(page, "speech") >= 11  # end, nominate 1..10, the folds
            page.screenshot(path=str(ARTIFACTS / f"table49_speech_{tag}.png"))
            for name, state in states.items():
                show(page, state)
                moves_in_view(page, name)
                no_overlap(page, name)
                page.screenshot(path=str(ARTIFACTS / f"table49_{name}_{tag}.png"))
            # the vote: nominees in nomination order, who nominated each; buttons in order
            show(page, states["vote"])
            rows = page.locator("#ballot .row .nominee").all_inner_texts()
            order = [f"Player {r['seat']}" for r in states["vote"]["vote"]["rows"]]
            assert rows == order and len(order) >= 2
            buttons = page.locator("#actions .group[data-kind=vote] button").all_inner_texts()
            assert [f"Player {b}" for b in buttons] == [r for r in order if r[7:] in buttons]
            assert all(page.locator("#ballot .by").all_inner_texts())
            voted = json.loads(json.dumps(states["vote"]))  # the state after a vote: his own
            voted["vote"]["mine"] = {"kind": "vote", "seat": int(buttons[0])}
            voted["your_turn"], voted["actions"] = False, []
            show(page, voted)
            assert page.inner_text("#ballot .mine") == f"Your vote: player {buttons[0]}"
            # the open count: the nominees counted show their hands, the one counted now
            show(page, states["count"])
            vote = states["count"]["vote"]
            counting = page.locator("#ballot .row.counting .nominee").inner_text()
            assert counting == f"Player {vote['counting']}"
            first = vote["rows"][0]
            assert first["hands"] is not None and first["seat"] != vote["counting"]
            shown = page.locator("#ballot .row .hands").first.inner_text()
            assert shown.startswith(f"hands: {len(first['hands'])} (")
            # a long word wraps in the log, and numbers of 100 and more show whole
            long = json.loads(json.dumps(states["city13"]))
            line = {
                "text": "Player 2 ends the speech.",
                "mark": "",
                "mine": False,
                "private": False,
            }
            long["log"] += [line] * 120 + [{**line, "text": "Player 2 says: " + "ж" * 280}]
            show(page, long)
            fits = page.evaluate(
                """() => {
                    // each line inside the log's width; its number's column as wide as the
                    // number written in it (the number is the line's ::before)
                    const ctx = document.createElement('canvas').getContext('2d');
                    return [...document.querySelectorAll('#narration li')].every((li, i) => {
                        const n = getComputedStyle(li, '::before');
                        ctx.font = `${n.fontWeight} ${n.fontSize} ${n.fontFamily}`;
                        const need = ctx.measureText(String(i + 1)).width;
                        return li.scrollWidth <= li.clientWidth + 1
                            && parseFloat(n.width) + 0.5 >= need && li.offsetLeft >= 0;
                    });
                }"""
            )
            assert fits and len(long["log"]) >= 100
            assert page.evaluate("document.documentElement.scrollWidth") <= width
        finally:
            browser.close()


def test_the_host_gives_fouls_from_the_page_and_every_seat_sees_them(server):
    """Issue 49, point 3 (SPORT-F1, SPORT-F2): the host's view is the moderator's: a foul
    button per seat and, folded, a removal; the seat's page shows the counts, the silenced
    day, and the player removed. And talk in any script (5), the night's countdown (4), the
    waiting screen (7)."""
    base, _ = server
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            link, watch = new_seat_link(base, seed=7)
            seat = browser.new_page(viewport={"width": 390, "height": 844})
            host = browser.new_page(viewport={"width": 1280, "height": 800})
            seat.goto(f"{base}{link}&lang=ru")
            seat.locator("#actions .group[data-kind=pass] button").wait_for()
            # point 5: what a person types, in any script, reaches the table as typed
            typed = "¿Qué? 🙂 пʼять 你好 مرحبا"
            seat.fill("#say", typed)
            seat.press("#say", "Enter")
            said = seat.locator("#narration li").last
            said.filter(has_text="你好").wait_for()
            assert said.inner_text() == f"Игрок 1 говорит: «{typed}»."
            host.goto(f"{base}{watch}")
            fouls = host.locator("#calls .group[data-kind=foul] button[data-seat='4']")
            fouls.wait_for()
            assert "3 fouls take the next day's speech, 4 remove" in host.inner_text("#referee")
            for k in range(1, 4):
                fouls.click()
                card = seat.locator(".card[data-seat='4'] .fouls")
                card.locator(f"xpath=self::*[@data-fouls='{k}']").wait_for()
            assert card.inner_text() == "фолов: 3"
            silent = seat.locator(".card.silent[data-seat='4']")
            assert silent.get_attribute("data-silent") == "без речи в день 2"
            host.locator(".card[data-seat='4'] .fouls[data-fouls='3']").wait_for()
            host.click("#calls .group[data-kind=remove] summary")
            host.click("#calls .group[data-kind=remove] button[data-seat='5']")
            seat.locator(".card.out[data-seat='5']").wait_for()
            # (the host's page redraws its calls on its own next update: wait for it)
            host.wait_for_function(
                "() => !document.querySelector(\"#calls button[data-seat='5']\")"
            )
            assert not host.locator("#calls button[data-seat='5']").count()
            host.screenshot(path=str(ARTIFACTS / "table49_host_1280x800.png"))
            seat.screenshot(path=str(ARTIFACTS / "table49_fouls_390x844.png"))
            # point 4: at night a seat with nothing to do sees the time to morning
            night = seat.evaluate(
                """() => ({...state, phase: 'night', your_turn: false, actions: [],
                           may_talk: false, time_left: null, night_left: 12.0, log: [],
                           log_from: log.length})"""
            )
            seat.evaluate("(s) => render(s)", night)
            assert seat.inner_text("#clock") == "Утро через 12 с"
            # point 7: the waiting screen names the one seat it waits for, and has no talk box
            two, _ = new_seat_link(base, seed=7, humans=[1, 2], night_turn=5)
            seat.goto(f"{base}{two}")
            seat.locator("#phase", has_text="Waiting for seat 2").wait_for()
            assert seat.is_hidden("#talk") and not seat.locator("#actions button").count()
        finally:
            browser.close()
