"""`mafia_env.belief`: deduction equals a brute force over every deal and hidden history, the
truth is never ruled out, nothing leaks, the seat's own knowledge is exact, Bayes under the
model that plays is calibrated, and the belief reaches the envs, the observation and search."""

from __future__ import annotations

import random

import numpy as np
import pytest

import mafia_env
from mafia_env.belief import Belief, belief, tracker
from mafia_env.belief.calibration import play_and_score
from mafia_env.belief.search import swap_deal
from mafia_env.engine.events import PUBLIC, Cause, Ev
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import Act, Turn
from mafia_env.engine.roles import Role, Team
from mafia_env.errors import ConfigError
from mafia_env.variants import VARIANTS
from tests.belief.belief_brute import seen_events, support
from tests.engine.test_game_data import random_move

SMALL = [("sport", 6), ("club", 6), ("minimal", 5), ("online", 6), ("forum", 7), ("city", 8)]
TASKS = [("sport", 10), ("city", 13), ("club", 10), ("online", 10), ("forum", 10), ("minimal", 10)]


def played(variant: str, n: int, seed: int, moves: int, seats=None, fouls: bool = False):
    """Play `moves` random moves with a tracker per seat brought up to date every move (so
    that it sees each seat's options at its turns); return the game and the trackers."""
    g = Game(VARIANTS[variant], n, seed)
    rng = random.Random(seed)
    seats = range(n) if seats is None else seats
    ts = {s: tracker(g, s) for s in seats}
    for _ in range(moves):
        if g.over:
            break
        if fouls and g.rules.fouls_remove and rng.random() < 0.02:
            g.foul(rng.randrange(n))  # the moderator's call (SPORT-F1), at any moment
        else:
            g.apply(*random_move(g, rng))
        for t in ts.values():
            t.update()
    return g, ts


def kept(t) -> set[tuple[int, ...]]:
    return {tuple(r) for r in t.deals[t.current()].tolist()}


# ---------------------------------------------------------------- deduction


def test_swap_deal_sets_every_field_a_deal_sets():
    """`swap_deal` gives a game the state it would have had, dealt otherwise (every field
    that follows from the deal: a new one in the engine would fail this)."""
    for name, rules in VARIANTS.items():
        n = rules.default_players
        a = Game(rules, n, 1)
        deal = list(a.roles)
        random.Random(2).shuffle(deal)
        b = Game(rules, n, 1, deal)
        swap_deal(a, tuple(deal))
        skip = {"events", "rng", "inputs", "queue", "actor", "turn", "stage"}
        for k, v in b.__dict__.items():
            if k not in skip and k not in ("don_introduced",):
                assert a.__dict__[k] == v, (name, k)


@pytest.mark.parametrize(("variant", "n"), SMALL)
@pytest.mark.slow
def test_deduction_is_the_brute_force_support(variant, n):
    """Every deal and every hidden history of a small table: the deals under which the seat
    sees exactly its events and options are the ones deduction keeps."""
    budget = {"city": 1, "forum": 1}.get(variant, 2)
    for seed in range(budget):
        for moves in (14,) if variant in ("forum", "online") else (14, 34):  # big nights: slow
            g, ts = played(variant, n, seed, moves)
            seats = [s for s in ts if variant != "city" or g.teams[s] is Team.MAFIA]
            for s in seats[:3]:
                assert kept(ts[s]) == support(g, s, ts[s].masks), (variant, seed, moves, s)


@pytest.mark.slow
@pytest.mark.long  # make test plays the brute force above; 100 s of CPU here
@pytest.mark.parametrize(("variant", "n"), SMALL)
def test_deduction_is_the_brute_force_support_long(variant, n, games):
    # FORUM's hunts and ONLINE's doctor grow the brute force fastest (ONLINE at 34 moves: 325 s,
    # FORUM: over 15 min): their late points, and the other variants' extra seeds, are
    # `make test-long`'s; `make test` plays one seed and the points that take seconds
    big = variant in ("forum", "online")
    if games(0, 1):
        seeds, points = ((2,), (25, 34)) if big else (range(2, 5), (10, 25, 45, 70))
    else:
        seeds, points = ((2,), (20,)) if big else ((2,), (10, 25, 45))
    for seed in seeds:
        for moves in points:
            g, ts = played(variant, n, seed, moves, fouls=True)
            for s in ts:
                if variant == "city" and g.teams[s] is not Team.MAFIA:
                    continue
                assert kept(ts[s]) == support(g, s, ts[s].masks), (variant, seed, moves, s)


