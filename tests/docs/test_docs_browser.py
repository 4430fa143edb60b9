"""The documentation site in a real browser, at a phone's width and a desktop's.

The site is built without the API reference (mkdocstrings: the slow part of `make docs`) into a
temporary folder, served on the loopback, and opened in Debian's chromium at 390 x 844 and
1280 x 800: the page body never scrolls sideways, a code block scrolls inside itself, and a
name in a table's first column (a knob, a piece, a turn) is never broken across lines. Needs
/usr/bin/chromium and Playwright's Python package, as tests/table/test_table_browser.py; it never
downloads a browser.
"""

from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import threading
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("mkdocs")
pytest.importorskip("mkdocs_gen_files")

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
# the home page, the pages with the widest tables and code, and a rule set with many knobs
PAGES = [
    "",
    "quickstart/",
    "results/",
    "environments/sport/",
    "environments/online/",
    "environments/city/",
    "guides/speed/",
    "guides/benchmark/",
    "guides/exploitability/",
    "guides/belief/",
    "versions/",
]

pytestmark = [
    pytest.mark.slow,
    # one worker builds the site and runs every test of it (each worker built its own: 12-15 s)
    pytest.mark.xdist_group("docs_browser"),
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed at /usr/bin/chromium "
        "(apt-get install -y chromium); the browser test never downloads one",
    ),
]

# What the page says about itself, measured in the browser.
MEASURE = """() => {
  const root = document.documentElement;
  const width = root.clientWidth;
  const sideways = root.scrollWidth - width;
  const blocks = [...document.querySelectorAll('.md-content pre')].filter(p => p.offsetParent);
  const outside = blocks.filter(p => p.getBoundingClientRect().right > width + 1).length;
  const stuck = blocks.map(p => p.querySelector('code')).filter(c => c
      && c.scrollWidth > c.clientWidth + 1
      && !['auto', 'scroll'].includes(getComputedStyle(c).overflowX)).length;
  const broken = [...document.querySelectorAll('.md-content td:first-child code')]
      .filter(c => c.offsetParent && !/\\s/.test(c.textContent))
      .filter(c => c.getClientRects().length > 1).map(c => c.textContent);
  const scrolled = blocks.filter(p => p.querySelector('code')
      && p.querySelector('code').scrollWidth > p.querySelector('code').clientWidth + 1).length;
  return {sideways, blocks: blocks.length, outside, stuck, broken, scrolled,
          height: root.scrollHeight};
}"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Build the site (without the API reference) and serve it; yield its base URL."""
    tmp = tmp_path_factory.mktemp("site")
    config = tmp / "mkdocs.yml"
    config.write_text(
        f"INHERIT: {ROOT / 'mkdocs.yml'}\n"
        f"docs_dir: {ROOT / 'docs'}\n"
        f"site_dir: {tmp / 'site'}\n"
        "strict: false\n"
        "plugins:\n"
        "  - gen-files:\n"
        "      scripts:\n"
        f"        - {ROOT / 'scripts' / 'docs' / 'gen_pages.py'}\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    handler = functools.partial(Quiet, directory=str(tmp / "site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    thread.join(timeout=5)


@pytest.fixture(scope="module")
def measured(site):
    """Open every page at each width; return (size, page) -> what MEASURE found."""
    out = {}
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            for size, (w, h) in SIZES.items():
                page = browser.new_page(viewport={"width": w, "height": h})
                for path in PAGES:
                    page.goto(site + path)
                    out[size, path] = page.evaluate(MEASURE)
                page.close()
        finally:
            browser.close()
    return out


@pytest.mark.parametrize("size", SIZES)
def test_no_page_scrolls_sideways(measured, size):
    """The page body fits the screen: what is wider (a table, a code block) scrolls in its
    own frame."""
    wide = {path: m["sideways"] for (s, path), m in measured.items() if s == size}
    assert all(v <= 0 for v in wide.values()), wide


@pytest.mark.parametrize("size", SIZES)
def test_code_blocks_scroll_inside_themselves(measured, size):
    """Every code block lies within the screen, and a line longer than the block scrolls
    inside it; at a phone's width some do, so the check is not empty."""
    rows = {path: m for (s, path), m in measured.items() if s == size}
    assert sum(m["blocks"] for m in rows.values()) > 10
    for path, m in rows.items():
        assert m["outside"] == 0 and m["stuck"] == 0, (path, m)
    if size == "phone":
        assert sum(m["scrolled"] for m in rows.values()) > 0


@pytest.mark.parametrize("size", SIZES)
def test_no_name_in_a_table_is_broken_across_lines(measured, size):
    """A knob's, piece's or turn's name in a table's first column is on one line."""
    broken = {path: m["broken"] for (s, path), m in measured.items() if s == size and m["broken"]}
    assert not broken


def test_a_rule_set_page_is_not_a_wall(measured):
    """A rule set's page folds what it repeats (the common rules, the knobs that change nothing,
    the sample game's narration) and stays under 12,000 px at a desktop's width."""
    for (size, path), m in measured.items():
        if size == "desktop" and path.startswith("environments/"):
            assert m["height"] < 12_000, (path, m["height"])
