"""Every library's own checker with the default settings (issue 31), on every variant.

PettingZoo's api, seed, state, render and bombardment tests on the AEC env and its parallel
tests on the parallel view, in the vector and the flat modes; Gymnasium's ``check_env`` on
`single_agent`; TorchRL's ``check_env_specs`` on the wrapped and the transformed env; RLlib's
env check on ``ParallelPettingZooEnv``. No knob is set: the checkers that sample without the
mask meet each view's default illegal-action convention (COMMON-7, `mafia_env.illegal`).
The checkers warn about what they sample; those warnings are expected here.
"""

from __future__ import annotations

import inspect
import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import (
    api_test,
    bombardment_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
    state_test,
)
from pettingzoo.test.api_test import test_observation as check_observation

import mafia_env

VARIANTS = sorted(mafia_env.VARIANTS)
MODES = ["vector", "flat"]
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_aec_checkers(variant, mode):
    """COMMON-7: api, seed, state and bombardment tests pass on `env()` with no knob."""
    api_test(mafia_env.env(variant, obs_mode=mode), num_cycles=100)
    seed_test(lambda: mafia_env.env(variant, obs_mode=mode), num_cycles=100)
    state_test(
        mafia_env.env(variant, obs_mode=mode), mafia_env.parallel_env(variant, obs_mode=mode)
    )
    bombardment(mafia_env.env(variant, obs_mode=mode), cycles=20)


def bombardment(env, cycles: int) -> None:
    """PettingZoo's `bombardment_test`, or where it has its upstream bug (1.27 asserts that
    the None that an AEC ``step()`` returns lies in the observation space: every AEC env
    fails, its own classic games too; fixed by PettingZoo pull request 1464), the same test
    with the observation taken from ``last()`` and a Dict observation's vector compared."""
    if "next_observe = env.step" not in inspect.getsource(bombardment_test):
        bombardment_test(env, cycles)
        return
    env.reset()
    first, *_ = env.last()
    first = first["observation"] if isinstance(first, dict) else first
    for _ in range(cycles):
        for agent in env.agent_iter(env.num_agents):
            obs, _, term, trunc, _ = env.last()
            assert env.observation_space(agent).contains(obs)
            check_observation(obs["observation"] if isinstance(obs, dict) else obs, first)
            if term or trunc:
                action = None
            elif isinstance(obs, dict):
                action = random.choice(np.flatnonzero(obs["action_mask"]).tolist())
            else:  # no mask in the observation: unmasked, as the checker samples
                action = env.action_space(agent).sample()
            env.step(action)
        env.reset()


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_render_test(variant):
    render_test(lambda render_mode=None: mafia_env.env(variant, render_mode=render_mode))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_parallel_checkers(variant, mode):
    """COMMON-7: the parallel tests pass on `parallel_env()` with no knob, flat mode too."""
    parallel_api_test(mafia_env.parallel_env(variant, obs_mode=mode), num_cycles=200)
    parallel_seed_test(lambda: mafia_env.parallel_env(variant, obs_mode=mode), num_cycles=100)


@pytest.mark.parametrize("variant", VARIANTS)
def test_gymnasium_check_env_on_single_agent(variant):
    from gymnasium.utils.env_checker import check_env

    check_env(mafia_env.single_agent(variant, opponents="random"), skip_render_check=True)


# -------------------------------------------------------------------- TorchRL


def torchrl_envs(variant: str, mode: str):
    from torchrl.envs import RewardSum, TransformedEnv
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    par = mafia_env.parallel_env(variant, obs_mode=mode)
    wrapped = PettingZooWrapper(par, use_mask=True, categorical_actions=True, return_state=True)
    yield wrapped
    # the transformed env of TorchRL's multi-agent PPO tutorial
    yield TransformedEnv(
        PettingZooWrapper(
            mafia_env.parallel_env(variant, obs_mode=mode), use_mask=True, return_state=True
        ),
        RewardSum(in_keys=[("player", "reward")], out_keys=[("player", "episode_reward")]),
    )


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_torchrl_check_env_specs(variant, mode):
    pytest.importorskip("torchrl")
    from torchrl.envs.utils import check_env_specs

    for env in torchrl_envs(variant, mode):
        check_env_specs(env, seed=0)
        state = env.reset()["state"]
        par = mafia_env.parallel_env(variant)
        assert state.shape[-1] == par.state_space.shape[0]  # sized from state_space
        td = env.reset()
        if mode == "flat":  # the flat mode's infos say who acts
            acting = td["player", "info", "acting"].bool()
        else:  # the Dict mode's infos hold only the mask: a seat acts iff it need not wait
            acting = td["player", "action_mask"][..., :-1].any(-1)
        assert acting.sum() >= 1 and not acting.all()


