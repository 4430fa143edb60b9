"""Every variant: PettingZoo's API and seed tests, random legal play, no leaks, knob matrix."""

from __future__ import annotations

import numpy as np
import pytest

import mafia_env
from mafia_env.engine.events import Cause, Ev, Outcome
from mafia_env.engine.roles import Role, Team
from mafia_env.errors import ConfigError, IllegalActionError
from mafia_env.lang import SILENT
from mafia_env.observe import CAUSES
from mafia_env.variants import VARIANTS
from tests.scripting import Table, compare_views, random_playout

NEW = ("city", "club", "online", "forum")
ALL = ("sport", "minimal", *NEW)
GAMES = {"city": 400, "club": 150, "online": 250, "forum": 400, "sport": 150, "minimal": 300}


@pytest.mark.parametrize("variant", ALL)
def test_every_variant_sets_every_knob_and_documents_defaults(variant):
    """COMMON: each variant file sets every knob, from the source or as a default."""
    rules = VARIANTS[variant]
    assert set(rules.knob_values()) == set(mafia_env.engine.rules.KNOBS)
    assert rules.defaults < set(rules.knob_values())
    assert rules.min_players <= 10 <= rules.max_players and rules.default_players == 10


# PettingZoo's api_test and seed_test, and thousands of random games with outcome checks, run
# for every variant in tests/views/test_env.py; the tests below add what is new to these variants.


def _check_outcome(env) -> None:
    game = env.unwrapped.game
    town, black, maniac = game.team_alive
    w = game.winner
    if game.truncated:
        assert w is Outcome.DRAW
    elif w is Outcome.TOWN:
        assert black == 0 and maniac == 0
    elif w is Outcome.MAFIA and game.rules.mafia_win_maniac == "counted":  # FORUM-W1
        assert black >= town + maniac and black > 0
    elif w is Outcome.MAFIA:
        assert maniac == 0 and black >= town > -1 and black > 0
    elif w is Outcome.MANIAC:
        assert maniac == 1 and town + black <= 1
    else:
        assert w is Outcome.DRAW and town == 0 and black == 1 and maniac == 1
    win_team = {Outcome.TOWN: Team.TOWN, Outcome.MAFIA: Team.MAFIA, Outcome.MANIAC: Team.MANIAC}
    for i, agent in enumerate(env.possible_agents):
        r = env._cumulative_rewards[agent]
        if w is Outcome.DRAW:
            assert r == 0
        else:
            assert r == (1 if game.teams[i] is win_team[w] else -1)


@pytest.mark.parametrize("variant", ALL)
@pytest.mark.slow
def test_random_legal_play(variant):
    """Random legal play over every table size: every game ends, the acting agent's mask is
    never empty and its observation lies in [0, 1]; winners and rewards agree; the maniac's
    win and the draw of COMMON-4 both happen."""
    rules = VARIANTS[variant]
    sizes = list(range(rules.min_players, rules.max_players + 1))
    rng = np.random.default_rng(7)
    envs = {n: mafia_env.env(variant, n) for n in sizes}
    outcomes = dict.fromkeys(Outcome, 0)
    for g in range(GAMES[variant]):
        env = envs[sizes[g % len(sizes)]]
        env.reset(seed=g)
        game = env.unwrapped.game
        for _ in range(100_000):
            if game.over:
                break
            agent = env.agent_selection
            mask = env.observe(agent)["action_mask"]
            assert mask.any(), f"{agent} has no legal action ({env.phase})"
            assert agent == f"player_{game.actor + 1}"
            obs = env.observe(agent)["observation"]
            assert obs.min() >= 0 and obs.max() <= 1, env.obs_layout.views(obs)
            env.step(int(rng.choice(np.flatnonzero(mask))))
        assert game.over
        _check_outcome(env)
        outcomes[game.winner] += 1
    assert outcomes[Outcome.TOWN] and outcomes[Outcome.MAFIA]
    if Role.MANIAC in rules.roles_in_play():
        assert outcomes[Outcome.MANIAC] and outcomes[Outcome.DRAW]


