"""Follow one seat's view of a game, segment by segment, and keep the deals it cannot rule out.

`Tracker` reads the events the seat saw (never the others) as the game logs them and keeps a
*reference world*: an engine game, under some deal the seat cannot rule out, that made the
seat see exactly what it saw. Each public move the seat saw is played in the reference world
(read back from the events it logged: `hint`); a move whose consequences can depend on the
deal (an elimination: the win check, CLUB's shown card, CITY's maniac; a night) opens a
*segment*, and every class of deals that the segment cannot tell apart is tried once by
`Search` from the reference world with that class's deal swapped in. A deal whose class
cannot reproduce the segment is ruled out; the reference world moves on with a class that
can. A query never replays the game: each move is read once. A move `quiet` finds blind to
the deal (most of a day's) is played in the reference world itself where nothing else holds
it, else in a copy.

Classes (`DealSpace.class_keys`): deals that agree on the *involved* seats and on the roles
left among the other living seats. For a segment without hidden turns the involved seats are
the ones whose role the engine read while playing it (it read no other, so any deal that
agrees on them plays it alike; a class whose own play reads more is split). For a night they
are the seats the seat's view of the segment names: the others are alike up to the engine's
symmetry between seats, which `Search` relies on.

Three shortcuts spare searches without changing an answer (tests/belief/test_belief_piece_speed.py
checks each against the search, and pins the marginals to what the searches alone gave):
a night's class after the first that the segment accepts first plays again a branch found
for an earlier class (`Search.replay`: the engine plays it and the view decides, so a branch
it accepts is one the search would accept); a class against the seat's own check or a role
shown in the segment is ruled out (`_told`), and so is one under which a team would have won
after the segment's eliminations while the game went on (`_survivors`). The reference world
is still the first accepted class's branch as the search finds it.

Where no branch is asked for, the table (`TABLE`, which follows the game itself) and a night
under way (`current`) decide classes more cheaply (flags `UNSETTLED`, `DAY_REPLAY`,
`PARTIAL`; the same test file checks each against the tracker without them): a night's class
of the game's own deal is kept, one in which the game's own night moves give the view again
is kept (`Search.replays`), the rest are searched without first searching the branches of
those kept (`_table_classes`, redone in order by `_resettle` where the game stops being
followed); a day's class is kept where its opening step, played once, gives the view with no
draw and no seat read beyond the class's (`_day_replays`).

Deals are listed (`exact`) where at most `EXACT_LIMIT` respect what the seat knows from its
own events, else followed as `particles` drawn uniformly among them; a particle ruled out is
replaced by a copy of a live one moved by role swaps that every segment so far accepts
(Metropolis moves on the uniform distribution over the deals not ruled out).
"""

from __future__ import annotations

import random
import weakref
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mafia_env.belief.deals import DealSpace
from mafia_env.belief.result import BeliefError
from mafia_env.belief.search import (
    Chance,
    Node,
    Search,
    SearchTooLarge,
    fork,
    relax_hidden,
    swap_deal,
)
from mafia_env.engine.events import PUBLIC, Cause, Ev
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import NIGHT_TURNS, PUBLIC_TURNS, SPEECH_TURNS, Act, Turn
from mafia_env.engine.knowledge import deal_constraints
from mafia_env.engine.roles import Role

EXACT_LIMIT = 20_000  # deals listed one by one up to this many; particles beyond
TABLE = -1  # the seat of the table's view: what every seat sees (the public events only)
PARTICLES = 2048  # particles where the deals are too many to list
MOVES = 4  # Metropolis role swaps tried per replaced particle
RECOVER = 512  # particles none of which reproduces a segment: swapped from this many
WORLD_NODES = 100  # a world's search of one segment tries every choice within this many nodes
REPLAYS = 2  # a night's branches found for earlier classes, tried on the next before a search
NIGHT_MODEL = True  # a night's class the night model gives no mass is ruled out unsearched
UNSETTLED = True  # the table, following the game: a night's class searched without settling
PARTIAL = True  # a night under way (`current`): its classes decided as the table's are
DAY_REPLAY = True  # the table: a day segment's class accepted by one replay of its step
IN_PLACE = True  # a move `quiet` finds blind to the deal: played in the reference world itself
TOLD_VICTIMS = True  # a night's victim of the town where the mafia never shoot their own (`_told`)

_MANY = (Role.PUTANA, Role.MANIAC, Role.DOCTOR)  # their nights are the night model's
# public turns whose every move (a ballot, a hand raised or not, a naming) is logged and hands
# the floor on (`quiet`)
_HANDING = frozenset({Turn.VOTE, Turn.OPEN_VOTE, Turn.CRASH_VOTE, Turn.NAMING})
_TALK = int(Ev.TALK)
_SPEAK = int(Ev.SPEAK)
_TURN = int(Ev.TURN)
_ENDS = {int(Ev.GAME_OVER), int(Ev.TERMINATED)}
_SPEECH_EVENTS = {
    int(Ev.CLAIM_ROLE): Act.CLAIM_ROLE,
    int(Ev.CLAIM_CHECK): Act.CLAIM_CHECK,
    int(Ev.ACCUSE): Act.ACCUSE,
    int(Ev.VOUCH): Act.VOUCH,
    int(Ev.NOMINATE): Act.NOMINATE,
    int(Ev.ASK): Act.ASK,
}


class _Watch(tuple):
    """A game's roles or teams that remember which seats the engine read."""

    def __getitem__(self, i):
        self._note()
        self.read.add(i)
        return tuple.__getitem__(self, i)

    def __iter__(self):
        self._note()
        self.read.update(range(len(self)))
        return tuple.__iter__(self)

    def _note(self) -> None:
        if self.first[0] < 0:  # the events logged before the deal was first read
            self.first[0] = len(self.log)


@dataclass
class Segment:
    """One stretch of the game whose view can depend on the deal (see the module docstring)."""

    snapshot: Game | None  # the reference world before it (None: the deal itself)
    first: tuple | None  # its opening step (None: the deal)
    want: list[tuple]  # what the seat saw in it
    complete: bool
    night: bool  # it has hidden turns: classes by symmetry
    involved: tuple[int, ...]
    living: np.ndarray  # the living seats before it
    masks: dict[int, tuple] = field(default_factory=dict)
    cache: dict[tuple, Node | None] = field(default_factory=dict)  # class key -> a branch
    paths: list[list[tuple]] = field(default_factory=list)  # (night) branches found, latest first
    lazy: list[Lazy] = field(default_factory=list)  # (night) accepted classes not yet searched
    acting: bool | None = None  # under way: whether the seat acts now (None: either)

    def search(self, seat: int, row: np.ndarray, **options: Any) -> Search:
        """Return the search for the segment's hidden histories under deal `row`."""
        return Search(
            seat,
            self.want,
            self.complete,
            frozenset(self.involved),
            tuple(row.tolist()),
            self.masks,
            acting=self.acting,
            **options,
        )


class Lazy:
    """A night's class the night model accepts (`mafia_env.belief.night`), its branch not
    searched yet: `Tracker.leaf` searches it when a branch is asked for (the reference world,
    a guide for Bayes's simulations), the segment's classes in the order they were accepted,
    so that each finds the branch it would have found searched at once (`Segment.paths`)."""

    __slots__ = ("key", "leaf", "row")

    def __init__(self, key: tuple, row: np.ndarray):
        self.key, self.row, self.leaf = key, row, self


