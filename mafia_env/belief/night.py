"""The random policy's likelihood of a night, counted over every hidden choice at once.

`night_mass(tracker, seg, row)` is the probability that uniform hidden choices (each night
turn the seat does not see, every option alike; the engine's draws alike) give the seat its
view of one night segment (`seg.want`) under the deal `row`: what `Search.run(every=True)`
adds up branch by branch (`mafia_env.belief.bayes`, the ``uniform`` model), here in one numpy
pass over the product of the night's choices. Its support is deduction's answer: a class of
deals whose mass is 0 is ruled out without a search (`Tracker._probe_from`).

The engine judges whatever it can:

1. it plays the segment's opening step under the deal (every outcome of its draws);
2. it plays the night once: the seat's own turns and the turns it sees (a teammate's shot)
   as its view shows them, every other turn by a first option (the putana's visit on the seat
   or elsewhere, as the seat's view says it was blocked or not): the seat's view up to the
   morning, and its options at its own turns, must be what it saw;
3. numpy counts: every combination of the hidden choices the morning reads (the putana's
   visit, the mafia's victim and executor, the doctor's heal, the maniac's shot, the request
   the hunt's lot draws), with its probability, and who dies under it, why and in which
   order (`_Morning`: `Game._morning` and `Game._mafia_target` read again, the one restatement
   here); the combinations whose dead are the view's add up;
4. it plays the morning and the rest of the segment from a night set to one such combination
   (one of each kind the seat could tell apart: the doctor's heal state): the view must follow,
   with the dead of step 3; where the dead differ the model is wrong about this night
   (`Unsupported`: the search decides).

The checks the seat does not make change nothing it sees: their options add up to 1. A night
the model does not cover (the zero night, a moderator's call, a don who may introduce himself,
a segment under way) raises `Unsupported`. tests/belief/test_belief_night.py checks the masses
against brute force (every hidden choice played by the engine) on small tables of every
variant, and against the search on city-13 and forum-10.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mafia_env.belief.search import Chance, _do, _mean_inverse, expand_options, fork
from mafia_env.engine.events import PUBLIC, Cause, Ev
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import BLOCKABLE, NIGHT_TURNS, PUBLIC_TURNS, Act, Stage, Turn
from mafia_env.engine.roles import Role, Team
from mafia_env.engine.state import Night

_TALK = int(Ev.TALK)
_MODERATOR = {int(Ev.FOUL), int(Ev.TERMINATED)}
_SUPPORTED = {
    Turn.MAFIA_KILL,
    Turn.DON_CHECK,
    Turn.SHERIFF_CHECK,
    Turn.PUTANA,
    Turn.DOCTOR,
    Turn.MANIAC,
    Turn.HUNT,
}
_CHECKS = {Turn.DON_CHECK, Turn.SHERIFF_CHECK}
_NONE = -1


class Unsupported(Exception):
    """The model does not cover this segment: the search decides."""


class _Dawn(Exception):
    """The night's turns ran out: the game as the morning begins (before its first event)."""

    def __init__(self, game: Game):
        self.game = game


def _at_dawn(g: Game) -> None:
    raise _Dawn(g.clone(rng=Chance()))


_HOOKED = {**Game._END, Stage.NIGHT: _at_dawn}


def night_mass(tracker: Any, seg: Any, row: np.ndarray, start: Game | None = None) -> float:
    """Return the uniform model's probability of `seg`'s view under the deal `row` (see the
    module docstring); raise `Unsupported` where the model does not cover the segment."""
    if not seg.complete or seg.snapshot is None or seg.first is None:
        raise Unsupported("not a whole night after a public move")
    want = seg.want
    if any(e[0] in _MODERATOR or (e[0] == Ev.ELIMINATED and e[3] == Cause.REMOVED) for e in want):
        raise Unsupported("a moderator's call")
    if start is None:
        start = tracker._start_game(seg, row)
    seat = tracker.seat
    total = 0.0
    for h, p, k in _opening(start, seg.first, want, _bit(seat)):
        if h.over or h.turn in PUBLIC_TURNS:
            total += p if k == len(want) else 0.0
        elif h.day == 0 or h.turn not in NIGHT_TURNS:
            raise Unsupported("the zero night")
        else:
            total += p * _night(h, want, k, seat, seg.masks)
    return total


