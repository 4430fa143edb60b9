"""One setup and one payoff (issue 26 items 1 and 2): `GameSpec.make` and `Game.returns`."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import mafia_env
from mafia_env.actions import ActionLayout
from mafia_env.engine import spec as spec_module
from mafia_env.engine.events import Outcome
from mafia_env.engine.game import Game
from mafia_env.engine.roles import Role, Team
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.observe import ObsLayout
from mafia_env.variants import VARIANTS
from mafia_env.vector import VectorMafia

DEAL = ["don", "mafia", "mafia", *["civilian"] * 6, "sheriff"]


# ------------------------------------------------------------------ the setup


def test_make_checks_every_step_once_with_clear_errors():
    cases = [
        (("chess",), {}, r"unknown variant 'chess'; variants are: city"),
        (("sport", 3), {}, r"variant 'sport' supports 6 to 14 players; got num_players=3"),
        (("sport",), {"speed": 1}, r"unknown knob 'speed' for variant 'sport'; knobs are"),
        (("sport",), {"tie": "coin"}, r"knob 'tie' must be one of"),
        (("minimal", 6), {"mafia_count": 3}, r"mafia_count=3 is too many for 6 players"),
        (("sport",), {"roles": ["don"]}, r"roles must be a list of 10 role names"),
        (("sport",), {"roles": ["maniac"] * 10}, r"roles list deals 10 maniac, but"),
        (("sport",), {"obs": {"colour": True}}, r"unknown observation options \['colour'\]"),
    ]
    for args, kwargs, message in cases:
        with pytest.raises(ConfigError, match=message):
            GameSpec.make(*args, **kwargs)


def test_make_returns_one_spec_and_the_layouts_are_built_once():
    spec = GameSpec.make("sport", 10, max_days=4)
    assert spec is GameSpec.make("sport", 10, max_days=4)
    assert (spec.variant, spec.n, spec.knobs, spec.deal) == ("sport", 10, (("max_days", 4),), None)
    assert spec.rules.max_days == 4 and spec.knob_dict == {"max_days": 4}
    assert GameSpec.make("sport").n == VARIANTS["sport"].default_players
    assert GameSpec.make(spec) is spec  # a spec is taken as it is
    a, b = mafia_env.env(spec), mafia_env.env("sport", 10, max_days=4)
    assert a.spec is b.spec is spec
    assert a.layout is b.layout is ActionLayout.of(spec)
    assert a.obs_layout is b.obs_layout is ObsLayout.of(spec)
    assert a.observer.layout is a.obs_layout and a.observer is not b.observer
    dealt = GameSpec.make(spec, roles=DEAL)  # over a spec: its rules, size and knobs
    assert dealt.deal == tuple(Role[r.upper()] for r in DEAL) and dealt.knobs == spec.knobs
    assert ActionLayout.of(dealt) is ActionLayout.of(spec)  # same rules and size: shared
    assert GameSpec.make(dealt, speech_acts=2).deal == dealt.deal  # the deal carries over
    assert GameSpec.make(dealt, 9).deal is None  # another size: no deal
    with pytest.raises(ConfigError, match=r"mafia_count=1 does not fit|roles list deals"):
        GameSpec.make(dealt, mafia_count=1)  # the deal no longer fits the role table


def test_observation_options_key_the_layout_caches(monkeypatch):
    monkeypatch.setitem(spec_module.OBS_OPTIONS, "extra", "a test option")
    spec = GameSpec.make("minimal")
    other = spec.with_obs(extra=True)
    assert other is not spec and other.obs == (("extra", True),) and other.rules is spec.rules
    assert GameSpec.make("minimal", obs={"extra": True}).obs == other.obs
    assert spec.with_obs() is spec and other.with_obs(extra=True) is other
    built = []
    assert other.cached("thing", lambda s: built.append(s.obs) or len(built)) == 1
    assert other.cached("thing", lambda s: built.append(s.obs) or len(built)) == 1  # once
    assert spec.cached("thing", lambda s: built.append(s.obs) or len(built)) == 2  # its own
    assert built == [(("extra", True),), ()]
    with pytest.raises(ConfigError, match=r"unknown observation options \['nope'\]; .*extra"):
        spec.with_obs(nope=1)


def test_a_spec_pickles_without_its_layouts():
    spec = GameSpec.make("sport", roles=DEAL, max_days=3)
    ActionLayout.of(spec)
    again = pickle.loads(pickle.dumps(spec))
    assert again.layouts == {} and again.deal == spec.deal and again.knobs == spec.knobs
    assert again.rules == spec.rules and ActionLayout.of(again).size == ActionLayout.of(spec).size


def test_every_constructor_takes_a_spec_and_the_old_arguments():
    from baselines.evaluate import parse_config
    from baselines.ismcts import SearchPolicy
    from baselines.ppo.agent import team_matrix
    from baselines.ppo.ppo_config import make_config
    from baselines.rule import RulePolicy

    spec = GameSpec.make("minimal", 7, roles=["mafia", "mafia", *["civilian"] * 5])
    env = mafia_env.env(spec)
    env.reset(seed=0)
    assert env.roles["player_1"] == "mafia" and env.n == 7
    par = mafia_env.parallel_env(spec)
    par.reset(seed=0)
    assert par.roles == env.roles and par.spec is spec
    vec = VectorMafia(spec, num_envs=2, seed=0)
    vec.reset()
    assert vec.n == 7 and vec.deal == list(spec.deal)
    old = VectorMafia(
        VARIANTS["minimal"], 2, 7, seed=0, roles=["mafia", "mafia", *["civilian"] * 5]
    )
    assert old.spec is spec  # a Rules and the old arguments: the same spec
    assert RulePolicy(spec).n == RulePolicy(VARIANTS["minimal"], 7, seed=1).n == 7
    assert RulePolicy(spec).layout is env.layout
    assert SearchPolicy(GameSpec.make("minimal", 7), worlds=1).layout is env.layout
    single = mafia_env.single_agent(GameSpec.make("minimal", 7), opponents="random")
    assert single.aec.n == 7
    cfg = make_config({"variant": "minimal", "num_players": 7, "knobs": {"max_days": 2}})
    assert cfg.game_spec() is GameSpec.make("minimal", 7, max_days=2)
    assert np.array_equal(team_matrix(cfg.game_spec()), team_matrix("minimal", {"max_days": 2}))
    ev = parse_config({"variant": "minimal", "num_players": 7, "matchups": [
        {"town": "random", "mafia": "random"}]})  # fmt: skip
    assert ev.game_spec() is GameSpec.make("minimal", 7)


def test_openspiel_loads_a_spec():
    mos = pytest.importorskip("mafia_env.openspiel")
    spec = GameSpec.make("minimal", 3, max_days=1, self_nomination=False)
    game = mos.load(spec)
    assert game.spec is spec and game.num_players() == 3
    assert str(game) == str(mos.load("minimal", 3, max_days=1, self_nomination=False))
    with pytest.raises(ConfigError, match="deals by chance"):
        mos.load(GameSpec.make("minimal", 3, roles=["mafia", "civilian", "civilian"]))


# ------------------------------------------------------------------ the payoff


def play_out(game: Game, seed: int) -> Game:
    rng = np.random.default_rng(seed)
    layout = ActionLayout.of(GameSpec.of(game.rules, game.n))
    while not game.over:
        game.apply(*layout.decoded[int(rng.choice(np.flatnonzero(layout.shared_mask(game))))])
    return game


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_returns_is_the_team_payoff(variant):
    rules = VARIANTS[variant]
    for seed in range(4):
        game = Game(rules, rules.default_players, seed)
        assert game.returns() == [0.0] * game.n  # while the game goes on
        play_out(game, seed)
        r = game.returns()
        if game.winner is Outcome.DRAW:
            assert r == [0.0] * game.n
        else:
            assert r == [1.0 if int(t) == int(game.winner) else -1.0 for t in game.teams]
            assert {r[s] for s in range(game.n) if game.teams[s] is Team(int(game.winner))} == {1.0}


def test_returns_of_a_stopped_game_and_every_layer_agrees():
    game = Game(VARIANTS["sport"], 10, 0)
    game.terminate(3)
    assert game.returns() == [0.0] * 3 + [-1.0] + [0.0] * 6
    env = mafia_env.env("minimal")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    ends = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            ends[agent] = reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    final = env.unwrapped.game.returns()
    assert [ends[a] for a in env.possible_agents] == final
    mos = pytest.importorskip("mafia_env.openspiel")
    state = mos.load("minimal").state_of(env.unwrapped.game)
    assert state.returns() == final


def test_the_variant_files_specs_outlive_the_bounded_cache():
    """Hundreds of knob settings later, a variant file's spec is the one made before (its
    layouts are shared by every spec of those rules and size: an env and a bot agree)."""
    before = GameSpec.make("minimal", 7, roles=["mafia", "mafia", *["civilian"] * 5])
    layout = ActionLayout.of(before)
    for days in range(2, 300):
        GameSpec.make("minimal", 7, max_days=days)
    assert ActionLayout.of(GameSpec.make("minimal", 7)) is layout
