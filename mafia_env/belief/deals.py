"""The deals of one table: every assignment of the role table to the seats, as numpy rows.

A deal is a row of role indices (into `DealSpace.roles`, the variant's roles in `Role` order),
one per seat: the deals a seat weighs are an int8 array ``deals x seats``. `DealSpace` counts,
lists and draws uniformly the deals that respect a per-seat set of allowed roles (what a seat
knows for certain: its own role, its teammates, its checks), and groups deals into classes
that agree on some seats and on the roles left among the others (`class_keys`).
"""

from __future__ import annotations

import bisect
import random
import threading
from collections import OrderedDict
from functools import cache

import numpy as np

from mafia_env.engine.roles import Role, Team
from mafia_env.engine.rules import Rules
from mafia_env.engine.spec import GameSpec

DEAL_CACHE_BYTES = 16 << 20  # the deal lists kept between games (least recently used out)
COUNT_CACHE = 4096  # the deal counts kept between games
_DEALS: OrderedDict[tuple, np.ndarray] = OrderedDict()
_DEALS_BYTES = 0
_COUNTS: dict[tuple, int] = {}
_ROWS: dict[tuple, dict] = {}  # roles -> {a frozenset of them: its row of `allowed_matrix`}
_POW32 = np.int64(32) ** np.arange(13, dtype=np.int64)  # a class key's column weights
_LOCK = threading.Lock()  # the table's bots may query beliefs from several threads


