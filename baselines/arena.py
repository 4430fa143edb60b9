"""The arena: language models, bots and checkpoints at one table, rated on the same deals.

    mafia arena --config configs/arena/sport-scripted.yaml      (python -m baselines.arena ...)

Duplicate format: each of ``deals`` deals (a game seed: the same roles by seat, the same
chance) is played once per policy, the policies rotated over the seats (in rotation r,
seat s is played by policy (s - 1 + r) mod P), so that on every deal every policy plays
every seat, and so every role, equally often when P divides the table size, and as evenly as
rotation allows otherwise. Games run ``concurrency`` at a time in threads (a model's latency
dominates; the calls overlap).

Reported (printed, and under ``out``: ``summary.json``, ``results.md``, ``records/`` with
every game's record, ``replays/`` with a static HTML page per game):

- win rate per policy overall, per side and per role, over seat-games (a policy's seat in a
  game), with 95% Wilson intervals; the seats of one game are not independent, so read the
  intervals as optimistic;
- one OpenSkill rating (Plackett-Luce) per policy overall and per side: each game is a
  match between the teams, every seat a player rated as its policy; a policy with several
  seats on one team gets the mean of their updates;
- per policy that talks to a model: moves, model calls, invalid replies, fallbacks,
  timeouts, errors, mean latency per call and tokens per call;
- marked games: a game in which some model call timed out or failed (its fallback played
  that move). Marked games count like any other (the fallback's move stands, as at a real
  table with a clock); ``exclude_marked: true`` leaves them out of win rates and ratings.

A model whose calls failed (timed out or raised: a dead server, a wrong model name or key)
more often than ``max_failed`` of the time did not play: its fallback did. The summary then
says so first, with the first error, and the command exits with status 3; while it runs, the
error is logged (at most once a minute: `OncePerMinute`).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import logging
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import mafia_env
from baselines.resources import config_path
from baselines.runs import claim_dir, fresh_dir
from baselines.stats import wilson
from mafia_env.commands import add_quiet, parse, parser, require, showing_progress
from mafia_env.commands import progress as progress_bar
from mafia_env.commands import run as run_command
from mafia_env.engine.events import OUTCOME_NAMES
from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.errors import ConfigError, MafiaError
from mafia_env.seating.games import Seating, play_game
from mafia_env.seating.policies import load_policy, reseed
from mafia_env.variants import get_variant
from mafia_env.yaml_config import NonNegativeInt, PositiveInt, Range, load
from mafia_env.yaml_config import parse as parse_data

COUNTED = ("moves", "calls", "invalid", "fallbacks", "timeouts", "errors")
USAGE = ("prompt_tokens", "completion_tokens", "latency_s")


@dataclass(frozen=True)
class Entrant:
    """One policy in the arena."""

    name: str
    """the name in the tables"""
    policy: str
    """a registered policy (random, rule, ppo, llm, ...) or a checkpoint's path"""
    options: dict[str, Any] = field(default_factory=dict)
    """keyword options of the policy (llm: model, base_url, api_key_env, timeout, ...)"""


@dataclass(frozen=True)
class ArenaConfig:
    """An arena run."""

    variant: str
    """the rule set (mafia_env.VARIANTS)"""
    policies: tuple[Entrant, ...]
    """the policies compared (two or more)"""
    num_players: int | None = None
    """the table size; null: the variant's default"""
    deals: PositiveInt = 10
    """distinct deals; each is played once per policy, the seats rotated"""
    seed: NonNegativeInt = 0
    """deal d is dealt by seed + d"""
    concurrency: PositiveInt = 4
    """games played at once (threads)"""
    lang: str = "en"
    """the language of text observations, models' prompts and replay pages"""
    exclude_marked: bool = False
    """leave games with a failed model call out of win rates and ratings"""
    replays: bool = True
    """write a static HTML replay page per game"""
    out: str | None = None
    """where the results go; null: runs/arena/<variant>"""
    max_failed: Annotated[float, Range(ge=0, le=1)] = 0.5
    """the share of a model's calls that may fail (time out or raise) before the run counts
    as failed: the model did not play, its fallback did (exit status 3)"""

    def check(self) -> ArenaConfig:
        get_variant(self.variant)
        names = [e.name for e in self.policies]
        if len(names) < 2 or len(set(names)) != len(names):
            raise ConfigError(f"arena: two or more policies with distinct names; got {names}")
        return self


