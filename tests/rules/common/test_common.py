"""COMMON rules (every variant unless it overrides), as scripted games."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import mafia_env
from mafia_env.engine.events import Ev
from mafia_env.errors import IllegalActionError
from tests.scripting import SPORT_DEAL, Table

DEAL = SPORT_DEAL


def views(env, agent):
    return env.obs_layout.views(env.observe(agent)["observation"])


def test_common_1_deal_is_uniform_and_driven_by_the_seed():
    """COMMON-1: roles dealt uniformly at random from the table, driven by the env seed."""
    env = mafia_env.env("sport")
    deals = []
    for seed in range(3):
        env.reset(seed=seed)
        deals.append(tuple(env.roles.values()))
    env.reset(seed=0)
    assert tuple(env.roles.values()) == deals[0]
    assert len(set(deals)) > 1
    counts = Counter()
    games = 3000
    for seed in range(games):
        env.reset(seed=seed)
        counts[env.roles["player_1"]] += 1
    for role, share in {"civilian": 0.6, "mafia": 0.2, "sheriff": 0.1, "don": 0.1}.items():
        se = (share * (1 - share) / games) ** 0.5
        assert abs(counts[role] / games - share) < 4 * se, (role, counts)


def test_common_1_reset_without_seed_continues_the_stream():
    """COMMON-1: everything random flows from the one seed given at the first reset."""
    a, b = mafia_env.env("sport"), mafia_env.env("sport")
    a.reset(seed=5)
    b.reset(seed=5)
    a.reset()
    b.reset()
    assert a.roles == b.roles and a.game_seed == b.game_seed


def test_common_2_own_role_and_mafia_teammates_only():
    """COMMON-2: each agent knows its role; mafia know each other; nobody else learns roles."""
    t = Table("sport", DEAL)
    env = t.env
    labels = [r.label for r in env.layout.roles]
    for seat, role in enumerate(DEAL, start=1):
        v = views(env, f"player_{seat}")
        known = v["known_roles"].sum(axis=1).nonzero()[0] + 1
        if role in ("mafia", "don"):
            assert set(known) == {4, 6, 8}
            assert v["known_roles"][5].argmax() == labels.index("don")  # the don, by name
        else:
            assert list(known) == [seat]
        assert v["role"].argmax() == labels.index(role)


def test_common_3_zero_night_then_day_one():
    """COMMON-3: a zero night on which the mafia meet and nobody acts, then Day 1."""
    t = Table("sport", DEAL)
    kinds = [e[0] for e in t.game.events]
    assert kinds.index(Ev.NIGHT) < kinds.index(Ev.DAY)
    assert t.game.day == 1 and (t.phase, t.actor) == ("speech", 1)
    assert not [e for e in t.game.events if e[0] in (Ev.SHOT, Ev.CHECK)]


def test_common_3_minimal_opens_with_day_one():
    """COMMON-3: MINIMAL opens with Day 1, no zero night."""
    t = Table("minimal", ["civilian", "mafia", "civilian", "civilian", "civilian"], mafia_count=1)
    assert Ev.NIGHT not in [e[0] for e in t.game.events]
    assert t.game.day == 1


def test_common_3_dead_players_act_no_more_after_last_word():
    """COMMON-3: dead players act no more, except a last word where the variant grants one."""
    t = Table("sport", DEAL)
    t.speeches()
    t.night({4: 9, 6: 9, 8: 9})
    assert (t.phase, t.actor) == ("last_word", 9)
    t.act(9, "pass")
    seen = set()
    t.until(lambda tb: seen.add(tb.actor) or tb.game.day == 3)
    assert 9 not in seen


def test_common_4_truncated_as_draw_at_day_limit():
    """COMMON-4: a game that reaches the variant's day limit is truncated as a draw."""
    t = Table("sport", DEAL, max_days=2)
    t.until(lambda tb: False)
    env = t.env
    assert env.winner == "draw" and t.game.truncated
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert set(env._cumulative_rewards.values()) == {0.0}


def test_common_4_default_day_limit_is_three_n():
    """COMMON-4: default limit 3 * n days."""
    rules = mafia_env.VARIANTS["sport"]
    assert rules.max_days is None and rules.day_limit(10) == 30


def test_common_4_team_rewards_reach_eliminated_players():
    """COMMON-4: every agent gets its team's reward at the end, the eliminated too."""
    t = Table("sport", ["sheriff", "civilian", "civilian", "civilian", "mafia", "don"])
    t.speeches({1: [("nominate", 2)], 2: [("nominate", 3)]})
    t.vote({s: 2 for s in t.alive})
    t.speeches()
    t.night({5: 3, 6: 3})
    env = t.env
    assert env.winner == "mafia"
    rewards = env._cumulative_rewards
    assert rewards == {
        "player_1": -1,
        "player_2": -1,
        "player_3": -1,
        "player_4": -1,
        "player_5": 1,
        "player_6": 1,
    }
    assert env.agents == env.possible_agents  # the eliminated are still there
    for agent in env.agent_iter():
        _, r, term, _, _ = env.last()
        assert term and r == rewards[agent]
        env.step(None)
    assert env.agents == []


