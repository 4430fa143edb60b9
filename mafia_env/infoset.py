"""One seat's information set: the games it cannot tell from the real one, drawn from its belief.

`sample(game, seat, rng, k)` is the one sampler every search uses (the search bot through
`InfoSet`, `Game.resample`, OpenSpiel's `resample_from_infostate`): it draws `k` worlds from
the seat's belief (`mafia_env.belief`: uniform over the deals the seat cannot rule out, or
Bayes under a `model`), each played again from the deal so that the seat sees exactly what
it saw. What the seat does not know is drawn again in each world: the roles, the others'
hidden night choices (as a search finds them under the drawn deal: the sheriff's and the
don's checks follow the deal drawn, not the real one) and the future's chance.

A world depends only on what the seat saw (its events and its options at its own turns)
and on `rng`: two games the seat cannot tell apart give the same worlds from the same
random stream. No world is the real game or a copy of it, nor carries its seed. If the
belief loses track of the game, `mafia_env.belief.BeliefError` says so (no fallback).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from mafia_env.belief import belief
from mafia_env.engine.game import Game
from mafia_env.engine.knowledge import install


def sample(game: Any, seat: int, rng: random.Random, k: int = 1, model: Any = None) -> list[Game]:
    """Return `k` games drawn from `seat`'s belief over `game` (see the module docstring)."""
    return belief(_python(game), seat, model).sample(rng, k)


def resample(game: Any, seat: int, rng: random.Random) -> Game:
    """Return one game drawn from `seat`'s belief over `game` (`Game.resample`)."""
    return sample(game, seat, rng)[0]


class InfoSet:
    """One seat's information set at the current move: what a search bot may use.

    `vector` is the seat's vector observation; `sample(rng)` returns a game (the engine's
    `Game`) in which the seat would have seen exactly what it saw, with what it does not
    know drawn again (`mafia_env.infoset.sample`); `worlds(rng, k, model)` draws `k` of
    them. The real game stays private: a bot that only samples cannot read the hidden roles.
    """

    def __init__(self, game: Any, seat: int, vector: np.ndarray):
        self._game = game
        self.seat = seat
        self.vector = vector
        self.rules = game.rules
        self.n = game.n

    def sample(self, rng: random.Random) -> Game:
        """Return a game the seat cannot tell from the real one (a `random.Random` draws it)."""
        return sample(self._game, self.seat, rng)[0]

    def worlds(self, rng: random.Random, k: int, model: Any = None) -> list[Game]:
        """Return `k` games the seat cannot tell from the real one, drawn from its belief
        (deduction, or Bayes under `model`)."""
        return sample(self._game, self.seat, rng, k, model)

    def belief(self, model: Any = None) -> Any:
        """Return the seat's belief over the deal (`mafia_env.belief`: deduction, or Bayes
        under `model`); its `sample(rng, k)` draws games from it, weighted."""
        return _belief(self._game, self.seat, model)


def _python(game: Any) -> Game:
    """Return the Python `Game` of `game` (a C-core game's twin, which holds the events)."""
    shadow = getattr(game, "shadow", None)
    return shadow() if callable(shadow) else game


def _belief(game: Any, seat: int, model: Any = None) -> Any:
    return belief(_python(game), seat, model)


def install_answers() -> None:
    """Give the engine `Game.belief` and `Game.resample`'s answers (this module's)."""
    install(_belief, resample)


__all__ = ["InfoSet", "install_answers", "resample", "sample"]
