#!/usr/bin/env python
"""Benchmark: moves/s and games/s of random legal play, beside PettingZoo's connect_four_v3.

Machines here are shared and noisy, so compare ratios measured in one run, not raw figures:

    python scripts/bench_env.py                 # every variant, env() and raw_env()
    python scripts/bench_env.py --seconds 5 --variants sport --json out.json
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import mafia_env


def play(env, seconds: float, seed: int = 0) -> dict[str, float]:
    """Play random legal games for about `seconds`; return moves/s and games/s."""
    rng = np.random.default_rng(seed)
    moves = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        moves += play_one(env, rng)
        games += 1
        if time.perf_counter() > deadline:
            break
    elapsed = time.perf_counter() - start
    return {
        "moves_per_s": moves / elapsed,
        "games_per_s": games / elapsed,
        "moves_per_game": moves / games,
    }


def memory_per_game(variant: str, n: int) -> float:
    """Return the bytes one environment holds for one played game (traced peak)."""
    tracemalloc.start()
    env = mafia_env.raw_env(variant, n)
    play_one(env, np.random.default_rng(0))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def play_one(env, rng) -> int:
    """Play one random legal game; return its number of moves."""
    env.reset(seed=int(rng.integers(1 << 31)))
    moves = 0
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
        moves += 1
    return moves


def scaling(seconds: float, results: dict) -> None:
    """Moves/s and memory per game at 6, 10, 14 and 20 seats, where a variant has them."""
    print(f"\n{'variant':10} {'n':>3} {'moves/s':>10} {'KiB/game':>9} {'x at 10':>8}")
    for name in sorted(mafia_env.VARIANTS):
        rules = mafia_env.VARIANTS[name]
        sizes = [n for n in (6, 10, 14, 20) if rules.min_players <= n <= rules.max_players]
        at10 = None
        for n in sizes:
            speed = play(mafia_env.raw_env(name, n), seconds)["moves_per_s"]
            at10 = speed if n == 10 else at10
            mem = memory_per_game(name, n)
            rel = f"{speed / at10:8.2f}" if at10 and n >= 10 else " " * 8
            results["scaling"].append(
                {"variant": name, "num_players": n, "moves_per_s": speed, "bytes_per_game": mem}
            )
            print(f"{name:10} {n:3d} {speed:10.0f} {mem / 1024:9.0f} {rel}")


def batched(variant: str, num_envs: int, seconds: float) -> float:
    """Return agent steps/s of `mafia_env.vector` with random legal actions (one process)."""
    from mafia_env.vector import VectorMafia

    vec = VectorMafia(variant, num_envs, seed=0)
    _, masks, _ = vec.reset()
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = (rng.random(masks.shape) + (masks > 0)).argmax(axis=1)
        masks = vec.step(actions)[1]
        steps += num_envs
    return steps / (time.perf_counter() - start)


def clone_cost(variant: str, n: int, moves: int = 200, reps: int = 300) -> dict[str, float]:
    """Return seconds per `Game.clone`, per `env.unwrapped.clone()` and per replay of the record,
    for a random game `moves` moves in (or at its end)."""
    env = mafia_env.raw_env(variant, n)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(moves):
        if env.game.over:
            break
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    record = env.record()

    def per_call(fn, k: int) -> float:
        start = time.perf_counter()
        for _ in range(k):
            fn()
        return (time.perf_counter() - start) / k

    return {
        "moves": len(record["moves"]),
        "game_clone_s": per_call(env.game.clone, reps),
        "env_clone_s": per_call(env.clone, reps),
        "replay_s": per_call(lambda: mafia_env.replay(record), 5),
    }


def belief_cost(variant: str, n: int, seconds: float, model: str | None) -> dict[str, float]:
    """Return ms per belief query (`mafia_env.belief`, one seat, `model` None: deduction) and
    ms per move of keeping it up to date, over random games played for about `seconds`."""
    import random

    from mafia_env.actions import ActionLayout
    from mafia_env.belief import belief, tracker
    from mafia_env.engine.game import Game
    from mafia_env.observe import VectorObserver
    from mafia_env.policy import load_policy

    rules = mafia_env.VARIANTS[variant]
    layout = ActionLayout(rules, n)
    bot = load_policy(model or "random", variant=variant, num_players=n, seed=0)
    query = update = 0.0
    queries = moves = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        g = Game(rules, n, seed)
        obs = VectorObserver(rules, n)
        obs.reset(g)
        seat = random.Random(seed).randrange(n)
        seed += 1
        while not g.over:
            g.apply(*layout.decoded[bot.act(obs.observe(g, g.actor), layout.shared_mask(g))])
            t0 = time.perf_counter()
            tracker(g, seat, model).update()
            t1 = time.perf_counter()
            if not g.over:
                belief(g, seat, model).matrix()
            t2 = time.perf_counter()
            update += t1 - t0
            query += t2 - t1
            moves += 1
            queries += not g.over
    return {
        "model": model or "deduction",
        "query_ms": 1e3 * query / max(queries, 1),
        "update_ms_per_move": 1e3 * update / max(moves, 1),
        "moves": moves,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--variants", nargs="*", default=sorted(mafia_env.VARIANTS))
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument(
        "--scaling",
        action="store_true",
        help="also measure 6, 10, 14 and 20 seats (raw_env) and memory",
    )
    parser.add_argument(
        "--belief",
        action="store_true",
        help="also time belief queries (mafia_env.belief: deduction, Bayes) beside the env",
    )
    args = parser.parse_args()
    unknown = set(args.variants) - set(mafia_env.VARIANTS)
    if unknown:
        parser.error(f"unknown variants {sorted(unknown)}; variants: {sorted(mafia_env.VARIANTS)}")

    from pettingzoo.classic import connect_four_v3

    results = {
        "python": platform.python_version(),
        "seconds": args.seconds,
        "rows": [],
        "scaling": [],
    }
    # the yardstick is measured again just before each row, so a change in the machine's
    # load during the run moves both sides of a ratio alike
    base = {api: [] for api in ("env", "raw_env")}
    results["connect_four_v3"] = base
    print(
        f"{'variant':10} {'n':>3} {'api':8} {'moves/s':>10} {'games/s':>9} "
        f"{'moves/game':>10} {'connect4':>9} {'x connect4':>10}"
    )
    for name in args.variants:
        n = mafia_env.VARIANTS[name].default_players
        for api in ("env", "raw_env"):
            c4 = play(getattr(connect_four_v3, api)(), args.seconds)["moves_per_s"]
            base[api].append(c4)
            r = play(getattr(mafia_env, api)(name, n), args.seconds)
            ratio = r["moves_per_s"] / c4
            results["rows"].append(
                {
                    "variant": name,
                    "num_players": n,
                    "api": api,
                    **r,
                    "connect_four_moves_per_s": c4,
                    "ratio_vs_connect_four": ratio,
                }
            )
            print(
                f"{name:10} {n:3d} {api:8} {r['moves_per_s']:10.0f} {r['games_per_s']:9.1f} "
                f"{r['moves_per_game']:10.1f} {c4:9.0f} {ratio:10.2f}"
            )
    print(f"\n{'variant':10} {'n':>3} {'batched agent steps/s (64 games, one process)':>46}")
    for name in args.variants:
        speed = batched(name, 64, args.seconds)
        results["batched"] = {**results.get("batched", {}), name: speed}
        print(f"{name:10} {mafia_env.VARIANTS[name].default_players:3d} {speed:46.0f}")
    print(
        f"\n{'variant':10} {'n':>3} {'moves':>6} {'game.clone us':>14} {'env.clone us':>13} "
        f"{'replay ms':>10} {'replay/env.clone':>17}"
    )
    for name in args.variants:
        n = mafia_env.VARIANTS[name].default_players
        c = clone_cost(name, n)
        results["clone"] = {**results.get("clone", {}), name: c}
        print(
            f"{name:10} {n:3d} {c['moves']:6d} {c['game_clone_s'] * 1e6:14.1f} "
            f"{c['env_clone_s'] * 1e6:13.1f} {c['replay_s'] * 1e3:10.2f} "
            f"{c['replay_s'] / c['env_clone_s']:17.0f}"
        )
    if args.scaling:
        scaling(args.seconds, results)
    if args.belief:
        print(f"\n{'variant':10} {'n':>3} {'belief':10} {'query ms':>9} {'update ms/move':>15}")
        results["belief"] = []
        for name in args.variants:
            n = mafia_env.VARIANTS[name].default_players
            for model in (None, "random", "rule"):
                b = belief_cost(name, n, args.seconds, model)
                results["belief"].append({"variant": name, "num_players": n, **b})
                print(
                    f"{name:10} {n:3d} {b['model']:10} {b['query_ms']:9.3f} "
                    f"{b['update_ms_per_move']:15.3f}"
                )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
