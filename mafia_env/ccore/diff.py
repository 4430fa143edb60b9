"""The differential check of the C core against the Python engine, move by move.

`play_both(rules, n, seed, rng)` plays one game on both engines with the same seed and the
same random choices (legal actions and, now and then, a moderator's foul, a removal, a remark
of table talk, a timeout's default action or an illegal move that stops the game) and
compares after every move: who acts and in what turn, the mask, the acting seat's
observation (every seat's at the start, at each new day and night, at the end, or at every
move with ``all_seats``), every event logged, who is alive, the fouls, the result and the
rewards. It returns None, or a `Mismatch` that names the first move where the two differ and
what differs. tests/ccore/test_ccore.py and scripts/diff_backends.py run it.
`belief_count_tables` does the same for the belief piece the core counts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from mafia_env.actions import ActionLayout
from mafia_env.ccore import new_core
from mafia_env.engine.events import Ev, Outcome
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import SPEECH_TURNS
from mafia_env.engine.rules import KNOBS, Rules
from mafia_env.observe import VectorObserver

_DAY_OR_NIGHT = (int(Ev.DAY), int(Ev.NIGHT), int(Ev.GAME_OVER), int(Ev.TERMINATED))
_TEAM_OF = {Outcome.TOWN: 0, Outcome.MAFIA: 1, Outcome.MANIAC: 2}


class EngineError(Exception):
    """The Python engine itself failed (a knob combination it cannot play): no comparison."""


@dataclass
class Mismatch:
    """Where the two engines first differ: the move (counted from 1), and what differs."""

    variant: str
    n: int
    seed: int
    move: int
    what: str

    def __str__(self) -> str:
        return (
            f"{self.variant} n={self.n} seed={self.seed}: the C core and the Python engine "
            f"differ at move {self.move}: {self.what}"
        )


def rewards_of(game: Game) -> list[float]:
    """Return every seat's terminal reward as the envs give it (0 before the end)."""
    if game.offender >= 0:
        return [-1.0 if s == game.offender else 0.0 for s in range(game.n)]
    if game.winner is None or game.winner is Outcome.DRAW:
        return [0.0] * game.n
    win = _TEAM_OF[game.winner]
    return [1.0 if t == win else -1.0 for t in game.teams]


def _core_rewards(status: tuple, teams: list[int], n: int) -> list[float]:
    winner, offender = status[2], status[3]
    if offender >= 0:
        return [-1.0 if s == offender else 0.0 for s in range(n)]
    if winner < 0 or winner == int(Outcome.DRAW):
        return [0.0] * n
    return [1.0 if t == winner else -1.0 for t in teams]


