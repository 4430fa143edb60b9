"""Rule-based bots: always legal, seeded, and playing as the strategies say."""

from __future__ import annotations

import numpy as np
import pytest

import mafia_env
from baselines import RandomPolicy, RulePolicy, load_policy
from baselines.rule import Seen
from mafia_env.engine.events import Ev
from mafia_env.engine.roles import Role, Team
from mafia_env.errors import ConfigError
from mafia_env.vector import VectorMafia
from tests.scripting import SPORT_DEAL, Table

DEAL = SPORT_DEAL


def play(env, seat_policies, seed: int) -> None:
    """Play one game, asserting every chosen action is in the mask."""
    env.reset(seed=seed)
    game = env.unwrapped.game
    while not game.over:
        agent = env.agent_selection
        o = env.observe(agent)
        a = seat_policies[game.actor].act(o["observation"], o["action_mask"])
        assert o["action_mask"][a], f"{agent} chose illegal {env.describe_action(a)} ({env.phase})"
        env.step(a)


def mixed_games(variant: str, games: int) -> dict[str, int]:
    """Play games at every table size in three seatings; return the outcome counts.

    Seatings, in turn: every seat a rule bot; one team rule bots, the other random
    (alternately); each seat drawn at random, for odd tables of mixed play.
    """
    rules = mafia_env.VARIANTS[variant]
    sizes = list(range(rules.min_players, rules.max_players + 1))
    outcomes: dict[str, int] = {}
    rng = np.random.default_rng(11)
    for g in range(games):
        n = sizes[g % len(sizes)]
        env = mafia_env.raw_env(variant, n)
        rule = RulePolicy(variant, n, seed=g)
        rand = RandomPolicy(variant, n, seed=g)
        env.reset(seed=g)
        teams = env.game.teams
        mode = g % 3
        if mode == 0:
            seats = [rule] * n
        elif mode == 1:
            town_rule = g % 2 == 0
            seats = [rule if (t is Team.TOWN) == town_rule else rand for t in teams]
        else:
            seats = [rule if rng.random() < 0.5 else rand for _ in range(n)]
        play(env, seats, seed=g)
        outcomes[env.winner] = outcomes.get(env.winner, 0) + 1
    return outcomes


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(mafia_env.VARIANTS))
def test_rule_bots_never_choose_an_illegal_action(variant, games):
    """Over 30 games per variant (1,000 with --long; every table size, three seatings),
    every action is legal."""
    count = games(30, 1000)
    outcomes = mixed_games(variant, count)
    assert sum(outcomes.values()) == count
    assert outcomes.get("town", 0) > 0 and outcomes.get("mafia", 0) > 0


def test_load_policy_rule_builds_a_rule_bot():
    bot = load_policy("rule", variant="minimal", num_players=7, seed=3)
    assert isinstance(bot, RulePolicy)
    assert bot.n == 7 and bot.rules.name == "minimal"


def test_rule_bot_rejects_an_observation_of_another_table():
    bot = RulePolicy("sport", 10)
    env = mafia_env.env("sport", 9)
    env.reset(seed=0)
    o = env.observe(env.agent_selection)
    with pytest.raises(ConfigError, match="expects observations of size"):
        bot.act(o["observation"], o["action_mask"])


def test_rule_bots_replay_with_the_same_seed():
    """Seeded randomness: the same seeds give the same game, move for move."""
    records = []
    for _ in range(2):
        env = mafia_env.env("sport", 10)
        bot = RulePolicy("sport", 10, seed=5)
        play(env, [bot] * 10, seed=42)
        records.append(env.record()["moves"])
    assert records[0] == records[1]


def test_act_batch_matches_act():
    env = mafia_env.env("sport", 10)
    env.reset(seed=1)
    o = env.observe(env.agent_selection)
    a = RulePolicy("sport", 10, seed=0).act_batch(o["observation"][None], o["action_mask"][None])
    assert a.tolist() == [RulePolicy("sport", 10, seed=0).act(o["observation"], o["action_mask"])]


