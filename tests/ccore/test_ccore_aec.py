"""The AEC env's calls into the C core (issue 29): `last()`, `observe` and `step` on the core's
one-call paths (``aec_obs_dict``, ``aec_observe``, ``aec_play``, ``aec_mask``) give what the
Python engine's env gives, with PettingZoo's ownership: each observation a fresh writable
array, the masks read-only and shared."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

import mafia_env
from mafia_env import ccore
from mafia_env.errors import IllegalActionError

pytestmark = pytest.mark.skipif(not ccore.available(), reason="the C core is not built")

VARIANTS = sorted(mafia_env.VARIANTS)


def same_last(a, b) -> None:
    la, lb = a.last(), b.last()
    assert la[1:4] == lb[1:4]  # cumulative reward, terminated, truncated
    assert la[4].keys() == lb[4].keys()
    np.testing.assert_array_equal(la[4]["action_mask"], lb[4]["action_mask"])
    oa, ob = la[0], lb[0]
    if a.obs_mode == "flat":
        assert oa.dtype == np.float32 and oa.shape == ob.shape
        np.testing.assert_array_equal(oa, ob)
        return
    assert oa.keys() == ob.keys() == {"observation", "action_mask"}
    for key in oa:
        assert oa[key].dtype == ob[key].dtype and oa[key].shape == ob[key].shape
        np.testing.assert_array_equal(oa[key], ob[key])
    assert a.observation_space(a.agent_selection).contains(oa)
    assert a.last(observe=False)[0] is None


def play_both(a, b, seed: int, numpy_ints: bool = False) -> int:
    """Play one seeded random legal game on both envs with `agent_iter`/`last`, comparing every
    `last()`, a bystander's `observe` and the dicts; return its moves."""
    a.reset(seed=seed)
    b.reset(seed=seed)
    rng = random.Random(seed)
    moves = 0
    for agent, other in zip(a.agent_iter(), b.agent_iter(), strict=True):
        assert agent == other
        same_last(a, b)
        who = rng.choice(a.possible_agents)
        oa, ob = a.observe(who), b.observe(who)
        if a.obs_mode == "flat":
            np.testing.assert_array_equal(oa, ob)
        else:
            np.testing.assert_array_equal(oa["observation"], ob["observation"])
            np.testing.assert_array_equal(oa["action_mask"], ob["action_mask"])
        assert a.rewards == b.rewards and a._cumulative_rewards == b._cumulative_rewards
        assert a.terminations == b.terminations and a.truncations == b.truncations
        _, _, term, trunc, info = a.last(observe=False)
        if term or trunc:
            a.step(None)
            b.step(None)
            continue
        legal = np.flatnonzero(info["action_mask"])
        action = int(legal[rng.randrange(legal.size)])
        a.step(np.int64(action) if numpy_ints and moves % 2 else action)
        b.step(action)
        moves += 1
    assert not a.agents and not b.agents
    assert a.game.events == b.game.events
    return moves


@pytest.mark.parametrize("variant", VARIANTS)
def test_last_is_the_python_engines_over_seeded_games(variant):
    """ISSUE-29: `last()` of the core's env, move by move, is the Python engine's env's."""
    a = mafia_env.env(variant, backend="c")
    b = mafia_env.env(variant, backend="python")
    assert type(a).__name__ == "CoreMafiaEnv"
    for seed in range(2):
        assert play_both(a, b, seed, numpy_ints=seed == 1) > 0
    fa = mafia_env.env(variant, obs_mode="flat", backend="c")
    fb = mafia_env.env(variant, obs_mode="flat", backend="python")
    play_both(fa, fb, 5)


def test_text_mode_last_is_the_python_engines():
    a = mafia_env.env("online", obs_mode="text", backend="c")
    b = mafia_env.env("online", obs_mode="text", backend="python")
    a.reset(seed=2)
    b.reset(seed=2)
    for _ in range(40):
        la, lb = a.last(), b.last()
        assert la[0]["observation"] == lb[0]["observation"]
        np.testing.assert_array_equal(la[0]["action_mask"], lb[0]["action_mask"])
        assert la[1:4] == lb[1:4]
        action = int(np.flatnonzero(la[0]["action_mask"])[0])
        a.step(action)
        b.step(action)


