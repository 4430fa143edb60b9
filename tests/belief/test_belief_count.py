"""The table's deals counted from the deaths (`mafia_env.belief.count`) are its tracker's.

Where `countable` holds, the table's deduction is the count's: at every move of seeded games
(random play and the rule bots, table sizes and knobs), the deals it keeps must be the ones
the table's `Tracker` keeps after its search, deal by deal, for the public table and for the
mafia team's (`within`). Where it does not hold, the store keeps the search; an event the count
does not read hands it to a Tracker, which then answers.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from mafia_env.belief import store
from mafia_env.belief.count import Counted, countable
from mafia_env.belief.deals import DealSpace
from mafia_env.belief.track import TABLE, Tracker
from mafia_env.engine.events import Cause, Ev, Outcome
from mafia_env.engine.game import Game
from mafia_env.engine.roles import Role
from mafia_env.tasks import get_task
from mafia_env.variants import VARIANTS
from tests.belief.test_belief_table import _mover
from tests.engine.test_game_data import random_move

CASES = [
    ("minimal", 10, None),
    ("minimal", 3, None),
    ("minimal", 5, None),
    ("minimal", 7, {"mafia_win": "majority"}),
    ("minimal", 8, {"mafia_count": 3}),
    ("minimal", 10, {"tie": "none", "zero_night": True}),
    ("club", 10, None),
    ("club", 6, None),
    ("club", 12, None),
    ("club", 10, "task"),  # the benchmark's club-10
    ("club", 9, {"mafia_win": "majority", "zero_night": False}),
    ("club", 10, {"reveal_on_death": "none"}),
    # a don, and victims that may be of the mafia (`self_shot`, `mafia_target_team`)
    ("sport", 10, None),
    ("sport", 7, None),
    ("sport", 10, "task"),  # the benchmark's sport-10
    ("sport", 10, {"self_shot": "lone"}),
    ("sport", 9, {"self_shot": "never"}),
    ("sport", 10, {"mafia_target_team": False}),
    ("minimal", 10, {"mafia_target_team": True}),
    ("minimal", 7, {"mafia_target_team": True, "self_shot": "lone"}),
    ("minimal", 8, {"self_shot": "always"}),
    ("minimal", 6, {"self_shot": "lone"}),
]


def _rules(variant: str, n: int, knobs):
    if knobs == "task":
        knobs = get_task(f"{variant}-{n}").play_knobs()
    return VARIANTS[variant].with_knobs(**knobs) if knobs else VARIANTS[variant]


def _same(counted: Counted, tracker: Tracker, where) -> None:
    assert np.array_equal(counted.deals, tracker.deals), where
    assert np.array_equal(counted.current(), tracker.current()), where


@pytest.mark.parametrize("variant, n, knobs", CASES)
@pytest.mark.parametrize("policy", ["random", "rule"])
def test_the_count_keeps_the_tables_deals(variant, n, knobs, policy):
    if knobs and policy != "random":
        pytest.skip("the rule bots play the variant's own table")
    rules = _rules(variant, n, knobs)
    seeds = range(12 if policy == "random" else 4)
    ruled_out = 0
    for seed in seeds:
        g = Game(rules, n, seed)
        assert countable(g.rules, g.roles), (variant, n, knobs)
        space = DealSpace(g.rules, g.n)
        team = store._team_within(g, space)
        pairs = [
            (Counted(g), Tracker(g, TABLE)),
            (Counted(g, within=team), Tracker(g, TABLE, within=team)),
        ]
        move = _mover(g, policy, seed)
        for _ in range(400):
            if g.over:
                break
            g.apply(*move())
            for c, t in pairs:
                _same(c, t, (variant, n, knobs, seed, len(g.events)))
        for c, _ in pairs:
            assert c.tracker is None  # (no event it does not read)
        ruled_out += int((~pairs[0][0].current()).sum())
    assert ruled_out  # the deaths told the table something


def test_a_game_over_tells_the_table_who_won():
    """The win check's outcome: the truth is never ruled out, and a town win leaves only deals
    whose mafia are all dead."""
    rules = VARIANTS["minimal"]
    space = DealSpace(rules, 7)
    towns = 0
    for seed in range(40):
        g, rng = Game(rules, 7, seed), random.Random(seed)
        c = Counted(g)
        while not g.over:
            g.apply(*random_move(g, rng))
        kept = c.deals[c.current()]
        truth = np.array([space.index[r] for r in g.roles])
        assert (kept == truth).all(axis=1).any(), seed
        if g.winner == Outcome.TOWN:
            dead = ~np.array(g.alive)
            assert ((kept == space.index[Role.MAFIA]) <= dead).all(), seed
            towns += 1
    assert towns


@pytest.mark.parametrize("variant", ["city", "online", "forum"])
def test_the_search_keeps_the_tables_it_cannot_count(variant):
    """A doctor, a putana, a maniac or a hunt: the table stays the search's."""
    g = Game(VARIANTS[variant], 10, 0)
    assert not countable(g.rules, g.roles)
    assert not any(isinstance(t, Counted) for t in _tables(g))  # (city's: no table at all)


def test_the_count_refuses_what_it_cannot_read():
    """Knobs under which a night's miss, a victim or a forfeit tells the table more."""
    base = VARIANTS["minimal"]
    for knobs in (
        {"mafia_pass": False},
        {"mafia_split": "forfeit"},
        {"reveal_on_death": "maniac"},
        {"mafia_kill": "don"},
    ):
        rules = base.with_knobs(**knobs)
        assert not countable(rules, Game(rules, 10, 0).roles), knobs
    assert countable(VARIANTS["club"], Game(VARIANTS["club"], 10, 0).roles)
    with pytest.raises(ValueError, match="table's view"):
        Counted(Game(base, 10, 0), 3)


def test_an_event_it_does_not_read_hands_the_table_to_the_search():
    """A forfeit (the mafia split under `mafia_split="forfeit"`, a rule set the store does not
    count, where a miss tells the table more than the count reads): the count hands over to a
    Tracker made then, which answers from there on as one made at the deal does."""
    rules = VARIANTS["minimal"].with_knobs(mafia_split="forfeit")
    handed = 0
    for seed in range(30):
        g = Game(rules, 10, seed)
        c, t, rng = Counted(g), Tracker(g, TABLE), random.Random(seed)
        while not g.over:
            g.apply(*random_move(g, rng))
            c.update()
            if c.tracker is not None:
                _same(c, t, seed)
        forfeit = any(e[0] == Ev.ELIMINATED and e[3] == Cause.FORFEIT for e in g.events)
        assert (c.tracker is not None) == forfeit
        handed += forfeit
    assert handed


@pytest.mark.parametrize("variant", ["club", "sport"])
def test_the_store_counts_the_tables_it_can(variant):
    g = Game(_rules(variant, 10, "task"), 10, 0)
    assert {type(t) for t in _tables(g)} == {Counted}


def _tables(g: Game) -> list:
    """The trackers of `g`'s tables (the public one, the mafia team's) once every seat asked."""
    for s in range(g.n):
        store.matrix(g, s)
    tables = [v for v in store._TRACKERS[g].values() if isinstance(v, store._Table)]
    return [t.tracker for t in tables]