class _Both:
    """One game on both engines."""

    def __init__(self, rules: Rules, n: int, seed: int, deal: list | None, all_seats: bool):
        self.rules, self.n, self.seed, self.all_seats = rules, n, seed, all_seats
        self.layout = ActionLayout(rules, n)
        self.game = Game(rules, n, seed, deal)
        self.obs = VectorObserver(rules, n)
        self.obs.reset(self.game)
        self.core = new_core(rules, n, 1, log_events=True)
        self.core.start(0, seed, None if deal is None else tuple(int(r) for r in deal))
        size = self.obs.layout.size
        self.a = np.empty(size, dtype=np.float32)
        self.b = np.empty(size, dtype=np.float32)
        self.teams = [int(t) for t in self.game.teams]
        self.seen = 0  # events compared so far
        self.move = 0

    def differ(self, what: str) -> Mismatch:
        return Mismatch(self.rules.name, self.n, self.seed, self.move, what)

    def compare(self, full: bool) -> Mismatch | None:
        game, core, n = self.game, self.core, self.n
        st = core.status(0)
        turn = -1 if game.turn is None else int(game.turn)
        if (st[0], st[1]) != (game.actor, turn):
            return self.differ(
                f"who acts: core seat {st[0]} turn {st[1]}, engine seat {game.actor} turn {turn}"
            )
        ev_c = core.events(0, self.seen)
        ev_p = game.events[self.seen :]  # tuples of ints (IntEnum kinds compare as ints)
        if ev_c != ev_p:
            ev_p = [tuple(int(x) for x in e) for e in ev_p]
            k = next((i for i, (x, y) in enumerate(zip(ev_c, ev_p, strict=False)) if x != y), None)
            k = min(len(ev_c), len(ev_p)) if k is None else k
            got = ev_c[k] if k < len(ev_c) else "(none)"
            want = ev_p[k] if k < len(ev_p) else "(none)"
            return self.differ(f"event {self.seen + k}: core {got}, engine {want}")
        full = full or self.all_seats or any(e[0] in _DAY_OR_NIGHT for e in ev_p)
        self.seen += len(ev_p)
        facts = core.facts(0)
        if facts["fouls"] != game.fouls or facts["alive"] != [int(x) for x in game.alive]:
            return self.differ("the fouls or who is alive")
        winner = -1 if game.winner is None else int(game.winner)
        if (st[2], st[3], bool(st[4]), st[5]) != (winner, game.offender, game.truncated, game.day):
            return self.differ(f"the result or the day: core {st[2:6]}")
        if _core_rewards(st, self.teams, n) != rewards_of(game):
            return self.differ("the rewards")
        if not game.over:
            m_c = core.mask(0)
            m_p = self.layout.shared_mask(game)
            if m_c != m_p.tobytes():
                m_c = np.frombuffer(m_c, dtype=np.int8)
                where = np.flatnonzero(m_c != m_p)[:5].tolist()
                return self.differ(f"the mask of seat {game.actor} at indices {where}")
        a, b = self.a, self.b
        for seat in range(n) if full else [max(game.actor, 0)]:
            core.observe(0, seat, a)
            self.obs.observe(game, seat, b)
            if a.tobytes() != b.tobytes():  # bit for bit (NaN and -0.0 included)
                idx = np.flatnonzero(a.view(np.uint32) != b.view(np.uint32))[:5]
                named = [_piece(self.obs, int(i)) for i in idx]
                return self.differ(
                    f"seat {seat}'s observation at {named}: core {a[idx].tolist()}, "
                    f"engine {b[idx].tolist()}"
                )
        return None

    def play(self, rng: random.Random, moderator: float, max_moves: int) -> Mismatch | None:
        game, core = self.game, self.core
        bad = self.compare(True)
        while bad is None and not game.over and self.move < max_moves:
            self.move += 1
            if rng.random() < moderator:
                bad = self.moderate(rng)
                if bad is not None:
                    return bad
            else:
                legal = np.flatnonzero(self.layout.shared_mask(game))
                index = int(legal[rng.randrange(len(legal))])
                game.apply(*self.layout.decoded[index])
                core.apply(0, index)
            bad = self.compare(game.over)
        if bad is None and core.inputs(0) != [tuple(int(v) for v in x) for x in game.inputs]:
            bad = self.differ("the inputs logged")
        return bad

    def moderate(self, rng: random.Random) -> Mismatch | None:
        """A moderator's call, a remark, a timeout's default action or a stopping illegal move."""
        game, core = self.game, self.core
        what, seat = rng.randrange(20), rng.randrange(self.n)
        if what < 10:
            game.foul(seat)
            core.foul(0, seat)
        elif what < 13 and game.alive[seat]:
            game.remove(seat)
            core.remove(0, seat)
        elif what < 17 and game.turn in SPEECH_TURNS:
            game.say("x")
            core.say(0)
        elif what == 19 and rng.random() < 0.1:
            actor = game.actor
            game.terminate(actor)
            core.terminate(0, actor)
        else:  # a timeout: the turn's default action
            act, target, value = game.default_action()
            if core.default_action(0) != (int(act), target, value):
                return self.differ(f"the default action: engine {act!r} {target} {value}")
            game.apply(act, target, value)
            core.apply_action(0, int(act), target, value)
        return None