def _opening(start: Game, first: tuple, want: list, bit: int):
    """Yield (game, probability, events of the view matched) for each outcome of the engine's
    draws in the opening step (the draws alike, as `Search._step` weighs them)."""
    pending: list[tuple[int, ...]] = [()]
    while pending:
        script = pending.pop()
        chance = Chance(script)
        h = fork(start, chance)
        try:
            _do(h, first)
        except (ValueError, RuntimeError):
            continue
        if chance.bad:
            continue
        p = 1.0
        for j, calls in enumerate(chance.calls):
            if j >= len(script):
                for v in range(1, calls):
                    pending.append(script + (0,) * (j - len(script)) + (v,))
            p /= calls
        k = _match(h.events, want, 0, bit)
        h.events = []
        if k >= 0:
            yield h, p, k


def _match(events: list, want: list, k: int, bit: int) -> int:
    """Return how much of `want` is matched after `events` (from k on), or -1 on a mismatch."""
    for e in events:
        if (e[4] == PUBLIC or e[4] & bit) and e[0] != _TALK:
            if k >= len(want) or e != want[k]:
                return -1
            k += 1
    return k


def _night(g: Game, want: list, k: int, seat: int, masks: dict) -> float:
    """The probability of the view from the night's first turn (`g`, `k` events matched)."""
    morning = next((i for i in range(k, len(want)) if want[i][0] == Ev.MORNING), -1)
    if morning < 0:
        raise Unsupported("no morning in the view")
    movers = [(g.actor, g.turn), *g.queue]
    if any(t not in _SUPPORTED for _, t in movers):
        raise Unsupported("a night turn the model does not know")
    blockable = any(s == seat and t in BLOCKABLE for s, t in movers)
    blocked = any(e[0] == Ev.BLOCKED and e[1] == seat for e in want[k:morning])
    dawn, taken = _witness(g, want, k, seat, masks, blockable, blocked)
    if dawn is None:
        return 0.0
    m = _Morning(g, dawn, seat, movers, taken, blockable, blocked, want[morning:])
    return m.mass()


def _bit(seat: int) -> int:
    """The seat's bit in an event's seen-by mask (0: the table, which sees public events)."""
    return 1 << seat if seat >= 0 else 0


def _sees(g: Game, seat: int, actor: int, turn: Turn) -> bool:
    """Whether the seat sees `actor`'s choice in `turn` (its own; a teammate's shot where the
    mafia see each other's shots)."""
    if actor == seat:
        return True
    return (
        turn in (Turn.MAFIA_KILL, Turn.EXECUTOR)
        and g.rules.mafia_see_shots
        and seat >= 0
        and g.teams[seat] is Team.MAFIA
        and g.teams[actor] is Team.MAFIA
    )


def _witness(g, want, k, seat, masks, blockable, blocked):
    """Play the night once (step 2 of the module docstring); return the game at dawn (None:
    the view cannot follow) and the choices the seat saw, by (actor, turn), in order."""
    bit = _bit(seat)
    w = g.clone(rng=Chance())
    w.events = []
    w._END = _HOOKED
    taken: dict[tuple[int, Turn], list[tuple]] = {}
    try:
        while True:
            actor, turn = w.actor, w.turn
            if turn not in _SUPPORTED and turn is not Turn.EXECUTOR:
                raise Unsupported(f"a night turn the model does not know: {turn!r}")
            options = expand_options(w)
            if any(a is Act.REVEAL_DON for a, _, _ in options):
                raise Unsupported("a don who may introduce himself")
            if actor == seat:
                mask = masks.get(k - 1)
                if mask is not None and tuple(w.legal()) != mask:
                    return None, taken
            if _sees(w, seat, actor, turn):
                choice = _seen_choice(w, options, want, k, bit)
                if choice is None:
                    return None, taken
                taken.setdefault((actor, turn), []).append(choice)
            else:
                choice = options[0] if options else None
                if turn is Turn.PUTANA and blockable:
                    if blocked:
                        choice = (Act.NIGHT, seat, -1)
                    else:
                        choice = next((o for o in options if o[1] != seat), None)
                if choice is None or choice not in options:
                    return None, taken
            w.events = []
            w.apply(*choice)
            k = _match(w.events, want, k, bit)
            if k < 0:
                return None, taken
    except _Dawn as d:
        dawn = d.game
        k = _match(dawn.events, want, k, bit)
        dawn.events = []
        if k < 0 or want[k][0] != Ev.MORNING:
            return None, taken
        return dawn, taken


