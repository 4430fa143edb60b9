"""The seat-filler: ``load_policy("filler", variant, n)``, the table's default bot.

One network per benchmark task (``baselines/checkpoints/filler/``, configs in
``configs/filler/``), cloned from the best answer the suite knows to each kind of table: in
each cell of the v3 benchmark (opponent and side) the teacher is the bot that wins it most
often, so the clone answers random play as the rule bots do and the networks as the best
network does. Where the clone is worse on one side than the bot it copies there
(`SIDES`: city-13's town, whose teacher is the rule bots in every cell), that bot plays the
side itself: `BySide` hands each row to the policy of the seat's own team.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.observe import ObsLayout
from mafia_env.seating.policies import Policy, reseed

# shipped file -> {side: the bot that plays that side instead of the network}
SIDES: dict[str, dict[str, str]] = {"city-13": {"town": "rule"}}


class BySide:
    """A policy per team: each row goes to the policy of the seat's own team, read from the
    observation's ``role`` piece (the seat's own role, one-hot), else to `default`."""

    observes = "vector"

    def __init__(self, spec: GameSpec, default: Policy, **by_team: Policy):
        bad = sorted(set(by_team) - set(TEAM_NAMES))
        if bad:
            raise ConfigError(f"BySide names no team {bad}; teams: {', '.join(TEAM_NAMES)}")
        off, (r,) = ObsLayout.of(spec).offsets["role"]
        self._role = slice(off, off + r)
        self._team_of = np.array([int(role.team) for role in spec.roles], dtype=np.int64)
        self.default = default
        self.policies = [by_team.get(name, default) for name in TEAM_NAMES]
        self.obs_options = getattr(default, "obs_options", None)

    def _team(self, obs: np.ndarray) -> np.ndarray:
        return self._team_of[np.argmax(obs[..., self._role], axis=-1)]

    def act(self, obs: Any, mask: np.ndarray) -> int:
        return self.policies[int(self._team(np.asarray(obs)))].act(obs, mask)

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        teams = self._team(obs)
        out = np.empty(len(obs), dtype=np.int64)
        for t in np.unique(teams).tolist():
            rows = teams == t
            out[rows] = self.policies[t].act_batch(obs[rows], masks[rows])
        return out

    def _distinct(self) -> list[Policy]:
        return list({id(p): p for p in self.policies}.values())

    def seed(self, seed: int) -> None:
        """Restart every policy's random stream (each its own, from `seed`)."""
        for i, p in enumerate(self._distinct()):
            reseed(p, seed + 7919 * i)

    def __copy__(self) -> BySide:
        """A seat's copy: the networks shared, each policy's random stream its own."""
        other = object.__new__(BySide)
        other.__dict__.update(self.__dict__)
        copies = {id(p): copy.copy(p) for p in self._distinct()}
        other.policies = [copies[id(p)] for p in self.policies]
        other.default = copies[id(self.default)]
        return other


def load_filler(
    variant: str = "sport",
    num_players: int | None = None,
    seed: int = 0,
    spec: GameSpec | None = None,
    **options: Any,
) -> Policy:
    """``filler``: the seat-filler shipped for the variant and table size, the table's default
    bot: ``baselines/checkpoints/filler/V-N.pt``, else ``filler/V.pt`` (`SIDES` applied). A
    file that records a layer plays under it (sport-10's: `baselines.belief_talk`); option
    ``bare`` plays the network alone, ``file`` an earlier version's file (`baselines.pins`)."""
    from pathlib import Path

    from baselines.ppo.checkpoint import load_shipped_policy
    from baselines.rule import RulePolicy
    from baselines.shipped import shipped_checkpoint

    net = load_shipped_policy(variant, num_players, seed, kind="filler", spec=spec, **options)
    file = options.get("file") or shipped_checkpoint(variant, num_players, "filler")
    sides = SIDES.get(Path(file).stem)
    if not sides:
        return net
    table = spec if spec is not None else GameSpec.make(variant, num_players)
    bots = {"rule": lambda: RulePolicy(spec=table, seed=seed)}
    return BySide(table, net, **{side: bots[name]() for side, name in sides.items()})


__all__ = ["SIDES", "BySide", "load_filler"]
