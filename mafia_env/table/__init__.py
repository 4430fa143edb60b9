"""The table where people play with bots in the empty seats (extra: ``table``).

``python -m mafia_env.table`` serves the page; `view` (what a seat may know), `config` (what
a host may choose), `core` (the game host), `bots`, `store` and `tables` need no web
framework, so the terminal mode (`mafia_env.play`) uses them too; `server` is the web app.
"""

from __future__ import annotations

from mafia_env.table.config import TableConfig
from mafia_env.table.core import Table, TableError
from mafia_env.table.view import action_groups, seat_view

__all__ = ["Table", "TableConfig", "TableError", "action_groups", "seat_view"]
