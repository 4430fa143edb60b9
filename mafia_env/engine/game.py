"""The rules as a pure state machine.

A `Game` is one game at one table. Someone is always acting (`actor`, doing `turn`) until the
game is over; `legal()` says what that player may do and `apply()` does it. Everything the
game does is appended to `events` with who saw it (see `events.py`). Nothing here knows about
PettingZoo, numpy or encodings: seats are 0-based ints, randomness is one `random.Random`
seeded by the caller.

The day and the night are stages that put turns on a queue and name the stage that follows
when the queue runs dry (`_then`): rules read as "speeches, then the vote, then the night".
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from enum import IntEnum

from mafia_env.engine.events import PUBLIC, Answer, Cause, Ev, NoVote, Outcome, Spared
from mafia_env.engine.roles import Role, Team
from mafia_env.engine.rules import Rules


class Turn(IntEnum):
    """What the acting player is doing."""

    SPEECH = 0  # a day speech: speech acts and (where allowed) one nomination
    LAST_WORD = 1  # a leaving player's speech
    TIE_SPEECH = 2  # a tied player's short speech before the re-vote
    VOTE = 3  # one ballot of a voting round
    CRASH_VOTE = 4  # yes/no on removing every tied player
    MAFIA_KILL = 5  # a mafia member's shot
    DON_CHECK = 6  # the don's "is this the sheriff?"
    SHERIFF_CHECK = 7  # the sheriff's "is this black?"
    PUTANA = 8  # the putana's visit, which blocks (CITY-N2)
    DOCTOR = 9  # the doctor's heal
    MANIAC = 10  # the maniac's shot, or his refusal (pass)
    EXECUTOR = 11  # a mafia member names who carries out the shot (FORUM-N1)
    HUNT = 12  # a town player's free-hunt request, or none (FORUM-N3)
    NAMING = 13  # naming a seat in the nomination round (CLUB-E1)
    MONOLOGUE = 14  # a nominee's speech before the vote (CLUB-E2)
    ANSWER = 15  # the gesture answering a speaker's question (ONLINE-D4)


class Act(IntEnum):
    """Kinds of action; each is one segment of the flat action space."""

    PASS = 0  # end a speech, abstain, skip a check, hold fire
    NOMINATE = 1
    VOTE = 2
    NIGHT = 3  # the acting role's night action on a target
    CLAIM_ROLE = 4
    CLAIM_CHECK = 5
    ACCUSE = 6
    VOUCH = 7
    VOTE_YES = 8
    VOTE_NO = 9
    ASK = 10  # ask target "do you claim role value?" (ONLINE-D4)
    ANSWER = 11  # yes / no / don't know (value: Answer)
    REVEAL_DON = 12  # the don introduces himself to the mafia (ONLINE-N2)
    EXECUTOR = 13  # name the mafia member who carries out the shot (FORUM-N1)
    HUNT = 14  # request a free hunt on target (FORUM-N3)


SPEECH_TURNS = frozenset({Turn.SPEECH, Turn.LAST_WORD, Turn.TIE_SPEECH, Turn.MONOLOGUE})
NIGHT_TURNS = frozenset(
    {
        Turn.MAFIA_KILL,
        Turn.DON_CHECK,
        Turn.SHERIFF_CHECK,
        Turn.PUTANA,
        Turn.DOCTOR,
        Turn.MANIAC,
        Turn.EXECUTOR,
        Turn.HUNT,
    }
)
# CITY-N2: the putana's block stops these turns (not the mafia's shot)
BLOCKABLE = frozenset({Turn.DON_CHECK, Turn.SHERIFF_CHECK, Turn.DOCTOR, Turn.MANIAC})
SPEECH_EVENT = {
    Act.CLAIM_ROLE: Ev.CLAIM_ROLE,
    Act.CLAIM_CHECK: Ev.CLAIM_CHECK,
    Act.ACCUSE: Ev.ACCUSE,
    Act.VOUCH: Ev.VOUCH,
    Act.NOMINATE: Ev.NOMINATE,
}

Options = list[tuple[Act, int | None]]  # (act, bitmask of target seats or None)


def seats(bits: int) -> list[int]:
    """Return the seats of a bitmask (not PUBLIC: mask it first), in seat order."""
    if bits < 0:
        raise ValueError(f"seats() takes a non-negative bitmask; got {bits}")
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def _plain(kind: type) -> type:
    """Return a plain class whose attributes are `kind`'s members (the same objects).

    CPython 3.11 reads an enum member (``Act.PASS``) through ``EnumType.__getattr__``, four
    times slower than a plain class attribute. `Game` reads members a dozen times a move, so
    its methods read them from these copies (``_Act.PASS is Act.PASS``): 10% of a move in
    ``scripts/bench_env.py``.
    """
    return type(kind.__name__, (), dict(kind.__members__))


_Act = _plain(Act)
_Answer = _plain(Answer)
_Cause = _plain(Cause)
_Ev = _plain(Ev)
_NoVote = _plain(NoVote)
_Outcome = _plain(Outcome)
_Role = _plain(Role)
_Spared = _plain(Spared)
_Team = _plain(Team)
_Turn = _plain(Turn)


class Game:
    """One game: the state, what is legal now, and the transition."""

    def __init__(self, rules: Rules, n: int, seed: int, deal: list[Role] | None = None):
        rules.check_players(n)
        self.rules = rules
        self.n = n
        self.rng = random.Random(seed)
        dealt = [r for r, c in rules.role_counts(n).items() for _ in range(c)]
        self.rng.shuffle(
            dealt
        )  # COMMON-1; drawn even for a given deal, so the seed's stream is one
        self.roles: list[Role] = list(deal) if deal is not None else dealt
        self.teams: list[Team] = [r.team for r in self.roles]
        self.alive = [True] * n
        self.alive_seats = list(range(n))
        self.alive_bits = (1 << n) - 1
        self.team_alive = [0, 0, 0]
        for t in self.teams:
            self.team_alive[t] += 1
        self.mafia_mask = sum(1 << s for s in range(n) if self.teams[s] is _Team.MAFIA)
        self.night_order = rules.night_order.split()
        self.fouls = [0] * n
        self.silenced_on = [0] * n  # the day whose speech a player loses for his fouls
        self.events: list[tuple[int, int, int, int, int]] = []
        self.inputs: list[
            tuple[int, int, int, int]
        ] = []  # (seat, act, target, value); act -1: a moderator's foul, -2: the game stopped
        self.day = 0
        self.winner: Outcome | None = None
        self.truncated = False
        self.offender = -1  # seat whose illegal action stopped the game
        self.actor = -1
        self.turn: Turn | None = None
        self.queue: deque[tuple[int, Turn]] = deque()
        self._then: Callable[[], None] | None = None
        # the day
        self.first_speaker = -1
        self.nominees: list[int] = []
        self.nominee_bits = 0
        self.named = [0] * n  # CLUB-E1: times each seat was named in today's round
        self.candidates: list[int] = []
        self.candidate_bits = 0
        self.ballots: list[tuple[int, int, bool]] = []
        self.crash_ballots: list[tuple[int, bool]] = []
        self.revote = False
        self.acts_left = 0
        self.nominated = False
        self.asked = 0  # questions asked in the current speech
        self._asker: tuple[int, Turn] | None = None  # the speaker waiting for an answer
        self.night_victims: list[int] = []
        # the night
        self.shots: dict[int, int] = {}
        self.executors: dict[int, int] = {}
        self.blocked = -1  # the putana's visit tonight
        self.heal = -1  # the doctor's heal tonight
        self.heal_prev = -1  # the last heal that counts for the no-repeat rule
        self.self_heals = 0
        self.maniac_shot = -1
        self.hunts: list[tuple[int, int]] = []  # (hunter, target), in request order
        self.don_introduced = rules.don_known
        self._claims = [self._claim_options(s) for s in range(n)]
        self._start()

    # ----------------------------------------------------------------- queries

    @property
    def over(self) -> bool:
        return self.winner is not None or self.offender >= 0

    def legal(self) -> Options:
        """Return the acting player's legal actions as (act, targets) pairs.

        `targets` is a bitmask of seats (bit s set: seat s may be targeted; `seats()` lists
        them), or None for an act that takes no target (or, for CLAIM_ROLE, ASK's roles and
        ANSWER, any value of the segment).
        """
        t, s, r = self.turn, self.actor, self.rules
        me = 1 << s
        alive = self.alive_bits
        if t in SPEECH_TURNS:
            opts: Options = [(_Act.PASS, None)]
            if t is _Turn.SPEECH and r.nominations == "speech" and not self.nominated:
                bits = alive & ~self.nominee_bits & (-1 if r.self_nomination else ~me)
                if bits:
                    opts.append((_Act.NOMINATE, bits))
            if t is _Turn.SPEECH and self.asked < r.questions and alive & ~me:  # ONLINE-D4
                opts.append((_Act.ASK, alive & ~me))
            if r.claims:
                opts += self._claims[s]
            return opts
        if t is _Turn.VOTE:
            bits = self.candidate_bits & (-1 if r.self_vote else ~me)
            return [(_Act.PASS, None), (_Act.VOTE, bits)] if bits else [(_Act.PASS, None)]
        if t is _Turn.CRASH_VOTE:
            return [(_Act.VOTE_YES, None), (_Act.VOTE_NO, None)]
        if t is _Turn.MAFIA_KILL:
            bits = alive & ~me & (-1 if r.mafia_target_team else ~self.mafia_mask)
            if self._may_shoot_self():
                bits |= me
            opts = [(_Act.NIGHT, bits)] if bits else []
            if r.mafia_pass or not bits:
                opts.insert(0, (_Act.PASS, None))
            if not self.don_introduced and self.roles[s] is _Role.DON:  # ONLINE-N2
                opts.append((_Act.REVEAL_DON, None))
            return opts
        if t is _Turn.EXECUTOR:
            return [(_Act.EXECUTOR, alive & self.mafia_mask)]
        if t is _Turn.DON_CHECK or t is _Turn.SHERIFF_CHECK:
            opts = [(_Act.NIGHT, alive & ~me)]
            return [(_Act.PASS, None), *opts] if r.check_skip else opts
        if t is _Turn.PUTANA:
            return [(_Act.NIGHT, alive if r.putana_self else alive & ~me)]
        if t is _Turn.MANIAC:  # CITY-N8: he may refuse
            return [(_Act.PASS, None), (_Act.NIGHT, alive & ~me)]
        if t is _Turn.DOCTOR:  # CITY-N7, ONLINE-N6
            bits = alive
            if not r.heal_repeat and self.heal_prev >= 0:
                bits &= ~(1 << self.heal_prev)
            if r.heal_self is not None and self.self_heals >= r.heal_self:
                bits &= ~me
            if r.heal_skip or not bits:
                return [(_Act.PASS, None), (_Act.NIGHT, bits)] if bits else [(_Act.PASS, None)]
            return [(_Act.NIGHT, bits)]
        if t is _Turn.HUNT:
            return [(_Act.PASS, None), (_Act.HUNT, alive & ~me)]
        if t is _Turn.NAMING:  # CLUB-E1: never one's own number
            return [(_Act.NOMINATE, alive & ~me)]
        if t is _Turn.ANSWER:
            return [(_Act.ANSWER, None)]
        raise RuntimeError("the game is over: nobody acts")

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

    def mafia_seats(self) -> list[int]:
        return [s for s in range(self.n) if self.teams[s] is _Team.MAFIA]

    def hunt_allowed(self) -> bool:
        """Return whether the town still has the right to hunt (FORUM-N7)."""
        town, black, _ = self.team_alive
        return self.rules.hunt and town > 1 and town > self.rules.hunt_ratio * black

    def _may_shoot_self(self) -> bool:
        mode = self.rules.self_shot  # ONLINE-N4: a lone mafia member may choose himself
        return mode == "always" or (mode == "lone" and self.team_alive[_Team.MAFIA] == 1)

    # -------------------------------------------------------------- transitions

    def apply(self, act: Act, target: int = -1, value: int = -1) -> None:
        """Carry out the acting player's action; it must be one that `legal()` allows."""
        s, t = self.actor, self.turn
        self.inputs.append((s, act, target, value))
        if t in SPEECH_TURNS:
            if act is _Act.PASS:
                self._log(_Ev.END_SPEECH, s)
                self._advance()
                return
            if act is _Act.ASK:  # ONLINE-D4: the asked player answers at once
                self._log(_Ev.ASK, s, target, value)
                self.asked += 1
                self.acts_left -= 1
                self._asker = (s, t)
                self.actor, self.turn = target, _Turn.ANSWER
                return
            self._log(SPEECH_EVENT[act], s, target, value)
            if act is _Act.NOMINATE:
                self.nominees.append(target)
                self.nominee_bits |= 1 << target
                self.nominated = True
            self.acts_left -= 1
            if self.acts_left == 0:  # COMMON-5: at most K acts; the K-th ends the speech
                self._log(_Ev.END_SPEECH, s)
                self._advance()
            return
        if t is _Turn.ANSWER:
            asker = self._asker[0] if self._asker is not None else -1
            self._log(_Ev.ANSWER, s, asker, value)
            self._resume_speech()
            return
        if act is _Act.REVEAL_DON:  # ONLINE-N2
            self.don_introduced = True
            self._log(_Ev.DON_INTRODUCED, s, -1, _Role.DON, self.mafia_mask)
            return  # he still shoots this turn
        team_sees = self.mafia_mask if self.rules.mafia_see_shots else 1 << s
        if t is _Turn.VOTE:
            if act is _Act.VOTE:
                self.ballots.append((s, target, False))
            elif self.rules.silent_vote == "last_nominee":
                self.ballots.append((s, self.candidates[-1], True))
            else:
                self.ballots.append((s, -1, False))
        elif t is _Turn.CRASH_VOTE:
            self.crash_ballots.append((s, act is _Act.VOTE_YES))
        elif t is _Turn.NAMING:  # CLUB-E1: named more than the threshold: nominated
            self._log(_Ev.NAME, s, target)
            self.named[target] += 1
            if self.named[target] == self.rules.naming_threshold + 1:
                self.nominees.append(target)
                self.nominee_bits |= 1 << target
                self._log(_Ev.NOMINATE, -1, target)
        elif t is _Turn.MAFIA_KILL:
            self.shots[s] = target if act is _Act.NIGHT else -1
            self._log(_Ev.SHOT, s, self.shots[s], -1, team_sees)
            if act is _Act.NIGHT and self.rules.mafia_kill == "executor":
                self.queue.appendleft((s, _Turn.EXECUTOR))  # FORUM-N1
        elif t is _Turn.EXECUTOR:
            self.executors[s] = target
            self._log(_Ev.EXECUTOR, s, target, -1, team_sees)
        elif t is _Turn.PUTANA:
            self.blocked = target
            self._log(_Ev.VISIT, s, target, -1, 1 << s)
        elif t is _Turn.DOCTOR:
            if act is _Act.NIGHT:
                self.heal = target
                self._log(_Ev.HEAL, s, target, -1, 1 << s)
        elif t is _Turn.MANIAC:
            self.maniac_shot = target if act is _Act.NIGHT else -1
            self._log(_Ev.SHOT, s, self.maniac_shot, -1, 1 << s)
        elif t is _Turn.HUNT:
            if act is _Act.HUNT:
                self.hunts.append((s, target))
                self._log(_Ev.HUNT, s, target, -1, 1 << s)
        elif act is _Act.NIGHT:  # a check
            if t is _Turn.DON_CHECK:
                hit = self.roles[target] is _Role.SHERIFF
            else:  # the sheriff sees black for the mafia team only (a maniac is "not mafia")
                hit = self.teams[target] is _Team.MAFIA
            self._log(_Ev.CHECK, s, target, int(hit), 1 << s)
        self._advance()

    def foul(self, seat: int) -> None:
        """Give `seat` a foul (SPORT-F1, ONLINE-F1): silence or remove him at the thresholds."""
        r = self.rules
        self.inputs.append((seat, -1, -1, -1))
        self.fouls[seat] += 1
        count = self.fouls[seat]
        self._log(_Ev.FOUL, -1, seat, count)
        if r.fouls_mute and count == r.fouls_mute:
            self.silenced_on[seat] = self.day + 1
        if r.fouls_remove and count >= r.fouls_remove:
            if self.alive[seat]:  # removed at once, without a last word
                self._eliminate(seat, _Cause.FOUL)
                if self._check_win():
                    return
            if seat == self.actor:  # his turn ends, a last word too
                if self.turn is _Turn.ANSWER:  # the speaker who asked him goes on
                    self._resume_speech()
                else:
                    self._advance()

    def terminate(self, seat: int) -> None:
        """Stop the game for `seat`'s illegal action (COMMON-7, knob illegal_action: terminate)."""
        self.inputs.append((seat, -2, -1, -1))
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
        if self.rules.zero_night:  # COMMON-3: the mafia meet; nobody acts
            self._log(_Ev.NIGHT, value=0)
        self._then = self._start_day
        self._advance()

    def _start_day(self) -> None:
        self.day += 1
        if self.day > self.rules.day_limit(self.n):  # COMMON-4: truncated as a draw
            self.truncated = True
            self._finish(_Outcome.DRAW)
            return
        self._log(_Ev.DAY, value=self.day)
        self.nominees = []
        self.nominee_bits = 0
        self.revote = False
        q = self.queue
        if self.rules.last_word_night:
            q.extend((v, _Turn.LAST_WORD) for v in self.night_victims)
        self.first_speaker = self._next_alive(self.first_speaker)  # ONLINE-D2, SPORT-D3
        seats = self.alive_seats
        i = seats.index(self.first_speaker)
        for s in seats[i:] + seats[:i]:
            if self.silenced_on[s] == self.day:  # SPORT-F1: three fouls, no speech
                self._log(_Ev.SILENCED, -1, s)
            else:
                q.append((s, _Turn.SPEECH))
        if self.rules.nominations == "round":
            self._then = self._start_naming
        else:
            self._then = self._after_speeches

    def _start_naming(self) -> None:
        """CLUB-E1: every player, from seat 1 on, names one seat."""
        self.named = [0] * self.n
        self.queue.extend((s, _Turn.NAMING) for s in self.alive_seats)
        self._then = self._after_speeches

    def _after_speeches(self) -> None:
        noms = [x for x in self.nominees if self.alive[x]]
        if not noms:
            self._log(_Ev.NO_VOTE, value=_NoVote.NO_NOMINEES)  # CLUB-E6
            self._start_night()
        elif len(noms) == 1 and self.day == 1 and self.rules.single_nominee == "skip_day1":
            self._log(_Ev.NO_VOTE, value=_NoVote.SINGLE_NOMINEE_DAY1)  # SPORT-D4
            self._start_night()
        elif self.rules.nominee_speeches:  # CLUB-E2: monologues in nomination order
            self.queue.extend((c, _Turn.MONOLOGUE) for c in noms)
            self._then = lambda: self._start_vote([c for c in noms if self.alive[c]])
        else:
            self._start_vote(noms)

    def _start_vote(self, candidates: list[int]) -> None:
        if not candidates:
            self._log(_Ev.NO_VOTE, value=_NoVote.NO_NOMINEES)
            self._start_night()
            return
        self.candidates = candidates
        self.candidate_bits = sum(1 << c for c in candidates)
        self.ballots = []
        self._log(_Ev.VOTING, value=sum(1 << c for c in candidates))
        nominees_vote = self.rules.nominees_vote  # CLUB-E3: nominees may not vote
        self.queue.extend(
            (s, _Turn.VOTE) for s in self.alive_seats if nominees_vote or s not in candidates
        )
        self._then = self._resolve_vote

    def _resolve_vote(self) -> None:
        cands = [c for c in self.candidates if self.alive[c]]
        tally = dict.fromkeys(cands, 0)
        for voter, target, silent in self.ballots:  # COMMON-8: ballots go public together
            if self.alive[voter]:
                self._log(_Ev.BALLOT, voter, target, int(silent))
                if target in tally:
                    tally[target] += 1
        r = self.rules
        if len(cands) == 1 and r.single_nominee == "strict_majority":
            c = cands[0]
            others = sum(1 for v, t, _ in self.ballots if t == c and v != c and self.alive[v])
            if 2 * others > len(self.alive_seats):
                self._remove_by_vote([c])
            else:
                self._spare(_Spared.NO_MAJORITY)
            return
        best = max(tally.values(), default=0)
        if best == 0:
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
        elif not self.revote:  # first tie: (speeches), then a re-vote among the tied
            self.revote = True
            if r.tie_speeches:
                self.queue.extend((c, _Turn.TIE_SPEECH) for c in top)
            self._then = lambda: self._start_vote(top)
        elif r.tie == "revote_then_crash":  # SPORT-D3: the car crash
            self.candidates = top
            self.candidate_bits = sum(1 << c for c in top)
            self.crash_ballots = []
            self._log(_Ev.CRASH, value=sum(1 << c for c in top))
            self.queue.extend((s, _Turn.CRASH_VOTE) for s in self.alive_seats)
            self._then = self._resolve_crash
        elif r.tie == "revote_then_all_leave":
            self._remove_by_vote(top)
        else:
            self._spare(_Spared.TIE)

    def _resolve_crash(self) -> None:
        yes = 0
        for voter, said_yes in self.crash_ballots:  # COMMON-8: public once all have voted
            if self.alive[voter]:
                self._log(_Ev.CRASH_BALLOT, voter, -1, int(said_yes))
                yes += said_yes
        if 2 * yes > len(self.alive_seats):  # strictly more than half say yes
            self._remove_by_vote([c for c in self.candidates if self.alive[c]])
        else:
            self._spare(_Spared.CRASH_FAILED)

    def _spare(self, why: Spared) -> None:
        self._log(_Ev.SPARED, value=why)
        self._start_night()

    def _remove_by_vote(self, seats: list[int]) -> None:
        for s in seats:
            self._eliminate(s, _Cause.VOTE)
        if self._check_win():
            return
        if self.rules.last_word_vote:
            self.queue.extend((s, _Turn.LAST_WORD) for s in seats)
            self._then = self._start_night
        else:
            self._start_night()

    def _start_night(self) -> None:
        self._log(_Ev.NIGHT, value=self.day)
        self.shots = {}
        self.executors = {}
        self.night_victims = []
        self.blocked = self.heal = self.maniac_shot = -1
        self.hunts = []
        r, q, roles = self.rules, self.queue, self.roles
        alive = self.alive_seats
        for step in self.night_order:  # CITY-N1, ONLINE-N3: the wake order
            if step == "mafia":
                black = [s for s in alive if self.teams[s] is _Team.MAFIA]
                if r.mafia_kill == "don":  # CITY-N3: the others propose first, the don decides
                    black.sort(key=lambda s: roles[s] is _Role.DON)
                q.extend((s, _Turn.MAFIA_KILL) for s in black)
            elif step == "don" and r.don_check:
                q.extend((s, _Turn.DON_CHECK) for s in alive if roles[s] is _Role.DON)
            elif step == "sheriff" and r.sheriff_check:
                q.extend((s, _Turn.SHERIFF_CHECK) for s in alive if roles[s] is _Role.SHERIFF)
            elif step == "putana":
                q.extend((s, _Turn.PUTANA) for s in alive if roles[s] is _Role.PUTANA)
            elif step == "doctor":
                q.extend((s, _Turn.DOCTOR) for s in alive if roles[s] is _Role.DOCTOR)
            elif step == "maniac":
                q.extend((s, _Turn.MANIAC) for s in alive if roles[s] is _Role.MANIAC)
            elif step == "hunt" and self.hunt_allowed():  # FORUM-N3, N7
                q.extend((s, _Turn.HUNT) for s in alive if self.teams[s] is _Team.TOWN)
        self._then = self._morning

    def _mafia_target(self) -> tuple[int, int, bool]:
        """Return the mafia's victim (-1: none), its executor, and whether they forfeit."""
        shots = [(s, t) for s, t in self.shots.items() if self.alive[s]]
        if not shots:
            return -1, -1, False
        r = self.rules
        if r.mafia_kill == "don":  # CITY-N3: while the don is alive his choice is theirs
            for s, t in shots:
                if self.roles[s] is _Role.DON:
                    return t, s, False
        targets = {t for _, t in shots}
        if len(targets) > 1:  # SPORT-N1, CLUB-N1, ONLINE-N4: a miss; CITY-N4: a forfeit
            return -1, -1, r.mafia_split == "forfeit"
        victim = targets.pop()
        if victim < 0:
            return -1, -1, False
        executor = shots[0][0]
        if r.mafia_kill == "executor":  # FORUM-N1: they agree on the executor too
            named = {self.executors.get(s, -1) for s, _ in shots}
            if len(named) > 1:
                return -1, -1, False
            executor = named.pop()
        return victim, executor, False

    def _morning(self) -> None:
        r, roles = self.rules, self.roles
        dead: list[tuple[int, Cause]] = []
        victim, executor, forfeit = self._mafia_target()
        maniac = self.maniac_shot  # a blocked maniac did not shoot (CITY-N2)
        hunted = -1
        if self.hunts:  # FORUM-N3: one request drawn by lot; FORUM-N4: it has priority
            hunter, target = self.hunts[self.rng.randrange(len(self.hunts))]
            if self.teams[target] is _Team.TOWN:
                dead.append((hunter, _Cause.HUNTER))
            else:
                hunted = target
                dead.append((target, _Cause.HUNTED))
                if target == executor:  # FORUM-N5: the executor's victim survives
                    victim = -1
                if roles[target] is _Role.MANIAC:  # FORUM-N5: the maniac's victim survives
                    maniac = -1
        heal = self.heal  # a blocked doctor healed nobody (CITY-N2)
        shot_made = victim >= 0
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
        for killed, cause in zip((victim, maniac), shot_causes, strict=True):
            if killed >= 0 and killed != hunted and all(killed != d for d, _ in dead):
                shot_dead.append((killed, cause))
                companion = self.blocked  # CITY-N9: he leaves with her (unless healed, by knob)
                saved = r.companion_heal and companion == heal
                if roles[killed] is _Role.PUTANA and companion >= 0 and not saved:
                    shot_dead.append((companion, _Cause.COMPANION))
        dead = shot_dead + dead
        if forfeit:  # CITY-N4: the mafia could not agree: the whole team leaves
            dead += [(s, _Cause.FORFEIT) for s in self.alive_seats if self.teams[s] is _Team.MAFIA]
        self._count_heal(heal, shot_made)
        gone: set[int] = set()
        for seat, cause in dead:
            if seat not in gone and self.alive[seat]:
                gone.add(seat)
                self._eliminate(seat, cause)
                if cause is not _Cause.FORFEIT:
                    self.night_victims.append(seat)
        if not gone:
            self._log(_Ev.MISS)
        if not self._check_win():
            self._start_day()

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
        self._log(_Ev.HEAL_STATE, doctor, self.heal_prev, self.self_heals, 1 << doctor)

    # ----------------------------------------------------------------- helpers

    def _advance(self) -> None:
        """Hand the turn to the next player in the queue, running stages as it drains."""
        q = self.queue
        while not self.over:
            while q:
                seat, turn = q.popleft()
                if not (self.alive[seat] or turn is _Turn.LAST_WORD):
                    continue
                if turn in BLOCKABLE and seat == self.blocked:  # CITY-N2: crossed arms
                    self._log(_Ev.BLOCKED, seat, -1, turn, 1 << seat)
                    continue
                if turn is _Turn.DOCTOR and any(h == seat for h, _ in self.hunts):
                    continue  # FORUM-N6: a doctor who requested a hunt cannot heal
                self.actor, self.turn = seat, turn
                if turn in SPEECH_TURNS:
                    self.acts_left = self.rules.speech_acts
                    self.nominated = False
                    self.asked = 0
                    self._log(_Ev.SPEAK, seat, -1, turn)
                return
            then, self._then = self._then, None
            assert then is not None, "a stage ended without naming the next one"
            then()
        self._end_turns()

    def _resume_speech(self) -> None:
        """Hand the turn back to the speaker who asked a question (ONLINE-D4)."""
        asker, self._asker = self._asker, None
        if asker is None or not (self.alive[asker[0]] or asker[1] is _Turn.LAST_WORD):
            self._advance()
            return
        self.actor, self.turn = asker
        if self.acts_left == 0:  # the question was his last act
            self._log(_Ev.END_SPEECH, asker[0])
            self._advance()

    def _end_turns(self) -> None:
        self.actor, self.turn = -1, None
        self.queue.clear()
        self._then = None

    def _eliminate(self, seat: int, cause: Cause) -> None:
        self.alive[seat] = False
        self.alive_seats.remove(seat)
        self.alive_bits &= ~(1 << seat)
        self.team_alive[self.teams[seat]] -= 1
        self._log(_Ev.ELIMINATED, -1, seat, cause)
        reveal = self.rules.reveal_on_death  # CLUB-E4, CLUB-N3; CITY-M1: only the maniac
        if reveal == "all" or (reveal == "maniac" and self.roles[seat] is _Role.MANIAC):
            self._log(_Ev.REVEAL, -1, seat, self.roles[seat])

    def _check_win(self) -> bool:
        """End the game if a team has won (COMMON-4, SPORT-W1); return whether it ended."""
        town, black, maniac = self.team_alive
        if black == 0 and maniac == 0:
            outcome = _Outcome.TOWN
        elif maniac == 0 and black >= town:
            outcome = _Outcome.MAFIA
        elif black == 0 and town <= 1:
            outcome = _Outcome.MANIAC
        elif town == 0 and black + maniac <= 2:  # one mafia and the maniac: stalemate
            outcome = _Outcome.DRAW
        else:
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

    def _claim_options(self, s: int) -> Options:
        others = ((1 << self.n) - 1) & ~(1 << s)
        return [
            (_Act.CLAIM_ROLE, None),
            (_Act.CLAIM_CHECK, others),
            (_Act.ACCUSE, others),
            (_Act.VOUCH, others),
        ]

    def _log(
        self, kind: Ev, actor: int = -1, target: int = -1, value: int = -1, seen_by: int = PUBLIC
    ) -> None:
        self.events.append((kind, actor, target, value, seen_by))