@pytest.mark.parametrize(
    "variant,n",
    [
        ("sport", None),
        ("city", None),
        ("city", 13),
        ("club", None),
        ("online", None),
        ("forum", None),
        ("minimal", None),
    ],
)
def test_act_batch_decides_each_row_as_act_does(variant, n):
    """Lockstep games of rule bots (a third of the moves random, for odd states): at every
    step the batch's actions equal one `act` call per row, in order, from a twin bot with the
    same seed, and both bots' random streams end in the same state."""
    vec = VectorMafia(variant, 16, n, seed=5)
    batch, rows = RulePolicy(variant, vec.n, seed=9), RulePolicy(variant, vec.n, seed=9)
    rng = np.random.default_rng(5)
    obs, masks, _ = vec.reset()
    for _ in range(150):
        actions = batch.act_batch(obs, masks)
        assert actions.tolist() == [rows.act(o, m) for o, m in zip(obs, masks, strict=True)]
        for b in np.flatnonzero(rng.random(len(actions)) < 1 / 3):
            legal = np.flatnonzero(masks[b])
            actions[b] = legal[rng.integers(legal.size)]
        obs, masks, *_ = vec.step(actions)
    assert batch.rng.integers(1 << 62) == rows.rng.integers(1 << 62)


def test_unknown_turn_kind_falls_back_to_a_legal_action():
    """A turn with no handler passes where it may, else plays a random legal action."""
    bot = RulePolicy("sport", 10, seed=0)
    bot.turns.clear()
    env = mafia_env.env("sport", 10)
    play(env, [bot] * 10, seed=3)
    assert env.winner is not None


def bot_turn(t: Table, bot: RulePolicy) -> None:
    """Let the rule bot take the acting seat's turn."""
    o = t.env.observe(f"player_{t.actor}")
    t.env.step(bot.act(o["observation"], o["action_mask"]))


def said(t: Table, seat: int, kind: Ev) -> list[tuple]:
    """Return (target, value) of each speech event of `kind` by `seat` (1-based seats)."""
    return [(e[2] + 1, e[3]) for e in t.game.events if e[0] == kind and e[1] == seat - 1]


def test_sheriff_bot_announces_a_black_check_in_his_next_speech():
    """The sheriff checked black seat 4 at night: next day he claims, reports and nominates."""
    t = Table("sport", DEAL)
    bot = RulePolicy("sport", 10, seed=0)
    t.speeches()
    t.night({1: 4})  # mafia hold fire (a miss), the don passes, the sheriff checks 4
    t.to("speech", seat=1)
    while t.actor == 1 and t.phase == "speech":
        bot_turn(t, bot)
    assert said(t, 1, Ev.CLAIM_ROLE) == [(0, Role.SHERIFF)]
    assert (4, 1) in said(t, 1, Ev.CLAIM_CHECK)
    assert said(t, 1, Ev.NOMINATE) == [(4, -1)]


def test_sheriff_bot_keeps_quiet_after_a_red_check():
    """A red check and no danger: the sheriff does not reveal himself."""
    t = Table("sport", DEAL)
    bot = RulePolicy("sport", 10, seed=0)
    t.speeches()
    t.night({1: 3})
    t.to("speech", seat=1)
    while t.actor == 1 and t.phase == "speech":
        bot_turn(t, bot)
    assert said(t, 1, Ev.CLAIM_ROLE) == [] and said(t, 1, Ev.CLAIM_CHECK) == []


def day_two_with_sheriff_claim(target: int) -> Table:
    """Day 2: seat 1 claims sheriff and calls `target` black; 1 nominates it, 2 nominates 5."""
    t = Table("sport", DEAL)
    t.speeches()
    t.night({})  # a quiet night
    t.speeches(
        {
            1: [("claim_role", None, "sheriff"), ("claim_check", target, "black")],
            2: [("nominate", 5)],
            3: [("nominate", target)],
        }
    )
    assert t.phase == "vote"
    return t


def test_town_bots_vote_for_the_black_check_of_a_single_sheriff_claimant():
    """The town trusts a single credible sheriff claim and votes out his black check."""
    t = day_two_with_sheriff_claim(4)
    bot = RulePolicy("sport", 10, seed=0)
    civilians = {s for s, r in enumerate(DEAL, 1) if r == "civilian"}
    while t.phase == "vote":
        if t.actor in civilians:
            bot_turn(t, bot)
        else:
            t.act(t.actor, "vote", 4 if t.actor == 1 else 5)
    ballots = {e[1] + 1: e[2] + 1 for e in t.game.events if e[0] == Ev.BALLOT}
    assert {ballots[s] for s in civilians} == {4}
    assert 4 not in t.alive


def test_town_bots_do_not_trust_a_check_claimed_on_day_one():
    """No check has been made before Day 1: such a sheriff claim is false, and suspected."""
    t = Table("sport", DEAL)
    bot = RulePolicy("sport", 10, seed=0)
    t.to("speech", seat=2)
    t.act(2, "claim_role", None, "sheriff")
    t.act(2, "claim_check", 4, "black")
    t.to("speech", seat=3)
    o = t.env.observe("player_3")
    seen = Seen(bot, o["observation"], o["action_mask"])
    assert seen.trusted() is None
    scores = seen.suspicion()
    assert scores[1] > scores[3]  # the false claimant, not his "black check"