def load_config(path: str | Path) -> ArenaConfig:
    """Read and check an arena config file."""
    return load(ArenaConfig, path).check()


def parse_config(data: Any, source: str = "config") -> ArenaConfig:
    """Check an arena config given as data."""
    return parse_data(ArenaConfig, data, source).check()


# --------------------------------------------------------------------------- playing


def schedule(cfg: ArenaConfig, n: int) -> list[tuple[int, int, dict[int, str]]]:
    """Return every game: (deal, rotation, seat number -> entrant name)."""
    names = [e.name for e in cfg.policies]
    p = len(names)
    return [
        (d, r, {s: names[(s - 1 + r) % p] for s in range(1, n + 1)})
        for d in range(cfg.deals)
        for r in range(p)
    ]


_TEMPLATES: dict[tuple, Any] = {}
_TEMPLATES_LOCK = threading.Lock()


SLOW = ("ppo", "checkpoint")  # policies loaded once and copied; also any checkpoint path


def _copy_of(variant: str, n: int, e: Entrant) -> Any:
    """Return a copy of entrant `e`'s policy, which is loaded once per process."""
    key = (variant, n, e.name, e.policy, json.dumps(e.options, sort_keys=True, default=str))
    with _TEMPLATES_LOCK:
        policy = _TEMPLATES.get(key)
        if policy is None:
            policy = _TEMPLATES[key] = load_policy(e.policy, variant, n, seed=0, **e.options)
        return copy.deepcopy(policy)


def play_one(cfg: ArenaConfig, n: int, deal: int, rotation: int, seats: dict[int, str]) -> dict:
    """Play one game of the schedule; return its result, with every seat's counters."""
    entrants = {e.name: e for e in cfg.policies}
    seed = cfg.seed + deal
    policies = {}
    for s, name in seats.items():
        e = entrants[name]
        if (
            e.policy in SLOW or Path(e.policy).suffix == ".pt"
        ):  # a copy of the network loaded once: a checkpoint loads slowly
            policy = _copy_of(cfg.variant, n, e)
        else:  # a fresh policy per seat and game (a model keeps its own counters)
            options = {"lang": cfg.lang, **e.options} if e.policy == "llm" else e.options
            policy = load_policy(e.policy, cfg.variant, n, seed=seed * 1000 + s, **options)
        reseed(policy, seed * 1000 + 97 * rotation + s)
        policies[s] = policy
    env = mafia_env.env(cfg.variant, n, lang=cfg.lang)
    start = time.perf_counter()
    game = play_game(env, Seating(seats=policies), seed=seed)
    wall = time.perf_counter() - start
    record = env.unwrapped.record()
    counters, failures = {}, {}
    for s, policy in policies.items():
        stats = getattr(policy, "stats", None)
        if stats is not None:
            counters[s] = {k: stats.get(k, 0) for k in (*COUNTED, *USAGE)}
        failed = [m for r, m in getattr(policy, "fallbacks", ()) if r in ("timeout", "error")]
        if failed:
            failures[s] = failed[0]
    marked = any(c["timeouts"] or c["errors"] for c in counters.values())
    record["meta"] = {
        "seats": {str(s): name for s, name in seats.items()},
        "deal": deal,
        "rotation": rotation,
        "marked": marked,
    }
    return {
        "deal": deal,
        "rotation": rotation,
        "seats": seats,
        "roles": [r.label for r in game.roles],
        "teams": [TEAM_NAMES[t] for t in game.teams],
        "winner": OUTCOME_NAMES[game.winner],
        "moves": len(game.inputs),
        "talk": len(game.talk),
        "wall_s": wall,
        "counters": counters,
        "failures": failures,
        "marked": marked,
        "record": record,
    }