def is_turn_start(e: tuple) -> bool:
    """Whether the event begins a public turn (or ends the game): where segments end."""
    kind = e[0]
    return kind == _SPEAK or (kind == _TURN and e[4] == PUBLIC) or kind in _ENDS


class Tracker:
    """One seat's view of one game: the reference world, the segments, the deals kept."""

    def __init__(
        self,
        game: Game,
        seat: int,
        rng: random.Random | None = None,
        within: np.ndarray | None = None,
    ):
        """`within`: (the table's view only) a bool [n, R] matrix of the roles each seat may
        hold, the deals kept to it: the table's deduction among the deals a team knows (its
        members' facts then keep deals of it only, `mafia_env.belief.store`)."""
        if not 0 <= seat < game.n and seat != TABLE:
            raise ValueError(f"seat must be 0..{game.n - 1}; got {seat}")
        if within is not None and seat != TABLE:
            raise ValueError("within= keeps the table's view to some deals; a seat has facts")
        self._within = within
        # the game by a weak reference: `mafia_env.belief.store` keeps each game's trackers
        # in a WeakKeyDictionary, whose entries a strong reference back to the game would
        # keep for ever (a trainer's finished games piled up: 290 MB per 1,000 steps of 16)
        self._game = weakref.ref(game)
        self.seat = seat
        self.bit = 1 << seat if seat >= 0 else 0  # (the table sees the public events only)
        self.rules, self.n = game.rules, game.n
        self.space = DealSpace.of(game.rules, game.n)
        self.rng = rng or random.Random(0x5EED ^ seat)
        self.cursor = 0  # into game.events
        self.seen: list[tuple] = []  # what the seat saw, table talk aside
        self.masks: dict[int, tuple] = {}  # index in seen of an own turn -> its options
        self.acting = False  # whether the seat acts now (a move of its own may log nothing)
        self.pos = 0  # seen[:pos] is reproduced by the reference world
        self.ref: Game | None = None
        self._mine: Game | None = None  # the reference world if nothing else holds it
        self._fresh: Game | None = None  # the world `_follow` played last
        self.segments: list[Segment] = []
        self.role: Role | None = None
        self.version = 0  # bumped whenever the kept deals change
        self._partial: tuple[int, np.ndarray] | None = None
        # what the reference world played, in order: ("step", step, pos, options) for a move
        # alike in every world, ("segment", segment, pos, options) for one that is not (pos:
        # where in `seen` it began; options: the mover's, as the reference world had them,
        # None in the table's view, `_options`)
        self.history: list[tuple] = []
        self.support = 0.0  # how many deals are not ruled out (estimated with particles)
        self._cache: tuple[int, Any] | None = None
        # the table's: the game's next input to play in its reference world (`_follow`)
        self._inp: int | None = 0 if seat == TABLE else None
        self._pull()
        if seat >= 0:
            self.role = Role(self.seen[0][3])  # the seat's first event: its role
        self._deal_start()

    @classmethod
    def night_of(cls, table: Tracker, seat: int, keep: np.ndarray) -> Tracker | None:
        """Return `seat`'s tracker for the night under way, started where the table's tracker
        stands (`table`: TABLE's, following the game, its night segment not yet complete):
        the table's kept deals that `keep` marks (those the seat's facts allow: its own
        deduction up to the night, `mafia_env.belief.store`), the table's reference world,
        and the seat's view from there. Only the night's partial segment is then searched, as
        the seat's own tracker searches it. None where the table's tracker does not stand at
        a night's start (the zero night, or a table that searches its own branches)."""
        g = table._game()
        if g is None or table.ref is None or table._inp is None or table.ref.over:
            return None
        t = cls.__new__(cls)
        t._game, t.seat, t.bit = table._game, seat, 1 << seat
        t.rules, t.n, t.space = table.rules, table.n, table.space
        t.rng = random.Random(0x5EED ^ seat)
        t.cursor, t.seen, t.masks, t.acting = 0, [], {}, False
        t.segments, t.history, t.version = [], [], 0
        t._partial, t._cache = None, None
        t._inp = table._inp  # (the game's next input: the night's true moves, `_true_steps`)
        # where the table's segment under way begins, as an index into this seat's view
        at, public = len(g.events), 0
        for i, e in enumerate(g.events):
            if public == table.pos:
                at = i
                break
            public += e[4] == PUBLIC and e[0] != _TALK
        t.ref = None  # (`_pull` reads the whole view; the position is set below)
        t._pull()
        t.role = Role(t.seen[0][3])
        t.pos = sum(1 for e in g.events[:at] if t._sees(e))
        t.ref, t._mine, t._fresh = table.ref, None, None
        table._mine = None  # (shared now: the table's next move forks it)
        t.allowed = t.space.allowed_matrix(deal_constraints(g, seat))
        t.exact = True
        t.deals = table.deals[table.live & keep]
        t.live = np.ones(len(t.deals), dtype=bool)
        t.total = len(t.deals)
        t.support = float(t.total)
        return t

    # ------------------------------------------------------------ the deals

    def _deal_start(self) -> None:
        """List (or draw) the deals that respect what the seat knows from its events."""
        known = deal_constraints(self.game, self.seat) if self.seat >= 0 else None
        allowed = self.space.allowed_matrix(known)
        if self._within is not None:
            allowed = allowed & self._within
        self.allowed = allowed
        count = self.space.count(allowed)
        self.exact = count <= EXACT_LIMIT
        if self.exact:
            self.deals = self.space.enumerate(allowed)
        else:
            self.deals = self.space.sample(allowed, self.rng, PARTICLES)
        self.live = np.ones(len(self.deals), dtype=bool)
        self.total = count  # deals respecting the seat's own facts
        self.support = float(count)

    # ------------------------------------------------------------- reading

    def _pull(self) -> None:
        """Take the events logged since the last call: the seat's, and its options now (none
        once the game is gone: nothing can happen in it any more)."""
        g = self._game()
        if g is None:
            return
        events, bit = g.events, self.bit
        for e in events[self.cursor :]:
            vis = e[4]
            if (vis == PUBLIC or vis & bit) and e[0] != _TALK:
                self.seen.append(e)
        self.cursor = len(events)
        self.acting = not g.over and g.actor == self.seat
        if self.acting and self.seen:
            last = self.seen[-1]
            if last[0] in (_SPEAK, _TURN) and last[1] == self.seat:
                self.masks.setdefault(len(self.seen) - 1, tuple(g.legal()))

    def update(self) -> bool:
        """Read what is new; return whether the kept deals may have changed."""
        before = (self.version, len(self.seen))
        self._pull()
        if self.ref is None:
            self._start()
        while self.ref is not None and not self.ref.over and self._advance():
            pass
        return before != (self.version, len(self.seen))

    def _end_of(self, start: int) -> int:
        """Return the index after the segment that starts at seen[start] (-1: not yet over)."""
        for j in range(start, len(self.seen)):
            if is_turn_start(self.seen[j]):
                return j + 1
        return -1

    def _start(self) -> None:
        """The deal: the first segment, from the deal to the first public turn."""
        end = self._end_of(0)
        complete = end >= 0
        want = self.seen[: end if complete else len(self.seen)]
        if not complete:
            return  # (the zero night is under way; the deal stays as the seat's facts say)
        seg = Segment(
            snapshot=None,
            first=None,
            want=list(want),
            complete=True,
            night=True,
            involved=self._named(want),
            living=np.ones(self.n, dtype=bool),
            masks={i: o for i, o in self.masks.items() if i < end},
        )
        leaf = self._apply_segment(seg)
        self.history.append(("segment", seg, 0, None))
        self.ref, self._mine = leaf.g, self._own(leaf)
        self.pos = end

    def _advance(self) -> bool:
        """Play the next public step in the reference world; return whether one was played."""
        ref = self.ref
        step = self._hint(ref)
        if step is None:
            return False
        if IN_PLACE and ref is self._mine and quiet(ref, step):
            options = self._options(ref)
            read, _ = _apply_watched(ref, step)
            if read:  # (`quiet` is wrong about the engine: tests/belief checks it never is)
                raise BeliefError(f"the public move {step}, taken as blind, read seats {read}")
            self._took(step, ref, options)
            return True
        h, read, before = self._watched(ref, step)
        hidden = not h.over and h.turn in NIGHT_TURNS
        if not hidden and not read:  # nothing of the deal was read: alike in every world
            self._took(step, h, self._options(ref))
            self.ref = self._mine = h  # (a fork of its own: later quiet moves change it in place)
            return True
        end = self._end_of(self.pos)
        if end < 0:
            return False  # the night is under way: see `current`
        want = self.seen[self.pos : end]
        night = hidden or any(e[0] == Ev.NIGHT for e in want)
        if night:
            involved = self._night_involved(want, before)
        else:
            involved = tuple(sorted(read | self._me))
        seg = Segment(
            snapshot=ref,
            first=step,
            want=list(want),
            complete=True,
            night=night,
            involved=involved,
            living=np.array(ref.alive, dtype=bool),
            masks={i - self.pos: o for i, o in self.masks.items() if self.pos <= i < end},
        )
        leaf = self._apply_segment(seg)
        self._partial = None
        self.history.append(("segment", seg, self.pos, self._options(ref)))
        self.ref, self._mine = leaf.g, self._own(leaf)
        self.pos = end
        return True

    def _options(self, g: Game) -> tuple | None:
        """The mover's options in `g` for the history (a seat's: Bayes reads them,
        `mafia_env.belief.bayes`; the table's history has no reader: None)."""
        return _options(g) if self.seat >= 0 else None

    def _own(self, leaf: Node) -> Game | None:
        """The segment's branch `leaf`'s world where nothing else holds it (the table's,
        played from the game's own moves: `_follow`), else None (a class's cache may)."""
        fresh, self._fresh = self._fresh, None
        return leaf.g if leaf.g is fresh else None

    def _took(self, step: tuple, h: Game, options: tuple | None) -> None:
        """The public move `step`, blind to the deal, played in `h` (the reference world
        after it): check what it showed against the seat's view, and record it."""
        produced = [e for e in h.events if (e[4] == PUBLIC or e[4] & self.bit) and e[0] != _TALK]
        if produced != self.seen[self.pos : self.pos + len(produced)]:
            raise BeliefError(
                f"seat {self.seat}: the public move {step} gave {produced}, the game "
                f"{self.seen[self.pos : self.pos + len(produced)]}"
            )
        h.events = []
        h.inputs = []
        self._partial = None  # (kept while nothing is played: `current` reuses it)
        self.history.append(("step", step, self.pos, options))
        if self._inp is not None:  # the table's: this move is the game's next input
            self._inp = self._inp + 1 if self._is_input(step) else None
        self.pos += len(produced)

    def _watched(self, ref: Game, step: tuple) -> tuple[Game, set[int], list[tuple]]:
        """Play `step` in a copy of `ref`, watching the deal: return the copy, the seats whose
        role or team the engine read, and the events the seat saw that the move logged before
        it first read the deal (alike in every world)."""
        h = fork(ref)
        read, first = _apply_watched(h, step)
        before = [e for e in h.events[: max(first, 0)] if self._sees(e)]
        return h, read, before

    def _night_involved(self, want: list[tuple], before: list[tuple]) -> tuple[int, ...]:
        """The involved seats of a night segment: those its view names, less the events the
        opening move logged before the engine read the deal (a vote's ballots name every
        voter, alike in every world: counted, they would split the deals one by one)."""
        return self._named(want[len(before) :] if want[: len(before)] == before else want)

    def _sees(self, e: tuple) -> bool:
        return (e[4] == PUBLIC or e[4] & self.bit) and e[0] != _TALK

    @property
    def _me(self) -> set[int]:
        """The seat itself, as a set of seats (none for the table's view)."""
        return {self.seat} if self.seat >= 0 else set()

    def _named(self, want: list[tuple]) -> tuple[int, ...]:
        """Return the seats the view names, the seat itself included (a seat named only as
        the taker of a public turn is not: who speaks when is public and role-blind)."""
        seats = set(self._me)
        for kind, actor, target, _, _ in want:
            if kind in (_SPEAK, _TURN) and actor >= 0:
                continue
            if actor >= 0:
                seats.add(actor)
            if target >= 0:
                seats.add(target)
        return tuple(sorted(seats))

    # ------------------------------------------------------------- the search

    def _start_game(self, seg: Segment, row: np.ndarray) -> Game:
        """Return the game at the segment's start under the deal `row` (a search's root)."""
        deal = self.space.as_roles(row)
        if seg.snapshot is None:
            start = Game(self.rules, self.n, 0, list(deal))
            start.rng = Chance()
        else:
            start = fork(seg.snapshot)
            swap_deal(start, deal)
            relax_hidden(start, self.role)
        return start

    def _probe(self, seg: Segment, row: np.ndarray) -> Node | None:
        """Return a branch that reproduces the segment under the deal `row`, or None (the
        doctor's own heal state tried both ways where the morning does not tell it)."""
        leaf = self._probe_from(seg, row, self._start_game(seg, row))
        if leaf is None and seg.snapshot is not None:
            other = self._heal_unknown(seg.snapshot)
            if other is not None:
                start = self._start_game(seg, row)
                start.heal_prev, start.self_heals = other
                leaf = self._probe_from(seg, row, start)
        return leaf

    def _heal_unknown(self, g: Game) -> tuple[int, int] | None:
        """ONLINE-N9 (knob heal_told off): the doctor is not told whether last night's heal
        counted (a miss when nobody shot leaves it unused, ONLINE-N4); he learns it from whom
        he may heal next. Return the other reading of his heal state than `g`'s, or None.

        The reference world keeps one reading; where a later segment (his options) needs the
        other, it is tried. (The cross-night consequence, that a counted heal means the
        mafia shot his patient, is not carried back to the night before: deduction may keep
        a deal that only that would rule out, never drop the truth.)
        """
        if self.role is not Role.DOCTOR or self.rules.heal_told:
            return None
        last = g.night.heal  # last night's (the day before a night keeps it)
        if last < 0:
            return None
        own = int(last == self.seat)
        if g.heal_prev == last:
            return (-1, max(0, g.self_heals - own))
        if g.heal_prev < 0:
            return (last, g.self_heals + own)
        return None

    def _probe_from(self, seg: Segment, row: np.ndarray, start: Game) -> Node | None:
        search = seg.search(self.seat, row)
        if seg.night:
            for steps in seg.paths[:REPLAYS]:  # another class's branch, played again
                leaf = search.replay(start, seg.first, steps)
                if leaf is not None:
                    _remember(seg, steps)
                    return leaf
            found = search.run(start, seg.first)
            if found:
                _remember(seg, found[0].steps())
            return found[0] if found else None
        read: set[int] = set()
        start.roles, start.teams = _Watch(start.roles), _Watch(start.teams)
        for w in (start.roles, start.teams):
            w.read, w.first, w.log = read, [-1], start.events
        found = search.run(start, seg.first)
        self._read = set(read)
        if not found:
            return None
        leaf = found[0]
        g = leaf.g
        g.roles, g.teams = _plain(g.roles), _plain(g.teams)
        return leaf

    def _classes(
        self, seg: Segment, rows: np.ndarray, kept: bool = False
    ) -> tuple[np.ndarray, np.ndarray, list]:
        """Try each class of `rows` once; return (first row per class, class per row, branch
        per class). A day segment's class whose play reads more seats refines the classes.

        `kept`: `rows` are the deals kept (the truth among them). The table's tracker then
        accepts a night's one class left unsearched (the truth's class is never ruled out;
        its branch matters to nobody: the table's reference world follows the game itself,
        `_follow`)."""
        told = self._told(seg)
        after = self._survivors(seg)
        defer = kept and seg.night and self.exact
        defer = defer and (self.seat == TABLE or (PARTIAL and not seg.complete))
        day = DAY_REPLAY and not seg.night and self.seat == TABLE and seg.first is not None
        while True:
            first, inverse = self.space.class_keys(rows, seg.involved, seg.living)
            leaves: list[Any] = []
            pending: list[tuple[int, int, tuple]] = []
            grew = False
            for i in first.tolist():
                key = self.space.key_of(rows[i], seg.involved, seg.living)
                if key in seg.cache:
                    leaves.append(seg.cache[key])
                    continue
                if any(not allowed[rows[i, t]] for t, allowed in told) or (
                    after is not None and self._won(rows[i], after)
                ):
                    seg.cache[key] = None  # what the search would say: `_told`, `_survivors`
                    leaves.append(None)
                    continue
                verdict = self._night_verdict(seg, rows[i], key) if seg.night else None
                if verdict is not None:  # the night model's word, the branch searched later
                    leaf = Lazy(key, rows[i].copy()) if verdict else None
                    if leaf is not None:
                        seg.lazy.append(leaf)
                    seg.cache[key] = leaf
                    leaves.append(leaf)
                    continue
                if defer:
                    pending.append((len(leaves), i, key))
                    leaves.append(None)
                    continue
                if day and self._day_replays(seg, rows[i]):  # the search's answer, its branch later
                    leaf = Lazy(key, rows[i].copy())
                    seg.lazy.append(leaf)
                    seg.cache[key] = leaf
                    leaves.append(leaf)
                    continue
                if seg.night:  # (a day segment's lazy classes are searched alike in any order)
                    self._settle(seg)  # (a search now follows those accepted before it)
                self._read = set()
                leaf = self._probe(seg, rows[i])
                extra = (self._read - set(seg.involved)) if not seg.night else set()
                if extra:
                    seg.involved = tuple(sorted(set(seg.involved) | extra))
                    seg.cache.clear()
                    seg.lazy.clear()  # (a day segment's: classes of the old seats)
                    grew = True
                    break
                seg.cache[key] = leaf
                leaves.append(leaf)
            if not grew:
                if pending:
                    self._table_classes(seg, rows, pending, leaves)
                return first, inverse, leaves

    def _day_replays(self, seg: Segment, row: np.ndarray) -> bool:
        """The table's tracker, a segment without hidden turns: whether its opening step,
        played in one game under the deal `row`, gives the view with no draw and reading no
        seat beyond the involved ones. Then the search (`_probe`) would play that one step
        alike (no draw: one outcome), read the same seats (it asks the same options first)
        and accept it: the class is accepted, its branch searched only if asked for (`leaf`).
        Otherwise (a draw, a seat read beyond, another view) the search decides."""
        start = self._start_game(seg, row)
        read: set[int] = set()
        start.roles, start.teams = _Watch(start.roles), _Watch(start.teams)
        for w in (start.roles, start.teams):
            w.read, w.first, w.log = read, [-1], start.events
        step = seg.first
        if step[0] == "act" and step[3] >= 0 and start.actor >= 0:
            start.legal()  # (`Search._step` asks the options first: what it reads counts)
        search = seg.search(self.seat, row)
        search.rules = start.rules
        k = search._stepped(start, 0, (*step, (), None, None))
        if k < 0 or start.rng.calls:
            return False
        verdict = search._verdict(Node(start, k, 1.0, None, None, (), 0))
        return verdict is True and read <= set(seg.involved)

    def _table_classes(self, seg: Segment, rows: np.ndarray, pending: list, leaves: list) -> None:
        """The table's tracker, a night's classes the shortcuts left (and any exact tracker's
        night under way, `current`): the class of the game's own deal is kept unsearched (the
        truth is never ruled out: the search would keep it), and so is each class in which
        the game's own hidden moves give the view again (a branch the search accepts,
        `Search.replay`; where the tracker knows the game's next input, `_inp`: the table's,
        and a seat's night tracker started from it); the others are searched.

        While the table follows the game (`_follow`: its reference world is the game's own,
        no branch of the segment is asked for), a class is searched without first searching
        the branches of those accepted before it (`_settle`): whether a search finds a branch
        does not depend on the branches it tries first (`Search.replay`'s are ones it would
        accept), only which branch it finds does. What was done is kept, so that where the
        game cannot be followed after all the segment's searches are made again in the order
        they would have been (`_resettle`): the same branches, the same reference world."""
        g = self._game()
        truth = self.space.as_row(g.roles) if g is not None else None
        own = self.space.key_of(truth, seg.involved, seg.living) if truth is not None else None
        steps = self._true_steps(seg, g)
        # (a night under way, `current`: nobody asks for its branches, kept nowhere). Unless
        # the tracker's last search found a branch: then those found for the classes accepted
        # before, played again, spare most searches (a search that finds none pays for all)
        unsettled = UNSETTLED and (self._inp is not None or not seg.complete)
        unsettled = unsettled and not self.__dict__.get("_found")
        redo = None
        if unsettled and seg.complete and "unsettled" not in seg.__dict__:
            redo = seg.__dict__["unsettled"] = (list(seg.paths), list(seg.lazy), [])
        for at, i, key in pending:
            row = rows[i]
            if key == own or (steps and self._replays(seg, row, steps)):
                leaf = Lazy(key, row.copy())
                seg.lazy.append(leaf)
                if redo is not None:
                    redo[2].append(leaf)
            elif unsettled:
                try:
                    leaf = self._probe(seg, row)
                except SearchTooLarge:  # (the settled order may spare it: go that way)
                    self._resettle(seg)
                    unsettled, redo = False, None
                    self._settle(seg)
                    leaf = self._probe(seg, row)
                else:
                    if redo is not None:
                        redo[2].append((key, row, leaf))
                self._found = leaf is not None
            else:
                self._settle(seg)
                leaf = self._probe(seg, row)
                self._found = leaf is not None
            leaves[at] = seg.cache[key] = leaf

    def _resettle(self, seg: Segment) -> dict[int, Any]:
        """Make again, in the order `_table_classes` would have made them settled, the
        segment's searches it made unsettled; return {id(a branch then found): the branch
        found now} (the accepted classes' leaves the caller holds)."""
        redo = seg.__dict__.pop("unsettled", None)
        if redo is None:
            return {}
        paths, lazy, ops = redo
        seg.paths[:] = paths
        seg.lazy[:] = lazy
        found: dict[int, Any] = {}
        for op in ops:
            if type(op) is Lazy:
                seg.lazy.append(op)
                continue
            key, row, old = op
            self._settle(seg)
            leaf = self._probe(seg, row)
            seg.cache[key] = leaf
            found[id(old)] = leaf
        return found

    def _true_steps(self, seg: Segment, g: Game | None) -> list[tuple] | None:
        """The segment's opening step and the game's hidden moves after it, as a search's
        branch steps (`Search.replay`); None where the table does not follow the game."""
        if g is None or self._inp is None or seg.first is None or self._inp >= len(g.inputs):
            return None
        if not self._is_input(seg.first):
            return None
        out = [(*seg.first, (), None, g.inputs[self._inp][4])]
        for seat, act, target, value, turn, _ in g.inputs[self._inp + 1 :]:
            if turn not in NIGHT_TURNS:
                break
            out.append(("act", seat, act, target, value, (), None, turn))
        return out

    def _replays(self, seg: Segment, row: np.ndarray, steps: list[tuple]) -> bool:
        """Whether `steps` played again under the deal `row` give the segment's view."""
        search = seg.search(self.seat, row)
        return search.replays(self._start_game(seg, row), seg.first, steps)

    def _night_verdict(self, seg: Segment, row: np.ndarray, key: tuple) -> bool | None:
        """Whether some hidden history of a whole night gives the view under the deal `row`,
        as the night model counts (the doctor's heal state read both ways, as `_probe`);
        None where the model does not cover the night (the search decides). The mass is
        kept for Bayes under the random policy (`BayesTracker._class_masses`)."""
        from mafia_env.belief.night import Unsupported, night_mass

        if not NIGHT_MODEL or not seg.complete or seg.snapshot is None or not self._model_pays:
            return None
        try:
            mass = night_mass(self, seg, row, self._start_game(seg, row))
            seg.__dict__.setdefault("masses", {})[key] = mass
            if mass > 0:
                return True
            other = self._heal_unknown(seg.snapshot)
            if other is None:
                return False
            start = self._start_game(seg, row)
            start.heal_prev, start.self_heals = other
            return night_mass(self, seg, row, start) > 0
        except Unsupported:
            return None

    @property
    def _model_pays(self) -> bool:
        """Whether the night model is worth its cost here: nights of many hidden turns (a
        free hunt, a putana, a maniac or a doctor), whose searches (those that find nothing
        above all) cost more than it does; a night of shots and checks is searched fast."""
        pays = self.__dict__.get("_pays")
        if pays is None:
            roles = self.space.roles
            pays = self.__dict__["_pays"] = bool(self.rules.hunt or any(r in roles for r in _MANY))
        return pays

    @property
    def _town_victims(self) -> bool:
        """Whether a seat killed at night is of the town under every deal: a night of shots
        and checks alone (the mafia's shot is its only kill, `_model_pays`) under rules by
        which a member shoots neither a teammate nor himself (`shot_targets`: knobs
        mafia_target_team and self_shot), such as MINIMAL's. The search, which plays every
        shot a deal's mafia may fire, finds no branch that kills one of them (flag
        `TOLD_VICTIMS`)."""
        town = self.__dict__.get("_town")
        if town is None:
            r = self.rules
            town = TOLD_VICTIMS and not self._model_pays and not r.mafia_target_team
            town = self.__dict__["_town"] = town and r.self_shot == "never"
        return town

    def leaf(self, seg: Segment, leaf: Any) -> Node | None:
        """Return the branch of a class `_classes` gave (a `Lazy` one searched now, after the
        segment's classes accepted before it; None if the search finds none after all)."""
        if type(leaf) is not Lazy:
            return leaf
        while leaf.leaf is leaf:
            self._settle(seg, leaf)
        return leaf.leaf

    def _settle(self, seg: Segment, upto: Lazy | None = None) -> None:
        """Search the branches of the segment's lazy classes, in the order they were accepted
        (up to `upto`; all without it)."""
        while seg.lazy:
            lz = seg.lazy.pop(0)
            self._read = set()
            lz.leaf = self._probe(seg, lz.row)
            seg.cache[lz.key] = lz.leaf if lz.leaf is not None else lz
            if lz is upto:
                return

    def _told(self, seg: Segment) -> list[tuple[int, np.ndarray]]:
        """Return (seat, the roles it may hold) for every role the segment's view states: the
        seat's own check (the engine's CHECK says whether the target is of the mafia team, to
        the sheriff, or the sheriff, to the don) and a role shown to the table (REVEAL), of
        the involved seats only (a class holds one role there). A deal against one of them
        cannot reproduce the view (the event would differ): the class is ruled out without a
        search, as the search would rule it out. A seat that leaves in the mafia's forfeit is
        of the mafia team (the engine names no other); one killed at night is of the town
        where the mafia's shot is the night's only kill and never hits its own team
        (`_town_victims`)."""
        roles, mafia = self.space.roles, self.space.mafia_of
        out = []
        for kind, actor, target, value, _ in seg.want:
            if target not in seg.involved:
                continue
            if kind == Ev.REVEAL:
                out.append((target, np.array([r is Role(value) for r in roles])))
            elif kind == Ev.ELIMINATED and value == Cause.FORFEIT:  # CITY-N4, N10: mafia
                out.append((target, mafia))
            elif kind == Ev.ELIMINATED and value == Cause.NIGHT and self._town_victims:
                out.append((target, ~mafia))
            elif kind == Ev.CHECK and actor == self.seat and self.role is Role.SHERIFF:
                out.append((target, mafia if value else ~mafia))
            elif kind == Ev.CHECK and actor == self.seat and self.role is Role.DON:
                sheriff = np.array([r is Role.SHERIFF for r in roles])
                out.append((target, sheriff if value else ~sheriff))
        return out

    def _survivors(self, seg: Segment) -> np.ndarray | None:
        """Return the seats alive after a segment that ended with eliminations and the game
        going on, or None. The engine checks for a win after every elimination (`Game.
        _check_win`, from `rules.winner` of the players alive per team), and only
        `_eliminate` changes who is alive: so under a deal the segment can be played in, the
        teams of these seats win nothing (else the view would end with GAME_OVER). Only where
        every eliminated seat is involved (a class holds one role there)."""
        if not seg.complete or seg.snapshot is None:
            return None
        gone = [e[2] for e in seg.want if e[0] == Ev.ELIMINATED]
        if not gone or any(e[0] in _ENDS for e in seg.want):
            return None
        if any(t not in seg.involved for t in gone):
            return None
        after = seg.living.copy()
        after[gone] = False
        return after

    def _won(self, row: np.ndarray, after: np.ndarray) -> bool:
        """Whether a team has won with the seats `after` alive under the deal `row`."""
        counts = np.bincount(self.space.team_of[row[after]], minlength=3)
        return self.rules.winner(*counts.tolist()) is not None

    def _apply_segment(self, seg: Segment) -> Node:
        """Rule out the deals the segment rules out; return a branch for the new reference."""
        idx = np.flatnonzero(self.live)
        rows = self.deals[idx]
        _, inverse, leaves = self._classes(seg, rows, kept=True)
        ok = np.array([leaf is not None for leaf in leaves], dtype=bool)
        if not ok.any():
            if not self.exact and self._recover(seg):
                leaf = self._apply_segment(seg)  # the new particles, which it accepts
                self._spread()
                return leaf
            raise BeliefError(
                f"seat {self.seat}: no deal reproduces the segment {seg.first} -> {seg.want}"
            )
        keep = ok[inverse]
        if not self.exact:
            self.support *= keep.mean()
        self.live[idx[~keep]] = False
        self.segments.append(seg)
        self.version += 1
        if not self.exact and (~keep).any():
            self._rejuvenate()
        followed = self._follow(seg)
        redone = self._resettle(seg) if followed is None else seg.__dict__.pop("unsettled", 0)
        if followed is not None:  # the table's: the game itself, no branch searched
            return followed
        first = next(leaf for leaf in leaves if leaf is not None)
        first = redone.get(id(first), first)
        best = self.leaf(seg, first)
        if best is None:
            raise BeliefError(
                f"seat {self.seat}: the night model and the search disagree on {seg.first}"
            )
        best.g.events = []
        return best

    def _replayed(self, seg: Segment, g: Game, moves: list, script: tuple) -> tuple:
        """The segment played from its start with the game's deal, its opening step and
        `moves`, the engine's draws as `script` says: (game, events before, chance), or
        (None, 0, chance) where a move is not the game's turn."""
        chance = Chance(script)
        if seg.snapshot is None:  # the deal: its own events are the segment's first
            start = Game(self.rules, self.n, 0, list(g.roles))
            start.rng = chance
            at = 0
        else:
            start = fork(seg.snapshot, chance)
            swap_deal(start, tuple(g.roles))
            relax_hidden(start, None)
            at = len(start.events)
        try:
            if seg.first is not None:
                _apply(start, seg.first)
            for seat, act, target, value, turn, _ in moves:
                if start.actor != seat or start.turn is not turn:
                    return None, 0, chance
                start.apply(act, target, value)
        except (ValueError, RuntimeError):
            return None, 0, chance
        return (None if chance.bad else start), at, chance

    def _is_input(self, step: tuple) -> bool:
        """Whether `step` is the game's input at `_inp` (the table's, `_follow`)."""
        g = self._game()
        if g is None or self._inp >= len(g.inputs):
            return False
        seat, act, target, value = g.inputs[self._inp][:4]
        if step[0] == "act":
            return (seat, act, target, value) == step[1:5]
        return seat == step[1] and act == {"foul": -1, "terminate": -2, "remove": -3}[step[0]]

    def _follow(self, seg: Segment) -> Node | None:
        """The table's tracker: the reference world after `seg` played from the game's own
        moves (the deal and the hidden choices as they were: its hidden state is relaxed at
        every search, `relax_hidden`, so it tells the table nothing), instead of a branch
        searched; None (search) for a seat's own tracker, or where the moves do not give the
        segment's view again (a draw the engine made otherwise)."""
        if self.seat != TABLE or self._inp is None:
            return None
        g = self._game()
        if g is None:
            return None
        public = 1 if seg.first is not None else 0
        end = self._inp + public
        while end < len(g.inputs) and g.inputs[end][4] in NIGHT_TURNS:
            end += 1
        moves = g.inputs[self._inp + public : end]
        if public and not self._is_input(seg.first):
            self._inp = None
            return None
        pending: list[tuple[int, ...]] = [()]  # the engine's draws, each outcome in turn
        while pending:
            script = pending.pop()
            start, at, chance = self._replayed(seg, g, moves, script)
            for j in range(len(script), len(chance.calls)):
                tail = (0,) * (j - len(script))
                pending += [(*script, *tail, v) for v in range(1, chance.calls[j])]
            if start is None:
                continue
            got = [e for e in start.events[at:] if self._sees(e)]
            if got == seg.want and (start.over or start.turn in PUBLIC_TURNS):
                break
        else:
            self._inp = None  # (searched from now on)
            return None
        self._inp = end
        start.events = []
        self._fresh = start  # (held by nothing else: the reference world may be it)
        return Node(start, len(got), 1.0, None, None, (), 0)

    # ------------------------------------------------------------- particles

    def _consistent(self, rows: np.ndarray) -> np.ndarray:
        """Return which deals every segment so far accepts (probing classes not seen yet)."""
        ok = self.space.allows(self.allowed, rows)
        for seg in self.segments:
            idx = np.flatnonzero(ok)
            if not idx.size:
                break
            _, inverse, leaves = self._classes(seg, rows[idx])
            good = np.array([leaf is not None for leaf in leaves], dtype=bool)
            ok[idx[~good[inverse]]] = False
        return ok

    def possible(self, deal: np.ndarray) -> bool:
        """Return whether the seat cannot rule out the deal `deal` (role indices by seat):
        every segment so far accepts it (with particles too, whether drawn or not)."""
        self.update()
        return bool(self._consistent(np.asarray(deal, dtype=np.int8)[None])[0])

    def _recover(self, seg: Segment) -> bool:
        """Particles, where none reproduces the segment: one that pins down what every
        particle missed (a forfeit names the whole mafia; city-10, a civilian's 2,048 of 30,240
        deals: one tracker in 120 of random play). Look for deals it accepts near the
        particles: two seats' roles swapped, in up to three rounds (each from `RECOVER` of the
        last round's deals), else among `RECOVER` * 8 fresh draws; kept where this segment and
        every earlier one accept them. They replace the particles, drawn alike (`_spread`
        then moves the copies). Return whether any was found."""
        alive = np.flatnonzero(self.live)
        if not alive.size:
            return False
        rows = np.unique(self.deals[alive], axis=0)
        others = [t for t in range(self.n) if t != self.seat]
        pairs = [(a, b) for a in others for b in others if a < b]
        for _ in range(3):
            if len(rows) > RECOVER:
                rows = rows[sorted(self.rng.sample(range(len(rows)), RECOVER))]
            rows = np.unique(np.concatenate([_swapped(rows, a, b) for a, b in pairs]), axis=0)
            found = self._accepted(seg, rows)
            if len(found):
                break
        if not len(found):
            found = self._accepted(seg, self.space.sample(self.allowed, self.rng, RECOVER * 8))
        if not len(found):
            return False
        pick = [self.rng.randrange(len(found)) for _ in range(len(self.deals))]
        self.deals = found[pick].astype(self.deals.dtype)
        self.live = np.ones(len(self.deals), dtype=bool)
        self.support = max(float(len(np.unique(found, axis=0))), 1.0)  # a lower bound
        self.version += 1
        return True

    def _accepted(self, seg: Segment, rows: np.ndarray) -> np.ndarray:
        """The deals of `rows` that the seat's facts, the segment `seg` and every segment
        before it accept (`seg` is not yet in `segments`)."""
        rows = rows[self.space.allows(self.allowed, rows)]
        if not len(rows):
            return rows
        _, inverse, leaves = self._classes(seg, rows)
        rows = rows[np.array([leaf is not None for leaf in leaves], dtype=bool)[inverse]]
        return rows[self._consistent(rows)] if len(rows) else rows

    def _spread(self) -> None:
        """After `_recover`: the copies of a deal but its first are moved (`_rejuvenate`)."""
        _, first = np.unique(self.deals, axis=0, return_index=True)
        self.live[:] = False
        self.live[first] = True
        self._rejuvenate()

    def _rejuvenate(self) -> None:
        """Replace the ruled-out particles by moved copies of live ones."""
        dead = np.flatnonzero(~self.live)
        alive = np.flatnonzero(self.live)
        if not dead.size or not alive.size:
            return
        rows = self.deals[self.rng.choices(alive.tolist(), k=len(dead))].copy()
        for _ in range(MOVES):
            proposal = rows.copy()
            for r in proposal:
                a, b = self.rng.sample(range(self.n), 2)
                r[a], r[b] = r[b], r[a]
            ok = self._consistent(proposal)
            rows[ok] = proposal[ok]
        self.deals[dead] = rows
        self.live[dead] = True
        self.version += 1

    # ------------------------------------------------------------- partial view

    def current(self) -> np.ndarray:
        """Return which of `deals` are kept now, the segment under way included."""
        self.update()
        if self.ref is None or self.ref.over or self.pos >= len(self.seen):
            return self.live
        if self._partial is not None and self._partial[0] == len(self.seen):
            return self._partial[1]
        step = self._hint(self.ref)
        live = self.live
        if step is not None:  # a move whose segment is under way (a night)
            want = self.seen[self.pos :]
            self._mine = None  # (the segment's start: moves from here fork it)
            seg = Segment(
                snapshot=self.ref,
                first=step,
                want=want,
                complete=False,
                night=True,
                involved=self._night_involved(want, self._watched(self.ref, step)[2]),
                living=np.array(self.ref.alive, dtype=bool),
                masks={i - self.pos: o for i, o in self.masks.items() if i >= self.pos},
            )
            idx = np.flatnonzero(live)
            _, inverse, leaves = self._classes(seg, self.deals[idx], kept=True)
            ok = np.array([leaf is not None for leaf in leaves], dtype=bool)
            if ok.any():
                live = live.copy()
                live[idx[~ok[inverse]]] = False
        self._partial = (len(self.seen), live)
        return live

    # ---------------------------------------------------------------- answers

    def belief(self) -> Any:
        """Return the belief now: uniform over the deals not ruled out (`Belief`)."""
        from mafia_env.belief.result import Belief

        live = self.current()
        support = float(live.sum()) if self.exact else max(self.support, 1.0)
        return Belief(
            self.space,
            self.seat,
            self.deals,
            live.astype(np.float64),
            self.exact,
            support,
            sampler=self.world,
        )

    def matrix(self) -> np.ndarray:
        """Return the marginals [n, R] now (kept until the view changes)."""
        live = self.current()
        key = (self.version, len(self.seen), id(live))
        if self._cache is None or self._cache[0] != key:
            d = self.deals[live]
            w = 1.0 / len(d)
            m = np.stack([(d == r).sum(axis=0) * w for r in range(len(self.space.roles))], 1)
            self._cache = (key, m.astype(np.float32))
        return self._cache[1]

    @property
    def game(self) -> Game:
        """The game this seat's view follows."""
        game = self._game()
        if game is None:
            raise BeliefError(f"seat {self.seat}: the game this belief followed is gone")
        return game

    def world(self, row: np.ndarray, rng: random.Random) -> Game:
        """Return a game dealt `row` whose every move the seat saw is as it saw it (its whole
        history played again: public moves as made, hidden ones as a search found them)."""
        deal = self.space.as_roles(row)
        g = Game(self.rules, self.n, 0, list(deal))  # (not the game's seed: it deals its roles)
        for kind, item, _, _ in self.history:
            if kind == "step":
                _replay(g, [(*item, (), None)])
                continue
            seg = item
            if seg.snapshot is None:
                start_events = g.events[:]
                g2 = self._search_from(g, seg, row, rng)
                if g2 is None:
                    raise BeliefError(f"seat {self.seat}: the deal {deal} does not fit the start")
                g = g2
                g.events = start_events + g.events
                continue
            if not self._replay_segment(g, seg, row, rng):
                raise BeliefError(f"seat {self.seat}: the deal {deal} does not fit {seg.first}")
        self._pending(g, row, rng)
        bit = self.bit
        seen = [e for e in g.events if (e[4] == PUBLIC or e[4] & bit) and e[0] != _TALK]
        if seen != self.seen or (not g.over and (g.actor == self.seat) != self.acting):
            # (a branch whose draws replay otherwise: a lot among hunters)
            raise BeliefError(f"seat {self.seat}: the world of {deal} went another way")
        g.rng = random.Random(rng.getrandbits(64))
        return g

    def _pending(self, g: Game, row: np.ndarray, rng: random.Random) -> None:
        """Bring `g` to where the real game stands for the seat: the moves the seat saw since
        the last segment, the night under way, and ballots not yet shown (any will do)."""
        bit = self.bit
        pos = self.pos
        while pos < len(self.seen) and not g.over:
            want = self.seen[pos:]
            if g.turn in NIGHT_TURNS:
                search = Search(
                    self.seat,
                    want,
                    False,
                    frozenset(self._named(want)),
                    tuple(row.tolist()),
                    {i - pos: o for i, o in self.masks.items() if i >= pos},
                    acting=self.acting,
                )
                start = fork(g)
                if pos == 0:  # the zero night under way: the deal's events, compared first
                    start.events = g.events[:]
                found = search.run(start, None, rng=rng, quiet=False)
                if not found:
                    raise BeliefError(f"seat {self.seat}: no night under way fits {want}")
                _replay(g, found[0].steps())
                return
            step = self._hint(g, pos)
            options = [step] if step is not None else [("act", g.actor, *a) for a in _any(g, rng)]
            for option in options:
                h = fork(g)
                _apply(h, option)
                got = [e for e in h.events if (e[4] == PUBLIC or e[4] & bit) and e[0] != _TALK]
                if got == want[: len(got)]:
                    n0 = len(g.events)
                    _replay(g, [(*option, (), None)])
                    pos += len(got)
                    if len(g.events) == n0:
                        pass
                    break
            else:
                raise BeliefError(f"seat {self.seat}: no move fits {want[:3]}")

    def _replay_segment(self, g: Game, seg: Segment, row: np.ndarray, rng=None) -> bool:
        """Play one segment in `g` (dealt `row`) so that the seat sees what it saw."""
        found = self._search_path(g, seg, row, rng)
        if found is None:
            other = self._heal_unknown(g)  # the doctor's heal state read the other way
            if other is None:
                return False
            keep = g.heal_prev, g.self_heals
            g.heal_prev, g.self_heals = other
            found = self._search_path(g, seg, row, rng)
            if found is None:
                g.heal_prev, g.self_heals = keep
                return False
        _replay(g, found)
        return True

    def _search_path(self, g: Game, seg: Segment, row: np.ndarray, rng=None) -> list | None:
        """Return the steps of one hidden history of the segment from `g` (dealt `row`).

        With `rng` (a world), every choice is tried in an order drawn from it, within
        `WORLD_NODES` nodes; past them, the quiet search (the choices on seats the view never
        names held back), still in an order drawn from `rng`."""
        if rng is not None:
            try:
                found = seg.search(self.seat, row, budget=WORLD_NODES).run(
                    fork(g), seg.first, rng=rng, quiet=False
                )
                return found[0].steps() if found else None
            except SearchTooLarge:
                pass
        found = seg.search(self.seat, row).run(fork(g), seg.first, rng=rng, quiet=True)
        return found[0].steps() if found else None

    def _search_from(
        self, g: Game, seg: Segment, row: np.ndarray, rng: random.Random
    ) -> Game | None:
        """The start segment: `g` was just dealt; search its hidden turns (the zero night),
        in an order drawn from `rng` (the caller's: a world depends on nothing else)."""
        start = fork(g)
        start.events = g.events[:]
        search = seg.search(self.seat, row)
        found = search.run(start, None, rng=rng, quiet=False)
        if not found:
            return None
        g.events = []
        _replay(g, found[0].steps())
        return g

    # ---------------------------------------------------------------- hints

    def _hint(self, ref: Game, pos: int | None = None) -> tuple | None:
        """Return the step the reference world's acting player took, read from the seat's
        view (a moderator's call first), or None if the view does not show it yet."""
        seen = self.seen
        pos = self.pos if pos is None else pos
        if pos >= len(seen) or ref.over:
            return None
        e = seen[pos]
        kind, actor, target, value, _ = e
        if kind == Ev.FOUL:
            return ("foul", target)
        if kind == Ev.ELIMINATED and value == Cause.REMOVED:
            return ("remove", target)
        if kind == Ev.TERMINATED:
            return ("terminate", actor)
        turn, me = ref.turn, ref.actor
        if turn in NIGHT_TURNS:
            return None
        if turn in SPEECH_TURNS:
            if actor != me:
                return None
            if kind == Ev.END_SPEECH:
                return ("act", me, Act.PASS, -1, -1)
            act = _SPEECH_EVENTS.get(kind)
            if act is None:
                return None
            if act is Act.CLAIM_ROLE:
                return ("act", me, act, -1, value)
            return ("act", me, act, target, value if act in (Act.CLAIM_CHECK, Act.ASK) else -1)
        if turn is Turn.ANSWER:
            return ("act", me, Act.ANSWER, -1, value) if kind == Ev.ANSWER else None
        if turn is Turn.GESTURE:  # ONLINE-D6: a gesture shown or taken back, or none
            if kind == Ev.GESTURE and actor == me:
                return ("act", me, Act.ANSWER, -1, value if value >= 0 else ref.gestures[me])
            return ("act", me, Act.PASS, -1, -1)
        if turn is Turn.NAMING:
            return ("act", me, Act.NOMINATE, target, -1) if kind == Ev.NAME else None
        if turn is Turn.VOTE:
            for f in seen[pos:]:
                if f[0] == Ev.BALLOT and f[1] == me:
                    if f[2] >= 0 and not f[3]:
                        return ("act", me, Act.VOTE, f[2], -1)
                    return ("act", me, Act.PASS, -1, -1)
            return None
        if turn is Turn.OPEN_VOTE:  # CLUB-E7, ONLINE-V7: the count shows the hands raised
            for f in seen[pos:]:
                if f[0] == Ev.COUNT:
                    if f[3] >> me & 1:
                        return ("act", me, Act.VOTE, f[2], -1)
                    return ("act", me, Act.PASS, -1, -1)
            return None
        if turn is Turn.CRASH_VOTE:
            for f in seen[pos:]:
                if f[0] == Ev.CRASH_BALLOT and f[1] == me:
                    return ("act", me, Act.VOTE_YES if f[3] else Act.VOTE_NO, -1, -1)
            return None
        return None


