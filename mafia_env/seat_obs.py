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

from mafia_env.engine.events import Ev
from mafia_env.engine.kinds import NIGHT_TURNS
from mafia_env.engine.knowledge import FACT_KINDS
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


_NIGHTS = frozenset(int(t) for t in NIGHT_TURNS)  # (the C core's turn numbers)
_ELIMINATED = int(Ev.ELIMINATED)


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
        # and, where the core logs its events and counts the table (`_CoreCount`), each slot's
        # game read from that log (`LoggedGame`): the piece without the Python engine
        self._logs: list[Any] | None = None
        self._count = None
        if getattr(vec, "backend", "python") != "python":
            self._shadows = [None] * vec.num_envs
            self._count = _CoreCount.of(vec) if getattr(vec, "log_events", False) else None
            if self._count is not None:
                from mafia_env.belief.store import FACTS, MOVES_PIECE

                self._logs = [None] * vec.num_envs
                # each seat's piece where the core last counted it, and the events read and
                # the count's version then (-1: none): kept while no event since may have
                # changed it (`_unmoved`); where each game's count was last read (events, version)
                B, n = vec.num_envs, vec.n
                self._kept = np.zeros((B, n, self.obs_size - self.plain), np.float32)
                self._kept_at = np.full((B, n), -1, dtype=np.int64)
                self._kept_version = np.zeros((B, n), dtype=np.int64)
                self._read = np.full((B, 2), -1, dtype=np.int64)
                self._marks = (sum(1 << k for k in MOVES_PIECE), sum(1 << k for k in FACTS))

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
        if self._logs is not None:
            self._logs = [None] * self.vec.num_envs
            self._kept_at[:] = -1
            self._read[:] = -1
            self._count.start(np.arange(self.vec.num_envs))
        return self._take(self.vec.reset())

    def step(self, actions: np.ndarray) -> tuple:
        out = self.vec.step(actions)
        if self._shadows is not None:
            done = np.flatnonzero(out[3])
            for b in done.tolist():
                self._shadows[b] = None
                if self._logs is not None:
                    self._logs[b] = None
                    self._kept_at[b] = -1
                    self._read[b] = -1
            if self._logs is not None and done.size:
                self._count.start(done)
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
        if self._logs is None:
            seats = self.vec.seat[todo].tolist()
            self.obs[todo, self.plain :] = matrices([self._game(b) for b in todo.tolist()], seats)
        else:
            seats = self.vec.seat[todo]
            hit = self._unmoved(todo, seats)
            obs, plain = self.obs, self.plain
            obs[todo[hit], plain:] = self._kept[todo[hit], seats[hit]]
            todo, seats = todo[~hit], seats[~hit]
            if todo.size:  # (the acting seats: the core's count)
                pieces, done = self._counted(todo, seats)
                obs[todo[done], plain:] = pieces[done]
                todo, seats = todo[~done], seats[~done]
            for b, seat in zip(todo.tolist(), seats.tolist(), strict=True):
                obs[b, plain:] = self._piece(b, seat)
        self._filled[todo] = True

    def _unmoved(self, todo: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """Which rows' seats keep the piece the core last counted for them, in one call: the
        core reads each game's log back to its last event that may change a piece (`store.
        MOVES_PIECE`) and the seat's last fact (`store.FACTS`); a piece stands where neither
        came since, or where the game's count was read after the first and kept the deals it
        kept then (its version)."""
        marks = np.empty((len(todo), 2), dtype=np.int64)
        self.vec._core.core.last_marks(todo, seats, *self._marks, marks)
        at = self._kept_at[todo, seats]
        read = self._read[todo]
        counts_same = (marks[:, 0] <= read[:, 0]) & (read[:, 1] == self._kept_version[todo, seats])
        return (marks[:, 1] <= at) & ((marks[:, 0] <= at) | counts_same)  # (at -1: none kept)

    def _counted(self, games: np.ndarray, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The pieces of seats `seats` of games `games` (each at its own turn, or by day: where
        the table serves it) from the C core's count, kept as `_piece` keeps them; and which
        the count could give (the rest: `_piece`)."""
        pieces, status = self._count.pieces(games, seats)
        done = status[:, 0] == 0
        g, s = games[done], seats[done]
        self._kept[g, s] = pieces[done]
        self._kept_at[g, s] = status[done, 2]
        self._kept_version[g, s] = status[done, 1]
        self._read[g] = status[done][:, [2, 1]]
        return pieces, done

    def _piece(self, b: int, seat: int) -> np.ndarray:
        """`seat`'s piece in game `b` where the core's count cannot say (a seat by night after
        its own move; an event the count does not read): from the game read from the log where
        its table still serves the seat (`mafia_env.belief.store.counted_piece`), else from the
        shadow game (`store.matrix`)."""
        from mafia_env.belief.store import counted_piece, matrix

        log = self._logs[b]
        if log is None:
            vec = self.vec
            log = self._logs[b] = LoggedGame(vec._core.core, b, vec.rules, vec.n)
        if log.sync():
            piece = counted_piece(log, seat)
            if piece is not None:
                return piece.ravel()
        return matrix(self._game(b), seat).ravel()

    def observe(self, b: int, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        if out is None:
            out = np.empty(self.obs_size, dtype=np.float32)
        out[:] = self.observe_many(np.array([b]), np.array([seat]))[0]
        return out

    def observe_many(self, games: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """Return the observations [k, obs_size] of seats `seats[i]` in games `games[i]` (a
        trainer's bootstrap views), their pieces kept or computed as `fill`'s."""
        from mafia_env.belief import matrix

        games = np.asarray(games, dtype=np.int64)
        seats = np.asarray(seats, dtype=np.int64)
        out = np.empty((len(games), self.obs_size), dtype=np.float32)
        for i, (b, seat) in enumerate(zip(games.tolist(), seats.tolist(), strict=True)):
            self.vec.observe(b, seat, out[i, : self.plain])
        if self._logs is None:
            for i, (b, seat) in enumerate(zip(games.tolist(), seats.tolist(), strict=True)):
                out[i, self.plain :] = matrix(self._game(b), seat).ravel()
            return out
        # the core's count serves a seat at its own turn and by day (by night a seat that has
        # moved may know more than the table: `store._Table.keeps`; those go to `_piece`)
        status, acting = self.vec._core.core.status, self.vec.seat
        served = np.array(
            [
                s == acting[b] or status(b)[1] not in _NIGHTS
                for b, s in zip(games.tolist(), seats.tolist(), strict=True)
            ],
            dtype=bool,
        )
        hit = served & self._unmoved(games, seats)
        out[hit, self.plain :] = self._kept[games[hit], seats[hit]]
        idx = np.flatnonzero(served & ~hit)
        rest = np.flatnonzero(~served)
        if idx.size:
            pieces, done = self._counted(games[idx], seats[idx])
            out[idx[done], self.plain :] = pieces[done]
            rest = np.concatenate([rest, idx[~done]])
        for i in rest.tolist():
            out[i, self.plain :] = self._piece(int(games[i]), int(seats[i]))
        return out


class _CoreCount:
    """The C core's count of a counted table (`Core.count_pieces`, ccore/src/count.c: the
    belief piece of a seat at its own turn or by day, from its game's log), and each slot's
    count, kept between steps and started again where the slot deals anew."""

    @classmethod
    def of(cls, vec: Any) -> _CoreCount | None:
        """The count of `vec`'s games, where the core can count them (else None)."""
        from mafia_env.belief import store
        from mafia_env.belief.count import countable

        roles = [r for r, k in vec.rules.role_counts(vec.n).items() if k]
        if not (store.SHARE and store.COUNT and countable(vec.rules, roles)):
            return None
        return cls(vec)

    def __init__(self, vec: Any):
        from mafia_env.belief.count import core_table

        self.core, self.n, B = vec._core.core, vec.n, vec.num_envs
        self.table = core_table(vec.rules, vec.n)
        deals, black, town = self.table[:3]
        D = len(deals)
        self.width = vec.n * int(self.table[6][1])
        self.town0 = town.sum(axis=1, dtype=np.int16)
        self.black0 = black.sum(axis=1, dtype=np.int16)
        self.state = (
            np.ones((B, D), dtype=np.uint8),
            np.empty((B, D), dtype=np.int16),
            np.empty((B, D), dtype=np.int16),
            np.ones((B, vec.n), dtype=np.uint8),
            np.zeros((B, 4), dtype=np.int32),
        )
        self.start(np.arange(B))

    def start(self, slots: np.ndarray) -> None:
        """Start the counts of `slots` (their games dealt anew)."""
        live, n_town, n_black, alive, misc = self.state
        live[slots] = 1
        n_town[slots] = self.town0
        n_black[slots] = self.black0
        alive[slots] = 1
        misc[slots] = 0

    def pieces(self, games: np.ndarray, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The pieces [k, n * R] of `seats` in `games`, and their status [k, 3] (0 or -1: the
        count cannot say; the count's version; the events it has read)."""
        games = np.ascontiguousarray(games, dtype=np.int64)
        seats = np.ascontiguousarray(seats, dtype=np.int64)
        out = np.empty((len(games), self.width), dtype=np.float32)
        status = np.empty((len(games), 3), dtype=np.int64)
        self.core.count_pieces(self.table, self.state, games, seats, out, status)
        return out, status


class LoggedGame:
    """Game `b` of a C core that logs its events (``VectorMafia(log_events=True)``), read from
    that log alone: the rules, the deal, the events, who acts, the turn and the result, what
    the belief's counted table reads of a game (`mafia_env.belief.store.counted_piece`), with
    no Python engine playing the game again (`CoreGame.shadow`). `sync()` reads what the core
    logged since the last call."""

    def __init__(self, core: Any, b: int, rules: Any, n: int):
        from mafia_env.belief.count import countable
        from mafia_env.ccore import ROLES, TEAMS

        self._core, self._b = core, b
        self.rules, self.n = rules, n
        roles, teams = core.deal(b)
        self.roles = tuple(map(ROLES.__getitem__, roles))
        self.teams = tuple(map(TEAMS.__getitem__, teams))
        self.events: list[tuple] = []
        self.fact_events: list[tuple] = []  # the events `deal_constraints` reads
        # (a table the count does not serve, or an event it does not read: the shadow's)
        self._usable = countable(rules, self.roles)
        self.actor, self.turn, self.over, self.truncated = -1, None, False, False

    def sync(self) -> bool:
        """Read the events and the state the core logged since the last call; return whether
        the game can be read from the log (its table counted, no event that hands the count
        to a tracker: `count.hands_over`)."""
        from mafia_env.belief.count import hands_over
        from mafia_env.ccore import TURNS

        new = self._core.events(self._b, len(self.events))
        if new:
            self.events += new
            facts = self.fact_events
            for e in new:
                if e[0] in FACT_KINDS:
                    facts.append(e)
                elif e[0] == _ELIMINATED and hands_over(e):
                    self._usable = False
        st = self._core.status(self._b)
        self.actor, self.truncated = st[0], bool(st[4])
        self.turn = None if st[1] < 0 else TURNS[st[1]]
        self.over = st[2] >= 0 or st[3] >= 0
        return self._usable


def vector_env(variant: Any, num_envs: int, num_players: Any = None, seed: Any = None, **kw: Any):
    """`VectorMafia`, or with ``belief=...`` among `kw` a `LazyBelief` over a plain one (whose
    core, on the C core, logs its events: the piece reads them, `LoggedGame`)."""
    from mafia_env.vector import VectorMafia

    belief = kw.pop("belief", None)  # (on the C core, the piece reads its games' logs)
    if belief is not None:
        kw.setdefault("log_events", True)
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
