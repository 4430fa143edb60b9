"""Encoders of an agent's view.

`VectorObserver` keeps one float32 row of private facts per seat and one row of public facts,
both updated from the game's events as they happen (never by replaying history). An agent's
observation is its private row followed by the public row, plus a few live facts (whose turn,
what kind of turn) written at observation time. `ObsLayout.views(vector)` gives named,
reshaped views into an observation, in the manner of OpenSpiel's observer "pieces".
"""

from __future__ import annotations

import numpy as np

from mafia_env.engine.events import ANSWER_NAMES, Cause, Ev
from mafia_env.engine.game import NIGHT_TURNS, SPEECH_TURNS, Game, Turn, seats
from mafia_env.engine.roles import Role
from mafia_env.engine.rules import Rules

PHASES = [t.name.lower() for t in Turn] + ["night", "over"]


def turns_in_play(rules: Rules) -> list[Turn]:
    """Return the kinds of turn a variant can have: SPORT's eight, and those its knobs add."""
    roles = set(rules.roles_in_play())
    order = rules.night_order.split()
    added = {
        Turn.PUTANA: Role.PUTANA in roles and "putana" in order,
        Turn.DOCTOR: Role.DOCTOR in roles and "doctor" in order,
        Turn.MANIAC: Role.MANIAC in roles and "maniac" in order,
        Turn.EXECUTOR: rules.mafia_kill == "executor",
        Turn.HUNT: rules.hunt and "hunt" in order,
        Turn.NAMING: rules.nominations == "round",
        Turn.MONOLOGUE: rules.nominee_speeches,
        Turn.ANSWER: rules.questions > 0,
    }
    return [t for t in Turn if added.get(t, True)]


