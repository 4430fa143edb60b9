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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mafia_env import ccore
from mafia_env.ccore.diff import belief_count_tables


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
    found = belief_count_tables(
        rng, args.tables, args.steps, args.games, log=lambda line: print(line, flush=True)
    )
    if found is not None:
        print(f"MISMATCH: {found}")
        return 1
    print(
        f"{args.tables} tables the core counts, {args.steps} steps of {args.games} games each: "
        "no mismatch"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