_ACTION_EVENTS = {int(Ev.SHOT), int(Ev.CHECK), int(Ev.HEAL), int(Ev.VISIT), int(Ev.HUNT)}
_ACTION_EVENTS.add(int(Ev.EXECUTOR))


def _seen_choice(w: Game, options: list, want: list, k: int, bit: int) -> tuple | None:
    """The option whose events are the view's next ones (one that shows nothing, a pass,
    only where none shows the next ones). The option the view's next event names is tried
    first: alone in showing it, it is the one."""
    e = want[k] if k < len(want) else None
    if e is not None and e[1] == w.actor and e[0] in _ACTION_EVENTS:
        named = [
            o
            for o in options
            if (o[1] == e[2] if e[2] >= 0 else o[0] is Act.PASS)
            and (e[0] != Ev.HUNT or o[2] == e[3])
        ]
        if len(named) == 1 and _shows(w, named[0], want, k, bit) > k:
            return named[0]
    shows, silent = [], []
    for opt in options:
        kk = _shows(w, opt, want, k, bit)
        if kk > k:
            shows.append(opt)
        elif kk == k:
            silent.append(opt)
    if len(shows) > 1 or (not shows and len(silent) > 1):
        raise Unsupported("two choices the seat would see alike")
    return shows[0] if shows else (silent[0] if silent else None)


def _shows(w: Game, opt: tuple, want: list, k: int, bit: int) -> int:
    """How much of the view is matched after `opt` in a copy of `w` (-1: a mismatch)."""
    h = w.clone(rng=Chance())
    h.events = []
    try:
        h.apply(*opt)
    except _Dawn as d:
        h = d.game
    except (ValueError, RuntimeError):
        return -1
    return _match(h.events, want, k, bit)