def quiet(g: Game, step: tuple) -> bool:
    """Whether the public move `step` cannot read the deal in `g`, told from the engine's
    state before it: a speech act that leaves the speech going on (no gestures, ONLINE-D6),
    or a move of a speech, a ballot (hidden, open or the car crash's) or a naming that ends
    with the floor handed to the queue's next turn, a public one of a living player (or a
    last word): its rule logs the move, `Game._advance` pops that turn and no stage ends.
    Such a move is alike in every world, so the tracker plays it in its own reference world
    instead of a copy (`IN_PLACE`), still watching the deal
    (tests/belief/test_belief_piece_speed.py checks `quiet` against the watch over random
    games of every variant)."""
    if step[0] != "act" or g.over:
        return False
    turn, act = g.turn, step[2]
    if turn in SPEECH_TURNS:
        if act is Act.ASK or (act is not Act.PASS and g.rules.gestures != "none"):
            return False
        if act is not Act.PASS and g.speech.acts_left > 1:
            return True  # the speech goes on
    elif turn not in _HANDING:
        return False
    q = g.queue
    if not q:
        return False
    seat, nxt = q[0]
    return nxt in PUBLIC_TURNS and (g.alive[seat] or nxt is Turn.LAST_WORD)


def _apply_watched(g: Game, step: tuple) -> tuple[set[int], int]:
    """Apply `step` to `g` itself, watching the deal; return the seats whose role or team
    the engine read, and how many events the move logged before it first read one (-1: it
    read none)."""
    roles, teams = g.roles, g.teams
    read: set[int] = set()
    first = [-1]
    g.roles, g.teams = _Watch(roles), _Watch(teams)
    for w in (g.roles, g.teams):
        w.read, w.first, w.log = read, first, g.events
    try:
        _apply(g, step)
    finally:
        g.roles, g.teams = roles, teams
    return read, first[0]


