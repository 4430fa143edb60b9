"""The belief piece's values on seeded games, hashed (tests/belief/test_belief_piece_speed.py pins
them to what main gave before the belief's speed-ups: a speed-up must not move one value).

Each case plays a seeded random game with a deduction tracker per seat, brought up to date
every move (as the env's observation does), and hashes every seat's marginals [n, R] at
every move (float32 bytes, in order); a particle tracker's, which follow its draws, are
replaced by which of a fixed set of deals every segment accepts (`Tracker._consistent`).
"""

from __future__ import annotations

import hashlib
import random

import numpy as np

from mafia_env.belief.bayes import BayesTracker
from mafia_env.belief.track import Tracker
from mafia_env.engine.eras import earlier_rules
from mafia_env.engine.game import Game
from mafia_env.variants import VARIANTS
from tests.engine.test_game_data import random_move


def piece_digest(
    variant: str,
    n: int,
    seed: int,
    moves: int,
    knobs: dict | None = None,
    policy: str = "random",
    era: int | None = 3,
) -> str:
    """The digest of one case (`policy`: "random" moves, or the registry's bot of that name),
    under the rules of `era` (`earlier_rules`; None: today's): the pins were recorded before
    issue 47's reading changed the games."""
    rules = VARIANTS[variant]
    if era is not None:
        rules = rules.with_knobs(**earlier_rules(variant, era))
    if knobs:
        rules = rules.with_knobs(**knobs)
    g = Game(rules, n, seed)
    rng = random.Random(seed)
    move = _mover(g, policy, seed)
    ts = [Tracker(g, s) for s in range(n)]
    probe = {}
    for t in ts:
        if not t.exact:
            probe[t.seat] = t.space.sample(t.allowed, random.Random(seed * 31 + t.seat), 48)
    h = hashlib.sha256()
    for _ in range(moves):
        if g.over:
            break
        g.apply(*(random_move(g, rng) if move is None else move()))
        for t in ts:
            t.update()
            if t.exact:
                h.update(t.matrix().tobytes())
            elif not g.over:  # (a particle's draws are not pinned: which deals all accept is)
                h.update(t._consistent(probe[t.seat]).tobytes())
    return h.hexdigest()[:20]


def _mover(g: Game, policy: str, seed: int):
    """Return a function playing the acting seat's move by the bot `policy` (None: random)."""
    if policy == "random":
        return None
    from mafia_env.actions import ActionLayout
    from mafia_env.observe import VectorObserver
    from mafia_env.seating.policies import load_policy

    layout = ActionLayout(g.rules, g.n)
    bot = load_policy(policy, variant=g.rules, num_players=g.n, seed=seed)
    obs = VectorObserver(g.rules, g.n)
    obs.reset(g)

    def move():
        return layout.decoded[bot.act(obs.observe(g, g.actor), layout.shared_mask(g))]

    return move


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
