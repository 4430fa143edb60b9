"""The information-set sampler (`mafia_env.infoset.sample`): what a search gets depends only on
the seat's view and its own random stream, never on the real game's hidden facts.

The one sampler behind `Game.resample`, `InfoSet.sample`, the search bot and OpenSpiel's
`resample_from_infostate`: two games a seat cannot tell apart give the same worlds from the
same random stream; no world is the real game; the others' hidden choices in a world follow
its own deal (searched under it), not the real holders'.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import mafia_env
from mafia_env.belief import tracker
from mafia_env.engine.game import Game
from mafia_env.engine.roles import Role, Team
from mafia_env.infoset import InfoSet, sample
from mafia_env.seating.games import observation, play_until
from mafia_env.variants import VARIANTS
from tests.belief.belief_brute import seen_events
from tests.engine.test_game_data import TABLES, game_at, random_move
from tests.scripting import Table

SAME_VIEW = [("city", 13), ("forum", 10), ("sport", 10)]


def fingerprint(world: Game) -> tuple:
    """What a world is: its deal, its log, its moves and its future's chance."""
    return world.roles, world.events, world.inputs, world.rng.getstate()


def lived(variant: str, n: int, seed: int, moves: int, seat: int, deal=None) -> Game | None:
    """Play `moves` random moves, the seat's tracker brought up to date after every one (so
    that it saw its options at each of its turns); None if the game ended first."""
    g = Game(VARIANTS[variant], n, seed, deal)
    t = tracker(g, seat)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.over:
            return None
        g.apply(*random_move(g, rng))
        t.update()
    return None if g.over else g


def replayed(world: Game, seat: int) -> Game | None:
    """Return a fresh game dealt as `world` whose moves are `world`'s, the seat's tracker
    brought up to date after every move (None where the engine's own chance, a lot, drew
    otherwise: not a twin)."""
    g = Game(world.rules, world.n, 12345, list(world.roles))
    t = tracker(g, seat)
    for s, act, target, value, _, _ in world.inputs:
        if act < 0:
            return None  # (random play calls no fouls)
        if g.over or g.actor != s:
            return None
        g.apply(act, target, value)
        t.update()
    return g if seen_events(g, seat) == seen_events(world, seat) else None


@pytest.mark.parametrize(("variant", "n"), SAME_VIEW)
def test_games_a_seat_cannot_tell_apart_give_the_same_worlds(variant, n):
    """The twin is a world drawn from the first game's belief: the same public history and
    the same private view for the seat, another deal and other hidden choices. Sampled with
    the same seeded stream, both give the same worlds (asked fresh, and followed move by
    move with the seat's options seen at its turns)."""
    pairs = differ = 0
    for seed in range(2):
        for moves in (0, 30) if variant == "forum" else (0, 30, 90):  # (forum's deduction: slow)
            g = game_at(variant, n, seed, moves)
            if g.over:
                continue
            for seat in (g.actor, (g.actor + 5) % n):
                twin = sample(g, seat, random.Random(seed + 1000))[0]
                assert seen_events(twin, seat) == seen_events(g, seat)
                a = [fingerprint(w) for w in sample(g, seat, random.Random(seed), 3)]
                b = [fingerprint(w) for w in sample(twin, seat, random.Random(seed), 3)]
                assert a == b, (variant, seed, moves, seat)
                pairs += 1
                differ += twin.roles != g.roles
            seat = seed % n
            g = lived(variant, n, seed, moves, seat)
            if g is None:
                continue
            twin = replayed(sample(g, seat, random.Random(seed + 1000))[0], seat)
            if twin is None:
                continue
            a = [fingerprint(w) for w in sample(g, seat, random.Random(seed), 2)]
            b = [fingerprint(w) for w in sample(twin, seat, random.Random(seed), 2)]
            assert a == b, ("lived", variant, seed, moves, seat)
            pairs += 1
    assert pairs >= 8
    assert differ > 0  # the twins were other deals, not copies


SPORT_6 = ["sheriff", "civilian", "mafia", "civilian", "don", "civilian"]


def to_the_sheriffs_check(checked: int) -> Game:
    """SPORT at 6: the mafia kill seat 2, the don skips, the sheriff (seat 1) checks
    `checked`: seen only by him."""
    t = Table("sport", SPORT_6, seed=0)
    t.speeches()
    t.act(3, "night", 2)
    t.act(5, "night", 2)
    t.act(5, "pass")
    t.act(1, "night", checked)
    return t.game


