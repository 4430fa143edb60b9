"""Replay many random games of every variant and check each rebuilds the exact game.

    python scripts/check_replay.py [--games 10000] [--variants sport city] [--seed 0]

Each game is played with uniformly random legal actions (and, in every other game, random
moderator fouls), recorded, sent through JSON, replayed, and compared: the same events, the
same winner, the same record. Prints games, moves and seconds per variant; exits 1 on the
first mismatch, with the seed to reproduce it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import mafia_env


def check(variant: str, games: int, seed: int) -> tuple[int, float]:
    """Play and replay `games` games of `variant`; return the moves played and the seconds."""
    env = mafia_env.raw_env(variant)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    moves, start = 0, time.perf_counter()
    for g in range(games):
        env.reset()
        game = env.game
        while not game.over:
            if g % 2 and rng.random() < 0.01:
                env.foul(env.possible_agents[int(rng.integers(env.n))])
                continue
            env.step(int(rng.choice(np.flatnonzero(env._legal_mask()))))
        record = env.record()
        again = mafia_env.replay(json.loads(json.dumps(record)))
        if again.game.events != game.events or again.winner != env.winner:
            sys.exit(f"{variant}: game {g} (seed {seed}) does not replay to the same game")
        if again.record() != record:
            sys.exit(f"{variant}: game {g} (seed {seed}): the replay's record differs")
        moves += len(record["moves"])
    return moves, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per variant")
    parser.add_argument("--variants", nargs="*", default=sorted(mafia_env.VARIANTS))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for variant in args.variants:
        moves, seconds = check(variant, args.games, args.seed)
        print(f"{variant:8s} {args.games} games, {moves} moves replayed exactly in {seconds:.1f} s")


if __name__ == "__main__":
    main()
