"""Evaluate policies by team: matchups of N games each, spread over the machine's cores.

    python -m baselines.evaluate --config configs/eval/sport.yaml

A config names a variant, a table size and a list of matchups, each giving one policy per
team (``town: rule``, ``mafia: random``; plus ``maniac`` where the variant deals one). Every
game of a matchup is seeded from the config's seed, the matchup's index and the game's
index, and games are played in fixed chunks with policies seeded per chunk, so a report does
not depend on the number of worker processes. The report gives, per matchup: each outcome's
rate with a Wilson 95% interval, game length (days and moves), and per-role measures (the
share of the town's ballots that hit a mafia player, how often the sheriff finds a mafia
player before dying, how often the doctor's heal saves someone). It is written as JSON, CSV
and a PNG chart of win rates with their intervals; a ``ratings`` section of the config also
rates the policies against each other (`baselines.ratings`).
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import math
import os
import sys
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from baselines.stats import wilson
from mafia_env import config
from mafia_env.config import NonNegativeInt, PositiveInt
from mafia_env.engine.events import OUTCOME_NAMES, Ev
from mafia_env.engine.roles import TEAM_NAMES, Role, Team
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.match import Seating, play_game
from mafia_env.policy import load_policy

CHUNK = 25  # games per task: the unit of seeding and of work handed to a process


# ------------------------------------------------------------------ config


@dataclass(frozen=True)
class RatingConfig:
    """Pool games between every assignment of `policies` to teams, `games` each."""

    policies: tuple[str, ...]
    """the policies to rate (names or checkpoint paths), at least two"""
    games: PositiveInt = 100
    """games per assignment of policies to teams"""


@dataclass(frozen=True)
class EvalFile:
    """An evaluation config file, as written (`EvalConfig` is the run it describes)."""

    variant: str
    """the rule set (mafia_env.VARIANTS)"""
    num_players: int | None = None
    """the table size; null: the variant's default"""
    games: PositiveInt = 100
    """games per matchup"""
    seed: NonNegativeInt = 0
    """seeds every game of every matchup"""
    workers: NonNegativeInt = 0
    """worker processes (0: every core)"""
    out: str | None = None
    """where the reports go; null: runs/eval/<variant>"""
    matchups: tuple[dict[str, Any], ...] = ()
    """one policy per team ({town: rule, mafia: random}) and an optional name"""
    ratings: RatingConfig | None = None
    """rate these policies against each other (baselines.ratings)"""


@dataclass(frozen=True)
class Matchup:
    """One policy per team."""

    name: str
    policies: dict[str, str]


@dataclass(frozen=True)
class EvalConfig:
    """An evaluation run, as read from YAML and validated."""

    variant: str
    num_players: int
    games: int
    seed: int = 0
    workers: int = 0  # 0: every core
    out: str = "runs/eval"
    matchups: tuple[Matchup, ...] = ()
    ratings: RatingConfig | None = None
    teams: tuple[str, ...] = field(default=(), compare=False)

    def game_spec(self) -> GameSpec:
        """Return the spec of the evaluated game (`GameSpec.make`)."""
        return GameSpec.make(self.variant, self.num_players)


def variant_teams(variant: str | GameSpec) -> tuple[str, ...]:
    """Return the names of the teams a variant (or a spec's game) deals, in Team order."""
    rules = GameSpec.make(variant).rules
    present = {r.team for r in rules.roles_in_play()}
    return tuple(TEAM_NAMES[t] for t in Team if t in present)


def check_policy(name: Any, variant: str, n: int, where: str) -> str:
    """Return `name` if `load_policy` can build it for this variant, else a ConfigError."""
    if not isinstance(name, str):
        raise ConfigError(f"{where} must be a policy name or checkpoint path; got {name!r}")
    try:
        load_policy(name, variant=variant, num_players=n, seed=0)
    except ConfigError as e:
        raise ConfigError(f"{where}: {e}") from None
    return name


