#!/usr/bin/env python
"""Benchmark: the PPO trainer's environment steps/s at the shipped configuration.

Runs `baselines.ppo.ppo_train.train` itself (the real code path) with a config file (by default
the shipped ``configs/ppo/sport.yaml``: 256 games in lockstep in 4 staggered groups, an update
on one group's 64 games x 128 steps, the updates overlapped, against the rule bots, one torch
thread) for a fixed number of PPO updates, starting from shipped weights
(``baselines/checkpoints/sport.pt``) so that games have their trained length: no imitation
phase and no evaluation during training. Prints steps/s by wall clock and by this process's
CPU time (`time.process_time`), which is the fairer figure on a shared machine, and where the
time goes, measured by timers wrapped around the trainer's callees:

- learner: the learner's forward passes in the rollout (sampling and the bootstrap values),
  and its layer where it plays under one (``learner_layer``)
- opponents: the opponents' inference (the rule bots' ``act_batch``; a league's members,
  ``Opponents.act``)
- env: the vector environment's ``step`` and ``observe``
- update: GAE, and the PPO epochs' forward passes, backward passes, clipping and steps
- other: the rest of the loop (buffers, bookkeeping, logging)
- wait: with ``pipeline: overlap``, the trainer waiting for the learner process's update
  (wall clock; the update's own CPU seconds are the learner process's, printed apart)

With ``pipeline: overlap`` (`baselines.ppo.overlap`: the updates in a second process while
the next rollout plays) the trainer uses two cores, so its steps/s by wall clock is the
fair figure, on a machine whose two cores are free; its CPU figure counts both processes'
CPU seconds. On a shared machine the kernel may give each session an equal share of the
cores (Linux's autogroup), so there two processes get no more CPU than one and the wall
clock says little: the free-core figure, the steps over the slower process's CPU seconds, is
what two free cores approach. For the synchronous trainer (one process) the CPU figure is
the fair one on a shared machine (and its free-core figure). ``--pipeline`` sets the
pipeline of this checkout's runs (default: the config's).

Compare runs made back to back on one machine, with the same command:

    python scripts/bench_trainer.py                       # 8 updates of sport
    python scripts/bench_trainer.py --updates 4 --repeat 3 --json out.json
    python scripts/bench_trainer.py --backends python c --repeat 2   # the C core's gain
    python scripts/bench_trainer.py --updates 2 --belief  # the network reads the belief piece
    python scripts/bench_trainer.py --updates 16 --repeat 3 --belief-cost  # what the piece costs
    python scripts/bench_trainer.py --updates 4 --repeat 2 --against ../main  # another checkout
    python scripts/bench_trainer.py --updates 8 --repeat 3 --pipeline overlap --against ../main
    python scripts/bench_trainer.py --updates 6 --repeat 2 --against ../main \
        --config configs/filler/sport-talk-layer-town-mixed.yaml \
        --weights baselines/checkpoints/filler/sport.pt          # a league of the zoo's styles

``--against DIR`` times DIR's trainer (DIR's code, with DIR's ``.venv`` where it has one,
under this script's timers) and this checkout's in turn, in fresh processes, back to back, and
prints the ratio: a change against its base in the same run (each runs its own copy of
``--config`` and ``--weights`` where they are this checkout's files). The runs start from the
shipped weights as ``init_weights`` reads them (a file of an earlier era's layout widened to
today's), with a fresh optimizer.

``--backends`` runs the trainer on each engine in turn, in fresh processes, back to back: the
Python engine with ``MAFIA_ENV_NO_CCORE=1``, the C core (`mafia_env.ccore`) as ``auto`` takes it.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import importlib
import json
import os
import platform
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

# the checkout whose trainer runs: this one, or another's code under this script (--against)
ROOT = Path(os.environ.get("BENCH_TRAINER_ROOT") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from baselines.ppo import load_config  # noqa: E402
from baselines.ppo.agent import Agent  # noqa: E402
from mafia_env.vector import VectorMafia  # noqa: E402

# the training loop's module: ppo_train, or train in a checkout from before it was renamed
train_mod = importlib.import_module(
    "baselines.ppo.ppo_train"
    if (ROOT / "baselines" / "ppo" / "ppo_train.py").exists()
    else "baselines.ppo.train"
)
PARTS = ("learner", "opponents", "env", "update", "wait")
KINDS = {"sps": "wall", "cpu_sps": "CPU", "free_core_sps": "free cores"}


class Timers:
    """Wall and CPU seconds per part; counting pauses while `paused` (the final evaluation)."""

    def __init__(self) -> None:
        self.wall: dict[str, float] = defaultdict(float)
        self.cpu: dict[str, float] = defaultdict(float)
        self.paused = False
        self.depth = 0  # nested timed calls count once, in the outermost part
        self.learner_cpu = 0.0  # the learner process's CPU seconds (pipeline: overlap)

    def wrap(self, fn: Any, part: Any) -> Any:
        """Return `fn` timed into `part` (a name, or a function of no arguments giving one)."""

        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if self.paused or self.depth:
                return fn(*args, **kwargs)
            name = part() if callable(part) else part
            self.depth += 1
            w, c = time.perf_counter(), time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.wall[name] += time.perf_counter() - w
                self.cpu[name] += time.process_time() - c
                self.depth -= 1

        return timed


def instrument(timers: Timers) -> None:
    """Wrap the trainer's callees in `timers` (in this process, for the rest of its life)."""

    def forward_part() -> str:
        return "update" if torch.is_grad_enabled() else "learner"

    Agent.get_action_and_value = timers.wrap(Agent.get_action_and_value, forward_part)
    if hasattr(Agent, "sample"):  # the rollout's sampling (without the entropy)
        Agent.sample = timers.wrap(Agent.sample, forward_part)
    Agent.get_value = timers.wrap(Agent.get_value, forward_part)
    VectorMafia.step = timers.wrap(VectorMafia.step, "env")
    VectorMafia.observe = timers.wrap(VectorMafia.observe, "env")
    torch.Tensor.backward = timers.wrap(torch.Tensor.backward, "update")
    torch.nn.utils.clip_grad_norm_ = timers.wrap(torch.nn.utils.clip_grad_norm_, "update")
    torch.optim.Adam.step = timers.wrap(torch.optim.Adam.step, "update")
    import baselines.ppo.rollout as rollout_mod
    from mafia_env.seat_obs import LazyBelief

    if hasattr(rollout_mod, "Actor"):  # the rollout's own sampling of the learner's rows
        rollout_mod.Actor.__call__ = timers.wrap(rollout_mod.Actor.__call__, "learner")
    if hasattr(rollout_mod, "LearnerLayer"):  # the learner's layer over its samples
        layer = rollout_mod.LearnerLayer
        layer.__call__ = timers.wrap(layer.__call__, "learner")
    if hasattr(rollout_mod, "Opponents"):  # every member's rows (a league's too)
        rollout_mod.Opponents.act = timers.wrap(rollout_mod.Opponents.act, "opponents")

    LazyBelief.fill = timers.wrap(LazyBelief.fill, "env")  # the belief piece (--belief)
    gae = rollout_mod.seat_gae  # timed wherever the trainer calls it from
    timed_gae = timers.wrap(gae, "update")
    for module in {train_mod, rollout_mod, sys.modules[gae.__module__]}:
        if getattr(module, "seat_gae", None) is gae:
            module.seat_gae = timed_gae

    opponent_policy = train_mod.opponent_policy

    def timed_opponents(*args: Any, **kwargs: Any) -> Any:
        policy, name = opponent_policy(*args, **kwargs)
        policy.act_batch = timers.wrap(policy.act_batch, "opponents")
        return policy, name

    train_mod.opponent_policy = timed_opponents

    evaluate = train_mod.evaluate

    def untimed_evaluate(*args: Any, **kwargs: Any) -> Any:
        timers.paused = True
        try:
            return evaluate(*args, **kwargs)
        finally:
            timers.paused = False

    train_mod.evaluate = untimed_evaluate

    try:  # the overlapped pipeline: the time the trainer waits for the learner process
        from baselines.ppo.overlap import Learner
    except ImportError:  # a checkout from before it
        return
    Learner.result = timers.wrap(Learner.result, "wait")
    close = Learner.close

    def closing(self: Any) -> None:
        timers.learner_cpu = self.cpu  # the learner process's CPU seconds in its updates
        close(self)

    Learner.close = closing


