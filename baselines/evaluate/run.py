"""Play an evaluation: its matchups' games in seeded chunks, over the machine's cores.

Every game of a matchup is seeded from the config's seed, the matchup's index and the game's
index, and games are played in fixed chunks (`CHUNK`) with policies seeded per chunk, so a
report does not depend on the number of worker processes. `evaluate` returns one report per
matchup; `rate_policies` plays the pooled games of the ``ratings`` section and rates them.
"""

from __future__ import annotations

import itertools
import math
import os
import zlib
from dataclasses import dataclass
from typing import Any

from baselines.evaluate.eval_config import EvalConfig
from baselines.evaluate.metrics import report_matchup, summarize
from mafia_env.commands import progress as progress_bar
from mafia_env.commands import showing_progress
from mafia_env.errors import ConfigError, missing_extra
from mafia_env.seating.games import Seating, play_game
from mafia_env.seating.policies import load_policy

CHUNK = 25  # games per task: the unit of seeding and of work handed to a process


@dataclass(frozen=True)
class Task:
    """A chunk of games of one matchup, played in one process."""

    variant: str
    num_players: int
    policies: dict[str, str]
    key: int  # the matchup's seed
    chunk: int
    games: int


def game_seed(key: int, index: int) -> int:
    return zlib.crc32(f"{key}:{index}".encode()) * 1_000_003 + index


def play_chunk(task: Task) -> list[dict[str, Any]]:
    """Play a chunk of games; return one summary per game."""
    import mafia_env

    env = mafia_env.raw_env(task.variant, task.num_players)
    policies = {}
    for team, name in task.policies.items():
        seed = zlib.crc32(f"{task.key}:{task.chunk}:{team}".encode())
        policies[team] = load_policy(name, task.variant, task.num_players, seed)
    seating = Seating(teams=policies)
    out = []
    for i in range(task.games):
        index = task.chunk * CHUNK + i
        game = play_game(env, seating, seed=game_seed(task.key, index))
        out.append(summarize(game, index))
    return out


def run_tasks(tasks: list[Task], workers: int, progress: bool, desc: str) -> list[list[dict]]:
    """Play every task, over `workers` processes (0: every core); results in task order."""
    workers = workers or os.cpu_count() or 1
    total = sum(t.games for t in tasks)
    results: list[list[dict]] = [[] for _ in tasks]
    with showing_progress(progress):
        bar = progress_bar(total, desc, "game")
    if workers == 1 or len(tasks) == 1:
        for i, t in enumerate(tasks):
            results[i] = play_chunk(t)
            bar.update(t.games)
    else:
        import multiprocessing as mp

        with mp.get_context("spawn").Pool(workers) as pool:
            for i, res in pool.imap_unordered(_indexed, list(enumerate(tasks))):
                results[i] = res
                bar.update(tasks[i].games)
    bar.close()
    return results


def _indexed(item: tuple[int, Task]) -> tuple[int, list[dict]]:
    i, task = item
    return i, play_chunk(task)


def matchup_tasks(cfg: EvalConfig, index: int, policies: dict[str, str], games: int) -> list[Task]:
    """Split a matchup's games into seeded chunks."""
    key = zlib.crc32(f"{cfg.seed}:{index}:{sorted(policies.items())}".encode())
    return [
        Task(cfg.variant, cfg.num_players, policies, key, c, min(CHUNK, games - c * CHUNK))
        for c in range(math.ceil(games / CHUNK))
    ]


def evaluate(cfg: EvalConfig, progress: bool = True) -> list[dict]:
    """Play every matchup of `cfg`; return their reports."""
    tasks: list[Task] = []
    owner: list[int] = []
    for i, m in enumerate(cfg.matchups):
        for t in matchup_tasks(cfg, i, m.policies, cfg.games):
            tasks.append(t)
            owner.append(i)
    results = run_tasks(tasks, cfg.workers, progress, f"{cfg.variant} matchups")
    per: list[list[dict]] = [[] for _ in cfg.matchups]
    for i, res in zip(owner, results, strict=True):
        per[i].extend(res)
    return [report_matchup(m, g, cfg.teams) for m, g in zip(cfg.matchups, per, strict=True)]


def rate_policies(cfg: EvalConfig, progress: bool = True) -> list[dict[str, Any]]:
    """Play the pooled games of `cfg.ratings`; return the rating table, best first."""
    try:
        from openskill.models import PlackettLuce
    except ImportError as e:
        raise missing_extra(e, "rating policies (a config's ratings section)") from None

    if cfg.ratings is None:
        raise ConfigError("the config has no 'ratings' section (policies: [...], games: N)")
    teams = cfg.teams
    pairings = list(itertools.product(cfg.ratings.policies, repeat=len(teams)))
    tasks, owner = [], []
    for i, combo in enumerate(pairings):
        policies = dict(zip(teams, combo, strict=True))
        for t in matchup_tasks(cfg, 1000 + i, policies, cfg.ratings.games):
            tasks.append(t)
            owner.append(policies)
    results = run_tasks(tasks, cfg.workers, progress, f"{cfg.variant} ratings")
    model = PlackettLuce()
    ratings = {(p, t): model.rating(name=f"{p}@{t}") for p in cfg.ratings.policies for t in teams}
    games = {key: 0 for key in ratings}
    wins = {key: 0 for key in ratings}
    for policies, res in zip(owner, results, strict=True):
        for g in res:
            keys = [(policies[t], t) for t in teams]
            ranks = [0 if g["winner"] in (t, "draw") else 1 for t in teams]
            new = model.rate([[ratings[k]] for k in keys], ranks=ranks)
            for k, team in zip(keys, new, strict=True):
                ratings[k] = team[0]
                games[k] += 1
                wins[k] += g["winner"] == k[1]
    table = [
        {
            "policy": p,
            "team": t,
            "mu": r.mu,
            "sigma": r.sigma,
            "ordinal": r.ordinal(),
            "games": games[(p, t)],
            "win_rate": wins[(p, t)] / games[(p, t)] if games[(p, t)] else 0.0,
        }
        for (p, t), r in ratings.items()
    ]
    table.sort(key=lambda row: (row["team"], -row["ordinal"]))
    return table
