"""Robustness: a policy against every style of play, each cell paired with the rule bots.

    mafia robust --policy filler --tasks sport-10,forum-10 --styles rule_v2,random
    mafia robust --policy filler --all --styles all --out results/robust/filler.json
    mafia robust --policy filler --all --styles held_out --mixes full --deals 100

A *cell* is (task, side, style, table mix). The measured policy P holds its side's seats (all
of them, or a share: the mix) and the style every other seat; then the same deals are played
again with the rule bots (``--baseline``, ``rule``) in P's place. Each arm plays the deals of
seeds ``task.seed .. task.seed + deals - 1`` (the task's own deals), 64 at a time
(`baselines.benchmark.play_lockstep`: a network infers a batch).

What is paired. The deal (roles by seat) and the engine's own draws are the seed's in both
arms. Every bot is loaded with the same seed in both arms (P and the rule bots in its place
with ``task.seed``, the style with ``task.seed + 1``, teammates ``+ 2``, a team's own bots
``+ 3``), so the bots' random choices agree while the games agree; a bot's stream is shared
by the 64 games in play, so once one game differs the draws of the others may differ too:
the pairing then rests on the deal alone (still fair, only wider). Two arms with the same
policies play exactly the same games (``rule`` against itself: a difference of 0 on every
deal).

The score of a deal is 1 if P's side wins, else 0: a draw (the day limit) counts as not a
win, as in the benchmark's win rates, so the mean difference is exactly the difference of
the two arms' win rates (``--draw-score 0.5`` counts a draw as half a win instead). The
interval is the paired t interval of the per-deal differences, mean +- t(0.975, n-1) * sd /
sqrt(n) (`paired_interval`; an exact t quantile, `t_quantile`), clipped to [-1, 1].

Sides: every team the task's deal has (the maniac's too, in CITY and FORUM). Mixes
(`MIXES`; a mix that does not fit a side is skipped):

- ``full``: P on every seat of its side, the style on every other seat;
- ``half-rule`` / ``half-style``: P on half its side's seats (rounded down, at least one:
  `held_seats`, chosen from the deal's seed, the same in both arms), the rule bots / the
  style on the rest of its side, the style on the other teams;
- ``rule-<team>`` (``rule-town``, ``rule-mafia``, ``rule-maniac``): as ``full``, but that
  other team is played by the rule bots, where the deal has a third team for the style: the
  town against a style's mafia and a rule-bot maniac (``rule-maniac``), or against a rule-bot
  mafia and the style's maniac (``rule-mafia``).

Styles (``--styles``): ``train``, ``held_out`` or ``all`` of the zoo (`baselines.zoo`: its
``TRAIN`` and ``HELD_OUT``, each style loaded as ``style:<name>``), or names: a zoo style, or
any policy of the registry (``rule_v2``, ``random``, ``league``: a *stand-in*, reported
apart from both sets). Per task, side and mix the result summarises the styles of each set:
the mean difference (its interval from the per-deal mean over the set's styles, paired over
the same deals), and the worst cell by the interval's upper bound and by the point estimate.
"""

from __future__ import annotations

import importlib
import json
import math
import multiprocessing
import random
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import mafia_env
from baselines import pins
from baselines.benchmark import one_thread, play_lockstep
from baselines.runs import free_file
from mafia_env.commands import add_quiet, parse, parser, progress, run, showing_progress
from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError, MafiaError
from mafia_env.seating.games import Seating, play_game
from mafia_env.seating.policies import Policy, load_policy, observes, policy_names
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, Task, get_task

DEALS = 500  # deals a cell
BASELINE = "rule"
SPLITS = ("train", "held_out", "stand-in")  # a style's set: the zoo's two, or a registry name
WINNER_CODES = {"town": "t", "mafia": "m", "maniac": "x", "draw": "d"}  # a deal's winner


# ------------------------------------------------------------------ the interval


