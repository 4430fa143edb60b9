#!/usr/bin/env python
"""Check the C core's count of the belief piece against the Python engine's, over random knobs.

The trainer's belief piece (`mafia_env.seat_obs.LazyBelief` over the C core) is read from the
core's event log and counted in the core where the table is counted (`Core.count_pieces`,
ccore/src/count.c). This plays random legal games of random knob sets (`ccore.diff.
random_knobs`) of SPORT, CLUB and MINIMAL on both engines side by side, and compares at every
step the acting seats' pieces and, every fifth step, every seat's view, bit for bit. It prints
a line per table and stops at the first mismatch (exit 1). A short run of the same check is a
test (tests/belief/test_belief_table.py); this one is for long runs:

    python scripts/diff_belief_count.py --tables 200 --steps 150 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mafia_env import ccore
from mafia_env.ccore.diff import random_knobs
from mafia_env.errors import ConfigError
from mafia_env.seat_obs import vector_env


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50, help="tables the core counts, to play")
    ap.add_argument("--steps", type=int, default=150, help="steps of each table's games")
    ap.add_argument("--games", type=int, default=6, help="games of each table, in lockstep")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if min(args.tables, args.steps, args.games) < 1:
        ap.error("--tables, --steps and --games must be positive")
    if not ccore.available():
        print("no C core built here: nothing to compare")
        return 0
    rng = random.Random(args.seed)
    done = trial = 0
    while done < args.tables:
        trial += 1
        variant, n = rng.choice(["sport", "club", "minimal"]), rng.choice([7, 8, 9, 10])
        knobs = random_knobs(rng, 4)
        try:
            with warnings.catch_warnings():  # (a knob of a role the variant does not deal)
                warnings.simplefilter("ignore")
                envs = [
                    vector_env(
                        variant, args.games, n, seed=trial, belief="deduction", backend=b, **knobs
                    )
                    for b in ("c", "python")
                ]
        except ConfigError:
            continue
        if envs[0]._count is None:  # (a table the core does not count)
            continue
        done += 1
        B = args.games
        outs = [e.reset() for e in envs]
        moves = np.random.default_rng(trial)
        games, seats = np.repeat(np.arange(B), n), np.tile(np.arange(n), B)
        for step in range(args.steps):
            for e in envs:
                e.fill(np.arange(B))
            same = np.array_equal(envs[0].obs, envs[1].obs)
            if same and step % 5 == 0:
                same = np.array_equal(*(e.observe_many(games, seats) for e in envs))
            if not same:
                print(f"MISMATCH: {variant}-{n} {knobs} (seed {trial}) at step {step}")
                return 1
            acts = np.array([moves.choice(np.flatnonzero(m)) for m in outs[0][1]])
            outs = [e.step(acts) for e in envs]
        print(f"{done}/{args.tables}: {variant}-{n} {knobs}: no mismatch", flush=True)
    print(
        f"{done} tables the core counts, {args.steps} steps of {args.games} games each: no mismatch"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
