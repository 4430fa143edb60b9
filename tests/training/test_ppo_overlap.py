"""PPO with ``pipeline: overlap``: the updates in a second process while the next rollout plays."""

from __future__ import annotations

import multiprocessing
import os
import signal

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from baselines.ppo import make_agent, make_config, train  # noqa: E402
from baselines.ppo.overlap import Learner, LearnerDied  # noqa: E402
from baselines.ppo.rollout import Rollout  # noqa: E402
from mafia_env.errors import ConfigError  # noqa: E402
from mafia_env.vector import VectorMafia  # noqa: E402


def tiny(tmp_path, **over):
    base = {
        "variant": "sport",
        "total_timesteps": 1536,  # three updates of 512 steps
        "num_envs": 8,
        "num_steps": 64,
        "hidden_size": 16,
        "eval_every": 2,
        "eval_games": 4,
        "final_eval_games": 4,
        "snapshot_every": 1,
        "opponents": {"self": 0.5, "pool": 0.25, "rule": 0.25},
        "run_dir": str(tmp_path),
        "pipeline": "overlap",
    }
    return make_config({**base, **over})


def learners() -> list[multiprocessing.process.BaseProcess]:
    return [p for p in multiprocessing.active_children() if p.name == "ppo-learner"]


def test_pipeline_must_be_sync_or_overlap():
    with pytest.raises(ConfigError, match="pipeline must be one of sync, overlap; got 'async'"):
        make_config({"pipeline": "async"})
    assert make_config({}).pipeline == "sync"


def weights(result: dict) -> dict[str, torch.Tensor]:
    return torch.load(result["agent"], weights_only=False)["model"]


def test_seeded_runs_replay_and_the_pipelines_differ(tmp_path):
    """The same seed gives the same weights with either pipeline; the overlap's lag makes
    it another run than the synchronous one."""
    runs = {
        (pipeline, k): weights(
            train(
                tiny(tmp_path / f"{pipeline}{k}", pipeline=pipeline, eval_every=0),
                log=lambda s: None,
            )
        )
        for pipeline in ("sync", "overlap")
        for k in range(2)
    }
    for pipeline in ("sync", "overlap"):
        a, b = runs[(pipeline, 0)], runs[(pipeline, 1)]
        assert all(torch.equal(v, b[k]) for k, v in a.items()), pipeline
    a, b = runs[("sync", 0)], runs[("overlap", 0)]
    assert not all(torch.equal(v, b[k]) for k, v in a.items())
    assert not learners()


def test_overlapped_training_runs_and_checkpoints(tmp_path):
    """A few updates train through the learner process, evaluate, checkpoint and resume; the
    learner process is gone after each run."""
    cfg = tiny(tmp_path / "a")
    first = train(cfg, log=lambda s: None)
    assert first["global_step"] == 1536
    assert [p["update"] for p in first["curve"]] == [0, 2]
    assert not learners()
    ckpt = torch.load(first["checkpoint"], weights_only=False)
    assert ckpt["update"] == 3 and ckpt["optimizer"]["state"]  # the learner's Adam moments
    more = make_config({**cfg.__dict__, "total_timesteps": 2048, "eval_every": 0})
    resumed = train(more, resume=first["checkpoint"], log=lambda s: None)
    assert resumed["global_step"] == 2048
    assert not learners()


@pytest.mark.slow
def test_interrupted_training_stops_the_learner(tmp_path, monkeypatch):
    """Ctrl-C (or any error) in the trainer's loop stops the learner process with it."""
    collect, calls = Rollout.collect, []

    def interrupted(self, agent, gen):
        calls.append(1)
        if len(calls) == 2:  # while the learner works on the first update
            raise KeyboardInterrupt
        return collect(self, agent, gen)

    monkeypatch.setattr(Rollout, "collect", interrupted)
    with pytest.raises(KeyboardInterrupt):
        train(tiny(tmp_path, eval_every=0), log=lambda s: None)
    assert not learners()


