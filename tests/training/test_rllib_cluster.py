"""RLlib across nodes (the README's cluster section): a two-node Ray cluster on this machine.

Ray's own `ray.cluster_utils.Cluster` starts a head node and a worker node as separate
raylets on the loopback. The env runners ask for a resource only the worker node has, so
they must run there; the test checks where they ran, then loads the checkpoint as a `Policy`
and plays it against the rule bots. Needs the 'rllib' extra; slow (about a minute).
"""

from __future__ import annotations

import pytest

ray = pytest.importorskip("ray", reason="Ray RLlib is not installed (extra: rllib)")
pytest.importorskip("torch", reason="torch is not installed")

from ray.cluster_utils import Cluster  # noqa: E402

from baselines.rllib.matchup import team_match  # noqa: E402
from baselines.rllib.restore import RLlibPolicy  # noqa: E402
from baselines.rllib.rllib_config import parse_config  # noqa: E402
from baselines.rllib.rllib_train import build_ppo_config, save  # noqa: E402
from baselines.shipped import load_policy  # noqa: E402

# one Ray cluster at a time on the machine: xdist runs these on one worker, in turn
pytestmark = pytest.mark.xdist_group("ray")

TINY = {
    "variant": "sport",
    "num_players": 10,
    "policies": "shared",
    "iterations": 1,
    "num_env_runners": 1,
    "num_envs_per_env_runner": 1,
    "train_batch_size": 300,
    "minibatch_size": 100,
    "num_epochs": 1,
    "hidden": [32],
    "checkpoint_every": 0,
}


@pytest.fixture
def two_nodes():
    if ray.is_initialized():
        ray.shutdown()
    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "include_dashboard": False},
    )
    worker = cluster.add_node(num_cpus=1, resources={"mafia_worker": 1})
    cluster.wait_for_nodes()
    ray.init(address=cluster.address)
    try:
        yield cluster, worker
    finally:
        ray.shutdown()
        cluster.shutdown()


@pytest.mark.slow
def test_rllib_trains_on_a_worker_node_then_plays_the_rule_bots(two_nodes, tmp_path):
    cluster, worker = two_nodes
    assert len([n for n in ray.nodes() if n["Alive"]]) == 2
    cfg = parse_config({**TINY, "checkpoint_dir": str(tmp_path)})
    config = build_ppo_config(cfg).env_runners(
        custom_resources_per_env_runner={"mafia_worker": 1}  # only the worker node has it
    )
    algo = config.build_algo()
    try:
        where = algo.env_runner_group.foreach_env_runner(
            lambda runner: ray.get_runtime_context().get_node_id(), local_env_runner=False
        )
        assert where == [worker.node_id]
        assert worker.node_id != cluster.head_node.node_id
        result = algo.train()
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 300
        path = save(algo, cfg, tmp_path / "final")
    finally:
        algo.stop()
    policy = load_policy(path, variant="sport", num_players=10, seed=5)
    assert isinstance(policy, RLlibPolicy)
    bot = load_policy("rule", variant="sport", num_players=10, seed=1)
    for team in ("town", "mafia"):
        # the env raises on an illegal action, so finishing proves every action was legal
        match = team_match(policy, bot, team, 2, cfg, seed=100)
        assert sum(match.winners.values()) == 2 and match.moves > 0
