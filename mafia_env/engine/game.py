"""The rules as a pure state machine, and a game as plain data.

A `Game` is one game at one table. Someone is always acting (`actor`, taking a `turn`) until
the game is over; `legal()` says what that player may do and `apply()` does it. Each kind of
turn is written once, its legality beside its effect (`mafia_env.engine.turns`). Everything
the game does is appended to `events` with who saw it (see `events.py`). Nothing here knows
about PettingZoo, numpy or encodings: seats are 0-based ints, randomness is one
`random.Random` seeded by the caller.

The day and the night are stages (`Stage`) that queue turns; when a stage's turns run out,
its rule (`Game._END[stage]`) decides what follows, one of `FOLLOWS[stage]`: "speeches, then
the vote, then the night". The state is plain data (ints, bitmasks, lists, small
dataclasses), so `clone()`, `copy.deepcopy` and `pickle` give an independent game that plays
on exactly as this one would, and `resample(seat, rng)` draws a game a seat cannot tell
from this one.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from typing import Any, ClassVar

from mafia_env.engine.events import (
    PUBLIC,
    TALK_LIMIT,
    Answer,
    Cause,
    Ev,
    NoVote,
    Outcome,
    Spared,
    sequence_code,
)
from mafia_env.engine.kinds import (
    BLOCKABLE,
    FOLLOWS,
    NIGHT_TURNS,
    PUBLIC_TURNS,
    SPEECH_TURNS,
    Act,
    Call,
    Options,
    Stage,
    Turn,
    plain,
    seats,
)
from mafia_env.engine.knowledge import answer
from mafia_env.engine.roles import Role, Team
from mafia_env.engine.rules import Rules
from mafia_env.engine.state import Night, Speech, Today, Vote
from mafia_env.engine.turns import APPLY, TURN_RULES

_Act = plain(Act)
_Answer = plain(Answer)
_Cause = plain(Cause)
_Ev = plain(Ev)
_NoVote = plain(NoVote)
_Outcome = plain(Outcome)
_Role = plain(Role)
_Spared = plain(Spared)
_Stage = plain(Stage)
_Team = plain(Team)
_Turn = plain(Turn)
assert all(int(Outcome[t.name]) == t for t in Team)  # `returns` compares a winner with teams

_CLAIMS: dict[int, tuple[Options, ...]] = {}  # n -> every seat's claim options (shared)
_IS_SPEECH = tuple(t in SPEECH_TURNS for t in Turn)  # by Turn: faster than a set on the hot path
_IS_PUBLIC = tuple(t in PUBLIC_TURNS for t in Turn)
Input = tuple[int, int, int, int, int, int]  # seat, act, target, value, turn, day


def claim_options(n: int) -> tuple[Options, ...]:
    """Return each seat's speech claims (COMMON-5): any role; checks and words on others."""
    opts = _CLAIMS.get(n)
    if opts is None:
        everyone = (1 << n) - 1
        opts = _CLAIMS[n] = tuple(
            [
                (_Act.CLAIM_ROLE, None),
                (_Act.CLAIM_CHECK, everyone & ~(1 << s)),
                (_Act.ACCUSE, everyone & ~(1 << s)),
                (_Act.VOUCH, everyone & ~(1 << s)),
            ]
            for s in range(n)
        )
    return opts


def _hunt_names(rules: Rules, role: Role) -> bool:
    """Return whether the morning names the role of `role`, killed on the hunt (FORUM-M1)."""
    return rules.hunted_reveal == "all" or role.team is Team.MAFIA


