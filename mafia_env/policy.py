"""The `Policy` protocol and the registry, kept under this name for code written before they
moved to `mafia_env.seating.policies` (import from there)."""

from __future__ import annotations

from mafia_env.seating.policies import *  # noqa: F403
from mafia_env.seating.policies import __all__  # noqa: F401
