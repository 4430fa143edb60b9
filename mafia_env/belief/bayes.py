"""Bayes over the deal: each deal weighted by how likely a model makes what the seat saw.

`BayesTracker` follows the same segments as deduction (`mafia_env.belief.track.Tracker`,
which it reads) with a population of *worlds*: a deal, the private observation rows every
seat would have under it (its role, teammates, checks, night facts: what the model reads),
the hidden state (the doctor's last heal and self-heals, whether the don introduced himself)
and a log-weight.

- A public move by another seat multiplies each world's weight by the model's probability of
  that move, computed from the mover's own observation in that world: its private row there,
  and the public part the whole table shares (``mover_rows``). Many worlds share the mover's
  private row (a civilian's is the same under every deal where he is a civilian): the model is
  asked once per distinct row, in one batch.
- A segment with hidden turns (a night, the zero night) is played forward in each world:
  every hidden mover acts as the model draws from its observation in that world (`SAMPLES`
  draws a world), and the world's weight is multiplied by the share of draws in which the seat
  sees exactly what it saw; the world goes on from one of them, its private rows updated from
  what each seat saw in it. If no draw reproduces the view, the world follows the hidden
  choices that deduction found for its class (moved to its seats by the symmetry between the
  seats its view does not name), weighted by the model's probability of those choices: a
  lower bound of its likelihood, never zero. The simulations follow those hidden choices
  besides the model's likelier ones too (`GUIDE`: a kill among ten targets the model finds
  alike, past the `MAXB` followed, is still tried).
- A segment without hidden turns rules out the deals deduction rules out.
- The random policy (``uniform``) is used exactly: its public moves are equally likely under
  every deal, and a night's likelihood is the share of every uniform hidden history that
  reproduces the view, counted over every hidden choice at once by the night model
  (`mafia_env.belief.night`, which deduction shares: its classes' masses are kept on the
  segment); a night it does not cover (the zero night, a moderator's call, ONLINE's don who
  may introduce himself) by `mafia_env.belief.search.Search` over all branches, drawn
  (`MASS_SAMPLES`) past `MASS_BUDGET` nodes.

Approximations (measured in ``scripts/belief_calibration.py``): every model is mixed with
``EPS`` of uniform play over the legal actions (a model certain of a move that was not made
would rule a deal out; the mixture keeps every deal deduction keeps); a night's likelihood is
estimated from ``SAMPLES`` draws; a hidden mover's observation is its private row at the start
of the night with its turn marked (what it saw of its teammates' choices the same night is not
added); the doctor's limits across nights are followed in each world but not searched over
by deduction (`relax_hidden`); a night under way counts only when it ends. Exact where the
deals are listed (one world per deal), else particles (`_move`): `PARTICLES` slots drawn by
weight after a segment once the weights gather on few deals, and a resample-move step:
Metropolis proposals (a swap of two seats' roles, or a deal drawn from deduction's particles,
taken as uniform over the deals it keeps) weighed by replaying the whole history under the
model for the proposed deals (`PROPOSALS` of them a step: the cost), accepted by the ratio of
the likelihoods. A deal keeps at most `BRANCHES` worlds (its hidden histories), the heaviest,
carrying its whole weight. With particles a night's worlds that the simulations explain
by less than `RETRY` nats (or not at all) are simulated again, wider (`WIDE`: more games a
mover's choice, more simulations a world), since the cuts are blind until the morning shows
what the choices did; and the answer (`belief`) mixes the particles' posterior with
deduction's particles by `SHRINK` / (effective deals + `SHRINK`): a posterior carried by one
or two deals stands for too little of the space to be trusted alone (city-13: the truth's
likelihood under the model is often above every particle's, log-loss on a seat the particles
miss was 27 nats).
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from mafia_env.actions import ActionLayout
from mafia_env.belief.deals import unique_rows
from mafia_env.belief.night import Unsupported, night_mass
from mafia_env.belief.search import (
    SearchTooLarge,
    expand_options,
    fork,
    swap_deal,
)
from mafia_env.belief.track import PARTICLES, BeliefError, Segment, Tracker, _apply
from mafia_env.engine.events import PUBLIC, Ev
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import NIGHT_TURNS, PUBLIC_TURNS, Turn
from mafia_env.engine.state import Night
from mafia_env.engine.turns import APPLY
from mafia_env.errors import ConfigError
from mafia_env.observe import VectorObserver
from mafia_env.seating.policies import action_probs, load_policy

EPS = 0.05  # every model's probabilities are mixed with this much uniform play
TAU = 0.05  # a hidden mover's actions the model gives this much are each followed ...
MAXB = 6  # ... at most this many games (else its likeliest alone), of ...
MAXTRY = 16  # ... this many actions tried: those that differ only in what the mover sees
# (a sheriff's check among alike suspects) are one game, its row uncertain among them
BRANCHES = 8  # simulations a world, and worlds a deal, kept at most (the likeliest)
WIDE = (12, 32)  # particles: MAXB and the simulations a world for a second try of the worlds
# the first explained by less than RETRY nats or not at all (a doctor's heal among eleven
# alike, cut blind before the morning shows it saved the victim)
RETRY = -12.0
MOVE_ESS = PARTICLES / 4  # particles: a move step when the effective deals fall below this
PROPOSALS = 256  # ... in which this many of the slots propose a deal (`BayesTracker._move`)
SHRINK = 1.0  # particles: the answer leans on deduction's by SHRINK / (effective deals + SHRINK)
MIXMAX = 256  # rows a seat's uncertain private row keeps at most (a sheriff's two nights
# among ten alike suspects: 110) ...
MIXFLOOR = 12.0  # ... within this log-weight of its likeliest
MASS_BUDGET = 60_000  # nodes of the uniform model's exact night search (a night the night
MASS_SAMPLES = 400  # model does not cover); uniform draws of it where the search is too large
FAINT = 20.0  # worlds this far (in log-weight) below the best are not followed: a public
# move gives them the mixture's floor (EPS over the legal actions), a night NIGHT_FLOOR
NIGHT_FLOOR = 3 * math.log(EPS / 10)
GUIDE = True  # a night's simulations also follow the hidden choices deduction found
FAST = True  # the shortcuts that give the same weights (off: the plain path, for the tests)

_TALK = int(Ev.TALK)


class _View:
    """What a `VectorObserver` needs of a game: its rules, size and the events it reads."""

    def __init__(self, rules: Any, n: int):
        self.rules, self.n, self.events = rules, n, []


class _Rows:
    """One seat's distinct private observation rows, interned."""

    def __init__(self) -> None:
        self.table: list[np.ndarray] = []
        self.index: dict[bytes, int] = {}

    def id(self, row: np.ndarray) -> int:
        key = row.tobytes()
        i = self.index.get(key)
        if i is None:
            i = self.index[key] = len(self.table)
            self.table.append(row.copy())
        return i

    def id_bytes(self, key: bytes, size: int) -> int:
        """`id` of the row whose bytes are `key` (float32, `size` long)."""
        i = self.index.get(key)
        if i is None:
            i = self.index[key] = len(self.table)
            self.table.append(np.frombuffer(key, dtype=np.float32, count=size).copy())
        return i


DEAL_ROWS = 50_000  # deals whose private rows at the deal are kept, per (rules, table size)
DEAL_TABLES = 8  # the (rules, table size) pairs whose rows are kept
_DEAL_ROWS: dict[tuple[int, int], tuple[Any, dict[bytes, tuple[bytes, ...]]]] = {}
_BYTES: dict[bytes, bytes] = {}  # one copy of each distinct row's bytes


