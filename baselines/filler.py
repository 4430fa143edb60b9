"""The seat-filler: ``load_policy("filler", variant, n)``, the table's default bot.

One network per benchmark task (``baselines/checkpoints/filler/``, configs in
``configs/filler/``), cloned from the best answer the suite knows to each kind of table: in
each cell of the v3 benchmark (opponent and side) the teacher is the bot that wins it most
often, so the clone answers random play as the rule bots do and the networks as the best
network does. Where the network is worse on one side than the rule bots (city-13's town, whose
teacher is the rule bots in every cell, since tasks version 6 city-13's maniac, below the rule
bots against 12 of the zoo's styles, and since version 7 forum-10's maniac), they play the
side themselves: `BySide` hands each row to the policy of the seat's own team. Which sides,
per tasks version, is pinned beside the files (`baselines.pins.SEATED_V7`); option ``sides``
overrides it.
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

# the bots that may play a side instead of the network (option ``sides``)
BOTS = ("rule",)


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
    bot: ``baselines/checkpoints/filler/V-N.pt``, else ``filler/V.pt``, with the rule bots on
    the sides the latest tasks version seats them on with that file (`baselines.pins.seated`;
    option ``sides``, {side: bot}, names them instead: ``{}`` the network alone on every side).
    A file that records a layer plays under it (sport-10's: `baselines.belief_talk`); option
    ``bare`` plays the network alone, ``file`` an earlier version's file (`baselines.pins`)."""
    from baselines.pins import latest_seated
    from baselines.ppo.checkpoint import load_shipped_policy
    from baselines.rule import RulePolicy
    from baselines.shipped import shipped_checkpoint

    sides = options.pop("sides", None)
    net = load_shipped_policy(variant, num_players, seed, kind="filler", spec=spec, **options)
    if sides is None:
        sides = latest_seated(
            options.get("file") or shipped_checkpoint(variant, num_players, "filler")
        )
    if not isinstance(sides, dict) or not set(sides.values()) <= set(BOTS):
        raise ConfigError(
            f"filler option sides must map a side to one of {', '.join(BOTS)}; got {sides!r}"
        )
    if not sides:
        return net
    table = spec if spec is not None else GameSpec.make(variant, num_players)
    rule = RulePolicy(spec=table, seed=seed)  # one policy: every side it plays, one stream
    return BySide(table, net, **{side: rule for side in sides})


__all__ = ["BOTS", "BySide", "load_filler"]
