"""The table's deduction counted from the deaths alone, where the public events show nothing else.

At a table of civilians, a sheriff, the mafia and a don (no doctor, putana or maniac, no hunt)
the engine reads the deal in public in three places only: a death shows the card where the
rules show every card (`reveal_on_death="all"`), a night's victim is of the mafia only where
its whole team alive could have shot him (`shot_targets`: he may shoot himself, and his
teammates may shoot him or he is alone; MINIMAL's never, SPORT's may be), and after each death
(a vote's, a night's, a foul's) the win check ends the game or lets it go on, by the teams left
alive. The don's checks and the sheriff's are a seat's own facts, not the table's.
Everything else the table sees (speeches, nominations, ballots, a miss where the mafia may hold
fire) any deal plays alike. So the table's deals are every deal that passes those tests, and
`Counted` keeps them by reading each public event once: no reference world, no search.

`countable` names the rules where this holds; elsewhere the table is the `Tracker`'s. An event
the count does not expect (a forfeit, a hunt's victim) hands the table to a `Tracker` made then,
which reads the game from its start. tests/belief/test_belief_count.py checks the count against
the table's `Tracker`, deal by deal, at every move of seeded games of both rule sets and their
knobs; tests/belief/test_belief_table.py checks every seat's piece against its own tracker.
"""

from __future__ import annotations

import weakref

import numpy as np

from mafia_env.belief.deals import DealSpace
from mafia_env.belief.track import TABLE, Tracker
from mafia_env.engine.events import PUBLIC, Cause, Ev, Outcome
from mafia_env.engine.game import Game
from mafia_env.engine.roles import Role, Team
from mafia_env.engine.rules import Rules
from mafia_env.engine.spec import GameSpec

_COUNTED_ROLES = frozenset({Role.CIVILIAN, Role.SHERIFF, Role.MAFIA, Role.DON})
_ELIMINATED, _REVEAL, _OVER = int(Ev.ELIMINATED), int(Ev.REVEAL), int(Ev.GAME_OVER)
_TALK = int(Ev.TALK)
_DRAW = int(Outcome.DRAW)
# the causes of a death the count reads: a vote, a foul, the moderator's removal (blind to the
# deal) and the mafia's shot (announced plainly); any other hands the table to a Tracker
_BLIND = frozenset({int(Cause.VOTE), int(Cause.FOUL), int(Cause.REMOVED)})
_SHOT = int(Cause.NIGHT)


def countable(rules: Rules, roles) -> bool:
    """Whether the table's deduction of a game of `rules` dealt `roles` is the count's (module
    docstring): no role but civilians, sheriffs, mafia and dons, no hunt; the mafia's shot one
    unanimous choice that may be held (a miss shows nothing) and whose split is a miss, announced
    plainly; and every card shown at death, or none."""
    return (
        set(roles) <= _COUNTED_ROLES
        and not rules.hunt
        and rules.mafia_kill == "unanimous"
        and rules.mafia_pass
        and rules.mafia_split == "miss"
        and rules.mafia_no_number == "miss"
        and rules.night_announce == "plain"
        and rules.reveal_on_death in ("all", "none")
    )


def hands_over(event: tuple) -> bool:
    """Whether `event` is one the count does not read (a death of a cause other than a vote, a
    foul, a removal or the mafia's shot: a forfeit, the hunt), which hands the table to a
    `Tracker` (`Counted.update`)."""
    return (
        event[0] == _ELIMINATED
        and event[4] == PUBLIC
        and event[3] not in _BLIND
        and event[3] != _SHOT
    )


def _outcomes(rules: Rules, n: int) -> np.ndarray:
    """The win check of `rules` by the town and the mafia alive: int [n + 1, n + 1], the
    outcome (-1: the game goes on); made once per rules and size."""

    def build(_spec: GameSpec) -> np.ndarray:
        table = np.full((n + 1, n + 1), -1, dtype=np.int8)
        for town in range(n + 1):
            for black in range(n + 1 - town):
                won = rules.winner(town, black, 0)
                table[town, black] = -1 if won is None else int(won)
        return table

    return GameSpec.of(rules, n).cached(_outcomes, build)