def _truth_kept(variant: str, n: int, games: int, every: int, seats=None, moves=600) -> int:
    points = 0
    for seed in range(games):
        g = Game(VARIANTS[variant], n, seed)
        rng = random.Random(seed)
        ts = [tracker(g, s) for s in (range(n) if seats is None else seats)]
        m = 0
        while not g.over and m < moves:
            g.apply(*random_move(g, rng))
            m += 1
            for t in ts:
                t.update()
                if m % every == 0:
                    truth = t.space.as_row(g.roles)
                    if t.exact:
                        live = t.current()
                        assert ((t.deals == truth).all(axis=1) & live).any(), (variant, seed)
                    else:  # particles: the truth, drawn or not, is accepted by every segment
                        assert t.possible(truth), (variant, seed, m)
                    points += 1
    return points


@pytest.mark.parametrize(("variant", "n"), TASKS)
def test_the_truth_is_never_ruled_out(variant, n):
    if variant in ("city", "forum"):  # the big nights: three seats, the first days (short run)
        assert _truth_kept(variant, n, 1, 7, seats=(0, 4, 8), moves=150) > 0
    else:
        assert _truth_kept(variant, n, 1, 7) > 0


@pytest.mark.slow
@pytest.mark.long  # make test: the short truth check above, and FORUM-N3's regression test
@pytest.mark.parametrize(("variant", "n"), TASKS)
def test_the_truth_is_never_ruled_out_thousands(variant, n):
    """Thousands of points, 12 games a task, every seat, every third move (`make test-long`:
    FORUM-10's seed 0 is where FORUM-N3's lot once ruled the truth out; city-13's particles
    take about two minutes a game)."""
    assert _truth_kept(variant, n, 12, 3) > 1000


def test_forum_n3_the_lot_counts_the_request_the_seat_made_first():
    """FORUM-N3: the hunt requests are drawn by lot among all of the night's requests. The
    seat that takes the round's first turn and asks has its request in the lot before the
    hidden players' own: when another's request is drawn, deduction keeps the truth (it
    once forced the lot to the first request, its own, and ruled every deal out)."""
    deal = [Role.CIVILIAN, Role.CIVILIAN, Role.MAFIA, Role.CIVILIAN, Role.MANIAC]
    deal += [Role.DOCTOR, Role.CIVILIAN]
    for seed in (0, 1):  # both draw seat 3's request (seat 3 dies, a failed hunt)
        g = Game(VARIANTS["forum"], 7, seed, deal)
        rng = random.Random(seed)
        ts = {s: tracker(g, s) for s in (0, 3, 4)}
        while not any(e[0] == Ev.MORNING and e[3] == 1 for e in g.events):
            if g.turn is Turn.HUNT and g.actor in (0, 3):  # 0: town as mafia; 3: town as maniac
                g.apply(Act.HUNT, *((1, 0) if g.actor == 0 else (6, 1)))
            elif g.turn is Turn.HUNT:
                g.apply(Act.PASS, -1, -1)
            else:
                g.apply(*random_move(g, rng))
            for t in ts.values():
                t.update()
        hunted = [e for e in g.events if e[0] == Ev.ELIMINATED and e[3] == Cause.HUNTER]
        assert [e[2] for e in hunted] == [3], seed  # the draw fell on the second request
        truth = ts[0].space.as_row(g.roles)
        for s, t in ts.items():
            assert ((t.deals == truth).all(axis=1) & t.current()).any(), (seed, s)