def test_observations_are_fresh_arrays_and_masks_shared_read_only():
    """Each `last()`/`observe` gives a new writable float32 array that no later call touches;
    the mask is the read-only array of ``infos`` (PettingZoo's ownership, as MafiaEnv's)."""
    env = mafia_env.env("sport", backend="c")
    env.reset(seed=4)
    kept = []
    for move in range(30):
        obs, _, _, _, info = env.last()
        again = env.observe(env.agent_selection)
        o = obs["observation"]
        assert o.flags.writeable and o.flags.owndata and o.dtype == np.float32
        assert again["observation"] is not o
        assert not np.shares_memory(again["observation"], o)
        assert obs["action_mask"] is info["action_mask"] is again["action_mask"]
        assert not obs["action_mask"].flags.writeable
        np.testing.assert_array_equal(again["observation"], o)
        kept.append((o, o.copy()))
        if move % 2:
            o[:] = 7.0  # the caller's array is the caller's: the env's next ones not changed
            kept[-1] = (o, np.full_like(o, 7.0))
            np.testing.assert_array_equal(
                env.observe(env.agent_selection)["observation"], again["observation"]
            )
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[-1]))
    for o, saved in kept:  # no later call wrote into an array handed out before
        np.testing.assert_array_equal(o, saved)
    assert len({id(o) for o, _ in kept}) == len(kept)
    bystander = next(a for a in env.possible_agents if a != env.agent_selection)
    zeros = env.observe(bystander)["action_mask"]
    assert not zeros.any() and not zeros.flags.writeable
    assert env.infos[bystander]["action_mask"] is zeros


def test_flat_observations_are_fresh_and_infos_mark_the_actor():
    env = mafia_env.env("online", obs_mode="flat", backend="c")
    env.reset(seed=1)
    o1 = env.observe("player_1")
    o2 = env.observe("player_1")
    assert o1 is not o2 and not np.shares_memory(o1, o2) and o1.flags.writeable
    np.testing.assert_array_equal(o1, o2)
    for _ in range(20):
        agent = env.agent_selection
        assert env.infos[agent]["acting"]
        assert sum(i["acting"] for i in env.infos.values()) == 1
        env.step(int(np.flatnonzero(env.infos[agent]["action_mask"])[0]))


def test_masks_are_the_shared_caches_arrays():
    """The core's table of masks hands out the arrays of the env's shared cache."""
    env = mafia_env.env("club", backend="c")
    env.reset(seed=3)
    for _ in range(50):
        m = env.infos[env.agent_selection]["action_mask"]
        assert m is ccore.shared_mask(env.engine._masks, env.core.mask(0))
        assert env.core.aec_mask(0) is m
        np.testing.assert_array_equal(m, np.frombuffer(env.core.mask(0), np.int8))
        env.step(int(np.flatnonzero(m)[0]))


@pytest.mark.filterwarnings("ignore::mafia_env.IllegalActionWarning")
def test_step_fast_path_refuses_what_the_slow_path_refuses():
    """Ints out of range, illegal ints, numpy ints, bools and None: the same answers as the
    Python engine's env (an illegal action is not applied by the fast path)."""
    for mode in ("terminate", "foul", "raise"):
        a = mafia_env.env("sport", backend="c", illegal_action=mode)
        b = mafia_env.env("sport", backend="python", illegal_action=mode)
        for action in (-1, a.layout.size, 10**30, "x", True, None):
            a.reset(seed=7)
            b.reset(seed=7)
            errors = []
            for env in (a, b):
                try:
                    env.step(action)
                    errors.append(None)
                except Exception as e:  # the same error on both
                    errors.append((type(e), str(e)))
            assert errors[0] == errors[1], action
            assert a.rewards == b.rewards and a.terminations == b.terminations
            assert a.agent_selection == b.agent_selection
            assert a.illegal_counts == b.illegal_counts
            if not a.terminations[a.agent_selection]:
                same_last(a, b)
    a = mafia_env.env("sport", backend="c", illegal_action="raise")
    a.reset(seed=7)
    illegal = int(np.flatnonzero(a.infos[a.agent_selection]["action_mask"] == 0)[0])
    before = a.core.status(0)
    with pytest.raises(IllegalActionError):
        a.step(illegal)
    assert a.core.status(0) == before  # nothing applied


