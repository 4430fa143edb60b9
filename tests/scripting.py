"""Scripted games for rule tests: seats are the numbers people see (1..n)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import mafia_env
from mafia_env.engine.events import Ev
from mafia_env.engine.kinds import NIGHT_TURNS, Act

NIGHT_PHASES = tuple(t.name.lower() for t in NIGHT_TURNS)
SPEECH_PHASES = ("speech", "last_word", "tie_speech", "monologue")


# the SPORT table of the rule tests: sheriff 1, mafia 4 and 8, don 6, the rest civilians
SPORT_DEAL = [
    "sheriff",
    "civilian",
    "civilian",
    "mafia",
    "civilian",
    "don",
    "civilian",
    "mafia",
    "civilian",
    "civilian",
]


class Table:
    """A game with a fixed deal, driven seat by seat."""

    def __init__(
        self, variant: str, roles: list[str], seed: int = 0, skip_zero_night: bool = True, **knobs
    ):
        """Deal and start; the zero night's turns (the don's, ONLINE-N1; the mafia's meeting,
        SPORT-N3) are passed unless told not to."""
        self.env = mafia_env.env(variant, len(roles), roles=roles, **knobs)
        self.env.reset(seed=seed)
        self.game = self.env.unwrapped.game
        while skip_zero_night and self.game.day == 0 and self.phase in ("mafia_kill", "meeting"):
            self.act(self.actor, "pass")

    @property
    def actor(self) -> int:
        """The acting seat (1-based), 0 once the game is over."""
        return self.game.actor + 1

    @property
    def phase(self) -> str:
        return self.env.phase

    def act(self, seat: int, kind: str, target: int | None = None, value: str | None = None):
        """Have `seat` take an action; fail loudly if it is not his turn or not legal.

        Kind "say" adds table talk (`value` is the text) to the seat's speech.
        """
        assert self.actor == seat, (
            f"expected player {seat} to act, but {self.actor} acts ({self.phase})"
        )
        if kind == "say":
            self.env.say(f"player_{seat}", value)
            return
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
        self,
        acts: dict[int, list[tuple]] | None = None,
        answers: dict[int, str] | None = None,
        stop_phase: str = "vote",
        discussion: bool = True,
        gestures: dict[int, str] | None = None,
    ) -> None:
        """Play today's speeches: each seat in `acts` does its acts, then ends the speech.

        A seat asked a question answers from `answers` ("dont_know" if absent); a listener
        offered a gesture (ONLINE-D6) shows the one `gestures` gives him (once), else keeps
        his hands still; with `discussion`, every seat passes in the general discussion after
        the round (ONLINE-D5).
        """
        pending = {s: list(a) for s, a in (acts or {}).items()}
        answers = dict(answers or {})
        gestures = dict(gestures or {})
        phases = (*SPEECH_PHASES, "answer", "gesture", *(("discussion",) if discussion else ()))
        while not self.game.over and self.phase in phases:
            seat = self.actor
            if self.phase == "answer":
                self.act(seat, "answer", value=answers.pop(seat, "dont_know"))
                continue
            if self.phase == "gesture":
                shown = gestures.pop(seat, None)
                self.act(seat, "answer", value=shown) if shown else self.act(seat, "pass")
                continue
            todo = pending.get(seat)
            if todo:
                self.act(seat, *todo.pop(0))
                if not todo:
                    del pending[seat]
                continue
            self.act(seat, "pass")
        assert not pending, f"seats {sorted(pending)} never spoke"
        assert not answers, f"seats {sorted(answers)} were never asked"

    def naming(self, names: dict[int, int]) -> None:
        """Play a nomination round (CLUB-E1): each seat names the seat given."""
        while not self.game.over and self.phase == "naming":
            self.act(self.actor, "nominate", names[self.actor])

    def vote(self, ballots: dict[int, int | None]) -> None:
        """Play one voting round: each seat votes as given (None: no vote); absent seats pass.

        In a car-crash round a truthy value votes yes. In an open count (CLUB-E7, ONLINE-V7)
        a seat raises its hand at the count of the nominee it votes for and waits at the others.
        """
        round_phase = self.phase
        assert round_phase in ("vote", "crash_vote", "open_vote"), f"no vote now ({round_phase})"
        while not self.game.over and self.phase == round_phase:
            seat = self.actor
            choice = ballots.get(seat)
            if self.phase == "crash_vote":
                self.act(seat, "vote_yes" if choice else "vote_no")
            elif choice is None or (self.phase == "open_vote" and choice != self.counted):
                self.act(seat, "pass")
            else:
                self.act(seat, "vote", choice)

    @property
    def counted(self) -> int:
        """The nominee (1-based) whose votes are being counted in an open count (0: none)."""
        v = self.game.vote
        return v.candidates[v.counted] + 1 if v.counted >= 0 else 0

    def night(self, actions: dict[int, int | tuple | list | None]) -> list[tuple[str, int]]:
        """Play the night; return its turns as (phase, seat).

        Each seat's value is a target (its role's `night` action on every turn of his that
        night, as the don's shot and check), None (pass), a ``(kind, target)`` act, or a list
        of those for the seat's successive turns (an executor after the shot, reveal_don
        before it). A turn whose act is not the next
        planned one passes (the doctor's hunt turn before his heal); a turn with no plan that
        cannot be passed takes its default action (the lowest legal target).
        """
        plan: dict[int, list] = {}
        repeat: dict[int, tuple] = {}
        for seat, value in actions.items():
            if isinstance(value, list):
                plan[seat] = [("night", v) if isinstance(v, int) else v for v in value]
            elif value is not None:
                repeat[seat] = ("night", value) if isinstance(value, int) else value
        turns = []
        while not self.game.over and self.game.turn is not None and self.phase in NIGHT_PHASES:
            seat = self.actor
            turns.append((self.phase, seat))
            todo = plan.get(seat)
            step = todo[0] if todo else repeat.get(seat)
            kinds = self.mask_kinds()
            if step is not None and step[0] not in kinds and "pass" in kinds:
                step = None  # not this turn's act (a doctor's heal at his hunt turn): pass
            elif todo:
                todo.pop(0)
            if step is None and "pass" not in kinds:
                self.default()  # a turn that cannot be passed: its first legal target
            elif step is None:
                self.act(seat, "pass")
            else:
                self.act(seat, *step)
        return turns

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

    def events(self, kind) -> list[tuple]:
        """Return the game's events of one kind."""
        return [e for e in self.game.events if e[0] == kind]

    def left(self) -> list[tuple[int, int]]:
        """Return who left so far, in order, as (seat 1-based, Cause)."""
        return [(e[2] + 1, e[3]) for e in self.game.events if e[0] == Ev.ELIMINATED]

    def obs(self, seat: int) -> dict:
        """Return `seat`'s observation as named views."""
        vec = self.env.observe(f"player_{seat}")["observation"]
        return self.env.unwrapped.obs_layout.views(vec)

    def public_log(self) -> str:
        return "\n".join(mafia_env.narrate.narrate(self.game.events))


def to_day_one(env):
    """Pass the zero night's turns (the mafia's meeting, SPORT-N3; the don's, ONLINE-N1): the
    env stands at day 1's first turn, as the game opened before those turns."""
    game = env.unwrapped.game
    while game.day == 0 and not game.over:
        env.step(env.unwrapped.action_id("pass"))
    return env


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


def _visible(game, seat: int, start: int, out: list) -> int:
    """Append the events from `start` on that `seat` saw to `out`; return the new cursor."""
    events = game.events
    for e in events[start:]:
        if e[4] >> seat & 1:  # PUBLIC is -1: every bit set
            out.append(e)
    return len(events)


def compare_views(
    variant: str, deal_a: list[str], deal_b: list[str], seat: int, seed: int, rng, **knobs
) -> tuple[int, int]:
    """Play two games with the same seed and random actions, deals A and B; while every
    event `seat` saw is the same in both, assert that his observation and mask are too.

    Hidden night turns may come in another order under another deal, so only moments where
    `seat` acts in both games or in neither are compared. Return (moments compared, of which
    with different actors).
    """
    n = len(deal_a)
    a = mafia_env.env(variant, n, roles=deal_a, **knobs)
    b = mafia_env.env(variant, n, roles=deal_b, **knobs)
    a.reset(seed=seed)
    b.reset(seed=seed)
    ga, gb = a.unwrapped.game, b.unwrapped.game
    me, agent = seat - 1, f"player_{seat}"
    seen_a: list = []
    seen_b: list = []
    ca = cb = compared = differing = 0
    while True:
        ca = _visible(ga, me, ca, seen_a)
        cb = _visible(gb, me, cb, seen_b)
        if seen_a != seen_b:
            break
        if (ga.actor == me) == (gb.actor == me):
            oa, ob = a.observe(agent), b.observe(agent)
            assert np.array_equal(oa["observation"], ob["observation"]), (variant, seed)
            assert np.array_equal(oa["action_mask"], ob["action_mask"]), (variant, seed)
            compared += 1
            differing += ga.actor != gb.actor
        if ga.over or gb.over:
            break
        action = int(rng.choice(np.flatnonzero(a.observe(a.agent_selection)["action_mask"])))
        if not b.observe(b.agent_selection)["action_mask"][action]:
            break
        a.step(action)
        b.step(action)
    return compared, differing
