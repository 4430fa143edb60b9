"""The ParallelEnv view: PettingZoo's checks, simultaneous rounds, agreement with the AEC env."""

from __future__ import annotations

import random
from collections import defaultdict, deque

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test, parallel_seed_test

import mafia_env
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import Turn

VARIANTS = sorted(mafia_env.VARIANTS)


def random_round(env, obs, rng: random.Random) -> dict[str, int]:
    """Pick a random legal action for every agent (wait for the waiting ones)."""
    return {a: rng.choice(np.flatnonzero(obs[a]["action_mask"]).tolist()) for a in env.agents}


@pytest.mark.parametrize("variant", VARIANTS)
def test_parallel_api_test(variant):
    parallel_api_test(mafia_env.parallel_env(variant), num_cycles=400)


@pytest.mark.parametrize("variant", VARIANTS)
def test_parallel_seed_test(variant):
    # the seed test samples actions without a mask: illegal ones become fouls (COMMON-7)
    parallel_seed_test(lambda: mafia_env.parallel_env(variant, illegal_action="foul"), 200)


@pytest.mark.parametrize("variant", ["sport", "forum"])
def test_parallel_api_test_flat(variant):
    parallel_api_test(
        mafia_env.parallel_env(variant, obs_mode="flat", illegal_action="foul"), num_cycles=400
    )


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_parallel_plays_the_aec_game(variant, seed):
    """The same seed and choices give the same game; each seat sees what the AEC env shows."""
    par = mafia_env.parallel_env(variant)
    rng = random.Random(seed)
    obs, infos = par.reset(seed=seed)
    chosen: dict[str, deque] = defaultdict(deque)  # agent -> (observation, mask, action)
    final = None
    while par.agents:
        for a in par.agents:
            assert np.array_equal(infos[a]["action_mask"], obs[a]["action_mask"])
        actions = random_round(par, obs, rng)
        for a in par.acting:
            chosen[a].append((obs[a]["observation"], obs[a]["action_mask"], actions[a]))
        obs, rewards, terms, truncs, infos = par.step(actions)
        final = rewards, terms, truncs
    aec = mafia_env.env(variant)
    aec.reset(seed=seed)
    ends = {}
    for agent in aec.agent_iter():
        o, reward, term, trunc, _ = aec.last()
        if term or trunc:
            ends[agent] = reward
            aec.step(None)
            continue
        vec, mask, action = chosen[agent].popleft()
        assert np.array_equal(o["action_mask"], mask[:-1]) and mask[-1] == 0
        assert np.array_equal(o["observation"], vec), f"{agent} saw another table"
        aec.step(action)
    assert not any(chosen.values())
    assert aec.unwrapped.game.inputs == par.game.inputs
    assert aec.unwrapped.game.events == par.game.events
    rewards, terms, truncs = final
    assert rewards == ends
    assert set(rewards.values()) <= {-1.0, 0.0, 1.0}
    assert all(terms[a] or truncs[a] for a in par.possible_agents)


def rounds_of(variant: str, seed: int = 3, **knobs):
    """Yield (phase, acting agents, observations) for each step of a random game."""
    par = mafia_env.parallel_env(variant, **knobs)
    rng = random.Random(seed)
    obs, _ = par.reset(seed=seed)
    while par.agents:
        yield par, par.phase, par.acting, obs
        obs, *_ = par.step(random_round(par, obs, rng))


def test_a_vote_is_one_round_and_the_others_wait():
    seen_vote = False
    for par, phase, acting, obs in rounds_of("sport"):
        game = par.game
        if phase == "vote":
            seen_vote = True
            voters = {par.possible_agents[s] for s, t in game.queue if t is Turn.VOTE}
            assert set(acting) == voters | {par.possible_agents[game.actor]}
        elif phase == "speech":
            assert len(acting) == 1
        for a in par.agents:
            if a not in acting:  # waiting, eliminated seats included: only `wait`
                assert np.flatnonzero(obs[a]["action_mask"]).tolist() == [par.wait]
            else:
                assert obs[a]["action_mask"][par.wait] == 0
    assert seen_vote


