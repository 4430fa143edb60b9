"""The benchmark protocol: a policy against a task's fixed opponents, on fixed seeds.

    python -m baselines.benchmark --policy rule --task sport-10
    python -m baselines.benchmark --policy path/to/ckpt.pt --all --out results.json

For each side the task names, the policy plays every seat of that team and each opponent
policy plays all other seats, over the task's fixed seeds. The score is the win rate per
side and opponent with a Wilson 95% interval; the headline number is the mean win rate over
all (side, opponent) pairs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import mafia_env
from baselines.policy import shipped_checkpoint
from baselines.stats import wilson
from mafia_env.errors import ConfigError, MafiaError
from mafia_env.match import Seating, play_game
from mafia_env.policy import load_policy
from mafia_env.tasks import TASKS, Task


def play_side(task: Task, policy_name: str, side: str, opponent: str, games: int) -> dict:
    """Play `games` games with `policy_name` on every seat of `side`; return the tally."""
    env = mafia_env.raw_env(task.variant, task.num_players, **task.play_knobs())
    learner = load_policy(
        policy_name, variant=task.variant, num_players=task.num_players, seed=task.seed
    )
    other = load_policy(
        opponent, variant=task.variant, num_players=task.num_players, seed=task.seed + 1
    )
    seating = Seating(other, teams={side: learner})
    wins = draws = 0
    for g in range(games):
        play_game(env, seating, seed=task.seed + g)
        wins += env.winner == side
        draws += env.winner == "draw"
    lo, hi = wilson(wins, games)
    return {
        "side": side,
        "opponent": opponent,
        "games": games,
        "wins": wins,
        "draws": draws,
        "win_rate": wins / games,
        "ci95": [lo, hi],
    }


def check_opponents(task: Task) -> None:
    """Refuse to run a task whose ``ppo`` opponent is not the file it was defined with."""
    if "ppo" not in task.opponents:
        return
    path = shipped_checkpoint(task.variant, task.num_players)
    if not path.exists():
        raise ConfigError(f"task {task.name} plays against {path}, which is not installed")
    got = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    if got != task.ppo_sha256:
        raise ConfigError(
            f"task {task.name} (version {task.version}) was defined with the PPO opponent "
            f"{task.ppo_sha256 or '(none)'}, but {path} is {got}: its scores would not compare "
            "with the reference table; restore that file or define a new task version"
        )


def run_task(task: Task, policy: str, games: int | None = None) -> dict[str, Any]:
    """Run the protocol of one task; return its machine-readable result."""
    check_opponents(task)
    n = games or task.games
    rows = [play_side(task, policy, side, opp, n) for side in task.sides for opp in task.opponents]
    return {
        "task": task.name,
        "digest": task.digest(),
        "policy": str(policy),
        "games_per_pair": n,
        "standard": games is None,
        "rows": rows,
        "headline": sum(r["win_rate"] for r in rows) / len(rows),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Score a policy on the mafia_env benchmark.")
    parser.add_argument("--policy", required=True, help="random, rule, ppo or a checkpoint path")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--task", choices=sorted(TASKS), help="one task")
    group.add_argument("--all", action="store_true", help="every task")
    parser.add_argument("--games", type=int, help="games per pair (non-standard: for smoke runs)")
    parser.add_argument("--out", help="write the results as JSON here")
    args = parser.parse_args(argv)
    tasks = list(TASKS.values()) if args.all else [TASKS[args.task]]
    results = []
    try:
        for task in tasks:
            result = run_task(task, args.policy, args.games)
            results.append(result)
            print(f"{task.name:12} headline {result['headline']:.3f}")
            for r in result["rows"]:
                lo, hi = r["ci95"]
                print(
                    f"  as {r['side']:6} vs {r['opponent']:7} {r['win_rate']:6.1%} "
                    f"[{lo:.1%}, {hi:.1%}] over {r['games']} games"
                )
    except (ConfigError, MafiaError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
