"""The trackers of each game, by (seat, model key): made on first use, kept while the game lives.

Deduction's trackers are made here (the observation's belief piece asks this module);
Bayes's are made by `mafia_env.belief.tracker`, which reads the movers' observations
(`mafia_env.belief.bayes`): this module imports neither, so the observer can use it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from mafia_env.belief.track import Tracker
from mafia_env.engine.game import Game
from mafia_env.errors import ConfigError

_TRACKERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def cached(game: Game, seat: int, key: Any, make: Callable[[], Any]) -> Any:
    """Return `game`'s tracker for (`seat`, `key`), made by `make()` on first use."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.n:
        raise ConfigError(f"seat must be 0..{game.n - 1}; got {seat!r}")
    per_game = _TRACKERS.get(game)
    if per_game is None:
        per_game = _TRACKERS[game] = {}
    t = per_game.get((seat, key))
    if t is None:
        t = per_game[(seat, key)] = make()
    return t


def deduction(game: Game, seat: int) -> Tracker:
    """Return the deduction tracker of `seat`'s view of `game`."""
    return cached(game, seat, None, lambda: Tracker(game, seat))


def matrix(game: Game, seat: int) -> np.ndarray:
    """Return `seat`'s deduction marginals [n, R] (the observation's belief piece)."""
    return deduction(game, seat).matrix()