def test_hidden_shots_are_one_round_seen_shots_one_at_a_time():
    hidden = [len(acting) for _, phase, acting, _ in rounds_of("sport") if phase == "mafia_kill"]
    assert hidden and max(hidden) > 1  # SPORT: every black player shoots at once
    watched = [len(acting) for _, phase, acting, _ in rounds_of("city") if phase == "mafia_kill"]
    assert watched and max(watched) == 1  # CITY-N3: they choose with eyes open, in turn


def test_eliminated_seats_stay_until_the_end_with_team_rewards():
    par = mafia_env.parallel_env("sport")
    rng = random.Random(5)
    obs, _ = par.reset(seed=5)
    agents_seen = []
    while True:
        agents_seen.append(list(par.agents))
        obs, rewards, terms, truncs, _ = par.step(random_round(par, obs, rng))
        if not par.agents:
            break
        assert all(r == 0.0 for r in rewards.values())
    assert all(a == par.possible_agents for a in agents_seen)
    assert all(terms[a] or truncs[a] for a in par.possible_agents)
    teams = {a: ("mafia" if r in ("mafia", "don") else "town") for a, r in par.roles.items()}
    if par.winner in ("town", "mafia"):
        for a, r in rewards.items():
            assert r == (1.0 if teams[a] == par.winner else -1.0)
    with pytest.raises(mafia_env.MafiaError):
        par.step({})


def test_illegal_and_waiting_actions_raise():
    par = mafia_env.parallel_env("sport", illegal_action="raise")
    obs, _ = par.reset(seed=1)
    actor = par.acting[0]
    illegal = int(np.flatnonzero(obs[actor]["action_mask"] == 0)[0])
    with pytest.raises(mafia_env.IllegalActionError):
        par.step({actor: illegal})
    with pytest.raises(mafia_env.IllegalActionError):
        par.step({actor: par.wait})
    waiting = next(a for a in par.agents if a != actor)
    legal = int(np.flatnonzero(obs[actor]["action_mask"])[0])
    with pytest.raises(mafia_env.IllegalActionError):
        par.step({actor: legal, waiting: 0})
    assert par.action_id("wait") == par.wait and par.describe_action(par.wait) == "wait"
    par.step({actor: legal, waiting: par.wait})  # a waiting seat may send wait, or nothing


def test_text_obs_mode_is_refused():
    with pytest.raises(mafia_env.ConfigError):
        mafia_env.parallel_env("sport", obs_mode="text")


# ------------------------------------------------------------ the engine's rounds


def test_pending_round_groups_only_simultaneous_turns():
    from mafia_env.variants import get_variant

    for name, see in (("sport", False), ("city", True)):
        g = Game(get_variant(name), 10, seed=4)
        while g.turn is not Turn.MAFIA_KILL:
            g.apply(*g.default_action())
        rnd = g.pending_round()
        assert rnd[0] == (g.actor, Turn.MAFIA_KILL)
        mafia = [s for s in g.mafia_seats() if g.alive[s]]
        assert len(rnd) == (1 if see else len(mafia))
        for seat, turn in rnd:  # the legal set of a queued member is the one it gets later
            opts = g.legal_for(seat, turn)
            assert opts and g.actor == rnd[0][0]
    over = Game(get_variant("sport"), 10, seed=4)
    over.terminate(0)
    assert over.pending_round() == []


def test_legal_for_matches_legal_when_the_turn_comes():
    from mafia_env.variants import get_variant

    rng = random.Random(0)
    for name in VARIANTS:
        g = Game(get_variant(name), get_variant(name).default_players, seed=9)
        promised: dict[tuple[int, Turn], list] = {}
        while not g.over:
            for seat, turn in g.pending_round()[1:]:
                promised[seat, turn] = g.legal_for(seat, turn)
            key = (g.actor, g.turn)
            if key in promised:
                assert promised.pop(key) == g.legal()
            act, targets = rng.choice(g.legal())
            target = rng.choice([s for s in range(g.n) if targets >> s & 1]) if targets else -1
            value = g.default_action()[2] if target < 0 else -1
            if act.name in ("CLAIM_ROLE", "CLAIM_CHECK", "ASK", "ANSWER"):
                act, target, value = g.default_action()
            g.apply(act, target, value)


