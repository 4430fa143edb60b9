"""Named benchmark tasks: a variant, a table size and an opponent population, frozen.

A task's definition never changes silently: `Task.digest()` hashes it, and a test pins every
digest. To change a task, add a new version (``sport-10`` stays as it is; a changed protocol
would be ``sport-10-v2``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass


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
    version: int = 1

    def digest(self) -> str:
        """Return a hash of the definition (pinned by the tests)."""
        blob = json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


OPPONENTS = ("rule", "random", "ppo")
_SIZES = {"sport": 10, "city": 13, "club": 10, "online": 10, "forum": 10, "minimal": 10}
TASKS: dict[str, Task] = {
    f"{variant}-{n}": Task(
        name=f"{variant}-{n}",
        variant=variant,
        num_players=n,
        sides=("town", "mafia"),
        opponents=OPPONENTS,
        games=500,
        seed=20_261_129,
    )
    for variant, n in _SIZES.items()
}
