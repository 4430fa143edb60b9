"""A game's belief trackers live as long as the game, and no longer.

`mafia_env.belief.store` keeps each game's trackers in a WeakKeyDictionary; a tracker that held
its game strongly kept every entry for ever (a trainer with the belief piece grew by about
290 MB per 1,000 steps of 16 sport games, 14.7 GB while recording 400,000 decisions).
"""

from __future__ import annotations

import gc
import random
import weakref

import numpy as np
import pytest

from mafia_env import ccore
from mafia_env.belief import belief, tracker
from mafia_env.belief.store import matrix
from mafia_env.engine.game import Game
from mafia_env.seat_obs import vector_env
from tests.engine.test_game_data import game_at


def _played(seed: int, moves: int) -> Game:
    return game_at("sport", 10, seed, moves)


def test_a_game_and_its_trackers_are_freed_with_it():
    g = _played(3, 40)
    for s in range(10):
        matrix(g, s)
    belief(g, 2, "random").marginal("mafia")
    ref = weakref.ref(g)
    del g
    gc.collect()
    assert ref() is None


def test_a_belief_still_samples_worlds_after_its_game_is_gone():
    g = _played(4, 60)
    seat, seen = 1, [e for e in g.events if e[4] == 0 or e[4] >> 1 & 1]
    kept = belief(g, seat), belief(g, seat, "random")
    del g
    gc.collect()
    for b in kept:
        for w in b.sample(random.Random(0), 2):
            mine = [e for e in w.events if e[4] == 0 or e[4] >> 1 & 1]
            assert mine == seen


@pytest.mark.parametrize("backend", ["python", "c"])
def test_the_belief_piece_keeps_no_finished_game(backend):
    if backend == "c" and not ccore.available():
        pytest.skip("no C core built here")
    vec = vector_env("sport", 4, 10, seed=0, belief="deduction", backend=backend)
    _, masks, _ = vec.reset()
    vec.fill(np.arange(4))
    first = [weakref.ref(vec._game(b)) for b in range(4)]
    rng = np.random.default_rng(0)
    done = np.zeros(4, dtype=bool)
    while not done.all():
        vec.fill(np.arange(4))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, masks, _, dones, _ = vec.step(actions)
        done |= dones
    gc.collect()
    assert all(r() is None for r in first)


def test_a_tracker_outlives_its_game_and_answers_from_what_it_saw():
    g = _played(5, 50)
    t = tracker(g, 0)
    before = t.belief().matrix()
    del g
    gc.collect()
    t.update()  # nothing new can happen in a game that is gone
    assert np.array_equal(t.belief().matrix(), before)
