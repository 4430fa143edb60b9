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

from mafia_env.engine.events import PUBLIC, Cause, Ev, NoVote, Outcome, Spared
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


SPEECH_TURNS = frozenset({Turn.SPEECH, Turn.LAST_WORD, Turn.TIE_SPEECH})
NIGHT_TURNS = frozenset({Turn.MAFIA_KILL, Turn.DON_CHECK, Turn.SHERIFF_CHECK})
SPEECH_EVENT = {
    Act.CLAIM_ROLE: Ev.CLAIM_ROLE,
    Act.CLAIM_CHECK: Ev.CLAIM_CHECK,
    Act.ACCUSE: Ev.ACCUSE,
    Act.VOUCH: Ev.VOUCH,
    Act.NOMINATE: Ev.NOMINATE,
}

Options = list[tuple[Act, list[int] | None]]


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
        self.team_alive = [0, 0, 0]
        for t in self.teams:
            self.team_alive[t] += 1
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
        self.candidates: list[int] = []
        self.ballots: list[tuple[int, int, bool]] = []
        self.crash_ballots: list[tuple[int, bool]] = []
        self.revote = False
        self.acts_left = 0
        self.nominated = False
        self.night_victims: list[int] = []
        # the night
        self.shots: dict[int, int] = {}
        self._claims = [self._claim_options(s) for s in range(n)]
        self._start()

    # ----------------------------------------------------------------- queries

    @property
    def over(self) -> bool:
        return self.winner is not None or self.offender >= 0

    def legal(self) -> Options:
        """Return the acting player's legal actions as (act, targets) pairs.

        `targets` is a list of seats, or None for an act that takes no target (or, for
        CLAIM_ROLE, any role of the variant).
        """
        t, s, r = self.turn, self.actor, self.rules
        if t in SPEECH_TURNS:
            opts: Options = [(Act.PASS, None)]
            if t is Turn.SPEECH and r.nominations == "speech" and not self.nominated:
                noms = self.nominees
                targets = [
                    x for x in self.alive_seats if x not in noms and (x != s or r.self_nomination)
                ]
                if targets:
                    opts.append((Act.NOMINATE, targets))
            if r.claims:
                opts += self._claims[s]
            return opts
        if t is Turn.VOTE:
            targets = [c for c in self.candidates if c != s or r.self_vote]
            return [(Act.PASS, None), (Act.VOTE, targets)] if targets else [(Act.PASS, None)]
        if t is Turn.CRASH_VOTE:
            return [(Act.VOTE_YES, None), (Act.VOTE_NO, None)]
        if t is Turn.MAFIA_KILL:
            targets = self.alive_seats
            if not r.mafia_target_team:
                targets = [x for x in targets if self.teams[x] is not Team.MAFIA]
            return [(Act.PASS, None), (Act.NIGHT, targets)]
        if t is Turn.DON_CHECK or t is Turn.SHERIFF_CHECK:
            opts = [(Act.NIGHT, [x for x in self.alive_seats if x != s])]
            return [(Act.PASS, None), *opts] if r.check_skip else opts
        raise RuntimeError("the game is over: nobody acts")

    def default_action(self) -> tuple[Act, int, int]:
        """Return what the acting player does when he does nothing (a timeout, a foul)."""
        opts = self.legal()
        acts = [a for a, _ in opts]
        if Act.PASS in acts:
            return Act.PASS, -1, -1
        if Act.VOTE_NO in acts:
            return Act.VOTE_NO, -1, -1
        act, targets = opts[0]
        return act, (targets[0] if targets else -1), (0 if act is Act.CLAIM_ROLE else -1)

    def mafia_seats(self) -> list[int]:
        return [s for s in range(self.n) if self.teams[s] is Team.MAFIA]

    # -------------------------------------------------------------- transitions

    def apply(self, act: Act, target: int = -1, value: int = -1) -> None:
        """Carry out the acting player's action; it must be one that `legal()` allows."""
        s, t = self.actor, self.turn
        self.inputs.append((s, act, target, value))
        if t in SPEECH_TURNS:
            if act is Act.PASS:
                self._log(Ev.END_SPEECH, s)
                self._advance()
                return
            self._log(SPEECH_EVENT[act], s, target, value)
            if act is Act.NOMINATE:
                self.nominees.append(target)
                self.nominated = True
            self.acts_left -= 1
            if self.acts_left == 0:  # COMMON-5: at most K acts; the K-th ends the speech
                self._log(Ev.END_SPEECH, s)
                self._advance()
            return
        if t is Turn.VOTE:
            if act is Act.VOTE:
                self.ballots.append((s, target, False))
            elif self.rules.silent_vote == "last_nominee":
                self.ballots.append((s, self.candidates[-1], True))
            else:
                self.ballots.append((s, -1, False))
        elif t is Turn.CRASH_VOTE:
            self.crash_ballots.append((s, act is Act.VOTE_YES))
        elif t is Turn.MAFIA_KILL:
            self.shots[s] = target if act is Act.NIGHT else -1
            self._log(Ev.SHOT, s, self.shots[s], -1, 1 << s)
        elif act is Act.NIGHT:  # a check
            if t is Turn.DON_CHECK:
                hit = self.roles[target] is Role.SHERIFF
            else:  # the sheriff sees black for the mafia team only (a maniac is "not mafia")
                hit = self.teams[target] is Team.MAFIA
            self._log(Ev.CHECK, s, target, int(hit), 1 << s)
        self._advance()

    def foul(self, seat: int) -> None:
        """Give `seat` a foul (SPORT-F1, ONLINE-F1): silence or remove him at the thresholds."""
        r = self.rules
        self.inputs.append((seat, -1, -1, -1))
        self.fouls[seat] += 1
        count = self.fouls[seat]
        self._log(Ev.FOUL, -1, seat, count)
        if r.fouls_mute and count == r.fouls_mute:
            self.silenced_on[seat] = self.day + 1
        if r.fouls_remove and count >= r.fouls_remove:
            if self.alive[seat]:  # removed at once, without a last word
                self._eliminate(seat, Cause.FOUL)
                if self._check_win():
                    return
            if seat == self.actor:  # his turn ends, a last word too
                self._advance()

    def terminate(self, seat: int) -> None:
        """Stop the game for `seat`'s illegal action (COMMON-7, knob illegal_action: terminate)."""
        self.inputs.append((seat, -2, -1, -1))
        self.offender = seat
        self._log(Ev.TERMINATED, seat)
        self._end_turns()

    # ------------------------------------------------------------------ stages

    def _start(self) -> None:
        for s, role in enumerate(self.roles):
            self._log(Ev.ROLE, s, -1, role, 1 << s)
        black = self.mafia_seats()
        for s in black:  # COMMON-2: the mafia know each other
            for mate in black:
                if mate != s:
                    self._log(Ev.TEAMMATE, s, mate, self.roles[mate], 1 << s)
        if self.rules.zero_night:  # COMMON-3: the mafia meet; nobody acts
            self._log(Ev.NIGHT, value=0)
        self._then = self._start_day
        self._advance()

    def _start_day(self) -> None:
        self.day += 1
        if self.day > self.rules.day_limit(self.n):  # COMMON-4: truncated as a draw
            self.truncated = True
            self._finish(Outcome.DRAW)
            return
        self._log(Ev.DAY, value=self.day)
        self.nominees = []
        self.revote = False
        q = self.queue
        if self.rules.last_word_night:
            q.extend((v, Turn.LAST_WORD) for v in self.night_victims)
        self.first_speaker = self._next_alive(self.first_speaker)
        seats = self.alive_seats
        i = seats.index(self.first_speaker)
        for s in seats[i:] + seats[:i]:
            if self.silenced_on[s] == self.day:  # SPORT-F1: three fouls, no speech
                self._log(Ev.SILENCED, -1, s)
            else:
                q.append((s, Turn.SPEECH))
        self._then = self._after_speeches

    def _after_speeches(self) -> None:
        noms = [x for x in self.nominees if self.alive[x]]
        if not noms:
            self._log(Ev.NO_VOTE, value=NoVote.NO_NOMINEES)
            self._start_night()
        elif len(noms) == 1 and self.day == 1 and self.rules.single_nominee == "skip_day1":
            self._log(Ev.NO_VOTE, value=NoVote.SINGLE_NOMINEE_DAY1)  # SPORT-D4
            self._start_night()
        else:
            self._start_vote(noms)

    def _start_vote(self, candidates: list[int]) -> None:
        self.candidates = candidates
        self.ballots = []
        self._log(Ev.VOTING, value=sum(1 << c for c in candidates))
        nominees_vote = self.rules.nominees_vote
        self.queue.extend(
            (s, Turn.VOTE) for s in self.alive_seats if nominees_vote or s not in candidates
        )
        self._then = self._resolve_vote

    def _resolve_vote(self) -> None:
        cands = [c for c in self.candidates if self.alive[c]]
        tally = dict.fromkeys(cands, 0)
        for voter, target, silent in self.ballots:  # COMMON-8: ballots go public together
            if self.alive[voter]:
                self._log(Ev.BALLOT, voter, target, int(silent))
                if target in tally:
                    tally[target] += 1
        r = self.rules
        if len(cands) == 1 and r.single_nominee == "strict_majority":
            c = cands[0]
            others = sum(1 for v, t, _ in self.ballots if t == c and v != c and self.alive[v])
            if 2 * others > len(self.alive_seats):
                self._remove_by_vote([c])
            else:
                self._spare(Spared.NO_MAJORITY)
            return
        best = max(tally.values(), default=0)
        if best == 0:
            self._spare(Spared.NO_VOTES)
            return
        top = [c for c in cands if tally[c] == best]
        if len(top) == 1:
            self._remove_by_vote(top)
            return
        self._log(Ev.TIE, value=sum(1 << c for c in top))
        if r.tie == "random":
            self._remove_by_vote([self.rng.choice(top)])
        elif r.tie == "none":
            self._spare(Spared.TIE)
        elif not self.revote:  # first tie: (speeches), then a re-vote among the tied
            self.revote = True
            if r.tie_speeches:
                self.queue.extend((c, Turn.TIE_SPEECH) for c in top)
            self._then = lambda: self._start_vote(top)
        elif r.tie == "revote_then_crash":  # SPORT-D3: the car crash
            self.candidates = top
            self.crash_ballots = []
            self._log(Ev.CRASH, value=sum(1 << c for c in top))
            self.queue.extend((s, Turn.CRASH_VOTE) for s in self.alive_seats)
            self._then = self._resolve_crash
        elif r.tie == "revote_then_all_leave":
            self._remove_by_vote(top)
        else:
            self._spare(Spared.TIE)

    def _resolve_crash(self) -> None:
        yes = 0
        for voter, said_yes in self.crash_ballots:  # COMMON-8: public once all have voted
            if self.alive[voter]:
                self._log(Ev.CRASH_BALLOT, voter, -1, int(said_yes))
                yes += said_yes
        if 2 * yes > len(self.alive_seats):  # strictly more than half say yes
            self._remove_by_vote([c for c in self.candidates if self.alive[c]])
        else:
            self._spare(Spared.CRASH_FAILED)

    def _spare(self, why: Spared) -> None:
        self._log(Ev.SPARED, value=why)
        self._start_night()

    def _remove_by_vote(self, seats: list[int]) -> None:
        for s in seats:
            self._eliminate(s, Cause.VOTE)
        if self._check_win():
            return
        if self.rules.last_word_vote:
            self.queue.extend((s, Turn.LAST_WORD) for s in seats)
            self._then = self._start_night
        else:
            self._start_night()

    def _start_night(self) -> None:
        self._log(Ev.NIGHT, value=self.day)
        self.shots = {}
        self.night_victims = []
        r, q = self.rules, self.queue
        alive = self.alive_seats
        q.extend((s, Turn.MAFIA_KILL) for s in alive if self.teams[s] is Team.MAFIA)
        if r.don_check:
            q.extend((s, Turn.DON_CHECK) for s in alive if self.roles[s] is Role.DON)
        if r.sheriff_check:
            q.extend((s, Turn.SHERIFF_CHECK) for s in alive if self.roles[s] is Role.SHERIFF)
        self._then = self._morning

    def _morning(self) -> None:
        # SPORT-N1: the kill happens only if every black player alive shot the same seat;
        # a player shot tonight still acted tonight, since deaths come at morning.
        shots = [t for s, t in self.shots.items() if self.alive[s]]
        if shots and shots[0] >= 0 and shots.count(shots[0]) == len(shots):
            victim = shots[0]
            self.night_victims = [victim]
            self._eliminate(victim, Cause.NIGHT)
        else:
            self._log(Ev.MISS)
        if not self._check_win():
            self._start_day()

    # ----------------------------------------------------------------- helpers

    def _advance(self) -> None:
        """Hand the turn to the next player in the queue, running stages as it drains."""
        q = self.queue
        while not self.over:
            while q:
                seat, turn = q.popleft()
                if self.alive[seat] or turn is Turn.LAST_WORD:
                    self.actor, self.turn = seat, turn
                    if turn in SPEECH_TURNS:
                        self.acts_left = self.rules.speech_acts
                        self.nominated = False
                        self._log(Ev.SPEAK, seat, -1, turn)
                    return
            then, self._then = self._then, None
            assert then is not None, "a stage ended without naming the next one"
            then()
        self._end_turns()

    def _end_turns(self) -> None:
        self.actor, self.turn = -1, None
        self.queue.clear()
        self._then = None

    def _eliminate(self, seat: int, cause: Cause) -> None:
        self.alive[seat] = False
        self.alive_seats.remove(seat)
        self.team_alive[self.teams[seat]] -= 1
        self._log(Ev.ELIMINATED, -1, seat, cause)
        reveal = self.rules.reveal_on_death
        if reveal == "all" or (reveal == "maniac" and self.roles[seat] is Role.MANIAC):
            self._log(Ev.REVEAL, -1, seat, self.roles[seat])

    def _check_win(self) -> bool:
        """End the game if a team has won (COMMON-4, SPORT-W1); return whether it ended."""
        town, black, maniac = self.team_alive
        if black == 0 and maniac == 0:
            outcome = Outcome.TOWN
        elif maniac == 0 and black >= town:
            outcome = Outcome.MAFIA
        elif black == 0 and town <= 1:
            outcome = Outcome.MANIAC
        elif town == 0 and black + maniac <= 2:  # one mafia and the maniac: stalemate
            outcome = Outcome.DRAW
        else:
            return False
        self._finish(outcome)
        return True

    def _finish(self, outcome: Outcome) -> None:
        self.winner = outcome
        self._log(Ev.GAME_OVER, value=outcome)
        self._end_turns()

    def _next_alive(self, seat: int) -> int:
        n, alive = self.n, self.alive
        for k in range(1, n + 1):
            s = (seat + k) % n
            if alive[s]:
                return s
        raise RuntimeError("nobody is alive")  # pragma: no cover

    def _claim_options(self, s: int) -> Options:
        others = [x for x in range(self.n) if x != s]
        return [
            (Act.CLAIM_ROLE, None),
            (Act.CLAIM_CHECK, others),
            (Act.ACCUSE, others),
            (Act.VOUCH, others),
        ]

    def _log(
        self, kind: Ev, actor: int = -1, target: int = -1, value: int = -1, seen_by: int = PUBLIC
    ) -> None:
        self.events.append((kind, actor, target, value, seen_by))
