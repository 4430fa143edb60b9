#!/usr/bin/env python
"""Benchmark: env steps per CPU second with and without the belief piece (``belief="deduction"``).

The same seeded games on both sides (the Python engine's `raw_env`, every agent's observation
taken at its turn, as an RL loop does), played by random legal actions or by the rule bots
(``--policy rule``, whose time is left out: only ``env.step`` and ``env.last`` are timed), so
the ratio is the piece's cost. Then the deduction query time (`bench_env.belief_cost`).

    python scripts/bench_belief_piece.py                       # every variant, 10 seats
    python scripts/bench_belief_piece.py --tables sport:10 city:13:1 --games 4 --policy rule
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
    from mafia_env.policy import load_policy

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
    args = ap.parse_args()
    out = {"load": os.getloadavg(), "policy": args.policy, "rows": []}
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
