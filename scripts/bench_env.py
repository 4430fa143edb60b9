#!/usr/bin/env python
"""Benchmark: moves/s and games/s of random legal play, beside PettingZoo's connect_four_v3.

Machines here are shared and noisy, so compare ratios measured in one run, not raw figures:

    python scripts/bench_env.py                 # every variant, env() and raw_env()
    python scripts/bench_env.py --seconds 5 --variants sport --json out.json
    python scripts/bench_env.py --variants sport --trainer 4   # and the PPO trainer's steps/s
    python scripts/bench_env.py --aec-only --seconds 2         # the AEC rows alone
    python scripts/bench_env.py --aec-only --slices 8          # ... in turns with connect_four

Each row is measured on both engines (``--backends``): the C core (``backend="c"``) and the
Python engine, with the ratio of the core to the Python engine in the same run.
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
import mafia_env.ccore


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


def play_interleaved(envs: list, seconds: float, slices: int) -> list[dict[str, float]]:
    """`play` for each of `envs` in turn, `slices` times over, about `seconds` in all each: a
    change in the machine's load moves every side of a ratio alike. Whole games only."""
    rngs = [np.random.default_rng(0) for _ in envs]
    totals = [[0, 0, 0.0] for _ in envs]  # moves, games, seconds
    for _ in range(slices):
        for env, rng, t in zip(envs, rngs, totals, strict=True):
            start = time.perf_counter()
            deadline = start + seconds / slices
            while True:
                t[0] += play_one(env, rng)
                t[1] += 1
                if time.perf_counter() > deadline:
                    break
            t[2] += time.perf_counter() - start
    return [
        {"moves_per_s": m / e, "games_per_s": g / e, "moves_per_game": m / g} for m, g, e in totals
    ]


def memory_per_game(variant: str, n: int, backend: str = "python") -> float:
    """Return the bytes one environment holds for one played game (traced peak)."""
    tracemalloc.start()
    env = mafia_env.raw_env(variant, n, backend=backend)
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
    """Moves/s and memory per game at 6, 10, 14 and 20 seats, where a variant has them (the
    Python engine)."""
    print(f"\n{'variant':10} {'n':>3} {'moves/s':>10} {'KiB/game':>9} {'x at 10':>8}")
    for name in sorted(mafia_env.VARIANTS):
        rules = mafia_env.VARIANTS[name]
        sizes = [n for n in (6, 10, 14, 20) if rules.min_players <= n <= rules.max_players]
        at10 = None
        for n in sizes:
            speed = play(mafia_env.raw_env(name, n, backend="python"), seconds)["moves_per_s"]
            at10 = speed if n == 10 else at10
            mem = memory_per_game(name, n)
            rel = f"{speed / at10:8.2f}" if at10 and n >= 10 else " " * 8
            results["scaling"].append(
                {"variant": name, "num_players": n, "moves_per_s": speed, "bytes_per_game": mem}
            )
            print(f"{name:10} {n:3d} {speed:10.0f} {mem / 1024:9.0f} {rel}")


def batched(
    variant: str, num_envs: int, seconds: float, backend: str = "python"
) -> tuple[float, float]:
    """Return agent steps/s of `mafia_env.vector` with random legal actions (one process): by
    the loop's wall clock, and by the time inside ``step`` alone (the env without the
    sampler)."""
    from mafia_env.vector import VectorMafia

    vec = VectorMafia(variant, num_envs, seed=0, backend=backend)
    _, masks, _ = vec.reset()
    rng = np.random.default_rng(0)
    noise = np.empty(masks.shape, dtype=np.float32)  # a uniform legal action: argmax(u + mask)
    steps = 0
    inside = 0.0
    clock = time.perf_counter
    start = clock()
    while clock() - start < seconds:
        rng.random(out=noise, dtype=np.float32)
        noise += masks
        actions = noise.argmax(axis=1)
        t = clock()
        masks = vec.step(actions)[1]
        inside += clock() - t
        steps += num_envs
    return steps / (clock() - start), steps / inside