class OncePerMinute(logging.Filter):
    """Let a fallback's warning through once a minute per reason (`TextPolicy` warns once per
    policy, and the arena seats fresh policies in every game: a dead server fails them all)."""

    def __init__(self, every_s: float = 60.0):
        super().__init__()
        self.every_s, self.last = every_s, {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING or not isinstance(record.args, tuple):
            return True
        key, now = record.args[:2], time.monotonic()
        if now - self.last.get(key, -self.every_s) < self.every_s:
            return False
        self.last[key] = now
        return True


def play_all(cfg: ArenaConfig, progress: bool = False) -> list[dict]:
    """Play the whole schedule, `cfg.concurrency` games at a time; results in schedule order.
    A model's failed call is logged with its error at most once a minute (`OncePerMinute`)."""
    n = get_variant(cfg.variant).default_players if cfg.num_players is None else cfg.num_players
    games = schedule(cfg, n)
    with showing_progress(progress):
        bar = progress_bar(len(games), "arena", "game")
    quiet = OncePerMinute()
    fallbacks = logging.getLogger("mafia_env.text.text_policy")
    fallbacks.addFilter(quiet)
    try:
        return _play(cfg, n, games, bar)
    finally:
        fallbacks.removeFilter(quiet)


def _play(cfg: ArenaConfig, n: int, games: list, bar: Any) -> list[dict]:
    with ThreadPoolExecutor(max_workers=cfg.concurrency) as pool, bar:
        futures = [pool.submit(play_one, cfg, n, *g) for g in games]
        results = []
        for f in futures:
            results.append(f.result())
            bar.update(1)
    return results


# ------------------------------------------------------------------------- reporting


def _rate(wins: int, games: int) -> dict[str, float]:
    lo, hi = wilson(wins, games)
    return {
        "games": games,
        "wins": wins,
        "rate": wins / games if games else 0.0,
        "lo": lo,
        "hi": hi,
    }


def win_rates(cfg: ArenaConfig, results: list[dict]) -> dict[str, dict[str, Any]]:
    """Return per policy: win rate overall, per side and per role, over seat-games."""
    tally: dict[str, dict[str, list[int]]] = {e.name: {} for e in cfg.policies}
    for g in results:
        for s, name in g["seats"].items():
            team, role = g["teams"][s - 1], g["roles"][s - 1]
            won = int(g["winner"] == team)
            for key in ("all", f"side:{team}", f"role:{role}"):
                w, k = tally[name].get(key, [0, 0])
                tally[name][key] = [w + won, k + 1]
    return {
        name: {key: _rate(w, k) for key, (w, k) in sorted(t.items())} for name, t in tally.items()
    }


def ratings(cfg: ArenaConfig, results: list[dict]) -> dict[str, dict[str, dict[str, float]]]:
    """Return OpenSkill ratings per policy: overall and per side (module docstring)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    names = [e.name for e in cfg.policies]
    overall = {p: model.rating(name=p) for p in names}
    sides: dict[tuple[str, str], Any] = {}
    for g in results:
        teams = sorted(set(g["teams"]))
        ranks = [0 if g["winner"] in (t, "draw") else 1 for t in teams]
        for by_side in (False, True):
            table = sides if by_side else overall
            keys = [
                [
                    (g["seats"][s], t) if by_side else g["seats"][s]
                    for s in g["seats"]
                    if g["teams"][s - 1] == t
                ]
                for t in teams
            ]
            for team in keys:
                for k in team:
                    if k not in table:
                        table[k] = model.rating(name=f"{k[0]}@{k[1]}")
            new = model.rate([[table[k] for k in team] for team in keys], ranks=ranks)
            updates: dict[Any, list] = {}
            for team, rated in zip(keys, new, strict=True):
                for k, r in zip(team, rated, strict=True):
                    updates.setdefault(k, []).append(r)
            for k, rs in updates.items():
                mu = sum(r.mu for r in rs) / len(rs)
                sigma = sum(r.sigma for r in rs) / len(rs)
                table[k] = model.rating(mu=mu, sigma=sigma, name=table[k].name)
    out: dict[str, dict[str, dict[str, float]]] = {}
    for p in names:
        out[p] = {"all": _rating(overall[p])}
        for (q, side), r in sorted(sides.items()):
            if q == p:
                out[p][f"side:{side}"] = _rating(r)
    return out


def _rating(r: Any) -> dict[str, float]:
    return {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}


def model_use(cfg: ArenaConfig, results: list[dict]) -> dict[str, dict[str, float]]:
    """Return per policy that counts its moves: the counters summed, latency and tokens, and
    the games it marked (a call of its timed out or failed)."""
    use: dict[str, dict[str, Any]] = {}
    for g in results:
        failed: set[str] = set()  # the policies with a failed call in this game
        for s, c in g["counters"].items():
            name = g["seats"][s]
            u = use.setdefault(name, dict.fromkeys((*COUNTED, *USAGE, "marked"), 0))
            for k, v in c.items():
                u[k] += v
            if c["timeouts"] or c["errors"]:
                failed.add(name)
            if s in g.get("failures", {}) and "first_error" not in u:
                u["first_error"] = g["failures"][s]
        for name in failed:
            use[name]["marked"] += 1
    for u in use.values():
        calls = u["calls"] or 1
        u["latency_per_call_s"] = u["latency_s"] / calls
        u["tokens_per_call"] = (u["prompt_tokens"] + u["completion_tokens"]) / calls
        u["failed_share"] = (u["timeouts"] + u["errors"]) / calls if u["calls"] else 0.0
    return use


def failed_models(cfg: ArenaConfig, use: dict[str, dict[str, Any]]) -> list[str]:
    """Return the policies whose calls failed more often than ``max_failed``: they did not
    play, their fallbacks did."""
    return [name for name, u in use.items() if u["calls"] and u["failed_share"] > cfg.max_failed]


def summarize(cfg: ArenaConfig, results: list[dict]) -> dict[str, Any]:
    """Return the arena's summary: outcomes, win rates, ratings, model use, timing."""
    counted = [g for g in results if not (cfg.exclude_marked and g["marked"])]
    outcomes: dict[str, int] = {}
    for g in counted:
        outcomes[g["winner"]] = outcomes.get(g["winner"], 0) + 1
    calls = sum(c["calls"] for g in results for c in g["counters"].values())
    wall = sum(g["wall_s"] for g in results)
    use = model_use(cfg, results)
    return {
        "variant": cfg.variant,
        "policies": [e.name for e in cfg.policies],
        "games": len(results),
        "counted": len(counted),
        "marked": sum(g["marked"] for g in results),
        "exclude_marked": cfg.exclude_marked,
        "outcomes": outcomes,
        "win_rates": win_rates(cfg, counted),
        "ratings": ratings(cfg, counted),
        "model_use": use,
        "failed": failed_models(cfg, use),
        "timing": {
            "game_wall_s_mean": wall / max(1, len(results)),
            "model_calls_per_game": calls / max(1, len(results)),
            "wall_s_per_model_call": wall / calls if calls else None,
        },
    }


def format_summary(summary: dict[str, Any]) -> str:
    """Return the summary as Markdown tables."""
    sides = sorted({k for w in summary["win_rates"].values() for k in w if k.startswith("side")})
    roles = sorted({k for w in summary["win_rates"].values() for k in w if k.startswith("role")})

    def cell(w: dict | None) -> str:
        if not w:
            return "-"
        return f"{w['rate']:.2f} [{w['lo']:.2f}, {w['hi']:.2f}] (n={w['games']})"

    head = ["policy", "all", *(k.split(":")[1] for k in sides)]
    lines = [
        f"## {summary['variant']}: {summary['games']} games ({summary['counted']} counted, "
        f"{summary['marked']} marked); outcomes {summary['outcomes']}",
        "",
        *failed_lines(summary),
        "### Win rate per side (95% Wilson)",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for p, w in summary["win_rates"].items():
        lines.append(
            "| " + " | ".join([p, cell(w.get("all")), *(cell(w.get(k)) for k in sides)]) + " |"
        )
    head = ["policy", *(k.split(":")[1] for k in roles)]
    lines += [
        "",
        "### Win rate per role",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for p, w in summary["win_rates"].items():
        lines.append("| " + " | ".join([p, *(cell(w.get(k)) for k in roles)]) + " |")
    head = ["policy", "all", *(k.split(":")[1] for k in sides)]
    lines += [
        "",
        "### OpenSkill ordinal (mu - 3 sigma; mu, sigma)",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for p, r in sorted(summary["ratings"].items(), key=lambda x: -x[1]["all"]["ordinal"]):
        cells = [
            f"{r[k]['ordinal']:.2f} ({r[k]['mu']:.2f}, {r[k]['sigma']:.2f})" if k in r else "-"
            for k in ("all", *sides)
        ]
        lines.append("| " + " | ".join([p, *cells]) + " |")
    if summary["model_use"]:
        head = [
            "policy",
            "moves",
            "calls",
            "invalid",
            "fallbacks",
            "timeouts",
            "errors",
            "marked games",
            "latency/call",
            "tokens/call",
        ]
        lines += [
            "",
            "### Model calls",
            "",
            "| " + " | ".join(head) + " |",
            "|" + "---|" * len(head),
        ]
        for p, u in summary["model_use"].items():
            row = [
                p,
                *(str(int(u[k])) for k in COUNTED),
                str(int(u["marked"])),
                f"{u['latency_per_call_s'] * 1000:.1f} ms",
                f"{u['tokens_per_call']:.0f}",
            ]
            lines.append("| " + " | ".join(row) + " |")
    t = summary["timing"]
    per_call = t["wall_s_per_model_call"]
    lines += [
        "",
        f"A game takes {t['game_wall_s_mean']:.2f} s on average with "
        f"{t['model_calls_per_game']:.0f} model calls"
        + (f": {per_call * 1000:.1f} ms of game per model call." if per_call else "."),
    ]
    return "\n".join(lines)


def failed_lines(summary: dict[str, Any]) -> list[str]:
    """Return the summary's first lines where a model did not play (else none)."""
    lines = []
    for name in summary.get("failed", []):
        u = summary["model_use"][name]
        lines += [
            f"**{name.upper()} DID NOT PLAY: {int(u['timeouts'] + u['errors'])} of "
            f"{int(u['calls'])} model calls failed** (first error: "
            f"{u.get('first_error', 'unknown')}). Its fallback played its moves: the rows "
            f"below rate the fallback, not the model. Check the server, the model's name and "
            "the API key.",
            "",
        ]
    return lines


def write(cfg: ArenaConfig, results: list[dict], summary: dict[str, Any], out: Path) -> list[Path]:
    """Write the summary, the tables, every record and (if asked) every replay page."""
    from baselines.replay_page import write_page

    claim_dir(out)
    (out / "records").mkdir(exist_ok=True)
    written = []
    path = out / "summary.json"
    path.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    written.append(path)
    path = out / "results.md"
    path.write_text(format_summary(summary) + "\n", encoding="utf-8")
    written.append(path)
    if cfg.replays:
        (out / "replays").mkdir(exist_ok=True)
    for k, g in enumerate(results):
        stem = f"game-{k:04d}-deal{g['deal']}-rot{g['rotation']}"
        path = out / "records" / f"{stem}.json"
        path.write_text(json.dumps(g["record"], ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
        if cfg.replays:
            title = f"{cfg.variant} deal {g['deal']}, rotation {g['rotation']}"
            written.append(
                write_page(
                    g["record"], out / "replays" / f"{stem}.html", title, g["seats"], cfg.lang
                )
            )
    return written


def run(cfg: ArenaConfig, progress: bool = False) -> tuple[list[dict], dict[str, Any]]:
    """Play the arena and write its results; return the games and the summary."""
    results = play_all(cfg, progress)
    summary = summarize(cfg, results)
    write(cfg, results, summary, Path(cfg.out or f"runs/arena/{cfg.variant}"))
    return results, summary


def main(argv: list[str] | None = None, prog: str = "python -m baselines.arena") -> int:
    p = parser(prog, __doc__)
    p.add_argument(
        "--config", required=True, help="an arena YAML config: a path, or a shipped one's name"
    )
    p.add_argument("--force", action="store_true", help="overwrite an earlier run's folder")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    add_quiet(p, "progress bar")
    args = parse(p, argv)
    if isinstance(args, int):
        return args
    try:
        cfg = load_config(config_path(args.config))
        require("openskill", "the arena's ratings", "llm")
    except MafiaError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    want = Path(cfg.out or f"runs/arena/{cfg.variant}")
    out = fresh_dir(want, args.force)
    if out != want:
        print(f"{want} holds an earlier run: this one writes {out} (--force: over it)")
    if args.force:
        claim_dir(out, force=True)
    cfg = dataclasses.replace(cfg, out=str(out))
    _, summary = run(cfg, progress=not (args.no_progress or args.quiet))
    print(format_summary(summary))
    print(f"wrote {out}")
    if summary["failed"]:
        print(
            f"error: {', '.join(summary['failed'])} did not play: more than "
            f"{cfg.max_failed:.0%} of its model calls failed (max_failed); see above",
            file=sys.stderr,
        )
        return 3
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main, what="mafia arena"))
