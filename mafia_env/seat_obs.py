"""Seat policies that read different observation layouts at one table.

A vector policy may ask for observation options (`mafia_env.engine.spec.OBS_OPTIONS`, e.g.
the belief piece of ``belief="deduction"``) by an attribute ``obs_options`` (a dict; none:
the plain layout). One table steps one layout: a harness builds its games with the union of
what its policies ask for (`union`; a trainer's opponents) and hands each policy the part of
the observation it reads (`fit`), or builds them plain and computes the piece only for the
rows of the policies that read it (`rows`; `mafia_env.seating.games.play_games`). The option pieces
come last in the vector (`mafia_env.observe.ObsLayout`), so a policy without them reads a
prefix of the row. `extend` does the same for one seat (the AEC path).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from mafia_env.engine.spec import OBS_OPTIONS, GameSpec
from mafia_env.errors import ConfigError


def wanted(policy: Any) -> dict[str, Any]:
    """Return the observation options `policy` reads (its ``obs_options``; {} if none)."""
    opts = dict(getattr(policy, "obs_options", None) or {})
    unknown = sorted(set(opts) - set(OBS_OPTIONS))
    if unknown:
        raise ConfigError(
            f"{type(policy).__name__}.obs_options names unknown options {unknown}; options: "
            + ", ".join(sorted(OBS_OPTIONS))
        )
    return {k: v for k, v in opts.items() if v is not None}


def union(policies: Iterable[Any]) -> dict[str, Any]:
    """Return the options every policy of `policies` needs; two values of one option clash."""
    out: dict[str, Any] = {}
    for p in policies:
        for k, v in wanted(p).items():
            if out.get(k, v) != v:
                raise ConfigError(
                    f"the policies at this table ask for {k}={out[k]!r} and {k}={v!r}; one "
                    "table encodes one observation layout"
                )
            out[k] = v
    return out


def width(policy: Any, spec: GameSpec) -> int:
    """Return the length of the vector `policy` reads in games of `spec`'s rules and size."""
    return _width(wanted(policy), spec)


def _width(opts: dict[str, Any], spec: GameSpec) -> int:
    """The length of the vector of options `opts` (`wanted`) in games of `spec`'s rules and
    size: built once per rules, size and options (`GameSpec.cached`)."""
    from mafia_env.observe import ObsLayout

    def build(s: GameSpec) -> int:
        return ObsLayout.of(s.with_obs(**{k: opts.get(k) for k in OBS_OPTIONS})).size

    # (option values are hashable: a spec's options are keys of its layouts too)
    return spec.cached((_width, tuple(sorted(opts.items()))), build)


def fit(policy: Any, obs: np.ndarray, spec: GameSpec) -> np.ndarray:
    """Return the rows `obs` (encoded with `spec`'s options) as `policy` reads them."""
    if not spec.obs and not getattr(policy, "obs_options", None):
        return obs  # the plain layout on both sides: nothing to do
    w = width(policy, spec)
    if obs.shape[-1] == w:
        return obs
    if obs.shape[-1] < w:
        raise ConfigError(
            f"{type(policy).__name__} reads observations of {w} floats (options "
            f"{wanted(policy) or 'none'}); this table encodes {obs.shape[-1]} (options "
            f"{dict(spec.obs) or 'none'}): build the table with the policy's options "
            "(mafia_env.seat_obs.union)"
        )
    return obs[..., :w]


