"""Encoders of an agent's view.

`VectorObserver` keeps one float32 row of private facts per seat and one row of public facts,
both updated from the game's events as they happen (never by replaying history). An agent's
observation is its private row followed by the public row, plus a few live facts (whose turn,
what kind of turn) written at observation time. `ObsLayout.views(vector)` gives named,
reshaped views into an observation, in the manner of OpenSpiel's observer "pieces".
"""

from __future__ import annotations

import numpy as np

from mafia_env.engine.events import (
    ANSWER_NAMES,
    Cause,
    Ev,
    FollowsTurns,
    Perceiver,
    seat_sequence,
)
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import Turn, seats
from mafia_env.engine.roles import Role
from mafia_env.engine.rules import Rules
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError

BELIEF_OPTIONS = (None, "deduction")  # the observation option belief= (mafia_env.belief)

PHASES = [t.name.lower() for t in Turn] + ["night", "over"]
CAUSES = int(Cause.REMOVED)  # columns of "eliminated": a removal shares the fouls' column
_TURN = int(Ev.TURN)


class ObsLayout:
    """Names, shapes and offsets of the pieces of a vector observation."""

    def __init__(self, rules: Rules, n: int, belief: str | None = None):
        if belief not in BELIEF_OPTIONS:
            raise ConfigError(
                f"belief={belief!r} is not an observation option; belief is "
                + " or ".join(map(repr, BELIEF_OPTIONS))
            )
        self.belief = belief
        self.spec = spec = GameSpec.of(rules, n)
        r = len(spec.roles)
        self.turns = turns = list(spec.turns)
        self.phases = [x.name.lower() for x in turns] + ["night", "over"]
        t = len(turns)
        night = {Turn.PUTANA, Turn.DOCTOR, Turn.MANIAC, Turn.HUNT, Turn.EXECUTOR} & set(turns)
        extra_causes = (
            rules.night_announce != "plain"
            or Turn.PUTANA in turns
            or Turn.HUNT in turns
            or rules.mafia_split == "forfeit"
            or rules.mafia_no_number == "forfeit"  # CITY-N10
        )
        # pieces a variant cannot fill are left out, so SPORT and MINIMAL keep their size
        optional = {
            "my_night": bool(night) or rules.mafia_see_shots,
            "team_shots": rules.mafia_see_shots,
            "team_executors": Turn.EXECUTOR in turns,
            "blocked": Turn.PUTANA in turns,
            "last_heal": Turn.DOCTOR in turns,
            "self_heals": Turn.DOCTOR in turns,
            "questions": Turn.ANSWER in turns,
            "answers": Turn.ANSWER in turns,
            "named": Turn.NAMING in turns,
            "counting": Turn.OPEN_VOTE in turns,
            "team_plan": Turn.MEETING in turns,
            "gestures": Turn.GESTURE in turns,
            "belief": belief is not None,
        }
        self.private = [
            ("seat", (n,)),  # own seat, one-hot
            ("role", (r,)),  # own role, one-hot
            ("known_roles", (n, r)),  # roles this agent knows privately (teammates)
            ("checks", (n, 2)),  # own check results: [yes, no]
            ("my_turn", (t,)),  # the kind of turn this agent is taking now, one-hot
            ("my_night", (n,)),  # own night target tonight (visit, heal, shot, hunt)
            ("team_shots", (n, n)),  # tonight's mafia shots this agent saw: shooter -> target
            ("team_executors", (n, n)),  # tonight's executor choices seen: chooser -> executor
            ("blocked", (1,)),  # blocked by the putana tonight (CITY-N2)
            ("last_heal", (n,)),  # the doctor's last heal that counts (no repeat, CITY-N7)
            ("self_heals", (1,)),  # the doctor's self-heals used / his limit
            ("team_plan", (n, n)),  # the zero-night meeting's proposals seen: member -> target
        ]
        self.public = [
            ("phase", (t + 2,)),  # the kind of public turn, "night" or "over"
            ("day", (1,)),  # day / day limit
            ("speaker", (n,)),  # who is taking the current public turn
            ("acts_left", (1,)),  # speech acts left in the current speech / K
            ("alive", (n,)),  # 1 while the seat is in the game
            ("eliminated", (n, CAUSES if extra_causes else int(Cause.MAFIA))),  # as announced
            ("fouls", (n,)),  # fouls / 4
            ("revealed", (n, r)),  # roles shown to the table
            ("nominees", (n,)),  # today's nominees: position in nomination order / n
            ("candidates", (n,)),  # who the current or last vote is over
            ("counting", (n,)),  # the nominee whose votes are being counted in the open
            ("votes", (n, n)),  # the latest round's ballots: voter -> candidate
            ("votes_before", (n, n)),  # ballots of earlier rounds, counted / (2 * day limit)
            ("crash", (n, 2)),  # car-crash ballots today: [yes, no]
            ("nominations", (n, n)),  # nominator -> nominee, every day, counted / day limit
            ("claimed_role", (n, r)),  # each player's latest role claim
            ("claimed_check", (n, n, 2)),  # claimer -> target: [red, black]
            ("accused", (n, n)),  # accuser -> target
            ("vouched", (n, n)),  # voucher -> target
            ("questions", (n, r)),  # the latest "do you claim role R?" put to each player
            ("answers", (n, len(ANSWER_NAMES))),  # each player's latest answer
            ("named", (n,)),  # times named in today's nomination round / (n - 1)
            ("gestures", (n, len(ANSWER_NAMES))),  # each player's gesture shown now (ONLINE-D6)
            # option belief="deduction": P(seat holds role), as this agent can deduce (last)
            ("belief", (n, r)),
        ]
        self.private = [p for p in self.private if optional.get(p[0], True)]
        self.public = [p for p in self.public if optional.get(p[0], True)]
        self.offsets: dict[str, tuple[int, tuple[int, ...]]] = {}
        pos = 0
        for name, shape in self.private + self.public:
            self.offsets[name] = (pos, shape)
            pos += int(np.prod(shape))
        # every piece lies in [0, 1]: one-hots, flags, and counts scaled by their maximum
        self.private_size = sum(int(np.prod(s)) for _, s in self.private)
        self.size = pos
        # (name, start, end, shape) within the private row and within the public row
        self.private_spans = [
            (name, off, off + int(np.prod(shape)), shape)
            for name, (off, shape) in self.offsets.items()
            if off < self.private_size
        ]
        self.public_spans = [
            (name, off - self.private_size, off - self.private_size + int(np.prod(shape)), shape)
            for name, (off, shape) in self.offsets.items()
            if off >= self.private_size
        ]

    @classmethod
    def of(cls, spec: GameSpec) -> ObsLayout:
        """Return the observation layout of `spec`, built once per rules, table size and
        observation options (`GameSpec.obs`)."""
        return spec.cached(cls, lambda s: cls(s.rules, s.n, **dict(s.obs)))

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Return named views into `vector` (no copies): ``views(obs)["alive"]``."""
        out = {}
        for name, (off, shape) in self.offsets.items():
            out[name] = vector[off : off + int(np.prod(shape))].reshape(shape)
        return out

    def index(self, name: str) -> int:
        """Return the flat offset of a piece."""
        return self.offsets[name][0]


class VectorObserver(FollowsTurns, Perceiver):
    """Keeps every seat's observation up to date from the game's events, as each seat saw them.

    Public events write the public row, private ones the row of each seat that saw them; the
    facts of the moment (whose turn, what kind, speech acts left) come from the events that
    begin turns (``SPEAK``, ``TURN``), never from the game's live state.
    """

    def __init__(self, rules: Rules, n: int, layout: ObsLayout | None = None):
        self.layout = layout = layout or ObsLayout.of(GameSpec.of(rules, n))
        self.n = n
        self.rules = rules
        self.role_index = {role: i for i, role in enumerate(layout.spec.roles)}
        self._new_rows(np.zeros((n, layout.size), dtype=np.float32))
        self.pub = np.zeros(layout.size - layout.private_size, dtype=np.float32)
        self.priv_views = [self._private_views(i) for i in range(n)]
        self.pub_views = self._public_views()
        self._nominee_count = 0
        self._day_limit = 1.0
        self._phase = layout.index("phase")
        self._my_turn = layout.index("my_turn")
        self._speaker = layout.index("speaker")
        self._acts_left = layout.index("acts_left")
        self._named_scale = 1.0 / max(1, n - 1)  # named by every other player at most
        self._self_heal_scale = 1.0 / max(1, rules.heal_self or 1)
        # my_night .. blocked are consecutive private pieces: one slice clears them all
        tonight = [
            layout.offsets[k]
            for k in ("my_night", "team_shots", "team_executors", "blocked")
            if k in layout.offsets
        ]
        end = tonight[-1][0] + int(np.prod(tonight[-1][1])) if tonight else 0
        self._tonight = slice(tonight[0][0] if tonight else 0, end)
        self._my_night = "my_night" in layout.offsets
        self._named = "named" in layout.offsets
        self._counting = "counting" in layout.offsets
        self._gestures = "gestures" in layout.offsets
        self._count_order: list[int] = []  # an open count's nominees, in order (CLUB-E7)
        self._count_next = 0
        # ONLINE-N9: no morning word on the heal; the doctor's row keeps his own last heal
        self._heal_memory = not rules.heal_told and "last_heal" in layout.offsets
        self._heals: list[int] = [-2] * n  # the heal each doctor made tonight (-2: no doctor)
        self._self_heals = [0] * n  # the self-heals each doctor made
        self._team_shots = "team_shots" in layout.offsets
        self._turn_pos = dict.fromkeys(Turn, -1) | {x: i for i, x in enumerate(layout.turns)}
        self._speech_turns = layout.spec.speech_turns
        self._speech_acts = rules.speech_acts
        self._night_phase = len(layout.turns)
        self._over_phase = len(layout.turns) + 1
        self._reset_live()
        super().__init__()

    def bind(self) -> None:
        super().bind()
        for kind in (Ev.VISIT, Ev.HEAL, Ev.HUNT):
            self.on_private[int(kind)] = self._saw_night_target
        if self._heal_memory:  # ONLINE-N9 (only then: the other variants' hot path stays)
            self.on_private[int(Ev.HEAL)] = self._saw_heal_remembered
            self.on_public[int(Ev.MORNING)] = self._on_morning_remembered
        if self.layout.belief is not None:  # the option's piece: `observe` fills it too
            self.observe = self._observe_belief

    def _observe_belief(self, game: Game, seat: int, out: np.ndarray | None = None):
        """`observe`, then the piece ``belief``: the seat's deduction (`mafia_env.belief`)."""
        from mafia_env.belief.store import matrix

        out = VectorObserver.observe(self, game, seat, out)
        off, _ = self.layout.offsets["belief"]
        m = matrix(game, seat)
        out[off : off + m.size] = m.ravel()
        return out

    def _reset_live(self) -> None:
        self.actor, self.turn, self.turn_public, self.over = -1, -1, False, False
        self.speech_acts_made = 0

    def _new_rows(self, rows: np.ndarray) -> None:
        """Keep each seat's whole observation row: its private part is the seat's own (the
        handlers write it), its public part a stale copy that `observe` refreshes and copies
        whole (one copy of a row costs less than building one from two pieces)."""
        self._rows = rows
        self._row = list(rows)
        self.priv = rows[:, : self.layout.private_size]

    def _private_views(self, seat: int) -> dict[str, np.ndarray]:
        row = self.priv[seat]
        return {name: row[a:b].reshape(shape) for name, a, b, shape in self.layout.private_spans}

    def _public_views(self) -> dict[str, np.ndarray]:
        pub = self.pub
        return {name: pub[a:b].reshape(shape) for name, a, b, shape in self.layout.public_spans}

    def reset(self, game: Game) -> None:
        """Start encoding a new game."""
        self.priv[:] = 0
        self.pub[:] = 0
        self.cursor = 0
        self._nominee_count = 0
        self._reset_live()
        self._count_order, self._count_next = [], 0
        self._heals, self._self_heals = [-2] * self.n, [0] * self.n
        self._day_limit = float(game.rules.day_limit(game.n))
        self.pub_views["alive"][:] = 1
        for s in range(self.n):
            self.priv_views[s]["seat"][s] = 1
        self.update(game)

    def update(self, game: Game) -> None:
        """Fold the events the game logged since the last update into the rows."""
        self.catch_up(game.events)

    def copy(self) -> VectorObserver:
        """Return an independent copy at the same point (for a cloned game)."""
        other = VectorObserver.__new__(VectorObserver)
        other.__dict__.update(self.__dict__)
        other._new_rows(self._rows.copy())
        other.pub = self.pub.copy()
        other._heals, other._self_heals = self._heals[:], self._self_heals[:]
        other._views()
        return other

    def _views(self) -> None:
        """(Re)make the views into the rows and the handler tables."""
        self.priv_views = [self._private_views(i) for i in range(self.n)]
        self.pub_views = self._public_views()
        self.bind()

    def __deepcopy__(self, memo: dict) -> VectorObserver:
        return self.copy()

    def __getstate__(self) -> dict:
        # the arrays, without the views into them (a pickle would make the views copies)
        views = ("_row", "priv", "priv_views", "pub_views", "on_public", "on_private", "observe")
        return {k: v for k, v in self.__dict__.items() if k not in views}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._new_rows(self._rows)
        self._views()

    # one handler per kind of public event that changes an observation: (actor, target, value)

    def _on_claim_role(self, actor, target, value):
        if actor == self.actor:  # a speech act of the current speech
            self.speech_acts_made += 1
        row = self.pub_views["claimed_role"][actor]
        row[:] = 0
        row[self.role_index[value]] = 1

    def _on_claim_check(self, actor, target, value):
        if actor == self.actor:  # a speech act of the current speech
            self.speech_acts_made += 1
        self.pub_views["claimed_check"][actor, target, value] = 1

    def _on_accuse(self, actor, target, value):
        if actor == self.actor:  # a speech act of the current speech
            self.speech_acts_made += 1
        self.pub_views["accused"][actor, target] = 1

    def _on_vouch(self, actor, target, value):
        if actor == self.actor:  # a speech act of the current speech
            self.speech_acts_made += 1
        self.pub_views["vouched"][actor, target] = 1

    def _on_nominate(self, actor, target, value):
        pub = self.pub_views
        self._nominee_count += 1
        pub["nominees"][target] = self._nominee_count / self.n
        if actor >= 0:  # CLUB-E1 nominations by count have no nominator
            pub["nominations"][actor, target] += 1 / self._day_limit
            if actor == self.actor:
                self.speech_acts_made += 1

    def _on_name(self, actor, target, value):  # one name a player a day
        pub = self.pub_views
        pub["named"][target] += self._named_scale
        pub["nominations"][actor, target] += 1 / self._day_limit

    def _on_ask(self, actor, target, value):
        if actor == self.actor:  # a speech act of the current speech
            self.speech_acts_made += 1
        row = self.pub_views["questions"][target]
        row[:] = 0
        row[self.role_index[value]] = 1

    def _on_answer(self, actor, target, value):
        row = self.pub_views["answers"][actor]
        row[:] = 0
        row[value] = 1

    def _on_ballot(self, actor, target, value):
        if target >= 0:
            self.pub_views["votes"][actor, target] = 1

    def _on_voting(self, actor, target, value):
        pub = self.pub_views  # a new round: the last one's ballots become history
        pub["votes_before"] += pub["votes"] / (2 * self._day_limit)
        pub["votes"][:] = 0
        cands = pub["candidates"]
        cands[:] = 0
        order = seat_sequence(value)
        cands[order] = 1
        if self._counting:  # CLUB-E7, ONLINE-V7: the first nominee is counted first
            self._count_order, self._count_next = order, 0
            self._show_count()

    def _show_count(self) -> None:
        counting = self.pub_views["counting"]
        counting[:] = 0
        if self._count_next < len(self._count_order):
            counting[self._count_order[self._count_next]] = 1

    def _on_count(self, actor, target, value):  # one nominee's open count: who voted for him
        self.pub_views["votes"][seats(value), target] = 1
        self._count_next += 1
        self._show_count()

    def _on_crash(self, actor, target, value):
        cands = self.pub_views["candidates"]
        cands[:] = 0
        cands[seats(value)] = 1

    def _on_crash_ballot(self, actor, target, value):
        self.pub_views["crash"][actor, 0 if value else 1] = 1

    def _on_eliminated(self, actor, target, value):
        pub = self.pub_views
        pub["alive"][target] = 0
        pub["eliminated"][target, Cause.FOUL if value == Cause.REMOVED else value] = 1
        if self._gestures:  # ONLINE-D6: a camera that goes dark shows no gesture
            pub["gestures"][target] = 0

    def _on_gesture(self, actor, target, value):
        row = self.pub_views["gestures"][actor]
        row[:] = 0
        if value >= 0:
            row[value] = 1

    def _on_day(self, actor, target, value):
        pub = self.pub_views
        pub["day"][0] = value / self._day_limit
        pub["crash"][:] = 0
        pub["nominees"][:] = 0
        if self._named:
            pub["named"][:] = 0
        pub["candidates"][:] = 0
        if self._counting:
            pub["counting"][:] = 0
        self._nominee_count = 0

    def _on_foul(self, actor, target, value):
        self.pub_views["fouls"][target] = min(1.0, value / 4.0)

    def _on_reveal(self, actor, target, value):
        self.pub_views["revealed"][target, self.role_index[value]] = 1

    def _on_night(self, actor, target, value):
        self.priv[:, self._tonight] = 0  # tonight's private facts start afresh, for every seat

    # one handler per kind of private event: (seat that saw it, actor, target, value)

    def _saw_teammate(self, seat, actor, target, value):
        self.priv_views[seat]["known_roles"][target, self.role_index[value]] = 1

    def _saw_check(self, seat, actor, target, value):
        self.priv_views[seat]["checks"][target, 0 if value else 1] = 1

    def _saw_shot(self, seat, actor, target, value, piece="team_shots"):
        if target < 0:
            return
        v = self.priv_views[seat]
        shot = piece == "team_shots"
        if self._team_shots or not shot:
            v[piece][actor, target] = 1
        if shot and self._my_night and seat == actor:
            v["my_night"][target] = 1

    def _saw_propose(self, seat, actor, target, value):  # SPORT-N3: the team's meeting
        row = self.priv_views[seat]["team_plan"][actor]
        row[:] = 0
        if target >= 0:
            row[target] = 1

    def _saw_executor(self, seat, actor, target, value):
        self._saw_shot(seat, actor, target, value, "team_executors")

    def _saw_night_target(self, seat, actor, target, value):  # a visit, a heal, a hunt
        self.priv_views[seat]["my_night"][target] = 1

    def _saw_blocked(self, seat, actor, target, value):
        self.priv_views[seat]["blocked"][0] = 1

    def _saw_heal_remembered(self, seat, actor, target, value):
        self._saw_night_target(seat, actor, target, value)
        self._heals[seat] = target

    def _on_morning_remembered(self, actor, target, value):
        """ONLINE-N9: each doctor's row keeps the heal he made last night (-1 none) and the
        self-heals he made, as he remembers them: not whether they counted."""
        for seat, heal in enumerate(self._heals):
            if heal == -2:
                continue
            self._self_heals[seat] += heal == seat
            self._saw_heal_state(seat, seat, heal, self._self_heals[seat])
            self._heals[seat] = -1

    def _saw_role(self, seat, actor, target, value):
        v = self.priv_views[seat]
        v["role"][self.role_index[value]] = 1
        v["known_roles"][actor, self.role_index[value]] = 1
        if value == Role.DOCTOR and self._heal_memory:
            self._heals[seat] = -1  # a doctor: his heals are remembered (ONLINE-N9)

    def _saw_heal_state(self, seat, actor, target, value):
        v = self.priv_views[seat]
        if "last_heal" not in v or "self_heals" not in v:
            return  # a night_order without the doctor's turn: the layout has no heal rows
        v["last_heal"][:] = 0
        if target >= 0:
            v["last_heal"][target] = 1
        v["self_heals"][0] = min(1.0, value * self._self_heal_scale)

    def _saw_don_introduced(self, seat, actor, target, value):
        row = self.priv_views[seat]["known_roles"][actor]  # ONLINE-N2: who the don is
        row[:] = 0
        row[self.role_index[value]] = 1

    def observe(self, game: Game, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """Return `seat`'s observation: a new float32 vector, or written into the float32 row
        `out` (for batched trainers)."""
        events = game.events
        start = self.cursor
        if start != len(events):
            e = events[start]
            if e[0] == _TURN and start + 1 == len(events):  # as `catch_up`: a turn began
                _, self.actor, _, self.turn, seen_by = e
                self.turn_public = seen_by < 0
                self.cursor = start + 1
            else:
                self.catch_up(events)
        p = self.layout.private_size
        if out is None:
            row = self._row[seat]
            row[p:] = self.pub
            out = row.copy()
        else:
            out[:p] = self.priv[seat]
            out[p:] = self.pub
        # the facts of the moment: whose turn, what kind, speech acts left
        if self.over:
            out[self._phase + self._over_phase] = 1
            return out
        pos = self._turn_pos[self.turn]
        if seat == self.actor:
            out[self._my_turn + pos] = 1
        if not self.turn_public:  # who acts at night is nobody else's business
            out[self._phase + self._night_phase] = 1
            return out
        out[self._phase + pos] = 1
        out[self._speaker + self.actor] = 1
        if self.turn in self._speech_turns:
            out[self._acts_left] = (self._speech_acts - self.speech_acts_made) / self._speech_acts
        return out

    def observe_turn(self, game: Game, seat: int, turn: Turn) -> np.ndarray:
        """Return `seat`'s observation as it will be when it takes its queued `turn` of the
        open round (`Game.pending_round`): its own turn marked, the floor its own."""
        out = self.observe(game, seat)
        actor = self.actor
        if seat != actor and not self.over:
            out[self._my_turn + self._turn_pos[turn]] = 1
            if self.turn_public:
                out[self._speaker + actor] = 0
                out[self._speaker + seat] = 1
        return out


__all__ = ["PHASES", "ObsLayout", "VectorObserver"]