def _deal_rows(rules: Any, n: int) -> dict[bytes, tuple[bytes, ...]]:
    """The private rows of every seat at the deal, by deal (its bytes): they depend on the
    rules, the table and the deal alone (the deal's own events)."""
    hit = _DEAL_ROWS.get((id(rules), n))
    if hit is None or hit[0] is not rules:
        if len(_DEAL_ROWS) >= DEAL_TABLES:  # the oldest table's rows go (a sweep of knobs)
            _DEAL_ROWS.pop(next(iter(_DEAL_ROWS)), None)
        hit = _DEAL_ROWS[(id(rules), n)] = (rules, {})
    return hit[1]


def _intern(b: bytes) -> bytes:
    if len(_BYTES) > 100_000:
        _BYTES.clear()
    return _BYTES.setdefault(b, b)


def resolve_model(model: Any, rules: Any, n: int) -> Any:
    """Return a policy object for `model` (a registry name, or a `Policy` as it is): a name is
    loaded for these rules, knobs and all (an earlier era's rules have another layout)."""
    if isinstance(model, str):
        return load_policy(model, variant=rules, num_players=n, seed=0)
    if not callable(getattr(model, "act", None)):
        raise ConfigError(
            f"a belief's model is a policy name or an object with act(obs, mask); got {model!r}"
        )
    return model