def test_the_seats_own_knowledge_is_exact():
    """Own role, teammates, own checks' answers and shown roles: probability 1 or 0."""
    for name in ("sport", "club", "online", "city"):
        rules = VARIANTS[name]
        n = rules.default_players
        g, _ = played(name, n, 3, 120)
        for s in range(n):
            b = belief(g, s)
            assert b.marginal(g.roles[s])[s] == pytest.approx(1.0)
            bit = 1 << s
            for kind, actor, target, value, vis in g.events:
                if vis != PUBLIC and not vis & bit:
                    continue
                if kind == Ev.TEAMMATE and actor == s:
                    assert b.team(Team.MAFIA)[target] == pytest.approx(1.0)
                elif kind == Ev.REVEAL:
                    assert b.marginal(Role(value))[target] == pytest.approx(1.0)
                elif kind == Ev.CHECK and actor == s and g.roles[s] is Role.SHERIFF:
                    black = b.team(Team.MAFIA)[target]
                    assert black == pytest.approx(1.0 if value else 0.0)
            if g.teams[s] is Team.MAFIA:  # the mafia know their whole team
                m = b.team(Team.MAFIA)
                assert set(np.flatnonzero(m > 0.5)) == {
                    x for x in range(n) if g.teams[x] is Team.MAFIA
                }
                assert np.all((m < 1e-9) | (m > 1 - 1e-9))


def test_no_leak_the_same_view_gives_the_same_belief():
    """Two games in which the seat saw the same events, whatever the hidden deal: the same
    belief (deduction, and Bayes under a model)."""
    for name, n in (("sport", 10), ("online", 10), ("club", 10)):
        for seed in range(2):
            g, _ = played(name, n, seed, 90, seats=[])
            if g.over:
                continue
            for s in (0, 4):
                other = g.resample(s, random.Random(seed + 7))
                assert seen_events(other, s) == seen_events(g, s)
                for model in (None, "random"):
                    a = belief(g, s, model).matrix()
                    b = belief(other, s, model).matrix()
                    assert np.allclose(a, b), (name, seed, s, model)


# ---------------------------------------------------------------- the API


def test_belief_api():
    g, _ = played("sport", 10, 5, 60)
    b = g.belief(3)
    assert isinstance(b, Belief) and b.exact
    assert b.roles == ("civilian", "sheriff", "mafia", "don")
    m = b.matrix()
    assert m.shape == (10, 4) and np.allclose(m.sum(axis=1), 1)
    assert np.allclose(b.team("town") + b.team("mafia"), 1)
    assert np.allclose(b.team("maniac"), 0)
    assert b.entropy == pytest.approx(np.log(b.size))  # deduction: uniform
    assert b.prob([r.label for r in g.roles]) == pytest.approx(1 / b.size)
    assert b.prob(["civilian"] * 10) == 0.0
    with pytest.raises(ConfigError):
        b.marginal("wizard")
    with pytest.raises(ConfigError):
        b.team("wizards")
    with pytest.raises(ConfigError):
        g.belief(11)
    for world in b.sample(random.Random(1), 3):  # in the seat's information set
        assert seen_events(world, 3) == seen_events(g, 3)
        assert (world.actor, world.turn) == (g.actor, g.turn)
        assert b.prob([r.label for r in world.roles]) > 0


def test_env_and_parallel_belief():
    env = mafia_env.env("sport", 10)
    env.reset(seed=2)
    for _ in range(30):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    u = env.unwrapped
    b = u.belief("player_4")
    assert np.allclose(b.matrix(), u.game.belief(3).matrix())
    par = mafia_env.parallel_env("sport", 10)
    par.reset(seed=2)
    assert par.belief("player_1").matrix().shape == (10, 4)
    with pytest.raises(mafia_env.errors.MafiaError):
        u.belief("player_99")


@pytest.mark.parametrize(("variant", "n"), TASKS)
def test_the_belief_piece_of_the_observation(variant, n):
    """Option belief="deduction": a piece (n x roles) after every other, each seat's own
    deduction; off by default (the default observation keeps its size)."""
    plain = mafia_env.env(variant, n)
    env = mafia_env.env(variant, n, belief="deduction")
    lay, base = env.unwrapped.obs_layout, plain.unwrapped.obs_layout
    R = len(lay.spec.roles)
    assert lay.size == base.size + n * R
    assert lay.offsets["belief"] == (base.size, (n, R))
    assert "belief" not in base.offsets
    env.reset(seed=1)
    for step, agent in enumerate(env.agent_iter()):
        obs, _, term, trunc, _ = env.last()
        if term or trunc or step > 25:
            break
        piece = lay.views(obs["observation"])["belief"]
        seat = int(agent.split("_")[1]) - 1
        assert np.allclose(piece, env.unwrapped.belief(agent).matrix(), atol=1e-6)
        assert piece[seat].max() == pytest.approx(1.0)  # its own role, certain
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    flat = mafia_env.env(variant, n, obs_mode="flat", belief="deduction")
    flat.reset(seed=1)
    assert flat.observe(flat.agent_selection).shape == (lay.size,)
    with pytest.raises(ConfigError):
        mafia_env.env(variant, n, belief="bayes")


