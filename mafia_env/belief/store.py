"""The trackers of each game, by (seat, model key): made on first use, kept while the game lives.

Deduction's trackers are made here (the observation's belief piece asks this module);
Bayes's are made by `mafia_env.belief.tracker`, which reads the movers' observations
(`mafia_env.belief.bayes`): this module imports neither, so the observer can use it.

The piece (`matrix`, `matrices`) of most seats comes from one tracker a game, the table's
(`TABLE`: the public events alone), its deals kept to those the seat's own facts allow (its
role, teammates, checks: `deal_constraints`). That is the seat's own deduction where what it
knows beyond the table changes no public event: a seat that has seen nothing the table has
not (a civilian; not the doctor nor the mafia, whose hidden state the search keeps), and in a
night of shots and checks alone (no hunt, putana, maniac or doctor) any seat but the doctor
and the don, the mafia only where they see each other's shots or have no don.

In those nights of shots and checks every seat but the doctor reads the table by day, the
don and the mafia with hidden shots too: a finished night's own moves tell a seat nothing
the public events and its facts do not. In a night under way in which the seat has moved
(or been called), they may: after a member's shot the night goes on, so someone who acts
later lives. Its tracker for that night starts where the table's stands, from the table's
deals its facts allow and the table's reference world (`Tracker.night_of`): only the night's
own segment is searched. A mafia member that knows its team reads the team's table: the
table's deduction among the deals that put the team where it is (`_knows_team`), the same
deals kept to its facts, a few dozen to follow instead of thousands.

Where the public events show the deal only through the deaths (civilians, sheriffs, mafia and a
don: MINIMAL, CLUB, SPORT; `mafia_env.belief.count.countable`), the table's deals are counted
from the deaths and the win checks (`Counted`) instead of searched: no world is played for it
(flag `COUNT`). With no reference world, a night under way starts no seat's tracker from the
table: a seat is served by the table at its own turn of the night (the night coming round to
it tells it nothing), by its own tracker in between (SPORT's don after his check may learn
that the sheriff lives: the night goes on).

tests/belief/test_belief_table.py checks every seat's piece against its own tracker, bit for
bit, at every move of seeded games of every variant.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mafia_env.belief.count import Counted, countable
from mafia_env.belief.deals import DealSpace
from mafia_env.belief.track import EXACT_LIMIT, TABLE, Tracker
from mafia_env.engine.events import PUBLIC, Ev
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import NIGHT_TURNS
from mafia_env.engine.knowledge import deal_constraints
from mafia_env.engine.roles import Role, Team
from mafia_env.errors import ConfigError

_TRACKERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_ROLE = int(Ev.ROLE)
_NIGHT = int(Ev.NIGHT)
# the kinds of a seat's own hidden events that are its facts (what `deal_constraints` reads)
FACTS = frozenset({_ROLE, int(Ev.TEAMMATE), int(Ev.CHECK), int(Ev.DON_INTRODUCED)})
_MANY = (Role.PUTANA, Role.MANIAC, Role.DOCTOR)  # roles whose night turns change public events
SHARE = True  # the piece of a seat that saw only what the table saw comes from the table's
COUNT = True  # the table's deals counted from its deaths where that is its deduction (`count`)
# the public events after which the piece of a seat a counted table serves at its own turn
# or by day may change: the deaths, the cards shown and the game's end (what `Counted` reads;
# then only where the count's kept deals change); the seat's own facts (`FACTS`) may change it
# too, nothing else does: its piece is the count's deals its facts allow (`_Table.keeps`;
# the C core's count keeps pieces by these, `mafia_env.seat_obs.LazyBelief`)
MOVES_PIECE = frozenset(int(k) for k in (Ev.ELIMINATED, Ev.REVEAL, Ev.GAME_OVER, Ev.TERMINATED))
# the pieces of counted tables by (the deals listed, those kept, those a seat's facts allow):
# shared by the games of one rules and size, whose states repeat (`_Table.marginals_of`)
_PIECES: dict[tuple, np.ndarray] = {}
_OK: dict[tuple, np.ndarray] = {}  # which of those deals a seat's facts allow, by the facts
PIECE_CACHE = 16384  # pieces kept (cleared when full)
_TABLE_KEY = (TABLE, "table")
_TEAM_KEY = (TABLE, "mafia")


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
    table = _table_for(game, seat) if SHARE else None
    if table is not None:
        return table.marginals_of(game, seat)
    night = _night_for(game, seat) if SHARE else None
    if night is not None:
        return night.matrix()
    return deduction(game, seat).matrix()


def counted_piece(game: Any, seat: int) -> np.ndarray | None:
    """`seat`'s piece where its game's table is counted (`mafia_env.belief.count`) and serves
    it (`matrix` gives the same), else None (`matrix` then). What reads `game` here is the
    count, the seat's facts and who acts when: the public events, the seat's own and the
    turn, so `game` may be a game read from the C core's event log alone, without the Python
    engine playing it (`mafia_env.seat_obs.LoggedGame`), where none of its events hands the
    count to a tracker (`count.hands_over`)."""
    if not (SHARE and COUNT and countable(game.rules, game.roles)):
        return None
    table = _table_for(game, seat)
    t = None if table is None else table.tracker
    if not isinstance(t, Counted) or t.tracker is not None:  # (a tracker reads more)
        return None
    return table.marginals_of(game, seat)


def matrices(games: Sequence[Game], seats: Sequence[int]) -> np.ndarray:
    """Return the pieces of (game, seat) pairs, float32 [pairs, n * R], in one call."""
    if not len(games):
        return np.zeros((0, 0), dtype=np.float32)
    return np.stack([matrix(g, int(s)).ravel() for g, s in zip(games, seats, strict=True)])


class _Table:
    """The table's deduction of one game, and what each seat keeps of it (module docstring)."""

    def __init__(self, game: Game, within: np.ndarray | None = None):
        # the count where the public events show the deal only through deaths, else the search
        counted = COUNT and countable(game.rules, game.roles)
        self.tracker = t = (Counted if counted else Tracker)(game, TABLE, within=within)
        rules, roles = game.rules, t.space.roles
        # a night of shots and checks alone: a seat's hidden knowledge changes no public event
        self.simple = not rules.hunt and not any(r in roles for r in _MANY)
        self.simple = self.simple and (rules.don_known or Role.DON not in roles)
        self.seen: dict[int, tuple[int, int, bool]] = {}  # seat -> (events read, facts, more)
        self._allowed: dict[int, tuple[int, np.ndarray, np.ndarray]] = {}  # seat's allowed deals
        self._cache: dict[int, tuple] = {}
        self._pinned: dict[int, np.ndarray] = {}  # seat -> its piece for good (`_pin`)
        self._onehot: tuple | None = None
        # the count's deals are the same list in every game of the rules, size (and team):
        # a piece is then a function of which are kept and which the seat's facts allow
        # (`_PIECES`, shared by the games); a tracker's list is its own game's
        self._shared = None
        self._deals = t.deals  # (the count's list: a tracker it hands over to lists its own)
        if counted:
            self._shared = (t.space, None if within is None else np.packbits(within).tobytes())
        self._bits: tuple | None = None  # (kept deals, their bits)
        self._roles = len(t.space.roles)
        # a night of shots and checks alone, whatever the mafia see: at day every seat but the
        # doctor keeps the table's deals (its own hidden moves of a finished night tell it
        # nothing the public events and its facts do not); in a night under way, where it
        # has seen a move of its own, its own tracker goes on from the table's (`night`)
        self.nights = _plain_nights(game)
        self._night: dict[int, tuple[Any, Tracker | None]] = {}  # seat -> (table ref, tracker)

    def keeps(self, game: Game, seat: int) -> bool:
        """Whether the table's deals, kept to `seat`'s facts, are its deduction now."""
        role = game.roles[seat]
        if role is Role.DOCTOR:
            return False
        read, facts, more = self.seen.get(seat, (0, 0, False))
        bit = 1 << seat
        for e in game.events[read:]:
            if e[4] != PUBLIC and e[4] & bit:
                facts += e[0] in FACTS  # (what `deal_constraints` reads of the seat's own)
                more = more or not (e[0] == _ROLE and e[1] == seat)
        self.seen[seat] = (len(game.events), facts, more)
        if self.nights and not _mid_night(game, seat):
            return True
        if game.actor == seat and isinstance(self.tracker, Counted):
            # at its own turn of a night whose table is counted (any deal plays alike): the
            # night going on to this turn tells the seat nothing; after its last move it may
            # (the night going on after the don's check: the sheriff lives), its own tracker
            return True
        if role.team is Team.MAFIA:  # (its hidden state, don_introduced, is its own)
            see = game.rules.mafia_see_shots or Role.DON not in self.tracker.space.roles
            return self.simple and see and role is not Role.DON
        return not more or self.simple

    def night(self, game: Game, seat: int) -> Tracker | None:
        """`seat`'s tracker of the night under way, started from the table's (`Tracker.
        night_of`: the table's deals its facts allow, the table's reference world); None where
        the table's tracker does not stand at the night's start (its own tracker then)."""
        t = self.tracker
        if isinstance(t, Counted):  # (no reference world to start from: its own tracker)
            return None
        t.update()
        hit = self._night.get(seat)
        if hit is not None and hit[0] is t.ref:
            return hit[1]
        allowed = t.space.allowed_matrix(deal_constraints(game, seat))
        keep = t.space.allows(allowed, t.deals)
        night = Tracker.night_of(t, seat, keep)
        self._night[seat] = (t.ref, night)
        return night

    def marginals_of(self, game: Game, seat: int) -> np.ndarray:
        """The marginals [n, R] of the table's deals that `seat`'s facts allow (what its own
        tracker's `matrix` gives)."""
        t = self.tracker
        pinned = self._pinned.get(seat)
        if pinned is not None:
            return pinned
        facts = self.seen[seat][1]
        got = self._allowed.get(seat)
        if got is None or got[0] != facts or got[1] is not t.deals:
            allowed = t.space.allowed_matrix(deal_constraints(game, seat))
            # which of all the table's deals the seat's facts allow, once per facts (and, for
            # a count's list of deals, once per rules, size and facts: `_OK`)
            key = allowed.tobytes()
            shared = self._shared if t.deals is self._deals else None
            ok = None if shared is None else _OK.get((shared, key))
            if ok is None:
                ok = t.space.allows(allowed, t.deals)
                ok.flags.writeable = False
                if shared is not None:
                    if len(_OK) >= PIECE_CACHE:
                        _OK.clear()
                    _OK[(shared, key)] = ok
            got = self._allowed[seat] = (facts, t.deals, ok, key)
            if t.exact and np.count_nonzero(ok) == 1:
                return self._pin(seat, t.deals[ok][0])
        live = t.current()
        hit = self._cache.get(seat)
        if hit is not None and hit[0] is live and hit[1] == (t.version, facts):
            return hit[2]
        shared = self._shared  # (not once the count handed its table to a tracker)
        key = None
        if shared is not None and t.deals is self._deals:
            key = (shared, self._live_bits(live), got[3])
        out = None if key is None else _PIECES.get(key)
        if out is None:
            keep = got[2][live]  # the kept deals its facts allow
            codes = self._live(live)
            counts = np.bincount(codes[keep].ravel(), minlength=t.n * self._roles)
            w = 1.0 / int(keep.sum())  # (what `Tracker.matrix` gives: counts times 1 / deals)
            out = (counts.astype(np.float64) * w).astype(np.float32).reshape(t.n, -1)
            out.flags.writeable = False  # (shared by the seats and games of one key)
            if key is not None:
                if len(_PIECES) >= PIECE_CACHE:
                    _PIECES.clear()
                _PIECES[key] = out
        self._cache[seat] = (live, (t.version, facts), out)
        return out

    def _live_bits(self, live: np.ndarray) -> bytes:
        """The kept deals as bytes (a key of `_PIECES`), made once per kept set."""
        hit = self._bits
        if hit is None or hit[0] is not live:
            hit = self._bits = (live, np.packbits(live).tobytes())
        return hit[1]

    def _pin(self, seat: int, deal: np.ndarray) -> np.ndarray:
        """The piece of a seat whose facts allow one of the table's deals (a mafia member who
        knows its team, at a table of mafia and civilians: the team's table holds one deal):
        that deal's, from now on. The seat's deduction keeps the truth (it is never ruled
        out) and its facts only grow, so that deal is all it keeps whatever it sees next,
        by the table's deals or its own tracker: nothing need be followed for it."""
        piece = np.zeros((self.tracker.n, self._roles), dtype=np.float32)
        piece[np.arange(self.tracker.n), deal] = 1.0
        self._pinned[seat] = piece
        return piece

    def _live(self, live: np.ndarray) -> np.ndarray:
        """The deals kept, each seat's role as a column of the piece (seat * R + role), kept
        while `live` is: a seat's counts are then one `bincount` of the deals it keeps."""
        t = self.tracker
        hit = self._onehot
        if hit is not None and hit[0] is live and hit[1] == t.version:
            return hit[2]
        codes = t.deals[live].astype(np.intp) + np.arange(t.n, dtype=np.intp) * self._roles
        self._onehot = (live, t.version, codes)
        return codes