class BayesTracker:
    """One seat's Bayesian belief over the deal under a model (see the module docstring)."""

    def __init__(self, base: Tracker, model: Any, seed: int = 0):
        self.base = base
        self.seat = base.seat
        self.rules, self.n = base.rules, base.n
        self.model = resolve_model(model, base.rules, base.n)
        self.uniform = bool(getattr(self.model, "uniform", False))
        self.layout = ActionLayout(base.rules, base.n)
        self.obs = VectorObserver(base.rules, base.n)
        self.view = _View(base.rules, base.n)
        self.obs.reset(self.view)
        self.vpos = 0  # seen[:vpos] is in self.obs
        self.P = self.obs.layout.private_size
        self._my_turn = self.obs.layout.index("my_turn")
        self._turn_pos = {t: i for i, t in enumerate(self.obs.layout.turns)}
        self.rng = random.Random(seed ^ (0xBA5E << 4) ^ base.seat)
        self.nrng = np.random.default_rng(seed ^ (0xBA5E << 4) ^ base.seat)
        self.scratch = VectorObserver(base.rules, base.n)
        self.scratch.reset(_View(base.rules, base.n))
        self.rows_of = [_Rows() for _ in range(self.n)]
        self._row_cache: dict[tuple, int] = {}
        self.done = 0  # base.history[:done] is weighed
        self.restarts = 0  # times the model explained no deal (see `_restart`)
        self.moves = 0  # particles: move steps taken (see `_move`)
        self.child = False  # a population of fresh deals replaying the history for `_move`
        self._last_step: tuple | None = None
        self._shrunk: tuple | None = None  # (the state it was computed in, `shrink`)
        self._width = (MAXB, BRANCHES)  # a night's games a mover's choice, simulations a world
        self.retries = 0  # particles: worlds a night simulated again, wider (`WIDE`)
        self._start_worlds()

    # ---------------------------------------------------------------- worlds

    def _start_worlds(self) -> None:
        base = self.base
        if base.exact:
            rows = base.deals.copy()
        else:
            rows = base.space.sample(base.allowed, self.rng, PARTICLES)
        self._set_worlds(rows)

    def _set_worlds(self, rows: np.ndarray) -> None:
        W = len(rows)
        self.rows = rows
        self.logw = np.zeros(W)
        self.priv = np.zeros((W, self.n), dtype=np.int32)
        self.hidden = np.zeros((W, 3), dtype=np.int64)  # heal_prev, self_heals, don known
        self.hidden[:, 0] = -1  # as a game starts: no heal yet; the don known as the rules say
        self.hidden[:, 2] = int(self.rules.don_known)
        # seats whose private row is uncertain in a world (a sheriff who checked one of several
        # equally suspect players): seat -> (row ids, log-weights); `priv` holds the likeliest
        self.mix: list[dict[int, tuple]] = [{} for _ in range(W)]
        self.started = np.zeros(W, dtype=bool)  # private rows set (by the deal's start)
        self.stale = np.zeros(W, dtype=bool)  # faint worlds whose nights were not played
        # the deal of each world, as an index into the listed deals (-1: particles)
        self.deal_of = np.arange(W) if self.base.exact else np.full(W, -1)
        # particles: the draws the worlds stand for; sum(exp(logw)) / nsamp estimates the
        # evidence (the prior mean of the likelihood), so two populations can be pooled
        self.nsamp = W

    @property
    def alive(self) -> np.ndarray:
        return np.isfinite(self.logw)

    # ------------------------------------------------------------------ update

    def update(self) -> None:
        self.base.update()
        hist = self.base.history
        while self.done < len(hist):
            entry = hist[self.done]
            self.done += 1
            self._consume(entry)
            if not (self.alive & ~self.stale).any():
                self._restart()
            elif entry[0] == "segment" and not self.base.exact:
                self._move()

    def _consume(self, entry: tuple) -> None:
        """Weigh the worlds by one entry of the tracker's history (a move or a segment)."""
        kind, item, pos, options = entry
        if kind == "step":
            self._public(item, pos, options)
            self._last_step = item
        else:
            if item.first is not None:
                self._public(item.first, pos, options)
            self._segment(item, pos)
            self._last_step = item.first

    def _restart(self) -> None:
        """Every world ruled out: fall back on the deals deduction keeps, weighed afresh
        from here (the model could not explain the table)."""
        base = self.base
        self._set_worlds(base.deals.copy())
        self.logw[~base.live] = -np.inf
        self._seed_rows()
        self.restarts += 1

    # ------------------------------------------------------------- the view

    def _view_to(self, pos: int) -> None:
        if pos > self.vpos:
            self.obs.cursor = 0
            self.obs.catch_up(self.base.seen[self.vpos : pos])
            self.vpos = pos

    def _public_vector(self, night: bool = False) -> np.ndarray:
        """Return the seat's observation now (its public part is every seat's)."""
        o = self.obs
        self.view.events = []
        o.cursor = 0
        if night:
            keep = o.actor, o.turn, o.turn_public
            o.actor, o.turn, o.turn_public = -1, Turn.MAFIA_KILL, False
            vec = o.observe(self.view, self.seat)
            o.actor, o.turn, o.turn_public = keep
        else:
            vec = o.observe(self.view, self.seat)
        return vec

    def mover_rows(self, pub: np.ndarray, seat: int, ids: np.ndarray, turn: Any) -> np.ndarray:
        """Return the observations of `seat` taking `turn` with each private row `ids`."""
        X = np.repeat(pub[None], len(ids), axis=0)
        table = self.rows_of[seat].table
        X[:, : self.P] = np.stack([table[i] for i in ids.tolist()])
        pos = self._turn_pos.get(turn)
        if pos is not None:
            X[:, self._my_turn + pos] = 1.0
        return X

    def _probs(self, X: np.ndarray, masks: np.ndarray) -> np.ndarray:
        p = action_probs(self.model, X, masks)
        legal = masks > 0
        return (1.0 - EPS) * p + EPS * legal / legal.sum(axis=1, keepdims=True)

    # ----------------------------------------------------------- public moves

    def _public(self, step: tuple, pos: int, options: tuple | None) -> None:
        """Weigh a public move of another seat by the model's probability of it."""
        self._view_to(pos)
        if step[0] != "act" or options is None or step[1] == self.seat or self.uniform:
            return
        last = self._last_step
        if last is not None and last[0] == "foul" and last[1] == step[1]:
            return  # the default move after a foul (COMMON-7): not the mover's choice
        mover = step[1]
        if not self.started.all():
            self._seed_rows()
        alive = np.flatnonzero(self.alive)
        mask = self.layout.options_mask(list(options))
        faint = (self.logw[alive] < self.logw[alive].max() - FAINT) | self.stale[alive]
        if faint.any():
            self.logw[alive[faint]] += math.log(EPS / int(mask.sum()))
            alive = alive[~faint]
        mixed = [w for w in alive.tolist() if mover in self.mix[w]]
        extra = [i for w in mixed for i in self.mix[w][mover][0]]
        ids = self.priv[alive, mover]
        uniq, inverse = np.unique(
            np.concatenate([ids, np.array(extra, dtype=ids.dtype)]), return_inverse=True
        )
        pub = self._public_vector()
        X = self.mover_rows(pub, mover, uniq, self.obs.turn)
        masks = np.repeat(mask[None], len(uniq), axis=0)
        a = self.layout.encode(step[2], step[3], step[4])
        logp = np.log(self._probs(X, masks)[:, a])
        self.logw[alive] += logp[inverse[: len(ids)]]
        at = dict(zip(uniq.tolist(), logp.tolist(), strict=True))
        index = {w: j for j, w in enumerate(alive.tolist())} if mixed else {}
        for w in mixed:  # the mover's uncertain row: the mixture's probability, and its update
            rows, lq = self.mix[w][mover]
            self.logw[w] -= logp[inverse[index[w]]]
            post = lq + np.array([at[i] for i in rows])
            total = _logsumexp(post)
            self.logw[w] += total
            self._set_mix(w, mover, rows, post - total)

    def _set_mix(self, w: int, seat: int, rows: tuple, lq: np.ndarray) -> None:
        """Set world `w`'s mixture of rows for `seat` (merged, the faintest dropped)."""
        merged: dict[int, float] = {}
        for r, x in zip(rows, lq.tolist(), strict=True):
            merged[r] = np.logaddexp(merged[r], x) if r in merged else x
        items = sorted(merged.items(), key=lambda kv: -kv[1])
        top = items[0][1]
        items = [(r, x) for r, x in items[:MIXMAX] if x > top - MIXFLOOR]
        self.priv[w, seat] = items[0][0]
        if len(items) == 1:
            self.mix[w].pop(seat, None)
            return
        lqs = np.array([x for _, x in items])
        self.mix[w][seat] = (tuple(r for r, _ in items), lqs - _logsumexp(lqs))

    def _components(self, sim: list, seat: int) -> tuple[tuple, np.ndarray]:
        """Return `seat`'s rows and their log-weights in a simulation's world."""
        over = sim[6].get(seat)
        if over is not None:
            return over
        mixed = self.mix[sim[0]].get(seat)
        if mixed is not None:
            return mixed
        return (int(self.priv[sim[0], seat]),), np.zeros(1)

    # ---------------------------------------------------------------- segments

    def _segment(self, seg: Segment, pos: int) -> None:
        base = self.base
        alive = np.flatnonzero(self.alive)
        if not alive.size:
            return
        alive_all = alive
        first, inverse, leaves = base._classes(seg, self.rows[alive])
        ok = np.array([leaf is not None for leaf in leaves], dtype=bool)
        self.logw[alive[~ok[inverse]]] = -np.inf
        if not ok[inverse].any():  # the segment ruled every world out: `update` restarts
            self._view_to(pos + len(seg.want))
            return
        if not seg.night or (seg.snapshot is None and not self._zero_night()):
            self._view_to(pos + len(seg.want))
            return
        keep = ok[inverse]
        alive, inverse = alive[keep], inverse[keep]
        if self.uniform:
            masses = self._class_masses(seg, self.rows[alive_all][first], leaves)
            self.logw[alive] += np.log(np.maximum(masses[inverse], 1e-300))
            self._view_to(pos + len(seg.want))
            return
        if not self.started.all():
            self._seed_rows()
        # the public part of the night, as every seat sees it: up to the night's start
        night_at = next((i for i, e in enumerate(seg.want) if e[0] == Ev.NIGHT), len(seg.want) - 1)
        self._view_to(pos + night_at + 1)
        pub = self._public_vector(night=True)
        faint = (self.logw[alive] < self.logw[alive].max() - FAINT) | self.stale[alive]
        if faint.any():  # not followed further: they keep their rows, and the floor
            self.logw[alive[faint]] += NIGHT_FLOOR
            self.stale[alive[faint]] = True
            alive, inverse = alive[~faint], inverse[~faint]
        self._simulate(seg, alive, leaves, inverse, pub)
        self._view_to(pos + len(seg.want))

    def _zero_night(self) -> bool:
        """Whether the deal is followed by hidden turns (ONLINE-N1: the don's zero night)."""
        row = self.rows[int(np.flatnonzero(self.alive)[0])]
        g = Game(self.rules, self.n, 0, list(self.base.space.as_roles(row)))
        return not g.over and g.turn not in PUBLIC_TURNS

    def _class_masses(self, seg: Segment, reps: np.ndarray, leaves: list) -> np.ndarray:
        """The uniform model's probability of each class's view of the segment (`reps`: a
        deal of each class): the share of uniform hidden histories that reproduce it."""
        masses = seg.__dict__.setdefault("masses", {})
        out = np.zeros(len(reps))
        for c, row in enumerate(reps):
            if leaves[c] is None:
                continue
            key = self.base.space.key_of(row, seg.involved, seg.living)
            if key not in masses:
                masses[key] = self._mass(seg, row)
            out[c] = masses[key]
        return out

    def _mass(self, seg: Segment, row: np.ndarray) -> float:
        base = self.base
        try:  # counted over every hidden choice at once, where the night model covers it
            return night_mass(base, seg, row)
        except Unsupported:
            pass
        search = seg.search(self.seat, row, budget=MASS_BUDGET)
        try:
            found = search.run(base._start_game(seg, row), seg.first, every=True)
            return float(sum(leaf.mass for leaf in found))
        except SearchTooLarge:
            pass
        hits = 0  # too many branches: draw uniform hidden histories instead
        for _ in range(MASS_SAMPLES):
            g = base._start_game(seg, row)
            g.rng = random.Random(self.rng.getrandbits(32))
            hits += _uniform_play(g, seg, self.seat, self.rng)
        return max(hits, 0.5) / MASS_SAMPLES

    # -------------------------------------------------------------- simulation

    def _world_start(self, seg: Segment, w: int, rng: random.Random) -> Game:
        """Return world `w`'s game at the segment's start (before its opening step)."""
        deal = self.base.space.as_roles(self.rows[w])
        if seg.snapshot is None:
            g = Game(self.rules, self.n, 0, list(deal))
            g.rng = rng
            return g
        g = seg.snapshot.clone(rng=rng)  # the simulations share one stream of chance
        g.events = []
        g.inputs = []
        swap_deal(g, deal)
        h = self.hidden[w]
        g.heal_prev, g.self_heals, g.don_introduced = int(h[0]), int(h[1]), bool(h[2])
        return g

    def _simulate(self, seg, worlds, leaves, classes, pub) -> None:
        """Play the segment forward in every world (module docstring) and weigh them.

        A world goes on as one world per distinct hidden history its draws found (what each
        seat saw of it differs: the sheriff checked one player or another), each weighted by
        its share of the draws: the heaviest worlds draw `SAMPLES_TOP` times, so that the
        ties a model breaks at random are followed; a deal keeps at most `BRANCHES` worlds.
        """
        bit = 1 << self.seat
        sims = [
            [w, None, 0, 0, 0.0, None, {}, [], self._guide(seg, leaves[classes[j]], w), True]
            for j, w in enumerate(worlds.tolist())
        ]
        results: dict[int, list] = {}
        for sim in self._run(seg, sims, pub, bit):
            results.setdefault(sim[0], []).append(sim)
        if WIDE and not self.base.exact:  # the worlds explained poorly: tried again, wider
            again = [
                [w, None, 0, 0, 0.0, None, {}, [], self._guide(seg, leaves[classes[j]], w), True]
                for j, w in enumerate(worlds.tolist())
                if w not in results or max(s[4] for s in results[w]) < RETRY
            ]
            if again:
                keep, self._width = self._width, WIDE
                try:
                    wide: dict[int, list] = {}
                    for sim in self._run(seg, again, pub, bit):
                        wide.setdefault(sim[0], []).append(sim)
                finally:
                    self._width = keep
                self.retries += len(again)
                results.update(wide)  # (the wider search follows more of the hidden histories)
        # worlds the model's likelier choices did not explain: the hidden choices deduction
        # found for their class, weighed by the model
        forced = [
            [
                int(w),
                None,
                0,
                0,
                0.0,
                self._mapped(seg, leaves[classes[j]], int(w)),
                {},
                [],
                None,
                False,
            ]
            for j, w in enumerate(worlds.tolist())
            if w not in results
        ]
        for sim in self._run(seg, forced, pub, bit) if forced else []:
            results[sim[0]] = [sim]
        grown: list[tuple[int, float, Game]] = []  # (parent world, log-weight, its game)
        for w in worlds.tolist():
            got = results.get(w)
            if not got:
                self.logw[w] = -np.inf
                continue
            kinds: dict[tuple, list] = {}
            for sim in got:
                kinds.setdefault(_history(sim[1]), []).append(sim)
            for same in kinds.values():
                lp = [s[4] for s in same]
                top = max(lp)
                total = top + math.log(sum(math.exp(x - top) for x in lp))
                grown.append((w, self.logw[w] + total, same[0]))
        self._grow(worlds, grown, seg)

    def _grow(self, worlds: np.ndarray, grown: list, seg: Segment) -> None:
        """Replace `worlds` by their successors (parent, log-weight, game).

        SPORT-N3's zero-night meeting, which the town never sees, keeps one world a deal (its
        heaviest meeting, carrying the deal's weight): its hidden proposals, kept eight a deal,
        made every later night eight times the work (a sport-10 town seat's Bayes under the
        rule bots on day 3: 262 s)."""
        meeting = self.rules.zero_night_meeting and seg.snapshot is None
        if self.base.exact and grown:  # at most BRANCHES worlds a deal: the heaviest
            by_deal: dict[int, list] = {}
            for item in grown:
                by_deal.setdefault(int(self.deal_of[item[0]]), []).append(item)
            grown = []
            for items in by_deal.values():
                items.sort(key=lambda x: -x[1])
                if meeting and len(items) > 1:
                    lift = _logsumexp(np.array([x[1] for x in items])) - items[0][1]
                    items = [(items[0][0], items[0][1] + lift, items[0][2])]
                grown += items[:BRANCHES]
        elif grown:  # particles: the same, the kept worlds carrying the deal's whole weight
            by_row: dict[bytes, list] = {}
            for item in grown:
                by_row.setdefault(self.rows[item[0]].tobytes(), []).append(item)
            grown = []
            for items in by_row.values():
                cap = 1 if meeting else BRANCHES
                if len(items) > cap:
                    items.sort(key=lambda x: -x[1])
                    lws = np.array([x[1] for x in items])
                    lift = _logsumexp(lws) - _logsumexp(lws[:cap])
                    items = [(p, lw + lift, g) for p, lw, g in items[:cap]]
                grown += items
        keep = np.ones(len(self.logw), dtype=bool)
        keep[worlds] = False
        parents = np.array([p for p, _, _ in grown], dtype=np.int64)
        idx = np.concatenate([np.flatnonzero(keep), parents]).astype(np.int64)
        old = len(np.flatnonzero(keep))
        self.rows = self.rows[idx].copy()
        self.priv = self.priv[idx].copy()
        self.hidden = self.hidden[idx].copy()
        self.started = self.started[idx].copy()
        self.stale = self.stale[idx].copy()
        self.deal_of = self.deal_of[idx].copy()
        self.mix = [dict(self.mix[i]) for i in idx.tolist()]
        self.logw = np.concatenate([self.logw[keep], np.array([lw for _, lw, _ in grown])])
        for k, (_, _, sim) in enumerate(grown):
            self._settle(old + k, sim, seg)
        if not self.base.exact:  # (with the worlds not followed tonight too)
            self._cap_deals()

    def _guide(self, seg: Segment, leaf: Any, w: int) -> dict[int, tuple] | None:
        """Return, by hidden mover, the actions of the hidden history deduction found for
        world `w`'s class (on its seats): followed besides the model's likelier ones, so that
        a choice the model gives no more than its equals (a kill among ten alike targets,
        past the `MAXB` followed) still leads a simulation to the view."""
        leaf = self.base.leaf(seg, leaf)
        if not GUIDE or leaf is None:
            return None
        out: dict[int, list] = {}
        for step in self._mapped(seg, leaf, w):
            if step[0] == "act" and step[1] != self.seat:
                a = self.layout.encode(step[2], step[3], step[4])
                out.setdefault(step[1], [])
                if a not in out[step[1]]:
                    out[step[1]].append(a)
        return {k: tuple(v) for k, v in out.items()}

    def _mapped(self, seg: Segment, leaf: Any, w: int) -> list[tuple]:
        """Return the leaf's steps (found for a deal of the class) on world `w`'s seats."""
        leaf = self.base.leaf(seg, leaf)
        if leaf is None:  # (the night model accepted a class the search finds no branch of)
            return []
        steps = leaf.steps()
        if seg.first is not None:
            steps = steps[1:]  # the opening public step is played as it was
        rep_row = self.base.space.as_row(leaf.g.roles)
        perm = _sigma(rep_row, self.rows[w], seg.involved, seg.living)
        out = []
        for step in steps:
            kind = step[0]
            if kind == "act":
                t = step[3]
                out.append(("act", perm[step[1]], step[2], perm[t] if t >= 0 else t, step[4]))
            else:
                out.append(step[:2])
        return out

    def _run(self, seg: Segment, sims: list[list], pub: np.ndarray, bit: int) -> list[list]:
        """Play every simulation to the segment's end; return those that reproduce the view.

        A simulation is ``[world, game, events matched, events checked, log-probability,
        forced steps or None]``. At a hidden turn the model's likelier actions are each
        followed (`_answer`): a simulation branches where the model is torn.
        """
        want = seg.want
        for sim in sims:  # each world's game at the segment's start, its opening step played
            g = self._world_start(seg, sim[0], self.rng)
            sim[1] = g
            if seg.first is not None:
                try:
                    _apply(g, seg.first)
                except (ValueError, RuntimeError):
                    sim[1] = None
                    continue
            if not self._match(sim, bit, want):
                sim[1] = None
        active = [s for s in sims if s[1] is not None]
        done: list[list] = []
        while active:
            asks: dict[tuple, list] = {}
            nxt = []
            for sim in active:
                g = sim[1]
                if sim[2] < len(want) and _moderator(want[sim[2]]):
                    _do_moderator(g, want[sim[2]])
                    if not self._match(sim, bit, want):
                        continue
                if g.over or g.turn in PUBLIC_TURNS:
                    if sim[2] == len(want):
                        done.append(sim)
                    continue
                if sim[5] is not None:  # forced: take the next step, weigh it by the model
                    if not sim[5]:
                        continue
                    step = sim[5][0]
                    if g.actor != self.seat:
                        asks.setdefault(self._ask_key(sim, g), []).append((sim, step))
                    else:
                        sim[5] = sim[5][1:]
                        if self._play(sim, step, bit, want):
                            nxt.append(sim)
                    continue
                if g.actor == self.seat:  # the seat's own turn: what its view shows
                    if self._own(sim, bit, want):
                        nxt.append(sim)
                    continue
                asks.setdefault(self._ask_key(sim, g), []).append((sim, None))
            if asks:
                nxt += self._answer(asks, pub, bit, want)
            active = self._cap(nxt)
        return done

    def _cap(self, sims: list[list]) -> list[list]:
        """Keep at most `BRANCHES` simulations a world, the likeliest (and the likeliest of
        those that followed deduction's hidden history so far, `_guide`)."""
        cap = self._width[1]
        by_world: dict[int, list] = {}
        for sim in sims:
            by_world.setdefault(sim[0], []).append(sim)
        out = []
        for group in by_world.values():
            if len(group) > cap:
                group.sort(key=lambda s: -s[4])
                kept = group[:cap]
                if not any(s[9] for s in kept):
                    on = next((s for s in group[cap:] if s[9]), None)
                    if on is not None:
                        kept[-1] = on
                group = kept
            out += group
        return out

    def _ask_key(self, sim: list, g: Game) -> tuple:
        return (g.actor, g.turn, tuple(g.legal()))

    def _answer(self, asks: dict, pub: np.ndarray, bit: int, want: list) -> list[list]:
        """Ask the model once per distinct (mover, private row, turn, options), then act.

        Each action the model gives at least `TAU` (at most `MAXTRY`, else its likeliest) is
        tried, and the `MAXB` likeliest games they lead to are followed (and the one of
        deduction's hidden choice, `_guide`); actions that lead to the same game, and differ
        only in what the mover alone sees (checks), stay one simulation, the mover's private
        row then uncertain among them (`_settle`); actions that lead to different games are
        each a simulation. A forced step is weighed by the model's probability of it.
        """
        need: dict[tuple, int] = {}
        for (actor, turn, opts), items in asks.items():
            for sim, _ in items:
                for rid in self._components(sim, actor)[0]:
                    need.setdefault((actor, rid, turn, opts), len(need))
        keys = list(need)
        X = np.zeros((len(keys), len(pub)), dtype=np.float32)
        masks = np.zeros((len(keys), self.layout.size), dtype=np.int8)
        for i, (actor, rid, turn, opts) in enumerate(keys):
            X[i] = self.mover_rows(pub, actor, np.array([rid]), turn)[0]
            masks[i] = self.layout.options_mask(list(opts))
        P = self._probs(X, masks)
        decoded = self.layout.decoded
        out = []
        picks: dict[int, list[int]] = {}  # a question's candidates (a mover of one row)
        for (actor, turn, opts), items in asks.items():
            for sim, step in items:
                rows, lq = self._components(sim, actor)
                one = FAST and len(rows) == 1 and math.isfinite(float(lq[0]))
                if one:  # (q = [1]: the mixture is the row's own answer, bit for bit)
                    i = need[(actor, rows[0], turn, opts)]
                    Pc = P[i : i + 1]
                    pbar = P[i]
                else:
                    Pc = np.stack([P[need[(actor, r, turn, opts)]] for r in rows])
                    q = np.exp(lq - lq.max())
                    q /= q.sum()
                    pbar = q @ Pc
                if step is not None:  # forced
                    sim[5] = sim[5][1:]
                    cands = [self.layout.encode(step[2], step[3], step[4])]
                elif one and i in picks:
                    cands = picks[i]
                else:
                    order = np.argsort(-pbar, kind="stable")[:MAXTRY]
                    cands = [int(a) for a in order if pbar[a] >= TAU] or [int(order[0])]
                    if one:
                        picks[i] = cands
                guide = sim[8].get(actor) if sim[8] else None
                if guide:  # the hidden choice deduction found is followed too
                    extra = [a for a in guide if a not in cands and pbar[a] > 0]
                    if extra:
                        cands = cands + extra
                if len(cands) == 1:  # one action: played in the simulation itself
                    a = cands[0]
                    act, target, value = decoded[a]
                    if pbar[a] <= 0:  # not legal in this simulation (the untold heal state of
                        continue  # ONLINE-N9 read otherwise): it cannot have led to the move
                    sim[4] += math.log(float(pbar[a]))
                    sim[9] = sim[9] and (not guide or a in guide)
                    if len(rows) > 1:
                        post = lq + np.log(Pc[:, a])
                        sim[6][actor] = (rows, post - _logsumexp(post))
                    if self._play(sim, ("act", actor, act, target, value), bit, want):
                        out.append(sim)
                    continue
                tried = []
                if FAST and sim[1].turn in _APART and _apart(cands, decoded):
                    tried = [(a, None, a) for a in cands]  # each its own game (`_APART`)
                elif FAST and sim[1].turn in _CHECKS and len(cands) > 1:
                    tried = _checks(sim[1], actor, cands, decoded, self.rng)
                for a in cands if not tried else ():  # what each does, up to the hand-over
                    act, target, value = decoded[a]
                    alone = _alone(sim[1], ("act", actor, act, target, value), self.rng)
                    if alone is not None:
                        own, key = alone
                        mine = 1 << actor
                        shared = tuple(e for e in own if e[4] != mine)
                        tried.append((a, own, (key, shared)))
                groups: dict[tuple, list] = {}
                for item in tried:
                    groups.setdefault(item[2], []).append(item)
                chosen = list(groups.values())
                maxb = self._width[0]
                if len(chosen) > maxb:  # the MAXB likeliest games (and deduction's choice's)
                    chosen.sort(key=lambda grp: -float(sum(pbar[a] for a, _, _ in grp)))
                    chosen = chosen[:maxb] + [
                        grp for grp in chosen[maxb:] if guide and any(a in guide for a, _, _ in grp)
                    ]
                for gi, group in enumerate(chosen):
                    a0, own0, _ = group[0]
                    mass = float(sum(pbar[a] for a, _, _ in group))
                    h = sim[1] if gi == len(chosen) - 1 else sim[1].clone(rng=self.rng)
                    at = len(h.events)
                    act, target, value = decoded[a0]
                    try:
                        _apply(h, ("act", actor, act, target, value))
                    except (ValueError, RuntimeError):
                        continue
                    branch = [sim[0], h, sim[2], sim[3], sim[4] + math.log(mass), sim[5]]
                    on = sim[9] and (not guide or any(a in guide for a, _, _ in group))
                    branch += [dict(sim[6]), list(sim[7]), sim[8], on]
                    if len(rows) > 1:  # what the mover did tells which of its rows it is
                        post = lq + np.log(Pc[:, [a for a, _, _ in group]].sum(axis=1))
                        branch[6][actor] = (rows, post - _logsumexp(post))
                    if len(group) > 1:  # the same game: the mover's row is left uncertain
                        alts = [(own, Pc[:, a]) for a, own, _ in group]
                        branch[7].append((actor, at, len(own0), rows, alts))
                    if self._match(branch, bit, want):
                        out.append(branch)
        return out

    def _play(self, sim: list, step: tuple, bit: int, want: list) -> bool:
        try:
            _apply(sim[1], step)
        except (ValueError, RuntimeError):
            return False
        return self._match(sim, bit, want)

    def _own(self, sim: list, bit: int, want: list) -> bool:
        """The seat's own hidden turn: the action whose events its view shows."""
        g = sim[1]
        for act, target, value in expand_options(g):
            h = fork(g)
            _apply(h, ("act", g.actor, act, target, value))
            k = sim[2]
            ok = True
            for e in h.events:
                if (e[4] == PUBLIC or e[4] & bit) and e[0] != _TALK:
                    if k >= len(want) or e != want[k]:
                        ok = False
                        break
                    k += 1
            if ok and (k > sim[2] or not any(True for _ in ())):
                return self._play(sim, ("act", g.actor, act, target, value), bit, want)
        return False

    def _match(self, sim: list, bit: int, want: list) -> bool:
        """Check the events logged since the last check against the view."""
        g = sim[1]
        k = sim[2]
        for e in g.events[sim[3] :]:
            if (e[4] == PUBLIC or e[4] & bit) and e[0] != _TALK:
                if k >= len(want) or e != want[k]:
                    return False
                k += 1
        sim[2], sim[3] = k, len(g.events)
        return True

    # -------------------------------------------------------- private rows

    def _seed_rows(self) -> None:
        """Set each world's private rows from its deal (the deal's own events; each deal's
        rows are kept for the next game's trackers: `_DEAL_ROWS`)."""
        todo = np.flatnonzero(~self.started)
        kept = _deal_rows(self.rules, self.n) if FAST else {}
        local: dict[tuple[int, bytes], int] = {}
        for w in todo.tolist():
            key = self.rows[w].tobytes()
            got = kept.get(key)
            if got is None:
                deal = self.base.space.as_roles(self.rows[w])
                g = Game(self.rules, self.n, 0, list(deal))
                self._rows_after(w, g.events, reset=True)
                if FAST and len(kept) < DEAL_ROWS:
                    kept[key] = tuple(
                        _intern(self.rows_of[s].table[self.priv[w, s]].tobytes())
                        for s in range(self.n)
                    )
            else:
                for s, b in enumerate(got):
                    i = local.get((s, b))
                    if i is None:
                        i = local[(s, b)] = self.rows_of[s].id_bytes(b, self.P)
                    self.priv[w, s] = i
            self.started[w] = True

    def _rows_after(self, w: int, events: list, reset: bool = False) -> None:
        sc = self.scratch
        if reset:
            sc.priv[:] = 0
            for s in range(self.n):
                sc.priv_views[s]["seat"][s] = 1
        else:
            for s in range(self.n):
                sc.priv[s] = self.rows_of[s].table[self.priv[w, s]]
        sc.cursor = 0
        sc.catch_up(events)
        for s in range(self.n):
            self.priv[w, s] = self.rows_of[s].id(sc.priv[s])

    def _settle(self, w: int, sim: list, seg: Segment) -> None:
        """World `w` goes on from a simulation: its private rows (uncertain where the
        simulation left a mover's choice open, or the seat's row was uncertain), its hidden
        state."""
        g, over, alts = sim[1], sim[6], sim[7]
        open_seats = set(self.mix[w]) | set(over) | {alt[0] for alt in alts}
        before = {}
        for s in open_seats:
            got = over.get(s) or self.mix[w].get(s)
            before[s] = got if got is not None else ((int(self.priv[w, s]),), np.zeros(1))
        self._rows_after(w, g.events)
        for s in open_seats:
            rows, lq = before[s]
            mine = [alt for alt in alts if alt[0] == s]
            new_rows, new_lq = [], []
            for c, (r, x) in enumerate(zip(rows, lq.tolist(), strict=True)):
                for events, weight in _variants(g.events, mine, rows, c):
                    new_rows.append(self._row_of(s, r, events))
                    new_lq.append(x + weight)
            lqs = np.array(new_lq)
            self._set_mix(w, s, tuple(new_rows), lqs - _logsumexp(lqs))
        self.hidden[w] = (g.heal_prev, g.self_heals, int(g.don_introduced))

    def _row_of(self, seat: int, row: int, events: list) -> int:
        """Return `seat`'s row after `events`, from its row `row` (kept by what it saw)."""
        bit = 1 << seat
        seen = tuple(e for e in events if e[4] == PUBLIC or e[4] & bit)
        key = (seat, row, seen)
        hit = self._row_cache.get(key)
        if hit is None:
            sc = self.scratch
            sc.priv[seat] = self.rows_of[seat].table[row]
            sc.cursor = 0
            sc.catch_up(list(seen))
            hit = self._row_cache[key] = self.rows_of[seat].id(sc.priv[seat])
            if len(self._row_cache) > 200_000:
                self._row_cache.clear()
        return hit

    # ---------------------------------------------------------------- particles

    def _deal_ess(self) -> float:
        """The effective number of deals: 1 / sum of the squared weights summed per deal."""
        alive = np.flatnonzero(self.alive)
        if not alive.size:
            return 0.0
        w = np.exp(self.logw[alive] - self.logw[alive].max())
        _, inv = unique_rows(self.rows[alive])
        per = np.bincount(inv.ravel(), w)
        per /= per.sum()
        return float(1.0 / (per**2).sum())

    def _move(self) -> None:
        """Particles, after a segment: when the weights have gathered on few deals (their
        effective number under `MOVE_ESS`), a resample-move step. The worlds are drawn again
        by weight into `PARTICLES` slots (`_reduce`); `PROPOSALS` of the slots propose a new
        deal, half a swap of two seats' roles in the slot's deal, half a deal drawn from
        deduction's particles (uniform over the deals no segment rules out); a proposal no
        segment accepts is refused, the others are weighed by the whole history so far
        (`_replay`: the slots' own deals too, on the same draws) and accepted with the
        Metropolis probability min(1, L(new) / L(old)) (the prior is uniform over the deals,
        both proposals symmetric). The slots' deals then take the worlds of the replay.
        Else only the worlds ruled out are dropped."""
        if self.child:
            return
        if self._deal_ess() >= MOVE_ESS:
            self._take(np.flatnonzero(self.alive), None)
            return
        self._reduce()
        base = self.base
        live = np.flatnonzero(base.live)
        deals, inv = unique_rows(self.rows)
        inv = inv.ravel()
        per = np.full(len(deals), -np.inf)
        np.logaddexp.at(per, inv, self.logw)
        logz = _logsumexp(per) - math.log(self.nsamp)
        p = np.exp(per - per.max())
        marks = (self.rng.random() + np.arange(PARTICLES)) / PARTICLES
        slot = np.minimum(np.searchsorted(np.cumsum(p / p.sum()), marks), len(p) - 1)
        movers = sorted(self.rng.sample(range(PARTICLES), min(PROPOSALS, PARTICLES)))
        props = deals[slot[movers]].copy()
        for j in range(len(props)):
            r = props[j]
            if live.size and self.rng.random() < 0.5:
                props[j] = base.deals[self.rng.choice(live.tolist())]
                continue
            pairs = [(a, b) for a in range(self.n) for b in range(a + 1, self.n) if r[a] != r[b]]
            if pairs:
                a, b = self.rng.choice(pairs)
                r[a], r[b] = r[b], r[a]
        ok = base._consistent(props)
        cand = np.concatenate([deals, props[ok]])
        rows, back = unique_rows(cand)
        back = back.ravel()
        c = self._replay(rows)
        self.moves += 1
        if c is None:
            return
        ll = np.full(len(rows), -np.inf)  # each deal's likelihood: its worlds' weights summed
        lookup = {rows[i].tobytes(): i for i in range(len(rows))}
        of = np.array([lookup[x.tobytes()] for x in c.rows], dtype=np.int64)
        np.logaddexp.at(ll, of, c.logw)
        end_deal = back[slot]  # each slot's deal, as a row of `rows`
        old_at = back[: len(deals)]
        new_at = np.full(len(props), -1)
        new_at[ok] = back[len(deals) :]
        for j, s in enumerate(movers):
            if not ok[j]:
                continue
            cur, nxt = old_at[slot[s]], new_at[j]
            gain = ll[nxt] - ll[cur]
            if math.isfinite(ll[nxt]) and (gain >= 0 or self.rng.random() < math.exp(gain)):
                end_deal[s] = nxt
        count = np.bincount(end_deal, minlength=len(rows)).astype(np.float64)
        keepw = np.flatnonzero(np.isfinite(c.logw) & (count[of] > 0))
        if not keepw.size:
            return
        d = of[keepw]
        c.logw = c.logw.copy()
        c.logw[keepw] = np.log(count[d]) + logz + c.logw[keepw] - ll[d]
        c._take(keepw, c.logw[keepw])
        self._take(np.zeros(0, dtype=np.int64), np.zeros(0))
        self.nsamp = 0
        self._pool(c)
        self.nsamp = PARTICLES

    def _replay(self, rows: np.ndarray) -> BayesTracker | None:
        """Return a population of the deals `rows` (log-weight 0) weighed by the history
        so far: the same steps as the worlds took, from the deal."""
        base = self.base
        c = object.__new__(BayesTracker)
        c.__dict__.update(self.__dict__)  # the model, the interned rows and their caches
        c.child = True
        c.obs = VectorObserver(self.rules, self.n)
        c.view = _View(self.rules, self.n)
        c.obs.reset(c.view)
        c.vpos = 0
        c.rng = random.Random(self.rng.getrandbits(64))
        c.done = 0
        c.restarts = 0
        c._last_step = None
        c._set_worlds(rows.astype(base.deals.dtype))
        for entry in base.history[: self.done]:
            c._consume(entry)
            if not (c.alive & ~c.stale).any():
                return None
        return c

    def _pool(self, c: BayesTracker) -> None:
        """Add the fresh population `c`'s living worlds to the worlds (both weigh as one
        sample of `nsamp` draws: their log-weights are on the same scale)."""
        idx = np.flatnonzero(c.alive)
        self.rows = np.concatenate([self.rows, c.rows[idx]])
        self.priv = np.concatenate([self.priv, c.priv[idx]])
        self.hidden = np.concatenate([self.hidden, c.hidden[idx]])
        self.mix = self.mix + [c.mix[i] for i in idx.tolist()]
        self.started = np.concatenate([self.started, c.started[idx]])
        self.stale = np.concatenate([self.stale, c.stale[idx]])
        self.deal_of = np.concatenate([self.deal_of, c.deal_of[idx]])
        self.logw = np.concatenate([self.logw, c.logw[idx]])
        self.nsamp += c.nsamp

    def _reduce(self) -> None:
        """Draw `PARTICLES` worlds by weight (systematic resampling); a world drawn k times is
        kept once, weighing k; a deal keeps at most `BRANCHES` worlds, the heaviest, which
        carry its whole weight."""
        alive = np.flatnonzero(self.alive)
        if not alive.size:
            return
        lw = self.logw[alive]
        top = float(lw.max())
        w = np.exp(lw - top)
        total = float(w.sum())
        logz = top + math.log(total) - math.log(self.nsamp)  # the evidence, kept
        marks = (self.rng.random() + np.arange(PARTICLES)) / PARTICLES
        counts = np.bincount(
            np.minimum(np.searchsorted(np.cumsum(w / total), marks), len(w) - 1),
            minlength=len(w),
        )
        drawn = np.flatnonzero(counts)
        idx = alive[drawn]
        new = np.log(counts[drawn].astype(np.float64)) + logz
        self._take(idx, new)
        self._cap_deals()
        self.nsamp = PARTICLES

    def _cap_deals(self) -> None:
        """Particles: a deal keeps at most `BRANCHES` living worlds, the heaviest, which carry
        its whole weight (the worlds ruled out go)."""
        idx = np.flatnonzero(self.alive)
        new = self.logw[idx].copy()
        _, inv = unique_rows(self.rows[idx])
        inv = inv.ravel()
        keep = np.ones(len(idx), dtype=bool)
        for d in np.flatnonzero(np.bincount(inv, minlength=1) > BRANCHES).tolist():
            members = np.flatnonzero(inv == d)
            order = members[np.argsort(-new[members], kind="stable")]
            lift = _logsumexp(new[order]) - _logsumexp(new[order[:BRANCHES]])
            new[order[:BRANCHES]] += lift
            keep[order[BRANCHES:]] = False
        if len(idx) < len(self.logw) or not keep.all():
            self._take(idx[keep], new[keep])

    def _take(self, idx: np.ndarray, logw: np.ndarray | None) -> None:
        """Keep the worlds `idx` (their log-weights `logw`, or as they are)."""
        self.rows = self.rows[idx].copy()
        self.priv = self.priv[idx].copy()
        self.hidden = self.hidden[idx].copy()
        self.mix = [dict(self.mix[i]) for i in idx.tolist()]
        self.started = self.started[idx].copy()
        self.stale = self.stale[idx].copy()
        self.deal_of = self.deal_of[idx].copy()
        self.logw = self.logw[idx].copy() if logw is None else logw

    # ------------------------------------------------------------------ answers

    def weights(self) -> np.ndarray:
        """Return the weight of each deal (exact: of `base.deals`) or particle (`rows`)."""
        self.update()
        alive = self.alive
        out = np.zeros(len(self.logw))
        if alive.any():
            out[alive] = np.exp(self.logw[alive] - self.logw[alive].max())
        if self.base.exact:
            out = np.bincount(self.deal_of, out, minlength=len(self.base.deals))
            out = out * self.base.current()  # the night under way, as deduction sees it
        return out

    def shrink(self, w: np.ndarray | None = None) -> float:
        """Particles: the share of the answer given to deduction's particles (0 where the
        deals are listed): `SHRINK` / (effective deals + `SHRINK`), or more where the
        particles' marginals differ from deduction's by no more than their own sampling
        noise (the positive-part James-Stein share, summed over the other seats: the noise
        of each marginal p estimated as p (1 - p) / (effective deals + 1))."""
        base = self.base
        if base.exact or SHRINK <= 0:
            return 0.0
        if w is None:
            w = self.weights()
        key = (self.done, self.moves, self.restarts, len(self.logw), len(base.seen))
        if self._shrunk is None or self._shrunk[0] != key:
            ess = self._deal_ess()
            lam = SHRINK / (ess + SHRINK)
            if w.sum() > 0:
                p = w / w.sum()
                R = len(base.space.roles)
                mb = np.stack([p @ (self.rows == r) for r in range(R)], axis=1)
                md = base.matrix().astype(np.float64)
                others = np.arange(self.n) != self.seat
                noise = float((mb * (1.0 - mb))[others].sum()) / (ess + 1.0)
                dist = float(((mb - md) ** 2)[others].sum())
                lam = max(lam, 1.0 if dist <= noise else noise / dist)
            self._shrunk = (key, lam)
        return self._shrunk[1]

    def belief(self) -> Any:
        from mafia_env.belief.result import Belief

        w = self.weights()
        if not (w > 0).any():
            raise BeliefError(f"seat {self.seat}: no world is left")
        base = self.base
        if base.exact:
            return Belief(
                base.space, self.seat, base.deals, w, True, float(len(self.rows)), base.world
            )
        rows = self.rows
        lam = self.shrink(w)
        live = base.current()
        if lam > 0 and live.any():  # the particles' answer leans on deduction's (`SHRINK`)
            rows = np.concatenate([rows, base.deals[live]])
            w = np.concatenate([(1.0 - lam) * w / w.sum(), np.full(int(live.sum()), lam)])
            w[len(self.rows) :] /= live.sum()
        return Belief(
            base.space, self.seat, rows, w, False, max(base.support, 1.0), sampler=base.world
        )


