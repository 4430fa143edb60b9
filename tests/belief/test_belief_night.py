"""The night model (`mafia_env.belief.night`) against brute force and against the search.

Brute force here plays every hidden night choice with the engine, one by one, each weighed
1/options (the seat's own choices and the teammates' shots it sees weighed 1: its view keeps
the true one), and every outcome of the engine's draws (a tie broken by lot, the hunt's lot)
weighed 1/range: the probability that uniform hidden play gives the seat its view of the
segment. The model's mass must be that number for every class of deals the seat keeps, on
small tables of every variant (few players alive), and what `Search.run(every=True)` adds up
on forum-10 and city-13 nights; where it is 0 the search finds no branch (deduction rules the
class out without one: `Tracker._probe_from`).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from mafia_env.actions import ActionLayout
from mafia_env.belief import track, tracker
from mafia_env.belief.night import Unsupported, night_mass
from mafia_env.belief.search import Chance, SearchTooLarge, expand_options
from mafia_env.belief.track import _apply
from mafia_env.engine.events import PUBLIC, Ev
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import PUBLIC_TURNS, Turn
from mafia_env.engine.roles import Team
from mafia_env.variants import get_variant


def _outcomes(g: Game, do) -> list[tuple[Game, float]]:
    """Apply `do` to copies of `g`, once per outcome of the engine's draws, each weighed."""
    out = []
    pending: list[tuple[int, ...]] = [()]
    while pending:
        script = pending.pop()
        chance = Chance(script)
        h = g.clone(rng=chance)
        h.events = []
        try:
            do(h)
        except (ValueError, RuntimeError):
            continue
        if chance.bad:
            continue
        p = 1.0
        for j, calls in enumerate(chance.calls):
            if j >= len(script):
                pending += [script + (0,) * (j - len(script)) + (v,) for v in range(1, calls)]
            p /= calls
        out.append((h, p))
    return out


def _brute(g: Game, want: list, seat: int, k: int = 0) -> float:
    """The probability that uniform hidden choices and draws from `g` reproduce `want`."""
    bit = 1 << seat
    for e in g.events:
        if (e[4] == PUBLIC or e[4] & bit) and e[0] != Ev.TALK:
            if k >= len(want) or e != want[k]:
                return 0.0
            k += 1
    if g.over or g.turn in PUBLIC_TURNS:
        return 1.0 if k == len(want) else 0.0
    options = expand_options(g)
    seen = g.actor == seat or (  # (a teammate's executor weighs 1/options, as in the search)
        g.turn is Turn.MAFIA_KILL
        and g.rules.mafia_see_shots
        and g.teams[seat] is Team.MAFIA
        and g.teams[g.actor] is Team.MAFIA
    )
    w = 1.0 if seen else 1.0 / len(options)
    total = 0.0
    for act in options:
        for h, p in _outcomes(g, lambda h, a=act: h.apply(*a)):
            total += w * p * _brute(h, want, seat, k)
    return total


def _cases(variant: str, n: int, games: int, living: int, seed: int, per_night: int = 8):
    """Yield (tracker, segment, deal) at the complete nights of random games with at most
    `living` players alive: a deal of each class the seat keeps, and of others it rules out."""
    rules = get_variant(variant)
    layout = ActionLayout(rules, n)
    rng = random.Random(seed)
    for gi in range(games):
        g = Game(rules, n, seed * 1000 + gi)
        seat = rng.randrange(n)
        while not g.over:
            legal = np.flatnonzero(layout.shared_mask(g)).tolist()
            g.apply(*layout.decoded[rng.choice(legal)])
        base = tracker(g, seat)
        base.update()
        kept = base.deals[base.live] if base.exact else base.deals
        drawn = base.space.sample(base.allowed, random.Random(gi), 100)
        for seg in base.segments:
            if not seg.night or seg.snapshot is None or not seg.complete:
                continue
            if seg.living.sum() > living:
                continue
            for rows in (kept, drawn):
                first, _ = base.space.class_keys(rows, seg.involved, seg.living)
                for i in first.tolist()[:per_night]:
                    yield base, seg, rows[i]