def _mid_night(game: Game, seat: int) -> bool:
    """Whether a night is under way in which `seat` has seen an event of its own (a hidden
    turn or move: it may know more than the table, e.g. that the night goes on after its
    shot, so that someone who acts later lives)."""
    if game.over or game.turn not in NIGHT_TURNS:
        return False
    bit = 1 << seat
    for e in reversed(game.events):
        if e[0] == _NIGHT:
            return False
        if e[4] != PUBLIC and e[4] & bit:
            return True
    return False


def _night_for(game: Game, seat: int) -> Tracker | None:
    """The tracker of the night under way that the table gives `seat` (`_Table.night`), or
    None (its own tracker)."""
    per_game = _TRACKERS.get(game) or {}
    table = per_game.get(_TEAM_KEY) if _knows_team(game, seat) else per_game.get(_TABLE_KEY)
    if not table or not table.nights or game.roles[seat] is Role.DOCTOR:
        return None
    if not _mid_night(game, seat):
        return None
    return table.night(game, seat)


def _knows_team(game: Game, seat: int) -> bool:
    """Whether `seat` is of the mafia and its facts name the whole team (each seat of the mafia
    team or not): then its deals are among the team's (`_team_within`), and the team's table
    (the table's deduction among those deals: the same deals kept, far fewer to follow) serves
    it."""
    if game.roles[seat].team is not Team.MAFIA:
        return False
    per_game = _TRACKERS.get(game)
    if per_game is None:
        per_game = _TRACKERS[game] = {}
    key = ("knows team", seat)
    if per_game.get(key):  # (known once, known for good: facts only grow)
        return True
    if not _plain_nights(game):
        return False
    if per_game.get(key) is None:
        space = DealSpace.of(game.rules, game.n)
        allowed = space.allowed_matrix(deal_constraints(game, seat))
        if (allowed <= _team_within(game, space)).all():
            per_game[key] = True
    return bool(per_game.get(key))


