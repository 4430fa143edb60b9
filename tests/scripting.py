"""Scripted games for rule tests: seats are the numbers people see (1..n)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import mafia_env
from mafia_env.engine.game import Act


class Table:
    """A game with a fixed deal, driven seat by seat."""

    def __init__(self, variant: str, roles: list[str], seed: int = 0, **knobs):
        self.env = mafia_env.env(variant, len(roles), roles=roles, **knobs)
        self.env.reset(seed=seed)
        self.game = self.env.unwrapped.game

    @property
    def actor(self) -> int:
        """The acting seat (1-based), 0 once the game is over."""
        return self.game.actor + 1

    @property
    def phase(self) -> str:
        return self.env.phase

    def act(self, seat: int, kind: str, target: int | None = None, value: str | None = None):
        """Have `seat` take an action; fail loudly if it is not his turn or not legal."""
        assert self.actor == seat, (
            f"expected player {seat} to act, but {self.actor} acts ({self.phase})"
        )
        index = self.env.action_id(kind, target, value)
        mask = self.env.observe(f"player_{seat}")["action_mask"]
        assert mask[index], (
            f"{self.env.describe_action(index)} is not legal for {seat} ({self.phase})"
        )
        self.env.step(index)

    def default(self) -> None:
        """The acting player does nothing: pass where he may, else the turn's default."""
        act, target, value = self.game.default_action()
        self.env.step(self.env.layout.encode(act, target, value))

    def until(self, stop: Callable[[Table], bool], limit: int = 10_000) -> None:
        """Play default actions until `stop(self)` holds (or the game ends)."""
        for _ in range(limit):
            if self.game.over or stop(self):
                return
            self.default()
        raise AssertionError("the stop condition never held")

    def to(self, phase: str, seat: int | None = None) -> None:
        """Play default actions until `seat` (any seat if None) takes a turn of `phase`."""
        self.until(lambda t: t.phase == phase and (seat is None or t.actor == seat))

    def speeches(
        self, acts: dict[int, list[tuple]] | None = None, stop_phase: str = "vote"
    ) -> None:
        """Play today's speeches: each seat in `acts` does its acts, then ends the speech."""
        acts = acts or {}
        while not self.game.over and self.phase in ("speech", "last_word", "tie_speech"):
            seat = self.actor
            for a in acts.pop(seat, []):
                self.act(seat, *a)
                if self.actor != seat:
                    break
            if self.actor == seat and self.phase in ("speech", "last_word", "tie_speech"):
                self.act(seat, "pass")
        assert not acts, f"seats {sorted(acts)} never spoke"

    def vote(self, ballots: dict[int, int | None]) -> None:
        """Play one voting round: each seat votes as given (None: no vote); absent seats pass.

        In a car-crash round a truthy value votes yes.
        """
        round_phase = self.phase
        assert round_phase in ("vote", "crash_vote"), f"no vote now ({round_phase})"
        while not self.game.over and self.phase == round_phase:
            seat = self.actor
            choice = ballots.get(seat)
            if self.phase == "crash_vote":
                self.act(seat, "vote_yes" if choice else "vote_no")
            elif choice is None:
                self.act(seat, "pass")
            else:
                self.act(seat, "vote", choice)

    def night(self, actions: dict[int, int | None]) -> None:
        """Play the night: each acting seat targets the given seat (None or absent: pass)."""
        while (
            not self.game.over
            and self.game.turn is not None
            and self.phase not in ("speech", "last_word", "tie_speech", "vote", "crash_vote")
        ):
            seat = self.actor
            target = actions.get(seat)
            self.act(seat, "pass") if target is None else self.act(seat, "night", target)

    def mask_kinds(self, seat: int | None = None) -> set[str]:
        """Return the kinds of action legal now for `seat` (the actor by default)."""
        seat = seat or self.actor
        mask = self.env.observe(f"player_{seat}")["action_mask"]
        return {Act(self.env.layout.decoded[i][0]).name.lower() for i in np.flatnonzero(mask)}

    def legal_targets(self, kind: str, seat: int | None = None) -> set[int]:
        """Return the seats (1-based) that action `kind` may target now."""
        seat = seat or self.actor
        mask = self.env.observe(f"player_{seat}")["action_mask"]
        out = set()
        for i in np.flatnonzero(mask):
            act, target, _ = self.env.layout.decoded[i]
            if Act(act).name.lower() == kind:
                out.add(target + 1)
        return out

    @property
    def alive(self) -> set[int]:
        return {s + 1 for s in self.game.alive_seats}

    def public_log(self) -> str:
        return "\n".join(mafia_env.narrate.narrate(self.game.events))


def random_playout(env, rng: np.random.Generator, max_steps: int = 100_000):
    """Play one game with uniformly random legal actions; return (moves, final rewards)."""
    moves = 0
    final = {}
    for agent in env.agent_iter(max_steps):
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.any(), f"{agent} has no legal action ({env.phase})"
        env.step(int(rng.choice(np.flatnonzero(mask))))
        moves += 1
    return moves, final