def _alone(g: Game, step: tuple, rng: Any) -> tuple[list, tuple] | None:
    """Return what `step` logs and how it leaves the night, stopping at the next hand-over.

    The acting player is queued again first, so that the engine hands the turn straight back
    instead of going on (to the morning): the step's own events, and a key of what a night
    turn can change (tonight's choices, the queue, the don's introduction).
    """
    if FAST and g.turn in NIGHT_TURNS:
        h = _night_copy(g, rng)
    else:
        h = g.clone(rng=rng)
    h.queue.appendleft((g.actor, g.turn))
    at = len(h.events)
    try:
        _apply(h, step)
    except (ValueError, RuntimeError):
        return None
    own = h.events[at:]
    if own and own[-1][0] == Ev.TURN and own[-1][1] == g.actor:
        own = own[:-1]  # the hand-over back
    else:
        h.queue.popleft()
    return own, (_night_key(h.night), tuple(h.queue), h.don_introduced, h.alive_bits)


# night turns whose moves of distinct (act, target) leave tonight's choices apart (the shot,
# the heal, the visit, the executor named): each is its own game, so `_answer` need not try
# them one by one to find which lead to the same game (the checks, the meeting's proposal
# the mover alone sees and the hunt's guessed status can)
_APART = frozenset({Turn.MAFIA_KILL, Turn.DOCTOR, Turn.MANIAC, Turn.PUTANA, Turn.EXECUTOR})


