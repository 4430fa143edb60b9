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

import math
import random
import weakref
from typing import Any

import numpy as np

from mafia_env.belief.deals import DealSpace
from mafia_env.belief.track import EXACT_LIMIT, PARTICLES, BeliefError, Tracker
from mafia_env.engine.game import Game
from mafia_env.engine.roles import Role, Team, role_from_name
from mafia_env.errors import ConfigError

TEAM_BY_NAME = {t.name.lower(): t for t in Team}
BELIEF_OPTIONS = (None, "deduction")  # the observation's belief piece (`belief=` option)

# trackers of each game, by (seat, model key): made on first use, kept while the game lives
_TRACKERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class Belief:
    """One seat's belief over the deal at one moment (a snapshot: it does not change)."""

    def __init__(
        self,
        space: DealSpace,
        seat: int,
        deals: np.ndarray,
        weights: np.ndarray,
        exact: bool,
        support: float,
        sampler: Any = None,
    ):
        self.space = space
        self.seat = seat
        self.n = space.n
        self.roles = tuple(r.label for r in space.roles)  # role names, in the matrix order
        keep = weights > 0
        self._deals = deals[keep]
        w = weights[keep].astype(np.float64)
        self._w = w / w.sum()
        self.exact = exact
        self._support = support
        self._sampler = sampler
        self._matrix: np.ndarray | None = None

    # ---------------------------------------------------------------- queries

    def matrix(self) -> np.ndarray:
        """Return P(seat s holds role r) as an array [n, R] (roles in `roles` order)."""
        if self._matrix is None:
            R = len(self.roles)
            m = np.zeros((self.n, R))
            for r in range(R):
                m[:, r] = self._w @ (self._deals == r)
            self._matrix = m
        return self._matrix

    def marginal(self, role: str | Role) -> np.ndarray:
        """Return the probability that each seat holds `role`, shape (n,)."""
        r = role if isinstance(role, Role) else _role(role)
        if r not in self.space.roles:
            return np.zeros(self.n)
        return self.matrix()[:, self.space.roles.index(r)].copy()

    def team(self, team: str | Team) -> np.ndarray:
        """Return the probability that each seat is of `team` ("town", "mafia", "maniac")."""
        t = team if isinstance(team, Team) else TEAM_BY_NAME.get(str(team).lower())
        if t is None:
            raise ConfigError(f"unknown team {team!r}; teams are {', '.join(TEAM_BY_NAME)}")
        cols = [i for i, r in enumerate(self.space.roles) if r.team is t]
        return self.matrix()[:, cols].sum(axis=1)

    def prob(self, deal: list[str] | tuple) -> float:
        """Return the probability of a full deal (role names by seat, or `Role`s).

        With particles it is the particles' estimate (0 for a deal none of them holds).
        """
        if len(deal) != self.n:
            raise ConfigError(f"a deal names {self.n} roles, one per seat; got {len(deal)}")
        roles = [r if isinstance(r, Role) else _role(r) for r in deal]
        if any(r not in self.space.index for r in roles):
            return 0.0
        row = self.space.as_row(roles)
        hit = (self._deals == row).all(axis=1)
        return float(self._w[hit].sum())

    @property
    def size(self) -> int:
        """The deals (exact) or particles it weighs."""
        return len(self._deals)

    @property
    def entropy(self) -> float:
        """The entropy (nats) of the belief over the deal.

        Exact where the deals are listed; with particles (drawn uniformly among the deals the
        seat's own facts allow, weighted) it is estimated: log of the deals not ruled out,
        less the particles' weighted log-ratio to uniform.
        """
        w = self._w
        if self.exact:
            return float(-(w * np.log(w)).sum())
        return float(math.log(self._support) - (w * np.log(w * len(w))).sum())

    def certain(self) -> list[tuple[int, str]]:
        """Return (seat, role or team name) for every other seat whose role or team is sure."""
        out = []
        m = self.matrix()
        for s in range(self.n):
            if s == self.seat:
                continue
            sure = np.flatnonzero(m[s] > 1 - 1e-9)
            if sure.size:
                out.append((s, self.roles[int(sure[0])]))
                continue
            for t in Team:
                if self.team(t)[s] > 1 - 1e-9:
                    out.append((s, t.name.lower()))
        return out

    def sample(self, rng: random.Random | np.random.Generator | int, k: int = 1) -> list[Game]:
        """Return `k` engine games drawn from the belief, each one the seat cannot tell from
        the real game (the same events and options; what `Game.resample` returns, weighted)."""
        if self._sampler is None:
            raise BeliefError("this belief was made without its game: it cannot draw games")
        rng = _random(rng)
        idx = rng.choices(range(len(self._w)), weights=self._w.tolist(), k=k)
        return [self._sampler(self._deals[i], rng) for i in idx]


def _role(name: str) -> Role:
    try:
        return role_from_name(name)
    except ValueError as e:
        raise ConfigError(str(e)) from None


def _random(rng: Any) -> random.Random:
    if isinstance(rng, random.Random):
        return rng
    if isinstance(rng, np.random.Generator):
        return random.Random(int(rng.integers(2**62)))
    return random.Random(rng)


def tracker(game: Game, seat: int, model: Any = None) -> Any:
    """Return the tracker of `seat`'s view of `game` (deduction, or Bayes under `model`)."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.n:
        raise ConfigError(f"seat must be 0..{game.n - 1}; got {seat!r}")
    per_game = _TRACKERS.get(game)
    if per_game is None:
        per_game = _TRACKERS[game] = {}
    key = (seat, _model_key(model))
    t = per_game.get(key)
    if t is None:
        if model is None:
            t = Tracker(game, seat)
        else:
            from mafia_env.belief.bayes import BayesTracker

            base = tracker(game, seat)
            t = BayesTracker(base, model)
        per_game[key] = t
    return t


def _model_key(model: Any) -> Any:
    if model is None or isinstance(model, str):
        return model
    return ("object", id(model))


def belief(game: Game, seat: int, model: Any = None) -> Belief:
    """Return `seat`'s belief over `game`'s deal now (deduction, or Bayes under `model`)."""
    return tracker(game, seat, model).belief()


def matrix(game: Game, seat: int) -> np.ndarray:
    """Return `seat`'s deduction marginals [n, R] (the observation's belief piece)."""
    return tracker(game, seat).matrix()


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