def rows(policy: Any, vec: Any, obs: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Return rows `idx` of a `VectorMafia` step's `obs` as `policy` reads them: cut to its
    layout, or with the belief piece it asks for and the games lack computed for the acting
    seat of each of those games only (`mafia_env.belief.matrix`: the same numbers the
    option's encoder writes), so a table pays for the belief only where a seat reads it."""
    x = obs[idx]
    opts = wanted(policy)
    have = {k: v for k, v in vec.spec.obs if v is not None}
    if all(have.get(k) == v for k, v in opts.items()):
        return fit(policy, x, vec.spec)
    if set(opts) - set(have) != {"belief"}:
        raise ConfigError(f"cannot compute observation options {opts} for one seat")
    from mafia_env.belief.store import matrices

    base = fit(_PLAIN, x, vec.spec)
    games = _games(vec)
    pieces = matrices([games[b] for b in idx.tolist()], vec.seat[idx].tolist())
    return np.concatenate([base, pieces.astype(base.dtype).reshape(len(idx), -1)], 1)


class LazyBelief:
    """A `VectorMafia` (games encoded plain) that presents the layout with the belief piece,
    and computes the piece only for the rows asked for (`fill`) or a seat observed
    (`observe`): a trainer pays for the belief at its learner's decisions only, not at its
    opponents' (who read the plain prefix). Other attributes are the wrapped env's."""

    def __init__(self, vec: Any, belief: str = "deduction"):
        from mafia_env.observe import ObsLayout

        if dict(vec.spec.obs).get("belief") is not None:
            raise ConfigError("LazyBelief wraps an env built without the belief piece")
        self.vec = vec
        self.spec = vec.spec.with_obs(belief=belief)
        self.obs_layout = ObsLayout.of(self.spec)
        self.obs_size = self.obs_layout.size
        self.plain = vec.obs_size
        self.obs = np.zeros((vec.num_envs, self.obs_size), dtype=np.float32)
        self._filled = np.zeros(vec.num_envs, dtype=bool)
        # on the C core, each slot's game as the Python engine's (`CoreGame.shadow`, brought up
        # to date where a piece is asked), dropped where its game ends (the slot deals anew)
        self._shadows: list[Any] | None = None
        if getattr(vec, "backend", "python") != "python":
            self._shadows = [None] * vec.num_envs

    def __getattr__(self, name: str) -> Any:
        return getattr(self.vec, name)

    def _take(self, out: tuple) -> tuple:
        self.obs[:, : self.plain] = out[0]
        self.obs[:, self.plain :] = 0
        self._filled[:] = False
        return (self.obs, *out[1:])

    def reset(self) -> tuple:
        if self._shadows is not None:
            self._shadows = [None] * self.vec.num_envs
        return self._take(self.vec.reset())

    def step(self, actions: np.ndarray) -> tuple:
        out = self.vec.step(actions)
        if self._shadows is not None:
            for b in np.flatnonzero(out[3]).tolist():
                self._shadows[b] = None
        return self._take(out)

    def _game(self, b: int) -> Any:
        """Game `b` as the Python engine's, which the piece is computed from: on the C core
        the slot's game's shadow (`_engine_game`), kept while the game lasts so that the
        belief's trackers (kept by game) follow it."""
        if self._shadows is None:
            return _games(self.vec)[b]
        got = self._shadows[b]
        if got is None:
            got = self._shadows[b] = self.vec.game(b)
        return _engine_game(got)

    def fill(self, idx: np.ndarray) -> None:
        """Write the belief piece of the acting seat of games `idx` (once per step), in one
        call for all of them (`mafia_env.belief.store.matrices`)."""
        from mafia_env.belief.store import matrices

        idx = np.asarray(idx, dtype=np.int64)
        todo = idx[~self._filled[idx]]
        if not todo.size:
            return
        seats = self.vec.seat[todo].tolist()
        self.obs[todo, self.plain :] = matrices([self._game(b) for b in todo.tolist()], seats)
        self._filled[todo] = True

    def observe(self, b: int, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        from mafia_env.belief import matrix

        if out is None:
            out = np.empty(self.obs_size, dtype=np.float32)
        self.vec.observe(b, seat, out[: self.plain])
        out[self.plain :] = matrix(self._game(b), seat).ravel()
        return out


def vector_env(variant: Any, num_envs: int, num_players: Any = None, seed: Any = None, **kw: Any):
    """`VectorMafia`, or with ``belief=...`` among `kw` a `LazyBelief` over a plain one."""
    from mafia_env.vector import VectorMafia

    belief = kw.pop("belief", None)  # (on the C core, the piece reads its games' shadows)
    vec = VectorMafia(variant, num_envs, num_players, seed=seed, **kw)
    return vec if belief is None else LazyBelief(vec, belief)


class _Plain:
    """A policy that reads the plain layout."""


_PLAIN = _Plain()


def extend_rows(
    policies: Sequence[Any],
    obs: Sequence[np.ndarray],
    games: Sequence[Any],
    seats: Sequence[int],
    spec: GameSpec,
) -> list[np.ndarray]:
    """`extend` for many seats at once: the belief pieces of those whose policy reads them
    and the table lacks, computed in one call (`mafia_env.belief.store.matrices`)."""
    out = [None] * len(obs)
    need = []
    have = {k: v for k, v in spec.obs if v is not None}
    for i, (policy, o) in enumerate(zip(policies, obs, strict=True)):
        opts = wanted(policy)
        if all(have.get(k) == v for k, v in opts.items()):
            out[i] = fit(policy, o, spec)
        elif set(opts) != {"belief"}:
            raise ConfigError(f"cannot compute observation options {opts} for one seat")
        else:
            need.append(i)
    if need:
        from mafia_env.belief.store import matrices

        pieces = matrices([_engine_game(games[i]) for i in need], [seats[i] for i in need])
        w = _width({}, spec)  # the plain prefix
        for i, piece in zip(need, pieces, strict=True):
            o = obs[i]
            if o.shape[-1] < w:
                o = fit(_PLAIN, o, spec)  # (the error it raises)
            row = np.empty(w + piece.shape[-1], dtype=o.dtype)
            row[:w] = o[..., :w]
            row[w:] = piece
            out[i] = row
    return out


def extend(policy: Any, obs: np.ndarray, game: Any, seat: int, spec: GameSpec) -> np.ndarray:
    """Return one seat's vector `obs` as `policy` reads it: cut, or with the option pieces
    it asks for and the table lacks computed for `seat` (the belief piece)."""
    opts = wanted(policy)
    have = {k: v for k, v in spec.obs if v is not None}
    if all(have.get(k) == v for k, v in opts.items()):
        return fit(policy, obs, spec)
    base = fit(_PLAIN, obs, spec)  # the plain prefix
    if set(opts) != {"belief"}:
        raise ConfigError(f"cannot compute observation options {opts} for one seat")
    from mafia_env.belief import matrix

    return np.concatenate([base, matrix(_engine_game(game), seat).ravel().astype(base.dtype)])


def _engine_game(game: Any) -> Any:
    """Return the Python engine's `Game` of `game` (a C core env's game: its shadow game)."""
    return game.shadow() if getattr(type(game), "shadow", None) is not None else game


def _games(vec: Any) -> list:
    """Return a `VectorMafia`'s Python games: the belief is computed on the Python engine."""
    if getattr(vec, "backend", "python") != "python":
        raise ConfigError(
            "the belief piece is computed from the Python engine's games: build this "
            "VectorMafia with backend='python' (or take seat_obs.vector_env's LazyBelief, "
            "given belief=, which follows the C core's games)"
        )
    return vec.games


__all__ = [
    "LazyBelief",
    "extend",
    "extend_rows",
    "fit",
    "rows",
    "union",
    "vector_env",
    "wanted",
    "width",
]