def t_quantile(p: float, df: int) -> float:
    """Return the `p` quantile (p > 0.5) of Student's t with `df` degrees of freedom, exact.

    P(|T| <= t) has a closed form for whole `df` (Abramowitz and Stegun 26.7.3-4); the
    quantile is found by bisection on it.
    """
    if df < 1 or not 0.5 < p < 1:
        raise ValueError(f"t_quantile needs df >= 1 and 0.5 < p < 1; got df={df}, p={p}")
    two_sided = 2 * p - 1
    lo, hi = 0.0, 1.0
    while _t_central(hi, df) < two_sided:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _t_central(mid, df) < two_sided else (lo, mid)
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2


def _t_central(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with whole `df` (A&S 26.7.3 odd, 26.7.4 even)."""
    theta = math.atan(t / math.sqrt(df))
    s, c = math.sin(theta), math.cos(theta)
    if df % 2:  # odd: (2/pi)(theta + sin cos (1 + 2/3 cos^2 + (2*4)/(3*5) cos^4 + ...))
        total, term = 0.0, 1.0
        for k in range(1, (df - 1) // 2 + 1):
            total += term
            term *= (2 * k) / (2 * k + 1) * c * c
        return 2 / math.pi * (theta + (s * c * total if df > 1 else 0.0))
    total, term = 0.0, 1.0  # even: sin (1 + (1/2) cos^2 + (1*3)/(2*4) cos^4 + ...)
    for k in range(1, df // 2 + 1):
        total += term
        term *= (2 * k - 1) / (2 * k) * c * c
    return s * total


def paired_interval(diffs: Sequence[float], level: float = 0.95) -> dict[str, float]:
    """Return the mean of per-deal differences, its t interval (clipped to [-1, 1]), sd, n.

    mean +- t((1 + level) / 2, n - 1) * sd / sqrt(n), sd with n - 1; with fewer than two
    deals nothing is known: [-1, 1].
    """
    x = np.asarray(diffs, dtype=np.float64)
    n = int(x.size)
    if n == 0:
        raise ValueError("paired_interval needs at least one difference")
    mean = float(x.mean())
    if n < 2:
        return {"mean": mean, "lo": -1.0, "hi": 1.0, "sd": 0.0, "n": n}
    sd = float(x.std(ddof=1))
    half = t_quantile((1 + level) / 2, n - 1) * sd / math.sqrt(n)
    return {
        "mean": mean,
        "lo": max(-1.0, mean - half),
        "hi": min(1.0, mean + half),
        "sd": sd,
        "n": n,
    }


# ------------------------------------------------------------------ mixes and seats


@dataclass(frozen=True)
class Mix:
    """Who sits beside and against P: its share of its side's seats, who holds the rest of
    its side (``rule`` the baseline, ``style`` the style), and a team the baseline plays."""

    name: str
    share: float = 1.0
    mates: str | None = None  # "rule" or "style": the rest of P's side (share < 1)
    rule_team: str | None = None  # a team other than P's the rule bots play
    summary: str = ""


MIXES: dict[str, Mix] = {
    m.name: m
    for m in (
        Mix("full", summary="P on every seat of its side, the style on every other seat"),
        Mix("half-rule", 0.5, "rule", summary="P on half its side's seats, rule bots the rest"),
        Mix("half-style", 0.5, "style", summary="P on half its side's seats, the style the rest"),
        *(
            Mix(f"rule-{t}", rule_team=t, summary=f"the {t} played by the rule bots")
            for t in TEAM_NAMES
        ),
    )
}


def held_seats(seed: int, seats: Sequence[int], share: float) -> list[int]:
    """Return the seats P holds of its side's `seats` in the deal of `seed` (the engine's
    ``game.seed``, a function of the reset seed): ``floor(share * len)`` of them (at least
    one), drawn from the seed alone, so the same in both arms."""
    k = max(1, math.floor(share * len(seats)))
    return sorted(random.Random(f"robust-mix:{seed}").sample(list(seats), k))


class DealSeating(Seating):
    """A cell's table: `player` on `side` (or on its `held_seats` share, `mates` on the rest
    of its side), `teams` on their teams, `style` everywhere else."""

    def __init__(
        self,
        side: str,
        player: Policy,
        style: Policy,
        share: float = 1.0,
        mates: Policy | None = None,
        teams: dict[str, Policy] | None = None,
    ):
        if (share < 1) != (mates is not None):
            raise ConfigError("a share of the side's seats needs mates for the rest, and only it")
        self.side, self.share, self.mates = side, share, mates
        super().__init__(style, teams={**(teams or {}), side: player})

    def players(self, game: Any) -> list[Policy | None]:
        out = super().players(game)
        if self.mates is None:
            return out
        team = TEAM_NAMES.index(self.side)
        mine = [s for s, t in enumerate(game.teams) if int(t) == team]
        held = set(held_seats(game.seed, mine, self.share))
        for s in mine:
            if s not in held:
                out[s] = self.mates
        return out

    def policies(self) -> list[Policy]:
        return [*super().policies(), *([self.mates] if self.mates is not None else [])]


# ------------------------------------------------------------------ styles


@dataclass(frozen=True)
class Style:
    """A style the policy meets: its name, the registry name it loads by, and its set."""

    name: str
    policy: str
    split: str  # "train", "held_out" (the zoo's) or "stand-in" (any registry policy)


def zoo() -> Any | None:
    """Return `baselines.zoo` (the zoo of styles), or None where this install has none yet."""
    try:
        return importlib.import_module("baselines.zoo")
    except ModuleNotFoundError as e:
        if e.name in ("baselines.zoo", "baselines"):
            return None
        raise


def resolve_styles(spec: str) -> list[Style]:
    """Return the styles `spec` names: ``train``, ``held_out``, ``all`` (the zoo's), or names
    separated by commas (a zoo style, ``style:<name>``, or any registry policy)."""
    z = zoo()
    sets = ("train", "held_out", "all")
    if spec in sets:
        if z is None:
            raise ConfigError(
                f"--styles {spec} reads the zoo of styles (baselines.zoo), which this install "
                "does not have yet: name the styles instead (--styles rule_v2,random,league)"
            )
        names = {"train": z.TRAIN, "held_out": z.HELD_OUT, "all": (*z.TRAIN, *z.HELD_OUT)}
        return [_zoo_style(z, n) for n in names[spec]]
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:
        raise ConfigError(f"--styles is train, held_out, all or names; got {spec!r}")
    out = []
    for name in dict.fromkeys(names):
        bare = name.removeprefix("style:")
        if z is not None and bare in z.STYLES:
            out.append(_zoo_style(z, bare))
        elif name in policy_names():
            out.append(Style(name, name, "stand-in"))
        else:
            zoo_names = sorted(z.STYLES) if z is not None else []
            known = (f"the zoo's styles: {', '.join(zoo_names)}; " if zoo_names else "") + (
                f"policies: {', '.join(policy_names())}"
            )
            raise ConfigError(f"unknown style {name!r}; {known} (or train, held_out, all)")
    return out


def _zoo_style(z: Any, name: str) -> Style:
    split = "held_out" if name in z.HELD_OUT else "train" if name in z.TRAIN else "stand-in"
    split = getattr(z.STYLES.get(name), "split", split)
    return Style(name, f"style:{name}", split)


# ------------------------------------------------------------------ cells


@dataclass(frozen=True)
class Cell:
    """One cell of the benchmark: a task, P's side, a style, a table mix."""

    task: Task
    side: str
    style: Style
    mix: Mix

    @property
    def key(self) -> tuple:
        """What makes the baseline's arm the same games: the task, side, style, mix."""
        return (self.task.name, self.task.version, self.side, self.style.policy, self.mix.name)


def table_of(task: Task) -> GameSpec:
    """Return the task's table: its variant, size and the rules its games are played with."""
    return GameSpec.make(task.variant, task.num_players, **task.play_knobs())


def team_sizes(task: Task) -> dict[str, int]:
    """Return the seats of each team the task's deal has (dealt at the task's first seed)."""
    env = mafia_env.raw_env(task.variant, task.num_players, **task.play_knobs())
    env.reset(seed=task.seed)
    sizes: dict[str, int] = {}
    for t in env.unwrapped.game.teams:
        sizes[TEAM_NAMES[int(t)]] = sizes.get(TEAM_NAMES[int(t)], 0) + 1
    return {t: sizes[t] for t in TEAM_NAMES if t in sizes}


def fits(mix: Mix, side: str, sizes: dict[str, int]) -> bool:
    """Whether `mix` is a table for P on `side`, with the teams of `sizes`."""
    if mix.share < 1:
        return sizes[side] >= 2  # a share of one seat is the whole side
    if mix.rule_team is not None:  # the team is dealt, not P's, and a third one is the style's
        return mix.rule_team in sizes and mix.rule_team != side and len(sizes) >= 3
    return True


def cells_of(
    tasks: Sequence[Task],
    styles: Sequence[Style],
    mixes: Sequence[Mix],
    sides: Sequence[str] | None = None,
) -> list[Cell]:
    """Return every cell: task, then side (every team the deal has, or those of `sides` it
    has), mix, style; a mix that does not fit a side is left out."""
    out = []
    for task in tasks:
        sizes = team_sizes(task)
        for side in (s for s in sizes if sides is None or s in sides):
            for mix in (m for m in mixes if fits(m, side, sizes)):
                out += [Cell(task, side, style, mix) for style in styles]
    return out


def seating(cell: Cell, player: str, baseline: str = BASELINE) -> DealSeating:
    """Return the cell's table with `player` (a policy name) in P's place, every bot seeded
    as the module says (the same seeds in both arms)."""
    task, mix = cell.task, cell.mix
    table = table_of(task)
    style = load_policy(cell.style.policy, table, seed=task.seed + 1)
    mates = None
    if mix.share < 1:
        rule = mix.mates == "rule"
        mates = load_policy(baseline, table, seed=task.seed + 2) if rule else style
    teams = {}
    if mix.rule_team is not None:
        teams[mix.rule_team] = load_policy(baseline, table, seed=task.seed + 3)
    me = load_policy(player, table, seed=task.seed)
    return DealSeating(cell.side, me, style, mix.share, mates, teams)


def play_arm(
    cell: Cell,
    player: str,
    deals: int,
    baseline: str = BASELINE,
    tick: Callable[[int], Any] | None = None,
    done: Callable[[int, Any], Any] | None = None,
) -> str:
    """Play one arm of a cell: `player` in P's place on `deals` deals; return the winners,
    one code a deal (`WINNER_CODES`), in seed order. `done(g, env)` sees each finished deal."""
    table = seating(cell, player, baseline)
    winners = ["?"] * deals

    def end(g: int, env: Any) -> None:
        winners[g] = WINNER_CODES[env.winner]
        if done is not None:
            done(g, env)

    if all(observes(p) == "vector" for p in table.policies()):
        play_lockstep(cell.task, table, cell.side, deals, tick=tick, done=end)
    else:  # a language model or a search bot: one game after another
        task = cell.task
        env = mafia_env.raw_env(task.variant, task.num_players, **task.play_knobs())
        for g in range(deals):
            play_game(env, table, seed=task.seed + g)
            end(g, env)
            if tick is not None:
                tick(1)
    return "".join(winners)


def scores(winners: str, side: str, draw_score: float = 0.0) -> np.ndarray:
    """Return each deal's score for `side`: 1 a win, `draw_score` a draw, 0 a loss."""
    me, draw = WINNER_CODES[side], WINNER_CODES["draw"]
    return np.array([1.0 if w == me else draw_score if w == draw else 0.0 for w in winners])


def cell_result(
    cell: Cell,
    mine: str,
    theirs: str,
    draw_score: float = 0.0,
    seconds: tuple[float, float] | None = None,
) -> dict[str, Any]:
    """Return a cell's record from both arms' winners: win rates, the paired difference."""
    a, b = scores(mine, cell.side, draw_score), scores(theirs, cell.side, draw_score)

    def arm(w: str, s: np.ndarray) -> dict[str, Any]:
        wins = w.count(WINNER_CODES[cell.side])
        score = float(s.mean())
        return {"wins": wins, "draws": w.count("d"), "win_rate": wins / len(w), "score": score}

    out = {
        "task": cell.task.name,
        "version": cell.task.version,
        "side": cell.side,
        "style": cell.style.name,
        "style_policy": cell.style.policy,
        "split": cell.style.split,
        "mix": cell.mix.name,
        "deals": len(mine),
        "seed": cell.task.seed,
        "policy": arm(mine, a),
        "baseline": arm(theirs, b),
        "diff": paired_interval(a - b),
        "winners": {"policy": mine, "baseline": theirs},
    }
    if seconds is not None:
        out["seconds"] = {"policy": round(seconds[0], 2), "baseline": round(seconds[1], 2)}
    return out


# ------------------------------------------------------------------ summaries


def summarise(cells: list[dict[str, Any]], draw_score: float = 0.0) -> list[dict[str, Any]]:
    """Return per task, side, mix and set of styles (``train``, ``held_out``, ``stand-in``,
    and ``zoo``: train and held-out together, where both were played): the mean difference
    over the styles with its interval (the per-deal mean over the styles, paired over the
    deals), and the worst cell by upper bound and by estimate."""
    groups: dict[tuple, list[dict]] = {}
    for c in cells:
        for split in (c["split"], "zoo" if c["split"] in ("train", "held_out") else None):
            if split is not None:
                groups.setdefault((c["task"], c["side"], c["mix"], split), []).append(c)
    out = []
    for (task, side, mix, split), group in groups.items():
        if split == "zoo" and len({c["split"] for c in group}) == 1:
            continue  # one set only: its own summary says it
        per_deal = np.mean([_diffs(c, draw_score) for c in group], axis=0)
        worst_hi = min(group, key=lambda c: (c["diff"]["hi"], c["diff"]["mean"]))
        worst_mean = min(group, key=lambda c: (c["diff"]["mean"], c["diff"]["hi"]))
        out.append(
            {
                "task": task,
                "side": side,
                "mix": mix,
                "split": split,
                "styles": [c["style"] for c in group],
                "policy_rate": float(np.mean([c["policy"]["win_rate"] for c in group])),
                "baseline_rate": float(np.mean([c["baseline"]["win_rate"] for c in group])),
                "diff": paired_interval(per_deal),
                "worst_by_upper": _worst(worst_hi),
                "worst_by_mean": _worst(worst_mean),
                "below": [c["style"] for c in group if c["diff"]["hi"] < 0],
            }
        )
    return out


def _diffs(c: dict[str, Any], draw_score: float) -> np.ndarray:
    w = c["winners"]
    return scores(w["policy"], c["side"], draw_score) - scores(w["baseline"], c["side"], draw_score)


def _worst(c: dict[str, Any]) -> dict[str, Any]:
    d = c["diff"]
    return {"style": c["style"], "mean": d["mean"], "lo": d["lo"], "hi": d["hi"]}


# ------------------------------------------------------------------ the run


def _arm_job(job: tuple[Cell, str, int, str]) -> tuple[str, float]:
    start = time.perf_counter()
    winners = play_arm(*job)
    return winners, time.perf_counter() - start


def run_robust(
    policy: str,
    cells: list[Cell],
    deals: int = DEALS,
    baseline: str = BASELINE,
    draw_score: float = 0.0,
    workers: int = 1,
    known: dict[tuple, str] | None = None,
) -> dict[str, Any]:
    """Play both arms of every cell; return the result (cells, summaries, how it was made).

    `known` maps a cell's `Cell.key` to its baseline arm's winners from an earlier run with
    the same deals and baseline (`read_known`): that arm is taken, not played again.
    """
    known = known or {}
    jobs: list[tuple[Cell, str, int, str]] = []
    for cell in cells:
        jobs.append((cell, policy, deals, baseline))
        if cell.key not in known:
            jobs.append((cell, baseline, deals, baseline))
    bar = progress(len(jobs) * deals, "robust", "deal")
    if workers <= 1:
        done = []
        for job in jobs:
            start = time.perf_counter()
            done.append((play_arm(*job, tick=bar.update), time.perf_counter() - start))
    else:
        fork = "fork" in multiprocessing.get_all_start_methods() and "torch" not in sys.modules
        ctx = multiprocessing.get_context("fork" if fork else "spawn")
        with ProcessPoolExecutor(workers, mp_context=ctx, initializer=one_thread) as pool:
            futures = [pool.submit(_arm_job, job) for job in jobs]
            for future in futures:
                bar.update(deals)
                future.result()
            done = [f.result() for f in futures]
    bar.close()
    played = iter(done)
    out = []
    for cell in cells:
        mine, t_mine = next(played)
        if cell.key in known:
            theirs, t_theirs = known[cell.key], 0.0
        else:
            theirs, t_theirs = next(played)
        out.append(cell_result(cell, mine, theirs, draw_score, (t_mine, t_theirs)))
    tasks = {c.task.name: c.task for c in cells}
    return {
        "kind": "robust",
        "policy": policy,
        "baseline": baseline,
        "version": next(iter(tasks.values())).version if tasks else LATEST,
        "digests": {name: pins.digest(t) for name, t in tasks.items()},
        "deals": deals,
        "draw_score": draw_score,
        "interval": "paired t, 95%: mean +- t(0.975, n-1) * sd / sqrt(n) of per-deal differences",
        "styles": {c.style.name: c.style.split for c in cells},
        "cells": out,
        "summary": summarise(out, draw_score),
    }


def read_known(paths: Sequence[str | Path], deals: int, baseline: str, version: int) -> dict:
    """Return the baseline arms of earlier results (`Cell.key` -> winners) played with the
    same deals, baseline and tasks version: the same games, so they need not be played again."""
    known: dict[tuple, str] = {}
    for path in paths:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, json.JSONDecodeError) as e:
            raise ConfigError(f"cannot read robust result {path}: {e}") from None
        if not isinstance(data, dict) or data.get("kind") != "robust":
            raise ConfigError(f"{path} is not a robust result (mafia robust --out)")
        if (data["deals"], data["baseline"], data["version"]) != (deals, baseline, version):
            continue
        for c in data["cells"]:
            if c["seed"] == get_task(c["task"], version).seed:
                key = (c["task"], version, c["side"], c["style_policy"], c["mix"])
                known[key] = c["winners"]["baseline"]
    return known