def test_mafia_bots_shoot_the_claimed_sheriff_together():
    """Every mafia bot picks the claimed sheriff at night, so the shot lands."""
    t = day_two_with_sheriff_claim(4)
    t.vote({s: 5 for s in range(1, 11)})  # seat 5 leaves instead
    t.speeches()  # his last word
    bot = RulePolicy("sport", 10, seed=0)
    assert t.phase == "mafia_kill"
    while t.phase == "mafia_kill":
        bot_turn(t, bot)
    shots = [e[2] + 1 for e in t.game.events if e[0] == Ev.SHOT]
    assert shots[-3:] == [1, 1, 1]


def test_sheriff_bot_claims_and_accuses_a_counterclaimant():
    """Called black by a false sheriff, the real sheriff claims, accuses and nominates him."""
    t = Table("sport", DEAL)
    bot = RulePolicy("sport", 10, seed=0)
    t.speeches()
    t.night({})
    t.to("speech", seat=2)
    t.act(2, "claim_role", None, "sheriff")
    t.act(2, "claim_check", 1, "black")
    t.to("speech", seat=1)
    while t.actor == 1 and t.phase == "speech":
        bot_turn(t, bot)
    assert said(t, 1, Ev.CLAIM_ROLE) == [(0, Role.SHERIFF)]
    assert said(t, 1, Ev.ACCUSE) == [(2, -1)]
    assert said(t, 1, Ev.NOMINATE) == [(2, -1)]


def bot_takes(t: Table, phase: str, seat: int, bot: RulePolicy) -> None:
    """Play defaults until `seat` takes a turn of `phase`, then let the bot take it."""
    t.to(phase, seat=seat)
    bot_turn(t, bot)


def night_events(t: Table, kind: Ev) -> list[tuple[int, int]]:
    """Return (actor, target) of each event of `kind`, seats numbered from 1."""
    return [(e[1] + 1, e[2] + 1) for e in t.game.events if e[0] == kind]


CITY = ["sheriff", "putana", "mafia", "civilian", "civilian"]
CITY += ["don", "civilian", "maniac", "mafia", "civilian"]


def test_doctor_bot_protects_the_claimed_sheriff():
    """ONLINE: seat 1 claims sheriff on Day 1; the doctor bot (seat 2) heals him that night."""
    deal = ["sheriff", "doctor", "mafia", "civilian", "civilian"]
    deal += ["don", "civilian", "mafia", "civilian", "civilian"]
    t = Table("online", deal)
    t.to("speech", seat=1)
    t.act(1, "claim_role", None, "sheriff")
    bot_takes(t, "doctor", 2, RulePolicy("online", 10, seed=0))
    assert night_events(t, Ev.HEAL) == [(2, 1)]


def test_putana_bot_blocks_the_most_suspected_player():
    """CITY: seat 4 confesses to the mafia on Day 1; the putana bot (seat 2) visits him."""
    t = Table("city", CITY)
    t.to("speech", seat=4)
    t.act(4, "claim_role", None, "mafia")
    bot_takes(t, "putana", 2, RulePolicy("city", 10, seed=0))
    assert night_events(t, Ev.VISIT) == [(2, 4)]


def test_maniac_bot_picks_off_a_claimed_role():
    """CITY: seat 5 claims sheriff on Day 1; the maniac bot (seat 8) shoots him."""
    t = Table("city", CITY)
    t.to("speech", seat=5)
    t.act(5, "claim_role", None, "sheriff")
    bot_takes(t, "maniac", 8, RulePolicy("city", 10, seed=0))
    assert (8, 5) in night_events(t, Ev.SHOT)


@pytest.mark.parametrize("confess", [True, False])
def test_town_bot_hunts_only_a_strong_suspect(confess):
    """FORUM: the free hunt goes to a player who confessed; with no strong suspect, none."""
    deal = ["civilian", "doctor", "mafia", "civilian", "civilian"]
    deal += ["mafia", "civilian", "maniac", "civilian", "civilian"]
    t = Table("forum", deal)
    if confess:
        t.to("speech", seat=3)
        t.act(3, "claim_role", None, "mafia")
    bot_takes(t, "hunt", 1, RulePolicy("forum", 10, seed=0))
    assert night_events(t, Ev.HUNT) == ([(1, 3)] if confess else [])
