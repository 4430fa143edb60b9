"""`Belief`: one seat's belief over the deal at one moment (`mafia_env.belief`'s answer)."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from mafia_env.belief.deals import DealSpace
from mafia_env.engine.game import Game
from mafia_env.engine.roles import Role, Team, role_from_name
from mafia_env.errors import ConfigError

TEAM_BY_NAME = {t.name.lower(): t for t in Team}
REDRAWS = 20  # a world whose segment search dead-ends is drawn again this many times at most


class BeliefError(RuntimeError):
    """The belief lost track of the game: no deal reproduces what the seat saw (a bug)."""


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
        the real game (the same events and options), each drawn from `rng` alone.

        A world is played again segment by segment, each segment's hidden turns searched in
        an order drawn from `rng`; an earlier segment's choices can leave a later one no
        branch (a night's hunts that the next day's view rules out), and a deal the seat's
        events allow may not let the seat's turn be as it is now: the world is then drawn
        again from the same stream, its deal too after the first tries (`REDRAWS` in all),
        else `BeliefError`."""
        if self._sampler is None:
            raise BeliefError("this belief was made without its game: it cannot draw games")
        rng = _random(rng)
        weights = self._w.tolist()
        idx = rng.choices(range(len(self._w)), weights=weights, k=k)
        return [self._world(i, weights, rng) for i in idx]

    def _world(self, i: int, weights: list[float], rng: random.Random) -> Game:
        for attempt in range(REDRAWS - 1):
            if attempt >= REDRAWS // 2:  # the deal, drawn again
                i = rng.choices(range(len(weights)), weights=weights)[0]
            try:
                return self._sampler(self._deals[i], rng)
            except BeliefError:
                continue
        return self._sampler(self._deals[rng.choices(range(len(weights)), weights=weights)[0]], rng)


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