class Game:
    """One game: the state, what is legal now, and the transition."""

    def __init__(self, rules: Rules, n: int, seed: int, deal: list[Role] | None = None):
        rules.check_players(n)
        self.rules = rules
        self.n = n
        self.seed = seed
        self.rng = random.Random(seed)
        dealt = [r for r, c in rules.role_counts(n).items() for _ in range(c)]
        self.rng.shuffle(dealt)  # COMMON-1; drawn even for a given deal: the seed's stream is one
        self.roles: tuple[Role, ...] = tuple(deal) if deal is not None else tuple(dealt)
        self.teams: tuple[Team, ...] = tuple(r.team for r in self.roles)
        self.alive = [True] * n
        self.alive_seats = list(range(n))
        self.alive_bits = (1 << n) - 1
        self.team_alive = [0, 0, 0]
        for t in self.teams:
            self.team_alive[t] += 1
        self.mafia_mask = sum(1 << s for s in range(n) if self.teams[s] is _Team.MAFIA)
        self.claim_options = claim_options(n)
        self.fouls = [0] * n
        self.silenced_on = [0] * n  # the day whose speech a player loses for his fouls
        self.events: list[tuple[int, int, int, int, int]] = []
        # what was done, in order: (seat, act, target, value, turn, day); act -1 is a foul the
        # moderator called, -2 an illegal action that stopped the game, -3 a removal by the
        # moderator (turn -1 for these)
        self.inputs: list[Input] = []
        # table talk: (seat, inputs before it, text) per remark; a TALK event's value indexes it
        self.talk: list[tuple[int, int, str]] = []
        self.day = 0
        self.winner: Outcome | None = None
        self.truncated = False
        self.offender = -1  # seat whose illegal action stopped the game
        self.actor = -1
        self.turn: Turn | None = None
        self.stage = _Stage.DAWN
        self.queue: deque[tuple[int, Turn]] = deque()
        self.today = Today(named=[0] * n)
        self.speech = Speech()
        self.vote = Vote()
        self.night = Night()
        self.heal_prev = -1  # the doctor's last heal that counts for the no-repeat rule
        self.self_heals = 0
        self.saves = 0  # nights whose heal cancelled a kill, the healed player surviving
        self.don_introduced = rules.don_known
        self.gestures = [-1] * n  # ONLINE-D6: each seat's gesture shown (Answer; -1 none)
        self._start()

    # ----------------------------------------------------------------- queries

    @property
    def over(self) -> bool:
        return self.winner is not None or self.offender >= 0

    def returns(self) -> list[float]:
        """Return every seat's payoff, as OpenSpiel's `State.returns` does: +1 to each seat of
        the winning team, -1 to every other seat (eliminated players included), 0 to all in a
        draw. A game stopped by an illegal action (COMMON-7 ``terminate``): -1 to the offender,
        0 to the others. All 0 while the game goes on."""
        n, w = self.n, self.winner
        if self.offender >= 0:  # PettingZoo's classic convention for an illegal move
            out = [0.0] * n
            out[self.offender] = -1.0
            return out
        if w is None or w == _Outcome.DRAW:
            return [0.0] * n
        return [1.0 if t == w else -1.0 for t in self.teams]  # an Outcome's value is its Team's

    def legal(self) -> Options:
        """Return the acting player's legal actions as (act, targets) pairs.

        `targets` is a bitmask of seats (bit s set: seat s may be targeted; `seats()` lists
        them), or None for an act that takes no target (or, for CLAIM_ROLE, ASK's roles and
        ANSWER, any value of the segment).
        """
        try:
            rule = TURN_RULES[self.turn]
        except TypeError:  # turn None
            raise RuntimeError("the game is over: nobody acts") from None
        return rule.legal(self)

    def default_action(self) -> tuple[Act, int, int]:
        """Return what the acting player does when he does nothing (a timeout, a foul)."""
        opts = self.legal()
        acts = [a for a, _ in opts]
        if _Act.PASS in acts:
            return _Act.PASS, -1, -1
        if _Act.VOTE_NO in acts:
            return _Act.VOTE_NO, -1, -1
        if _Act.ANSWER in acts:
            return _Act.ANSWER, -1, int(_Answer.DONT_KNOW)
        act, targets = opts[0]
        first = (targets & -targets).bit_length() - 1 if targets else -1  # the lowest seat
        return act, first, (0 if act is _Act.CLAIM_ROLE else -1)

    def pending_round(self) -> list[tuple[int, Turn]]:
        """Return the simultaneous round now open: the current turn, then the queued turns
        taken together with it (`TurnRule.together`: the other ballots of a vote, the other
        hidden shots of the mafia, the other hunt requests). A turn taken alone is a round of
        one; an ended game has none. Nobody's choice in a round changes what another member
        may do (`legal_for`), and the engine still takes the round's turns one at a time.
        """
        turn = self.turn
        if turn is None:
            return []
        out = [(self.actor, turn)]
        if TURN_RULES[turn].together(self.rules):
            alive = self.alive
            for seat, queued in self.queue:
                if queued is not turn:
                    break
                if alive[seat]:
                    out.append((seat, queued))
        return out

    def legal_for(self, seat: int, turn: Turn) -> Options:
        """Return what `seat` may do in its `turn` of the open round (see `pending_round`)."""
        actor, current = self.actor, self.turn
        self.actor, self.turn = seat, turn
        try:
            return TURN_RULES[turn].legal(self)
        finally:
            self.actor, self.turn = actor, current

    def mafia_seats(self) -> list[int]:
        return [s for s in range(self.n) if self.teams[s] is _Team.MAFIA]

    def hunt_allowed(self) -> bool:
        """Return whether the town still has the right to hunt (FORUM-N7)."""
        town, black, _ = self.team_alive
        return self.rules.hunt and town > 1 and town > self.rules.hunt_ratio * black

    def _may_shoot_self(self) -> bool:
        mode = self.rules.self_shot  # ONLINE-N4: a lone mafia member may choose himself
        return mode == "always" or (mode == "lone" and self.team_alive[_Team.MAFIA] == 1)

    # ------------------------------------------------------------ copies of the game

    def clone(self, rng: random.Random | None = None) -> Game:
        """Return an independent copy that plays on exactly as this game would.

        With `rng`, the copy draws its chance from `rng` instead of a copy of this game's
        stream (cheaper: the belief's searches give each copy its own chance).
        """
        g = Game.__new__(Game)
        d = g.__dict__
        d.update(self.__dict__)  # ints, enums, tuples and the rules are shared as they are
        if rng is None:
            g.rng = random.Random()
            g.rng.setstate(self.rng.getstate())
        else:
            g.rng = rng
        for name in ("alive", "alive_seats", "team_alive", "fouls", "silenced_on", "gestures"):
            d[name] = d[name][:]
        g.events = self.events[:]
        g.inputs = self.inputs[:]
        g.talk = self.talk[:]
        g.queue = self.queue.copy()
        g.today = self.today.copy()
        g.speech = self.speech.copy()
        g.vote = self.vote.copy()
        g.night = self.night.copy()
        return g

    def __deepcopy__(self, memo: dict) -> Game:
        return self.clone()

    def belief(self, seat: int, model: Any = None) -> Any:
        """Return what `seat` can know of the deal now (`mafia_env.belief.Belief`): exact
        deduction, or with `model` (a policy, or its registry name) a Bayesian belief that
        weighs each deal by how likely the model makes what `seat` saw. Answered by the
        belief layer above the engine (`mafia_env.engine.knowledge.install`)."""
        return answer("belief")(self, seat, model)

    def resample(self, seat: int, rng: random.Random) -> Game:
        """Return a game `seat` cannot tell from this one, drawn from its belief with `rng`.

        What the seat does not know is drawn again: the roles (uniformly among the deals it
        cannot rule out), the others' hidden night choices (as a search finds them under the
        drawn deal) and the future's chance. The world depends only on what the seat saw and
        on `rng`, never on this game's hidden facts (`mafia_env.infoset.sample`).
        """
        return answer("sample")(self, seat, rng)

    # -------------------------------------------------------------- transitions

    def apply(self, act: Act, target: int = -1, value: int = -1) -> None:
        """Carry out the acting player's action; it must be one that `legal()` allows."""
        t = self.turn
        try:
            apply = APPLY[t]
        except TypeError:  # turn None
            raise RuntimeError("the game is over: nobody acts") from None
        self.inputs.append((self.actor, act, target, value, t, self.day))
        apply(self, act, target, value)

    def say(self, text: str) -> None:
        """Add the acting player's free-text remark to his speech (table talk): a public TALK.

        Talk changes nothing in the rules; it is allowed in a speech turn only, up to
        TALK_LIMIT characters, its spaces folded to single spaces.
        """
        if self.turn not in SPEECH_TURNS:
            raise ValueError("table talk is part of a speech: nobody is speaking now")
        text = " ".join(str(text).split())
        if not text or len(text) > TALK_LIMIT:
            raise ValueError(f"a remark has 1..{TALK_LIMIT} characters; got {len(text)}")
        self._log(_Ev.TALK, self.actor, -1, len(self.talk))
        self.talk.append((self.actor, len(self.inputs), text))

    def foul(self, seat: int) -> None:
        """Give `seat` a foul (SPORT-F1, ONLINE-F1): silence or remove him at the thresholds."""
        r = self.rules
        self.inputs.append((seat, int(Call.FOUL), -1, -1, -1, self.day))
        self.fouls[seat] += 1
        count = self.fouls[seat]
        self._log(_Ev.FOUL, -1, seat, count)
        if r.fouls_mute and count == r.fouls_mute:
            self.silenced_on[seat] = self.day + 1
        if r.fouls_remove and count >= r.fouls_remove:
            self._leave_at_once(seat, _Cause.FOUL)

    def remove(self, seat: int) -> None:
        """Remove `seat` at once, without a last word (SPORT-F2: the moderator's call)."""
        if not self.alive[seat]:
            raise ValueError(f"seat {seat} has already left the game")
        self.inputs.append((seat, int(Call.REMOVE), -1, -1, -1, self.day))
        self._leave_at_once(seat, _Cause.REMOVED)

    def _leave_at_once(self, seat: int, cause: Cause) -> None:
        """`seat` leaves now, without a last word; his turn, if he has one, ends."""
        if self.alive[seat]:
            self._eliminate(seat, cause)
            self.queue = deque(x for x in self.queue if x[0] != seat)  # no last word either
            if self._check_win():
                return
        elif self.rules.fouls_take_last_word and (seat, _Turn.LAST_WORD) in self.queue:
            # SPORT-F3, ONLINE-F1: out already (voted out, killed, a car crash), he waits for
            # his last word: the foul that removes takes it
            self.queue = deque(x for x in self.queue if x[0] != seat)
            self._log(_Ev.SILENCED, -1, seat, _Turn.LAST_WORD)
        if seat == self.actor:
            if self.turn is _Turn.ANSWER:  # the speaker who asked him goes on
                self._resume_speech()
            elif self.turn is _Turn.GESTURE:  # the next listener's gesture, or the speaker
                self._after_gesture()
            else:
                self._advance()

    def terminate(self, seat: int) -> None:
        """Stop the game for `seat`'s illegal action (COMMON-7, knob illegal_action: terminate)."""
        self.inputs.append((seat, int(Call.TERMINATE), -1, -1, -1, self.day))
        self.offender = seat
        self._log(_Ev.TERMINATED, seat)
        self._end_turns()

    # ------------------------------------------------------------------ stages

    def _start(self) -> None:
        for s, role in enumerate(self.roles):
            self._log(_Ev.ROLE, s, -1, role, 1 << s)
        black = self.mafia_seats()
        for s in black:  # COMMON-2: the mafia know each other (ONLINE-N2: not the don)
            for mate in black:
                if mate != s:
                    role = self.roles[mate]
                    if role is _Role.DON and not self.rules.don_known:
                        role = _Role.MAFIA
                    self._log(_Ev.TEAMMATE, s, mate, role, 1 << s)
        r = self.rules
        if r.zero_night:  # COMMON-3: the mafia meet; nobody shoots
            self._log(_Ev.NIGHT, value=0)
            dons = [s for s in black if self.roles[s] is _Role.DON]
            turns = []
            if r.zero_night_meeting:  # SPORT-N3: each shows a target, the don last: his word
                order = [s for s in black if s not in dons] + dons
                turns += [(s, _Turn.MEETING) for s in order]
            if r.zero_night_don and not self.don_introduced:  # ONLINE-N1
                turns += [(s, _Turn.MAFIA_KILL) for s in dons]
            if turns:
                self._enter(_Stage.ZERO_NIGHT)
                self.queue.extend(turns)
        self._advance()

    def _start_day(self) -> None:
        self.day += 1
        if self.day > self.rules.day_limit(self.n):  # COMMON-4: truncated as a draw
            self.truncated = True
            self._finish(_Outcome.DRAW)
            return
        self._log(_Ev.DAY, value=self.day)
        today = self.today
        today.nominees = []
        today.nominee_bits = 0
        self.vote.revote = False
        self._enter(_Stage.SPEECHES)
        q = self.queue
        if self.rules.last_word_night:
            q.extend([(v, _Turn.LAST_WORD) for v in self.night.victims])
        today.first_speaker = self._next_alive(today.first_speaker)  # ONLINE-D2, SPORT-D3
        alive = self.alive_seats
        i = alive.index(today.first_speaker)
        for s in alive[i:] + alive[:i]:
            if self.silenced_on[s] == self.day:  # SPORT-F1: three fouls, no speech
                self._log(_Ev.SILENCED, -1, s)
            else:
                q.append((s, _Turn.SPEECH))

    def _end_speeches(self) -> None:
        if self.rules.discussion > 0:  # ONLINE-D5: every living player may speak
            self._enter(_Stage.DISCUSSION)
            self.today.rounds = 0
            self._discussion_round()
        else:
            self._after_speeches()

    def _discussion_round(self) -> None:
        """Queue one round of the general discussion (ONLINE-D5): every living player, from
        the day's first speaker on, one speech act or none."""
        today = self.today
        today.rounds += 1
        today.spoken = False
        alive = self.alive_seats
        first = self._next_alive(today.first_speaker - 1)
        i = alive.index(first)
        self.queue.extend(
            [
                (s, _Turn.DISCUSSION)
                for s in alive[i:] + alive[:i]
                if self.silenced_on[s] != self.day
            ]
        )

    def _end_discussion(self) -> None:
        """Another round while rounds are left and someone spoke in this one; else go on."""
        today = self.today
        if today.spoken and today.rounds < self.rules.discussion:
            self._discussion_round()
        else:
            self._after_speeches()

    def _after_speeches(self) -> None:
        if self.rules.nominations == "round":  # CLUB-E1: every player, from seat 1, names one
            self._enter(_Stage.NAMING)
            self.today.named = [0] * self.n
            self.queue.extend([(s, _Turn.NAMING) for s in self.alive_seats])
        else:
            self._after_nominations()

    def _after_nominations(self) -> None:
        noms = [x for x in self.today.nominees if self.alive[x]]
        if not noms:
            self._log(_Ev.NO_VOTE, value=_NoVote.NO_NOMINEES)  # CLUB-E6
            self._start_night()
        elif len(noms) == 1 and self.day == 1 and self.rules.single_nominee == "skip_day1":
            self._log(_Ev.NO_VOTE, value=_NoVote.SINGLE_NOMINEE_DAY1)  # SPORT-D4
            self._start_night()
        elif self.rules.nominee_speeches:  # CLUB-E2: monologues in nomination order
            self._enter(_Stage.MONOLOGUES)
            self.queue.extend([(c, _Turn.MONOLOGUE) for c in noms])
        else:
            self._start_vote(noms)

    def _end_monologues(self) -> None:
        self._start_vote([c for c in self.today.nominees if self.alive[c]])

    def _start_vote(self, candidates: list[int]) -> None:
        if not candidates:
            self._log(_Ev.NO_VOTE, value=_NoVote.NO_NOMINEES)
            self._start_night()
            return
        v, r = self.vote, self.rules
        self._enter(_Stage.COUNT if r.vote_count == "open" else _Stage.VOTE)
        v.candidates = candidates
        v.candidate_bits = sum(1 << c for c in candidates)
        v.ballots = []
        self._log(_Ev.VOTING, value=sequence_code(candidates))  # ONLINE-V1: in nomination order
        banned = 0  # CLUB-E3: nominees may not vote, in any ballot of the day (knob nominee_ban)
        if not r.nominees_vote:
            banned = self.today.nominee_bits if r.nominee_ban == "day" else v.candidate_bits
        voters = [s for s in self.alive_seats if not banned >> s & 1]
        if r.vote_count == "open":  # CLUB-E7, ONLINE-V7: nominee by nominee, in the open
            v.waiting = voters
            v.counted = 0
            self._queue_count()
        else:
            self.queue.extend([(s, _Turn.VOTE) for s in voters])

    def _queue_count(self) -> None:
        """Open the count of the nominee `vote.counted`: every voter who has not voted yet and
        may vote for him takes a turn (a hand, or none)."""
        v = self.vote
        c = v.candidates[v.counted]
        if self.alive[c]:
            me_too = self.rules.self_vote
            alive = self.alive
            self.queue.extend(
                [(s, _Turn.OPEN_VOTE) for s in v.waiting if alive[s] and (me_too or s != c)]
            )

    def _end_count(self) -> None:
        """Close one nominee's open count: who raised a hand is public (COMMON-8) before the
        next nominee's count; after the last, the votes not given go to the last nominee
        (CLUB-E3) or are abstentions (ONLINE-V1), and the vote is decided."""
        v, alive = self.vote, self.alive
        c = v.candidates[v.counted]
        hands = 0
        for voter, target, _ in v.ballots:
            if target == c and alive[voter]:
                hands |= 1 << voter
        self._log(_Ev.COUNT, -1, c, hands)
        v.counted += 1
        if v.counted < len(v.candidates):
            self._queue_count()
            return
        v.counted = -1
        last = v.candidates[-1] if self.rules.silent_vote == "last_nominee" else -1
        for s in v.waiting:
            if alive[s]:
                v.ballots.append((s, last, last >= 0))
                self._log(_Ev.BALLOT, s, last, int(last >= 0))
        self._barred_votes()
        self._decide_vote()

    def _resolve_vote(self) -> None:
        """Close a hidden ballot: the ballots go public together (COMMON-8); decide."""
        for voter, target, silent in self.vote.ballots:
            if self.alive[voter]:
                self._log(_Ev.BALLOT, voter, target, int(silent))
        self._barred_votes()
        self._decide_vote()

    def _barred_votes(self) -> None:
        """CLUB-E8: a nominee may not vote but keeps his one vote: it goes to the last
        nominee, whose own goes to him too (the seed's exception)."""
        r, v = self.rules, self.vote
        if r.nominees_vote or r.nominee_votes != "last_nominee":
            return
        barred = self.today.nominees if r.nominee_ban == "day" else v.candidates
        last = v.candidates[-1]
        for s in barred:  # in nomination order
            if self.alive[s]:
                v.ballots.append((s, last, True))
                self._log(_Ev.BALLOT, s, last, 2)

    def _decide_vote(self) -> None:
        """Apply the vote's outcome: one leaves, a tie (re-vote, crash), or nobody."""
        v, r = self.vote, self.rules
        cands = [c for c in v.candidates if self.alive[c]]
        tally = dict.fromkeys(cands, 0)
        for voter, target, _ in v.ballots:
            if self.alive[voter] and target in tally:
                tally[target] += 1
        if len(cands) == 1 and r.single_nominee == "strict_majority":  # ONLINE-V2
            c = cands[0]
            others = sum(1 for u, t, _ in v.ballots if t == c and u != c and self.alive[u])
            if 2 * others > len(self.alive_seats):
                self._remove_by_vote([c])
            else:
                self._spare(_Spared.NO_MAJORITY)
            return
        best = max(tally.values(), default=0)
        if best == 0 and (r.zero_votes == "spare" or len(cands) < 2):  # ONLINE-V4: 0:0 ties
            self._spare(_Spared.NO_VOTES)
            return
        top = [c for c in cands if tally[c] == best]
        if len(top) == 1:
            self._remove_by_vote(top)
            return
        self._log(_Ev.TIE, value=sum(1 << c for c in top))
        if r.tie == "random":
            self._remove_by_vote([self.rng.choice(top)])
        elif r.tie == "none":
            self._spare(_Spared.TIE)
        elif not v.revote:  # first tie: (speeches), then a re-vote among the tied
            v.revote = True
            v.tied = top
            self._enter(_Stage.TIE_SPEECHES)
            if r.tie_speeches:
                self.queue.extend([(c, _Turn.TIE_SPEECH) for c in top])
        elif r.tie == "revote_then_crash":  # SPORT-D3: the car crash
            self._enter(_Stage.CRASH)
            v.candidates = top
            v.candidate_bits = sum(1 << c for c in top)
            v.crash_ballots = []
            self._log(_Ev.CRASH, value=v.candidate_bits)
            self.queue.extend([(s, _Turn.CRASH_VOTE) for s in self.alive_seats])
        elif r.tie == "revote_then_all_leave":
            self._remove_by_vote(top)
        else:
            self._spare(_Spared.TIE)

    def _end_tie_speeches(self) -> None:
        self._start_vote(self.vote.tied)

    def _resolve_crash(self) -> None:
        yes = 0
        for voter, said_yes in self.vote.crash_ballots:  # COMMON-8: public once all voted
            if self.alive[voter]:
                self._log(_Ev.CRASH_BALLOT, voter, -1, int(said_yes))
                yes += said_yes
        if 2 * yes > len(self.alive_seats):  # strictly more than half say yes
            self._remove_by_vote([c for c in self.vote.candidates if self.alive[c]])
        else:
            self._spare(_Spared.CRASH_FAILED)

    def _spare(self, why: Spared) -> None:
        self._log(_Ev.SPARED, value=why)
        self._start_night()

    def _remove_by_vote(self, leaving: list[int]) -> None:
        for s in leaving:
            self._eliminate(s, _Cause.VOTE)
        if self._check_win():
            return
        if self.rules.last_word_vote:
            self._enter(_Stage.LAST_WORDS)
            self.queue.extend([(s, _Turn.LAST_WORD) for s in leaving])
        else:
            self._start_night()

    def _start_night(self) -> None:
        self._enter(_Stage.NIGHT)
        self._log(_Ev.NIGHT, value=self.day)
        self.night = Night()
        r, q, roles, teams = self.rules, self.queue, self.roles, self.teams
        alive = self.alive_seats
        for step in r.night_order.split():  # CITY-N1, ONLINE-N3: the wake order
            if step == "mafia":
                black = [s for s in alive if teams[s] is _Team.MAFIA]
                if r.mafia_kill == "don":  # CITY-N3: the others propose first, the don decides
                    black.sort(key=lambda s: roles[s] is _Role.DON)
                q.extend([(s, _Turn.MAFIA_KILL) for s in black])
            elif step == "don" and r.don_check:
                q.extend([(s, _Turn.DON_CHECK) for s in alive if roles[s] is _Role.DON])
            elif step == "sheriff" and r.sheriff_check:
                q.extend([(s, _Turn.SHERIFF_CHECK) for s in alive if roles[s] is _Role.SHERIFF])
            elif step == "putana":
                q.extend([(s, _Turn.PUTANA) for s in alive if roles[s] is _Role.PUTANA])
            elif step == "doctor":
                q.extend([(s, _Turn.DOCTOR) for s in alive if roles[s] is _Role.DOCTOR])
            elif step == "maniac":
                q.extend([(s, _Turn.MANIAC) for s in alive if roles[s] is _Role.MANIAC])
            elif step == "hunt" and self.hunt_allowed():  # FORUM-N3, N7
                q.extend([(s, _Turn.HUNT) for s in alive if teams[s] is _Team.TOWN])

    def _mafia_target(self) -> tuple[int, int, bool]:
        """Return the mafia's victim (-1: none), its executor, and whether they forfeit."""
        r = self.rules
        if r.shots_judged == "fired":  # SPORT-N4: each shot counts as it was fired
            shots = list(self.night.shots.items())
        else:  # only the shooters alive at morning
            shots = [(s, t) for s, t in self.night.shots.items() if self.alive[s]]
        if not shots:
            return -1, -1, False
        none_forfeits = r.mafia_no_number == "forfeit"  # CITY-N10: no number shown
        if r.mafia_kill == "don":  # CITY-N3: while the don is alive his choice is theirs
            for s, t in shots:
                if self.roles[s] is _Role.DON:
                    return (-1, -1, True) if t < 0 and none_forfeits else (t, s, False)
        targets = {t for _, t in shots}
        if none_forfeits and -1 in targets:  # CITY-N10: a member showed no number
            return -1, -1, True
        if len(targets) > 1:  # SPORT-N1, CLUB-N1, ONLINE-N4: a miss; CITY-N4: a forfeit
            return -1, -1, r.mafia_split == "forfeit"
        victim = targets.pop()
        if victim < 0:
            return -1, -1, False
        executor = shots[0][0]
        if r.mafia_kill == "executor":  # FORUM-N1: they agree on the executor too
            named = {self.night.executors.get(s, -1) for s, _ in shots}
            if len(named) > 1:
                return -1, -1, False
            executor = named.pop()
        return victim, executor, False

    def _morning(self) -> None:
        r, roles, night = self.rules, self.roles, self.night
        self._log(_Ev.MORNING, value=self.day)
        dead: list[tuple[int, Cause]] = []
        victim, executor, forfeit = self._mafia_target()
        maniac = night.maniac_shot  # a blocked maniac did not shoot (CITY-N2)
        hunted = -1
        if night.hunts:  # FORUM-N3: one request drawn by lot; FORUM-N4: it has priority
            hunter, target, status = night.hunts[self.rng.randrange(len(night.hunts))]
            if not self._hunt_hits(target, status):  # FORUM-N4: the hunter dies
                dead.append((hunter, _Cause.HUNTER))
            else:
                hunted = target
                dead.append((target, _Cause.HUNTED))
                if target == executor:  # FORUM-N5: the executor's victim survives
                    victim = -1
                if roles[target] is _Role.MANIAC:  # FORUM-N5: the maniac's victim survives
                    maniac = -1
        heal = night.heal  # a blocked doctor healed nobody (CITY-N2)
        shot_made = victim >= 0
        cancels = heal >= 0 and (heal == victim or (heal == maniac and r.heal_against == "all"))
        if victim == heal:  # ONLINE-N5: "nobody died"
            victim = -1
        if maniac == heal and r.heal_against == "all":  # FORUM-N2
            maniac = -1
        if r.night_announce == "by_killer" or (
            r.night_announce == "two_by_killer" and victim >= 0 and maniac >= 0 and victim != maniac
        ):  # CITY-M1, FORUM-M1: the mafia's victim first, the maniac's second
            shot_causes = (_Cause.MAFIA, _Cause.MANIAC)
        else:
            shot_causes = (_Cause.NIGHT, _Cause.NIGHT)
        shot_dead = []
        companions = []  # CITY-M2: one more victim, announced last, with no reason given
        for killed, cause in zip((victim, maniac), shot_causes, strict=True):
            if killed >= 0 and killed != hunted and all(killed != d for d, _ in dead):
                shot_dead.append((killed, cause))
                companion = night.blocked  # CITY-N9: he leaves with her (unless healed, by knob)
                saved = r.companion_heal and companion == heal
                if roles[killed] is _Role.PUTANA and companion >= 0 and not saved:
                    if r.companion_reason:  # "he spent the night with the putana"
                        shot_dead.append((companion, _Cause.COMPANION))
                    else:
                        companions.append((companion, _Cause.NIGHT))
        dead = shot_dead + companions + dead
        if forfeit:  # CITY-N4: the mafia could not agree: the whole team leaves
            dead += [(s, _Cause.FORFEIT) for s in self.alive_seats if self.teams[s] is _Team.MAFIA]
        self._count_heal(heal, shot_made)
        gone: set[int] = set()
        for seat, cause in dead:
            if seat not in gone and self.alive[seat]:
                gone.add(seat)
                self._eliminate(seat, cause)
                if cause is not _Cause.FORFEIT:
                    night.victims.append(seat)
        self.saves += cancels and heal not in gone
        if not gone:
            self._log(_Ev.MISS)
        if not self._check_win():
            self._start_day()

    def _hunt_hits(self, target: int, status: int) -> bool:
        """Return whether a hunt on `target` guessing `status` kills him (FORUM-N4).

        A mafia member guessed as mafia (status 0), or the maniac guessed as the maniac
        (status 1), dies; anyone else, or the wrong status, and the hunter dies. Without
        the status (knob hunt_status off) any player not of the town dies.
        """
        if not self.rules.hunt_status:
            return self.teams[target] is not _Team.TOWN
        if status == 0:
            return self.teams[target] is _Team.MAFIA
        return self.roles[target] is _Role.MANIAC

    def _count_heal(self, heal: int, shot_made: bool) -> None:
        """Record the heal for the doctor's limits (CITY-N7; ONLINE-N4: a miss leaves it unused)."""
        doctors = [s for s in self.alive_seats if self.roles[s] is _Role.DOCTOR]
        if not doctors:
            return
        counts = heal >= 0 and (self.rules.heal_spent == "always" or shot_made)
        doctor = doctors[0]
        self.heal_prev = heal if counts else -1
        if counts and heal == doctor:
            self.self_heals += 1
        if self.rules.heal_told:  # ONLINE-N9: else he learns it from whom he may heal next
            self._log(_Ev.HEAL_STATE, doctor, self.heal_prev, self.self_heals, 1 << doctor)

    # What each stage's rule is when its turns run out (see FOLLOWS for where it may lead).
    _END: ClassVar[dict[Stage, Callable[[Game], None]]] = {
        Stage.DAWN: _start_day,
        Stage.ZERO_NIGHT: _start_day,
        Stage.SPEECHES: _end_speeches,
        Stage.DISCUSSION: _end_discussion,
        Stage.NAMING: _after_nominations,
        Stage.MONOLOGUES: _end_monologues,
        Stage.VOTE: _resolve_vote,
        Stage.COUNT: _end_count,
        Stage.TIE_SPEECHES: _end_tie_speeches,
        Stage.CRASH: _resolve_crash,
        Stage.LAST_WORDS: _start_night,
        Stage.NIGHT: _morning,
    }

    # ----------------------------------------------------------------- helpers

    def _enter(self, stage: Stage) -> None:
        assert stage in FOLLOWS[self.stage], f"{stage!r} cannot follow {self.stage!r}"
        self.stage = stage

    def _advance(self) -> None:
        """Hand the turn to the next player in the queue, running stages as it drains."""
        q = self.queue
        night = self.night
        while self.winner is None and self.offender < 0:  # not `over`: the hot path
            while q:
                seat, turn = q.popleft()
                if not (self.alive[seat] or turn is _Turn.LAST_WORD):
                    continue
                if seat == night.blocked and turn in BLOCKABLE:  # CITY-N2: crossed arms
                    self._log(_Ev.BLOCKED, seat, -1, turn, 1 << seat)
                    continue
                if turn is _Turn.DOCTOR and any(h[0] == seat for h in night.hunts):
                    continue  # FORUM-N6: a doctor who requested a hunt cannot heal
                self.actor, self.turn = seat, turn  # the floor is his; say so to who sees it
                if _IS_SPEECH[turn]:
                    sp = self.speech
                    # ONLINE-D5: a word in the discussion is one act
                    sp.acts_left = 1 if turn is _Turn.DISCUSSION else self.rules.speech_acts
                    sp.nominated = False
                    sp.asked = 0
                    self.events.append((_Ev.SPEAK, seat, -1, turn, PUBLIC))
                else:
                    seen_by = PUBLIC if _IS_PUBLIC[turn] else 1 << seat
                    self.events.append((_Ev.TURN, seat, -1, turn, seen_by))
                return
            self._END[self.stage](self)
            night = self.night
        self._end_turns()

    def _resume_speech(self) -> None:
        """Hand the turn back to the speaker who asked a question (ONLINE-D4)."""
        sp = self.speech
        asker, turn = sp.asker, sp.asker_turn
        sp.asker = sp.asker_turn = -1
        if asker < 0 or not (self.alive[asker] or turn == _Turn.LAST_WORD):
            self._advance()
            return
        self.actor, self.turn = asker, turn
        if sp.acts_left == 0:  # the question was his last act
            self._log(_Ev.END_SPEECH, asker)
            self._advance()
            return
        self.events.append((_Ev.TURN, asker, -1, turn, PUBLIC))

    def _open_gestures(self, named: int) -> bool:
        """ONLINE-D6: after a speech act, queue the gestures of the listeners it offers one
        (knob gestures: the living listener it names, or every living listener from the
        speaker's left) before the speaker goes on; return whether any was queued."""
        s = self.actor
        if self.rules.gestures == "named":
            if named < 0 or named == s or not self.alive[named]:
                return False
            listeners = [named]
        else:
            alive = self.alive_seats
            i = next((k for k, x in enumerate(alive) if x > s), 0)
            listeners = [x for x in alive[i:] + alive[:i] if x != s]
            if not listeners:
                return False
        sp = self.speech
        sp.asker, sp.asker_turn = s, self.turn
        self.queue.extendleft([(x, _Turn.GESTURE) for x in reversed(listeners)])
        self._advance()
        return True

    def _after_gesture(self) -> None:
        """Hand the turn to the next listener of the gesture round, or back to the speaker."""
        q, alive = self.queue, self.alive
        while q and q[0][1] is _Turn.GESTURE and not alive[q[0][0]]:
            q.popleft()
        if q and q[0][1] is _Turn.GESTURE:
            self._advance()
        else:
            self._resume_speech()

    def _end_turns(self) -> None:
        self.actor, self.turn = -1, None
        self.queue.clear()
        self.stage = _Stage.OVER

    def _eliminate(self, seat: int, cause: Cause) -> None:
        self.alive[seat] = False
        self.alive_seats.remove(seat)
        self.alive_bits &= ~(1 << seat)
        self.team_alive[self.teams[seat]] -= 1
        self._log(_Ev.ELIMINATED, -1, seat, cause)
        r, role = self.rules, self.roles[seat]
        reveal = r.reveal_on_death  # CLUB-E4, CLUB-N3; CITY-M1: only the maniac
        if (
            reveal == "all"
            or (reveal == "maniac" and role is _Role.MANIAC)
            or (cause is _Cause.HUNTED and r.hunted_reveal != "none" and _hunt_names(r, role))
        ):  # FORUM-M1: a mafia member killed on the hunt is announced as one
            self._log(_Ev.REVEAL, -1, seat, role)

    def _check_win(self) -> bool:
        """End the game if a team has won (COMMON-4, SPORT-W1); return whether it ended."""
        outcome = self.rules.winner(*self.team_alive)
        if outcome is None:
            return False
        self._finish(outcome)
        return True

    def _finish(self, outcome: Outcome) -> None:
        self.winner = outcome
        self._log(_Ev.GAME_OVER, value=outcome)
        self._end_turns()

    def _next_alive(self, seat: int) -> int:
        n, alive = self.n, self.alive
        for k in range(1, n + 1):
            s = (seat + k) % n
            if alive[s]:
                return s
        raise RuntimeError("nobody is alive")  # pragma: no cover

    def _log(
        self, kind: Ev, actor: int = -1, target: int = -1, value: int = -1, seen_by: int = PUBLIC
    ) -> None:
        self.events.append((kind, actor, target, value, seen_by))


__all__ = [
    "BLOCKABLE",
    "FOLLOWS",
    "NIGHT_TURNS",
    "PUBLIC_TURNS",
    "SPEECH_TURNS",
    "Act",
    "Game",
    "Options",
    "Stage",
    "Turn",
    "seats",
]
