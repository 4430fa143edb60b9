"""The game as data: clones, deep copies and pickles play on exactly as the original would,
the AEC env clones, records of format 1 still replay, and the stage machine keeps its table."""

from __future__ import annotations

import copy
import json
import pickle
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mafia_env
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import FOLLOWS, Stage
from mafia_env.records import FORMAT
from mafia_env.variants import VARIANTS

TABLES = [("sport", 10), ("city", 13), ("club", 10), ("online", 10), ("forum", 10), ("minimal", 8)]
RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"


def random_move(game: Game, rng: random.Random) -> tuple:
    """Return a uniformly drawn legal (act, target, value) of the acting player."""
    act, bits = rng.choice(game.legal())
    if bits is None:
        value = rng.randrange(3) if act.name == "ANSWER" else -1
        if act.name in ("CLAIM_ROLE", "ASK"):
            value = int(rng.choice(game.rules.roles_in_play()))
        return act, -1, value
    target = rng.choice([s for s in range(game.n) if bits >> s & 1])
    value = -1
    if act.name == "CLAIM_CHECK" or (act.name == "HUNT" and game.rules.hunt_status):
        value = rng.randrange(2)
    elif act.name == "ASK":
        value = int(rng.choice(game.rules.roles_in_play()))
    return act, target, value


def play_out(game: Game, seed: int, limit: int = 100_000) -> list:
    """Play `game` to its end with moves drawn from `seed`; return its events."""
    rng = random.Random(seed)
    for _ in range(limit):
        if game.over:
            break
        game.apply(*random_move(game, rng))
    return game.events


def game_at(variant: str, n: int, seed: int, moves: int) -> Game:
    game = Game(VARIANTS[variant], n, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.over:
            break
        game.apply(*random_move(game, rng))
    return game


def copies(game: Game) -> dict[str, Game]:
    return {
        "clone": game.clone(),
        "deepcopy": copy.deepcopy(game),
        "pickle": pickle.loads(pickle.dumps(game)),
    }


@pytest.mark.parametrize(("variant", "n"), TABLES)
def test_copies_play_on_exactly_and_never_touch_the_original(variant, n):
    """Clone, deepcopy and pickle at many points: same future, and independent."""
    for seed in range(6):
        for moves in (0, 7, 40, 120, 300):
            game = game_at(variant, n, seed, moves)
            before = list(game.events), list(game.inputs), game.stage, game.actor
            futures = {}
            for how, other in copies(game).items():
                assert other.events == game.events and other.stage == game.stage, how
                futures[how] = list(play_out(other, seed + 1000))
                assert (list(game.events), list(game.inputs), game.stage, game.actor) == before
            ours = play_out(game, seed + 1000)
            for how, events in futures.items():
                assert events == ours, f"{how} of {variant} at move {moves} plays differently"


@settings(max_examples=40, deadline=None)
@given(
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 600),
    later=st.integers(1, 60),
)
def test_stepping_a_copy_leaves_the_original_as_it_was(table, seed, moves, later):
    game = game_at(*table, seed, moves)
    state = pickle.dumps(game)
    other = game.clone()
    rng = random.Random(seed)
    for _ in range(later):
        if other.over:
            break
        other.apply(*random_move(other, rng))
    assert pickle.dumps(game) == state


def same_view(a, b) -> None:
    """Assert two envs show every agent the same thing now."""
    assert a.agent_selection == b.agent_selection
    for agent in a.possible_agents:
        x, y = a.observe(agent), b.observe(agent)
        assert np.array_equal(x["action_mask"], y["action_mask"])
        if isinstance(x["observation"], str):
            assert x["observation"] == y["observation"]
        else:
            assert np.array_equal(x["observation"], y["observation"])
    assert a._cumulative_rewards == b._cumulative_rewards
    assert a.terminations == b.terminations and a.truncations == b.truncations


@pytest.mark.parametrize("obs_mode", ["vector", "text"])
@pytest.mark.parametrize(("variant", "n"), TABLES)
def test_env_clone_same_selection_observations_and_future(variant, n, obs_mode):
    """`env.unwrapped.clone()` at several points: it and the original, stepped with the same
    actions, show every agent the same observations and end with the same rewards."""
    for cut in (0, 25, 150):
        env = mafia_env.env(variant, n, obs_mode=obs_mode)
        env.reset(seed=cut + 3)
        rng = np.random.default_rng(cut)
        for _ in range(cut):
            if env.unwrapped.game.over:
                break
            obs = env.observe(env.agent_selection)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        twin = env.unwrapped.clone()
        same_view(env.unwrapped, twin)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            twin.step(action)
            if env.agents:
                same_view(env.unwrapped, twin)
        assert twin.record() == env.unwrapped.record()


def test_env_clone_is_independent():
    env = mafia_env.env("sport", 10)
    env.reset(seed=5)
    twin = env.unwrapped.clone()
    before = env.observe(env.agent_selection)["observation"].copy()
    for _ in range(30):
        obs = twin.observe(twin.agent_selection)
        twin.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert len(env.unwrapped.game.events) < len(twin.game.events)
    assert np.array_equal(env.observe(env.agent_selection)["observation"], before)


@pytest.mark.parametrize(("variant", "n"), TABLES)
def test_observer_copies_deep_copies_and_pickles_see_the_same_and_stay_apart(variant, n):
    """A `VectorObserver` copied, deep-copied or pickled mid-game shows every seat what the
    original shows; folding a later game into the copy leaves the original as it was."""
    env = mafia_env.raw_env(variant, n)
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    for _ in range(60):
        if env.game.over:
            break
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    observer = env.observer
    before = [observer.observe(env.game, s) for s in range(n)]
    later = env.game.clone()
    play_out(later, 7, limit=40)
    for twin in (observer.copy(), copy.deepcopy(observer), pickle.loads(pickle.dumps(observer))):
        assert all(np.array_equal(twin.observe(env.game, s), before[s]) for s in range(n))
        twin.catch_up(later.events)
        assert all(np.array_equal(observer.observe(env.game, s), before[s]) for s in range(n))
        fresh = mafia_env.raw_env(variant, n).observer
        fresh.reset(later)
        for s in range(n):
            assert np.array_equal(twin.observe(later, s), fresh.observe(later, s))


@pytest.mark.parametrize("path", sorted((RECORDS / "v1").glob("*.json")), ids=lambda p: p.stem)
def test_records_of_format_1_still_replay(path):
    """Records written before the game became data (format 1) replay to the same end."""
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["format"] == 1
    env = mafia_env.replay(record)
    assert env.winner == record["winner"]
    again = mafia_env.replay(env.record())  # and the same game in the format of today
    assert again.record()["format"] == FORMAT
    assert again.game.events == env.game.events


def test_every_stage_has_a_rule_and_a_table_row():
    assert set(FOLLOWS) == set(Stage)
    assert set(Game._END) == set(Stage) - {Stage.OVER}


@pytest.mark.parametrize(("variant", "n"), TABLES)
def test_stages_only_follow_their_table(variant, n, monkeypatch):
    seen: set[tuple[Stage, Stage]] = set()
    enter = Game._enter

    def spy(self, stage):
        seen.add((self.stage, stage))
        enter(self, stage)

    monkeypatch.setattr(Game, "_enter", spy)
    for seed in range(30):
        play_out(Game(VARIANTS[variant], n, seed), seed)
    assert seen and all(b in FOLLOWS[a] for a, b in seen)
