"""The table where people play with bots in the empty seats (extra: ``table``).

``python -m mafia_env.table`` serves the page. What needs no web framework: `view` (what a
seat may know, in its words), `words` (the table's own words: the server's messages in every
language), `settings` (what a host may choose), `seats` (links, tokens, connections), `core`
(one game's host), `night_plan` (a night's schedule, fixed by the public rules), `bots` (the bots
and models offered, loaded once), `database` (SQLite: moves and table talk) and `tables`
(limits, expiry, retention, restart); the terminal mode (`mafia_env.seating.terminal`) uses
`view` too. `server` is the web app.
"""

from __future__ import annotations

from mafia_env.table.core import Table, TableError
from mafia_env.table.settings import TableConfig
from mafia_env.table.view import action_groups, seat_view

__all__ = ["Table", "TableConfig", "TableError", "action_groups", "seat_view"]
