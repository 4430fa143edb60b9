"""The engine interface (`mafia_env.backends`): both engines answer its calls alike."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

import mafia_env
from mafia_env.backends import CoreEngine, Engine, PythonEngine
from mafia_env.ccore import available
from mafia_env.variants import VARIANTS

needs_core = pytest.mark.skipif(not available(), reason="the C core is not built")
CALLS = [name for name in vars(Engine) if not name.startswith("_")]


def engines(variant: str) -> tuple[PythonEngine, CoreEngine | None]:
    """Return a Python and (where it is built) a core engine of one table, as the AEC env
    makes them."""
    env = mafia_env.env(variant, backend="python")
    args = (env.spec, env.layout, env.obs_layout, env._no_mask)
    return PythonEngine(*args), CoreEngine(*args) if available() else None


def test_both_engines_have_every_call_of_the_interface():
    for engine in engines("minimal"):
        if engine is not None:
            missing = [c for c in CALLS if not hasattr(engine, c)]
            assert not missing, (type(engine).__name__, missing)
    assert {"start", "play", "observe", "view", "mask", "fork"} <= set(CALLS)


@needs_core
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_engines_answer_alike_move_by_move(variant):
    """`play`, `actor`, `mask`, `observe` and `view` of the core are the Python engine's."""
    py, core = engines(variant)
    rng = random.Random(3)
    for engine in (py, core):
        engine.start(11, None)
    moves = 0
    while True:
        actor = py.actor()
        assert core.actor() == actor
        if actor < 0:
            break
        mask = py.mask()
        np.testing.assert_array_equal(core.mask(), mask)
        seat = rng.randrange(py.n)
        np.testing.assert_array_equal(core.observe(seat), py.observe(seat))
        vp, vc = py.view(seat, mask), core.view(seat, core.mask())
        np.testing.assert_array_equal(vc["observation"], vp["observation"])
        np.testing.assert_array_equal(vc["action_mask"], vp["action_mask"])
        assert vp["action_mask"].any() == (seat == actor)
        illegal = np.flatnonzero(mask == 0)
        if illegal.size:  # refused, and nothing played
            index = int(illegal[rng.randrange(illegal.size)])
            assert py.play(index) is None and core.play(index) is None
            assert py.actor() == core.actor() == actor
        legal = np.flatnonzero(mask)
        index = int(legal[rng.randrange(legal.size)])
        a, b = py.play(index), core.play(index)
        assert a[0] == b[0]
        if a[0] >= 0:
            np.testing.assert_array_equal(a[1], b[1])
            assert not b[1].flags.writeable
        moves += 1
    assert moves > 0
    assert py.game.returns() == core.game.returns()
    assert not py.view(0, None)["action_mask"].any() and not core.view(0, None)["action_mask"].any()


@pytest.mark.parametrize("backend", ["python", pytest.param("c", marks=needs_core)])
def test_a_fork_and_a_pickled_engine_play_on_alone(backend):
    env = mafia_env.env("sport", backend=backend)
    env.reset(seed=5)
    engine = env.engine
    for _ in range(30):
        engine.play(int(np.flatnonzero(engine.mask())[0]))
    before = engine.observe(0)
    for twin in (engine.fork(), pickle.loads(pickle.dumps(engine))):
        np.testing.assert_array_equal(twin.observe(0), before)
        np.testing.assert_array_equal(twin.mask(), engine.mask())
        for _ in range(20):
            twin.play(int(np.flatnonzero(twin.mask())[-1]))
        np.testing.assert_array_equal(engine.observe(0), before)


@pytest.mark.parametrize("backend", ["python", pytest.param("c", marks=needs_core)])
def test_a_removed_actor_hands_his_mask_on_in_infos(backend):
    """After the moderator removes the acting player, the next actor's mask is in ``infos``
    (and in his observation) and the removed one's is zeros."""
    env = mafia_env.env("sport", backend=backend)
    env.reset(seed=2)
    gone = env.agent_selection
    env.remove(gone)
    now = env.agent_selection
    assert now != gone
    assert not env.infos[gone]["action_mask"].any()
    assert env.infos[now]["action_mask"] is env.last()[0]["action_mask"]
    assert env.infos[now]["action_mask"].any()
