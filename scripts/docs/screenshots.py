#!/usr/bin/env python
"""Take the site's screenshots of the table (docs/images/table-*.png).

    python scripts/docs/screenshots.py

Serves the table on a free loopback port (no records, tables in memory) and photographs its
page in headless Debian chromium (/usr/bin/chromium, through Playwright; nothing is
downloaded): a SPORT table with a person in seat 1 and the default bot in the others, in
his first speech after he nominated player 4, on a desktop and a phone; the open count of a
CLUB vote on a phone (the state the server sends seat 1 at that point of a game, drawn by
the page); and the host's view after three fouls and a removal. The PNGs are quantized to
keep them small. Needs the ``table`` and ``dev`` extras.
"""

from __future__ import annotations

import io
import random
import socket
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IMAGES = ROOT / "docs" / "images"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
VIEWPORTS = {"desktop": (1280, 800), "phone": (390, 844)}
BODY = {"variant": "sport", "humans": [1], "bot_delay": 0.01, "turn_timeout": None, "seed": 5}


def serve():
    """Start the table in a thread on a free port; return (server, base URL)."""
    import uvicorn

    from mafia_env.table.server import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(records_dir=None)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}"


def shrink(png: bytes, path: Path, colors: int = 96) -> Path:
    from PIL import Image

    im = Image.open(io.BytesIO(png)).convert("RGB")
    im.quantize(colors=colors, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    return path


def links(base: str) -> dict:
    import httpx

    return httpx.post(base + "/api/tables", json=BODY, timeout=60).json()


def speech(base: str, page, name: str) -> Path:
    """A person's first speech, after he nominated player 4."""
    page.goto(base + links(base)["seats"]["1"] + "&lang=en")
    page.locator("#actions .group[data-kind=pass] button").wait_for()
    page.click("#actions .group[data-kind=nominate] button >> nth=3")  # nominate player 4
    page.locator("#actions .group[data-kind=pass] button").wait_for()
    page.wait_for_timeout(400)  # let the layout settle
    return shrink(page.screenshot(), IMAGES / f"table-{name}.png")


def count_message() -> dict:
    """Return what the server sends seat 1 in a CLUB open count, a nominee counted already."""
    import mafia_env
    from mafia_env.engine.kinds import Turn
    from mafia_env.table.core import Table
    from mafia_env.table.settings import TableConfig

    def there(game):
        return game.turn == Turn.OPEN_VOTE and game.actor == 0 and game.vote.counted >= 1

    for seed in range(500):
        env = mafia_env.env("club")
        env.reset(seed=seed)
        rng, u = random.Random(seed), env.unwrapped
        while not u.game.over and not there(u.game):
            env.step(rng.choice(u.legal_actions()))
        if there(u.game):
            break

    table = Table(TableConfig(variant="club", humans=(1,)), bots={}, env=env)
    table._all_joined.set()  # everyone sat down, and seat 1's turn is open
    table._awaiting = 0
    return table.message(0, "en")


def count(base: str, page, message: dict) -> Path:
    page.goto(base + links(base)["seats"]["1"] + "&lang=en")
    page.locator("#actions .group[data-kind=pass] button").wait_for()
    page.evaluate("(s) => { log = []; turnKey = null; render(s); }", message)
    page.wait_for_timeout(300)
    return shrink(page.screenshot(), IMAGES / "table-count-phone.png")


def viewport(name: str) -> dict:
    width, height = VIEWPORTS[name]
    return {"width": width, "height": height}


def referee(base: str, browser) -> Path:
    """The host's view: three fouls on player 4, player 6 removed."""
    made = links(base)
    seat = browser.new_page(viewport=viewport("phone"))
    seat.goto(base + made["seats"]["1"] + "&lang=en")
    seat.locator("#actions .group[data-kind=pass] button").wait_for()
    page = browser.new_page(viewport=viewport("desktop"))
    page.goto(base + made["watch"] + "&lang=en")
    foul = page.locator("#calls .group[data-kind=foul] button[data-seat='4']")
    for k in range(1, 4):
        foul.click()
        page.locator(f".card[data-seat='4'] .fouls[data-fouls='{k}']").wait_for()
    page.click("#calls .group[data-kind=remove] summary")
    page.click("#calls .group[data-kind=remove] button[data-seat='6']")
    page.locator(".card.out[data-seat='6']").wait_for()
    page.mouse.move(0, 0)
    page.wait_for_timeout(300)
    return shrink(page.screenshot(), IMAGES / "table-host.png")


def main() -> int:
    from playwright.sync_api import sync_playwright

    server, base = serve()
    IMAGES.mkdir(parents=True, exist_ok=True)
    message = count_message()
    taken = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for name, (width, height) in VIEWPORTS.items():
                page = browser.new_page(viewport={"width": width, "height": height})
                taken.append(speech(base, page, name))
                if name == "phone":
                    taken.append(count(base, page, message))
                page.close()
            taken.append(referee(base, browser))
            browser.close()
    finally:
        server.should_exit = True
    for path in taken:
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
