"""The PPO update in a second process, overlapped with the next rollout (``pipeline: overlap``).

`Learner` runs `baselines.ppo.rollout.ppo_update` in a worker process while the trainer's
own process plays the next rollout, so the two use two cores. It is a double buffer with one
update's lag, as IMPALA-style learners and Sample Factory's APPO have it: rollout k+1 is
played with the weights before update k, and update k+1 starts from the weights after
update k. The update weighs each decision by its probability under the policy it starts
from over the log-probability the rollout recorded (the behaviour policy's), and clips the
ratio around the policy it starts from: PPO's decoupled objective (`ppo_update`'s
`proximal`), so the lag does not use up the clip's range.

The rollout's decisions go to the worker, and its weights come back, through buffers in
shared memory allocated once; the pipe carries only the commands and the losses. The
protocol keeps the two apart: the trainer writes the batch only while the worker is idle,
the worker writes the weights only before it answers, and the trainer reads them only after.

The sequence of updates is fixed by the loop, not by timing: a seeded run is reproducible,
though not the same run as the synchronous path (the one-update lag, and the minibatch
shuffle drawn from the worker's own generator).

The worker ignores Ctrl-C (the trainer stops it), exits when the trainer's end of the pipe
closes (the trainer died), and sends back the traceback of any error, which the trainer
raises. A worker that dies is reported with its exit code.
"""

from __future__ import annotations

import contextlib
import io
import signal
import time
import traceback
from typing import Any

import numpy as np
import torch
import torch.multiprocessing as mp

from baselines.ppo.agent import Agent
from baselines.ppo.ppo_config import Config

PIPELINES = ("sync", "overlap")
_POLL_S = 0.5  # how often a waiting trainer checks that the worker is alive


class LearnerDied(RuntimeError):
    """The learner process stopped: it died, or raised (its traceback is in the message)."""


def _packed(obj: Any) -> bytes:
    """The agent, or an optimizer's state, as bytes for the worker (`_unpacked`): tensors
    pickled by multiprocessing itself would go through shared memory, and torch would keep a
    record of each until the exit, for no gain on messages this rare."""
    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.getvalue()


def _unpacked(data: bytes, weights_only: bool = True) -> Any:
    return torch.load(io.BytesIO(data), weights_only=weights_only)


def _release(*buffers: dict[str, torch.Tensor]) -> None:
    """Let go of the shared buffers and drop torch's records of the ones now freed, while
    torch is whole: left to the interpreter's exit, those records are torn down after torch
    and each prints an ignored exception."""
    for b in buffers:
        b.clear()
    from torch.multiprocessing.reductions import shared_cache

    shared_cache.free_dead_references()


def _serve(
    conn: Any,
    agent: bytes,
    cfg: Config,
    batch: dict[str, torch.Tensor],
    weights: dict[str, torch.Tensor],
    seed: int,
) -> None:
    """The worker: `_answer` for the `agent` (`_packed`) until told to stop, then let go of
    the shared buffers."""
    try:
        _answer(conn, _unpacked(agent, weights_only=False), cfg, batch, weights, seed)
    finally:
        _release(batch, weights)


