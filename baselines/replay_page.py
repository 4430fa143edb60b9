"""A static HTML page that replays one game record move by move, from any seat's view.

    write_page(record, "game-0001.html", title="...", seats={1: "rule", ...})

The page holds the narration of every view (the moderator's: every event; the table's: the
public events; each seat's: the public events and its own) and, for each move, how far each
view had got; a slider and buttons step through the moves, a menu picks the view. It needs
no server and no script from elsewhere.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from mafia_env.engine.events import Ev
from mafia_env.engine.roles import Role
from mafia_env.lang import DEFAULT, say
from mafia_env.narrate import _Listener
from mafia_env.records import replay


def views(record: dict[str, Any], lang: str = DEFAULT) -> dict[str, Any]:
    """Return the narration of every view and, per move, each view's line count."""
    marks = _event_marks(record)  # events before the first move, then after each move
    env = replay(record)
    game = env.game
    events, talk = game.events, game.talk
    lines: dict[str, list[str]] = {"moderator": [], "table": []}
    after: dict[str, list[int]] = {"moderator": [], "table": []}  # line count after event i
    roles: dict[int, Role] = {}
    for e in events:
        if e[0] == Ev.ROLE:
            roles[e[1]] = Role(e[3])
        line = say(e, lang, roles.get(e[1]), talk)
        if line:
            lines["moderator"].append(line)
        after["moderator"].append(len(lines["moderator"]))
    listeners = {"table": _Listener(None, lang, talk)}
    for s in range(env.n):
        listeners[f"player {s + 1}"] = _Listener(s, lang, talk)
        lines[f"player {s + 1}"], after[f"player {s + 1}"] = [], []
    for name, listener in listeners.items():
        for i in range(len(events)):
            listener.catch_up(events[: i + 1])
            after[name].append(len(listener.lines))
        lines[name] = listener.lines
    counts = {
        name: [after[name][m - 1] if m else 0 for m in marks] for name in lines
    }  # lines shown after each move
    return {"lines": lines, "counts": counts, "moves": len(marks) - 1}


def _event_marks(record: dict[str, Any]) -> list[int]:
    """Return the number of events logged before the first move and after each move."""
    marks: list[int] = []
    replay(record, watch=lambda env: marks.append(len(env.game.events)))
    return marks


PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font: 15px/1.4 system-ui, sans-serif; margin: 1.5em auto; max-width: 52em; }}
#story {{ white-space: pre-wrap; border: 1px solid #ccc; padding: .8em; min-height: 20em; }}
#story div:last-child {{ background: #ffe9a8; }}
.seats td, .seats th {{ padding: 0 .6em; text-align: left; }}
</style></head><body>
<h1>{title}</h1>
<table class="seats"><tr><th>seat</th><th>policy</th><th>role</th></tr>{seats}</table>
<p>Result: <b>{winner}</b>. View
<select id="view">{options}</select>
<button id="first">&#x23EE;</button><button id="prev">&#x25C0;</button>
<button id="next">&#x25B6;</button><button id="last">&#x23ED;</button>
move <span id="at"></span> of {moves}</p>
<input id="move" type="range" min="0" max="{moves}" value="{moves}" style="width:100%">
<div id="story"></div>
<script id="data" type="application/json">{data}</script>
<script>
const data = JSON.parse(document.getElementById("data").textContent);
const view = document.getElementById("view"), move = document.getElementById("move");
function show() {{
  const v = view.value, m = +move.value, n = data.counts[v][m];
  const story = document.getElementById("story");
  story.replaceChildren(...data.lines[v].slice(0, n).map(t => {{
    const d = document.createElement("div"); d.textContent = t; return d; }}));
  document.getElementById("at").textContent = m;
}}
const go = m => {{ move.value = Math.max(0, Math.min({moves}, m)); show(); }};
document.getElementById("first").onclick = () => go(0);
document.getElementById("prev").onclick = () => go(+move.value - 1);
document.getElementById("next").onclick = () => go(+move.value + 1);
document.getElementById("last").onclick = () => go({moves});
view.onchange = show; move.oninput = show; show();
</script></body></html>
"""


def page(
    record: dict[str, Any], title: str, seats: dict[int, str] | None = None, lang: str = DEFAULT
) -> str:
    """Return the HTML replay page of `record`."""
    data = views(record, lang)
    seats = seats or {}
    rows = "".join(
        f"<tr><td>{k}</td><td>{html.escape(seats.get(k, ''))}</td><td>{html.escape(role)}</td></tr>"
        for k, role in enumerate(record["deal"], 1)
    )
    options = "".join(
        f'<option value="{html.escape(v)}">{html.escape(v)}</option>' for v in data["lines"]
    )
    payload = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    return PAGE.format(
        lang=lang,
        title=html.escape(title),
        seats=rows,
        winner=html.escape(str(record.get("winner"))),
        options=options,
        moves=data["moves"],
        data=payload,
    )


def write_page(
    record: dict[str, Any],
    path: str | Path,
    title: str,
    seats: dict[int, str] | None = None,
    lang: str = DEFAULT,
) -> Path:
    """Write the replay page of `record` to `path`; return the path."""
    path = Path(path)
    path.write_text(page(record, title, seats, lang), encoding="utf-8")
    return path


__all__ = ["page", "views", "write_page"]
