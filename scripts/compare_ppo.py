"""Compare a PPO policy with the bots, per team, over many games (Wilson 95% intervals).

    python scripts/compare_ppo.py --variant sport --games 2000            # shipped checkpoint
    python scripts/compare_ppo.py --variant sport --policy runs/x/agent.pt --bots rule

PPO town vs bot mafia is set beside bot town vs bot mafia, and PPO mafia vs bot town beside
bot mafia vs bot town (the same deals, seeded); "better" means the intervals do not overlap.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from baselines import load_policy
from baselines.ppo import evaluate, opponent_policy
from baselines.train import comparison_lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="sport")
    parser.add_argument("--num-players", type=int, default=None)
    parser.add_argument("--policy", default="ppo", help='"ppo" (shipped) or a checkpoint path')
    parser.add_argument("--bots", default="rule", help="rule (random until rule bots exist)")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    policy = load_policy(args.policy, variant=args.variant, num_players=args.num_players)
    n = policy.num_players
    bots, name = opponent_policy(args.bots, args.variant, n, args.seed)
    t = time.time()
    res = evaluate(policy, bots, args.variant, n, args.games, seed=args.seed, baseline=True)
    print(f"{args.variant}, {n} players, {args.games} games per matchup ({time.time() - t:.0f} s)")
    print("\n".join(comparison_lines(res, name)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