def batch_memory(variant: str, num_envs: int, backend: str, steps: int = 2000) -> float:
    """Return the bytes a game of a `VectorMafia` batch holds (traced peak over `steps` steps
    of random play, divided by the batch size: the games, their arrays, their logs)."""
    from mafia_env.vector import VectorMafia

    tracemalloc.start()
    vec = VectorMafia(variant, num_envs, seed=0, backend=backend)
    _, masks, _ = vec.reset()
    rng = np.random.default_rng(0)
    for _ in range(steps):
        masks = vec.step((rng.random(masks.shape) + (masks > 0)).argmax(axis=1))[1]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / num_envs


def clone_cost(variant: str, n: int, moves: int = 200, reps: int = 300) -> dict[str, float]:
    """Return seconds per `Game.clone`, per `env.unwrapped.clone()` and per replay of the record,
    for a random game `moves` moves in (or at its end), on the Python engine; and per
    `env.clone()` of the same game on the C core."""
    env = mafia_env.raw_env(variant, n, backend="python")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(moves):
        if env.game.over:
            break
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    record = env.record()
    core = mafia_env.replay(record)  # the same game on the C core, where it is built
    if mafia_env.ccore.available():
        core = mafia_env.raw_env(variant, n, backend="c")
        core.reset(seed=1)
        for move in record["moves"]:
            core.step(move[1])

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
        "core_env_clone_s": per_call(core.clone, reps),
    }


def belief_cost(variant: str, n: int, seconds: float, model: str | None) -> dict[str, float]:
    """Return ms per belief query (`mafia_env.belief`, one seat, `model` None: deduction) and
    ms per move of keeping it up to date, over random games played for about `seconds`."""
    import random

    from mafia_env.actions import ActionLayout
    from mafia_env.belief import belief, tracker
    from mafia_env.engine.game import Game
    from mafia_env.observe import VectorObserver
    from mafia_env.seating.policies import load_policy

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


