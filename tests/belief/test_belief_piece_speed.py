"""The belief piece's speed-ups change no value: every seat's deduction marginals, at every
move of seeded games of every variant (random play and the rule bots, some knobs, under the
rules before issue 47's reading), hash to what main gave before them
(`tests/belief/belief_piece_pins.py`: the digests below were recorded on main at 110a23b, before
`Search.replay`, `Tracker._told` and `Tracker._survivors`).
Also: each shortcut on its own agrees with the search it stands in for."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from mafia_env.belief import track
from mafia_env.belief.track import Tracker
from mafia_env.engine.events import Ev
from mafia_env.engine.game import Game
from mafia_env.variants import VARIANTS
from tests.belief.belief_piece_pins import piece_digest
from tests.engine.test_game_data import random_move

# (variant, seats, seed, moves, knobs, policy) -> the digest main gave
PINS = {
    ("sport", 10, 0, 150, None, "random"): "0137ba51c05594beb062",
    ("sport", 10, 1, 150, None, "random"): "b48c8c4f472483577c32",
    ("club", 10, 0, 150, None, "random"): "9a2c60acfb42ef284044",
    ("online", 10, 0, 120, None, "random"): "aac862c61eb6e7a77eaa",
    ("online", 10, 1, 120, (("heal_told", True),), "random"): "654ae20f303c0ce372aa",
    ("forum", 10, 0, 80, None, "random"): "2b6befb00911199837ce",
    ("minimal", 10, 0, 150, None, "random"): "8436036bcd1b1d648cdf",
    ("sport", 6, 2, 150, (("mafia_see_shots", True),), "random"): "778656c2fdf168193390",
    ("club", 8, 3, 150, None, "random"): "f0315f9c1ab40eac0576",
    ("sport", 10, 0, 400, None, "rule"): "54a527a0c11a8f8d65dd",
    ("sport", 10, 1, 400, None, "rule"): "3fd229af8c83fd72ba3e",
    ("sport", 10, 2, 400, None, "rule"): "2cdb99eb1ca9b36fa388",
    ("sport", 10, 3, 400, None, "rule"): "697556c76761b58dc46a",
    ("club", 10, 0, 400, None, "rule"): "18c57137e475dd5f0e62",
    ("club", 10, 1, 400, None, "rule"): "5eff1ee7311f310fac79",
    ("online", 10, 0, 400, None, "rule"): "786bcaa13d315806b95b",
    ("online", 10, 1, 400, None, "rule"): "7aa231521f8d13c03d60",
    ("minimal", 10, 0, 400, None, "rule"): "dd392bb4ffb7b50b2e77",
    ("city", 8, 1, 400, None, "rule"): "002be0c74190892d31c8",
}
SLOW_PINS = {  # city-10 has particle seats: which of 48 fixed deals they accept is pinned
    ("city", 8, 0, 100, None, "random"): "15de4c539059b11a2efe",
    ("city", 10, 0, 60, None, "random"): "0d2d92851b93e09cb349",
    ("forum", 10, 0, 400, None, "rule"): "f51ae569a11097b86c25",
}


# today's rules (issue 47's reading: the meeting, the gestures, the discussion, a forfeit on
# no number, the nominees' votes), recorded on lane/engine with the reading: later speed-ups
# must not move these either
PINS_THIRD = {
    ("sport", 10, 0, 150, None, "random"): "047fbf0ed5ebae1f68e8",
    ("online", 10, 0, 150, None, "random"): "d36d63e1f85980a78c93",
    ("city", 8, 1, 150, None, "random"): "02014ce15585c19ac6b5",
    ("club", 10, 0, 400, None, "rule"): "43de4c82e3abc8ab3096",
    ("sport", 10, 0, 400, None, "rule"): "3d6b974e6ad7367c8cb0",
    ("online", 10, 0, 400, None, "rule"): "a0811c3b811562dacea9",
}


def _digest(case: tuple, era: int | None = 3) -> str:
    """A case's digest under the rules of `era` (the pins of main: era 3, before issue 47)."""
    variant, n, seed, moves, knobs, policy = case
    return piece_digest(variant, n, seed, moves, dict(knobs or ()), policy, era)