def test_the_belief_piece_in_the_batched_api():
    from mafia_env.vector import VectorMafia

    vec = VectorMafia("sport", 2, seed=0, belief="deduction")
    obs, masks, info = vec.reset()
    off, _shape = vec.obs_layout.offsets["belief"]
    for _ in range(20):
        for b in range(2):
            m = vec.games[b].belief(int(info["seat"][b])).matrix()
            assert np.allclose(obs[b, off : off + m.size], m.ravel(), atol=1e-6)
        acts = (masks > 0).argmax(axis=1)
        obs, masks, _, _, info = vec.step(acts)


# ---------------------------------------------------------------- Bayes


def test_probs_of_the_policies():
    from baselines.rule import RulePolicy
    from mafia_env.seating.policies import RandomPolicy, action_probs

    env = mafia_env.raw_env("sport", 10)
    env.reset(seed=3)
    bot = RulePolicy("sport", 10, 0)
    rows, masks = [], []
    for _ in range(60):
        o = env.observe(env.agent_selection)
        rows.append(o["observation"].copy())
        masks.append(o["action_mask"].copy())
        env.step(bot.act(o["observation"], o["action_mask"]))
    X, M = np.array(rows), np.array(masks)
    for policy in (bot, RandomPolicy()):
        p = action_probs(policy, X, M)
        assert np.allclose(p.sum(axis=1), 1) and not p[M == 0].any()
    p = bot.probs_batch(X, M)
    r = int(np.argmin(p.max(axis=1)))  # a row where the bot picks among equals
    counts = np.zeros(M.shape[1])
    for seed in range(300):
        bot.seed(seed)
        counts[bot.act(X[r], M[r])] += 1
    assert np.abs(counts / 300 - p[r]).max() < 0.12
    u = action_probs(RandomPolicy(), X, M)
    assert np.allclose(u[M > 0], (1 / M.sum(axis=1, keepdims=True) * np.ones_like(u))[M > 0])


@pytest.mark.parametrize("opponent", ["random", "rule"])
def test_bayes_is_calibrated_under_the_model_that_plays(opponent):
    """Games played by P, belief with model=P: log-loss below deduction's and the prior's,
    and a small calibration error (the full table: scripts/belief_calibration.py)."""
    r = play_and_score("sport", 10, opponent, games=6, queries=6, seed=11)
    assert r["deduction"]["log_loss"] <= r["prior"]["log_loss"] + 1e-9
    if opponent == "rule":  # the rule bots' play tells much: Bayes is far ahead
        assert r["bayes"]["log_loss"] < r["deduction"]["log_loss"] - 0.1
    else:  # random play tells little (through the nights' counts): the strict bar is slow
        assert r["bayes"]["log_loss"] < r["deduction"]["log_loss"] + 0.01
    assert r["bayes"]["ece"] < 0.05


@pytest.mark.slow
@pytest.mark.long  # make test: the six-game calibration test above
@pytest.mark.parametrize("opponent", ["random", "rule"])
def test_bayes_is_calibrated_at_20000_predictions(opponent):
    """Issue 27's bar in `make test-long`: ECE under 0.03 at 20,000 predictions, log-loss
    below deduction's and the uniform prior's (sport-10; every task:
    scripts/belief_calibration.py)."""
    r = play_and_score("sport", 10, opponent, games=70, queries=10, seed=5)
    assert r["bayes"]["predictions"] >= 20_000
    assert r["bayes"]["ece"] < 0.03
    assert r["bayes"]["log_loss"] < r["deduction"]["log_loss"] < r["prior"]["log_loss"]


def test_bayes_keeps_the_seats_own_knowledge_and_the_truth():
    g, _ = played("sport", 10, 4, 110, seats=[])
    for s in range(10):
        b = belief(g, s, "random")
        assert b.marginal(g.roles[s])[s] == pytest.approx(1.0)
        assert b.prob([r.label for r in g.roles]) > 0
        d = belief(g, s)
        assert np.all(b.matrix()[d.matrix() == 0] < 1e-12)  # never beyond deduction


