"""`Game.resample(seat, rng)`: what a seat does not know is dealt again, what it knows is kept,
its observation does not change, and every deal it cannot rule out can appear."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from mafia_env.actions import ActionLayout
from mafia_env.engine.events import PUBLIC, Ev
from mafia_env.engine.game import Game
from mafia_env.engine.roles import Role, Team
from mafia_env.observe import VectorObserver
from mafia_env.text import TextObserver
from mafia_env.variants import VARIANTS
from tests.engine.test_game_data import TABLES, game_at, play_out
from tests.scripting import Table


def views(game: Game, seat: int) -> tuple[np.ndarray, str]:
    """Return `seat`'s vector and text observations of `game`, encoded from scratch."""
    layout = ActionLayout(game.rules, game.n)
    vector = VectorObserver(game.rules, game.n)
    vector.reset(game)
    text = TextObserver(layout, game.n)
    text.reset(game)
    mask = layout.mask(game) if seat == game.actor else np.zeros(layout.size, np.int8)
    return vector.observe(game, seat), text.observe(game, seat, mask)


def knows(game: Game, seat: int) -> dict[int, object]:
    """Return what `seat` knows of other seats' roles: a role, a team, or 'not sheriff'."""
    out: dict[int, object] = {seat: game.roles[seat]}
    for kind, actor, target, value, seen_by in game.events:
        if seen_by != PUBLIC and not seen_by >> seat & 1:
            continue
        if kind == Ev.TEAMMATE and actor == seat:
            out[target] = Team.MAFIA
        elif kind == Ev.REVEAL:
            out[target] = Role(value)
        elif kind == Ev.CHECK and actor == seat:
            if game.roles[seat] is Role.DON:
                out[target] = Role.SHERIFF if value else "not sheriff"
            else:
                out[target] = "black" if value else "red"
    return out


def agrees(game: Game, fact: object, seat: int) -> bool:
    role = game.roles[seat]
    if isinstance(fact, Role):
        return role is fact
    if fact is Team.MAFIA or fact == "black":
        return role.team is Team.MAFIA
    if fact == "red":
        return role.team is not Team.MAFIA
    return role is not Role.SHERIFF  # "not sheriff"


@pytest.mark.parametrize(("variant", "n"), TABLES)
def test_resample_keeps_the_seats_view_and_what_it_knows(variant, n):
    redealt = 0
    for seed in range(3):
        for moves in (0, 40, 150, 320):
            game = game_at(variant, n, seed, moves)
            if game.over:
                continue
            for seat in {game.actor, (game.actor + 3) % n}:
                mine = views(game, seat)
                facts = knows(game, seat)
                rng = random.Random(seed * 100 + moves)
                for _ in range(4):
                    other = game.resample(seat, rng)
                    theirs = views(other, seat)
                    assert np.array_equal(mine[0], theirs[0]) and mine[1] == theirs[1]
                    assert all(agrees(other, fact, s) for s, fact in facts.items())
                    assert sorted(other.roles) == sorted(game.roles)
                    redealt += other.roles != game.roles
                    play_out(other, seed)  # and it plays on, legally, to the end
                    assert other.over
    assert redealt > 0


def test_resample_leaves_the_original_alone():
    game = game_at("city", 13, 4, 60)
    assert not game.over
    before = list(game.events), game.roles, game.rng.getstate()
    game.resample(game.actor, random.Random(0))
    assert (list(game.events), game.roles, game.rng.getstate()) == before


def deals(game: Game, seat: int, samples: int) -> Counter:
    rng = random.Random(7)
    return Counter(game.resample(seat, rng).roles for _ in range(samples))


SPORT_6 = ["sheriff", "civilian", "mafia", "civilian", "don", "civilian"]


def test_every_deal_a_civilian_cannot_rule_out_appears_uniformly():
    game = Game(VARIANTS["sport"], 6, 1, [Role[r.upper()] for r in SPORT_6])
    seen = deals(game, 1, 3000)  # seat 2, a civilian, at the first speech: 5! / 2! deals
    assert len(seen) == 60
    assert all(c.count(Role.CIVILIAN) == 3 for c in seen)
    assert min(seen.values()) > 20 and max(seen.values()) < 80  # about 50 each


def test_a_mafia_member_keeps_his_team_and_redeals_the_town():
    game = Game(VARIANTS["sport"], 6, 1, [Role[r.upper()] for r in SPORT_6])
    seen = deals(game, 2, 400)  # seat 3 knows the don (seat 5): the town's 4 deals remain
    assert len(seen) == 4
    assert all(d[2] is Role.MAFIA and d[4] is Role.DON for d in seen)


def test_a_sheriffs_black_check_and_a_night_kill_leave_eight_deals():
    t = Table("sport", SPORT_6, seed=0)
    t.speeches()  # nobody nominates: no vote on day 1
    t.act(3, "night", 2)
    t.act(5, "night", 2)  # the mafia kill seat 2
    t.act(5, "pass")  # the don skips his check
    t.act(1, "night", 3)  # the sheriff checks seat 3: black
    assert t.phase == "last_word"
    seen = deals(t.game, 0, 600)
    # seat 3 is mafia or don; the other black seat is one of 2, 4, 5, 6: 2 x 4 deals
    assert len(seen) == 8
    assert all(d[0] is Role.SHERIFF and d[2].team is Team.MAFIA for d in seen)


def test_resample_of_a_finished_game_is_a_finished_world_not_a_copy():
    """A finished game's world ended as the seat saw it end; the deal is drawn again where
    the seat does not know it (the real deal was a copy's: a leak)."""
    game = game_at("sport", 10, 2, 10_000)
    assert game.over
    other = game.resample(0, random.Random(0))
    assert other is not game and other.over and other.winner == game.winner
    mine, theirs = views(game, 0), views(other, 0)
    assert np.array_equal(mine[0], theirs[0]) and mine[1] == theirs[1]
    assert all(agrees(other, fact, s) for s, fact in knows(game, 0).items())