@pytest.mark.parametrize("case", list(PINS), ids=lambda c: "-".join(map(str, c[:3])) + c[5])
def test_the_piece_is_what_main_gave(case):
    assert _digest(case) == PINS[case]


@pytest.mark.parametrize("case", list(PINS_THIRD), ids=lambda c: "-".join(map(str, c[:3])) + c[5])
def test_the_piece_under_todays_rules_is_pinned(case):
    """SPORT-N3, CITY-N10, CLUB-E8, ONLINE-D5, D6 in the seeded games: the values pinned."""
    assert _digest(case, None) == PINS_THIRD[case]


@pytest.mark.long  # the short pins above cover every variant; these play longer tables
@pytest.mark.parametrize("case", list(SLOW_PINS), ids=lambda c: "-".join(map(str, c[:3])) + c[5])
def test_the_piece_is_what_main_gave_long(case):
    assert _digest(case) == SLOW_PINS[case]


@pytest.mark.parametrize("variant", ["sport", "online", "forum", "club"])
def test_each_shortcut_agrees_with_the_search(variant, monkeypatch):
    """Every class a shortcut decides (a replayed branch, a check or shown role against it, a
    team that would have won, a night the night model gives no mass) gets the same answer
    from the search itself, and every class the search accepts is accepted with the
    shortcuts."""
    rules = VARIANTS[variant]
    n = rules.default_players
    checked = {"replay": 0, "ruled out": 0}
    original = Tracker._classes

    def both(self, seg, rows, kept=False):
        first, inverse, leaves = original(self, seg, rows, kept)
        if not seg.complete:
            return first, inverse, leaves
        fresh = dataclasses.replace(seg, cache={}, paths=[])  # no branch to play again
        for i, leaf in zip(first.tolist(), leaves, strict=True):
            monkeypatch.setattr(track, "NIGHT_MODEL", False)
            plain = self._probe(fresh, rows[i])  # the search alone
            monkeypatch.setattr(track, "NIGHT_MODEL", True)
            assert (leaf is None) == (plain is None), (variant, seg.first, rows[i].tolist())
            checked["replay" if leaf is not None else "ruled out"] += 1
        return first, inverse, leaves

    monkeypatch.setattr(Tracker, "_classes", both)
    big = variant == "forum"  # (its hunts make the plain searches slow)
    for seed in range(1 if big else 2):
        g = Game(rules, n, seed)
        rng = random.Random(seed)
        ts = [Tracker(g, s) for s in ((0,) if big else (0, 3, 7))]
        for _ in range(60 if big else 120):
            if g.over:
                break
            g.apply(*random_move(g, rng))
            for t in ts:
                t.update()
    assert checked["replay"] > (2 if big else 10) and checked["ruled out"] > 0, checked


def test_a_class_against_the_seats_check_is_ruled_out_without_a_search(monkeypatch):
    """The sheriff's checks rule out, unsearched, the classes whose checked seat disagrees;
    every deal kept agrees with every check, and the truth is kept."""
    rules = VARIANTS["sport"]
    searched = set()
    original = Tracker._probe

    def probe(self, seg, row):
        searched.add((id(seg), self.space.key_of(row, seg.involved, seg.living)))
        return original(self, seg, row)

    monkeypatch.setattr(Tracker, "_probe", probe)
    unsearched = 0
    for seed in range(6):
        g = Game(rules, 10, seed)
        sheriff = next(s for s in range(10) if g.roles[s].label == "sheriff")
        t = Tracker(g, sheriff)
        rng = random.Random(seed)
        while not g.over and g.day < 4:
            g.apply(*random_move(g, rng))
            t.update()
        for seg in t.segments:
            unsearched += sum((id(seg), key) not in searched for key in seg.cache)
        live = t.deals[t.current()]
        assert (live == t.space.as_row(g.roles)).all(axis=1).any()
        for kind, actor, target, value, _ in g.events:
            if kind == Ev.CHECK and actor == sheriff:
                assert np.all(t.space.mafia_of[live[:, target]] == bool(value))
    assert unsearched > 0