def _teams(space: DealSpace, deals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bool [D, n] each: the seats of the mafia team and of the town in each of `deals`."""
    team = space.team_of[deals.astype(np.intp)]
    return team == int(Team.MAFIA), team == int(Team.TOWN)


def _table_deals(space: DealSpace) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every deal of the table, and `_teams` of them: made once per rules and size."""

    def build(_spec: GameSpec) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        deals = space.enumerate(space.allowed_matrix(None))
        return (deals, *_teams(space, deals))

    return GameSpec.of(space.rules, space.n).cached(_table_deals, build)


def core_table(rules: Rules, n: int) -> tuple[np.ndarray, ...]:
    """The table of `rules` at `n` seats as the C core's count reads it (`Core.count_pieces`,
    ccore/src/count.c: this module's tests and `deal_constraints`, in C): every deal (role
    indices), each seat's team in it, the win check, each role's index, the mafia's roles, and
    (deals, roles, every shot possible, no member shot, don_known, the don's and the sheriff's
    index); made once per rules and size."""

    def build(_spec: GameSpec) -> tuple[np.ndarray, ...]:
        space = DealSpace.of(rules, n)
        deals, black, town = _table_deals(space)
        index = np.full(len(Role), -1, dtype=np.int8)
        for role, i in space.index.items():
            index[int(role)] = i
        mode = rules.self_shot
        params = [
            len(deals),
            len(space.roles),
            mode == "always" and rules.mafia_target_team,
            mode == "never",
            rules.don_known,
            space.index.get(Role.DON, -1),
            space.index.get(Role.SHERIFF, -1),
        ]
        return (
            np.ascontiguousarray(deals, dtype=np.int8),
            np.ascontiguousarray(black, dtype=np.uint8),
            np.ascontiguousarray(town, dtype=np.uint8),
            np.ascontiguousarray(_outcomes(rules, n), dtype=np.int8).ravel(),
            index,
            space.mafia_of.astype(np.uint8),
            np.array(params, dtype=np.int32),
        )

    return GameSpec.of(rules, n).cached(core_table, build)


class Counted:
    """The table's deals (`TABLE`'s view) kept by the count (module docstring); what
    `mafia_env.belief.store` reads of a table's `Tracker`: `deals`, `exact`, `version`,
    `current()`, `update()`, `n`, `space`, `seat`."""

    seat = TABLE

    def __init__(self, game: Game, seat: int = TABLE, within: np.ndarray | None = None):
        if seat != TABLE:
            raise ValueError(f"the count is the table's view (seat {TABLE}); got seat {seat}")
        self._game = weakref.ref(game)
        self._within = within
        self.rules, self.n = game.rules, game.n
        self.space = space = DealSpace.of(game.rules, game.n)
        # (the Tracker's list, in its order)
        if within is None:
            self._deals, self._black, self._town = _table_deals(space)
        else:
            self._deals = space.enumerate(space.allowed_matrix(None) & within)
            self._black, self._town = _teams(space, self._deals)
        self.live = np.ones(len(self._deals), dtype=bool)
        # the town and the mafia alive in each deal (the win check's numbers), kept by death
        self._n_town = self._town.sum(axis=1, dtype=np.intp)
        self._n_black = self._black.sum(axis=1, dtype=np.intp)
        self._version = 0
        self.ref = None  # (no reference world: `store._Table.night` hands such seats theirs)
        self.tracker: Tracker | None = None  # where the count met what it does not read
        self._cursor = 0
        self._alive = np.ones(self.n, dtype=bool)
        self._check = False  # a run of deaths read: the win check follows it
        self._outcomes = _outcomes(self.rules, self.n)  # (the rules' win check, shared)
        self.update()

    def update(self) -> bool:
        """Read the public events logged since the last call; return whether the kept deals
        may have changed."""
        if self.tracker is not None:
            return self.tracker.update()
        g = self._game()
        if g is None:
            return False
        before = self._version
        events = g.events
        for i in range(self._cursor, len(events)):
            e = events[i]
            if e[4] != PUBLIC or e[0] == _TALK:
                continue
            kind = e[0]
            if self._check and kind != _ELIMINATED and kind != _REVEAL:
                # the game over the check logged (not the day limit's draw: the check let the
                # game go on, then the next day was past the limit, COMMON-4)
                over = kind == _OVER and not (g.truncated and e[3] == _DRAW)
                self._win(e[3] if over else None)
            if kind == _ELIMINATED:
                if hands_over(e):
                    return self._hand_over(g)
                self._death(e[2], e[3])
            elif kind == _REVEAL:
                self._keep(self._deals[:, e[2]] == self.space.index[Role(e[3])])
        self._cursor = len(events)
        if self._check and not g.over:  # (the check let the game go on: nothing followed yet)
            self._win(None)
        return self._version != before

    @property
    def deals(self) -> np.ndarray:
        """The deals listed (every deal of the table, `within` the team's where given)."""
        return self._deals if self.tracker is None else self.tracker.deals

    @property
    def version(self) -> int:
        """Bumped whenever the kept deals change."""
        return self._version if self.tracker is None else self.tracker.version

    @property
    def exact(self) -> bool:
        return True if self.tracker is None else self.tracker.exact

    def current(self) -> np.ndarray:
        """Which of `deals` are kept now (a night under way shows nothing: no partial view)."""
        if self.tracker is not None:
            return self.tracker.current()
        self.update()
        return self.live

    def _death(self, seat: int, cause: int) -> None:
        if cause == _SHOT:  # (before the death: the team alive that night)
            self._keep(self._shot_by_team(seat))
        if self._alive[seat]:
            self._n_town -= self._town[:, seat]
            self._n_black -= self._black[:, seat]
        self._alive[seat] = False
        self._check = True

    def _shot_by_team(self, seat: int) -> np.ndarray:
        """[D]: the deals in which the mafia alive could all have shot `seat` (`shot_targets`):
        a town seat always; one of their own only where he may shoot himself (`self_shot`:
        always, or alone) and his teammates may shoot him (`mafia_target_team`) or he is alone."""
        mode = self.rules.self_shot
        if mode == "always" and self.rules.mafia_target_team:
            return np.ones(len(self._deals), dtype=bool)
        black = self._black[:, seat]
        if mode == "never":
            return ~black
        return ~black | (self._n_black == 1)  # (or he is alone)

    def _win(self, outcome: int | None) -> None:
        """The win check after a run of deaths: the outcome the game logged (None: it went on)."""
        self._check = False
        won = self._outcomes[self._n_town, self._n_black]
        self._keep(won == (-1 if outcome is None else outcome))

    def _keep(self, ok: np.ndarray) -> None:
        live = self.live & ok
        if not np.array_equal(live, self.live):
            self.live = live
            self._version += 1

    def _hand_over(self, g: Game) -> bool:
        """An event the count does not read: the table's `Tracker` from here on (it reads the
        game from its start)."""
        self.tracker = Tracker(g, TABLE, within=self._within)
        self.tracker.update()
        return True


__all__ = ["Counted", "core_table", "countable", "hands_over"]
