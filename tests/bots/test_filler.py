"""The seat-filler (issue 28): one network per benchmark task, the table's default bot.

It loads for every task's variant and table size (under the task's knobs and under today's
rules, which the table plays), plays legal moves in lockstep and through the AEC env, is a
clear error at a table size it was not trained for, and sits at a table by default.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from baselines.belief_talk import BeliefTalk  # noqa: E402
from baselines.filler import BySide  # noqa: E402
from baselines.ppo import PPOPolicy, read_checkpoint  # noqa: E402
from baselines.shipped import shipped_checkpoint, shipped_files  # noqa: E402
from mafia_env import env as make_env  # noqa: E402
from mafia_env.engine.spec import GameSpec  # noqa: E402
from mafia_env.errors import ConfigError  # noqa: E402
from mafia_env.seating.games import Seating, ask, play_games  # noqa: E402
from mafia_env.seating.policies import load_policy  # noqa: E402
from mafia_env.table.bots import BotShelf  # noqa: E402
from mafia_env.table.settings import TableConfig  # noqa: E402
from mafia_env.tasks import get_task  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TASKS = ["sport-10", "city-13", "club-10", "online-10", "forum-10", "minimal-10"]


def test_a_filler_is_shipped_for_every_task():
    assert shipped_files("filler") == ["city-13", "club", "forum", "minimal", "online", "sport"]


@pytest.mark.parametrize("config", sorted(ROOT.glob("configs/filler/*.yaml")), ids=lambda p: p.stem)
def test_a_filler_config_trains_on_its_tasks_rules(config):
    """A seat-filler's config names every knob its task plays (the task's era), so training
    it again gives a network of the shipped file's layout, whatever the current rules."""
    from baselines.ppo.ppo_config import load_config

    cfg = load_config(config)
    task = next(get_task(t) for t in TASKS if get_task(t).variant == cfg.variant)
    assert {k: cfg.knobs.get(k) for k in task.play_knobs()} == task.play_knobs()
    assert GameSpec.make(cfg.variant, cfg.num_players, **cfg.knobs).n == task.num_players


@pytest.mark.parametrize("name", TASKS)
def test_the_filler_plays_its_task(name):
    task = get_task(name)
    path = shipped_checkpoint(task.variant, task.num_players, "filler")
    ckpt = read_checkpoint(path, task.variant, task.num_players)
    # minimal-10's network reads the belief piece (configs/filler/), the rest not (club-10's
    # did until tasks version 6: `filler/v5/club.pt`)
    reads = name == "minimal-10"
    assert ckpt["obs_options"] == ({"belief": "deduction"} if reads else {})
    spec = GameSpec.make(task.variant, task.num_players, **task.play_knobs())
    policy = load_policy("filler", spec, seed=1)
    # city-13 and forum-10 (tasks v7): BySide; sport-10 (tasks v5), club-10 (v6), forum-10
    # (v7), minimal-10 (v8: its agreed shot alone), city-13 and online-10 (v9: the same): the
    # talk layer its file records
    bys = name in ("city-13", "forum-10")
    talks = name in ("sport-10", "club-10", "forum-10", "minimal-10", "city-13", "online-10")
    assert isinstance(policy, BySide) == bys
    talker = policy.default if bys else policy
    net = getattr(talker, "inner", talker)
    assert isinstance(net, PPOPolicy) and (bys or talks) == (policy is not net)
    assert isinstance(talker, BeliefTalk) == talks
    # lockstep, town against the rule bots' mafia: the games end
    seating = Seating(load_policy("rule", spec, seed=3), teams={"town": policy})
    counts = play_games(task.variant, task.num_players, seating, 2, seed=2, knobs=task.play_knobs())
    assert sum(counts.values()) == 2
    # the AEC env under today's rules (the table's): legal moves to the end
    env = make_env(task.variant, task.num_players)
    env.reset(seed=5)
    live = load_policy("filler", task.variant, task.num_players, seed=4)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        # the observation it reads (with the belief piece where it reads one)
        action = ask(env, env.possible_agents.index(agent), live)
        assert obs["action_mask"][action] == 1
        env.step(action)


def test_a_table_size_it_was_not_trained_for_is_a_clear_error():
    with pytest.raises(ConfigError, match=r"with 10 players; it cannot play a table of 8"):
        load_policy("filler", "sport", 8)
    with pytest.raises(ConfigError, match=r"no filler checkpoint is shipped .* shipped: city-13"):
        load_policy("filler", "city", 10)


def test_the_table_seats_the_filler_by_default():
    shelf = BotShelf()
    assert shelf.default_name() == "filler"
    config = TableConfig(variant="sport", humans=(1,))
    assert shelf.settle(config, 10) is config
    bots = shelf.seat_bots(config, 10, seed=3)
    # sport's filler plays under the talk layer its file records (tasks v5), each seat its own
    assert all(isinstance(b, BeliefTalk) and isinstance(b.inner, PPOPolicy) for b in bots.values())
    assert bots[1].inner.agent is bots[2].inner.agent  # one network for every seat
    assert bots[1] is not bots[2] and bots[1].inner is not bots[2].inner
    club = shelf.seat_bots(TableConfig(variant="club", humans=(1,)), 10, seed=3)
    assert all(isinstance(b, BeliefTalk) and isinstance(b.inner, PPOPolicy) for b in club.values())
    assert club[1].inner.agent is club[2].inner.agent  # (club-10's too from tasks v6)
    # where no filler is shipped (another table size) the league bot, then rule, sit
    assert shelf.settle(TableConfig(variant="sport"), 8).default_bot == "rule"


def test_by_side_hands_each_row_to_its_team_policy():
    """City-13's filler of tasks version 5 seats the rule bots on the town side
    (`baselines.pins.SEATED_V4`; version 6 on the maniac's too): each row's move is the move of
    its own team's policy, and a seat's copy has its own stream."""
    import copy

    from mafia_env.vector import VectorMafia

    spec = GameSpec.make("city", 13)
    filler = load_policy("filler", spec, seed=1, sides={"town": "rule"})
    assert isinstance(filler, BySide)
    rule, net = filler.policies[0], filler.policies[1]
    assert type(rule).__name__ == "RulePolicy" and net is filler.policies[2] is filler.default
    vec = VectorMafia("city", 16, 13, seed=4, backend="python")
    obs, masks, info = vec.reset()
    for _ in range(12):
        town = info["team"] == 0
        got = filler.act_batch(obs, masks)
        ref = rule.__class__(spec=spec, seed=1)
        assert town.any() and (~town).any()
        np.testing.assert_array_equal(got[~town], net.act_batch(obs[~town], masks[~town]))
        np.testing.assert_array_equal(got[town], ref.act_batch(obs[town], masks[town]))
        filler.seed(1)
        obs, masks, _, _, info = vec.step(got)
    seat = copy.copy(filler)
    assert seat.policies[0] is not rule and seat.policies[1] is not net
    # the network shared (under the talk layer its file records from tasks version 9)
    assert (
        seat.policies[1].inner is not net.inner and seat.policies[1].inner.agent is net.inner.agent
    )
    with pytest.raises(ConfigError, match="names no team"):
        BySide(spec, net, cops=rule)
