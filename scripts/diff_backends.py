#!/usr/bin/env python
"""Play seeded random games on the C core and on the Python engine side by side, move by move.

Every move compares who acts, the mask, the acting seat's observation (every seat's at each
new day and night and at the end), every event, the result and the rewards
(`mafia_env.ccore.diff.play_both`). The first mismatch is printed with its game (variant,
table size, seed) and move, and the script exits 1. Table sizes cycle through every size the
variant has; half the games have moderators' calls (fouls, removals, talk, timeouts, a
stopping illegal move). ``--eras`` plays the variants' earlier rules too (era 0: today's;
1 and 2: `mafia_env.compat.earlier_rules`, the rules before the seeds' first and second
reading); ``--knobs`` adds a sweep of random knob settings.

    python scripts/diff_backends.py                       # 10^6 games a variant, today's rules
    python scripts/diff_backends.py --games 20000 -j 2 --variants sport online --eras 0 2
    python scripts/diff_backends.py --knobs 100000 --games 0
    python scripts/diff_backends.py --first 1000000 --games 1000   # the next 1,000 seeds

``--first`` splits a long run over machines or sessions: each run plays the seeds
[first, first + games), so runs with disjoint ranges add up.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import mafia_env
from mafia_env.ccore.diff import EngineError, play_both, random_knobs
from mafia_env.compat import ERAS, earlier_rules
from mafia_env.errors import ConfigError

Job = tuple[str, int, int, int, float]  # (variant or "knobs", era, start, stop, moderator)


def rules_of(variant: str, era: int = 0) -> mafia_env.Rules:
    """Return `variant`'s rules of `era` (0: today's)."""
    rules = mafia_env.VARIANTS[variant]
    return rules.with_knobs(**earlier_rules(variant, era)) if era else rules


def run_variant(job: Job) -> tuple[int, int, str | None]:
    """Play games [start, stop) of a variant; return (games, 0, the first mismatch)."""
    variant, era, start, stop, moderator = job
    rules = rules_of(variant, era)
    sizes = list(range(rules.min_players, rules.max_players + 1))
    games = 0
    for seed in range(start, stop):
        n = sizes[seed % len(sizes)]
        bad = play_both(rules, n, seed, random.Random(seed), moderator=moderator * (seed % 2))
        games += 1
        if bad is not None:
            return games, 0, str(bad)
    return games, 0, None


def run_knobs(job: Job) -> tuple[int, int, str | None]:
    """Play knob-sweep games [start, stop); return (games compared, engine failures, mismatch)."""
    _, _, start, stop, moderator = job
    names = sorted(mafia_env.VARIANTS)
    games = failures = 0
    for seed in range(start, stop):
        rng = random.Random(seed)
        base = mafia_env.VARIANTS[rng.choice(names)]
        knobs = random_knobs(rng)
        try:
            rules = base.with_knobs(**knobs)
            n = rng.randrange(base.min_players, base.max_players + 1)
            rules.role_counts(n)
            bad = play_both(rules, n, seed, rng, moderator=moderator)
        except ConfigError:
            continue
        except EngineError:  # the Python engine itself cannot play these knobs
            failures += 1
            continue
        games += 1
        if bad is not None:
            return games, failures, f"{bad} (knobs {knobs})"
    return games, failures, None


def run(
    kind: str, era: int, games: int, workers: int, moderator: float, chunk: int, first: int = 0
) -> bool:
    stop = first + games
    jobs = [(kind, era, s, min(s + chunk, stop), moderator) for s in range(first, stop, chunk)]
    name = f"{kind} (era {era})" if era else kind
    fn = run_knobs if kind == "knobs" else run_variant
    done = extra = 0
    start = time.perf_counter()
    with mp.Pool(workers) as pool:
        for played, more, bad in pool.imap(fn, jobs):
            done += played
            extra += more
            if bad is not None:
                print(f"MISMATCH {bad}", flush=True)
                pool.terminate()
                return False
            if done % (chunk * 10) < chunk or done == games:
                rate = done / (time.perf_counter() - start)
                print(f"  {name}: {done} games, {rate:.0f} games/s", flush=True)
    note = f", {extra} the Python engine cannot play" if kind == "knobs" else ""
    seeds = f"seeds {first}-{stop - 1}"
    print(
        f"{name}: {done} games ({seeds}), no mismatch{note} ({time.perf_counter() - start:.0f} s)"
    )
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_000_000, help="games a variant")
    ap.add_argument("--variants", nargs="*", default=sorted(mafia_env.VARIANTS))
    ap.add_argument(
        "--eras", nargs="*", type=int, default=[0], choices=(0, *ERAS), help="0: today's rules"
    )
    ap.add_argument("--knobs", type=int, default=0, help="games of the random-knob sweep")
    ap.add_argument("--moderator", type=float, default=0.02, help="chance of a call a move")
    ap.add_argument("-j", "--workers", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=500, help="games a job")
    ap.add_argument("--first", type=int, default=0, help="the first seed (default 0)")
    args = ap.parse_args()
    if args.first < 0 or args.games < 0 or args.knobs < 0:
        ap.error("--first, --games and --knobs take counts of 0 or more")
    if not mafia_env.ccore.available():
        sys.exit("the C core is not built: pip install -e . (with a C compiler)")
    ok = True
    for era in args.eras if args.games else []:
        for variant in args.variants:
            ok = ok and run(
                variant, era, args.games, args.workers, args.moderator, args.chunk, args.first
            )
    if ok and args.knobs:
        ok = run("knobs", 0, args.knobs, args.workers, args.moderator, args.chunk, args.first)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
