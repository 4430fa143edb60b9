"""A single-agent Gymnasium view: one seat learns, given policies play every other seat.

    env = mafia_env.single_agent("sport-10", role="sheriff", opponents="rule")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

The observation is the seat's own vector observation and `action_masks()` its legal-action
mask, so sb3-contrib's MaskablePPO works unchanged. The reward is the seat's team reward at
the end (+1, -1, 0 for a draw); once the seat is eliminated the game is played out by the
others within the same step. An action outside the mask ends the game with -1 (knob
``illegal_action`` unset: ``terminate``, PettingZoo's classic convention, which Gymnasium's
``check_env`` needs) unless another mode is given; each is counted in ``info["illegal"]``.
A copy made by ``pickle`` or ``copy.deepcopy`` deals its own next games (see `mafia_env.aec`).
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np

from mafia_env.aec import MafiaEnv
from mafia_env.engine.roles import Role, role_from_name
from mafia_env.errors import ConfigError
from mafia_env.illegal import illegal_mode
from mafia_env.seating.games import Seating, play_until
from mafia_env.seating.policies import Policy, RandomPolicy, load_policy, reseed
from mafia_env.tasks import TASKS


def _resolve(opponent: Any, variant: Any, n: int, seed: int) -> Policy:
    """Return a policy object: the opponent itself, or the policy its name loads."""
    if opponent is None:
        return RandomPolicy(seed=seed)
    if isinstance(opponent, str | os.PathLike):
        return load_policy(opponent, variant=variant, num_players=n, seed=seed)
    return opponent


class SingleAgentEnv(gym.Env):
    """One seat of a Mafia table as a Gymnasium environment."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's convention)

    def __init__(
        self,
        variant: str,
        num_players: int | None = None,
        seat: int | None = None,
        role: str | None = None,
        opponents: Any = None,
        render_mode: str | None = None,
        **knobs: Any,
    ):
        self.aec = MafiaEnv(variant, num_players, render_mode=render_mode, **knobs)
        self.aec.illegal_action = illegal_mode(self.aec.rules, "single")
        n = self.aec.n
        variant = self.aec.rules.name
        table = self.aec.spec  # the opponents load for the table's spec: its knobs in force
        if seat is not None and not (isinstance(seat, int) and 1 <= seat <= n):
            raise ConfigError(f"seat must be a seat number 1..{n}; got {seat!r}")
        self.role: Role | None = None
        if role is not None:
            try:
                self.role = role_from_name(role)
            except ValueError as e:
                raise ConfigError(str(e)) from None
            if self.role not in self.aec.rules.role_counts(n):
                allowed = ", ".join(r.label for r in self.aec.rules.role_counts(n))
                raise ConfigError(f"no {role} at a {n}-seat {variant} table; roles: {allowed}")
        self.fixed_seat = seat
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space("player_1")["observation"]
        self.action_space = self.aec.action_space("player_1")
        if isinstance(opponents, Mapping):
            unknown = set(opponents) - set(range(1, n + 1))
            if unknown:
                raise ConfigError(f"opponents keys must be seats 1..{n}; got {sorted(unknown)}")
            seats = {s: _resolve(p, table, n, s) for s, p in opponents.items()}
            self.seating = Seating(_resolve(None, table, n, 0), seats)
        else:
            self.seating = Seating(_resolve(opponents, table, n, 0))
        self.agent = "player_1"
        self._rng = random.Random()

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:  # the opponents' randomness follows the seed too
            self._rng = random.Random(seed)
            for i, policy in enumerate([self.seating.default, *self.seating.seats.values()]):
                reseed(policy, seed + i)
        aec = self.aec
        seat = self.fixed_seat or self._rng.randint(1, aec.n)
        self.agent = f"player_{seat}"
        aec.reset(seed=self._rng.getrandbits(63))
        if self.role is not None and aec.game.roles[seat - 1] is not self.role:
            deal = list(aec.game.roles)  # give the seat the role by swapping it in
            holders = [s for s, r in enumerate(deal) if r is self.role]
            other = holders[self._rng.randrange(len(holders))]
            deal[seat - 1], deal[other] = deal[other], deal[seat - 1]
            aec.deal = deal
            aec._new_game(aec.game_seed)
            aec.deal = None
        self._players = self.seating.players(aec.game)
        self._players[seat - 1] = None  # the learner's seat: the others play until it acts
        return self._play_others()

    def step(self, action: Any):
        aec = self.aec
        if aec.game is None or aec.game.over:
            raise ConfigError("the game is over; call reset()")
        aec.step(action)
        obs, info = self._play_others()
        return obs, self._reward, aec.game.over and not aec.game.truncated, aec.game.truncated, info

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)  # a copy (a vector env's) deals its own next games
        self._rng = random.Random()

    def action_masks(self) -> np.ndarray:
        """Return the seat's legal-action mask as bools (sb3-contrib's MaskablePPO reads it)."""
        return self._mask.astype(bool)

    def render(self) -> str | None:
        return self.aec.render()

    def _play_others(self) -> tuple[np.ndarray, dict]:
        """Let the other seats act until it is this seat's turn or the game is over."""
        aec = self.aec
        game = aec.game
        seat = int(self.agent.split("_")[1]) - 1
        play_until(aec, self._players)
        o = aec.observe(self.agent)
        self._mask = o["action_mask"]
        self._reward = float(aec._cumulative_rewards.get(self.agent, 0.0)) if game.over else 0.0
        return o["observation"], {
            "action_mask": self._mask.copy(),  # the caller's own: the env's row is shared
            "seat": seat + 1,
            "role": game.roles[seat].label,
            "illegal": aec.illegal_counts[self.agent],
        }


def single_agent(
    task_or_variant: Any,
    seat: int | None = None,
    role: str | None = None,
    opponents: Any = None,
    **kwargs: Any,
) -> SingleAgentEnv:
    """Return one seat of a task ("sport-10") or a variant ("sport") as a Gymnasium env."""
    task = TASKS.get(task_or_variant) if isinstance(task_or_variant, str) else None
    if task is None:
        return SingleAgentEnv(
            task_or_variant, kwargs.pop("num_players", None), seat, role, opponents, **kwargs
        )
    if opponents is None:
        opponents = task.opponents[0]
    return SingleAgentEnv(
        task.variant, task.num_players, seat, role, opponents, **{**task.play_knobs(), **kwargs}
    )