class _Morning:
    """Step 3 and 4 of the module docstring for one night: the choices, their probabilities,
    the morning's dead under each, and the engine's word on the rest of the segment."""

    def __init__(self, g, dawn, seat, movers, taken, blockable, blocked, after):
        self.g, self.dawn, self.seat, self.movers, self.taken = g, dawn, seat, movers, taken
        self.blockable, self.blocked, self.after = blockable, blocked, after
        self.rules = g.rules
        self.bit = _bit(seat)
        self.dead_view = [(e[2], e[3]) for e in after if e[0] == Ev.ELIMINATED]

    # ------------------------------------------------------------ the choices

    def _of(self, turn: Turn) -> list[int]:
        return [s for s, t in self.movers if t is turn]

    def _options(self, actor: int, turn: Turn) -> list[tuple]:
        g = self.g
        keep = g.actor, g.turn
        g.actor, g.turn = actor, turn
        try:
            return expand_options(g)
        finally:
            g.actor, g.turn = keep

    def _seen(self, actor: int, turn: Turn) -> tuple | None:
        got = self.taken.get((actor, turn))
        return got[0] if got else None

    def _target_dist(self, actor: int, turn: Turn) -> dict[int, float]:
        """The mover's target (-1: none) and its probability: its own choice if the seat saw
        it, else every option alike."""
        if _sees(self.g, self.seat, actor, turn):
            c = self._seen(actor, turn)
            if c is None:  # the turn never came (blocked; a doctor who hunted)
                return {_NONE: 1.0}
            return {c[1] if c[0] is Act.NIGHT else _NONE: 1.0}
        opts = self._options(actor, turn)
        out: dict[int, float] = {}
        for a, t, _ in opts:
            key = t if a is Act.NIGHT else _NONE
            out[key] = out.get(key, 0.0) + 1.0 / len(opts)
        return out

    def _putana(self) -> tuple[np.ndarray, np.ndarray]:
        movers = self._of(Turn.PUTANA)
        if not movers:
            return np.array([_NONE]), np.ones(1)
        dist = self._target_dist(movers[0], Turn.PUTANA)
        b = np.array(list(dist), dtype=np.int64)
        p = np.array(list(dist.values()))
        if self.blockable:  # the seat saw whether it was blocked
            p = p * ((b == self.seat) == self.blocked)
        return b, p

    def _mafia(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The mafia's victim, executor and forfeit, with their probabilities: what
        `Game._mafia_target` gives under the members' shots (and FORUM-N1's executors)."""
        g, r = self.g, self.rules
        members = self._of(Turn.MAFIA_KILL)
        out: dict[tuple[int, int, bool], float] = {}
        if not members:
            return self._arrays({(_NONE, _NONE, False): 1.0})
        dists = [self._target_dist(m, Turn.MAFIA_KILL) for m in members]
        # CITY-N10: no number (held fire) forfeits: the don's while he lives, else any member's
        none_forfeits = r.mafia_no_number == "forfeit"
        if r.mafia_kill == "don":  # CITY-N3: while the don lives his shot is the mafia's
            for i, m in enumerate(members):
                if g.roles[m] is Role.DON:
                    for t, p in dists[i].items():
                        key = (_NONE, _NONE, True) if t < 0 and none_forfeits else (t, m, False)
                        _add(out, key, p)
                    return self._arrays(out)
        whole = 1.0  # the weight of the nights in which every member names a number
        if none_forfeits:
            if r.mafia_kill == "executor":
                raise Unsupported("a forfeit on no number with executors")
            for d in dists:
                whole *= 1.0 - d.get(_NONE, 0.0)
            _add(out, (_NONE, _NONE, True), _rest(whole))
        agree = 0.0
        for t in sorted(set().union(*dists)):
            if t < 0 and none_forfeits:
                continue
            p = 1.0
            for d in dists:
                p *= d.get(t, 0.0)
            if p <= 0:
                continue
            agree += p
            if t < 0:  # all held fire
                _add(out, (_NONE, _NONE, False), p)
            elif r.mafia_kill == "executor":  # FORUM-N1: they agree on the executor too
                named, whole = self._executors(members)
                for e, q in named.items():
                    _add(out, (t, e, False), p * q)
                _add(out, (_NONE, _NONE, False), p * _rest(sum(named.values()), whole))
            else:
                _add(out, (t, members[0], False), p)
        # a split; a teammate seen naming an executor weighs 1/options there too (as `_executors`)
        split = _rest(agree, whole)
        split *= self._seen_executors(members) if r.mafia_kill == "executor" else 1
        _add(out, (_NONE, _NONE, r.mafia_split == "forfeit"), split)
        return self._arrays(out)

    def _seen_executors(self, members: list[int]) -> float:
        """The weight of the executors named by the teammates the seat sees shoot (each
        1/options, as the search weighs them); the seat's own weighs 1."""
        w = 1.0
        for m in members:
            shot = self._seen(m, Turn.MAFIA_KILL) if m != self.seat else None
            if shot is not None and shot[0] is Act.NIGHT:
                w /= len(self._options(m, Turn.EXECUTOR))
        return w

    def _executors(self, members: list[int]) -> tuple[dict[int, float], float]:
        """FORUM-N1: the probability that every shooter names the executor e, and the weight
        of all the namings together (1 but for a teammate's the seat sees, 1/options)."""
        dists = []
        for m in members:
            opts = self._options(m, Turn.EXECUTOR)
            if _sees(self.g, self.seat, m, Turn.EXECUTOR):
                c = self._seen(m, Turn.EXECUTOR)
                if c is None:
                    raise Unsupported("a seen shooter named no executor")
                # a teammate's executor weighs as the search weighs it, 1/options (a constant
                # over the deals the seat keeps: its teammates are known); its own weighs 1
                dists.append({c[1]: 1.0 if m == self.seat else 1.0 / len(opts)})
            else:
                dists.append({t: 1.0 / len(opts) for _, t, _ in opts})
        out = {}
        for e in sorted(set().union(*dists)):
            p = 1.0
            for d in dists:
                p *= d.get(e, 0.0)
            if p > 0:
                out[e] = p
        whole = 1.0
        for d in dists:
            whole *= sum(d.values())
        return out, whole

    @staticmethod
    def _arrays(out: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        keys = [k for k, p in out.items() if p > 0]
        v = np.array([x[0] for x in keys], dtype=np.int64)
        e = np.array([x[1] for x in keys], dtype=np.int64)
        f = np.array([x[2] for x in keys], dtype=bool)
        return v, e, f, np.array([out[x] for x in keys])

    def _hunts(self) -> dict[str, np.ndarray]:
        """FORUM-N3..N6: the request the lot draws (hunter -1: nobody asked), whether the
        doctor asked (he then cannot heal), and the probability of each: a hunter asks with
        probability 1 - 1/options, and the lot draws one request of those made, alike."""
        hunters = self._of(Turn.HUNT)
        rows: list[tuple[int, int, int, bool, float]] = []
        if not hunters:
            return _columns([(_NONE, _NONE, _NONE, False, 1.0)])
        seat, roles = self.seat, self.g.roles
        doctor = next((m for m in hunters if roles[m] is Role.DOCTOR), _NONE)
        mine = None  # the seat's own request
        if seat in hunters:
            c = self._seen(seat, Turn.HUNT)
            if c is not None and c[0] is Act.HUNT:
                mine = c
        hidden = [m for m in hunters if m != seat]
        opts = {m: [o for o in self._options(m, Turn.HUNT) if o[0] is Act.HUNT] for m in hidden}
        count = {m: len(self._options(m, Turn.HUNT)) for m in hidden}
        ask = {m: 1.0 - 1.0 / count[m] for m in hidden}
        asked = mine is not None
        own_flag = seat == doctor and asked

        def lot(fixed: int, others: list[int]) -> float:
            return _mean_inverse(fixed, [ask[m] for m in others])

        if not asked:  # nobody asked at all
            p = 1.0
            for m in hidden:
                p /= count[m]
            rows.append((_NONE, _NONE, _NONE, False, p))
        drawn: list[tuple[int, tuple | None]] = [(seat, mine)] if asked else []
        drawn += [(m, o) for m in hidden for o in opts[m]]
        for hunter, req in drawn:
            share = 1.0 if hunter == seat else 1.0 / count[hunter]
            others = [m for m in hidden if m != hunter]
            fixed = 1 + (asked and hunter != seat)
            if doctor in others:  # the doctor asked too, or not (FORUM-N6)
                rest = [m for m in others if m != doctor]
                yes = share * ask[doctor] * lot(fixed + 1, rest)
                no = share / count[doctor] * lot(fixed, rest)
                rows.append((hunter, req[1], req[2], True, yes))
                rows.append((hunter, req[1], req[2], False, no))
            else:
                flag = hunter == doctor or own_flag
                rows.append((hunter, req[1], req[2], flag, share * lot(fixed, others)))
        return _columns(rows)

    def _hits(self, target: np.ndarray, status: np.ndarray) -> np.ndarray:
        """FORUM-N4: whether each request kills its target (`Game._hunt_hits`)."""
        g = self.g
        t = np.maximum(target, 0)
        mafia = np.array([x is Team.MAFIA for x in g.teams])[t]
        if not self.rules.hunt_status:
            return np.array([x is not Team.TOWN for x in g.teams])[t]
        maniac = np.array([x is Role.MANIAC for x in g.roles])[t]
        return np.where(status == 0, mafia, maniac)

    def _single(self, turn: Turn) -> tuple[int, dict[int, float]]:
        """The one mover of `turn` (-1: none) and its target's distribution."""
        movers = self._of(turn)
        if not movers:
            return _NONE, {_NONE: 1.0}
        return movers[0], self._target_dist(movers[0], turn)

    # ------------------------------------------------------------ the count

    def mass(self) -> float:
        b, pb = self._putana()
        v, ex, forfeit, pm = self._mafia()
        hu = self._hunts()
        hu = self._prune(hu)
        doctor, heal = self._single(Turn.DOCTOR)
        maniac_seat, shot = self._single(Turn.MANIAC)
        keep = pb > 0
        b, pb = b[keep], pb[keep]
        if not len(b) or not len(hu["p"]):
            return 0.0
        h = np.array(sorted({_NONE, *heal}), dtype=np.int64)  # (none: a blocked doctor)
        ph0 = np.array([heal.get(x, 0.0) for x in h.tolist()])
        none_h = (h == _NONE).astype(np.float64)
        # the doctor heals nobody if blocked (CITY-N2) or if he asked for a hunt (FORUM-N6)
        off = (b[:, None] == doctor) & (doctor >= 0) | hu["flag"][None, :]
        ph = np.where(off[:, :, None], none_h, ph0)  # [B, U, H]
        used = ph.reshape(-1, len(h)).any(axis=0)
        h, ph = h[used], ph[:, :, used]
        k = np.array(sorted({_NONE, *shot}), dtype=np.int64)
        pk0 = np.array([shot.get(x, 0.0) for x in k.tolist()])
        none_k = (k == _NONE).astype(np.float64)
        pk = np.where(((b == maniac_seat) & (maniac_seat >= 0))[:, None], none_k, pk0)  # [B, K]
        used = pk.any(axis=0)
        k, pk = k[used], pk[:, used]
        # the grid [B, M, U, H, K]
        P = (
            pb[:, None, None, None, None]
            * pm[None, :, None, None, None]
            * hu["p"][None, None, :, None, None]
            * ph[:, None, :, :, None]
            * pk[:, None, None, None, :]
        )
        shape = P.shape
        B = b[:, None, None, None, None]
        V = v[None, :, None, None, None]
        E = ex[None, :, None, None, None]
        F = forfeit[None, :, None, None, None]
        HU = {key: col[None, None, :, None, None] for key, col in hu.items()}
        H = h[None, None, None, :, None]
        K = k[None, None, None, None, :]
        ok, shot_made = self._dead_match(B, V, E, F, HU, H, K, shape)
        P = np.where(ok, P, 0.0)
        if not P.any():
            return 0.0
        # the doctor sees his heal's state (ONLINE-N9): the two kinds are checked apart
        kinds = [np.ones(shape, bool)]
        if self.rules.heal_told and doctor == self.seat:
            kinds = [shot_made, ~shot_made]
        total = 0.0
        for kind in kinds:
            Q = np.where(kind, P, 0.0)
            if not Q.any():
                continue
            i = np.unravel_index(int(np.argmax(Q)), shape)
            cell = (int(b[i[0]]), int(v[i[1]]), int(ex[i[1]]), bool(forfeit[i[1]]))
            cell += tuple(int(hu[c][i[2]]) for c in ("hunter", "target", "status"))
            cell += (int(h[i[3]]), int(k[i[4]]))
            if self._engine_agrees(*cell):
                total += float(Q.sum())
        return total

    def _prune(self, hu: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Keep the requests whose victim the view names so (and 'nobody asked')."""
        hits = self._hits(hu["target"], hu["status"])
        seat = np.where(hits, hu["target"], hu["hunter"])
        cause = np.where(hits, int(Cause.HUNTED), int(Cause.HUNTER))
        named = np.zeros(len(seat), dtype=bool)
        for s, c in self.dead_view:
            named |= (seat == s) & (cause == c)
        keep = (hu["hunter"] < 0) | named
        out = {key: col[keep] for key, col in hu.items()}
        out["hits"] = hits[keep]
        return out

    def _dead_match(self, B, V, E, F, HU, H, K, shape) -> tuple[np.ndarray, np.ndarray]:
        """Whether the morning's dead under each combination are the view's, in order
        (`Game._morning` read again), and whether the mafia's shot was made."""
        r, g = self.rules, self.g
        putana = np.array([x is Role.PUTANA for x in g.roles] + [False])  # [-1] -> False
        maniacs = np.array([x is Role.MANIAC for x in g.roles] + [False])
        victim, maniac = V, K
        hunter, target, hits = HU["hunter"], HU["target"], HU["hits"]
        asked = hunter >= 0
        hunted = np.where(asked & hits, target, _NONE)
        hunt_dead = np.where(asked, np.where(hits, target, hunter), _NONE)
        hunt_cause = np.where(hits, int(Cause.HUNTED), int(Cause.HUNTER))
        victim = np.where((hunted >= 0) & (hunted == E), _NONE, victim)  # FORUM-N5
        maniac = np.where((hunted >= 0) & maniacs[hunted], _NONE, maniac)
        shot_made = victim >= 0
        victim = np.where(victim == H, _NONE, victim)  # ONLINE-N5: the heal saves
        if r.heal_against == "all":  # FORUM-N2
            maniac = np.where(maniac == H, _NONE, maniac)
        if r.night_announce == "by_killer":
            named = np.ones(1, bool)
        elif r.night_announce == "two_by_killer":  # CITY-M1
            named = (victim >= 0) & (maniac >= 0) & (victim != maniac)
        else:
            named = np.zeros(1, bool)
        entries: list[tuple[np.ndarray, Any]] = []
        companions = []
        maybe_putana = bool(putana[:-1].any()) and bool((B >= 0).any())
        for killed, cause in ((victim, Cause.MAFIA), (maniac, Cause.MANIAC)):
            if not (killed >= 0).any():
                continue
            alive = (killed >= 0) & (killed != hunted) & (killed != hunt_dead)
            entries.append((np.where(alive, killed, _NONE), np.where(named, int(cause), 1)))
            if not maybe_putana:
                continue
            saved = (B == H) if r.companion_heal else np.zeros(1, bool)
            leaves = alive & putana[killed] & (B >= 0) & ~saved  # CITY-N9
            if r.companion_reason:
                entries.append((np.where(leaves, B, _NONE), int(Cause.COMPANION)))
            else:
                companions.append((np.where(leaves, B, _NONE), int(Cause.NIGHT)))
        entries += companions
        if asked.any():
            entries.append((hunt_dead, hunt_cause))
        if F.any():  # CITY-N4: the whole team leaves
            for s in g.alive_seats:
                if g.teams[s] is Team.MAFIA:
                    entries.append((np.where(F, s, _NONE), int(Cause.FORFEIT)))
        view = self.dead_view
        ok = np.ones(shape, dtype=bool)
        pos = np.zeros(shape, dtype=np.int64)
        gone: list[np.ndarray] = []
        for seat, cause in entries:
            seat = np.broadcast_to(seat, shape)
            valid = seat >= 0
            for prev in gone:
                valid = valid & (seat != prev)
            gone.append(np.where(valid, seat, _NONE))
            if view:
                at = np.minimum(pos, len(view) - 1)
                want_seat = np.array([s for s, _ in view])[at]
                want_cause = np.array([c for _, c in view])[at]
                same = (pos < len(view)) & (seat == want_seat) & (cause == want_cause)
            else:
                same = np.zeros(shape, bool)
            ok &= ~valid | same
            pos = pos + valid
        ok &= pos == len(view)
        return ok, np.broadcast_to(shot_made, shape)

    def _engine_agrees(self, b, v, e, forfeit, hunter, target, status, heal, shot) -> bool:
        """Step 4: the engine's morning from a night set to this combination; return whether
        the rest of the view follows (its dead must be the ones counted: else Unsupported)."""
        g = self.dawn.clone(rng=Chance())
        g.__dict__.pop("_END", None)
        g.events = []
        members = self._of(Turn.MAFIA_KILL)
        night = Night()
        night.shots = {m: v for m in members}  # a kill (t >= 0) or every shooter holding fire
        if forfeit and self.rules.mafia_no_number == "forfeit":  # CITY-N10: no number
            night.shots = {m: _NONE for m in members}
        elif forfeit:  # a split (CITY-N4): one holds fire, one shoots
            if len(members) < 2:
                raise Unsupported("a forfeit with one shooter")
            night.shots[members[0]] = _NONE
            night.shots[members[1]] = next(s for s in g.alive_seats if g.teams[s] is Team.TOWN)
        if v >= 0 and self.rules.mafia_kill == "executor":
            night.executors = {m: e for m in members}
        night.blocked, night.heal, night.maniac_shot = b, heal, shot
        night.hunts = [(hunter, target, status)] if hunter >= 0 else []
        g.night = night
        if g._mafia_target()[::2] != (v, forfeit):
            raise Unsupported("the mafia's shot as the engine reads it differs")
        g.stage = Stage.NIGHT
        g._morning()
        if not g.over:
            g._advance()
        dead = [(ev[2], ev[3]) for ev in g.events if ev[0] == Ev.ELIMINATED]
        if dead != self.dead_view:
            raise Unsupported("the morning's dead as the engine has them differ")
        k = _match(g.events, self.after, 0, self.bit)
        return k == len(self.after) and (g.over or g.turn in PUBLIC_TURNS)


def _add(out: dict, key: tuple, p: float) -> None:
    if p > 0:
        out[key] = out.get(key, 0.0) + p


def _rest(p: float, whole: float = 1.0) -> float:
    """whole - p, where p sums a part of whole: 0 below the sums' rounding."""
    q = whole - p
    return q if q > 1e-12 * whole else 0.0


def _columns(rows: list[tuple]) -> dict[str, np.ndarray]:
    cols = list(zip(*rows, strict=True))
    return {
        "hunter": np.array(cols[0], dtype=np.int64),
        "target": np.array(cols[1], dtype=np.int64),
        "status": np.array(cols[2], dtype=np.int64),
        "flag": np.array(cols[3], dtype=bool),
        "p": np.array(cols[4], dtype=np.float64),
    }


__all__ = ["Unsupported", "night_mass"]
