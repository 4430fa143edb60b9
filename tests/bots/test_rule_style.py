"""The rule bots' `Style`: knobs their batched decisions read (v1 the defaults, v2 a style)."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

import mafia_env
from baselines import load_policy
from baselines.rule import RULE, RULE_V2, RulePolicy, Style
from baselines.rule.handlers import HABIT_TABLES
from baselines.rule.style import CHANCES, HABITS
from baselines.rule.suspicion import READINGS
from baselines.rule.v2 import RulePolicyV2
from mafia_env.engine.events import Ev
from mafia_env.engine.roles import Role, Team
from mafia_env.errors import ConfigError
from mafia_env.seating.games import observation
from mafia_env.vector import VectorMafia


def lockstep(bots, variant, n=None, games=16, steps=80, seed=5):
    """Play lockstep games with the first bot (a fifth of the moves random); at each step
    every bot gives the same actions as the first. Return the rows decided."""
    vec = VectorMafia(variant, games, n, seed=seed)
    rng = np.random.default_rng(seed)
    obs, masks, _ = vec.reset()
    rows = 0
    for _ in range(steps):
        actions = bots[0].act_batch(obs, masks)
        for other in bots[1:]:
            assert other.act_batch(obs, masks).tolist() == actions.tolist()
        assert masks[np.arange(len(actions)), actions].all()
        rows += len(obs)
        for g in np.flatnonzero(rng.random(len(actions)) < 0.2):
            legal = np.flatnonzero(masks[g])
            actions[g] = legal[rng.integers(legal.size)]
        obs, masks, *_ = vec.step(actions)
    return rows


def test_the_defaults_are_the_rule_bots_and_v2_is_a_style():
    assert RulePolicy("sport").style == RULE == Style()
    assert RulePolicyV2("sport").style == RULE_V2
    assert load_policy("rule_v2", "city", 13).style == RULE_V2
    for variant, n in [("sport", None), ("city", 13), ("forum", None)]:
        v2, styled = RulePolicyV2(variant, n, seed=4), RulePolicy(variant, n, seed=4, style=RULE_V2)
        assert lockstep([v2, styled], variant, n, steps=50) > 0


def test_a_bad_style_is_a_clear_error():
    with pytest.raises(ConfigError, match=r"style knob 'check' must be one of 'suspicion', "):
        Style(check="psychic")
    with pytest.raises(ConfigError, match=r"'fake_claim_p' must be a number in \[0, 1\]; got 2"):
        Style(fake_claim_p=2)
    with pytest.raises(ConfigError, match=r"unknown style knob\(s\) 'vote'; the knobs are: "):
        RulePolicy("sport", style={"vote": "bandwagon"})
    with pytest.raises(ConfigError, match="a style is a Style or a mapping of its knobs"):
        RulePolicy("sport", style="rule_v2")


def test_every_habit_a_knob_names_has_its_decision():
    assert set(HABITS) | set(CHANCES) == {f.name for f in fields(Style)}
    assert set(READINGS) == set(HABITS["reading"])
    for knob, table in HABIT_TABLES.items():
        assert set(table) == set(HABITS[knob]), knob
    assert set(HABIT_TABLES) | {"reading"} == set(HABITS)


def test_load_policy_and_the_bots_take_a_style_or_its_knobs():
    bot = load_policy("rule", "sport", 10, seed=3, style={"check": "information"})
    assert bot.style == Style(check="information")
    assert RulePolicyV2("sport", style={"hunt": "strong"}).style == RULE_V2.but(hunt="strong")
    club = load_policy("rule", "club", style={"check": "information"})
    early = club.earlier(957)  # a table under the rules of an earlier era: the same style
    assert early is not None and early.style == club.style


@pytest.mark.parametrize(
    "knob,habit,variant,n",
    [
        ("reading", "posterior", "sport", None),
        ("abstain", "posterior", "club", None),
        ("check", "information", "city", 13),
        ("don_check", "information", "sport", None),
        ("heal", "likeliest", "online", None),
        ("block", "posterior", "city", None),
        ("hunt", "sure", "forum", None),
        ("executor", "posterior", "forum", None),
    ],
)
def test_one_habit_over_the_defaults_plays_legally_and_a_batch_as_its_rows(knob, habit, variant, n):
    """Each habit is a branch of the batched decision: mixed into v1 it plays legal moves,
    and a batch decides as its rows one by one."""
    style = RULE.but(**{knob: habit})
    batch = RulePolicy(variant, n, seed=2, style=style)
    rows = RulePolicy(variant, n, seed=2, style=style)

    class OneByOne:
        def act_batch(self, obs, masks):
            return np.array([rows.act(o, m) for o, m in zip(obs, masks, strict=True)])

    assert lockstep([batch, OneByOne()], variant, n, games=12, steps=60) > 0


def mafia_sheriff_claims(style: Style, games: int = 12) -> int:
    """Sheriff claims by mafia players in SPORT games of rule bots playing `style`."""
    claims = 0
    for g in range(games):
        env = mafia_env.raw_env("sport")
        bot = RulePolicy(spec=env.unwrapped.spec, seed=g, style=style)
        env.reset(seed=g)
        game = env.unwrapped.game
        while not game.over:
            obs, mask = observation(env, game.actor)
            env.step(bot.act(obs, mask))
        claims += sum(
            1
            for e in game.events
            if e[0] == Ev.CLAIM_ROLE and e[3] == Role.SHERIFF and game.teams[e[1]] is Team.MAFIA
        )
    return claims


def test_the_mafias_fake_claim_chances_are_knobs():
    """With both chances 0 no mafia player claims sheriff; with the fake claim's chance 1 the
    mafia claim sheriff where nobody has (day 2 on)."""
    assert mafia_sheriff_claims(RULE.but(counterclaim_p=0.0, fake_claim_p=0.0)) == 0
    assert mafia_sheriff_claims(RULE.but(fake_claim_p=1.0)) >= 6
