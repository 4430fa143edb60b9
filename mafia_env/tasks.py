"""Named benchmark tasks: a variant, a table size and an opponent population, frozen.

A task's definition never changes silently: a test pins every task's digest. The opponents
that load a file shipped with the bots (``ppo``, ``league`` from version 3, ``filler`` from
version 4) are pinned beside the benchmark, in `baselines.pins`, by their files' SHA-256:
`baselines.pins.digest(task)` hashes a task's definition with its pins, and the protocol
refuses to run against another file, or against one not pinned yet. `Task.digest()` hashes the
definition alone. Changing a task (or one of its opponents' files) means a new `version`, new
pins and new reference scores.

`TASKS` holds the latest version; `get_task(name, version)` and `TASKS_BY_VERSION` the
earlier ones, which stay playable under the rules they were defined with:

- version 2: opponents ``rule``, ``random``, ``ppo`` (the PPO bots cloned from the rule bots,
  then fine-tuned against them), played under the rules before the seeds' second reading;
- version 3: the league-trained seat-filler ``league`` as a fourth opponent, played under the
  rules before the seeds' second reading (issue 25: open vote counts in CLUB and ONLINE, the
  mafia awake together there, ...), which its pinned files were trained for;
- version 4: the seat-filler ``filler`` (issue 28: `baselines.filler`, one network per task)
  as a fifth opponent; the tables, seeds, games and rules of version 3 (the filler's files
  were trained for those rules too), so a pair that version 3 has is the same games here;
- version 5: version 4 with sport-10's seat-filler retrained (issue 45: trained against the
  zoo's styles and at mixed tables, speaking from its reading of the claims); every other
  pinned file is version 4's, so every pair not against sport-10's filler is the same games;
- version 6: version 5 with club-10's seat-filler retrained (issue 45: the talk recipe of
  sport-10's, and more of it at tables of mixed players), sport-10's trained two links further
  at tables of mixed players, and city-13's playing the maniac's seat by the rule bots, as it
  plays the town's (its network's maniac was below the rule bots' against 12 of the zoo's 28
  styles); every pair without sport-10's or club-10's filler, or against city-13's, is the
  same games;
- version 7: version 6 with forum-10's seat-filler retrained (issue 45: the talk recipe of
  sport-10's on forum-10's table and rules) and playing the maniac's seat by the rule bots;
  every pair without forum-10's filler is the same games;
- version 8: version 7 with minimal-10's seat-filler trained against the zoo of styles
  (issue 45) and shooting its team's agreed target; every pair without minimal-10's filler is
  the same games;
- version 9: version 8 with city-13's seat-filler (its network on the mafia's seats) trained
  against the zoo under its team's agreed shot, and online-10's playing under that shot
  (issue 45); every pair without city-13's or online-10's filler is the same games;
- version 10: version 9 with club-10's seat-filler network playing its mafia seats as the rule
  bots beside teammates who are not its copies (issue 45); every pair without club-10's
  filler is the same games;
- version 11: version 10 with forum-10's and club-10's seat-filler networks playing their town
  seats as the rule bots beside teammates who are not their copies (issue 45); every pair
  without forum-10's or club-10's filler is the same games;
- version 12: version 11 with forum-10's and sport-10's seat-filler networks playing their
  mafia seats as the rule bots beside teammates who are not their copies, online-10's its
  town seats where three or more seats claim the sheriff, and club-10's trained one link
  further (issue 45); every pair without sport-10's, club-10's, online-10's or forum-10's
  filler is the same games;
- version 13: version 12 with online-10's seat-filler network's town seats marking themselves
  on day 1 (a civilian claim) and playing as the rule bots beside teammates who do not (issue
  45); every pair without online-10's filler is the same games;
- version 14: version 13 with sport-10's, club-10's and forum-10's seat-filler networks' mafia
  seats vouching on day 1 only (a vouch after it ends the speech instead: issue 45); every
  pair without those fillers is the same games;
- version 15: version 14 with sport-10's and online-10's seat-filler networks' mafia seats
  nominating the town player the table suspects most where their speech after day 1 would
  end, and sport-10's vouching on no day (issue 45); every pair without those fillers is the
  same games;
- version 16: version 15 with online-10's seat-filler network's town seats playing as the rule
  bots on day 1 where three or more other seats have accused one seat that no claimant called
  black (a team framing a townsperson: issue 45); every pair without online-10's filler is the
  same games;
- version 17: version 16 with sport-10's, club-10's and online-10's seat-filler networks' town
  seats playing as the rule bots where another seat has claimed more checks than nights have
  passed (a liar: issue 45); every pair without those fillers is the same games;
- version 18: version 17 with online-10's seat-filler network trained two links further under
  its layer, against the zoo's training styles (issue 45); every pair without online-10's
  filler is the same games;
- version 19: version 18 with sport-10's seat-filler network's town seats handed to the rule
  bots where another seat has claimed a check on day 1 alone (not on later days: issue 45);
  every pair without sport-10's filler is the same games;
- version 20: version 19 with online-10's seat-filler network's town seats handed to the rule
  bots after day 1 once a vote has put out a seat that three or more other seats accused and
  no claimant called black (a framed townsperson: issue 45); every pair without online-10's
  filler is the same games.

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

# task version -> the era its games are played in
TASK_ERAS = {2: 1, 3: 2, **{version: 3 for version in range(4, 21)}}  # 4-20: one era


def task_knobs(variant: str, version: int) -> dict[str, Any]:
    """Return the knobs that give a task of `version` the rules it was defined under."""
    era = TASK_ERAS.get(version)
    return earlier_rules(variant, era) if era is not None else {}


def fields_digest(fields: dict[str, Any]) -> str:
    """Return the first 16 hex digits of the SHA-256 of `fields` as canonical JSON: how a
    task's definition is hashed."""
    blob = json.dumps(fields, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


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

    def play_knobs(self) -> dict[str, object]:
        """Return the knobs the task's games are played with.

        A task keeps the rules it was defined under, so its scores stay comparable: version 2
        the rules before the seeds were read again (issue 16), version 3 the rules before their
        second reading (issue 25) changed some variants' defaults; version 4 names version 3's
        rules in its own knobs, and plays the rules before the third reading (issue 47), as
        version 5 does.
        """
        return {**task_knobs(self.variant, self.version), **dict(self.knobs)}

    def digest(self) -> str:
        """Return a hash of the definition (its opponents' files are pinned apart, with the
        benchmark: `baselines.pins.digest` hashes the definition and those pins)."""
        return fields_digest(asdict(self))


_SIZES = {"sport": 10, "city": 13, "club": 10, "online": 10, "forum": 10, "minimal": 10}
_SEED = 20_261_129

# ---------------------------------------------------------------- version 2
OPPONENTS_V2 = ("rule", "random", "ppo")
TASKS_V2: dict[str, Task] = {
    f"{variant}-{n}": Task(
        name=f"{variant}-{n}",
        variant=variant,
        num_players=n,
        sides=("town", "mafia"),
        opponents=OPPONENTS_V2,
        games=500,
        seed=_SEED,
    )
    for variant, n in _SIZES.items()
}

# ---------------------------------------------------------------- version 3
OPPONENTS = ("rule", "random", "ppo", "league")


def _tables(version: int, opponents: tuple[str, ...], era: int | None = None) -> dict:
    """Every table of `_SIZES` as a task of `version` (from 3: 500 games a pair, the lockstep),
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
        )
        for variant, n in _SIZES.items()
    }


TASKS_V3: dict[str, Task] = _tables(3, OPPONENTS)

# ---------------------------------------------------------------- version 4
OPPONENTS_V4 = ("rule", "random", "ppo", "league", "filler")
# Version 4 plays under version 3's rules (era 2, before issue 25's second reading), which the
# pinned ppo, league and filler opponents were trained for: they are written into the task's
# knobs, so the definition (and its digest) says so.
TASKS_V4: dict[str, Task] = _tables(4, OPPONENTS_V4, era=2)

# ---------------------------------------------------------------- version 5
# Version 4's tables, opponents and rules; the filler's file of sport-10 is another
# (`baselines.pins.PINS_V5`), so its pinned digest is another.
TASKS_V5: dict[str, Task] = _tables(5, OPPONENTS_V4, era=2)

# ---------------------------------------------------------------- version 6
# Version 5's tables, opponents and rules; sport-10's and club-10's filler files are others
# (`baselines.pins.PINS_V6`), and city-13's filler seats the rule bots on the maniac's side as
# well as the town's (`baselines.pins.SEATED_V6`), so those three digests are others.
TASKS_V6: dict[str, Task] = _tables(6, OPPONENTS_V4, era=2)

# ---------------------------------------------------------------- version 7
# Version 6's tables, opponents and rules; forum-10's filler file is another
# (`baselines.pins.PINS_V7`) and seats the rule bots on the maniac's side
# (`baselines.pins.SEATED_V7`), so that digest is another.
TASKS_V7: dict[str, Task] = _tables(7, OPPONENTS_V4, era=2)

# ---------------------------------------------------------------- version 8
# Version 7's tables, opponents and rules; minimal-10's filler file is another
# (`baselines.pins.PINS_V8`), so that digest is another.
TASKS_V8: dict[str, Task] = _tables(8, OPPONENTS_V4, era=2)

# ---------------------------------------------------------------- version 9
# Version 8's tables, opponents and rules; city-13's and online-10's filler files are others
# (`baselines.pins.PINS_V9`), so those digests are others.
TASKS_V9: dict[str, Task] = _tables(9, OPPONENTS_V4, era=2)

# ---------------------------------------------------------------- version 10
# Version 9's tables, opponents and rules; club-10's filler file is another
# (`baselines.pins.PINS_V10`), so that digest is another.
TASKS_V10: dict[str, Task] = _tables(10, OPPONENTS_V4, era=2)

# ---------------------------------------------------------------- version 11
# Version 10's tables, opponents and rules; forum-10's and club-10's filler files are others
# (`baselines.pins.PINS_V11`), so those digests are others.
TASKS_V11: dict[str, Task] = _tables(11, OPPONENTS_V4, era=2)

# ---------------------------------------------------------------- version 12
# Version 11's tables, opponents and rules; sport-10's, club-10's, online-10's and forum-10's
# filler files are others (`baselines.pins.PINS_V12`), so those digests are others.
TASKS_V12: dict[str, Task] = _tables(12, OPPONENTS_V4, era=2)

# ---------------------------------------------------------------- version 13
# Version 12's tables, opponents and rules; online-10's filler file is another
# (`baselines.pins.PINS_V13`), so that digest is another.
TASKS_V13: dict[str, Task] = _tables(13, OPPONENTS_V4, era=2)

# ---------------------------------------------------------------- version 14
# Version 13's tables, opponents and rules; sport-10's, club-10's and forum-10's filler files
# are others (`baselines.pins.PINS_V14`), so those digests are others.
TASKS_V14: dict[str, Task] = _tables(14, OPPONENTS_V4, era=2)

# ---------------------------------------------------------------- version 15
# Version 14's tables, opponents and rules; sport-10's and online-10's filler files are others
# (`baselines.pins.PINS_V15`), so those digests are others.
TASKS_V15: dict[str, Task] = _tables(15, OPPONENTS_V4, era=2)

# ---------------------------------------------------------------- version 16
# Version 15's tables, opponents and rules; online-10's filler file is another
# (`baselines.pins.PINS_V16`), so that digest is another.
TASKS_V16: dict[str, Task] = _tables(16, OPPONENTS_V4, era=2)

# ---------------------------------------------------------------- version 17
# Version 16's tables, opponents and rules; sport-10's, club-10's and online-10's filler files
# are others (`baselines.pins.PINS_V17`), so those digests are others.
TASKS_V17: dict[str, Task] = _tables(17, OPPONENTS_V4, era=2)

# ---------------------------------------------------------------- version 18
# Version 17's tables, opponents and rules; online-10's filler file is another
# (`baselines.pins.PINS_V18`), so that digest is another.
TASKS_V18: dict[str, Task] = _tables(18, OPPONENTS_V4, era=2)

# ---------------------------------------------------------------- version 19
# Version 18's tables, opponents and rules; sport-10's filler file is another
# (`baselines.pins.PINS_V19`), so that digest is another.
TASKS_V19: dict[str, Task] = _tables(19, OPPONENTS_V4, era=2)

# ---------------------------------------------------------------- version 20
# Version 19's tables, opponents and rules; online-10's filler file is another
# (`baselines.pins.PINS_V20`), so that digest is another.
TASKS_V20: dict[str, Task] = _tables(20, OPPONENTS_V4, era=2)

TASKS_BY_VERSION: dict[int, dict[str, Task]] = {
    2: TASKS_V2,
    3: TASKS_V3,
    4: TASKS_V4,
    5: TASKS_V5,
    6: TASKS_V6,
    7: TASKS_V7,
    8: TASKS_V8,
    9: TASKS_V9,
    10: TASKS_V10,
    11: TASKS_V11,
    12: TASKS_V12,
    13: TASKS_V13,
    14: TASKS_V14,
    15: TASKS_V15,
    16: TASKS_V16,
    17: TASKS_V17,
    18: TASKS_V18,
    19: TASKS_V19,
    20: TASKS_V20,
}


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
        return fields_digest(asdict(self))


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
    "TASKS",
    "TASKS_BY_VERSION",
    "TASKS_V2",
    "TASKS_V3",
    "TASKS_V4",
    "TASKS_V5",
    "TASKS_V6",
    "TASKS_V7",
    "TASKS_V8",
    "TASKS_V9",
    "TASKS_V10",
    "TASKS_V11",
    "TASKS_V12",
    "TASKS_V13",
    "TASKS_V14",
    "TASKS_V15",
    "TASKS_V16",
    "TASKS_V17",
    "TASKS_V18",
    "TASKS_V19",
    "TASKS_V20",
    "TASK_ERAS",
    "TINY_TASKS",
    "Task",
    "TinyTask",
    "get_task",
    "get_tiny_task",
    "task_knobs",
]
