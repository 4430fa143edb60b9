#!/usr/bin/env python
"""Take the site's screenshots of the table: a desktop and a phone (docs/images/table-*.png).

    python scripts/docs/screenshots.py

Serves the table on a free loopback port (no records, tables in memory), sets a SPORT table
with a person in seat 1 and the default bot in the others, plays a few of the person's moves,
and photographs the seat's page in headless Debian chromium (/usr/bin/chromium, through
Playwright; nothing is downloaded). The PNGs are quantized to keep them small. Needs the
``table`` and ``dev`` extras.
"""

from __future__ import annotations

import io
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


def shrink(png: bytes, path: Path, colors: int = 96) -> None:
    from PIL import Image

    im = Image.open(io.BytesIO(png)).convert("RGB")
    im.quantize(colors=colors, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def take(base: str, page, name: str) -> Path:
    import httpx

    body = {"variant": "sport", "humans": [1], "bot_delay": 0.01, "turn_timeout": None, "seed": 5}
    link = httpx.post(base + "/api/tables", json=body, timeout=30).json()["seats"]["1"]
    page.goto(base + link + "&lang=en")
    page.locator("#actions .group[data-kind=pass] button").wait_for()
    page.click("#actions .group[data-kind=nominate] button >> nth=3")  # nominate player 4
    page.locator("#actions .group[data-kind=pass] button").wait_for()
    page.wait_for_timeout(400)  # let the layout settle
    path = IMAGES / f"table-{name}.png"
    shrink(page.screenshot(full_page=False), path)
    return path


def main() -> int:
    from playwright.sync_api import sync_playwright

    server, base = serve()
    IMAGES.mkdir(parents=True, exist_ok=True)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for name, (width, height) in VIEWPORTS.items():
                page = browser.new_page(viewport={"width": width, "height": height})
                path = take(base, page, name)
                print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes")
                page.close()
            browser.close()
    finally:
        server.should_exit = True
    return 0


if __name__ == "__main__":
    sys.exit(main())