def trainer(updates: int, backends: list[str]) -> list[dict]:
    """Run scripts/bench_trainer.py on each engine in turn (fresh processes); return its runs."""
    import subprocess
    import tempfile

    script = Path(__file__).resolve().parent / "bench_trainer.py"
    print(f"\nthe PPO trainer at the shipped config ({updates} updates a run, back to back):")
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        cmd = [sys.executable, str(script), "--updates", str(updates), "--json", f.name]
        subprocess.run([*cmd, "--backends", *backends], check=True)
        runs = json.loads(Path(f.name).read_text())["runs"]
    speed = {r["backend"]: r["cpu_sps"] for r in runs}
    if {"python", "c"} <= set(speed):
        print(f"trainer env steps/s by CPU time: x{speed['c'] / speed['python']:.2f} on the core")
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--variants", nargs="*", default=sorted(mafia_env.VARIANTS))
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument(
        "--backends",
        nargs="*",
        default=["python", "c"],
        choices=["python", "c"],
        help="the engines measured (default both; the ratio needs both)",
    )
    parser.add_argument(
        "--batch", type=int, nargs="*", default=[64, 1024], help="batch sizes of the batched API"
    )
    parser.add_argument(
        "--slices",
        type=int,
        default=1,
        metavar="K",
        help="AEC rows: play connect_four and each env in turn, K slices of seconds/K each "
        "(ratios steadier on a loaded machine; default 1: one stretch each, yardstick first)",
    )
    parser.add_argument(
        "--aec-only",
        action="store_true",
        help="only the AEC rows (env and raw_env beside connect_four): no batched or clone rows",
    )
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
    parser.add_argument(
        "--trainer",
        type=int,
        default=0,
        metavar="UPDATES",
        help="also run scripts/bench_trainer.py (the shipped PPO config, this many updates) "
        "on the Python engine and on the C core, back to back (needs torch)",
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
    backends = args.backends
    print(
        f"{'variant':10} {'n':>3} {'api':8} {'backend':7} {'moves/s':>10} {'games/s':>9} "
        f"{'moves/game':>10} {'connect4':>9} {'x connect4':>10} {'x python':>8}"
    )
    for name in args.variants:
        n = mafia_env.VARIANTS[name].default_players
        for api in ("env", "raw_env"):
            if args.slices > 1:  # the yardstick and the envs take turns, in short slices
                envs = [getattr(mafia_env, api)(name, n, backend=b) for b in backends]
                runs = play_interleaved(
                    [getattr(connect_four_v3, api)(), *envs], args.seconds, args.slices
                )
                c4, runs = runs[0]["moves_per_s"], runs[1:]
            else:
                c4 = play(getattr(connect_four_v3, api)(), args.seconds)["moves_per_s"]
            base[api].append(c4)
            speed = {}
            for i, backend in enumerate(backends):
                if args.slices > 1:
                    r = runs[i]
                else:
                    r = play(getattr(mafia_env, api)(name, n, backend=backend), args.seconds)
                speed[backend] = r["moves_per_s"]
                ratio = r["moves_per_s"] / c4
                vs = speed[backend] / speed["python"] if "python" in speed else float("nan")
                results["rows"].append(
                    {
                        "variant": name,
                        "num_players": n,
                        "api": api,
                        "backend": backend,
                        **r,
                        "connect_four_moves_per_s": c4,
                        "ratio_vs_connect_four": ratio,
                        "ratio_vs_python": vs,
                    }
                )
                print(
                    f"{name:10} {n:3d} {api:8} {backend:7} {r['moves_per_s']:10.0f} "
                    f"{r['games_per_s']:9.1f} {r['moves_per_game']:10.1f} {c4:9.0f} "
                    f"{ratio:10.2f} {vs:8.2f}"
                )
    if args.aec_only:
        if args.json:
            Path(args.json).write_text(json.dumps(results, indent=2))
        return
    print(
        f"\n{'variant':10} {'n':>3} {'batch':>5} {'backend':7} {'agent steps/s':>14} "
        f"{'x python':>8} {'env only/s':>11} {'KiB/game':>9}   (random legal actions, one process)"
    )
    results["batched"] = []
    for name in args.variants:
        n = mafia_env.VARIANTS[name].default_players
        for size in args.batch:
            speed = {}
            for backend in backends:
                speed[backend], alone = batched(name, size, args.seconds, backend)
                mem = batch_memory(name, size, backend, steps=200)
                vs = speed[backend] / speed["python"] if "python" in speed else float("nan")
                results["batched"].append(
                    {
                        "variant": name,
                        "num_players": n,
                        "num_envs": size,
                        "backend": backend,
                        "steps_per_s": speed[backend],
                        "env_only_steps_per_s": alone,
                        "ratio_vs_python": vs,
                        "bytes_per_game": mem,
                    }
                )
                print(
                    f"{name:10} {n:3d} {size:5d} {backend:7} {speed[backend]:14.0f} {vs:8.2f} "
                    f"{alone:11.0f} {mem / 1024:9.1f}"
                )
    print(
        f"\n{'variant':10} {'n':>3} {'moves':>6} {'game.clone us':>14} {'env.clone us':>13} "
        f"{'replay ms':>10} {'replay/env.clone':>17} {'core env.clone us':>18}"
    )
    for name in args.variants:
        n = mafia_env.VARIANTS[name].default_players
        c = clone_cost(name, n)
        results["clone"] = {**results.get("clone", {}), name: c}
        print(
            f"{name:10} {n:3d} {c['moves']:6d} {c['game_clone_s'] * 1e6:14.1f} "
            f"{c['env_clone_s'] * 1e6:13.1f} {c['replay_s'] * 1e3:10.2f} "
            f"{c['replay_s'] / c['env_clone_s']:17.0f} {c['core_env_clone_s'] * 1e6:18.1f}"
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
    if args.trainer:
        results["trainer"] = trainer(args.trainer, backends)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