def run_once(
    config: Path, weights: Path, updates: int, belief: bool = False, pipeline: str | None = None
) -> dict[str, Any]:
    """Train for `updates` PPO updates from `weights`; return steps/s and the time per part.

    With `belief` the network reads the belief piece (``belief: deduction``; `weights` widened
    for it, as ``init_weights`` does), so the two figures compare the trainer's speed
    before and after the piece on the same games. `pipeline` sets the config's ``pipeline``
    (None: the config's own)."""
    timers = Timers()
    instrument(timers)
    base = load_config(config)
    # (an update reads one group's rollout: `rollout_groups`; a checkout before it has none)
    steps = base.num_envs * base.num_steps // getattr(base, "rollout_groups", 1) * updates
    with tempfile.TemporaryDirectory() as run_dir:
        cfg = dataclasses.replace(
            base,
            run_dir=run_dir,
            total_timesteps=steps,
            imitate_steps=0,
            eval_every=0,
            final_eval_games=1,
            checkpoint_every=updates + 1,
            init_weights=str(weights),  # an earlier era's file widened to today's layout
            **({"belief": "deduction"} if belief else {}),
            **({"pipeline": pipeline} if pipeline else {}),
        )
        cfg.check()
        out = train_mod.train(cfg, log=lambda *a: None)
        backend = VectorMafia(cfg.variant, 1, cfg.num_players, **cfg.knobs).backend
    steps = out["global_step"]
    # the training loop's seconds (its CPU: this process's, the learner process's apart)
    wall, cpu = steps / out["sps"], steps / out["cpu_sps"] - timers.learner_cpu
    parts = {p: {"wall": timers.wall[p], "cpu": timers.cpu[p]} for p in PARTS}
    parts["other"] = {
        "wall": wall - sum(timers.wall[p] for p in PARTS),
        "cpu": cpu - sum(timers.cpu[p] for p in PARTS),
    }
    # on free cores a process runs as fast as its CPU seconds say; two processes as the
    # slower of the two (the rollouts or the updates)
    free = int(steps / max(cpu, timers.learner_cpu, 1e-9))
    return {
        "steps": steps,
        "sps": out["sps"],
        "cpu_sps": out["cpu_sps"],
        "free_core_sps": free,
        "pipeline": getattr(cfg, "pipeline", "sync"),
        "learner_process_cpu": timers.learner_cpu,
        "backend": backend,
        "parts": parts,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", type=Path, default=ROOT / "configs/ppo/sport.yaml")
    ap.add_argument("--weights", type=Path, default=ROOT / "baselines/checkpoints/sport.pt")
    ap.add_argument("--updates", type=int, default=8, help="PPO updates per run (default 8)")
    ap.add_argument("--repeat", type=int, default=1, help="runs, each in a fresh process")
    ap.add_argument("--json", type=Path, help="also write the results here")
    ap.add_argument(
        "--backends",
        nargs="*",
        choices=("python", "c"),
        help="the engines, each run in fresh processes (python: MAFIA_ENV_NO_CCORE=1)",
    )
    ap.add_argument("--belief", action="store_true", help="the network reads the belief piece")
    ap.add_argument(
        "--pipeline",
        choices=("sync", "overlap"),
        help="this checkout's pipeline (default: the config's): sync, one process; overlap, "
        "the updates in a second process (compare by wall clock)",
    )
    ap.add_argument(
        "--against",
        type=Path,
        help="another checkout: its bench_trainer.py and this one in turn, back to back",
    )
    ap.add_argument(
        "--belief-cost",
        action="store_true",
        help="the trainer without and with the belief piece in turn, back to back: what the "
        "piece costs (the ratio of their steps/s)",
    )
    args = ap.parse_args(argv)
    if args.updates < 1 or args.repeat < 1:
        ap.error("--updates and --repeat must be positive")
    if args.belief_cost:
        if args.against is not None or args.backends or args.belief:
            ap.error(
                "--belief-cost runs this checkout with and without the piece: leave out "
                "--against, --backends and --belief"
            )
        belief_cost(args)
        return
    if args.against is not None:
        if args.backends:
            ap.error("--against compares checkouts on the default engine; leave out --backends")
        ppo = args.against / "baselines" / "ppo"
        if not ((ppo / "ppo_train.py").exists() or (ppo / "train.py").exists()):
            ap.error(f"--against: {args.against} is not a checkout (no baselines/ppo/ppo_train.py)")
        against(args)
        return

    backends = args.backends or [None]
    if args.repeat > 1 or args.backends:  # fresh processes: one run's wrappers stay out of the next
        import subprocess

        runs = []
        for _ in range(args.repeat):
            for backend in backends:  # back to back, so the machine's load moves both alike
                env = dict(os.environ)
                env.pop("MAFIA_ENV_NO_CCORE", None)
                if backend == "python":
                    env["MAFIA_ENV_NO_CCORE"] = "1"
                with tempfile.NamedTemporaryFile(suffix=".json") as f:
                    cmd = [sys.executable, __file__, "--config", str(args.config)]
                    cmd += ["--weights", str(args.weights), "--updates", str(args.updates)]
                    cmd += ["--belief"] if args.belief else []
                    cmd += ["--pipeline", args.pipeline] if args.pipeline else []
                    subprocess.run([*cmd, "--json", f.name], check=True, env=env)
                    run = json.loads(Path(f.name).read_text())["runs"][0]
                runs.append({**run, "backend": backend or run["backend"]})
    else:
        runs = [run_once(args.config, args.weights, args.updates, args.belief, args.pipeline)]
        print(report(runs[0]))

    for backend in backends if len(runs) > 1 else []:
        mine = [r for r in runs if backend is None or r["backend"] == backend]
        wall = sorted(r["sps"] for r in mine)[len(mine) // 2]
        cpu = sorted(r["cpu_sps"] for r in mine)[len(mine) // 2]
        print(
            f"{backend or 'auto'}: median of {len(mine)} runs: {wall} steps/s wall, {cpu} "
            f"steps/s CPU (wall {[r['sps'] for r in mine]}, CPU {[r['cpu_sps'] for r in mine]})"
        )
    if args.json:
        info = {"python": platform.python_version(), "torch": torch.__version__}
        args.json.write_text(json.dumps({"machine": info, "runs": runs}, indent=1))


def medians(title: str, mine: list[dict[str, Any]]) -> dict[str, int]:
    """Print and return the medians of runs `mine`'s figures (`KINDS`), and each run's."""
    m = {k: sorted(r[k] for r in mine)[len(mine) // 2] for k in KINDS}
    print(
        f"{title}: median of {len(mine)} runs: "
        + ", ".join(f"{m[k]} steps/s {label}" for k, label in KINDS.items())
        + " ("
        + "; ".join(f"{label} {[r[k] for r in mine]}" for k, label in KINDS.items())
        + ")"
    )
    return m


def belief_cost(args: argparse.Namespace) -> None:
    """Run this checkout's trainer without the belief piece and with it in turn, `--repeat`
    times, each in a fresh process; print the medians and what the piece costs."""
    runs: dict[str, list[dict[str, Any]]] = {"without": [], "with": []}
    for _ in range(args.repeat):
        for name in runs:  # back to back, so the machine's load moves both alike
            one = argparse.Namespace(**{**vars(args), "belief": name == "with"})
            runs[name].append(_checkout_run(ROOT, one, True))
    med = {name: medians(f"{name} the piece", mine) for name, mine in runs.items()}
    for k, label in KINDS.items():
        print(f"the piece costs, {label}: {med['without'][k] / max(med['with'][k], 1):.2f}x")
    if args.json:
        info = {"python": platform.python_version(), "torch": torch.__version__}
        args.json.write_text(json.dumps({"machine": info, "belief_cost": runs}, indent=1))


def _checkout_run(root: Path, args: argparse.Namespace, this: bool) -> dict[str, Any]:
    """One run of `root`'s bench_trainer.py in a fresh process (its venv's python, if any)."""
    import subprocess

    venv = root / ".venv" / "bin" / "python"
    python = str(venv) if venv.exists() else sys.executable
    env = {k: v for k, v in os.environ.items() if k not in ("MAFIA_ENV_NO_CCORE", "PYTHONPATH")}
    env["BENCH_TRAINER_ROOT"] = str(root)
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        cmd = [python, str(Path(__file__).resolve()), "--updates", str(args.updates)]
        cmd += ["--config", str(_in(root, args.config))]
        cmd += ["--weights", str(_in(root, args.weights))]
        cmd += ["--belief"] if args.belief else []
        cmd += ["--pipeline", args.pipeline] if this and args.pipeline else []
        subprocess.run([*cmd, "--json", f.name], check=True, env=env, cwd=root)
        return json.loads(Path(f.name).read_text())["runs"][0]


def _in(root: Path, path: Path) -> Path:
    """`path` as `root`'s own file where it is this checkout's (each checkout runs its own
    config and weights), else as given."""
    try:
        return root / path.resolve().relative_to(ROOT)
    except ValueError:
        return path


def against(args: argparse.Namespace) -> None:
    """Run the other checkout and this one in turn, `--repeat` times; print the medians."""
    roots = {"base": args.against.resolve(), "this": ROOT}
    runs: dict[str, list[dict[str, Any]]] = {k: [] for k in roots}
    for _ in range(args.repeat):
        for name, root in roots.items():  # back to back, so the machine's load moves both
            runs[name].append(_checkout_run(root, args, name == "this"))
    med: dict[str, dict[str, int]] = {}
    for name, mine in runs.items():
        for r in mine:  # a checkout's bench_trainer.py from before the figure
            r.setdefault("free_core_sps", r["cpu_sps"])
        pipeline = mine[0].get("pipeline", "sync")
        med[name] = medians(f"{name} ({roots[name]}, {pipeline})", mine)
    two = any(r.get("pipeline") == "overlap" for mine in runs.values() for r in mine)
    for k, label in KINDS.items():
        print(f"this / base, {label}: x{med['this'][k] / max(med['base'][k], 1):.2f}")
    if two:
        print(
            "A run with pipeline: overlap uses two processes: its fair figure is wall clock on "
            "a machine with two free cores. On a shared machine the kernel may share the cores "
            "by session (autogroup), so two processes get no more CPU than one: the free-core "
            "figure (the steps over the slower process's CPU seconds) is what free cores "
            "approach. CPU counts both processes' seconds. For one process, CPU is the fair "
            "figure on a shared machine."
        )
    if args.json:
        info = {"python": platform.python_version(), "torch": torch.__version__}
        out = {"machine": info, "against": str(roots["base"]), "runs": runs}
        args.json.write_text(json.dumps(out, indent=1))


def report(run: dict[str, Any]) -> str:
    lines = [
        f"{run['steps']} env steps on the {run.get('backend', '?')} engine: {run['sps']} steps/s "
        f"wall, {run['cpu_sps']} steps/s CPU",
        f"{'part':<10} {'wall s':>7} {'cpu s':>7} {'cpu %':>6}",
    ]
    total = sum(p["cpu"] for p in run["parts"].values())
    for name, p in run["parts"].items():
        lines.append(
            f"{name:<10} {p['wall']:7.2f} {p['cpu']:7.2f} {100 * p['cpu'] / max(total, 1e-9):6.1f}"
        )
    if run.get("pipeline") == "overlap":
        lines.append(
            f"the learner process: {run['learner_process_cpu']:.2f} CPU s in its updates "
            "(this process's parts above); on two free cores: "
            f"{run['free_core_sps']} steps/s (the steps over the slower process's CPU seconds)"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
