"""The belief piece's values on seeded games, hashed (tests/test_belief_piece_speed.py pins
them to what main gave before the belief's speed-ups: a speed-up must not move one value).

Each case plays a seeded random game with a deduction tracker per seat, brought up to date
every move (as the env's observation does), and hashes every seat's marginals [n, R] at
every move (float32 bytes, in order); particle trackers add which of a fixed set of deals
every segment accepts (`Tracker._consistent`, which no particle draw moves).
"""

from __future__ import annotations

import hashlib
import random

import numpy as np

from mafia_env.belief.bayes import BayesTracker
from mafia_env.belief.track import Tracker
from mafia_env.engine.game import Game
from mafia_env.variants import VARIANTS
from tests.test_game_data import random_move


def piece_digest(variant: str, n: int, seed: int, moves: int, knobs: dict | None = None) -> str:
    rules = VARIANTS[variant]
    if knobs:
        rules = rules.with_knobs(**knobs)
    g = Game(rules, n, seed)
    rng = random.Random(seed)
    ts = [Tracker(g, s) for s in range(n)]
    probe = {}
    for t in ts:
        if not t.exact:
            probe[t.seat] = t.space.sample(t.allowed, random.Random(seed * 31 + t.seat), 48)
    h = hashlib.sha256()
    for _ in range(moves):
        if g.over:
            break
        g.apply(*random_move(g, rng))
        for t in ts:
            t.update()
            h.update(t.matrix().tobytes())
            if t.seat in probe and not g.over:
                h.update(t._consistent(probe[t.seat]).tobytes())
    return h.hexdigest()[:20]


def bayes_digest(variant: str, n: int, seed: int, moves: int, seats: tuple[int, ...]) -> str:
    g = Game(VARIANTS[variant], n, seed)
    rng = random.Random(seed)
    ts = [BayesTracker(Tracker(g, s), "random") for s in seats]
    h = hashlib.sha256()
    for _ in range(moves):
        if g.over:
            break
        g.apply(*random_move(g, rng))
        for t in ts:
            t.update()
            h.update(np.asarray(t.weights(), dtype=np.float64).tobytes())
    return h.hexdigest()[:20]