# ---------------------------------------------------------------- search


def test_resample_from_infostate_draws_from_the_posterior():
    """python_mafia: with a model, the world drawn is in the player's information set and
    its deal one the player's Bayes belief gives weight."""
    pyspiel = pytest.importorskip("pyspiel")
    import mafia_env.openspiel  # noqa: F401

    game = pyspiel.load_game("python_mafia", {"variant": "sport", "num_players": 10})
    st = game.new_initial_state()
    rng = random.Random(0)
    while st.move_number() < 60:
        if st.is_chance_node():
            st.apply_action(st.chance_outcomes()[0][0])
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    p = st.current_player()
    b = belief(st.game, p, "rule")
    for model in (None, "rule"):
        w = st.resample_from_infostate(p, rng.random, model=model)
        assert w.information_state_string(p) == st.information_state_string(p)
        if model:
            assert b.prob([r.label for r in w.game.roles]) > 0


def test_the_search_bot_draws_worlds_from_the_posterior():
    from baselines.ismcts import SearchPolicy
    from mafia_env.seating.games import observation

    env = mafia_env.raw_env("sport", 10)
    env.reset(seed=4)
    for _ in range(43):  # the 40 moves of day 3's night, after SPORT-N3's meeting (3 moves)
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    seat = env.unwrapped.game.actor
    info, mask = observation(env, seat, "infoset")
    bot = SearchPolicy("sport", 10, 0, worlds=2, width=2, model="rule")
    assert bot.config.model == "rule"
    assert mask[bot.act(info, mask)]
    b = info.belief("rule")
    for world in b.sample(random.Random(0), 2):
        assert seen_events(world, seat) == seen_events(env.unwrapped.game, seat)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_text_observation_carries_the_certainties(lang):
    """Option belief="deduction" in the text mode: the seat's certainties, each with why (the
    sheriff's checks: "player 3 is of the mafia: you checked him"); none without it."""
    from mafia_env.lang import table

    ui = table(lang).UI
    env = mafia_env.env("sport", 10, obs_mode="text", lang=lang, belief="deduction")
    plain = mafia_env.env("sport", 10, obs_mode="text", lang=lang)
    env.reset(seed=3)
    plain.reset(seed=3)
    u = env.unwrapped
    sheriff = next(s for s in range(10) if u.game.roles[s] is Role.SHERIFF)
    checked = said = False
    for _ in range(400):
        if u.game.over:
            break
        agent = env.agent_selection
        obs, *_ = env.last()
        text = obs["observation"]
        assert env.observation_space(agent)["observation"].contains(text)
        seat = int(agent.split("_")[1]) - 1
        sure = dict(u.belief(agent).certain())
        if seat == sheriff and checked:
            assert ui["why_checked"] in text
            said = True
        for s in sure:
            assert ui["certain"] in text and f"{s + 1}" in text
        if not sure:
            assert ui["certain"] not in text
        assert ui["certain"] not in plain.observe(agent)["observation"]
        a = int(np.flatnonzero(obs["action_mask"])[-1])
        env.step(a)
        plain.step(a)
        checked = checked or any(e[0] == Ev.CHECK and e[1] == sheriff for e in u.game.events)
    assert said