# ---------------------------------------------------------------------- RLlib


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_rllib_env_check_on_parallel_pettingzoo_env(variant, mode):
    pytest.importorskip("ray.rllib")
    from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    env = ParallelPettingZooEnv(mafia_env.parallel_env(variant, obs_mode=mode))
    for _ in range(3):  # the check samples its actions at random: a few draws
        check_multiagent_environments(env)


# -------------------------------------------------- the convention shows a bug


def test_common_7_defaults_terminate_count_and_warn_once():
    """COMMON-7: the AEC default ends the game (-1 to the offender), counts and warns once;
    raise is one knob away."""
    env = mafia_env.env("sport")
    env.reset(seed=0)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    with pytest.warns(mafia_env.IllegalActionWarning, match=rf"{agent} cannot take action"):
        env.step(illegal)
    assert env.terminations[agent] and env.rewards[agent] == -1.0
    assert env.illegal_counts[agent] == 1 and "illegal" not in env.infos[agent]
    assert {env.rewards[a] for a in env.agents if a != agent} == {0.0}
    env.reset(seed=1)
    assert env.illegal_counts[agent] == 0  # counted per game
    a = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # warned once per env: no second warning
        env.step(int(np.flatnonzero(env.observe(a)["action_mask"] == 0)[0]))
    assert env.unwrapped.illegal_action == "terminate"
    flat = mafia_env.env("sport", obs_mode="flat")
    flat.reset(seed=0)
    with pytest.warns(mafia_env.IllegalActionWarning):
        flat.step(illegal)
    assert flat.infos[agent]["illegal"] == 1 and flat.infos[agent]["acting"] is False
    strict = mafia_env.env("sport", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(mafia_env.IllegalActionError, match="legal actions: 0 \\(pass\\)"):
        strict.step(illegal)


def test_common_7_parallel_default_and_foul():
    par = mafia_env.parallel_env("sport", obs_mode="flat")
    _, infos = par.reset(seed=0)
    actor = par.acting[0]
    actions = {a: 0 for a in par.agents}  # every waiting seat sends a non-wait: ignored
    actions[actor] = int(np.flatnonzero(infos[actor]["action_mask"] == 0)[0])
    with pytest.warns(mafia_env.IllegalActionWarning):
        _, rewards, terms, _, infos = par.step(actions)
    assert all(terms.values()) and rewards[actor] == -1.0 and infos[actor]["illegal"] == 1
    assert sum(i["illegal"] for i in infos.values()) == 1
    fouls = mafia_env.parallel_env("sport", illegal_action="foul")
    fouls.reset(seed=0)
    actor = fouls.acting[0]
    with pytest.warns(mafia_env.IllegalActionWarning, match="a foul"):
        _, _, terms, _, infos = fouls.step({actor: fouls.wait})
    assert not any(terms.values()) and fouls.illegal_counts[actor] == 1
    assert fouls.game.fouls[int(actor.split("_")[1]) - 1] == 1
    single = mafia_env.single_agent("minimal", seat=1, opponents="random")
    single.reset(seed=0)
    bad = int(np.flatnonzero(~single.action_masks())[0])
    with pytest.warns(mafia_env.IllegalActionWarning):
        _, reward, terminated, _, info = single.step(bad)
    assert terminated and reward == -1.0 and info["illegal"] == 1


def test_vector_mafia_keeps_raise_only():
    from mafia_env.vector import VectorMafia

    assert VectorMafia("minimal", 2).rules.illegal_action is None  # raise: its only mode
    with pytest.raises(mafia_env.ConfigError, match="only illegal_action='raise'"):
        VectorMafia("minimal", 2, illegal_action="foul")


# --------------------------------------------------------------- who acts


@pytest.mark.parametrize("variant", VARIANTS)
def test_infos_say_who_acts_in_both_views(variant):
    env = mafia_env.env(variant, obs_mode="flat")
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for agent in env.agent_iter():
        _, _, term, trunc, info = env.last()
        acting = [a for a in env.agents if env.infos[a]["acting"]]
        if term or trunc:
            assert acting == []
            env.step(None)
            continue
        assert acting == [agent] and info["acting"]
        env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    par = mafia_env.parallel_env(variant, obs_mode="flat")
    _, infos = par.reset(seed=3)
    waits = float(par.wait)
    while par.agents:
        assert [a for a in par.agents if infos[a]["acting"]] == par.acting
        for a in par.agents:
            eda = infos[a]["env_defined_actions"]
            if infos[a]["acting"]:
                assert np.isnan(eda) and eda == infos[a]["env_defined_actions"]
            else:
                assert eda == waits and np.flatnonzero(infos[a]["action_mask"]).tolist() == [
                    par.wait
                ]
        actions = {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"]))) for a in par.agents}
        _, _, _, _, infos = par.step(actions)


# ---------------------------------------------------------------- the state


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_state_is_the_whole_table(variant):
    """Every role and every private row is in the state, and the acting seats."""
    env = mafia_env.env(variant)
    env.reset(seed=4)
    layout = env.unwrapped.state_layout
    rng = np.random.default_rng(4)
    for agent in env.agent_iter():
        state = env.state()
        assert env.state_space.contains(state) and state.dtype == np.float32
        views = layout.views(state)
        for s, a in enumerate(env.possible_agents):
            assert np.array_equal(views["seats"][s], own_private(env, a))
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            assert views["acting"].sum() == 0 and views["turn"][-1] == 1
            env.step(None)
            continue
        assert views["acting"].tolist() == [float(a == agent) for a in env.possible_agents]
        p = env.unwrapped.obs_layout.private_size
        for a in env.possible_agents:  # the public part: every seat's the same
            assert np.array_equal(views["table"], env.observe(a)["observation"][p:])
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


def own_private(env, agent: str) -> np.ndarray:
    """An agent's private row, as its observation has it but without the turn it takes now."""
    obs_layout = env.unwrapped.obs_layout
    row = env.observe(agent)["observation"][: obs_layout.private_size].copy()
    start, (t,) = obs_layout.offsets["my_turn"]
    row[start : start + t] = 0
    return row


def test_the_parallel_state_marks_the_round():
    par = mafia_env.parallel_env("sport")
    obs, _ = par.reset(seed=0)
    rng = np.random.default_rng(0)
    seen_round = False
    while par.agents:
        views = par.aec.state_layout.views(par.state())
        assert par.state_space.contains(par.state())
        acting = [par.possible_agents[s] for s in np.flatnonzero(views["acting"])]
        assert acting == sorted(par.acting, key=par.possible_agents.index)
        seen_round |= len(acting) > 1
        obs, *_ = par.step(
            {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in par.agents}
        )
    assert seen_round


# --------------------------------------------------------- copies and seeds


def test_copies_of_a_seeded_env_deal_their_own_games():
    """Issue 31 item 4: pickle and deepcopy (SuperSuit's, Gymnasium's vector envs) give
    copies whose next games differ; the game in play goes on exactly; clone() is a twin."""
    import copy
    import pickle

    for make in (mafia_env.env, mafia_env.parallel_env):
        env = make("sport")
        env.reset(seed=7)
        copies = [pickle.loads(pickle.dumps(env)) for _ in range(3)] + [copy.deepcopy(env)]
        for c in copies:
            assert c.game.events == env.game.events  # the game in play, exactly
            c.reset()
        assert len({c.game_seed for c in copies}) == len(copies)
    env = mafia_env.env("sport")
    env.reset(seed=7)
    twin = env.unwrapped.clone()
    env.reset()
    twin.reset()
    assert env.unwrapped.game_seed == twin.game_seed  # the exact twin
    single = mafia_env.single_agent("minimal", opponents="random")
    single.reset(seed=1)
    pair = [pickle.loads(pickle.dumps(single)) for _ in range(2)]
    assert len({(*p.reset()[0].tolist(), p.aec.game_seed) for p in pair}) == 2


def test_the_supersuit_tutorial_flow_deals_different_tables():
    """PettingZoo's SB3 tutorial resets the env, then makes SuperSuit's vector env of it."""
    ss = pytest.importorskip("supersuit")
    par = mafia_env.parallel_env("minimal", obs_mode="flat")
    par.reset(seed=0)
    vec = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(par), 4, num_cpus=0)
    vec.reset()
    deals = {(*v.par_env.roles.values(), v.par_env.game_seed) for v in vec.vec_envs}
    assert len(deals) == 4
    first = [v.par_env.game_seed for v in vec.vec_envs]
    vec.reset(seed=5)  # seeding the vector env seeds copy i with 5 + i: reproducible
    again = [v.par_env.game_seed for v in vec.vec_envs]
    vec.reset(seed=5)
    assert [v.par_env.game_seed for v in vec.vec_envs] == again != first


# ------------------------------------------------------ AgileRL, in its venv

AGILERL_CHECKS = """
import sys, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, "scripts/recipes")
import numpy as np
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test, state_test
import mafia_env
from agilerl_ippo import MakeTable, MaskedIPPO
from agilerl.vector.pz_async_vec_env import AsyncPettingZooVecEnv

for variant in sorted(mafia_env.VARIANTS):  # pettingzoo 1.26.1 and gymnasium 1.4 here
    for mode in ("vector", "flat"):
        api_test(mafia_env.env(variant, obs_mode=mode), num_cycles=50)
        seed_test(lambda: mafia_env.env(variant, obs_mode=mode), num_cycles=50)
        state_test(mafia_env.env(variant, obs_mode=mode), mafia_env.parallel_env(variant))
        parallel_api_test(mafia_env.parallel_env(variant, obs_mode=mode), num_cycles=100)
        parallel_seed_test(lambda: mafia_env.parallel_env(variant, obs_mode=mode), 50)
make = MakeTable("minimal", None)
probe = make()
agents = probe.possible_agents
env = AsyncPettingZooVecEnv([make] * 2)
algo = MaskedIPPO(
    observation_spaces=[probe.observation_space(a) for a in agents],
    action_spaces=[probe.action_space(a) for a in agents],
    agent_ids=agents,
    net_config={"encoder_config": {"hidden_size": [32]}},
)
obs, info = env.reset(seed=0)
forced = chosen = 0
for _ in range(30):
    defined, masks = algo.extract_agent_masks(info)  # AgileRL reads env_defined_actions
    action, *_ = algo.get_action(obs=obs, infos=info)
    for a in agents:
        acting = np.asarray(info[a]["acting"], bool)
        assert (masks[a].ravel() == ~acting).all()  # env-defined exactly where it waits
        assert (action[a][~acting] == probe.wait).all()  # AgileRL plays the wait for it
        forced += int((~acting).sum())
        chosen += int(acting.sum())
    obs, _, _, _, info = env.step(action)
env.close()
assert forced > chosen > 0
print("agilerl checks passed", forced, chosen)
"""


@pytest.mark.slow
def test_checkers_and_env_defined_actions_in_the_agilerl_venv():
    """The AgileRL recipe's venv (pettingzoo 1.26.1, gymnasium 1.4): PettingZoo's checkers
    with no knob, and AgileRL taking the waits as env-defined actions."""
    from tests.training.test_recipes import run_with

    out = run_with("agilerl", ".venv-agilerl", "AGILERL_PYTHON", "-c", AGILERL_CHECKS)
    assert "agilerl checks passed" in out


def test_a_game_the_default_ended_records_and_replays():
    """COMMON-7: the record of a game ended by an illegal action (the default) replays; an
    old record (the variant files said raise) replays under raise."""
    env = mafia_env.env("sport")
    env.reset(seed=2)
    env.step(env.action_id("pass"))
    with pytest.warns(mafia_env.IllegalActionWarning):
        env.step(env.action_id("vote", 3))
    record = env.record()
    assert record["moves"][-1][1] == "illegal" and record["rules"]["illegal_action"] is None
    again = mafia_env.replay(record)
    assert again.game.events == env.game.events and again.record() == record
    old = dict(record, rules={**record["rules"], "illegal_action": "raise"})
    old["moves"] = record["moves"][:-1]
    old.pop("winner"), old.pop("events"), old.pop("checksum")
    assert mafia_env.replay(old).illegal_action == "raise"