def _apart(cands: list[int], decoded: Any) -> bool:
    """Whether the actions `cands` are of distinct (act, target) and carry no value."""
    seen = set()
    for a in cands:
        act, target, value = decoded[a]
        if value != -1:
            return False
        seen.add((act, target))
    return len(seen) == len(cands)


_CHECKS = frozenset({Turn.DON_CHECK, Turn.SHERIFF_CHECK})


def _checks(g: Game, actor: int, cands: list[int], decoded: Any, rng: Any) -> list[tuple]:
    """`_answer`'s trials of a check turn's moves, found without a copy a move: a check
    leaves the game as it was but for what the checker learns, so the first move is tried
    (`_alone`: the key every move shares) and each move's own events are logged by the
    turn's rule on a bare game holding what a check reads. [] (try them one by one) where
    the bare game's events for the first move are not the trial's."""
    act, target, value = decoded[cands[0]]
    first = _alone(g, ("act", actor, act, target, value), rng)
    if first is None:
        return []
    bare = Game.__new__(Game)
    bare.__dict__.update(turn=g.turn, roles=g.roles, teams=g.teams, actor=g.actor, rules=g.rules)
    bare._advance = _no_advance
    apply = APPLY[g.turn]
    mine = 1 << actor
    out = []
    for a in cands:
        act, target, value = decoded[a]
        bare.events = []
        apply(bare, act, target, value)
        own = bare.events
        if not out and own != first[0]:
            return []
        out.append((a, own, (first[1], tuple(e for e in own if e[4] != mine))))
    return out