# ------------------------------------------------- the flat observation, the mask in infos


@pytest.mark.parametrize("variant", VARIANTS)
def test_aec_infos_mask_equals_the_observation_mask(variant):
    env, flat = mafia_env.env(variant), mafia_env.env(variant, obs_mode="flat")
    env.reset(seed=2)
    flat.reset(seed=2)
    rng = random.Random(2)
    for agent in env.agent_iter():
        o, _, term, trunc, info = env.last()
        fo, _, _, _, finfo = flat.last()
        assert np.array_equal(finfo["action_mask"], info["action_mask"])
        assert flat.agent_selection == agent
        assert flat.observation_space(agent).contains(fo)
        assert np.array_equal(fo, o["observation"])
        for a in env.agents:  # every agent's infos, not only the acting one's
            expected = env.observe(a)["action_mask"]
            assert np.array_equal(env.infos[a]["action_mask"], expected)
            assert np.array_equal(flat.infos[a]["action_mask"], expected)
        action = None
        if not (term or trunc):
            action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        env.step(action)
        flat.step(action)
    assert not env.infos or all(not m["action_mask"].any() for m in env.infos.values())


def test_observation_masks_are_read_only_and_never_change_under_a_holder():
    """`observe`'s mask is the shared read-only array of `infos` (no copy per move): writing
    into it is refused, and a mask kept from an earlier move still says what it said."""
    env = mafia_env.env("sport")
    env.reset(seed=4)
    kept = []
    for _ in range(40):
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        assert mask is env.infos[agent]["action_mask"]
        with pytest.raises(ValueError, match="read-only"):
            mask[0] = 1
        other = next(a for a in env.agents if a != agent)
        assert not env.observe(other)["action_mask"].any()
        kept.append((mask, mask.tolist()))
        env.step(int(np.flatnonzero(mask)[0]))
    assert all(m.tolist() == saved for m, saved in kept)


@pytest.mark.parametrize("variant", ["sport", "online"])
def test_aec_api_test_and_seed_test_flat(variant):
    from pettingzoo.test import api_test, seed_test

    api_test(mafia_env.env(variant, obs_mode="flat"), num_cycles=300)
    seed_test(lambda: mafia_env.env(variant, obs_mode="flat"), num_cycles=300)


def test_foul_mode_hands_an_illegal_choice_to_the_engine_and_ignores_waiting_seats():
    par = mafia_env.parallel_env("sport", illegal_action="foul")
    obs, _ = par.reset(seed=1)
    actor = par.acting[0]
    seat = par.possible_agents.index(actor)
    illegal = int(np.flatnonzero(obs[actor]["action_mask"] == 0)[0])
    waiting = next(a for a in par.agents if a != actor)
    par.step({actor: illegal, waiting: 0})  # the waiting seat's action is ignored
    game = par.game
    assert game.fouls[seat] == 1 and sum(game.fouls) == 1
    assert game.inputs[0][:2] == (seat, -1)  # the foul, then the turn's default action


def test_play_game_seats_policies_on_a_flat_env():
    from mafia_env.seating.games import Seating, play_game
    from mafia_env.seating.policies import load_policy

    flat, vec = mafia_env.env("minimal", obs_mode="flat"), mafia_env.env("minimal")
    seating = Seating(load_policy("random", variant="minimal", seed=3))
    a = play_game(flat, seating, seed=4)
    seating = Seating(load_policy("random", variant="minimal", seed=3))
    b = play_game(vec, seating, seed=4)
    assert a.inputs == b.inputs and a.winner is not None