@pytest.mark.parametrize("variant", ["sport", "club", "minimal"])
@pytest.mark.parametrize("lost", [1, 3])
def test_the_tables_unsettled_searches_and_day_replays_change_nothing(variant, lost, monkeypatch):
    """The table's tracker with its shortcuts (a night's classes searched unsettled while it
    follows the game, `track.UNSETTLED`; a day segment's classes accepted by one replay,
    `track.DAY_REPLAY`) and without them: the same deals kept at every move, and where the
    game stops being followed (at its `lost`-th segment here: `_resettle` makes the night's
    searches again in order) the same reference world and the same branch for every class
    searched from then on."""
    from mafia_env.belief.search import state_key

    original = Tracker._follow
    calls: dict[int, int] = {}
    lost_at: dict[int, int] = {}  # tracker -> the index of the segment where it stopped
    pair: dict[int, Tracker] = {}

    def follow(self, seg):
        # `fast` stops following at its `lost`-th segment or the first after it where a class
        # was searched unsettled; `plain` (stepped after it) at the same segment
        j = len(self.segments) - 1
        calls[id(self)] = calls.get(id(self), 0) + 1
        redo = seg.__dict__.get("unsettled")
        if self._inp is not None and id(self) in lost_at:  # (`plain`: told where by `fast`)
            if lost_at[id(self)] == j:
                self._inp = None
                return None
        elif self._inp is not None and calls[id(self)] >= lost and _searched(redo):
            self._inp = None
            lost_at[id(self)] = lost_at[id(pair[id(self)])] = j
            return None
        return original(self, seg)

    monkeypatch.setattr(Tracker, "_follow", follow)

    def _searched(redo):  # a class of the segment searched unsettled
        return bool(redo) and any(type(op) is tuple for op in redo[2])

    resettle = Tracker._resettle
    redone = [0]

    def counted(self, seg):
        redone[0] += _searched(seg.__dict__.get("unsettled"))
        return resettle(self, seg)

    monkeypatch.setattr(Tracker, "_resettle", counted)

    def read(t, on):
        monkeypatch.setattr(track, "UNSETTLED", on)
        monkeypatch.setattr(track, "DAY_REPLAY", on)
        return t.current().copy()

    replayed = 0
    rules = VARIANTS[variant]
    for seed in range(4):
        g = Game(rules, 10, seed)
        rng = random.Random(seed)
        lost_at.clear()
        calls.clear()
        fast, plain = Tracker(g, track.TABLE), Tracker(g, track.TABLE)
        pair.clear()
        pair[id(fast)] = plain
        for _ in range(150):
            if g.over:
                break
            g.apply(*random_move(g, rng))
            assert np.array_equal(read(fast, True), read(plain, False)), (variant, seed)
            assert (fast.ref is None) == (plain.ref is None)
            if fast.ref is not None:
                assert state_key(fast.ref) == state_key(plain.ref), (variant, seed)
        for j, (a, b) in enumerate(zip(fast.segments, plain.segments, strict=True)):
            assert a.cache.keys() == b.cache.keys()
            for key, leaf in a.cache.items():
                assert (leaf is None) == (b.cache[key] is None), (variant, seed, key)
                replayed += type(leaf) is track.Lazy and not a.night
            if j < lost_at.get(id(fast), len(fast.segments)):
                continue  # (followed: no branch of it is asked for)
            assert a.paths == b.paths, (variant, seed, j)
            for t, seg in ((fast, a), (plain, b)):  # every branch searched now, in order
                for key, leaf in list(seg.cache.items()):
                    seg.cache[key] = t.leaf(seg, leaf) if seg.night else leaf
                if not seg.night:
                    for key, leaf in list(seg.cache.items()):
                        seg.cache[key] = t.leaf(seg, leaf)
            for key, leaf in a.cache.items():
                other = b.cache[key]
                assert (leaf is None) == (other is None), (variant, seed, key)
                if leaf is not None:
                    assert leaf.steps() == other.steps(), (variant, seed, j, key)
    assert redone[0] > 0 or variant == "club"  # (club's random nights: every class replays)
    if variant == "sport":
        assert replayed > 0


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_quiet_moves_read_nothing_of_the_deal(variant):
    """`track.quiet` (a public move the tracker plays in its own reference world,
    `track.IN_PLACE`) against the watch: every move it calls quiet, played in a copy of the
    game with its roles and teams watched, reads no seat's, and hands the floor to a public
    turn. Random play of every variant, its default rules and the benchmark tasks' (era 2)."""
    from mafia_env.belief.track import _apply_watched, fork
    from mafia_env.engine.kinds import PUBLIC_TURNS
    from mafia_env.tasks import task_knobs

    quiet = loud = 0
    for rules in (VARIANTS[variant], VARIANTS[variant].with_knobs(**task_knobs(variant, 6))):
        for seed in range(6):
            g = Game(rules, 10 if variant != "city" else 8, seed)
            rng = random.Random(seed)
            while not g.over:
                act, target, value = random_move(g, rng)
                step = ("act", g.actor, act, target, value)
                if track.quiet(g, step):
                    h = fork(g)
                    assert not _apply_watched(h, step)[0], (variant, seed, step)
                    assert h.over or h.turn in PUBLIC_TURNS
                    quiet += 1
                else:
                    loud += 1
                g.apply(act, target, value)
    assert quiet > loud / 4, (quiet, loud)  # (most public moves are quiet)