def small_learner() -> tuple[Learner, dict[str, torch.Tensor]]:
    cfg = tiny(".")
    vec = VectorMafia("sport", 16, seed=0)
    agent = make_agent(cfg, vec.obs_size, vec.action_size)
    learner = Learner(agent, cfg, 64, seed=0)
    learner.begin(agent, torch.optim.Adam(agent.parameters()))
    return learner, small_learner_data(vec)


def small_learner_data(vec: VectorMafia) -> dict[str, torch.Tensor]:
    """A batch of one decision a game, as a rollout gives it."""
    obs, masks, _ = vec.reset()
    rows = len(obs)
    data = {
        "obs": torch.from_numpy(obs),
        "masks": torch.from_numpy(masks.astype(bool)),
        "actions": torch.from_numpy(masks.argmax(axis=1)),
        "logprobs": torch.zeros(rows),
        "advantages": torch.from_numpy(np.linspace(-1, 1, rows, dtype=np.float32)),
        "returns": torch.zeros(rows),
        "values": torch.zeros(rows),
    }
    return data


@pytest.mark.slow
def test_an_error_in_the_learner_is_raised_with_its_traceback():
    learner, data = small_learner()
    with learner:
        before = {k: v.clone() for k, v in learner.agent.state_dict().items()}
        learner.submit(data, 1e-3)
        assert learner.result()["batch_size"] == len(data["obs"])
        changed = learner.agent.state_dict()
        assert any(not torch.equal(v, changed[k]) for k, v in before.items())
        data["actions"] = data["actions"] + 1000  # no such action: the gather fails
        learner.submit(data, 1e-3)
        with pytest.raises(LearnerDied, match=r"(?s)the PPO learner process failed:.*Error"):
            learner.result()
    assert not learner.proc.is_alive()


@pytest.mark.slow
def test_a_closed_learner_lets_go_of_its_shared_buffers():
    from torch.multiprocessing.reductions import shared_cache

    before = set(shared_cache)
    learner, data = small_learner()
    with learner:
        learner.submit(data, 1e-3)
        learner.result()
        assert set(shared_cache) - before  # torch keeps a record of each buffer it shared
        state = learner.optimizer_state()  # through the pipe as bytes, not shared memory
    # the records are dropped now, while torch is whole, not torn down at exit
    assert learner.batch == {} and learner.weights == {}
    assert not set(shared_cache) - before
    assert state["state"]  # the optimizer's moments, after one update
    with pytest.raises(LearnerDied, match="closed"):
        learner.submit(data, 1e-3)


@pytest.mark.slow
def test_a_learner_that_dies_is_reported():
    learner, data = small_learner()
    with learner:
        learner.submit(data, 1e-3)
        learner.result()
        os.kill(learner.proc.pid, signal.SIGKILL)
        learner.proc.join()
        with pytest.raises(LearnerDied, match="died with exit code -9"):
            learner.submit(data, 1e-3)
            learner.result()
    assert not learners()


def test_the_proximal_update_is_ppos_where_the_agent_itself_played():
    """With the behaviour policy the agent's own, the decoupled objective (the overlap's
    update) is PPO's, bit for bit; with an older behaviour policy it weighs the decisions."""
    import copy

    from baselines.ppo.rollout import ppo_update

    cfg = tiny(".", num_minibatches=2, update_epochs=2)
    vec = VectorMafia("sport", 16, seed=0)
    agent = make_agent(cfg, vec.obs_size, vec.action_size)
    data = small_learner_data(vec)
    with torch.no_grad():
        _, own, _, _ = agent.get_action_and_value(data["obs"], data["masks"], data["actions"])
    data["logprobs"] = own
    after = {}
    for name, proximal, logp in (("ppo", False, own), ("own", True, own), ("old", True, own - 0.5)):
        a = copy.deepcopy(agent)
        opt = torch.optim.Adam(a.parameters(), lr=1e-3)
        ppo_update(a, opt, {**data, "logprobs": logp}, cfg, np.random.default_rng(1), proximal)
        after[name] = a.state_dict()
    assert all(torch.equal(v, after["own"][k]) for k, v in after["ppo"].items())
    assert not all(torch.equal(v, after["old"][k]) for k, v in after["ppo"].items())