def _no_advance() -> None:
    """A bare game's hand-over (`_checks`): nothing follows."""


def _night_copy(g: Game, rng: Any) -> Game:
    """A copy of `g` at a night turn for `_alone`: a night move, handed straight back to
    its mover, changes only tonight's choices, the queue, the logs and plain attributes
    (the don's introduction, the actor), so only those are copied (the logs start empty);
    the rest (the living, the day's business) is shared with `g`, read-only here."""
    h = Game.__new__(Game)
    h.__dict__.update(g.__dict__)
    h.rng = rng
    h.events = []
    h.inputs = []
    h.queue = g.queue.copy()
    h.night = g.night.copy()
    return h


def _night_key(night: Night) -> tuple:
    """Tonight's choices as a hashable value (each field as `_flat_field` gives it)."""
    shots, executors = night.shots, night.executors
    return (
        tuple(sorted(shots.items())) if shots else (),
        tuple(sorted(executors.items())) if executors else (),
        night.blocked,
        night.heal,
        night.maniac_shot,
        tuple(night.hunts),
        tuple(night.victims),
    )


def _flat_field(v: Any) -> Any:
    if type(v) is list:
        return tuple(v)
    if type(v) is dict:
        return tuple(sorted(v.items()))
    return v


def _logsumexp(x: np.ndarray) -> float:
    x = np.asarray(x)
    top = float(x.max())
    return top + math.log(float(np.exp(x - top).sum()))


