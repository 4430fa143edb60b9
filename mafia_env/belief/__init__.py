"""What one seat can know about the others: exact deduction and a Bayesian belief over the deal.

    from mafia_env.belief import belief
    b = belief(game, seat)                 # deduction (the engine's `Game.belief` too)
    b = env.unwrapped.belief("player_3")   # the AEC and parallel envs
    b = belief(game, seat, model="rule")   # Bayes: the table played as the model plays
    b.marginal("sheriff")                  # P(each seat is the sheriff), shape (n,)
    b.team("mafia"); b.prob(["civilian", ...]); b.entropy; b.size
    worlds = b.sample(rng, 8)              # engine games drawn from the belief

**Deduction** (``model=None``): uniform over the deals the seat cannot rule out from
everything it saw: its events and its options at its own turns, with every consequence the
engine draws from a deal (the game has not ended, who could have taken a night turn the seat
saw happen or not, the morning's dead and how they were announced, the free hunt's outcome,
a mafia without a don forfeiting, a shown card, the seat's own checks ...). It is computed by
asking the engine (`mafia_env.belief.track`, `mafia_env.belief.search`), never by a second
statement of the rules. The truth is never ruled out.

**Bayes** (``model=`` a policy name of the registry, or any object with the `Policy`
protocol): each deal the seat cannot rule out is weighted by how likely the model makes
every move the seat saw, each computed from the mover's own view under that deal; the moves
the seat did not see count through their consequences (a miss, a kill, a blocked turn).
See `mafia_env.belief.bayes` for how, and for its approximations.

Exact where the deals are few (`mafia_env.belief.track.EXACT_LIMIT`: a civilian at
sport-10 weighs 1,512 deals), particles beyond (city-13 and larger). Each belief is kept up
to date from the events the seat sees, one at a time: a query never replays the game.

A seat's own knowledge is exact: its role, its teammates, its checks' answers and the roles
shown to the table have probability 1 or 0.
"""

from __future__ import annotations

from typing import Any

from mafia_env.belief.result import Belief, BeliefError
from mafia_env.belief.store import cached, deduction, matrix
from mafia_env.belief.track import EXACT_LIMIT, PARTICLES
from mafia_env.engine.game import Game

BELIEF_OPTIONS = (None, "deduction")  # the observation's belief piece (`belief=` option)


def tracker(game: Game, seat: int, model: Any = None) -> Any:
    """Return the tracker of `seat`'s view of `game` (deduction, or Bayes under `model`)."""
    if model is None:
        return deduction(game, seat)
    from mafia_env.belief.bayes import BayesTracker

    key = model if isinstance(model, str) else ("object", id(model))
    return cached(game, seat, key, lambda: BayesTracker(deduction(game, seat), model))


def belief(game: Game, seat: int, model: Any = None) -> Belief:
    """Return `seat`'s belief over `game`'s deal now (deduction, or Bayes under `model`)."""
    return tracker(game, seat, model).belief()


__all__ = [
    "BELIEF_OPTIONS",
    "EXACT_LIMIT",
    "PARTICLES",
    "Belief",
    "BeliefError",
    "belief",
    "matrix",
    "tracker",
]