def resolve(f: EvalFile) -> EvalConfig:
    """Return the run an evaluation file describes: the table, matchups and ratings checked."""
    spec = GameSpec.make(f.variant, f.num_players)
    rules, n = spec.rules, spec.n
    if f.out == "":
        raise ConfigError("out must be a directory path; got ''")
    teams = variant_teams(rules.name)
    matchups = []
    for i, m in enumerate(f.matchups):
        where = f"matchups[{i}]"
        if set(m) - {"name"} != set(teams):
            raise ConfigError(
                f"{where} must give a policy for each team of {rules.name!r} "
                f"({', '.join(teams)}) and nothing else (an optional 'name'); got {sorted(m)}"
            )
        pols = {t: check_policy(m[t], rules.name, n, f"{where}.{t}") for t in teams}
        name = m.get("name") or " vs ".join(f"{t}={p}" for t, p in pols.items())
        matchups.append(Matchup(str(name), pols))
    ratings = f.ratings
    if ratings is not None:
        if len(ratings.policies) < 2:
            raise ConfigError(
                f"ratings.policies must list at least two policies; got {list(ratings.policies)}"
            )
        for i, p in enumerate(ratings.policies):
            check_policy(p, rules.name, n, f"ratings.policies[{i}]")
    if not matchups and ratings is None:
        raise ConfigError("give at least one matchup or a ratings section")
    out = f"runs/eval/{rules.name}" if f.out is None else f.out
    return EvalConfig(
        rules.name, n, f.games, f.seed, f.workers, out, tuple(matchups), ratings, teams
    )


def parse_config(data: Any, source: str = "config") -> EvalConfig:
    """Validate a parsed YAML config; every problem is a ConfigError naming the key."""
    f = config.parse(EvalFile, data, source)
    try:
        return resolve(f)
    except ConfigError as e:
        raise ConfigError(f"{source}: {e}") from None


def load_config(path: str | Path) -> EvalConfig:
    """Read and validate an evaluation config file."""
    return parse_config(config.read_yaml(path), str(path))


# ------------------------------------------------------------------- games


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


def summarize(game: Any, index: int) -> dict[str, Any]:
    """Return the measures of one finished game (read from the moderator's event log)."""
    teams, roles = game.teams, game.roles
    town_votes = town_hits = 0
    sheriff = next((s for s, r in enumerate(roles) if r is Role.SHERIFF), -1)
    found = False
    heals = saves = 0
    healed, shots, maniac = -1, {}, -1
    for kind, actor, target, value, _ in game.events:
        if kind == Ev.BALLOT and target >= 0 and teams[actor] is Team.TOWN:
            town_votes += 1
            town_hits += teams[target] is Team.MAFIA
        elif kind == Ev.CHECK and actor == sheriff and value:
            found = True
        elif kind == Ev.SHOT:
            if teams[actor] is Team.MAFIA:
                shots[actor] = target
            else:
                maniac = target
        elif kind == Ev.HEAL:
            heals += 1
            healed = target
        elif kind == Ev.ELIMINATED and target == healed:
            healed = -1  # he died anyway (a hunt, a companion): no save
        elif kind == Ev.DAY or kind == Ev.GAME_OVER:
            if healed >= 0 and healed in lethal_shots(game, shots, maniac):
                saves += 1
            healed, shots, maniac = -1, {}, -1
    return {
        "index": index,
        "winner": OUTCOME_NAMES[game.winner] if game.winner is not None else "draw",
        "days": game.day,
        "moves": len(game.inputs),
        "town_votes": town_votes,
        "town_votes_on_mafia": town_hits,
        "sheriff": sheriff >= 0,
        "sheriff_found_mafia": found,
        "doctor": any(r is Role.DOCTOR for r in roles),
        "doctor_heals": heals,
        "doctor_saves": saves,
    }


def lethal_shots(game: Any, shots: dict[int, int], maniac: int) -> set[int]:
    """Return the seats a night's shots would have killed without a heal.

    The mafia's shot kills where the don decides alone (CITY-N3) or every shooter agrees
    (SPORT-N1, ONLINE-N4); the maniac's where the doctor's heal works against it (FORUM-N2).
    """
    out = set()
    don = [t for s, t in shots.items() if game.roles[s] is Role.DON]
    if game.rules.mafia_kill == "don" and don:
        out.add(don[0])
    elif shots and len(set(shots.values())) == 1:
        out.add(next(iter(shots.values())))
    if maniac >= 0 and game.rules.heal_against == "all":
        out.add(maniac)
    out.discard(-1)
    return out