@pytest.mark.parametrize("variant", ALL)
def test_no_leak_same_visible_history_same_observation(variant):
    """COMMON-2, COMMON-8: another hidden deal the agent cannot tell apart: the same view.

    Two games share a seed and actions; their deals differ by two other seats' roles. While
    every event the agent saw is the same in both games, so must be his observation.
    """
    rules = VARIANTS[variant]
    rng = np.random.default_rng(11)
    compared = differing = 0
    for g in range(150):
        n = int(rng.integers(rules.min_players, rules.max_players + 1))
        probe = mafia_env.env(variant, n)
        probe.reset(seed=g)
        deal = [r.label for r in probe.unwrapped.game.roles]
        me = int(rng.integers(n))
        mine = Role[deal[me].upper()].team
        x, y = rng.choice([s for s in range(n) if s != me], 2, replace=False)
        teams = {Role[deal[x].upper()].team, Role[deal[y].upper()].team}
        if deal[x] == deal[y] or (mine is Team.MAFIA and len(teams) > 1):
            continue  # a mafia agent knows his teammates: swap within a team
        swapped = list(deal)
        swapped[x], swapped[y] = deal[y], deal[x]
        c, d = compare_views(variant, deal, swapped, me + 1, g, rng)
        compared += c
        differing += d
    assert compared > 1000 and differing > 20


# One scripted day and night of CITY under different knobs: seats as in test_city.DEAL.
CITY = ["sheriff", "civilian", "putana", "mafia", "civilian", "don", "civilian", "mafia"]
CITY += ["maniac", "civilian"]
TIE = {1: 5, 2: 5, 3: 5, 4: 5, 5: 5, 6: 7, 7: 7, 8: 7, 9: 7, 10: 7}
V, N = Cause.VOTE, Cause.NIGHT


@pytest.mark.parametrize(
    ("knobs", "left", "revealed"),
    [
        ({}, [(5, V), (7, V), (10, Cause.MAFIA), (2, Cause.MANIAC)], []),
        ({"tie": "none"}, [(10, Cause.MAFIA), (2, Cause.MANIAC)], []),
        ({"tie": "revote_then_none"}, [(10, Cause.MAFIA), (2, Cause.MANIAC)], []),
        (
            {"mafia_kill": "unanimous"},
            [(5, V), (7, V), (2, N), (4, Cause.FORFEIT), (6, Cause.FORFEIT), (8, Cause.FORFEIT)],
            [],
        ),
        ({"mafia_kill": "unanimous", "mafia_split": "miss"}, [(5, V), (7, V), (2, N)], []),
        ({"night_announce": "plain"}, [(5, V), (7, V), (10, N), (2, N)], []),
        (
            {"reveal_on_death": "all"},
            [(5, V), (7, V), (10, Cause.MAFIA), (2, Cause.MANIAC)],
            [(5, Role.CIVILIAN), (7, Role.CIVILIAN), (10, Role.CIVILIAN), (2, Role.CIVILIAN)],
        ),
    ],
)
def test_variant_matrix_one_day_and_night_under_knobs(knobs, left, revealed):
    """Knobs change outcomes: SPORT-D3/ONLINE-V5 tie, CITY-N3/N4 kill, CITY-M1, CLUB-E4."""
    t = Table("city", CITY, **knobs)
    t.speeches({1: [("nominate", 5)], 2: [("nominate", 7)]})
    t.vote(TIE)
    t.speeches()  # the debate, if any
    if t.phase == "vote":
        t.vote(TIE)
    t.speeches()  # last words
    t.night({3: 1, 4: 2, 8: 2, 6: 10, 1: 4, 9: 2})
    assert t.left() == left
    assert [(e[2] + 1, e[3]) for e in t.events(Ev.REVEAL)] == revealed


@pytest.mark.parametrize("variant", NEW)
def test_records_replay_to_the_same_game(variant):
    """A record of random play replays to the same events (asks, answers, hunts included)."""
    rng = np.random.default_rng(3)
    for g in range(15):
        env = mafia_env.env(variant)
        env.reset(seed=g)
        random_playout(env, rng)
        again = mafia_env.replay(env.record())
        assert again.unwrapped.game.events == env.unwrapped.game.events


