#!/usr/bin/env python
"""Benchmark: the rule bots' batched decision, against another checkout's bots.

Plays lockstep games on the C core (the Python engine where it is not built) with the rule
bot at every seat (a tenth of the moves random, for varied states) and records each step's
observations and masks; then times `RulePolicy.act_batch` on those batches, and with
``--against CHECKOUT`` the bots of another checkout too (e.g. main's, before a change: its
``baselines/rule`` is copied under another name and imported beside this one; where its
bots have a row path, ``vectorized = False``, that is timed as well). The runs are
interleaved in one process on the same batches and repeated, and the best of each is quoted
(a shared machine only adds time); every run must give the same actions. ``--part`` passes
each call a random share of the rows, as the trainer's opponents see only their own seats'
games (about 32 rows a call at the shipped config); ``--games 1`` is one game, a batch of
one a call. Prints CPU microseconds per decision (per row passed).

    python scripts/bench_rule.py                                   # sport-10, city-13; 64, 256
    python scripts/bench_rule.py --games 1 16 64 --part 0.5 --against ../main
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

# one BLAS thread, as importing baselines sets where numpy is not loaded yet (rule v2's
# posterior is ten times slower with OpenBLAS's own threads on a shared machine)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from baselines.rule import RulePolicy  # noqa: E402
from baselines.rule.v2 import RulePolicyV2  # noqa: E402
from mafia_env.vector import VectorMafia  # noqa: E402

BOTS = {"rule": RulePolicy, "rule_v2": RulePolicyV2}


def collect(variant: str, n: int | None, games: int, steps: int, part: float, seed: int = 3):
    """Return the engine, table size and batches (obs, masks) of `steps` lockstep steps."""
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


def other_bots(checkout: Path, where: Path) -> dict[str, type]:
    """Import `checkout`'s rule bots as the package ``baselines_against.rule``."""
    pkg = where / "baselines_against" / "rule"
    pkg.mkdir(parents=True)
    (pkg.parent / "__init__.py").write_text("")
    for src in (checkout / "baselines" / "rule").glob("*.py"):
        text = re.sub(r"\bbaselines\.rule\b", "baselines_against.rule", src.read_text())
        (pkg / src.name).write_text(text)
    sys.path.insert(1, str(where))
    rule = importlib.import_module("baselines_against.rule")
    v2 = importlib.import_module("baselines_against.rule.v2")
    return {"rule": rule.RulePolicy, "rule_v2": v2.RulePolicyV2}


def run(cls, variant: str, n: int, batches, vectorized: bool | None) -> tuple[float, list]:
    bot = cls(variant, n, seed=1)
    if vectorized is not None:  # another checkout's bots, with a row path
        bot.vectorized = vectorized
    t = time.process_time()
    actions = [bot.act_batch(o, m) for o, m in batches]
    return time.process_time() - t, actions


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", nargs="*", default=["sport:10", "city:13"])
    ap.add_argument("--games", nargs="*", type=int, default=[64, 256])
    ap.add_argument("--bots", nargs="*", choices=sorted(BOTS), default=["rule", "rule_v2"])
    ap.add_argument("--steps", type=int, default=60, help="lockstep steps recorded")
    ap.add_argument("--part", type=float, default=1.0, help="share of the rows per call")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--against", type=Path, help="also time this checkout's rule bots")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        against = other_bots(args.against.resolve(), Path(tmp)) if args.against else {}
        results = []
        for table in args.tables:
            variant, _, size = table.partition(":")
            for games in args.games:
                size_n = int(size) if size else None
                backend, n, batches = collect(variant, size_n, games, args.steps, args.part)
                rows = sum(len(o) for o, _ in batches)
                for name in args.bots:
                    paths = {"this": (BOTS[name], None)}
                    if name in against:
                        paths["against"] = (against[name], None)
                        if hasattr(against[name], "vectorized"):
                            paths["against rows"] = (against[name], False)
                    best = dict.fromkeys(paths, float("inf"))
                    for _ in range(args.repeat):
                        first = None
                        for key, (cls, vectorized) in paths.items():
                            t, actions = run(cls, variant, n, batches, vectorized)
                            best[key] = min(best[key], t)
                            first = first or actions
                            assert all((a == b).all() for a, b in zip(actions, first, strict=True))
                    us = {k: round(1e6 * t / rows, 1) for k, t in best.items()}
                    row = {"table": f"{variant}-{n}", "games": games, "bot": name}
                    row |= {"rows_per_call": round(rows / len(batches), 1), "backend": backend}
                    results.append(row | {"us_per_decision": us})
                    line = ", ".join(f"{k} {x:6.1f}" for k, x in us.items())
                    if "against" in us:
                        line += f" (x{us['this'] / us['against']:.2f} of against)"
                    print(
                        f"{row['table']:>8} {games:4d} games ({row['rows_per_call']:.0f} rows a "
                        f"call) {name:8s} us/decision: {line}",
                        flush=True,
                    )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