def describe(result: dict[str, Any]) -> str:
    """Return the printed form of a result: a line per cell, then the summaries."""
    lines = [
        f"{result['policy']} against the styles, paired with {result['baseline']} on the same "
        f"{result['deals']} deals a cell (difference: {result['policy']} - {result['baseline']}"
        ", paired t 95%)"
    ]
    for c in result["cells"]:
        d = c["diff"]
        flag = "  BELOW" if d["hi"] < 0 else ""
        lines.append(
            f"  {c['task']:10} {c['side']:6} {c['mix']:11} vs {c['style']:14} "
            f"{c['policy']['win_rate']:.3f} vs {c['baseline']['win_rate']:.3f}  "
            f"{d['mean']:+.3f} [{d['lo']:+.3f}, {d['hi']:+.3f}]{flag}"
        )
    lines.append("mean over styles, worst cell (by upper bound; by estimate):")
    for s in result["summary"]:
        d, w, m = s["diff"], s["worst_by_upper"], s["worst_by_mean"]
        lines.append(
            f"  {s['task']:10} {s['side']:6} {s['mix']:11} {s['split']:8} "
            f"{d['mean']:+.3f} [{d['lo']:+.3f}, {d['hi']:+.3f}]  worst {w['style']} "
            f"{w['mean']:+.3f} [{w['lo']:+.3f}, {w['hi']:+.3f}]; {m['style']} {m['mean']:+.3f}"
        )
    return "\n".join(lines)


