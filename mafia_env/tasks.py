"""Named benchmark tasks: a variant, a table size and an opponent population, frozen.

A task's definition never changes silently: `Task.digest()` hashes it, and a test pins every
digest. An opponent that is a file shipped in ``baselines/checkpoints`` (``ppo``, ``league``
from version 3, ``filler`` from version 4) is named by its file's SHA-256 (`Task.pin`), and
the protocol refuses to run against another file, or against one not pinned yet. Changing a
task (or one of its opponents' files) means a new `version`, new pins and new reference scores.

`TASKS` holds the latest version; `get_task(name, version)` and `TASKS_BY_VERSION` the
earlier ones, which stay playable under the rules they were defined with:

- version 2: opponents ``rule``, ``random``, ``ppo`` (the PPO bots cloned from the rule bots,
  then fine-tuned against them), played under the rules before the seeds' second reading;
- version 3: the league-trained seat-filler ``league`` as a fourth opponent, played under the
  rules before the seeds' second reading (issue 25: open vote counts in CLUB and ONLINE, the
  mafia awake together there, ...), which its shipped files were trained for;
- version 4: the seat-filler ``filler`` (issue 28: `baselines.filler`, one network per task)
  as a fifth opponent; the tables, seeds, games and rules of version 3 (the filler's files
  were trained for those rules too), so a pair that version 3 has is the same games here.

`TINY_TASKS` are of another kind: tables small enough for exact game theory (OpenSpiel's
NashConv and CFR over the whole tree), with the exact values pinned.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Any

from mafia_env.engine.eras import earlier_rules, reading_rules
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError

TASK_ERAS = {2: 1, 3: 2, 4: 3}  # task version -> the era its games are played in


def task_knobs(variant: str, version: int) -> dict[str, Any]:
    """Return the knobs that give a task of `version` the rules it was defined under."""
    era = TASK_ERAS.get(version)
    return earlier_rules(variant, era) if era is not None else {}


def task_definition(fields: dict[str, Any]) -> dict[str, Any]:
    """Return the fields of a task (`dataclasses.asdict`) its digest hashes: ``pins`` came
    with version 3, so a definition without them hashes as it always did."""
    if not fields.get("pins"):
        fields = {k: v for k, v in fields.items() if k != "pins"}
    return fields


# opponents that load a file shipped with baselines (baselines.shipped.SHIPPED_FOLDERS)
SHIPPED_OPPONENTS = ("ppo", "league", "filler")


@dataclass(frozen=True)
class Task:
    """One benchmark task: where the learner sits and whom it plays against."""

    name: str
    variant: str
    num_players: int
    sides: tuple[str, ...]  # the teams the learner plays, each in turn
    opponents: tuple[str, ...]  # policies (load_policy names) that play every other seat
    games: int  # games per (side, opponent) in the protocol
    seed: int  # games use seeds seed, seed + 1, ...
    knobs: tuple[tuple[str, object], ...] = ()
    version: int = 2
    ppo_sha256: str = ""  # version 2: the first 16 hex digits of the ppo file's SHA-256
    # version 3 on: (opponent, first 16 hex digits of its file's SHA-256; "" = not pinned yet)
    pins: tuple[tuple[str, str], ...] = ()

    def play_knobs(self) -> dict[str, object]:
        """Return the knobs the task's games are played with.

        A task keeps the rules it was defined under, so its scores stay comparable: version 2
        the rules before the seeds were read again (issue 16), version 3 the rules before their
        second reading (issue 25) changed some variants' defaults; version 4 names version 3's
        rules in its own knobs, and plays the rules before the third reading (issue 47).
        """
        return {**task_knobs(self.variant, self.version), **dict(self.knobs)}

    def pin(self, opponent: str) -> str:
        """Return the pinned SHA-256 prefix of a shipped opponent's file ("" if none)."""
        if opponent == "ppo" and self.ppo_sha256:
            return self.ppo_sha256
        return dict(self.pins).get(opponent, "")

    def digest(self) -> str:
        """Return a hash of the definition (pinned by the tests)."""
        data = task_definition(asdict(self))  # version 2's hashes as it always did
        blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


_SIZES = {"sport": 10, "city": 13, "club": 10, "online": 10, "forum": 10, "minimal": 10}
_SEED = 20_261_129