class DealSpace:
    """The role table of (rules, n) and the deals made of it."""

    def __init__(self, rules: Rules, n: int):
        self.rules, self.n = rules, n
        self.roles: tuple[Role, ...] = GameSpec.of(rules, n).roles
        self.index = {r: i for i, r in enumerate(self.roles)}
        table = rules.role_counts(n)
        self.counts = tuple(table.get(r, 0) for r in self.roles)
        self.team_of = np.array([int(r.team) for r in self.roles], dtype=np.int8)
        self.mafia_of = self.team_of == int(Team.MAFIA)

    @classmethod
    def of(cls, rules: Rules, n: int) -> DealSpace:
        """The space of (rules, n), made once per rules and size (it holds no state of a
        game: the trackers of every game of a table share it)."""
        return GameSpec.of(rules, n).cached(cls, lambda spec: cls(spec.rules, spec.n))

    # ------------------------------------------------------------- allowed sets

    def allowed_matrix(self, allowed: list[frozenset[Role]] | None) -> np.ndarray:
        """Return a bool [n, R] matrix: seat s may hold role r."""
        m = np.ones((self.n, len(self.roles)), dtype=bool)
        if allowed is not None:
            rows = _ROWS.setdefault(self.roles, {})  # a set of roles -> its row, made once
            for s, roles in enumerate(allowed):
                row = rows.get(roles) if isinstance(roles, frozenset) else None
                if row is None:
                    row = [r in roles for r in self.roles]
                    if isinstance(roles, frozenset) and len(rows) < COUNT_CACHE:
                        rows[roles] = row
                m[s] = row
        return m

    @staticmethod
    def allows(allowed: np.ndarray, deals: np.ndarray) -> np.ndarray:
        """Return which rows of `deals` [D, n] respect the bool [n, R] matrix `allowed` (each
        seat's role among those allowed it), reading only the seats it constrains."""
        ok = np.ones(len(deals), dtype=bool)
        for s in np.flatnonzero(~allowed.all(axis=1)).tolist():
            ok &= allowed[s][deals[:, s]]
        return ok

    def _key(self, allowed: np.ndarray) -> tuple:
        return (self.roles, self.counts, allowed.shape, np.asarray(allowed, bool).tobytes())

    def count(self, allowed: np.ndarray) -> int:
        """Return how many deals respect the allowed matrix (kept for the next game)."""
        key = ("count", *self._key(allowed))
        hit = _COUNTS.get(key)
        if hit is None:
            hit = self._counter(allowed)(0, self.counts)
            with _LOCK:
                if len(_COUNTS) >= COUNT_CACHE:
                    _COUNTS.pop(next(iter(_COUNTS)), None)
                _COUNTS[key] = hit
        return hit

    def _counter(self, allowed: np.ndarray):
        rows = [tuple(np.flatnonzero(allowed[s]).tolist()) for s in range(self.n)]

        @cache
        def ways(s: int, left: tuple[int, ...]) -> int:
            if s == self.n:
                return 1
            total = 0
            for r in rows[s]:
                if left[r]:
                    nxt = (*left[:r], left[r] - 1, *left[r + 1 :])
                    total += ways(s + 1, nxt)
            return total

        return ways

    def enumerate(self, allowed: np.ndarray) -> np.ndarray:
        """Return every deal that respects `allowed`, as a read-only int8 array [D, n], in
        order. The lists depend only on the role table and `allowed` (a seat's own facts at
        the deal): they are kept, up to `DEAL_CACHE_BYTES`, for the next game's trackers."""
        global _DEALS_BYTES
        key = self._key(allowed)
        with _LOCK:
            hit = _DEALS.get(key)
            if hit is not None:
                _DEALS.move_to_end(key)
                return hit
        deals = self._enumerate(allowed)
        deals.flags.writeable = False
        if deals.nbytes <= DEAL_CACHE_BYTES:
            with _LOCK:
                if key not in _DEALS:
                    _DEALS[key] = deals
                    _DEALS_BYTES += deals.nbytes
                while _DEALS_BYTES > DEAL_CACHE_BYTES:
                    _DEALS_BYTES -= _DEALS.popitem(last=False)[1].nbytes
        return deals

    def _enumerate(self, allowed: np.ndarray) -> np.ndarray:
        rows = [tuple(np.flatnonzero(allowed[s]).tolist()) for s in range(self.n)]
        out: list[tuple[int, ...]] = []
        deal = [0] * self.n
        left = list(self.counts)
        ways = self._counter(allowed)

        def rec(s: int) -> None:
            if s == self.n:
                out.append(tuple(deal))
                return
            for r in rows[s]:
                if left[r]:
                    left[r] -= 1
                    if ways(s + 1, tuple(left)):
                        deal[s] = r
                        rec(s + 1)
                    left[r] += 1

        rec(0)
        return np.array(out, dtype=np.int8).reshape(len(out), self.n)

    def sample(self, allowed: np.ndarray, rng: random.Random, k: int) -> np.ndarray:
        """Return `k` deals drawn uniformly (with replacement) among those `allowed`."""
        ways = self._counter(allowed)
        rows = [tuple(np.flatnonzero(allowed[s]).tolist()) for s in range(self.n)]
        out = np.zeros((k, self.n), dtype=np.int8)
        steps: dict[tuple, tuple] = {}  # (seat, roles left) -> the roles it may take, weighed
        for i in range(k):
            left = tuple(self.counts)
            for s in range(self.n):
                step = steps.get((s, left))
                if step is None:
                    step = steps[(s, left)] = self._step(s, left, rows[s], ways)
                opts, cum, after = step
                # what rng.choices(opts, weights) draws, from the same random() call
                j = bisect.bisect(cum, rng.random() * (cum[-1] + 0.0), 0, len(cum) - 1)
                out[i, s] = opts[j]
                left = after[j]
        return out

    @staticmethod
    def _step(s: int, left: tuple[int, ...], roles: tuple[int, ...], ways) -> tuple:
        """The roles seat `s` may take with `left` to deal, their cumulated weights (the deals
        each leaves) and the roles left after each."""
        opts, cum, after = [], [], []
        total = 0
        for r in roles:
            if left[r]:
                nxt = (*left[:r], left[r] - 1, *left[r + 1 :])
                w = ways(s + 1, nxt)
                if w:
                    total += w
                    opts.append(r)
                    cum.append(total)
                    after.append(nxt)
        return opts, cum, after

    # ---------------------------------------------------------------- classes

    def class_keys(
        self, deals: np.ndarray, seats: tuple[int, ...], living: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Group `deals` by their roles at `seats` and the roles left among the other living
        seats; return (first row of each class, class of each row)."""
        rest = living.copy()
        rest[list(seats)] = False
        k, roles = len(seats), len(self.roles)
        if k + (roles if rest.any() else 0) <= 12:
            # the key's columns (the seats' roles, then each role's count among the rest), 5
            # bits each (roles < 32, counts <= 30), as one int a row: column j weighs 32**j,
            # so the rest's counts are the sum of 32**(k + role) over its seats
            code = deals[:, list(seats)].astype(np.int64) @ _POW32[:k]
            if rest.any():
                code += _POW32[k : k + roles][deals[:, rest]].sum(axis=1)
            _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
        else:
            parts = [deals[:, list(seats)].astype(np.int16)]
            if rest.any():
                sub = deals[:, rest]
                parts += [(sub == r).sum(axis=1, keepdims=True) for r in range(roles)]
            key = np.concatenate(parts, axis=1)
            _, first, inverse = np.unique(key, axis=0, return_index=True, return_inverse=True)
        return first, inverse.reshape(-1)

    def key_of(self, deal: np.ndarray, seats: tuple[int, ...], living: np.ndarray) -> tuple:
        """Return the class key of one deal (as `class_keys` groups them), as a tuple."""
        rest = living.copy()
        rest[list(seats)] = False
        counts = np.bincount(deal[rest], minlength=len(self.roles))
        return (*deal[list(seats)].tolist(), *counts.tolist())

    def as_roles(self, deal: np.ndarray) -> tuple[Role, ...]:
        return tuple(self.roles[int(i)] for i in deal)

    def as_row(self, deal: list[Role] | tuple[Role, ...]) -> np.ndarray:
        return np.array([self.index[Role(r)] for r in deal], dtype=np.int8)


def unique_rows(rows: np.ndarray, index: bool = False) -> tuple[np.ndarray, ...]:
    """`np.unique(rows, axis=0, return_inverse=True)` (with `index`, its return_index too),
    the same answer in the same order, by one integer a row (rows of small role indices)."""
    rows = np.asarray(rows)
    n = rows.shape[1] if rows.ndim == 2 else 0
    if not len(rows) or n == 0 or n > 20 or rows.min() < 0 or rows.max() >= 8:
        out = np.unique(rows, axis=0, return_index=True, return_inverse=True)
        return (out[0], out[1], out[2].reshape(-1)) if index else (out[0], out[2].reshape(-1))
    code = rows.astype(np.int64) @ (np.int64(8) ** np.arange(n - 1, -1, -1, dtype=np.int64))
    _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    return (rows[first], first, inverse) if index else (rows[first], inverse)


__all__ = ["DealSpace", "unique_rows"]