def _plain_nights(game: Game) -> bool:
    """Whether the game's nights are of shots and checks alone (no hunt, putana, maniac or
    doctor): where the table may serve the mafia (`_Table.keeps`)."""
    return not game.rules.hunt and not any(r in _MANY for r in game.roles)


def _team_within(game: Game, space: DealSpace) -> np.ndarray:
    """The roles each seat may hold in the deals the mafia team knows: a role of the mafia
    team at its seats, any other role elsewhere."""
    team = np.array([r.team is Team.MAFIA for r in game.roles])
    return np.where(team[:, None], space.mafia_of[None, :], ~space.mafia_of[None, :])


def _table_for(game: Game, seat: int) -> _Table | None:
    """The game's table view if `seat`'s piece comes from it (module docstring), else None:
    the mafia team's (`_knows_team`) for a member that knows its team."""
    per_game = _TRACKERS.get(game)
    if per_game is None:
        per_game = _TRACKERS[game] = {}
    key = _TEAM_KEY if _knows_team(game, seat) else _TABLE_KEY
    table = per_game.get(key)
    if table is None:
        space = DealSpace.of(game.rules, game.n)
        within = _team_within(game, space) if key is _TEAM_KEY else None
        exact = space.count(space.allowed_matrix(None) if within is None else within)
        table = per_game[key] = _Table(game, within) if exact <= EXACT_LIMIT else False
    if table is False or not table.keeps(game, seat):
        return None
    return table


__all__ = [
    "FACTS",
    "MOVES_PIECE",
    "SHARE",
    "cached",
    "counted_piece",
    "deduction",
    "matrices",
    "matrix",
]