def _variants(events: list, alts: list, rows: tuple, c: int):
    """Yield (events, log-weight) for every way the simulation's open choices of one seat
    could have gone, for its row `c`: each open choice's events swapped in, weighed."""
    if not alts:
        yield events, 0.0
        return
    (_, at, length, alt_rows, options), rest = alts[-1], alts[:-1]
    k = alt_rows.index(rows[c]) if rows[c] in alt_rows else 0
    total = sum(float(p[k]) for _, p in options)
    for alt_events, p in options:
        swapped = events[:at] + list(alt_events) + events[at + length :]
        for ev, w in _variants(swapped, rest, rows, c):
            yield ev, w + math.log(float(p[k]) / total)


def _history(g: Game) -> tuple:
    """What a simulated segment hid (every event not public) and the hidden state after it."""
    hidden = tuple(e for e in g.events if e[4] != PUBLIC)
    return (hidden, g.heal_prev, g.self_heals, g.don_introduced)


def _sigma(rep: np.ndarray, row: np.ndarray, involved: tuple, living: np.ndarray) -> list[int]:
    """Return the seat map from deal `rep` to deal `row` of one class: the involved seats
    stay, the others go to seats of the same role (living to living, dead to dead)."""
    n = len(row)
    perm = list(range(n))
    inv = set(involved)
    for alive in (True, False):
        rest = [s for s in range(n) if s not in inv and bool(living[s]) is alive]
        for r in set(row[rest].tolist()) | set(rep[rest].tolist()):
            a = [s for s in rest if rep[s] == r]
            b = [s for s in rest if row[s] == r]
            for x, y in zip(a, b, strict=False):
                perm[x] = y
    return perm