@pytest.mark.parametrize(
    "variant, n, living, games, zeros",
    [
        ("city", 8, 5, 4, 1),
        ("city", 13, 5, 3, 1),
        ("forum", 7, 5, 4, 1),
        ("forum", 10, 5, 3, 1),
        ("sport", 10, 5, 4, 1),
        ("club", 10, 5, 4, 0),  # (a club night rules out no class of these)
        ("online", 10, 5, 4, 1),
        ("minimal", 10, 6, 4, 1),
    ],
)
def test_the_night_model_is_the_brute_force_sum(variant, n, living, games, zeros, monkeypatch):
    monkeypatch.setattr(track, "PARTICLES", 64)  # city-13's deduction: its cost here
    checked = zero = 0
    for base, seg, row in _cases(variant, n, games, living, seed=5):
        try:
            mass = night_mass(base, seg, row)
        except Unsupported:
            continue
        g = base._start_game(seg, row)
        truth = sum(p * _brute(h, seg.want, base.seat) for h, p in _outcomes(g, _step(seg)))
        assert mass == pytest.approx(truth, rel=1e-9, abs=1e-15), (variant, row.tolist())
        checked += 1
        zero += truth == 0
    assert checked >= 10 and zero >= zeros, (checked, zero)


def _step(seg):
    return lambda h: _apply(h, seg.first)


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant, n, living",
    [
        ("forum", 10, 7),
        ("city", 13, 13),
        pytest.param("forum", 10, 10, marks=pytest.mark.long),  # (its first nights: minutes)
    ],
)
def test_the_night_model_is_the_searchs_sum(variant, n, living, monkeypatch):
    """Every night of a few random games, every class of deals: the model's mass is what
    the search adds up (where its search ends within a budget), and 0 exactly where the
    search for one branch finds none."""
    monkeypatch.setattr(track, "PARTICLES", 128)
    checked = zero = 0
    for base, seg, row in _cases(variant, n, 2 if living == n else 4, living, 7, per_night=6):
        try:
            mass = night_mass(base, seg, row)
        except Unsupported:
            continue
        search = seg.search(base.seat, row, budget=150_000)
        try:
            found = search.run(base._start_game(seg, row), seg.first, every=True)
        except SearchTooLarge:
            continue
        total = sum(leaf.mass for leaf in found)
        assert mass == pytest.approx(total, rel=1e-9, abs=1e-15), (variant, row.tolist())
        one = seg.search(base.seat, row).run(base._start_game(seg, row), seg.first)
        assert (mass > 0) == bool(one), (variant, row.tolist())
        checked += 1
        zero += mass == 0
    assert checked >= 20 and zero >= 3, (checked, zero)


def test_a_draw_in_the_opening_step_weighs_its_share():
    """MINIMAL's tie is broken by lot: each outcome of the draw weighs 1/tied, in the model
    and in the search's sum alike (the search weighed the draws after the first 1 before)."""
    rules = get_variant("minimal")
    layout = ActionLayout(rules, 10)
    found = 0
    for gi in range(40):
        g = Game(rules, 10, gi)
        rng = random.Random(gi)
        seat = rng.randrange(10)
        while not g.over:
            legal = np.flatnonzero(layout.shared_mask(g)).tolist()
            g.apply(*layout.decoded[rng.choice(legal)])
        base = tracker(g, seat)
        base.update()
        for seg in base.segments:
            if not seg.night or seg.snapshot is None or not any(e[0] == Ev.TIE for e in seg.want):
                continue
            row = base.deals[base.live][0]
            start = base._start_game(seg, row)
            truth = sum(p * _brute(h, seg.want, seat) for h, p in _outcomes(start, _step(seg)))
            search = seg.search(seat, row, budget=10**6)
            total = sum(leaf.mass for leaf in search.run(start, seg.first, every=True))
            assert night_mass(base, seg, row) == pytest.approx(truth, rel=1e-9)
            assert total == pytest.approx(truth, rel=1e-9)
            found += 1
        if found >= 3:
            break
    assert found >= 3


def test_segments_the_model_does_not_cover_are_left_to_the_search():
    """A segment under way, and the deal itself, raise `Unsupported`."""
    rules = get_variant("sport")
    layout = ActionLayout(rules, 10)
    g = Game(rules, 10, 3)
    rng = random.Random(3)
    t = tracker(g, 0)
    while g.day < 2 and not g.over:
        legal = np.flatnonzero(layout.shared_mask(g)).tolist()
        g.apply(*layout.decoded[rng.choice(legal)])
        t.update()
    row = t.deals[t.live][0]
    deal = t.segments[0]
    assert deal.snapshot is None
    with pytest.raises(Unsupported):
        night_mass(t, deal, row)
    night = next(s for s in t.segments if s.night and s.snapshot is not None)
    import dataclasses

    with pytest.raises(Unsupported):
        night_mass(t, dataclasses.replace(night, complete=False), row)
