"""The AEC contract on every variant: PettingZoo's tests, random playouts, no leaks."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import mafia_env
from mafia_env.actions import ActionLayout
from mafia_env.engine.events import Cause, Ev
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import NIGHT_TURNS, Act, Turn
from mafia_env.engine.roles import Role, Team
from mafia_env.observe import VectorObserver
from tests.scripting import random_playout

VARIANTS = sorted(mafia_env.VARIANTS)


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_test(variant):
    api_test(mafia_env.env(variant), num_cycles=2000)


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_seed_test(variant):
    seed_test(lambda: mafia_env.env(variant), num_cycles=300)


@pytest.mark.parametrize("variant", VARIANTS)
def test_observation_and_action_spaces(variant):
    env = mafia_env.env(variant)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    space = env.observation_space(env.agent_selection)
    assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
    assert space.contains(obs)
    assert env.action_space("player_1").n == obs["action_mask"].size
    other = next(a for a in env.agents if a != env.agent_selection)
    assert not env.observe(other)["action_mask"].any()  # a non-acting agent's mask is zeros


def check_outcome(env, rewards) -> None:
    """The winner agrees with who is alive, and the rewards with the winner."""
    game = env.unwrapped.game
    town, black, maniac = game.team_alive
    winner = env.winner
    if winner == "town":
        assert black == 0 and maniac == 0
    elif winner == "mafia" and game.rules.mafia_win_maniac == "counted":  # FORUM-W1
        assert black >= town + maniac and black > 0
    elif winner == "mafia":
        assert maniac == 0 and black >= town + maniac and black > 0
    elif winner == "maniac":
        assert maniac == 1 and black == 0 and town <= 1
    else:
        assert winner == "draw"
        assert set(rewards.values()) == {0.0}
        return
    team = {"town": Team.TOWN, "mafia": Team.MAFIA, "maniac": Team.MANIAC}[winner]
    for i, agent in enumerate(env.possible_agents):
        assert rewards[agent] == (1.0 if game.teams[i] is team else -1.0)


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_playouts_end_with_consistent_outcome(variant, games):
    """Random legal games (thousands with --long) end or truncate; masks never empty;
    outcomes agree."""
    rules = mafia_env.VARIANTS[variant]
    rng = np.random.default_rng(0)
    sizes = sorted({rules.min_players, rules.default_players, rules.max_players})
    counts = {s: games(100, 1000) if s == rules.default_players else games(20, 200) for s in sizes}
    for n, count in counts.items():
        env = mafia_env.raw_env(variant, n)
        for seed in range(count):
            env.reset(seed=seed)
            _, rewards = random_playout(env, rng)
            assert env.agents == [] and set(rewards) == set(env.possible_agents)
            assert env.game.truncated == (env.winner == "draw" and env.game.day > 3 * n)
            check_outcome(env, rewards)


@pytest.mark.parametrize("variant", ["sport", "minimal"])
def test_no_leak_same_public_history_same_observation(variant):
    """COMMON-2: an agent's view is the same for two deals it cannot tell apart."""
    rules = mafia_env.VARIANTS[variant]
    n = rules.default_players
    layout = ActionLayout(rules, n)
    rng = np.random.default_rng(1)
    compared = 0
    for seed in range(60):
        a = Game(rules, n, seed)
        deal = a.roles
        civilians = [s for s in range(n) if deal[s] is Role.CIVILIAN]
        watcher = civilians[0]
        others = [s for s in range(n) if s != watcher]
        # swap the roles of two other players with different roles: the watcher can't tell
        x, y = rng.choice(others, 2, replace=False)
        if deal[x] == deal[y]:
            continue
        deal_b = list(deal)
        deal_b[x], deal_b[y] = deal_b[y], deal_b[x]
        obs_a, obs_b = VectorObserver(rules, n), VectorObserver(rules, n)
        obs_a.reset(a)
        trace_a, day_inputs = [], []
        while not a.over:
            action = layout.decoded[int(rng.choice(np.flatnonzero(layout.mask(a))))]
            if a.turn not in NIGHT_TURNS:
                trace_a.append(obs_a.observe(a, watcher))
                day_inputs.append((a.actor, *action))
            a.apply(*action)
        trace_a.append(obs_a.observe(a, watcher))
        b = Game(rules, n, seed, deal_b)
        obs_b.reset(b)
        trace_b = replay_public(b, obs_b, watcher, day_inputs, night_victims(a))
        if trace_b is None:
            continue
        # the public histories agree until one game ends (the end itself is public news)
        same_end = len(trace_a) == len(trace_b) and a.winner == b.winner
        k = len(trace_a) if same_end else min(len(trace_a), len(trace_b)) - 1
        for i in range(k):
            assert np.array_equal(trace_a[i], trace_b[i]), f"seed {seed}: observation {i} differs"
        compared += k > 10
    assert compared >= 20


def replay_public(b: Game, obs_b: VectorObserver, watcher: int, day_inputs, victims):
    """Drive B with A's day inputs and A's night outcomes; return the watcher's trace."""
    victims, inputs = iter(victims), iter(day_inputs)
    trace = []
    while not b.over:
        if b.turn in NIGHT_TURNS and b.day == 0:  # SPORT-N3's meeting: no victim, unseen
            b.apply(Act.PASS)
            continue
        if b.turn in NIGHT_TURNS:
            victim = next(victims, None)
            if victim is None:  # A ended before this night: the histories part here
                return trace
            while b.turn in NIGHT_TURNS:
                if b.turn is Turn.MAFIA_KILL and victim >= 0:
                    if not dict(b.legal())[Act.NIGHT] >> victim & 1:
                        return None  # A's victim is no legal target in B (MINIMAL)
                    b.apply(Act.NIGHT, victim)
                else:
                    b.apply(Act.PASS)
            continue
        trace.append(obs_b.observe(b, watcher))
        nxt = next(inputs, None)
        if nxt is None:
            return trace
        seat, act, target, value = nxt
        assert seat == b.actor, "the public turn order differs"
        b.apply(act, target, value)
    trace.append(obs_b.observe(b, watcher))
    return trace


def night_victims(a: Game) -> list[int]:
    """Return the victim of each night of A (-1 for a miss)."""
    out = []
    for kind, _, target, value, _ in a.events:
        if kind == Ev.NIGHT and value > 0:
            out.append(-1)
        elif kind == Ev.ELIMINATED and value == Cause.NIGHT:
            out[-1] = target
    return out