def test_common_5_speech_has_at_most_k_acts():
    """COMMON-5: at most K acts per speech (K a knob); the K-th act ends the speech."""
    for k in (1, 4):
        t = Table("sport", DEAL, speech_acts=k)
        for i in range(k):
            assert t.actor == 1
            t.act(1, "accuse", 2 + i)
        assert t.actor == 2


def test_common_5_end_speech_and_claims_may_be_lies():
    """COMMON-5: any role may claim anything structurally valid; "end speech" ends it."""
    t = Table("sport", DEAL)
    t.act(1, "pass")
    t.act(2, "claim_role", value="sheriff")  # a civilian lies
    t.act(2, "claim_check", 4, "red")
    t.act(2, "vouch", 4)
    t.act(2, "pass")
    assert t.actor == 3
    v = views(t.env, "player_7")
    assert v["claimed_check"][1, 3, 0] == 1 and v["vouched"][1, 3] == 1


def test_common_5_no_check_claim_about_oneself_but_dead_seats_are_fine():
    """COMMON-5: a claim about an alive or dead seat is valid; checking oneself is not."""
    t = Table("sport", DEAL)
    t.speeches()
    t.night({4: 2, 6: 2, 8: 2})
    assert (t.phase, t.actor) == ("last_word", 2)
    assert 2 not in t.legal_targets("claim_check")
    t.act(2, "pass")
    assert (t.phase, t.actor) == ("speech", 2 + 1)
    targets = t.legal_targets("claim_check")
    assert 3 not in targets and 2 in targets  # the dead seat 2 may be named


def test_common_6_votes_with_voters_are_public_checks_private():
    """COMMON-6: votes with who cast them are public; own check results are private."""
    t = Table("sport", DEAL)
    t.speeches({1: [("nominate", 4)], 2: [("nominate", 5)]})
    t.vote({1: 4, 2: 4, 3: 5})
    for seat in range(1, 11):
        v = views(t.env, f"player_{seat}")
        assert v["votes"][0, 3] == 1 and v["votes"][2, 4] == 1
    t.speeches()
    t.night({4: 2, 6: 2, 8: 2, 1: 8})
    assert views(t.env, "player_1")["checks"][7, 0] == 1
    assert views(t.env, "player_6")["checks"][1, 1] == 1  # the don's check of seat 2: no
    for seat in set(range(2, 11)) - {6}:
        assert views(t.env, f"player_{seat}")["checks"].sum() == 0


def test_common_7_illegal_action_raises_naming_agent_phase_and_legal_actions():
    """COMMON-7: with knob illegal_action=raise an action outside the mask raises a clear
    error (the views' defaults: tests/views/test_checkers.py)."""
    t = Table("sport", DEAL, illegal_action="raise")
    with pytest.raises(IllegalActionError) as e:
        t.env.step(t.env.action_id("vote", 3))
    msg = str(e.value)
    assert "player_1" in msg and "speech" in msg and "nominate 3" in msg and "pass" in msg


def test_common_7_foul_knob_records_a_foul_and_takes_the_default_action():
    """COMMON-7: knob illegal_action=foul records a foul and substitutes the default action."""
    t = Table("sport", DEAL, illegal_action="foul")
    t.env.step(t.env.action_id("vote", 3))
    assert t.game.fouls[0] == 1 and t.actor == 2  # the speech ended (pass)
    assert views(t.env, "player_5")["fouls"][0] == pytest.approx(0.25)


def test_common_7_terminate_knob_ends_game_with_penalty():
    """COMMON-7: knob illegal_action=terminate ends the game; the offender gets -1."""
    t = Table("sport", DEAL, illegal_action="terminate")
    t.act(1, "pass")
    t.env.step(t.env.action_id("vote", 3))
    env = t.env
    assert t.game.over and all(env.terminations.values())
    assert env._cumulative_rewards["player_2"] == -1
    assert all(r == 0 for a, r in env._cumulative_rewards.items() if a != "player_2")


def test_common_8_ballots_hidden_until_round_resolves():
    """COMMON-8: the votes of one round are hidden from the other voters until it resolves."""
    obs = []
    for first_vote in (4, 5):
        t = Table("sport", DEAL)
        t.speeches({1: [("nominate", 4)], 2: [("nominate", 5)]})
        t.act(1, "vote", first_vote)
        obs.append(t.env.observe("player_2")["observation"])
    assert np.array_equal(obs[0], obs[1])


def test_common_8_mafia_shots_hidden_from_teammates():
    """COMMON-8: the mafia's shots are hidden from each other; only the outcome is public."""
    obs = []
    for shot in (2, 3):
        t = Table("sport", DEAL)
        t.speeches()
        t.act(4, "night", shot)
        assert t.actor == 6
        obs.append(t.env.observe("player_6")["observation"])
    assert np.array_equal(obs[0], obs[1])
    lines = Table("sport", DEAL)
    lines.speeches()
    lines.night({4: 2, 6: 3, 8: 2})
    log = lines.public_log()
    assert "shot" not in log and "Nobody was killed" in log


def test_common_8_night_actor_not_in_others_observation():
    """COMMON-8: who is acting at night is not shown to the others."""
    t = Table("sport", DEAL)
    t.speeches()
    a = t.env.observe("player_2")["observation"]
    t.act(4, "night", 2)
    b = t.env.observe("player_2")["observation"]
    assert np.array_equal(a, b)
