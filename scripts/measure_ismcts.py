"""Measure the search bot (``ismcts``) against the rule bots, on the same deals as rule bots alone.

Each game deals a table (AEC env reset with ``seed + i``), seats the search bot on one seat
of the measured side (a seat of that team drawn per game) and rule bots everywhere else,
and plays it; then the same deal is played again by rule bots on every seat. The side's win
rate (95% Wilson interval) is reported for both, with the paired counts (games the search
won and the rule bots lost, and the other way round). Progress is written to ``--out``
after every game, so a run stopped early still says what it reached.

    python scripts/measure_ismcts.py --side town --games 500 --out runs/ismcts/town.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import mafia_env
from baselines.ismcts import SearchPolicy
from baselines.rule import RulePolicy
from baselines.stats import wilson
from mafia_env.engine.events import OUTCOME_NAMES
from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.seating.games import play_until


class Timed(SearchPolicy):
    """The search bot, timing its searched moves."""

    seconds = 0.0

    def act(self, obs, mask):
        start = time.perf_counter()
        before = self.searched
        action = super().act(obs, mask)
        if self.searched > before:
            self.seconds += time.perf_counter() - start
        return action


def sign_test(a: int, b: int) -> float:
    """Return the two-sided sign test's p-value of `a` against `b` paired wins."""
    k, m = min(a, b), a + b
    if m == 0:
        return 1.0
    return min(1.0, 2 * sum(math.comb(m, i) for i in range(k + 1)) / 2**m)


def play(env, seed: int, players) -> str:
    env.reset(seed=seed)
    play_until(env, players(env.unwrapped.game))
    return OUTCOME_NAMES[env.unwrapped.game.winner]


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="sport")
    ap.add_argument("--side", choices=("town", "mafia"), required=True)
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--minutes", type=float, default=None, help="stop after this long")
    ap.add_argument("--config", default=None, help="search config (default: the variant's)")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument(
        "--model", default=None, help="draw worlds from the posterior under this policy (rule)"
    )
    args = ap.parse_args(argv)
    env = mafia_env.raw_env(args.variant)
    n = env.unwrapped.n
    team = TEAM_NAMES.index(args.side)
    options = {} if args.model is None else {"model": args.model}
    bot = Timed(args.variant, n, args.seed, config=args.config, **options)
    wins = {"search": 0, "rule": 0}
    paired = {"search_only": 0, "rule_only": 0}
    start = time.time()
    report: dict = {}
    for i in range(args.games):
        seed = args.seed + i
        rule = RulePolicy(args.variant, n, seed)

        def with_bot(game, seed=seed, rule=rule):
            seats = [s for s in range(n) if game.teams[s] == team]
            chosen = random.Random(seed).choice(seats)
            return [bot if s == chosen else rule for s in range(n)]

        won_search = play(env, seed, with_bot) == args.side
        rule.seed(seed)
        won_rule = play(env, seed, lambda game, rule=rule: [rule] * n) == args.side
        wins["search"] += won_search
        wins["rule"] += won_rule
        paired["search_only"] += won_search and not won_rule
        paired["rule_only"] += won_rule and not won_search
        games = i + 1
        report = {
            "variant": args.variant,
            "side": args.side,
            "games": games,
            "config": vars(bot.config),
            "search_wins": wins["search"],
            "search_win_rate": wins["search"] / games,
            "search_wilson95": wilson(wins["search"], games),
            "rule_wins": wins["rule"],
            "rule_win_rate": wins["rule"] / games,
            "rule_wilson95": wilson(wins["rule"], games),
            **paired,
            "sign_test_p": sign_test(paired["search_only"], paired["rule_only"]),
            "searched_moves": bot.searched,
            "rollouts": bot.rollouts,
            "seconds_per_searched_move": bot.seconds / max(1, bot.searched),
            "elapsed_s": time.time() - start,
        }
        if args.out is not None:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(report, indent=1))
        if args.minutes is not None and time.time() - start > 60 * args.minutes:
            break
    print(json.dumps(report, indent=1))
    return report


if __name__ == "__main__":
    main()