def test_a_hidden_check_does_not_reach_the_worlds():
    """The sheriff checks seat 3 in one game, seat 4 in the other: seat 6 (a civilian) saw
    the same, so its worlds are the same, whatever the real sheriff chose."""
    one, other = to_the_sheriffs_check(3), to_the_sheriffs_check(4)
    assert [e for e in one.events if e[0].name == "CHECK"] != [
        e for e in other.events if e[0].name == "CHECK"
    ]
    assert seen_events(one, 5) == seen_events(other, 5)
    for k in range(5):
        a = one.resample(5, random.Random(k))
        b = other.resample(5, random.Random(k))
        assert fingerprint(a) == fingerprint(b)


@pytest.mark.parametrize(("variant", "n"), TABLES)
def test_no_world_is_the_real_game_and_its_checks_follow_its_own_deal(variant, n):
    """Never the real game (nor its seed, which deals its roles); every check in a world was
    made by the world's holder of the checking role, and answered under the world's deal."""
    checks = 0
    for seed in range(2):
        for moves in (0, 50, 150):
            g = game_at(variant, n, seed, moves)
            for seat in {g.actor if not g.over else 0, 1}:
                for w in sample(g, seat, random.Random(seed * 7 + moves), 3):
                    assert w is not g and w.seed == 0  # not the seed that dealt `g`
                    assert w.events is not g.events and w.rng is not g.rng
                    assert seen_events(w, seat) == seen_events(g, seat)
                    for kind, actor, target, value, _ in w.events:
                        if kind.name != "CHECK":
                            continue
                        checks += 1
                        if w.roles[actor] is Role.DON:
                            assert value == (w.roles[target] is Role.SHERIFF)
                        else:
                            assert w.roles[actor] is Role.SHERIFF
                            assert value == (w.roles[target].team is Team.MAFIA)
    if variant in ("sport", "city", "club"):
        assert checks > 0


def test_every_path_draws_from_the_one_sampler():
    """InfoSet.sample, InfoSet.worlds and Game.resample give what `sample` gives."""
    env = mafia_env.raw_env("sport")
    env.reset(seed=3)
    for _ in range(40):
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    game = env.unwrapped.game
    seat = (game.actor + 2) % 10
    info, _ = observation(env, seat, "infoset")
    assert isinstance(info, InfoSet)
    want = fingerprint(sample(game, seat, random.Random(9))[0])
    assert fingerprint(info.sample(random.Random(9))) == want
    assert fingerprint(info.worlds(random.Random(9), 1)[0]) == want
    assert fingerprint(game.resample(seat, random.Random(9))) == want
    for w in info.worlds(random.Random(1), 4):
        assert w is not game


def test_resample_from_infostate_is_the_same_sampler():
    pyspiel = pytest.importorskip("pyspiel")
    import mafia_env.openspiel  # noqa: F401

    game = pyspiel.load_game("python_mafia", {"variant": "sport", "num_players": 10})
    st = game.new_initial_state()
    rng = random.Random(0)
    while st.move_number() < 50:
        if st.is_chance_node():
            st.apply_action(st.chance_outcomes()[0][0])
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    p = (st.current_player() + 1) % 10
    u = 0.25
    w = st.resample_from_infostate(p, lambda: u)
    drawn = sample(st.game, p, random.Random(int(u * 2**53)))[0]
    assert w.game is not st.game and w.game.roles == drawn.roles
    assert w.information_state_string(p) == st.information_state_string(p)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_search_bot_plays_legal_games_on_every_variant(variant):
    """One seat searched (a small budget), rule bots elsewhere, to the end: every move legal
    (the raw env raises on an illegal one)."""
    from baselines.ismcts import SearchPolicy
    from baselines.rule import RulePolicy

    env = mafia_env.raw_env(variant)
    n = env.unwrapped.n
    bot = SearchPolicy(variant, n, seed=1, worlds=2, width=2)
    rule = RulePolicy(variant, n, 1)
    env.reset(seed=5)
    game = env.unwrapped.game
    seat = next(s for s in range(n) if game.teams[s] is Team.TOWN)
    assert play_until(env, [bot if s == seat else rule for s in range(n)]) is None
    assert game.over and bot.searched > 0