@pytest.mark.parametrize("variant", ["sport", "club", "online", "minimal"])
def test_quiet_moves_in_place_change_nothing(variant, monkeypatch):
    """Trackers that play quiet moves in their own reference world (`track.IN_PLACE`) and
    trackers that play every move in a copy keep the same deals at every move, with the same
    reference world: the table's and each seat's, the rule bots' games (which speak)."""
    from mafia_env.belief.search import state_key
    from tests.belief.belief_piece_pins import _mover

    moved = 0
    for seed in range(2):
        g = Game(VARIANTS[variant], 10, seed)
        move = _mover(g, "rule", seed)
        seats = [track.TABLE, 0, 3]
        fast = [Tracker(g, s) for s in seats]
        plain = [Tracker(g, s) for s in seats]
        while not g.over and len(g.inputs) < 250:
            g.apply(*move())
            for a, b in zip(fast, plain, strict=True):
                monkeypatch.setattr(track, "IN_PLACE", True)
                mine = a.current().copy()
                monkeypatch.setattr(track, "IN_PLACE", False)
                assert np.array_equal(mine, b.current()), (variant, seed, a.seat)
                assert (a.ref is None) == (b.ref is None)
                if a.ref is not None:
                    assert state_key(a.ref) == state_key(b.ref), (variant, seed, a.seat)
                moved += a._mine is not None
    assert moved > 0


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_nights_victim_told_of_the_town_keeps_what_the_search_keeps(variant, monkeypatch):
    """`Tracker._told`'s night victim (`track.TOLD_VICTIMS`: where the mafia's shot is the
    night's only kill and never hits its own team, as in MINIMAL, a seat killed at night is
    of the town) against the search it stands in for: the table's tracker and every seat's own
    keep the same deals at every move of seeded random games, with it and without it; on
    MINIMAL it rules classes out (else it never applies)."""
    told = [0]
    original = Tracker._told

    def counted(self, seg):
        out = original(self, seg)
        told[0] += sum(e[0] == Ev.ELIMINATED and e[3] == 1 for e in seg.want) * track.TOLD_VICTIMS
        return out

    monkeypatch.setattr(Tracker, "_told", counted)

    def read(t, on):
        monkeypatch.setattr(track, "TOLD_VICTIMS", on)
        t.__dict__.pop("_town", None)
        return t.current().copy()

    rules = VARIANTS[variant]
    fired = 0
    for seed in range(3):
        g = Game(rules, 10, seed)
        rng = random.Random(seed)
        seats = [track.TABLE, *range(0, 10, 3)]
        pairs = [(Tracker(g, s), Tracker(g, s)) for s in seats]
        for _ in range(150):
            if g.over:
                break
            g.apply(*random_move(g, rng))
            for fast, plain in pairs:
                assert np.array_equal(read(fast, True), read(plain, False)), (variant, seed)
        monkeypatch.setattr(track, "TOLD_VICTIMS", True)
        fired += sum(fast._town_victims for fast, _ in pairs)
    if variant == "minimal":
        assert fired and told[0] > 0
    else:
        assert fired == 0
