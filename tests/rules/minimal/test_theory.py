"""MINIMAL against theory: the random-elimination model of Braverman, Etesami and Mossel (2008).

Each day the town eliminates one uniformly random living player; each night the mafia kill
one uniformly random civilian. The mafia's win probability then follows an exact recursion.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

import mafia_env
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import Act, Turn
from mafia_env.engine.roles import Team


@cache
def mafia_wins(n: int, m: int) -> float:
    """P(mafia wins) from the start of a day with n alive, m of them mafia."""
    p = 0.0
    for out_mafia, prob in ((True, m / n), (False, (n - m) / n)):
        n1, m1 = n - 1, m - out_mafia
        if m1 == 0:
            continue  # town wins
        if m1 >= n1 - m1:
            p += prob  # parity after the day
            continue
        n2 = n1 - 1  # the night kills a civilian
        p += prob * (1.0 if m1 >= n2 - m1 else mafia_wins(n2, m1))
    return p


def play_model_game(n: int, m: int, seed: int) -> bool:
    """Play MINIMAL by the model's script; return whether the mafia won."""
    rules = mafia_env.VARIANTS["minimal"].with_knobs(mafia_count=m)
    game = Game(rules, n, seed)
    rng = random.Random(f"script-{seed}")  # independent of the game's own stream
    target = -1
    while not game.over:
        turn, seat = game.turn, game.actor
        if turn is Turn.SPEECH:
            if not game.today.nominees:  # the first speaker nominates a uniformly random player
                target = rng.choice(game.alive_seats)
                game.apply(Act.NOMINATE, target)
            else:
                game.apply(Act.PASS)
        elif turn is Turn.VOTE:
            game.apply(Act.VOTE, target)  # everybody votes the nominee out
        elif turn is Turn.MAFIA_KILL:
            if seat == next(s for s in game.alive_seats if game.teams[s] is Team.MAFIA):
                civilians = [s for s in game.alive_seats if game.teams[s] is Team.TOWN]
                target = rng.choice(civilians)
            game.apply(Act.NIGHT, target)  # every mafia member names the same civilian
        else:
            raise AssertionError(f"unexpected turn {turn}")
    return game.winner == 1


def test_recursion_known_values():
    assert mafia_wins(3, 1) == pytest.approx(2 / 3)  # the day: 1/3 the mafia goes, else parity
    assert mafia_wins(4, 1) == pytest.approx(3 / 4)  # a civilian out: the night makes parity


@pytest.mark.parametrize(("n", "m", "games"), [(7, 2, 3000), (10, 3, 3000), (12, 2, 2000)])
def test_minimal_matches_exact_recursion(n, m, games):
    """MINIMAL: the mafia's win rate under the model matches the recursion within 4 SE."""
    p = mafia_wins(n, m)
    wins = sum(play_model_game(n, m, seed) for seed in range(games))
    se = (p * (1 - p) / games) ** 0.5
    assert abs(wins / games - p) < 4 * se, (wins / games, p)