def _names(value: str, allowed: Sequence[str], what: str) -> list[str]:
    names = [n.strip() for n in value.split(",") if n.strip()]
    bad = [n for n in names if n not in allowed]
    if bad or not names:
        raise ConfigError(f"unknown {what} {bad or value!r}; {what}: {', '.join(allowed)}")
    return list(dict.fromkeys(names))


def main(argv: list[str] | None = None, prog: str = "python -m baselines.robust") -> int:
    p = parser(prog, __doc__)
    p.add_argument(
        "--policy",
        required=True,
        metavar="POLICY",
        help="the policy measured: filler, league, rule, ... or a checkpoint path",
    )
    group = p.add_mutually_exclusive_group(required=True)
    names = sorted({n for tasks in TASKS_BY_VERSION.values() for n in tasks})
    group.add_argument(
        "--tasks", metavar="TASK[,TASK]", help=f"tasks, separated by commas: {', '.join(names)}"
    )
    group.add_argument("--all", action="store_true", help="every task of the version")
    p.add_argument(
        "--styles",
        default="all",
        metavar="SET|NAME[,NAME]",
        help="train, held_out or all (the zoo's: baselines.zoo), or style and policy names",
    )
    p.add_argument(
        "--mixes",
        default="all",
        metavar="MIX[,MIX]",
        help=f"table mixes: all, or of {', '.join(MIXES)} (one that does not fit a side is "
        "skipped)",
    )
    p.add_argument(
        "--sides",
        default="all",
        metavar="TEAM[,TEAM]",
        help=f"P's sides: all (every team the deal has) or of {', '.join(TEAM_NAMES)}",
    )
    p.add_argument("--deals", type=int, default=DEALS, help="deals a cell (both arms)")
    p.add_argument("--baseline", default=BASELINE, help="the policy in P's place, paired")
    p.add_argument(
        "--draw-score",
        type=float,
        default=0.0,
        choices=(0.0, 0.5),
        help="a draw's score: 0 (not a win, as the benchmark's win rates) or 0.5",
    )
    p.add_argument(
        "--version",
        type=int,
        default=LATEST,
        choices=sorted(TASKS_BY_VERSION),
        help="the tasks' version: their tables, rules and seeds",
    )
    p.add_argument("--workers", type=int, default=1, help="processes (the same results)")
    p.add_argument(
        "--reuse",
        nargs="*",
        default=[],
        metavar="FILE",
        help="earlier robust results whose baseline arms (same deals) are taken, not replayed",
    )
    p.add_argument("--out", help="write the result as JSON here")
    p.add_argument("--force", action="store_true", help="overwrite an earlier --out file")
    add_quiet(p, "progress bar")
    args = parse(p, argv)
    if isinstance(args, int):
        return args
    try:
        free_file(args.out, args.force)
        if args.deals < 1:
            raise ConfigError(f"--deals must be a positive number of deals; got {args.deals}")
        if args.workers < 1:
            raise ConfigError(f"--workers must be at least 1; got {args.workers}")
        version = TASKS_BY_VERSION[args.version]
        chosen = list(version) if args.all else _names(args.tasks, list(version), "tasks")
        tasks = [get_task(n, args.version) for n in chosen]
        styles = resolve_styles(args.styles)
        mixes = list(MIXES) if args.mixes == "all" else _names(args.mixes, list(MIXES), "mixes")
        sides = None if args.sides == "all" else _names(args.sides, TEAM_NAMES, "sides")
        cells = cells_of(tasks, styles, [MIXES[m] for m in mixes], sides)
        if not cells:
            raise ConfigError("no cell: no task deals the sides asked, or no mix fits them")
        known = read_known(args.reuse, args.deals, args.baseline, args.version)
        with showing_progress(not args.quiet):
            result = run_robust(
                args.policy, cells, args.deals, args.baseline, args.draw_score, args.workers, known
            )
    except (ConfigError, MafiaError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    result["command"] = "mafia robust " + shlex.join(sys.argv[1:] if argv is None else argv)
    print(describe(result))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(run(main, what="mafia robust"))
