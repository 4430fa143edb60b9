"""`mafia_env.openspiel`: python_mafia passes OpenSpiel's own checks, its information-state
tensor is the AEC env's vector observation, resampling stays in the information set, and
OpenSpiel's ISMCTS bot plays it to the end."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import mafia_env  # noqa: E402
from mafia_env.engine.events import Outcome  # noqa: E402
from mafia_env.errors import ConfigError  # noqa: E402
from mafia_env.openspiel import format_knobs, parse_knobs  # noqa: E402
from mafia_env.variants import VARIANTS  # noqa: E402


def load(variant: str = "sport", **params) -> pyspiel.Game:
    return pyspiel.load_game("python_mafia", {"variant": variant, **params})


def deal(state, rng: random.Random) -> None:
    """Play the chance nodes of the deal at random."""
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, probs)[0])


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.slow
def test_random_sim_test_with_serialization(variant):
    pyspiel.random_sim_test(load(variant), num_sims=1, serialize=True, verbose=False)


def test_load_game_parameters_and_knobs():
    game = load("sport", num_players=10)
    assert game.num_players() == 10
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_distinct_actions() == mafia_env.raw_env("sport").action_space("player_1").n
    short = load("sport", knobs="max_days:2;night_order:mafia+don+sheriff")
    assert short.rules.max_days == 2
    assert short.rules.night_order == "mafia don sheriff"
    assert pyspiel.load_game(str(short)).rules.max_days == 2  # the game string carries them
    with pytest.raises(ConfigError):
        load("sport", knobs="no_such_knob:1")
    knobs = {"max_days": 3, "zero_night": False, "mafia_count": None, "night_order": "mafia don"}
    assert parse_knobs(format_knobs(knobs)) == knobs


def test_the_deal_is_chance_with_the_role_table_odds():
    game = load("sport")
    state = game.new_initial_state()
    assert state.is_chance_node()
    odds = dict(state.chance_outcomes())
    labels = {game.roles[i].label: p for i, p in odds.items()}
    assert labels == pytest.approx({"civilian": 0.6, "sheriff": 0.1, "mafia": 0.2, "don": 0.1})
    deal(state, random.Random(1))
    assert state.current_player() == state.game.actor
    counts = mafia_env.raw_env("sport").rules.role_counts(10)
    assert sorted(state.game.roles) == sorted(r for r, c in counts.items() for _ in range(c))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_infostate_tensor_is_the_aec_vector_observation(variant):
    game = load(variant)
    rng = random.Random(3)
    state = game.new_initial_state()
    deal(state, rng)
    env = mafia_env.raw_env(variant, roles=[r.label for r in state.game.roles])
    env.reset(seed=0)
    env._new_game(game.seed)  # the engine's own randomness seeded as the OpenSpiel game's
    agents = env.possible_agents
    steps = 0
    while not state.is_terminal():
        for p in range(game.num_players()):
            want = env.observe(agents[p])["observation"]
            np.testing.assert_array_equal(np.array(state.information_state_tensor(p)), want)
            np.testing.assert_array_equal(np.array(state.observation_tensor(p)), want)
        legal = state.legal_actions()
        mask = env.observe(agents[state.current_player()])["action_mask"]
        assert legal == np.flatnonzero(mask).tolist()
        action = rng.choice(legal)
        state.apply_action(action)
        env.step(action)
        steps += 1
    assert env.unwrapped.game.winner == state.game.winner
    assert steps > 10


def test_returns_follow_the_winning_team():
    game = load("sport")
    state = game.new_initial_state()
    rng = random.Random(5)
    deal(state, rng)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    g = state.game
    returns = state.returns()
    if g.winner is Outcome.DRAW:
        assert returns == [0.0] * 10
    else:
        team = {Outcome.TOWN: 0, Outcome.MAFIA: 1}[g.winner]
        assert returns == [1.0 if t == team else -1.0 for t in g.teams]


def test_clone_is_independent():
    game = load("sport")
    state = game.new_initial_state()
    rng = random.Random(2)
    deal(state, rng)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    before = state.information_state_tensor(0)
    copy = state.clone()
    assert str(copy) == str(state) and copy.history() == state.history()
    while not copy.is_terminal():
        copy.apply_action(rng.choice(copy.legal_actions()))
    assert state.information_state_tensor(0) == before
    assert not state.is_terminal()


@pytest.mark.parametrize("variant", ["sport", "city", "forum"])
def test_resample_from_infostate_stays_in_the_information_set(variant):
    game = load(variant)
    rng = random.Random(11)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    deal(state, rng)
    redealt = checked = 0
    while not state.is_terminal() and checked < 12:
        for _ in range(rng.randrange(1, 25)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            break
        p = state.current_player()
        other = state.resample_from_infostate(p, sampler)
        assert other.current_player() == p
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.information_state_tensor(p) == state.information_state_tensor(p)
        assert other.legal_actions() == state.legal_actions()
        assert other.game.roles[p] == state.game.roles[p]
        redealt += other.game.roles != state.game.roles
        # the copy is a state like any other: its history replays to it
        assert str(game.deserialize_state(other.serialize())) == str(other)
        checked += 1
    assert checked >= 3
    assert redealt > 0


def test_infostate_string_hides_the_others_roles():
    game = load("sport")
    a, b = game.new_initial_state(), game.new_initial_state()
    for state, order in ((a, [0, 1, 2, 3]), (b, [0, 1, 3, 2])):
        # seat 1 civilian in both; the sheriff, mafia and don sit elsewhere
        roles = [game.roles.index(r) for r in _roles(game, order)]
        for i in roles:
            state.apply_action(i)
    assert a.game.roles[0] == b.game.roles[0] and a.game.roles != b.game.roles
    civilian = 0
    assert a.information_state_string(civilian) == b.information_state_string(civilian)
    assert a.information_state_tensor(civilian) == b.information_state_tensor(civilian)
    mafia = next(s for s in range(10) if a.game.teams[s] == 1 and b.game.teams[s] == 1)
    assert a.information_state_string(mafia) != b.information_state_string(mafia)


def _roles(game, order):
    """Return a SPORT deal: civilians, then the sheriff, mafia and don moved by `order`."""
    from mafia_env.engine.roles import Role

    tail = [Role.SHERIFF, Role.MAFIA, Role.DON, Role.MAFIA]
    tail = [tail[i] for i in order]
    return [Role.CIVILIAN] * 6 + tail


def test_openspiel_ismcts_bot_plays_a_sport_game_to_the_end(games):
    from open_spiel.python.algorithms import ismcts, mcts

    game = load("sport")
    rs = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=games(2, 4), random_state=rs)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
            continue
        searched += len(state.legal_actions()) > 1
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert searched > 20
    assert sorted(set(state.returns())) in ([-1.0, 1.0], [0.0])


def test_the_observation_string_names_every_set_cell_of_the_vector():
    """The observation string (no perfect recall): each piece's set cells by their index in
    the piece, row-major, with the value where it is not 1, as `np.argwhere` reads them."""
    from mafia_env.openspiel import MafiaObserver

    def reference(obs: MafiaObserver, state, player: int) -> str:
        parts = []
        for name, view in obs.layout.views(state.vector(player)).items():
            cells = [
                ".".join(map(str, i)) + ("" if view[tuple(i)] == 1 else f"={view[tuple(i)]:g}")
                for i in np.argwhere(view)
            ]
            if cells:
                parts.append(f"{name}[{' '.join(cells)}]")
        return f"p{player} " + " ".join(parts)

    for variant in sorted(VARIANTS):
        game = load(variant)
        obs = MafiaObserver(game, perfect_recall=False)
        state, rng, moves = game.new_initial_state(), random.Random(1), 0
        deal(state, rng)
        while not state.is_terminal():
            if moves % 15 == 0:
                for p in range(game.num_players()):
                    assert obs.string_from(state, p) == reference(obs, state, p), (variant, moves)
            if state.is_chance_node():
                deal(state, rng)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