def test_bad_new_knob_values_are_clear_errors():
    """Knob checks name the knob and what it allows."""
    with pytest.raises(ConfigError, match=r"night_order.*putana, mafia, don"):
        mafia_env.env("city", night_order="mafia mafia")
    with pytest.raises(ConfigError, match="night_order"):
        mafia_env.env("city", night_order="mafia sleepwalker")
    with pytest.raises(ConfigError, match=r"mafia_kill.*'unanimous', 'don', 'executor'"):
        mafia_env.env("forum", mafia_kill="vote")
    with pytest.raises(ConfigError, match=r"heal_self.*>= 0"):
        mafia_env.env("online", heal_self=-1)


def test_new_action_kinds_have_clear_errors_and_names():
    """ask needs a role, answer yes/no/dont_know; describe_action names them."""
    env = mafia_env.env("online")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="ask needs a role"):
        env.action_id("ask", 3, "wizard")
    with pytest.raises(IllegalActionError, match="answer needs value"):
        env.action_id("answer", value="maybe")
    assert env.describe_action(env.action_id("ask", 3, "don")) == "ask 3 don"
    assert env.describe_action(env.action_id("answer", value="dont_know")) == "answer dont_know"
    assert env.describe_action(env.action_id("reveal_don")) == "reveal_don"
    forum = mafia_env.env("forum")
    assert forum.describe_action(forum.action_id("hunt", 4, "mafia")) == "hunt 4 mafia"
    plain = mafia_env.env("forum", hunt_status=False)
    assert plain.describe_action(plain.action_id("hunt", 4)) == "hunt 4"
    assert forum.describe_action(forum.action_id("executor", 2)) == "executor 2"
    with pytest.raises(IllegalActionError, match="unknown action kind 'hunt'"):
        env.action_id("hunt", 4)


@pytest.mark.parametrize("variant", NEW)
def test_every_event_narrates_for_whoever_saw_it(variant):
    """Narration has a line for every event of these variants, public and private."""
    rng = np.random.default_rng(9)
    kinds: set[Ev] = set()
    for g in range(40):
        env = mafia_env.env(variant)
        env.reset(seed=g)
        random_playout(env, rng)
        events = env.unwrapped.game.events
        for seat in range(env.unwrapped.n):
            for line in mafia_env.narrate.narrate(events, seat):
                assert line and "None" not in line
        kinds |= {Ev(e[0]) for e in events if mafia_env.narrate.say(e) is None}
    assert {k.name for k in kinds} <= SILENT, f"no narration for {kinds}"


@pytest.mark.parametrize(
    ("variant", "present", "absent"),
    [
        ("sport", set(), {"my_night", "blocked", "last_heal", "questions", "named", "counting"}),
        ("minimal", set(), {"my_night", "team_shots", "answers", "named"}),
        ("city", {"my_night", "team_shots", "blocked", "last_heal"}, {"questions", "named"}),
        # CLUB-N4, ONLINE-N8: the mafia see each other's shots; CLUB-E7, ONLINE-V7: the count
        ("club", {"named", "my_night", "team_shots", "counting"}, {"blocked", "last_heal"}),
        (
            "online",
            {"my_night", "last_heal", "questions", "answers", "team_shots", "counting"},
            {"named", "team_executors"},
        ),
        ("forum", {"my_night", "team_shots", "team_executors", "last_heal"}, {"blocked"}),
    ],
)
def test_observation_pieces_follow_the_variant(variant, present, absent):
    """A variant's observation has the pieces its roles and knobs can fill, and no others."""
    layout = mafia_env.env(variant).obs_layout
    assert present <= set(layout.offsets) and not absent & set(layout.offsets)
    causes = layout.offsets["eliminated"][1][1]
    # a removal by the moderator (SPORT-F2) shares the fouls' column
    assert causes == (3 if variant in ("sport", "minimal", "club", "online") else CAUSES)
