"""The belief piece from the table's deduction (`mafia_env.belief.store`) is every seat's own.

`store.matrix` gives most seats their marginals from one tracker a game, the table's (the
public events alone), its deals kept to those each seat's own facts allow. At every move of
seeded games of every variant (random play and the rule bots, some knobs), every seat's piece
must be what its own deduction tracker gives, bit for bit; the table must serve most of them.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from mafia_env.actions import ActionLayout
from mafia_env.belief import store
from mafia_env.belief.track import TABLE, Tracker
from mafia_env.engine.game import Game
from mafia_env.observe import VectorObserver
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import get_task
from mafia_env.variants import VARIANTS
from tests.engine.test_game_data import random_move

CASES = [
    ("sport", 10, None),
    ("sport", 8, {"mafia_see_shots": True}),
    ("club", 10, None),
    ("club", 8, None),
    ("club", 10, "task"),  # the benchmark's club-10: the mafia's shots hidden from each other
    ("minimal", 10, None),
    ("online", 10, None),
    ("city", 8, None),
    ("forum", 10, None),
]


def _mover(g: Game, policy: str, seed: int):
    if policy == "random":
        rng = random.Random(seed)
        return lambda: random_move(g, rng)
    layout = ActionLayout(g.rules, g.n)
    bot = load_policy(policy, variant=g.rules.name, num_players=g.n, seed=seed)
    obs = VectorObserver(g.rules, g.n)
    obs.reset(g)
    return lambda: layout.decoded[bot.act(obs.observe(g, g.actor), layout.shared_mask(g))]


@pytest.mark.parametrize("variant, n, knobs", CASES)
@pytest.mark.parametrize("policy", ["random", "rule"])
@pytest.mark.slow
def test_every_seats_piece_is_its_own_trackers(variant, n, knobs, policy):
    if knobs and policy != "random":
        pytest.skip("the rule bots play the variant's own table")
    if knobs == "task":
        knobs = get_task(f"{variant}-{n}").play_knobs()
    rules = VARIANTS[variant].with_knobs(**knobs) if knobs else VARIANTS[variant]
    shared = total = 0
    for seed in range(2):
        g = Game(rules, n, seed)
        move = _mover(g, policy, seed)
        own = [Tracker(g, s) for s in range(n)]
        for s in range(n):  # (both made at the deal: a tracker made later starts from more)
            store.matrix(g, s)
        for _ in range(200):
            if g.over:
                break
            g.apply(*move())
            for s in range(n):
                assert np.array_equal(store.matrix(g, s), own[s].matrix()), (variant, seed, s)
                shared += store._table_for(g, s) is not None
                total += 1
    table = store._table_for(g, 0)
    if variant not in ("city", "forum"):
        assert shared > total // 2, (shared, total)
        assert table is None or table.tracker.seat == TABLE


def test_the_table_sees_the_public_events_only():
    """The table's tracker reads no seat's private event and keeps every deal of the role
    table at the deal (no seat's facts)."""
    g = Game(VARIANTS["sport"], 10, 4)
    t = Tracker(g, TABLE)
    assert all(e[4] == -1 for e in t.seen)  # PUBLIC
    assert t.exact and len(t.deals) == t.space.count(t.space.allowed_matrix(None))
    assert t.role is None


@pytest.mark.parametrize("count", [True, False])
@pytest.mark.parametrize("policy", ["random", "rule"])
def test_sports_mafia_read_their_teams_table_by_day_and_go_on_from_it_by_night(
    policy, count, monkeypatch
):
    """SPORT's mafia (shots hidden from each other, a don): a member's piece is the mafia
    team's table (the public events among the deals the team knows) kept to its facts, and in
    a night under way after a move of its own, at its own turn that table's (the don's check
    after his shot), else its own tracker (it may know more: the night going on after the
    don's check tells him the sheriff lives), bit for bit its own tracker's at every move; the
    sheriff's the same from the public table. (The table is counted, `belief.count`: without
    the count, `store.COUNT` off, the night's tracker starts from the searched table's.)"""
    from mafia_env.engine.roles import Role, Team

    monkeypatch.setattr(store, "COUNT", count)
    served = {"team": 0, "night": 0, "sheriff": 0}
    for seed in range(3):
        g = Game(VARIANTS["sport"], 10, seed)
        move = _mover(g, policy, seed)
        own = [Tracker(g, s) for s in range(10)]
        for s in range(10):
            store.matrix(g, s)
        for _ in range(300):
            if g.over:
                break
            g.apply(*move())
            for s in range(10):
                assert np.array_equal(store.matrix(g, s), own[s].matrix()), (seed, s)
                table = store._table_for(g, s)
                if g.roles[s].team is Team.MAFIA and table is not None:
                    served["team"] += table.tracker._within is not None
                mine = store._mid_night(g, s) and g.roles[s].team is Team.MAFIA
                if mine and (table is not None or store._night_for(g, s) is not None):
                    served["night"] += 1
                if g.roles[s] is Role.SHERIFF and table is not None:
                    served["sheriff"] += 1
    assert all(served.values()), served


def test_matrices_fills_a_batch_in_one_call():
    games = [Game(VARIANTS["club"], 10, s) for s in range(4)]
    rng = random.Random(0)
    for g in games:
        for _ in range(30):
            g.apply(*random_move(g, rng))
    seats = [g.actor for g in games]
    out = store.matrices(games, seats)
    roles = len(store.deduction(games[0], 0).space.roles)
    assert out.shape == (4, 10 * roles) and out.dtype == np.float32
    for row, g, s in zip(out, games, seats, strict=True):
        assert np.array_equal(row, store.matrix(g, s).ravel())


@pytest.mark.parametrize("variant", ["club", "sport"])
def test_the_vector_env_fills_every_games_piece_at_once(variant):
    """`VectorMafia` with the option belief="deduction" writes every game's row as the
    observer with the piece writes it one row at a time, bit for bit."""
    from mafia_env.observe import ObsLayout
    from mafia_env.vector import VectorMafia

    vec = VectorMafia(variant, 4, seed=3, belief="deduction", backend="python")
    obs, masks, info = vec.reset()
    rng = np.random.default_rng(3)
    for _ in range(60):
        for b in range(4):
            one = VectorObserver(vec.rules, vec.n, ObsLayout.of(vec.spec))
            one.reset(vec.games[b])
            row = one.observe(vec.games[b], int(info["seat"][b]))
            assert np.array_equal(obs[b], row), b
            assert np.array_equal(vec.observe(b, int(info["seat"][b])), row), b
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, masks, _, _, info = vec.step(acts)


@pytest.mark.parametrize(
    "variant, n", [("sport", 10), ("club", 6), ("minimal", 5), ("sport", 7), ("online", 7)]
)
def test_the_lazy_piece_on_the_c_core_is_the_python_engines(variant, n):
    """`LazyBelief` over the C core computes the piece from each slot's game read from the
    core's event log (`LoggedGame`, the table counted) or its shadow game (the core's inputs
    played again in the Python engine), dropped where the game ends: the rows it fills and the
    seats it observes are the Python engine's env's, bit for bit, across many games."""
    from mafia_env import ccore
    from mafia_env.seat_obs import vector_env

    if not ccore.available():
        pytest.skip("no C core built here")
    envs = [
        vector_env(variant, 4, n, seed=5, belief="deduction", backend=b) for b in ("c", "python")
    ]
    assert envs[0]._shadows is not None and envs[1]._shadows is None
    # (the core logs its events and counts the table where it can: not ONLINE's)
    assert (envs[0]._logs is not None) == (variant != "online")
    outs = [e.reset() for e in envs]
    rng = np.random.default_rng(5)
    ended = 0
    for step in range(400):
        for e in envs:
            e.fill(np.arange(4))
        assert np.array_equal(envs[0].obs, envs[1].obs), step
        assert np.array_equal(outs[0][1], outs[1][1]), step
        if step % 25 == 0:
            for b in range(4):
                for s in range(n):
                    assert np.array_equal(envs[0].observe(b, s), envs[1].observe(b, s)), (step, b)
        masks = outs[0][1]
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        outs = [e.step(acts) for e in envs]
        ended += int(outs[0][3].sum())
    assert ended >= 4  # (games ended and their slots dealt anew)


@pytest.mark.parametrize(
    "variant, n, knobs",
    [
        ("sport", 10, None),
        ("sport", 8, {"mafia_see_shots": True}),
        ("club", 10, "task"),
        ("minimal", 10, None),
        ("sport", 10, "task"),
        ("sport", 10, {"self_shot": "lone"}),
        ("sport", 9, {"self_shot": "never", "mafia_target_team": False}),
        ("sport", 10, {"don_known": False, "reveal_on_death": "all"}),
        ("club", 8, {"reveal_on_death": "none"}),
        ("minimal", 10, {"self_shot": "always", "mafia_target_team": True}),
    ],
)
def test_the_piece_read_from_the_cores_log_is_every_seats_at_every_step(variant, n, knobs):
    """The piece `LazyBelief` keeps from one turn of a seat's to the next (the core's marks:
    no death, card shown or fact of the seat's own since, or the game's counts unchanged) and
    reads from the core's event log (the core's count, `Core.count_pieces`; else
    `store.counted_piece`), against the Python engine's env at every step of seeded games,
    knobs of the count included (the mafia's shot, cards shown, the don introduced): the
    acting seats' rows (`fill`) and every seat's view (`observe_many`, by day and by night),
    bit for bit. The log serves almost every row: the shadow game (the Python engine playing
    the game again) is made for few of them."""
    from mafia_env import ccore
    from mafia_env.seat_obs import LazyBelief, vector_env

    if not ccore.available():
        pytest.skip("no C core built here")
    if knobs == "task":
        knobs = get_task(f"{variant}-{n}").play_knobs()
    kw = dict(knobs or {})
    envs = [
        vector_env(variant, 6, n, seed=11, belief="deduction", backend=b, **kw)
        for b in ("c", "python")
    ]
    shadows = 0
    game = LazyBelief._game

    def counted(self, b):
        nonlocal shadows
        shadows += self is envs[0]
        return game(self, b)

    assert envs[0]._count is not None  # (the core counts these tables)
    outs = [e.reset() for e in envs]
    rng = np.random.default_rng(11)
    games = np.repeat(np.arange(6), n)
    seats = np.tile(np.arange(n), 6)
    rows = 0
    LazyBelief._game = counted
    try:
        for step in range(300):
            for e in envs:
                e.fill(np.arange(6))
            assert np.array_equal(envs[0].obs, envs[1].obs), step
            rows += 6
            if step % 3 == 0:
                views = [e.observe_many(games, seats) for e in envs]
                assert np.array_equal(*views), step
                rows += len(games)
            acts = np.array([rng.choice(np.flatnonzero(m)) for m in outs[0][1]])
            outs = [e.step(acts) for e in envs]
    finally:
        LazyBelief._game = game
    assert rows > 6000 and shadows < rows / 20, (shadows, rows)


def test_a_game_read_from_the_log_goes_to_its_shadow_at_an_event_the_count_does_not_read():
    """`LoggedGame.sync` reads the core's log; a death the count does not read (a forfeit:
    `count.hands_over`) or a table it does not count leaves the game to the shadow (the
    Python engine), where the count hands its table to a tracker."""
    from mafia_env.belief.count import hands_over
    from mafia_env.engine.events import PUBLIC, Cause, Ev
    from mafia_env.engine.roles import Role, Team
    from mafia_env.seat_obs import LoggedGame

    forfeit = (int(Ev.ELIMINATED), -1, 3, int(Cause.FORFEIT), PUBLIC)
    assert hands_over(forfeit)
    for cause in (Cause.VOTE, Cause.NIGHT, Cause.FOUL, Cause.REMOVED):
        assert not hands_over((int(Ev.ELIMINATED), -1, 3, int(cause), PUBLIC))

    class Core:  # (what LoggedGame asks of a core)
        def __init__(self, roles):
            self.roles, self.log = roles, []

        def deal(self, b):
            return [int(r) for r in self.roles], [int(r.team) for r in self.roles]

        def events(self, b, start=0):
            return self.log[start:]

        def status(self, b):
            return (0, 0, -1, -1, 0)

    roles = [Role.SHERIFF, Role.DON, Role.MAFIA] + [Role.CIVILIAN] * 7
    core = Core(roles)
    log = LoggedGame(core, 0, VARIANTS["sport"], 10)
    assert log.sync() and log.teams[1] is Team.MAFIA
    core.log.append((int(Ev.ELIMINATED), -1, 4, int(Cause.VOTE), PUBLIC))
    assert log.sync() and len(log.events) == 1
    core.log.append(forfeit)
    assert not log.sync() and not log.sync()
    city = [r for r, k in VARIANTS["city"].role_counts(10).items() for _ in range(k)]
    assert not LoggedGame(Core(city), 0, VARIANTS["city"], 10).sync()  # (a maniac: not counted)


def test_the_cores_count_is_the_python_engines_under_random_knobs():
    """The core's count (`Core.count_pieces`) against the Python engine's piece over random
    knob sets (`ccore.diff.belief_count_tables`: 8 tables the core counts among them), random
    play, the acting seats' rows at every step and every seat's view every fifth, bit for bit
    (`scripts/diff_belief_count.py` plays it for as long as asked)."""
    from mafia_env import ccore
    from mafia_env.ccore.diff import belief_count_tables

    if not ccore.available():
        pytest.skip("no C core built here")
    assert belief_count_tables(random.Random(29), tables=8, steps=100, games=4) is None
