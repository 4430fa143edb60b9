"""End to end: a person sets a table and plays a seat through the page in a real browser.

Needs Debian's chromium at /usr/bin/chromium (CI: ``apt-get install -y chromium``) and
Playwright's Python package; it never downloads a browser. Screenshots go to artifacts/.
"""

from __future__ import annotations

import random
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
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
            # the host sets a SPORT table: a person in seat 1, random bots in the others
            page.goto(base + "/")
            page.locator("#variant option").first.wait_for(state="attached")
            assert page.is_hidden("#game") and page.is_visible("#host-form")
            page.select_option("#variant", "sport")
            page.fill("#num", "10")
            page.fill("#bot-delay", "0.02")
            page.fill("#turn-timeout", "0")
            page.fill("#seed", "5")
            assert page.input_value("#who-1") == "person"
            assert page.input_value("#who-2") == "bot:random"
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
            page.locator("#me", has_text="saved as").wait_for(timeout=5000)
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
    import json

    import mafia_env

    record = json.loads(saved[0].read_text())
    env = mafia_env.replay(record)
    assert env.winner == record["winner"]
    assert (ARTIFACTS / "table_end.png").stat().st_size > 10_000