# ---------------------------------------------------------------- version 2
OPPONENTS_V2 = ("rule", "random", "ppo")
_PPO_SHA256 = {  # task -> the shipped file its "ppo" opponent loads
    "sport-10": "cae6e47576ce8f4f",  # baselines/checkpoints/sport.pt
    "city-13": "5a1f2312c6c3c751",  # city-13.pt
    "club-10": "9c196aada9ee5697",  # club.pt
    "online-10": "08198687f9a7a2cb",  # online.pt
    "forum-10": "f34d94601de232b9",  # forum.pt
    "minimal-10": "20c8514abff50a4d",  # minimal.pt
}
TASKS_V2: dict[str, Task] = {
    f"{variant}-{n}": Task(
        name=f"{variant}-{n}",
        variant=variant,
        num_players=n,
        sides=("town", "mafia"),
        opponents=OPPONENTS_V2,
        games=500,
        seed=_SEED,
        ppo_sha256=_PPO_SHA256[f"{variant}-{n}"],
    )
    for variant, n in _SIZES.items()
}

# ---------------------------------------------------------------- version 3
OPPONENTS = ("rule", "random", "ppo", "league")
# THE PIN TABLE of version 3: task -> shipped opponent -> the first 16 hex digits of its file's
# SHA-256 (`sha256sum FILE | cut -c1-16`). "ppo" loads baselines/checkpoints/V[-N].pt,
# "league" loads baselines/checkpoints/league/V[-N].pt. An empty pin means "not shipped yet":
# `baselines.benchmark` refuses the task, saying so, until the file is shipped and pinned here
# (and the task's digest in tests/benchmark/test_benchmark.py is updated with it).
PINS_V3: dict[str, dict[str, str]] = {  # the files: V[-N].pt and league/V[-N].pt
    "sport-10": {"ppo": "cae6e47576ce8f4f", "league": "80e385f93653c89e"},
    "city-13": {"ppo": "5a1f2312c6c3c751", "league": "b579b678fcb561e1"},
    "club-10": {"ppo": "9c196aada9ee5697", "league": "3b4826ea3f5a8153"},
    "online-10": {"ppo": "08198687f9a7a2cb", "league": "dd5729cb95bfd742"},
    "forum-10": {"ppo": "f34d94601de232b9", "league": "2e26897637b3a47c"},
    "minimal-10": {"ppo": "20c8514abff50a4d", "league": "a71ea2b3bdd323bd"},
}


def _pinned(version: int, opponents: tuple[str, ...], pins: dict, era: int | None = None) -> dict:
    """Every table of `_SIZES` as a task of `version` (from 3: pinned files, 500 games a pair),
    with the knobs that the reading closing `era` changed written into its knobs where given
    (`reading_rules`; the later readings' old values come with the version's era, `task_knobs`)."""
    return {
        f"{variant}-{n}": Task(
            name=f"{variant}-{n}",
            variant=variant,
            num_players=n,
            sides=("town", "mafia"),
            opponents=opponents,
            games=500,
            seed=_SEED,
            knobs=() if era is None else tuple(sorted(reading_rules(variant, era).items())),
            version=version,
            pins=tuple(sorted(pins[f"{variant}-{n}"].items())),
        )
        for variant, n in _SIZES.items()
    }


TASKS_V3: dict[str, Task] = _pinned(3, OPPONENTS, PINS_V3)

# ---------------------------------------------------------------- version 4
OPPONENTS_V4 = ("rule", "random", "ppo", "league", "filler")
# THE PIN TABLE of version 4: version 3's pins and the seat-filler's file,
# baselines/checkpoints/filler/V[-N].pt (`sha256sum FILE | cut -c1-16`). A filler file that is
# retrained means a new pin here, the task's digest in tests/benchmark/test_tasks_v4.py and its
# results in results/v4/ made again (scripts/reference_table.py --run ... --tasks TASK --save ...).
PINS_V4: dict[str, dict[str, str]] = {
    task: {**pins, "filler": filler}
    for (task, pins), filler in zip(
        PINS_V3.items(),
        (
            "c4bd1a814f92d049",  # sport-10: filler/sport.pt
            "3b77607b5b98aff0",  # city-13: filler/city-13.pt
            "a505a6cfdddc368e",  # club-10: filler/club.pt
            "279298a51ff51be2",  # online-10: filler/online.pt
            "76a3a8f10ca79e36",  # forum-10: filler/forum.pt
            "8012e8297cf62503",  # minimal-10: filler/minimal.pt
        ),
        strict=True,
    )
}
# Version 4 plays under version 3's rules (era 2, before issue 25's second reading), which the
# shipped ppo, league and filler files were trained for: they are written into the task's
# knobs, so the definition (and its digest) says so.
TASKS_V4: dict[str, Task] = _pinned(4, OPPONENTS_V4, PINS_V4, era=2)

