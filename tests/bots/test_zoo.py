"""The zoo of playing styles: registered, legal everywhere, batch = rows, each habit shows."""

from __future__ import annotations

from collections import Counter
from functools import partial
from pathlib import Path

import numpy as np
import pytest
import tomllib

import mafia_env
from baselines import zoo
from baselines.rule import RULE, RulePolicy
from baselines.zoo import HELD_OUT, STYLES, TRAIN
from mafia_env.engine.events import Ev
from mafia_env.engine.roles import Role, Team
from mafia_env.errors import ConfigError
from mafia_env.seating.games import Seating, observation, play_game
from mafia_env.seating.policies import load_policy
from tests.bots.test_rule_batch import TABLES, play

ROOT = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------ the registry


def test_the_sets_are_disjoint_and_cover_the_zoo():
    assert set(TRAIN).isdisjoint(HELD_OUT)
    assert set(TRAIN) | set(HELD_OUT) == set(STYLES)
    assert len(TRAIN) >= 15 and len(HELD_OUT) >= 6
    for name, s in STYLES.items():
        assert s.name == name and s.description and s.split in ("train", "held_out")
        assert s.policy == f"style:{name}" and s.style != RULE


def test_every_style_loads_from_the_registry_seeded():
    bot = load_policy("style:fake_sheriff", "sport", 10, seed=1)
    assert isinstance(bot, RulePolicy) and bot.style == STYLES["fake_sheriff"].style
    for name in STYLES:
        assert load_policy(f"style:{name}", "city", 13, seed=2).style == STYLES[name].style
    with pytest.raises(ConfigError, match=r"unknown policy 'style:liar'.*style:fake_sheriff"):
        load_policy("style:liar", "sport")
    with pytest.raises(ConfigError, match=r"unknown style 'liar'; the zoo's styles: "):
        zoo.get_style("liar")
    assert "fake_sheriff" in zoo.describe()


def test_pyproject_names_every_style_as_an_entry_point():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    eps = meta["project"]["entry-points"]["mafia_env.policies"]
    styles = {k: v for k, v in eps.items() if k.startswith("style:")}
    assert styles == {f"style:{n}": f"baselines.zoo:LOADERS.{n}" for n in STYLES}


# ------------------------------------------------------------------ legal, batch = rows


@pytest.mark.parametrize("variant,n", TABLES)
@pytest.mark.slow
def test_every_style_decides_a_batch_as_its_rows_one_by_one(variant, n):
    """Every style, in every variant: legal moves, and a batch decides as its rows do one by
    one (the draws among equals, the noise's coin among them, in row order)."""
    for name, s in STYLES.items():
        bot = partial(RulePolicy, style=s.style)
        assert play(bot, variant, n, "auto", games=6, steps=30, seed=3) > 0, name


def test_a_noisy_style_gives_every_way_its_draws_fall():
    """`probs_batch` spreads the noise's coin and its random act as the draws do (at a day
    speech: 20 sides of the coin times ~50 acts, a few seconds a row)."""
    bot = RulePolicy("sport", seed=1, style=STYLES["noisy"].style)
    vec = mafia_env.vector.VectorMafia("sport", 1, seed=2)
    obs, masks, _ = vec.reset()
    while masks.sum() < 20:  # the first day speech
        obs, masks, *_ = vec.step(bot.act_batch(obs, masks))
    p = bot.probs_batch(obs, masks)
    assert np.allclose(p.sum(axis=1), 1) and not (p[masks == 0] > 0).any()
    legal = masks[0] != 0
    assert (p[0, legal] > 0).all()  # the noise may say any legal act
    acts = legal.sum() - 1  # the noise's acts: every legal one but the end of the speech
    assert p[0].max() <= 0.7 + 0.3 / acts + 1e-9  # the plan's choice: 1 - noise_p, + a share


# ------------------------------------------------------------------ the habits show


def games_of(seating, variant="sport", n=None, games=12, seed=100):
    """Play `games` games; return each finished game."""
    out = []
    for g in range(games):
        env = mafia_env.raw_env(variant, n)
        out.append(play_game(env, seating(env.unwrapped.spec), seed=seed + g))
    return out


def everywhere(style):
    return lambda spec: Seating(RulePolicy(spec=spec, seed=7, style=style))


def days(game):
    """Each event with the day it happened on (0: before day 1)."""
    day = 0
    for e in game.events:
        if e[0] == Ev.DAY:
            day = e[3]
        yield day, e


def team(game, seat) -> Team:
    return Team(int(game.teams[seat]))


def mafia_day1_sheriff_claims(game) -> int:
    return sum(
        1
        for d, e in days(game)
        if d == 1 and e[0] == Ev.CLAIM_ROLE and e[3] == Role.SHERIFF
        and team(game, e[1]) is Team.MAFIA
    )  # fmt: skip