class ObsLayout:
    """Names, shapes and offsets of the pieces of a vector observation."""

    def __init__(self, rules: Rules, n: int):
        r = len(rules.roles_in_play())
        self.turns = turns = turns_in_play(rules)
        self.phases = [x.name.lower() for x in turns] + ["night", "over"]
        t = len(turns)
        night = {Turn.PUTANA, Turn.DOCTOR, Turn.MANIAC, Turn.HUNT, Turn.EXECUTOR} & set(turns)
        extra_causes = (
            rules.night_announce != "plain"
            or Turn.PUTANA in turns
            or Turn.HUNT in turns
            or rules.mafia_split == "forfeit"
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
        ]
        self.public = [
            ("phase", (t + 2,)),  # the kind of public turn, "night" or "over"
            ("day", (1,)),  # day / day limit
            ("speaker", (n,)),  # who is taking the current public turn
            ("acts_left", (1,)),  # speech acts left in the current speech / K
            ("alive", (n,)),
            ("eliminated", (n, len(Cause) if extra_causes else int(Cause.MAFIA))),  # as announced
            ("fouls", (n,)),  # fouls / 4
            ("revealed", (n, r)),  # roles shown to the table
            ("nominees", (n,)),  # today's nominees: position in nomination order / n
            ("candidates", (n,)),  # who the current or last vote is over
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

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Return named views into `vector` (no copies): ``views(obs)["alive"]``."""
        out = {}
        for name, (off, shape) in self.offsets.items():
            out[name] = vector[off : off + int(np.prod(shape))].reshape(shape)
        return out

    def index(self, name: str) -> int:
        """Return the flat offset of a piece."""
        return self.offsets[name][0]


class VectorObserver:
    """Keeps every seat's observation up to date from the game's events."""

    def __init__(self, rules: Rules, n: int):
        self.layout = layout = ObsLayout(rules, n)
        self.n = n
        self.rules = rules
        self.role_index = {role: i for i, role in enumerate(rules.roles_in_play())}
        self.priv = np.zeros((n, layout.private_size), dtype=np.float32)
        self.pub = np.zeros(layout.size - layout.private_size, dtype=np.float32)
        self.priv_views = [self._private_views(i) for i in range(n)]
        self.pub_views = self._public_views()
        self.cursor = 0
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
        self._team_shots = "team_shots" in layout.offsets
        self._turn_pos = dict.fromkeys(Turn, -1) | {x: i for i, x in enumerate(layout.turns)}
        self._night_phase = len(layout.turns)
        self._over_phase = len(layout.turns) + 1
        on = {Ev.VISIT: self._on_my_night, Ev.HEAL: self._on_my_night, Ev.HUNT: self._on_my_night}
        for kind in Ev:
            handler = getattr(self, f"_on_{kind.name.lower()}", None)
            if handler is not None:
                on[kind] = handler
        self._handlers: dict[int, object] = {int(k): h for k, h in on.items()}
        self._everyone = (1 << self.n) - 1  # PUBLIC (-1) & this: every seat

    def _private_views(self, seat: int) -> dict[str, np.ndarray]:
        out, pos = {}, 0
        for name, shape in self.layout.private:
            size = int(np.prod(shape))
            out[name] = self.priv[seat, pos : pos + size].reshape(shape)
            pos += size
        return out

    def _public_views(self) -> dict[str, np.ndarray]:
        out, pos = {}, 0
        for name, shape in self.layout.public:
            size = int(np.prod(shape))
            out[name] = self.pub[pos : pos + size].reshape(shape)
            pos += size
        return out

    def reset(self, game: Game) -> None:
        """Start encoding a new game."""
        self.priv[:] = 0
        self.pub[:] = 0
        self.cursor = 0
        self._day_limit = float(game.rules.day_limit(game.n))
        self.pub_views["alive"][:] = 1
        for s in range(self.n):
            self.priv_views[s]["seat"][s] = 1
        self.update(game)

    def update(self, game: Game) -> None:
        """Fold the events the game logged since the last update into the rows."""
        events = game.events
        handlers = self._handlers
        for kind, actor, target, value, seen_by in events[self.cursor :]:
            handler = handlers.get(kind)
            if handler is not None:
                handler(actor, target, value, seen_by)
        self.cursor = len(events)

    # one handler per kind of event that changes an observation: (actor, target, value, seen_by)

    def _on_claim_role(self, actor, target, value, seen_by):
        row = self.pub_views["claimed_role"][actor]
        row[:] = 0
        row[self.role_index[value]] = 1

    def _on_claim_check(self, actor, target, value, seen_by):
        self.pub_views["claimed_check"][actor, target, value] = 1

    def _on_accuse(self, actor, target, value, seen_by):
        self.pub_views["accused"][actor, target] = 1

    def _on_vouch(self, actor, target, value, seen_by):
        self.pub_views["vouched"][actor, target] = 1

    def _on_nominate(self, actor, target, value, seen_by):
        pub = self.pub_views
        self._nominee_count += 1
        pub["nominees"][target] = self._nominee_count / self.n
        if actor >= 0:  # CLUB-E1 nominations by count have no nominator
            pub["nominations"][actor, target] += 1 / self._day_limit

    def _on_name(self, actor, target, value, seen_by):  # one name a player a day
        pub = self.pub_views
        pub["named"][target] += self._named_scale
        pub["nominations"][actor, target] += 1 / self._day_limit

    def _on_ask(self, actor, target, value, seen_by):
        row = self.pub_views["questions"][target]
        row[:] = 0
        row[self.role_index[value]] = 1

    def _on_answer(self, actor, target, value, seen_by):
        row = self.pub_views["answers"][actor]
        row[:] = 0
        row[value] = 1

    def _on_ballot(self, actor, target, value, seen_by):
        if target >= 0:
            self.pub_views["votes"][actor, target] = 1

    def _on_voting(self, actor, target, value, seen_by):
        pub = self.pub_views  # a new round: the last one's ballots become history
        pub["votes_before"] += pub["votes"] / (2 * self._day_limit)
        pub["votes"][:] = 0
        self._on_crash(actor, target, value, seen_by)

    def _on_crash(self, actor, target, value, seen_by):
        cands = self.pub_views["candidates"]
        cands[:] = 0
        cands[seats(value)] = 1

    def _on_crash_ballot(self, actor, target, value, seen_by):
        self.pub_views["crash"][actor, 0 if value else 1] = 1

    def _on_eliminated(self, actor, target, value, seen_by):
        pub = self.pub_views
        pub["alive"][target] = 0
        pub["eliminated"][target, value] = 1

    def _on_day(self, actor, target, value, seen_by):
        pub = self.pub_views
        pub["day"][0] = value / self._day_limit
        pub["crash"][:] = 0
        pub["nominees"][:] = 0
        if self._named:
            pub["named"][:] = 0
        pub["candidates"][:] = 0
        self._nominee_count = 0

    def _on_foul(self, actor, target, value, seen_by):
        self.pub_views["fouls"][target] = min(1.0, value / 4.0)

    def _on_reveal(self, actor, target, value, seen_by):
        self.pub_views["revealed"][target, self.role_index[value]] = 1

    def _on_role(self, actor, target, value, seen_by):
        v = self.priv_views[actor]
        v["role"][self.role_index[value]] = 1
        v["known_roles"][actor, self.role_index[value]] = 1

    def _on_teammate(self, actor, target, value, seen_by):
        self.priv_views[actor]["known_roles"][target, self.role_index[value]] = 1

    def _on_check(self, actor, target, value, seen_by):
        self.priv_views[actor]["checks"][target, 0 if value else 1] = 1

    def _on_shot(self, actor, target, value, seen_by, piece="team_shots"):
        priv = self.priv_views
        shot = piece == "team_shots"
        if target >= 0 and (self._team_shots or not shot):
            for s in seats(seen_by & self._everyone):
                priv[s][piece][actor, target] = 1
        if target >= 0 and shot and self._my_night:
            priv[actor]["my_night"][target] = 1

    def _on_executor(self, actor, target, value, seen_by):
        self._on_shot(actor, target, value, seen_by, "team_executors")

    def _on_my_night(self, actor, target, value, seen_by):  # a visit, a heal, a hunt
        self.priv_views[actor]["my_night"][target] = 1

    def _on_blocked(self, actor, target, value, seen_by):
        self.priv_views[actor]["blocked"][0] = 1

    def _on_heal_state(self, actor, target, value, seen_by):
        v = self.priv_views[actor]
        v["last_heal"][:] = 0
        if target >= 0:
            v["last_heal"][target] = 1
        v["self_heals"][0] = min(1.0, value * self._self_heal_scale)

    def _on_don_introduced(self, actor, target, value, seen_by):
        for s in seats(seen_by & self._everyone):  # ONLINE-N2: the mafia learn who the don is
            row = self.priv_views[s]["known_roles"][actor]
            row[:] = 0
            row[self.role_index[value]] = 1

    def _on_night(self, actor, target, value, seen_by):
        self.priv[:, self._tonight] = 0  # tonight's private facts start afresh, for every seat

    def observe(self, game: Game, seat: int) -> np.ndarray:
        """Return `seat`'s observation as a new float32 vector."""
        if self.cursor != len(game.events):
            self.update(game)
        return self._live(game, seat, np.concatenate((self.priv[seat], self.pub)))

    def observe_into(self, game: Game, seat: int, out: np.ndarray) -> np.ndarray:
        """Write `seat`'s observation into the float32 row `out` (for batched trainers)."""
        if self.cursor != len(game.events):
            self.update(game)
        p = self.layout.private_size
        out[:p] = self.priv[seat]
        out[p:] = self.pub
        return self._live(game, seat, out)

    def _live(self, game: Game, seat: int, out: np.ndarray) -> np.ndarray:
        """Write the facts of the moment (whose turn, what kind) into an observation."""
        turn = game.turn
        if turn is None:
            out[self._phase + self._over_phase] = 1
            return out
        pos = self._turn_pos[turn]
        if seat == game.actor:
            out[self._my_turn + pos] = 1
        if turn in NIGHT_TURNS:  # who acts at night is nobody else's business
            out[self._phase + self._night_phase] = 1
            return out
        out[self._phase + pos] = 1
        out[self._speaker + game.actor] = 1
        if turn in SPEECH_TURNS:
            out[self._acts_left] = game.acts_left / game.rules.speech_acts
        return out


__all__ = ["PHASES", "ObsLayout", "VectorObserver", "turns_in_play"]
