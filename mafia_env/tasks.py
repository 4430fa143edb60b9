"""Named benchmark tasks: a variant, a table size and an opponent population, frozen.

A task's definition never changes silently: `Task.digest()` hashes it, and a test pins every
digest. The ``ppo`` opponent is a file shipped in ``baselines/checkpoints``, so a task also
names that file by its SHA-256 (`Task.ppo_sha256`) and the protocol refuses to run against
another file. Changing a task (or its PPO opponent) means a new `version`, new pins and new
reference scores.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

from mafia_env.engine.rules import earlier_rules


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
    version: int = 2  # 2: the PPO opponents cloned from the rule bots, then fine-tuned
    ppo_sha256: str = ""  # the first 16 hex digits of the shipped checkpoint's SHA-256

    def play_knobs(self) -> dict[str, object]:
        """Return the knobs the task's games are played with.

        A task of version 2 keeps the rules it was defined under (before the seeds' second
        reading changed some variants' defaults, issue 16), so its scores stay comparable.
        """
        earlier = earlier_rules(self.variant) if self.version <= 2 else {}
        return {**earlier, **dict(self.knobs)}

    def digest(self) -> str:
        """Return a hash of the definition (pinned by the tests)."""
        blob = json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


OPPONENTS = ("rule", "random", "ppo")
_PPO_SHA256 = {  # task -> the shipped file its "ppo" opponent loads
    "sport-10": "cae6e47576ce8f4f",  # baselines/checkpoints/sport.pt
    "city-13": "5a1f2312c6c3c751",  # city-13.pt
    "club-10": "9c196aada9ee5697",  # club.pt
    "online-10": "08198687f9a7a2cb",  # online.pt
    "forum-10": "f34d94601de232b9",  # forum.pt
    "minimal-10": "20c8514abff50a4d",  # minimal.pt
}
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
        ppo_sha256=_PPO_SHA256[f"{variant}-{n}"],
    )
    for variant, n in _SIZES.items()
}