def test_fake_sheriff_the_mafia_all_claim_sheriff_on_day_1():
    got = [mafia_day1_sheriff_claims(g) for g in games_of(everywhere(STYLES["fake_sheriff"].style))]
    assert sum(c >= 2 for c in got) >= 8  # most games: several claimants
    called = [
        Counter(e[2] for d, e in days(g) if d == 1 and e[0] == Ev.CLAIM_CHECK and e[3] == 1
                and team(g, e[1]) is Team.MAFIA and team(g, e[2]) is Team.TOWN)
        for g in games_of(everywhere(STYLES["fake_sheriff"].style))
    ]  # fmt: skip
    assert sum(max(c.values(), default=0) >= 2 for c in called) >= 8  # a town player, by two
    rule = [mafia_day1_sheriff_claims(g) for g in games_of(everywhere(RULE))]
    assert sum(rule) == 0


def test_fake_sheriff_solo_one_claims_on_day_1_and_late_one_from_day_2():
    solo = [
        mafia_day1_sheriff_claims(g)
        for g in games_of(everywhere(STYLES["fake_sheriff_solo"].style))
    ]
    assert sum(c == 1 for c in solo) >= 8

    def claims(style):
        return [d for g in games_of(everywhere(style), games=16) for d, e in days(g)
                if e[0] == Ev.CLAIM_ROLE and e[3] == Role.SHERIFF
                and team(g, e[1]) is Team.MAFIA]  # fmt: skip

    late = claims(STYLES["fake_sheriff_late"].style)
    assert len(late) >= 3 and len(late) > len(claims(RULE)) and min(late) >= 2


def test_the_don_fakes_a_check():
    """The don claims sheriff on day 1 and calls a town player black."""
    hits = 0
    for g in games_of(everywhere(STYLES["don_fake_check"].style)):
        roles = [Role(int(r)) for r in g.roles]
        claims = {e[1] for d, e in days(g) if d == 1 and e[0] == Ev.CLAIM_ROLE}
        black = [e for d, e in days(g) if d == 1 and e[0] == Ev.CLAIM_CHECK and e[3] == 1]
        don = roles.index(Role.DON)
        hits += don in claims and any(e[1] == don and team(g, e[2]) is Team.TOWN for e in black)
    assert hits >= 8


def test_fake_doctor_claims_doctor_where_one_is_dealt():
    got = games_of(everywhere(STYLES["fake_doctor"].style), "city", games=8)
    claims = [g for g in got if any(e[0] == Ev.CLAIM_ROLE and e[3] == Role.DOCTOR
                                    and team(g, e[1]) is Team.MAFIA for e in g.events)]  # fmt: skip
    assert len(claims) >= 6


def sheriff_day1_claims(games) -> int:
    return sum(
        1
        for g in games
        for d, e in days(g)
        if d == 1 and e[0] == Ev.CLAIM_ROLE and e[3] == Role.SHERIFF
        and Role(int(g.roles[e[1]])) is Role.SHERIFF
    )  # fmt: skip


def test_the_real_sheriff_counter_claims_and_opens():
    def against_liars(town_style):
        def seating(spec):
            liars = RulePolicy(spec=spec, seed=7, style=STYLES["fake_sheriff"].style)
            return Seating(RulePolicy(spec=spec, seed=7, style=town_style), teams={"mafia": liars})

        return seating

    counter = sheriff_day1_claims(games_of(against_liars(STYLES["counter_sheriff"].style)))
    plain = sheriff_day1_claims(games_of(against_liars(RULE)))
    assert counter >= 6 and counter > plain
    assert sheriff_day1_claims(games_of(everywhere(STYLES["open_sheriff"].style))) >= 8


def test_the_framer_mafia_accuse_one_town_player_together():
    hits = 0
    for g in games_of(everywhere(STYLES["framer"].style)):
        accused = Counter(e[2] for d, e in days(g) if d == 1 and e[0] == Ev.ACCUSE
                          and team(g, e[1]) is Team.MAFIA)  # fmt: skip
        hits += bool(accused) and accused.most_common(1)[0][1] >= 2
    assert hits >= 8


def town_acts(games, kind) -> int:
    return sum(1 for g in games for e in g.events if e[0] == kind and team(g, e[1]) is Team.TOWN)


def speech_acts(games, side: Team) -> float:
    """Speech acts (claims, checks, accusations, vouches, nominations) a speech, by `side`."""
    kinds = (Ev.CLAIM_ROLE, Ev.CLAIM_CHECK, Ev.ACCUSE, Ev.VOUCH, Ev.NOMINATE)
    acts = sum(1 for g in games for e in g.events if e[0] in kinds and team(g, e[1]) is side)
    speeches = sum(
        1 for g in games for e in g.events if e[0] == Ev.END_SPEECH and team(g, e[1]) is side
    )
    return acts / max(1, speeches)


