"""The benchmark protocol: a policy against a task's fixed opponents, on fixed seeds.

    mafia benchmark --policy rule --task sport-10        (python -m baselines.benchmark ...)
    mafia benchmark --policy path/to/ckpt.pt --all --out results.json
    mafia benchmark --policy rule --task sport-10 --version 2
    mafia benchmark --policy rule --all --workers 2 --exploit rule-sport.json

For each side the task names, the policy plays every seat of that team and each opponent
policy plays all other seats, over the task's fixed seeds. The score is the win rate per
side and opponent with a Wilson 95% interval; the headline number is the mean win rate over
all (side, opponent) pairs. ``--games N`` plays N games a pair instead of the task's: a smoke
run, whose headline is marked NON-STANDARD (it does not compare with the reference table).
Every (side, opponent) pair loads its policies afresh with the
task's seeds, so the pairs may be played in any order or in parallel (`run_many`) with the
same result. An exploitability figure (`baselines.exploit`'s JSON) may ride along.

Versions 3 and 4 play each pair's deals 64 games at a time (`play_lockstep`): the deals of the
seeds one game after another would play, each policy asked once per step for all the games
where it acts. Version 2 plays them one after another, as its reference table was made.

A task's shipped opponents (``ppo``, ``league``, ``filler``) are pinned beside the protocol, in
`baselines.pins`: `check_opponents` refuses a file that is not the pinned one, or one not
pinned yet, and a result stores the task's pinned digest (`baselines.pins.digest`).
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

import mafia_env
from baselines import pins
from baselines.runs import free_file
from baselines.stats import wilson
from mafia_env.commands import add_quiet, parse, parser, progress, run, showing_progress
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError, MafiaError
from mafia_env.seat_obs import extend_rows
from mafia_env.seating.games import Seating, observation, play_game
from mafia_env.seating.policies import load_policy, observes
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, Task, get_task

LOCKSTEP = 64  # games played at a time by the protocol of version 3


def play_side(
    task: Task,
    policy_name: str,
    side: str,
    opponent: str,
    games: int,
    tick: Callable[[int], Any] | None = None,
) -> dict:
    """Play `games` games with `policy_name` on every seat of `side`; return the tally.
    `tick(1)` is called as each game ends (a progress bar)."""
    table = GameSpec.make(task.variant, task.num_players, **task.play_knobs())  # its rules
    # a shipped bot that a later version retrained plays the version's own file
    mine, theirs = pins.load_options(task, policy_name), pins.load_options(task, opponent)
    learner = load_policy(policy_name, table, seed=task.seed, **mine)
    other = load_policy(opponent, table, seed=task.seed + 1, **theirs)
    seating = Seating(other, teams={side: learner})
    if task.version >= 3 and all(observes(p) == "vector" for p in (learner, other)):
        wins, draws = play_lockstep(task, seating, side, games, tick=tick)
    else:
        env = mafia_env.raw_env(task.variant, task.num_players, **task.play_knobs())
        wins = draws = 0
        for g in range(games):
            play_game(env, seating, seed=task.seed + g)
            wins += env.winner == side
            draws += env.winner == "draw"
            if tick is not None:
                tick(1)
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


def play_lockstep(
    task: Task,
    seating: Seating,
    side: str,
    games: int,
    num_envs: int = LOCKSTEP,
    tick: Callable[[int], Any] | None = None,
    done: Callable[[int, Any], Any] | None = None,
) -> tuple[int, int]:
    """Play the deals of seeds ``task.seed .. task.seed + games - 1``, `num_envs` at a time;
    return (`side`'s wins, draws).

    The protocol of version 3: the same deals as one game after another, but each step asks
    every policy once for all the games where it acts (`Policy.act_batch`), so a network
    infers a batch, not a row. A policy that draws at random draws in another order than
    one game at a time would: the figures of version 3 are this function's. `done(g, env)`
    is called as deal g (seed ``task.seed + g``) ends, its env not yet reset (per-deal
    results: `baselines.robust`). It plays on one torch thread (`one_thread_here`): a network
    infers small batches, where torch's pool only costs; and with the heap alive before it
    left out of Python's full collections (`old_heap_frozen`).
    """
    with one_thread_here(), old_heap_frozen():
        return _lockstep(task, seating, side, games, num_envs, tick, done)


def _lockstep(
    task: Task,
    seating: Seating,
    side: str,
    games: int,
    num_envs: int,
    tick: Callable[[int], Any] | None,
    done: Callable[[int, Any], Any] | None,
) -> tuple[int, int]:
    knobs = task.play_knobs()
    envs = [
        mafia_env.raw_env(task.variant, task.num_players, **knobs)
        for _ in range(min(num_envs, games))
    ]
    live: list[tuple[Any, list, int]] = []
    for g, env in enumerate(envs):
        env.reset(seed=task.seed + g)
        live.append((env, seating.players(env.game), g))
    dealt = len(envs)
    wins = draws = 0
    while live:
        groups: dict[int, tuple[Any, list[int]]] = {}
        obs, masks, reads = [], [], []
        for i, (env, players, _) in enumerate(live):
            seat = env.game.actor
            o, m = observation(env, seat)
            if getattr(players[seat], "obs_options", None):  # it reads the belief piece
                reads.append(i)
            obs.append(o)
            masks.append(m)
            groups.setdefault(id(players[seat]), (players[seat], []))[1].append(i)
        if reads:  # the belief pieces of every game where a reader acts, in one call
            seats = [live[i][0].game.actor for i in reads]
            rows = extend_rows(
                [live[i][1][s] for i, s in zip(reads, seats, strict=True)],
                [obs[i] for i in reads],
                [live[i][0].game for i in reads],
                seats,
                live[reads[0]][0].spec,
            )
            for i, row in zip(reads, rows, strict=True):
                obs[i] = row
        actions = np.zeros(len(live), dtype=np.int64)
        mask_batch = np.stack(masks)
        for policy, rows in groups.values():  # a group's rows share one layout
            actions[rows] = policy.act_batch(np.stack([obs[i] for i in rows]), mask_batch[rows])
        still = []
        for (env, players, g), a in zip(live, actions.tolist(), strict=True):
            env.step(a)
            if not env.game.over:
                still.append((env, players, g))
                continue
            wins += env.winner == side
            draws += env.winner == "draw"
            if done is not None:
                done(g, env)
            if tick is not None:
                tick(1)
            if dealt < games:
                env.reset(seed=task.seed + dealt)
                still.append((env, seating.players(env.game), dealt))
                dealt += 1
        live = still
    return wins, draws


def check_opponents(task: Task) -> None:
    """Refuse a task whose shipped opponents are not the files it was pinned to."""
    for opp in (o for o in task.opponents if o in pins.SHIPPED_OPPONENTS):
        path = pins.shipped_file(task, opp)
        got = hashlib.sha256(path.read_bytes()).hexdigest()[:16] if path.exists() else None
        pin = pins.pin(task, opp)
        table = pins.table_name(task)
        if not pin:
            found = f"{path} is there (pin {got})" if got else f"{path} is not shipped yet"
            raise ConfigError(
                f"task {task.name} (version {task.version}) has no pin for its {opp!r} "
                f"opponent yet: {found}; pin the shipped file's SHA-256 in baselines/pins.py "
                f"({table}) to run it, or run another version (--version "
                + ", ".join(str(v) for v in sorted(TASKS_BY_VERSION) if v != task.version)
                + ")"
            )
        if got is None:
            raise ConfigError(f"task {task.name} plays against {path}, which is not installed")
        if got != pin:
            raise ConfigError(
                f"task {task.name} (version {task.version}) was defined with the {opp!r} "
                f"opponent {pin}, but {path} is {got}: its scores would not compare "
                "with the reference table; restore that file (git checkout), or define a new "
                f"task version with the new file's pin (`sha256sum {path.name} | cut -c1-16`: "
                f"{got}; {table} in baselines/pins.py) and its reference results"
            )


def _result(task: Task, policy: str, games: int | None, rows: list[dict]) -> dict[str, Any]:
    return {
        "task": task.name,
        "version": task.version,
        "digest": pins.digest(task),
        "policy": str(policy),
        "games_per_pair": games or task.games,
        "standard": games is None,
        "rows": rows,
        "headline": sum(r["win_rate"] for r in rows) / len(rows),
    }


def run_task(task: Task, policy: str, games: int | None = None) -> dict[str, Any]:
    """Run the protocol of one task; return its machine-readable result."""
    check_opponents(task)
    n = games or task.games
    rows = [play_side(task, policy, side, opp, n) for side in task.sides for opp in task.opponents]
    return _result(task, policy, games, rows)


def _play_job(job: tuple[Task, str, str, str, int]) -> dict:
    return play_side(*job)


def one_thread() -> None:
    """Keep this process's torch to one thread.

    A PPO opponent infers one small batch per move: torch's thread pool costs more than it
    gives, and on a shared machine many times more (measured: 116 s against 14 s).
    """
    os.environ["OMP_NUM_THREADS"] = "1"
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)


@contextmanager
def one_thread_here() -> Iterator[None]:
    """`one_thread` for the length of a `with` block in this process, then the caller's threads.

    The serial path plays in the caller's process: without it a network policy ran on torch's
    whole pool (four threads' CPU for one thread's work). A torch first loaded inside the block
    keeps one thread after it; `OMP_NUM_THREADS` is put back as it was.
    """
    env = os.environ.get("OMP_NUM_THREADS")
    torch = sys.modules.get("torch")
    threads = torch.get_num_threads() if torch is not None else None
    one_thread()
    try:
        yield
    finally:
        if env is None:
            os.environ.pop("OMP_NUM_THREADS", None)
        else:
            os.environ["OMP_NUM_THREADS"] = env
        if torch is not None and threads is not None:
            torch.set_num_threads(threads)


_FROZEN = {"depth": 0, "ours": False}  # `old_heap_frozen`: blocks open, whether it froze


@contextmanager
def old_heap_frozen() -> Iterator[None]:
    """The objects alive at the block's start (torch, the modules, the policies, the tables)
    left out of Python's cyclic garbage collections until its end (`gc.freeze`, then
    `gc.unfreeze`: they are back in the oldest generation after, nothing is kept for good).

    The games' own objects are collected as before; what is spared is the full collections'
    walk over the old heap, hundreds of thousands of objects with torch loaded: a reader of
    the belief piece allocates enough to set one off every few dozen games, each tens of
    milliseconds (`scripts/bench_belief_piece.py --benchmark` prints the collector's time).
    Blocks nest (the outermost unfreezes), and a heap the program froze itself is left as it
    is."""
    import gc

    if not _FROZEN["depth"]:
        _FROZEN["ours"] = gc.get_freeze_count() == 0
        if _FROZEN["ours"]:
            gc.freeze()
    _FROZEN["depth"] += 1
    try:
        yield
    finally:
        _FROZEN["depth"] -= 1
        if not _FROZEN["depth"] and _FROZEN["ours"]:
            gc.unfreeze()


def run_many(
    policies: list[str],
    tasks: list[Task],
    games: int | None = None,
    workers: int = 1,
    known: dict[tuple[str, str, str, str], dict] | None = None,
) -> list[dict[str, Any]]:
    """Run every (policy, task) of the protocol; (side, opponent) pairs spread over `workers`.

    Returns one result per (policy, task), policies outer, exactly as `run_task` gives it.
    `known` maps (policy, task name, side, opponent) to a row already played: the same games
    (the caller vouches for it, e.g. a pair an earlier version played the same way); those
    pairs are taken as they are and the others played, the headline is over all of them.
    """
    known = known or {}
    for task in tasks:
        check_opponents(task)
    pairs = [
        (task, str(policy), side, opp, games or task.games)
        for policy in policies
        for task in tasks
        for side in task.sides
        for opp in task.opponents
    ]
    jobs = [job for job in pairs if (job[1], job[0].name, job[2], job[3]) not in known]
    bar = progress(sum(job[4] for job in jobs), "benchmark", "game")
    if workers <= 1:
        with one_thread_here():
            played = [play_side(*job, tick=bar.update) for job in jobs]
    else:  # fork is quick, but a forked torch may hang: spawn once torch is loaded here
        fork = "fork" in multiprocessing.get_all_start_methods() and "torch" not in sys.modules
        ctx = multiprocessing.get_context("fork" if fork else "spawn")
        with ProcessPoolExecutor(workers, mp_context=ctx, initializer=one_thread) as pool:
            futures = [pool.submit(_play_job, job) for job in jobs]
            for future in futures:  # in order; the bar moves a pair at a time
                bar.update(future.result()["games"])
            played = [future.result() for future in futures]
    bar.close()
    new = iter(played)
    rows = [known.get((p, t.name, side, opp)) or next(new) for t, p, side, opp, _ in pairs]
    results, i = [], 0
    for policy in policies:
        for task in tasks:
            k = len(task.sides) * len(task.opponents)
            results.append(_result(task, policy, games, rows[i : i + k]))
            i += k
    return results


# ---------------------------------------------------------------- exploitability


def json_items(path: str | Path, what: str) -> list[Any]:
    """Return the items of a JSON result file: one object, or a list of them (`what` names the
    kind of file in the error when it cannot be read)."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ConfigError(f"cannot read {what} {path}: {e}") from None
    return data if isinstance(data, list) else [data]


def read_exploit(path: str | Path) -> dict[str, Any]:
    """Read an exploit result (`baselines.exploit`): task, policy, exploitability, sides.

    Only ``task``, ``policy`` and ``exploitability`` (a number) are required; ``sides`` (the
    best response's win rate against the policy per side) is kept if there.
    """
    items = json_items(path, "exploit result")
    for item in items:
        ok = (
            isinstance(item, dict)
            and isinstance(item.get("task"), str)
            and isinstance(item.get("policy"), str)
            and isinstance(item.get("exploitability"), int | float)
            and not isinstance(item.get("exploitability"), bool)
        )
        if not ok:
            raise ConfigError(
                f"{path} is not an exploit result: it needs an object (or a list of them) with "
                '"task" (a string), "policy" (a string) and "exploitability" (a number)'
            )
    return {(i["task"], i["policy"]): i for i in items}


def read_exploits(paths: list[str | Path]) -> dict[tuple[str, str], dict[str, Any]]:
    """Return every exploit result of `paths` by (task, policy); the later file wins."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for path in paths:
        found.update(read_exploit(path))
    return found


def attach_exploits(results: list[dict], exploits: dict[tuple[str, str], dict]) -> None:
    """Add ``exploitability`` (and its ``exploit`` sides) to each result that has one."""
    for r in results:
        e = exploits.get((r["task"], r["policy"]))
        if e is not None:
            r["exploitability"] = float(e["exploitability"])
            if "reliable" in e:  # the attacker's check: false marks the figure
                r["exploit_reliable"] = e["reliable"]
            if "sides" in e:
                r["exploit_sides"] = e["sides"]


def describe(result: dict[str, Any]) -> str:
    """Return the printed form of one result: the headline, then a line per pair."""
    head = f"{result['task']:12} headline {result['headline']:.3f}"
    if not result.get("standard", True):
        protocol = get_task(result["task"], result["version"]).games
        head += (
            f"  NON-STANDARD: {result['games_per_pair']} games a pair, not the protocol's "
            f"{protocol}; not comparable with the reference table"
        )
    if "exploitability" in result:
        head += f"  exploitability {result['exploitability']:.3f}"
        if result.get("exploit_reliable") is False:
            head += " (UNRELIABLE: the attacker's town loses to random play more than rule's)"
    lines = [head]
    for r in result["rows"]:
        lo, hi = r["ci95"]
        lines.append(
            f"  as {r['side']:6} vs {r['opponent']:7} {r['win_rate']:6.1%} "
            f"[{lo:.1%}, {hi:.1%}] over {r['games']} games"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None, prog: str = "python -m baselines.benchmark") -> int:
    p = parser(prog, __doc__)
    p.add_argument(
        "--policy",
        required=True,
        metavar="POLICY",
        help="random, rule, ppo, league, league_v2, filler or a checkpoint path",
    )
    group = p.add_mutually_exclusive_group(required=True)
    names = sorted({n for tasks in TASKS_BY_VERSION.values() for n in tasks})
    group.add_argument("--task", choices=names, help="one task")
    group.add_argument("--all", action="store_true", help="every task of the version")
    p.add_argument(
        "--version",
        type=int,
        default=LATEST,
        choices=sorted(TASKS_BY_VERSION),
        help="the tasks' version (the default: the latest)",
    )
    p.add_argument(
        "--games", type=int, help="games per pair instead of the task's (NON-STANDARD: smoke runs)"
    )
    p.add_argument("--workers", type=int, default=1, help="processes (the same results)")
    p.add_argument(
        "--exploit", nargs="*", default=[], help="exploit result JSON files to report beside"
    )
    p.add_argument("--out", help="write the results as JSON here")
    p.add_argument("--force", action="store_true", help="overwrite an earlier --out file")
    add_quiet(p, "progress bar")
    args = parse(p, argv)
    if isinstance(args, int):
        return args
    try:
        free_file(args.out, args.force)
        if args.games is not None and args.games < 1:
            raise ConfigError(f"--games must be a positive number of games; got {args.games}")
        if args.all:
            tasks = list(TASKS_BY_VERSION[args.version].values())
        else:
            tasks = [get_task(args.task, args.version)]
        exploits = read_exploits(args.exploit)
        with showing_progress(not args.quiet):
            results = run_many([args.policy], tasks, args.games, args.workers)
    except (ConfigError, MafiaError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    attach_exploits(results, exploits)
    for result in results:
        print(describe(result))
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(run(main, what="mafia benchmark"))