def play_both(
    rules: Rules,
    n: int,
    seed: int,
    rng: random.Random,
    *,
    deal: list | None = None,
    moderator: float = 0.0,
    all_seats: bool = False,
    max_moves: int = 100_000,
) -> Mismatch | None:
    """Play one seeded random game on both engines; return the first difference, or None.

    `moderator` is the chance, at each move, of a moderator's call instead of a legal action
    (`_Both.moderate`). Where the Python engine itself fails (a knob combination it cannot
    play), this raises `EngineError`.
    """
    both = _Both(rules, n, seed, deal, all_seats)
    try:
        return both.play(rng, moderator, max_moves)
    except (KeyError, IndexError, ValueError, AssertionError) as e:
        raise EngineError(
            f"{rules.name} n={n} seed={seed} move {both.move}: the Python engine failed: {e!r}"
        ) from e


def _piece(obs: VectorObserver, index: int) -> str:
    for name, (off, shape) in obs.layout.offsets.items():
        if off <= index < off + int(np.prod(shape)):
            return f"{name}[{index - off}]"
    return str(index)


def random_knobs(rng: random.Random, k: int = 6) -> dict:
    """Return `k` knobs set at random (any allowed value): the knob sweep of the check."""
    out: dict = {}
    names = sorted(set(KNOBS) - {"illegal_action", "mafia_count"})
    for name in rng.sample(names, k):
        knob = KNOBS[name]
        if knob.sequence:
            words = list(knob.choices)
            rng.shuffle(words)
            out[name] = " ".join(words[: rng.randrange(1, len(words) + 1)])
        elif knob.choices:
            out[name] = rng.choice(knob.choices)
        elif knob.kind is bool:
            out[name] = rng.random() < 0.5
        elif knob.nullable and rng.random() < 0.3:
            out[name] = None
        else:
            lo = knob.minimum or 0
            out[name] = rng.randrange(lo, lo + 5)
    return out


def belief_count_tables(rng: random.Random, tables: int, steps: int, games: int, log=None):
    """The belief piece the C core counts (`Core.count_pieces`, read through `seat_obs.
    LazyBelief`) against the Python engine's, over tables of random knob sets (SPORT, CLUB,
    MINIMAL; `random_knobs`, 4 knobs) the core counts: random legal play of `games` games a
    table for `steps` steps, the acting seats' pieces at every step and every seat's view
    every fifth, bit for bit. Return None, or a line naming the first table and step where the
    two differ; `log(line)` hears of each table checked. tests/belief/test_belief_table.py and
    scripts/diff_belief_count.py run it."""
    import warnings

    from mafia_env.errors import ConfigError
    from mafia_env.seat_obs import vector_env

    done = trial = 0
    while done < tables:
        trial += 1
        variant, n = rng.choice(["sport", "club", "minimal"]), rng.choice([7, 8, 9, 10])
        knobs = random_knobs(rng, 4)
        try:
            with warnings.catch_warnings():  # (a knob of a role the variant does not deal)
                warnings.simplefilter("ignore")
                envs = [
                    vector_env(
                        variant, games, n, seed=trial, belief="deduction", backend=b, **knobs
                    )
                    for b in ("c", "python")
                ]
        except ConfigError:
            continue
        if envs[0]._count is None:  # (a table the core does not count)
            continue
        done += 1
        outs = [e.reset() for e in envs]
        moves = np.random.default_rng(trial)
        every, seats = np.repeat(np.arange(games), n), np.tile(np.arange(n), games)
        for step in range(steps):
            for e in envs:
                e.fill(np.arange(games))
            same = np.array_equal(envs[0].obs, envs[1].obs)
            if same and step % 5 == 0:
                same = np.array_equal(*(e.observe_many(every, seats) for e in envs))
            if not same:
                return f"{variant}-{n} {knobs} (seed {trial}): the pieces differ at step {step}"
            acts = np.array([moves.choice(np.flatnonzero(m)) for m in outs[0][1]])
            outs = [e.step(acts) for e in envs]
        if log is not None:
            log(f"{done}/{tables}: {variant}-{n} {knobs}: no mismatch")
    return None


__all__ = [
    "EngineError",
    "Mismatch",
    "belief_count_tables",
    "play_both",
    "random_knobs",
    "rewards_of",
]
