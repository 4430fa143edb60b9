#!/usr/bin/env python
"""Benchmark: Bayes under random play (`mafia_env.belief`, ``model="random"``), per task.

Plays seeded games with the random policy at every seat, one seat per game (drawn as
`mafia_env.belief.calibration` draws it) keeping its Bayesian belief up to date move by move
and asked for it after every move; prints seconds a game (the updates and the queries, the
game's own moves left out) and milliseconds a query, per task, with the worst game.

    python scripts/bench_bayes.py                         # every task, 6 games each
    python scripts/bench_bayes.py --tasks forum-10 city-13 --games 10 --model random
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mafia_env.actions import ActionLayout
from mafia_env.belief import belief, tracker
from mafia_env.engine.game import Game
from mafia_env.observe import VectorObserver
from mafia_env.seating.policies import load_policy
from mafia_env.variants import get_variant

TASKS = ("sport-10", "club-10", "online-10", "minimal-10", "forum-10", "city-13")


def one_game(variant: str, n: int, seed: int, model: str) -> dict:
    """Play game `seed`; return its moves, the seconds of updates and queries, the queries."""
    rules = get_variant(variant)
    layout = ActionLayout(rules, n)
    bot = load_policy(model, variant=variant, num_players=n, seed=seed)
    g = Game(rules, n, seed)
    obs = VectorObserver(rules, n)
    obs.reset(g)
    seat = random.Random(seed).randrange(n)
    update = query = 0.0
    moves = queries = 0
    while not g.over:
        g.apply(*layout.decoded[bot.act(obs.observe(g, g.actor), layout.shared_mask(g))])
        moves += 1
        t0 = time.process_time()
        tracker(g, seat, model).update()
        t1 = time.process_time()
        if not g.over:
            belief(g, seat, model).matrix()
            queries += 1
        update += t1 - t0
        query += time.process_time() - t1
    return {"moves": moves, "update_s": update, "query_s": query, "queries": queries}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", nargs="*", default=list(TASKS))
    ap.add_argument("--games", type=int, default=6, help="games per task")
    ap.add_argument("--seed", type=int, default=0, help="games are seeds seed .. seed+games-1")
    ap.add_argument("--model", default="random", help="the policy at every seat and the model")
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args()
    out = {"load": os.getloadavg(), "model": args.model, "rows": []}
    print(f"load average {out['load'][0]:.2f}; Bayes under {args.model} play, CPU seconds")
    print(f"{'task':11} {'games':>5} {'s/game':>8} {'worst':>8} {'ms/query':>9} {'moves/game':>10}")
    for task in args.tasks:
        variant, n = task.rsplit("-", 1)
        games = [
            one_game(variant, int(n), s, args.model)
            for s in range(args.seed, args.seed + args.games)
        ]
        per_game = [x["update_s"] + x["query_s"] for x in games]
        queries = sum(x["queries"] for x in games)
        row = {
            "task": task,
            "games": len(games),
            "s_per_game": sum(per_game) / len(games),
            "worst_s": max(per_game),
            "ms_per_query": 1e3 * sum(x["query_s"] for x in games) / max(queries, 1),
            "moves_per_game": sum(x["moves"] for x in games) / len(games),
        }
        out["rows"].append(row)
        print(
            f"{task:11} {row['games']:5d} {row['s_per_game']:8.2f} {row['worst_s']:8.2f} "
            f"{row['ms_per_query']:9.2f} {row['moves_per_game']:10.1f}",
            flush=True,
        )
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