TASKS_BY_VERSION: dict[int, dict[str, Task]] = {2: TASKS_V2, 3: TASKS_V3, 4: TASKS_V4}


# ---------------------------------------------------------------- tiny tasks
@dataclass(frozen=True)
class TinyTask:
    """A table small enough for exact game theory: OpenSpiel's ``nash_conv`` and CFR walk its
    whole game tree (`mafia_env.openspiel`), so an approximate measure (the exploitability
    attacker of `baselines.exploit`, a belief) can be checked against the exact value.

    The values are those of ``python_mafia`` with this variant, table size, knobs and
    ``seed`` (the engine's own randomness: MINIMAL's random tie-break), measured with
    open-spiel 2.0.2 and pinned by tests/benchmark/test_tiny_task.py. NashConv is the sum over
    players of what a best response gains against the others' policy; OpenSpiel's
    exploitability is NashConv / players.
    """

    name: str
    variant: str
    num_players: int
    knobs: tuple[tuple[str, object], ...]
    seed: int  # python_mafia's "seed": the engine's random draws (tie-breaks)
    states: int  # the game tree's histories: chance, decision and terminal
    uniform_nash_conv: float  # NashConv of uniform play over the legal actions
    cfr_nash_conv: tuple[tuple[int, float], ...]  # (CFR iterations, NashConv of its average)

    def spec(self) -> GameSpec:
        """Return the task's `GameSpec` (for `mafia_env.env(spec)`, `openspiel.load(spec)`)."""
        return GameSpec.make(self.variant, self.num_players, **dict(self.knobs))

    def openspiel_params(self) -> dict[str, object]:
        """Return the parameters of ``pyspiel.load_game("python_mafia", ...)``."""
        knobs = ";".join(
            f"{k}:{str(v).lower() if isinstance(v, bool) else v}" for k, v in self.knobs
        )
        return {
            "variant": self.variant,
            "num_players": self.num_players,
            "seed": self.seed,
            "knobs": knobs,
        }

    def exploitability(self, nash_conv: float) -> float:
        """Return OpenSpiel's exploitability of a policy whose NashConv is `nash_conv`."""
        return nash_conv / self.num_players

    def digest(self) -> str:
        """Return a hash of the definition and its pinned values (pinned by the tests)."""
        blob = json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


TINY_TASKS: dict[str, TinyTask] = {
    # MINIMAL at three seats (one mafia, two civilians), one day, no self-nomination: the
    # zero night, one day of speeches, nominations and the vote, then the game is truncated
    "minimal-3-day1": TinyTask(
        name="minimal-3-day1",
        variant="minimal",
        num_players=3,
        knobs=(("max_days", 1), ("self_nomination", False)),
        seed=0,
        states=2067,
        uniform_nash_conv=0.9061303297896661,
        cfr_nash_conv=((1, 0.9061303297896661), (5, 0.3965297861907848), (30, 0.21559310115860175)),
    ),
}


def get_tiny_task(name: str) -> TinyTask:
    """Return the tiny task `name`; a clear error otherwise."""
    if name not in TINY_TASKS:
        raise ConfigError(f"no tiny task {name!r}; tiny tasks: {', '.join(sorted(TINY_TASKS))}")
    return TINY_TASKS[name]


LATEST = max(TASKS_BY_VERSION)
TASKS: dict[str, Task] = TASKS_BY_VERSION[LATEST]


def get_task(name: str, version: int | None = None) -> Task:
    """Return the task `name` of `version` (None: the latest); a clear error otherwise."""
    version = LATEST if version is None else version
    if version not in TASKS_BY_VERSION:
        raise ConfigError(
            f"no benchmark tasks of version {version!r}; versions: "
            + ", ".join(map(str, sorted(TASKS_BY_VERSION)))
        )
    tasks = TASKS_BY_VERSION[version]
    if name not in tasks:
        raise ConfigError(
            f"no task {name!r} in version {version}; tasks: {', '.join(sorted(tasks))}"
        )
    return tasks[name]


__all__ = [
    "LATEST",
    "OPPONENTS",
    "OPPONENTS_V4",
    "PINS_V3",
    "PINS_V4",
    "SHIPPED_OPPONENTS",
    "TASKS",
    "TASKS_BY_VERSION",
    "TASKS_V2",
    "TASKS_V3",
    "TASKS_V4",
    "TASK_ERAS",
    "TINY_TASKS",
    "Task",
    "TinyTask",
    "get_task",
    "get_tiny_task",
    "task_definition",
    "task_knobs",
]
