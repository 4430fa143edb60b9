"""`Seating` and the games it plays, kept under this name for code written before they moved
to `mafia_env.seating.match` (import from there)."""

from __future__ import annotations

from mafia_env.seating.match import *  # noqa: F403
from mafia_env.seating.match import __all__  # noqa: F401