def run_tasks(tasks: list[Task], workers: int, progress: bool, desc: str) -> list[list[dict]]:
    """Play every task, over `workers` processes (0: every core); results in task order."""
    from tqdm import tqdm

    workers = workers or os.cpu_count() or 1
    total = sum(t.games for t in tasks)
    results: list[list[dict]] = [[] for _ in tasks]
    bar = tqdm(total=total, desc=desc, unit="game", disable=not progress, file=sys.stderr)
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


# ----------------------------------------------------------------- report


def rate(k: int, n: int) -> dict[str, float]:
    low, high = wilson(k, n)
    return {"count": k, "rate": k / n if n else 0.0, "low": low, "high": high}


def report_matchup(m: Matchup, games: list[dict[str, Any]], teams: tuple[str, ...]) -> dict:
    """Summarize one matchup's games."""
    n = len(games)
    outcomes = [*teams, "draw"]
    wins = {o: sum(g["winner"] == o for g in games) for o in outcomes}
    days = np.array([g["days"] for g in games], dtype=float)
    moves = np.array([g["moves"] for g in games], dtype=float)
    votes = sum(g["town_votes"] for g in games)
    hits = sum(g["town_votes_on_mafia"] for g in games)
    measures: dict[str, Any] = {"town_votes_on_mafia": rate(hits, votes)}
    with_sheriff = [g for g in games if g["sheriff"]]
    if with_sheriff:
        found = sum(g["sheriff_found_mafia"] for g in with_sheriff)
        measures["sheriff_found_mafia"] = rate(found, len(with_sheriff))
    heals = sum(g["doctor_heals"] for g in games)
    if any(g["doctor"] for g in games) and heals:
        measures["doctor_saves"] = rate(sum(g["doctor_saves"] for g in games), heals)
    return {
        "name": m.name,
        "policies": m.policies,
        "games": n,
        "outcomes": {o: rate(wins[o], n) for o in outcomes},
        "days": {"mean": float(days.mean()), "std": float(days.std())},
        "moves": {"mean": float(moves.mean()), "std": float(moves.std())},
        "measures": measures,
    }


