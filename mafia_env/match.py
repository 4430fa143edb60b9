"""`Seating` and the games it plays, kept under this name for code written before they moved
to `mafia_env.seating.games` (import from there)."""

from __future__ import annotations

from mafia_env.seating.games import *  # noqa: F403
from mafia_env.seating.games import __all__  # noqa: F401
