#!/usr/bin/env python
"""Benchmark: env steps per CPU second with and without the belief piece (``belief="deduction"``).

The same seeded games on both sides (the Python engine's `raw_env`, every agent's observation
taken at its turn, as an RL loop does), played by random legal actions or by the rule bots
(``--policy rule``, whose time is left out: only ``env.step`` and ``env.last`` are timed), so
the ratio is the piece's cost. Then the deduction query time (`bench_env.belief_cost`).

    python scripts/bench_belief_piece.py                       # every variant, 10 seats
    python scripts/bench_belief_piece.py --tables sport:10 city:13:1 --games 4 --policy rule
    python scripts/bench_belief_piece.py --benchmark club-10 minimal-10 --policy filler \
        --games 64 --version 5

``--benchmark TASK`` plays the benchmark's batched games (`baselines.benchmark.play_lockstep`,
64 at a time) of a policy that reads the belief piece (``--policy``: the seat-filler, say)
against the rule bots, on each side (``--version N``: the task of that version, with the
shipped bot's file that version plays: club-10's filler reads the piece up to version 5,
minimal-10's in every version), and the same games with its piece left at zeros (the
same network, the same input width: only the piece's computation left out), and prints the
CPU milliseconds a game and microseconds a move (every seat's) of each, and their ratios,
and of the piece side's milliseconds a game those spent computing the piece and those spent in
Python's cyclic garbage collector (which the piece's allocations set off more often).
The piece changes the policy's moves, so the two sides play other games of other lengths:
the ratio a move is the piece's cost; compare over many games. Torch runs one thread.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import mafia_env


def run(variant: str, n: int, games: int, belief: str | None, policy: str) -> dict:
    """Play `games` seeded games; return env steps and the CPU seconds inside the env."""
    from mafia_env.seating.policies import load_policy

    env = mafia_env.raw_env(variant, n, backend="python", belief=belief)
    bot = None
    if policy != "random":
        bot = load_policy(policy, variant=variant, num_players=n, seed=0)
        plain = mafia_env.raw_env(variant, n, backend="python")  # the bot reads the plain row
    steps = 0
    cpu = 0.0
    clock = time.process_time
    for seed in range(games):
        rng = np.random.default_rng(seed)
        t = clock()
        env.reset(seed=seed)
        cpu += clock() - t
        if bot is not None:
            plain.reset(seed=seed)
        for agent in env.agent_iter():
            t = clock()
            obs, _, term, trunc, _ = env.last()
            cpu += clock() - t
            if term or trunc:
                action = None
            elif bot is None:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(legal.size)])
            else:
                o = plain.observe(agent)
                action = int(bot.act(o["observation"], o["action_mask"]))
            t = clock()
            env.step(action)
            cpu += clock() - t
            if bot is not None:
                plain.step(action)
            steps += action is not None
    return {"steps": steps, "cpu_s": cpu, "steps_per_cpu_s": steps / max(cpu, 1e-9)}


def _counted(act_batch, moves: list[int]):
    def counted(obs, masks):
        moves[0] += len(obs)
        return act_batch(obs, masks)

    return counted


class _Split:
    """CPU time inside the piece's computation (`store.matrices`) and inside Python's cyclic
    garbage collector while it is `on` (the collector runs when allocations pile up: the
    side that allocates more pays for collections that scan every object, the policy's too)."""

    def __init__(self):
        import gc

        from mafia_env.belief import store

        self.store, self.gc = store, gc
        self.matrices = store.matrices
        self.piece = self.collect = 0.0
        self._t = 0.0

    def __enter__(self):
        def timed(games, seats):
            t = time.process_time()
            try:
                return self.matrices(games, seats)
            finally:
                self.piece += time.process_time() - t

        self.store.matrices = timed
        self.gc.callbacks.append(self._gc)
        return self

    def __exit__(self, *exc):
        self.store.matrices = self.matrices
        self.gc.callbacks.remove(self._gc)

    def _gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._t = time.process_time()
        else:
            self.collect += time.process_time() - self._t


def benchmark_cost(
    task_name: str, policy_name: str, games: int, opponent: str, version: int | None = None
) -> list[dict]:
    """CPU ms a benchmark game of `policy_name` (reads the piece) against `opponent`, per
    side, with the piece computed and with it left at zeros; of the piece side's, the ms a
    game inside the piece's computation and (both sides) inside the garbage collector."""
    import torch

    import baselines.benchmark as bench
    from baselines import pins
    from mafia_env.engine.spec import GameSpec
    from mafia_env.seat_obs import width
    from mafia_env.seating.games import Seating
    from mafia_env.seating.policies import load_policy
    from mafia_env.tasks import get_task

    torch.set_num_threads(1)  # CPU time on a shared machine: no threads spinning
    task = get_task(task_name, version)
    table = GameSpec.make(task.variant, task.num_players, **task.play_knobs())
    mine = pins.load_options(task, policy_name)  # the version's own file of a shipped bot
    computed = bench.extend_rows

    def zeros(policies, obs, games_, seats, spec):  # the plain rows, the piece at zeros
        out = []
        for p, o in zip(policies, obs, strict=True):
            row = np.zeros(width(p, spec), dtype=o.dtype)
            row[: o.shape[-1]] = o
            out.append(row)
        return out

    rows = []
    for side in task.sides:
        row = {"task": task_name, "side": side}
        for name, fill in (("piece", computed), ("zeros", zeros)):
            learner = load_policy(policy_name, table, seed=task.seed, **mine)
            if not getattr(learner, "obs_options", None):
                raise SystemExit(f"--benchmark: {policy_name} reads no belief piece")
            other = load_policy(opponent, table, seed=task.seed + 1)
            moves = [0]
            for p in (learner, other):
                p.act_batch = _counted(p.act_batch, moves)
            seating = Seating(other, teams={side: learner})
            bench.extend_rows = fill
            try:
                bench.play_lockstep(task, seating, side, 2)  # warm up (first calls, imports)
                moves[0] = 0
                with _Split() as split:
                    t = time.process_time()
                    bench.play_lockstep(task, seating, side, games)
                    cpu = time.process_time() - t
            finally:
                bench.extend_rows = computed
            row[f"{name}_ms"] = 1e3 * cpu / games
            row[f"{name}_gc_ms"] = 1e3 * split.collect / games
            if name == "piece":
                row["piece_own_ms"] = 1e3 * split.piece / games
            row[f"{name}_us_move"] = 1e6 * cpu / max(moves[0], 1)
        row["ratio"] = row["piece_ms"] / row["zeros_ms"]
        row["ratio_move"] = row["piece_us_move"] / row["zeros_us_move"]
        rows.append(row)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--tables",
        nargs="*",
        default=[f"{v}:10" for v in sorted(mafia_env.VARIANTS)],
        help="variant:seats[:games] (default: every variant at 10, --games games each)",
    )
    ap.add_argument("--games", type=int, default=6, help="seeded games per table and side")
    ap.add_argument("--policy", default="random", help="who plays: random (default) or a bot")
    ap.add_argument("--query", type=float, default=3.0, help="seconds of sport-10 queries (0: no)")
    ap.add_argument("--json", type=Path, help="also write the results here")
    ap.add_argument("--benchmark", nargs="*", help="tasks: time the benchmark's batched games")
    ap.add_argument("--opponent", default="rule", help="--benchmark's opponent (default rule)")
    ap.add_argument(
        "--version", type=int, help="--benchmark's tasks version (default the latest): its files"
    )
    args = ap.parse_args()
    out = {"load": os.getloadavg(), "policy": args.policy, "rows": []}
    if args.benchmark:
        print(f"load average {out['load'][0]:.2f}; {args.games} benchmark games a side")
        print(f"CPU ms a game and us a move, {args.policy} with its piece and with zeros;")
        print("of the piece side's ms a game, in the piece (own) and in the garbage collector")
        print(
            f"{'task':10} {'side':6} {'ms/game':>15} {'ratio':>6} {'us/move':>15} {'ratio':>6} "
            f"{'own':>6} {'gc':>5} {'zeros gc':>8}"
        )
        for task in args.benchmark:
            for r in benchmark_cost(task, args.policy, args.games, args.opponent, args.version):
                out["rows"].append(r)
                print(
                    f"{task:10} {r['side']:6} {r['piece_ms']:7.2f} {r['zeros_ms']:7.2f} "
                    f"{r['ratio']:6.2f} {r['piece_us_move']:7.1f} {r['zeros_us_move']:7.1f} "
                    f"{r['ratio_move']:6.2f} {r['piece_own_ms']:6.2f} {r['piece_gc_ms']:5.2f} "
                    f"{r['zeros_gc_ms']:8.2f}",
                    flush=True,
                )
        if args.json:
            args.json.write_text(json.dumps(out, indent=1))
        return
    print(f"load average {out['load'][0]:.2f}; {args.games} games a table, {args.policy} play")
    print(f"{'table':10} {'steps':>6} {'plain/cpu-s':>12} {'piece/cpu-s':>12} {'x slower':>9}")
    for table in args.tables:
        variant, n, *games = table.split(":")
        games = int(games[0]) if games else args.games
        plain = run(variant, int(n), games, None, args.policy)
        piece = run(variant, int(n), games, "deduction", args.policy)
        assert plain["steps"] == piece["steps"]  # the same games on both sides
        ratio = plain["steps_per_cpu_s"] / piece["steps_per_cpu_s"]
        out["rows"].append({"table": table, "plain": plain, "piece": piece, "ratio": ratio})
        print(
            f"{table:10} {plain['steps']:6d} {plain['steps_per_cpu_s']:12.0f} "
            f"{piece['steps_per_cpu_s']:12.0f} {ratio:9.1f}",
            flush=True,
        )
    if args.query > 0:
        from bench_env import belief_cost

        q = belief_cost("sport", 10, args.query, None)
        out["query"] = q
        print(
            f"sport-10 deduction: {q['query_ms']:.3f} ms a query, {q['update_ms_per_move']:.3f} "
            f"ms a move to keep it up to date ({q['moves']} moves)"
        )
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