def write_reports(cfg: EvalConfig, reports: list[dict], out: Path) -> list[Path]:
    """Write report.json, report.csv and winrates.png under `out`; return the paths."""
    out.mkdir(parents=True, exist_ok=True)
    settings = asdict(cfg)
    settings.pop("teams")
    paths = [out / "report.json", out / "report.csv", out / "winrates.png"]
    paths[0].write_text(
        json.dumps(
            {
                "variant": cfg.variant,
                "num_players": cfg.num_players,
                "config": settings,
                "matchups": reports,
            },
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
    with paths[1].open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(
            [
                "matchup",
                "outcome",
                "policy",
                "games",
                "wins",
                "rate",
                "low",
                "high",
                "mean_days",
                "town_votes_on_mafia",
                "sheriff_found_mafia",
                "doctor_saves",
            ]
        )
        for r in reports:
            meas = r["measures"]
            extra = [
                f"{meas[k]['rate']:.4f}" if k in meas else ""
                for k in ("town_votes_on_mafia", "sheriff_found_mafia", "doctor_saves")
            ]
            for o, v in r["outcomes"].items():
                w.writerow(
                    [
                        r["name"],
                        o,
                        r["policies"].get(o, ""),
                        r["games"],
                        v["count"],
                        f"{v['rate']:.4f}",
                        f"{v['low']:.4f}",
                        f"{v['high']:.4f}",
                        f"{r['days']['mean']:.2f}",
                        *extra,
                    ]
                )
    plot(cfg, reports, paths[2])
    return paths


def plot(cfg: EvalConfig, reports: list[dict], path: Path) -> None:
    """Draw each matchup's team win rates with their 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    teams = list(cfg.teams)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(reports) + 2), 4.5))
    width = 0.8 / len(teams)
    x = np.arange(len(reports))
    for j, team in enumerate(teams):
        rates = np.array([r["outcomes"][team]["rate"] for r in reports])
        low = np.clip(rates - np.array([r["outcomes"][team]["low"] for r in reports]), 0, 1)
        high = np.clip(np.array([r["outcomes"][team]["high"] for r in reports]) - rates, 0, 1)
        ax.bar(
            x + (j - (len(teams) - 1) / 2) * width,
            rates,
            width,
            yerr=[low, high],
            capsize=3,
            label=f"{team} wins",
        )
    ax.set_xticks(x, [r["name"].replace(" vs ", "\nvs ") for r in reports], fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title(f"{cfg.variant}, {cfg.num_players} players, {reports[0]['games']} games each")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def format_table(reports: list[dict], teams: tuple[str, ...]) -> str:
    """Return the report as a plain-text table."""
    head = f"{'matchup':<34}" + "".join(f"{t + ' wins':>22}" for t in teams)
    head += f"{'days':>7}{'votes on mafia':>16}{'sheriff found':>15}{'doctor saves':>14}"
    lines = [head]
    for r in reports:
        row = f"{r['name'][:33]:<34}"
        for t in teams:
            o = r["outcomes"][t]
            row += f"{o['rate']:>8.3f} [{o['low']:.3f},{o['high']:.3f}]"
        meas = r["measures"]
        row += f"{r['days']['mean']:>7.2f}{meas['town_votes_on_mafia']['rate']:>16.3f}"
        sf = meas.get("sheriff_found_mafia")
        row += f"{sf['rate']:>15.3f}" if sf else f"{'-':>15}"
        ds = meas.get("doctor_saves")
        row += f"{ds['rate']:>14.3f}" if ds else f"{'-':>14}"
        lines.append(row)
    return "\n".join(lines)


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


# ---------------------------------------------------------------- ratings


def rate_policies(cfg: EvalConfig, progress: bool = True) -> list[dict[str, Any]]:
    """Play the pooled games of `cfg.ratings`; return the rating table, best first."""
    from openskill.models import PlackettLuce

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
    print(format_ratings(table))
    return table


def format_ratings(table: list[dict[str, Any]]) -> str:
    """Return the rating table as text: one row per policy per team."""
    lines = [f"{'team':<8}{'policy':<24}{'mu':>8}{'sigma':>8}{'ordinal':>9}{'games':>7}{'wins':>7}"]
    for r in table:
        lines.append(
            f"{r['team']:<8}{r['policy'][:23]:<24}{r['mu']:>8.2f}{r['sigma']:>8.2f}"
            f"{r['ordinal']:>9.2f}{r['games']:>7}{r['win_rate']:>7.3f}"
        )
    return "\n".join(lines)


def write_ratings(table: list[dict[str, Any]], out: Path) -> list[Path]:
    """Write ratings.json under `out`; return the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "ratings.json"
    path.write_text(json.dumps(table, indent=2) + "\n", encoding="utf-8")
    return [path]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m baselines.evaluate", description=__doc__)
    parser.add_argument("--config", required=True, help="YAML evaluation config")
    parser.add_argument("--games", type=int, help="override the games per matchup")
    parser.add_argument("--workers", type=int, help="override the worker processes (0: all)")
    parser.add_argument("--out", help="override the output directory")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    args = parser.parse_args(argv)
    try:
        cfg = load_config(args.config)
        overrides = {k: getattr(args, k) for k in ("games", "workers", "out")}
        overrides = {k: v for k, v in overrides.items() if v is not None}
        if overrides:
            cfg = parse_config({**config.read_yaml(args.config), **overrides}, args.config)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    out = Path(cfg.out)
    if cfg.matchups:
        reports = evaluate(cfg, progress=not args.no_progress)
        print(format_table(reports, cfg.teams))
        for p in write_reports(cfg, reports, out):
            print(f"wrote {p}")
    if cfg.ratings is not None:
        table = rate_policies(cfg, progress=not args.no_progress)
        for p in write_ratings(table, out):
            print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
