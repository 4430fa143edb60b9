#!/usr/bin/env python
"""Benchmark: the rule bots' batched decision, the vectorized pass against the row path.

Plays lockstep games on the C core (the Python engine where it is not built) with the rule
bot at every seat (a tenth of the moves random, for varied states) and records each step's
observations and masks; then times `RulePolicy.act_batch` on those batches with the batch
pass (``vectorized = True``, `baselines.rule.batch`) and with the row path (``False``: the
rows decided one by one, as before the pass), interleaved and repeated (the best run of each
is quoted: a shared machine only adds time). ``--part`` passes each call a random share of
the rows, as the trainer's opponents see only their own seats' games. Both paths must give
the same actions (checked on every batch). Prints microseconds per decision (per row passed).

    python scripts/bench_rule.py                                   # sport-10, city-13; 64, 256
    python scripts/bench_rule.py --tables sport:10 --games 64 --part 0.5 --bots rule
    python scripts/bench_rule.py --root ../main        # main's bots (its "batch pass" is rows)

A checkout whose bots have no batch pass ignores ``vectorized``: both figures are its row path.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if "--root" in sys.argv:  # another checkout's bots (e.g. main's, before a change)
    ROOT = Path(sys.argv[sys.argv.index("--root") + 1]).resolve()
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from baselines.rule import RulePolicy  # noqa: E402
from baselines.rule.v2 import RulePolicyV2  # noqa: E402
from mafia_env.vector import VectorMafia  # noqa: E402

BOTS = {"rule": RulePolicy, "rule_v2": RulePolicyV2}


def collect(variant: str, n: int, games: int, steps: int, part: float, seed: int = 3):
    """Return the batches (obs, masks) of `steps` lockstep steps of `games` games."""
    vec = VectorMafia(variant, games, n, seed=seed)
    bot = RulePolicy(variant, vec.n, seed=1)
    rng = np.random.default_rng(seed)
    obs, masks, _ = vec.reset()
    out = []
    for _ in range(steps):
        rows = np.flatnonzero(rng.random(games) < part) if part < 1 else np.arange(games)
        out.append((obs[rows].copy(), masks[rows].copy()))
        actions = bot.act_batch(obs, masks)
        for b in np.flatnonzero(rng.random(games) < 0.1):
            legal = np.flatnonzero(masks[b])
            actions[b] = legal[rng.integers(legal.size)]
        obs, masks, *_ = vec.step(actions)
    return vec.backend, vec.n, out


def time_path(cls, variant: str, n: int, batches, vectorized: bool) -> tuple[float, list]:
    bot = cls(variant, n, seed=1)
    bot.vectorized = vectorized
    t = time.process_time()
    actions = [bot.act_batch(o, m) for o, m in batches]
    return time.process_time() - t, actions


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", nargs="*", default=["sport:10", "city:13"])
    ap.add_argument("--games", nargs="*", type=int, default=[64, 256])
    ap.add_argument("--bots", nargs="*", choices=sorted(BOTS), default=["rule", "rule_v2"])
    ap.add_argument("--steps", type=int, default=100, help="lockstep steps recorded")
    ap.add_argument("--part", type=float, default=1.0, help="share of the rows per call")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--root", type=Path, help="time the bots of this checkout (default: this one)")
    args = ap.parse_args(argv)
    results = []
    for table in args.tables:
        variant, _, size = table.partition(":")
        for games in args.games:
            backend, n, batches = collect(
                variant, int(size) if size else None, games, args.steps, args.part
            )
            rows = sum(len(o) for o, _ in batches)
            for name in args.bots:
                cls = BOTS[name]
                new, old = [], []
                for _ in range(args.repeat):
                    t_new, a_new = time_path(cls, variant, n, batches, True)
                    t_old, a_old = time_path(cls, variant, n, batches, False)
                    assert all((x == y).all() for x, y in zip(a_new, a_old, strict=True))
                    new.append(t_new)
                    old.append(t_old)
                us_new, us_old = 1e6 * min(new) / rows, 1e6 * min(old) / rows
                row = {
                    "table": f"{variant}-{n}",
                    "games": games,
                    "rows_per_call": rows / len(batches),
                    "bot": name,
                    "backend": backend,
                    "us_row_path": round(us_old, 1),
                    "us_batch_pass": round(us_new, 1),
                    "speedup": round(us_old / us_new, 2),
                }
                results.append(row)
                print(
                    f"{row['table']:>8} {games:4d} games ({row['rows_per_call']:.0f} rows a call) "
                    f"{name:8s}: row path {us_old:6.1f} us/decision, batch pass {us_new:6.1f} "
                    f"us/decision ({us_old / us_new:.2f}x)",
                    flush=True,
                )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