def test_after_the_game_dead_steps_and_calls_before_reset():
    a = mafia_env.env("minimal", backend="c")
    b = mafia_env.env("minimal", backend="python")
    for env in (a, b):
        with pytest.raises(AttributeError):
            env.last()
    play_both(a, b, 11)
    with pytest.raises(mafia_env.MafiaError):
        a.step(0)
    a.reset(seed=11)
    b.reset(seed=11)
    same_last(a, b)


def test_clones_and_pickles_observe_their_own_game():
    """A clone's and an unpickled copy's core are bound afresh: stepping one never changes the
    other's observations or masks."""
    env = mafia_env.env("online", backend="c")
    env.reset(seed=6)
    for _ in range(15):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    before = env.last()[0]["observation"].copy()
    for twin in (env.clone(), pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert twin.core is not env.core
        np.testing.assert_array_equal(twin.last()[0]["observation"], before)
        for _ in range(10):
            twin.step(int(np.flatnonzero(twin.last()[0]["action_mask"])[-1]))
        np.testing.assert_array_equal(env.last()[0]["observation"], before)
        assert env.last()[4]["action_mask"] is env.infos[env.agent_selection]["action_mask"]
    done = env.clone()
    while done.agents:  # a clone plays its game to the end on its own
        _, _, term, trunc, info = done.last()
        done.step(None if term or trunc else int(np.flatnonzero(info["action_mask"])[0]))
    assert env.agents and env._live and not done._live


def test_core_aec_calls_check_their_arguments():
    env = mafia_env.env("sport", backend="c")
    env.reset(seed=0)
    core = env.core
    with pytest.raises(IndexError):
        core.aec_observe(0, env.n)
    with pytest.raises(IndexError):
        core.aec_obs_dict(0, -1, None)
    with pytest.raises(IndexError):
        core.aec_play(1, 0)
    with pytest.raises(TypeError):
        core.aec_play(0)
    bare = ccore.new_core(env.rules, env.n, 1)
    with pytest.raises(RuntimeError, match="aec_bind"):
        bare.aec_observe(0, 0)
    with pytest.raises(ValueError, match="aec_bind"):
        bare.aec_bind(np.zeros(3, np.float32), {}, ccore.shared_mask, env._no_mask)
    with pytest.raises(TypeError):
        bare.aec_bind(np.zeros(env.obs_layout.size, np.float32), {}, None, env._no_mask)


def test_an_observation_dropped_and_changed_in_place_never_comes_back_changed():
    """The core reuses an observation array only once nobody holds it (no reference, view,
    buffer or weak reference) and it is still a writable float32 vector: whatever its last
    holder did to it in place, the next observations are the space's, and equal to the
    Python engine's."""
    import weakref

    a = mafia_env.env("online", backend="c")
    b = mafia_env.env("online", backend="python")
    a.reset(seed=8)
    b.reset(seed=8)
    space = a.observation_space("player_1")["observation"]
    changes = [
        lambda o: setattr(o, "shape", (1, -1)),
        lambda o: setattr(o, "dtype", np.int32),
        lambda o: setattr(o.flags, "writeable", False),
        lambda o: o.fill(3.0),
        lambda o: o.byteswap(inplace=True),
    ]
    held = []
    for k in range(40):
        agent = a.possible_agents[k % a.n]
        o = a.observe(agent)["observation"]
        if k % 3 == 0:
            held.append((o, o.copy()))  # kept: never written again
        elif k % 3 == 1:
            changes[k % len(changes)](o)
        else:
            held.append((weakref.ref(o), o.copy()))  # a weak reference: not reused either
        del o  # freed here: CPython counts references (no cycle holds an observation)
        for who in a.possible_agents[:3]:
            x = a.observe(who)["observation"]
            assert x.shape == space.shape and x.dtype == np.float32 and x.flags.writeable
            assert space.contains(x)
            np.testing.assert_array_equal(x, b.observe(who)["observation"])
        if k % 5 == 4:
            action = int(np.flatnonzero(a.last()[0]["action_mask"])[0])
            a.step(action)
            b.step(action)
    for o, saved in held:
        if isinstance(o, weakref.ref):  # alive (still in the pool) or freed, never rewritten
            o = o()
            if o is None:
                continue
        np.testing.assert_array_equal(o, saved)