def _remember(seg: Segment, steps: list[tuple]) -> None:
    """Put a night's branch first among those the segment's next classes try (`REPLAYS`)."""
    paths = seg.paths
    for i, p in enumerate(paths):
        if p is steps or p == steps:
            del paths[i]
            break
    paths.insert(0, steps)


def _plain(x: tuple) -> tuple:
    """Return a watched tuple as a plain one (without counting it as read)."""
    return tuple(tuple.__iter__(x)) if type(x) is _Watch else x


def _options(g: Game) -> tuple | None:
    """The acting player's options in `g` (a public turn: alike in every world)."""
    return None if g.over else tuple(g.legal())


def _any(g: Game, rng: random.Random) -> list[tuple]:
    """Every legal (act, target, value) of the acting player, shuffled."""
    from mafia_env.belief.search import expand_options

    out = expand_options(g)
    rng.shuffle(out)
    return out


def _replay(g: Game, steps: list[tuple]) -> None:
    """Apply a search's steps to a real game, its draws as the search made them."""
    keep = g.rng
    for step in steps:
        g.rng = Chance(tuple(step[5]) if len(step) > 5 else ())
        _apply(g, step)
    g.rng = keep


def _apply(g: Game, step: tuple) -> None:
    kind = step[0]
    if kind == "act":
        g.apply(step[2], step[3], step[4])
    elif kind == "foul":
        g.foul(step[1])
    elif kind == "remove":
        g.remove(step[1])
    else:
        g.terminate(step[1])


def _swapped(rows: np.ndarray, a: int, b: int) -> np.ndarray:
    """`rows` with the roles of seats `a` and `b` exchanged (only the rows where they differ)."""
    out = rows[rows[:, a] != rows[:, b]].copy()
    out[:, [a, b]] = out[:, [b, a]]
    return out


__all__ = [
    "EXACT_LIMIT",
    "PARTICLES",
    "TABLE",
    "BeliefError",
    "Segment",
    "Tracker",
    "is_turn_start",
    "quiet",
]