def _uniform_play(g: Game, seg: Segment, seat: int, rng: random.Random) -> bool:
    """Play the segment with uniform hidden choices; return whether the seat's view is kept."""
    bit = 1 << seat
    want = seg.want
    k = 0
    n = 0

    def match() -> bool:
        nonlocal k, n
        for e in g.events[n:]:
            if (e[4] == PUBLIC or e[4] & bit) and e[0] != _TALK:
                if k >= len(want) or e != want[k]:
                    return False
                k += 1
        n = len(g.events)
        return True

    try:
        if seg.first is not None:
            _apply(g, seg.first)
        if not match():
            return False
        while not g.over and g.turn not in PUBLIC_TURNS:
            if k < len(want) and _moderator(want[k]):
                _do_moderator(g, want[k])
            else:
                g.apply(*rng.choice(expand_options(g)))
            if not match():
                return False
    except (ValueError, RuntimeError):
        return False
    return k == len(want)


def _moderator(e: tuple) -> bool:
    from mafia_env.engine.events import Cause

    return (
        e[0] == Ev.FOUL
        or e[0] == Ev.TERMINATED
        or (e[0] == Ev.ELIMINATED and e[3] == Cause.REMOVED)
    )


def _do_moderator(g: Game, e: tuple) -> None:
    if e[0] == Ev.FOUL:
        g.foul(e[2])
    elif e[0] == Ev.TERMINATED:
        g.terminate(e[1])
    else:
        g.remove(e[2])


__all__ = ["EPS", "BayesTracker", "resolve_model"]