def _answer(
    conn: Any,
    agent: Agent,
    cfg: Config,
    batch: dict[str, torch.Tensor],
    weights: dict[str, torch.Tensor],
    seed: int,
) -> None:
    """The worker: answer ``begin``, ``update``, ``optimizer`` and ``stop`` until told to stop
    or the trainer goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the trainer, which stops us
    from baselines.ppo.rollout import ppo_update

    torch.set_num_threads(cfg.torch_threads)
    optimizer = torch.optim.Adam(agent.parameters(), lr=cfg.learning_rate, eps=1e-5, fused=True)
    rng = np.random.default_rng(seed)
    start_cpu = time.process_time()
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return  # the trainer is gone
        try:
            if msg[0] == "begin":  # the weights and the optimizer's state as PPO begins
                agent.load_state_dict(weights)  # its own copy, out of shared memory
                optimizer.load_state_dict(_unpacked(msg[1]))
                start_cpu = time.process_time()
                conn.send(("ready", None))
            elif msg[0] == "update":
                _, n, lr, csr = msg
                optimizer.param_groups[0]["lr"] = lr
                data = {k: v[:n] for k, v in batch.items() if k != "obs" or csr is None}
                if csr is not None:
                    data["obs_csr"] = tuple(torch.from_numpy(a) for a in csr)
                losses = ppo_update(agent, optimizer, data, cfg, rng, proximal=True)
                for k, v in agent.state_dict().items():
                    weights[k].copy_(v)
                conn.send(("done", (losses, time.process_time() - start_cpu)))
            elif msg[0] == "optimizer":
                conn.send(("optimizer", _packed(optimizer.state_dict())))
            elif msg[0] == "stop":
                return
            else:
                raise ValueError(f"unknown command {msg[0]!r}")
        except BaseException:
            with contextlib.suppress(BrokenPipeError, OSError):
                conn.send(("error", traceback.format_exc()))
            return


class Learner:
    """`ppo_update` in a worker process: `begin` with the agent's weights and the optimizer's
    state, then `submit` a rollout's batch; `result` waits for the weights after it and loads
    them into the trainer's agent.

    Use it as a context manager (or call `close`): the worker stops with it, on errors and
    Ctrl-C too.
    """

    def __init__(self, agent: Agent, cfg: Config, rows: int, seed: int):
        """Start a worker for `agent`'s network and batches of at most `rows` decisions; its
        minibatches are shuffled by a generator seeded with `seed`. It boots (imports) while
        the trainer goes on, until `begin`."""
        obs_size = agent.trunk[0].in_features
        self.batch = {
            "obs": torch.zeros(rows, obs_size),
            "masks": torch.zeros(rows, agent.action_size, dtype=torch.bool),
            "actions": torch.zeros(rows, dtype=torch.int64),
            "logprobs": torch.zeros(rows),
            "advantages": torch.zeros(rows),
            "returns": torch.zeros(rows),
            "values": torch.zeros(rows),
        }
        self.weights = {k: v.detach().clone() for k, v in agent.state_dict().items()}
        for t in (*self.batch.values(), *self.weights.values()):
            t.share_memory_()
        self.agent, self.pending, self.closed = agent, False, False
        self.cpu = 0.0  # the worker's CPU seconds in its updates so far
        ctx = mp.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(
            target=_serve,
            args=(
                child,
                _packed(agent),
                cfg,
                self.batch,
                self.weights,
                seed,
            ),
            name="ppo-learner",
            daemon=True,  # never outlives the trainer
        )
        self.proc.start()
        child.close()

    def __enter__(self) -> Learner:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def begin(self, agent: Agent, optimizer: torch.optim.Optimizer) -> None:
        """Hand the worker `agent`'s weights and `optimizer`'s state, as PPO begins; return
        once it has booted and taken them (so a run's speed counts from there)."""
        if self.closed:
            raise LearnerDied("the PPO learner is closed")
        for k, v in agent.state_dict().items():
            self.weights[k].copy_(v)
        self.agent = agent
        self._send(("begin", _packed(optimizer.state_dict())))
        self._recv("ready")

    def submit(self, data: dict[str, Any], lr: float) -> None:
        """Start the update on `data` (a rollout's batch, `Rollout.batch`) at learning rate
        `lr`. Compressed observations (``obs_csr``) go through the pipe, the rest through
        shared memory."""
        if self.closed:
            raise LearnerDied("the PPO learner is closed")
        if self.pending:
            raise RuntimeError("the learner is still busy with the previous batch")
        n = len(data["actions"])
        if n > len(self.batch["obs"]):
            rows = len(self.batch["obs"])
            raise ValueError(f"a batch of {n} decisions; the learner holds {rows}")
        csr = data.get("obs_csr")
        for k, buf in self.batch.items():
            if k != "obs" or csr is None:
                buf[:n].copy_(data[k])
        self._send(("update", n, lr, None if csr is None else tuple(t.numpy() for t in csr)))
        self.pending = True

    def result(self) -> dict[str, float] | None:
        """Wait for the submitted update; load its weights into the agent and return its
        losses (None where nothing was submitted)."""
        if not self.pending:
            return None
        losses, self.cpu = self._recv("done")
        self.pending = False
        self.agent.load_state_dict(self.weights)
        return losses

    def optimizer_state(self) -> dict[str, Any]:
        """The worker's optimizer state (for a checkpoint); any pending update first."""
        self.result()
        self._send(("optimizer",))
        return _unpacked(self._recv("optimizer"))

    def close(self) -> None:
        """Stop the worker (idempotent): ask, then terminate, then kill."""
        if self.closed:
            return
        self.closed = True
        try:
            if self.proc.is_alive():
                self.conn.send(("stop",))
        except (BrokenPipeError, OSError):
            pass
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.terminate()
            self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.conn.close()
        _release(self.batch, self.weights)

    def _send(self, msg: tuple) -> None:
        try:
            self.conn.send(msg)
        except (BrokenPipeError, OSError):
            self._died()

    def _recv(self, kind: str) -> Any:
        while not self.conn.poll(_POLL_S):
            if not self.proc.is_alive() and not self.conn.poll():
                self._died()
        try:
            got, payload = self.conn.recv()
        except (EOFError, OSError):
            got, payload = "died", None
        if got == "died":
            self._died()
        if got == "error":
            self.close()
            raise LearnerDied(f"the PPO learner process failed:\n{payload}")
        if got != kind:
            raise LearnerDied(f"the PPO learner process answered {got!r}, expected {kind!r}")
        return payload

    def _died(self) -> None:
        self.proc.join(timeout=1)
        code = self.proc.exitcode
        self.close()
        raise LearnerDied(
            f"the PPO learner process (pid {self.proc.pid}) died with exit code {code}"
        )


__all__ = ["PIPELINES", "Learner", "LearnerDied"]