def test_talk_quiet_talkative_and_noisy():
    rule = games_of(everywhere(RULE))
    quiet = games_of(everywhere(STYLES["quiet_town"].style))
    talkative = games_of(everywhere(STYLES["talkative"].style))
    assert speech_acts(quiet, Team.TOWN) < speech_acts(rule, Team.TOWN)
    assert town_acts(quiet, Ev.ACCUSE) < town_acts(rule, Ev.ACCUSE)
    assert town_acts(talkative, Ev.VOUCH) > town_acts(rule, Ev.VOUCH) + 10
    assert town_acts(talkative, Ev.ACCUSE) > town_acts(rule, Ev.ACCUSE)
    for name, loud, calm in [("noisy", Team.TOWN, None), ("noisy_mafia", Team.MAFIA, Team.TOWN),
                             ("noisy_town", Team.TOWN, Team.MAFIA)]:  # fmt: skip
        got = games_of(everywhere(STYLES[name].style))
        assert speech_acts(got, loud) > speech_acts(rule, loud) + 0.2, name
        if calm is not None:
            assert speech_acts(got, calm) < speech_acts(got, loud), name


def decisions(style, variant, n=None, games=8, turn="vote", town=True):
    """Play rule-bot games; at each `turn` of a town (or mafia) seat return what the rule
    bots and the style would do, with the seat's observation."""
    out = []
    for g in range(games):
        env = mafia_env.raw_env(variant, n)
        spec = env.unwrapped.spec
        rule = RulePolicy(spec=spec, seed=g)
        styled = RulePolicy(spec=spec, seed=g, style=style)
        env.reset(seed=200 + g)
        game = env.unwrapped.game
        while not game.over:
            seat = game.actor
            obs, mask = observation(env, seat)
            mine = rule.act(obs, mask)
            kind = rule.views(obs)["my_turn"].argmax()
            is_town = team(game, seat) is Team.TOWN
            if rule.turn_names[kind] == turn and is_town == town and mask.sum() > 2:
                out.append((mine, styled.act(obs, mask), rule.views(obs), mask))
            env.step(mine)
    return out


@pytest.mark.parametrize(
    "name,variant,turn,share",
    [("vote_first", "sport", "vote", 0.1), ("bandwagon", "sport", "vote", 0.1),
     ("contrarian", "sport", "vote", 0.3), ("vote_random", "sport", "vote", 0.2),
     ("second_suspect", "sport", "vote", 0.5), ("maniac_random", "city", "maniac", 0.3),
     ("maniac_suspect", "city", "maniac", 0.3), ("maniac_trusted", "city", "maniac", 0.3),
     ("putana_random", "city", "putana", 0.3), ("putana_trusted", "city", "putana", 0.3),
     ("hunt_eager", "forum", "hunt", 0.1)],
)  # fmt: skip
def test_a_habit_changes_its_decisions(name, variant, turn, share):
    """At the turns a habit decides, the style decides otherwise than the rule bots often."""
    town = turn != "maniac"
    got = decisions(STYLES[name].style, variant, turn=turn, town=town)
    assert len(got) >= 10, name
    changed = np.mean([a != b for a, b, _, _ in got])
    assert changed >= share, (name, changed)


def test_second_suspect_never_votes_the_rule_bots_top_suspect():
    got = decisions(STYLES["second_suspect"].style, "sport")
    many = [(a, b) for a, b, v, m in got if v["candidates"].sum() >= 3]
    assert many and all(a != b for a, b in many)


def test_hunt_never_always_passes():
    got = decisions(STYLES["hunt_never"].style, "forum", turn="hunt")
    assert got and {b for _, b, _, _ in got} == {0}  # pass is action 0


def first_nominees(games) -> Counter:
    """Day 1's first nominee of each game."""
    out: Counter = Counter()
    for g in games:
        noms = [e[2] for d, e in days(g) if d == 1 and e[0] == Ev.NOMINATE]
        if noms:
            out[noms[0]] += 1
    return out


def test_nomination_habits_spread_day_1s_first_nominee():
    rule = first_nominees(games_of(everywhere(RULE), games=16))
    random = first_nominees(games_of(everywhere(STYLES["nominate_random"].style), games=16))
    assert max(random.values()) < max(rule.values()) and len(random) > len(rule)
    next_seat = [
        e[2] == (e[1] + 1) % g.n
        for g in games_of(everywhere(STYLES["nominate_neighbour"].style), games=8)
        for e in [next(e for d, e in days(g) if d == 1 and e[0] == Ev.NOMINATE)]
    ]
    assert sum(next_seat) >= 6


def test_club_table_mixes_its_habits():
    got = games_of(everywhere(STYLES["club_table"].style))
    assert sum(mafia_day1_sheriff_claims(g) for g in got) >= 3
    assert town_acts(got, Ev.VOUCH) > 10