def test_calibration_cells_of_two_seeds_merge_exactly():
    """scripts/belief_calibration.py --add: two runs' summaries merge into the summary of
    all their predictions (counts, log-loss, ECE of all and of the uncertain ones, bins); a
    part written before its open bins were kept gives no ``ece_open``; a seed twice is an
    error."""
    from mafia_env.belief.calibration import Scores, merge, merge_cells

    rng = np.random.default_rng(3)
    parts = [Scores(), Scores()]
    whole = Scores()
    for i in range(80):  # queries of 3 roles for 4 other seats, some certain
        m = rng.dirichlet(np.ones(3), size=5)
        m[rng.random(5) < 0.3] = np.eye(3)[0]
        truth = [int(rng.integers(3)) for _ in range(5)]
        parts[i % 2].add(m, truth, seat=0)
        whole.add(m, truth, seat=0)
    a, b, w = (s.summary() for s in (*parts, whole))
    got = merge(a, b)
    assert got["predictions"] == w["predictions"]
    for key in ("log_loss", "ece", "ece_open"):
        assert got[key] == pytest.approx(w[key], abs=1e-12)
    assert [x["count"] for x in got["bins"]] == [x["count"] for x in w["bins"]]
    for x, y in zip(got["bins"] + got["bins_open"], w["bins"] + w["bins_open"], strict=True):
        assert (x["bin"], x["count"]) == (y["bin"], y["count"])
        assert x["predicted"] == pytest.approx(y["predicted"], abs=1e-12)
        assert x["observed"] == pytest.approx(y["observed"], abs=1e-12)
    old = {k: v for k, v in a.items() if k != "bins_open"}
    assert merge(old, b)["ece_open"] is None
    cell = {"prior": a, "games": {"played": 3}}  # written before seeds were kept: seed 0
    two = merge_cells(cell, {"prior": b, "games": {"played": 4, "seeds": [1]}})
    assert two["games"] == {"played": 7, "seeds": [0, 1]}
    with pytest.raises(ValueError, match="another --seed"):
        merge_cells(two, {"prior": b, "games": {"played": 1, "seeds": [1]}})


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_deal_space_allows_is_every_seats_role_allowed(variant):
    """`DealSpace.allows` (which reads only the seats a matrix constrains) against the plain
    check of every seat, over every seat's facts at every move of a seeded random game;
    `allowed_matrix` gives the same rows from its cache as made afresh."""
    from mafia_env.belief.deals import DealSpace
    from mafia_env.engine.knowledge import deal_constraints

    g = Game(VARIANTS[variant], 8, 5)
    space = DealSpace(g.rules, g.n)
    deals = space.enumerate(space.allowed_matrix(None))
    rng = random.Random(5)
    checked = constrained = 0
    while not g.over and checked < 400:
        for seat in range(g.n):
            facts = deal_constraints(g, seat)
            m = space.allowed_matrix(facts)
            fresh = np.array([[r in roles for r in space.roles] for roles in facts])
            assert np.array_equal(m, fresh)
            plain = m[np.arange(g.n)[None, :], deals].all(axis=1)
            assert np.array_equal(space.allows(m, deals), plain)
            checked += 1
            constrained += int(not plain.all())
        g.apply(*random_move(g, rng))
    assert constrained > 0


@pytest.mark.parametrize("variant, n", TASKS)
def test_class_keys_group_by_the_seats_roles_and_the_rests_counts(variant, n):
    """`DealSpace.class_keys` against the plain key of each deal (its roles at the seats, then
    each role's count among the other living seats): deals share a class exactly when they
    share the key, and the classes come in the order of the key read as one number, column j
    weighing 32**j (the order the tracker searches them in); for seats and living sets of
    every size, the table's deals or its particles."""
    from mafia_env.belief.deals import DealSpace

    space = DealSpace(VARIANTS[variant], n)
    allowed = space.allowed_matrix(None)
    if space.count(allowed) <= 20_000:
        deals = space.enumerate(allowed)
    else:
        deals = space.sample(allowed, random.Random(0), 2048)
    rng = np.random.default_rng(n)
    roles = len(space.roles)
    for trial in range(60):
        seats = tuple(sorted(rng.choice(n, size=int(rng.integers(0, 5)), replace=False).tolist()))
        living = rng.random(n) < (0.3 if trial % 3 == 0 else 0.8)
        rows = deals[rng.random(len(deals)) < 0.5]
        first, inverse = space.class_keys(rows, seats, living)
        rest = living.copy()
        rest[list(seats)] = False
        counts = [(rows[:, rest] == r).sum(axis=1)[:, None] for r in range(roles)]
        key = np.concatenate([rows[:, list(seats)], *counts], axis=1).astype(np.int64)
        if not rest.any():
            key = key[:, : len(seats)]
        keys = [tuple(k) for k in key.tolist()]
        assert len(first) == len(set(keys))
        assert all(inverse[i] == c for c, i in enumerate(first))
        assert all(keys[j] == keys[first[c]] for j, c in enumerate(inverse.tolist()))
        if key.shape[1] <= 12:
            code = [sum(v * 32**j for j, v in enumerate(k)) for k in keys]
            assert [code[i] for i in first] == sorted(set(code))
        if rest.any() and len(rows):
            assert space.key_of(rows[first[-1]], seats, living) == keys[first[-1]]
