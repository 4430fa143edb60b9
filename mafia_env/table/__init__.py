"""The table where people play with bots in the empty seats (extra: ``table``).

``python -m mafia_env.table`` serves the page; `view` (what a seat may know) and `core` (the
game host) need no web framework, so the terminal mode (`mafia_env.play`) uses them too.
"""

from __future__ import annotations

from mafia_env.table.core import Table, TableConfig, TableError
from mafia_env.table.view import action_groups, seat_view

__all__ = ["Table", "TableConfig", "TableError", "action_groups", "seat_view"]
