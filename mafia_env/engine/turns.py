"""Each kind of turn, written once: whether a variant has it, what it may offer, what is legal
and what each act does.

A `TurnRule` knows one `Turn`: `in_layout(rules, roles)` (whether the variant's spaces give it
room), `offers(rules, roles)` (the acts it can offer under these rules: the game spec builds
the action space from them), `legal(game)` (the acting player's options now) and
`apply(game, act, target, value)` (the effect, ending with the hand-over to the next turn)
and `together(rules)` (whether the queued turns of its kind are one simultaneous round).
Whether the table sees who takes a turn is `kinds.PUBLIC_TURNS`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from mafia_env.engine.events import PUBLIC, Ev
from mafia_env.engine.kinds import Act, Options, Turn, plain
from mafia_env.engine.roles import Role, Team
from mafia_env.engine.rules import Rules

Game = Any  # the `mafia_env.engine.game.Game` a rule acts on (that module imports this one)

_Act = plain(Act)
_Ev = plain(Ev)
_Role = plain(Role)
_Team = plain(Team)
_Turn = plain(Turn)

SPEECH_EVENT = {
    Act.CLAIM_ROLE: Ev.CLAIM_ROLE,
    Act.CLAIM_CHECK: Ev.CLAIM_CHECK,
    Act.ACCUSE: Ev.ACCUSE,
    Act.VOUCH: Ev.VOUCH,
    Act.NOMINATE: Ev.NOMINATE,
}
CLAIMS = (Act.CLAIM_ROLE, Act.CLAIM_CHECK, Act.ACCUSE, Act.VOUCH)


class TurnRule:
    """One kind of turn. Subclasses write its legality and its effect side by side."""

    turn: Turn

    def in_layout(self, rules: Rules, roles: Collection[Role]) -> bool:
        """Return whether the variant's observation has room for this turn.

        SPORT's eight turns are in every variant's layout (so the layouts share a base);
        the others only where the rules and roles make them possible.
        """
        return True

    def offers(self, rules: Rules, roles: Collection[Role]) -> tuple[Act, ...]:
        """Return the acts this turn can offer under `rules` (the action space's segments)."""
        raise NotImplementedError

    def legal(self, g: Game) -> Options:
        """Return the acting player's legal actions as (act, bitmask of targets or None)."""
        raise NotImplementedError

    def apply(self, g: Game, act: Act, target: int, value: int) -> None:
        """Carry out a legal action of the acting player."""
        raise NotImplementedError

    def together(self, rules: Rules) -> bool:
        """Return whether consecutive queued turns of this kind are one simultaneous round.

        True where nobody sees another's choice of the round before it resolves (COMMON-8)
        and no choice changes what the others may do: the engine takes them one at a time,
        a parallel view may ask for them all at once (`Game.pending_round`).
        """
        return False


class SpeechRule(TurnRule):
    """COMMON-5: a speech of speech acts, ended by "pass" or by the K-th act."""

    def __init__(self, turn: Turn):
        self.turn = turn

    def in_layout(self, rules: Rules, roles: Collection[Role]) -> bool:
        if self.turn is Turn.MONOLOGUE:
            return rules.nominee_speeches  # CLUB-E2
        if self.turn is Turn.DISCUSSION:
            return rules.discussion > 0  # ONLINE-D5
        return True

    def offers(self, rules: Rules, roles: Collection[Role]) -> tuple[Act, ...]:
        acts = [Act.PASS]
        if self.turn is Turn.SPEECH and rules.nominations == "speech":
            acts.append(Act.NOMINATE)
        if self.turn is Turn.SPEECH and rules.questions > 0:
            acts.append(Act.ASK)
        return (*acts, *CLAIMS) if rules.claims else tuple(acts)

    def legal(self, g: Game) -> Options:
        t, s, r, sp = g.turn, g.actor, g.rules, g.speech
        me = 1 << s
        alive = g.alive_bits
        opts: Options = [(_Act.PASS, None)]
        if t is _Turn.SPEECH:
            if r.nominations == "speech" and not sp.nominated:  # SPORT-D3, ONLINE-D3
                bits = alive & ~g.today.nominee_bits & (-1 if r.self_nomination else ~me)
                if bits:
                    opts.append((_Act.NOMINATE, bits))
            if sp.asked < r.questions and alive & ~me:  # ONLINE-D4
                opts.append((_Act.ASK, alive & ~me))
        if r.claims:
            opts += g.claim_options[s]
        return opts

    def apply(self, g: Game, act: Act, target: int, value: int) -> None:
        s, sp = g.actor, g.speech
        if act is _Act.PASS:
            g._log(_Ev.END_SPEECH, s)
            g._advance()
            return
        if act is _Act.ASK:  # ONLINE-D4: the asked player answers at once
            g._log(_Ev.ASK, s, target, value)
            sp.asked += 1
            sp.acts_left -= 1
            sp.asker, sp.asker_turn = s, g.turn
            g.queue.appendleft((target, _Turn.ANSWER))  # his turn first; the speaker resumes
            g._advance()
            return
        g._log(SPEECH_EVENT[act], s, target, value)
        if act is _Act.NOMINATE:
            today = g.today
            today.nominees.append(target)
            today.nominee_bits |= 1 << target
            sp.nominated = True
        elif g.turn is _Turn.DISCUSSION:  # ONLINE-D5: someone spoke in this round
            g.today.spoken = True
        sp.acts_left -= 1
        if g.rules.gestures != "none" and g._open_gestures(target):  # ONLINE-D6
            return
        if sp.acts_left == 0:  # COMMON-5: at most K acts; the K-th ends the speech
            g._log(_Ev.END_SPEECH, s)
            g._advance()


class AnswerRule(TurnRule):
    """ONLINE-D4: the asked player gestures yes, no or don't know; the speaker goes on."""

    turn = Turn.ANSWER

    def in_layout(self, rules: Rules, roles: Collection[Role]) -> bool:
        return rules.questions > 0

    def offers(self, rules: Rules, roles: Collection[Role]) -> tuple[Act, ...]:
        return (Act.ANSWER,)

    def legal(self, g: Game) -> Options:
        return [(_Act.ANSWER, None)]

    def apply(self, g: Game, act: Act, target: int, value: int) -> None:
        g._log(_Ev.ANSWER, g.actor, g.speech.asker, value)
        g._resume_speech()


class GestureRule(TurnRule):
    """ONLINE-D6: a listener shows yes, no or don't know during another's speech (the one he
    shows already: takes it back), or keeps his hands as they are; the speaker goes on."""

    turn = Turn.GESTURE

    def in_layout(self, rules: Rules, roles: Collection[Role]) -> bool:
        return rules.gestures != "none"

    def offers(self, rules: Rules, roles: Collection[Role]) -> tuple[Act, ...]:
        return (Act.PASS, Act.ANSWER)

    def legal(self, g: Game) -> Options:
        return [(_Act.PASS, None), (_Act.ANSWER, None)]

    def apply(self, g: Game, act: Act, target: int, value: int) -> None:
        if act is _Act.ANSWER:  # «натисніть ще раз, щоб прибрати»: again takes it back
            s = g.actor
            shown = -1 if g.gestures[s] == value else value
            g.gestures[s] = shown
            g._log(_Ev.GESTURE, s, g.speech.asker, shown)
        g._after_gesture()


class VoteRule(TurnRule):
    """One ballot (SPORT-D3, CLUB-E3, ONLINE-V1): a candidate, or pass (silent or abstain)."""

    turn = Turn.VOTE

    def offers(self, rules: Rules, roles: Collection[Role]) -> tuple[Act, ...]:
        return (Act.PASS, Act.VOTE)

    def legal(self, g: Game) -> Options:
        bits = g.vote.candidate_bits & (-1 if g.rules.self_vote else ~(1 << g.actor))
        return [(_Act.PASS, None), (_Act.VOTE, bits)] if bits else [(_Act.PASS, None)]

    def apply(self, g: Game, act: Act, target: int, value: int) -> None:
        v, s = g.vote, g.actor
        if act is _Act.VOTE:
            v.ballots.append((s, target, False))
        elif g.rules.silent_vote == "last_nominee":  # SPORT-D3, CLUB-E3
            v.ballots.append((s, v.candidates[-1], True))
        else:
            v.ballots.append((s, -1, False))
        g._advance()

    def together(self, rules: Rules) -> bool:
        return True  # COMMON-8: the ballots go public together when the vote resolves


class OpenVoteRule(TurnRule):
    """CLUB-E7, ONLINE-V7: at one nominee's open count, a voter who has not voted yet raises
    his hand for him (vote) or keeps it down (pass) and waits for a later nominee."""

    turn = Turn.OPEN_VOTE

    def in_layout(self, rules: Rules, roles: Collection[Role]) -> bool:
        return rules.vote_count == "open"

    def offers(self, rules: Rules, roles: Collection[Role]) -> tuple[Act, ...]:
        return (Act.PASS, Act.VOTE)

    def legal(self, g: Game) -> Options:
        v = g.vote  # only voters who may vote for the nominee get a turn (`Game._queue_count`)
        return [(_Act.PASS, None), (_Act.VOTE, 1 << v.candidates[v.counted])]

    def apply(self, g: Game, act: Act, target: int, value: int) -> None:
        if act is _Act.VOTE:  # each voter raises his hand once
            v, s = g.vote, g.actor
            v.ballots.append((s, target, False))
            v.waiting.remove(s)
        g._advance()

    def together(self, rules: Rules) -> bool:
        return True  # COMMON-8: the hands for one nominee go public together, when counted


class CrashVoteRule(TurnRule):
    """SPORT-D3: yes or no on removing every tied player."""

    turn = Turn.CRASH_VOTE

    def offers(self, rules: Rules, roles: Collection[Role]) -> tuple[Act, ...]:
        return (Act.VOTE_YES, Act.VOTE_NO) if rules.tie == "revote_then_crash" else ()

    def legal(self, g: Game) -> Options:
        return [(_Act.VOTE_YES, None), (_Act.VOTE_NO, None)]

    def apply(self, g: Game, act: Act, target: int, value: int) -> None:
        g.vote.crash_ballots.append((g.actor, act is _Act.VOTE_YES))
        g._advance()

    def together(self, rules: Rules) -> bool:
        return True  # COMMON-8: public once all voted


class NamingRule(TurnRule):
    """CLUB-E1: name one seat, never one's own; named more than the threshold: nominated."""

    turn = Turn.NAMING

    def in_layout(self, rules: Rules, roles: Collection[Role]) -> bool:
        return rules.nominations == "round"

    def offers(self, rules: Rules, roles: Collection[Role]) -> tuple[Act, ...]:
        return (Act.NOMINATE,)

    def legal(self, g: Game) -> Options:
        return [(_Act.NOMINATE, g.alive_bits & ~(1 << g.actor))]

    def apply(self, g: Game, act: Act, target: int, value: int) -> None:
        today = g.today
        g._log(_Ev.NAME, g.actor, target)
        today.named[target] += 1
        if today.named[target] == g.rules.naming_threshold + 1:
            today.nominees.append(target)
            today.nominee_bits |= 1 << target
            g._log(_Ev.NOMINATE, -1, target)
        g._advance()


class MafiaKillRule(TurnRule):
    """The mafia's shot (SPORT-N1, CITY-N3, CLUB-N1, ONLINE-N4, FORUM-N1)."""

    turn = Turn.MAFIA_KILL

    def offers(self, rules: Rules, roles: Collection[Role]) -> tuple[Act, ...]:
        if not rules.don_known and Role.DON in roles:  # ONLINE-N2
            return (Act.PASS, Act.NIGHT, Act.REVEAL_DON)
        return (Act.PASS, Act.NIGHT)

    def legal(self, g: Game) -> Options:
        s, r = g.actor, g.rules
        if g.day == 0:  # ONLINE-N1: on the zero night the don may only introduce himself
            opts: Options = [(_Act.PASS, None)]
            if not g.don_introduced and g.roles[s] is _Role.DON:
                opts.append((_Act.REVEAL_DON, None))
            return opts
        bits = shot_targets(g, s)
        opts = [(_Act.NIGHT, bits)] if bits else []
        if r.mafia_pass or not bits:
            opts.insert(0, (_Act.PASS, None))
        if not g.don_introduced and g.roles[s] is _Role.DON:  # ONLINE-N2
            opts.append((_Act.REVEAL_DON, None))
        return opts

    def apply(self, g: Game, act: Act, target: int, value: int) -> None:
        s, r = g.actor, g.rules
        if act is _Act.REVEAL_DON:  # ONLINE-N2: he still shoots this turn
            g.don_introduced = True
            g._log(_Ev.DON_INTRODUCED, s, -1, _Role.DON, g.mafia_mask)
            return
        if g.day == 0:  # the zero night: nobody is shot
            g._advance()
            return
        shot = target if act is _Act.NIGHT else -1
        g.night.shots[s] = shot
        g._log(_Ev.SHOT, s, shot, -1, g.mafia_mask if r.mafia_see_shots else 1 << s)
        if act is _Act.NIGHT and r.mafia_kill == "executor":
            g.queue.appendleft((s, _Turn.EXECUTOR))  # FORUM-N1
        g._advance()

    def together(self, rules: Rules) -> bool:
        # COMMON-8: shots hidden from each other are simultaneous; seen shots are a discussion
        return not rules.mafia_see_shots


def shot_targets(g: Game, s: int) -> int:
    """Return the seats mafia member `s` may shoot (SPORT-N1, CITY-N3, ONLINE-N4)."""
    me = 1 << s
    bits = g.alive_bits & ~me & (-1 if g.rules.mafia_target_team else ~g.mafia_mask)
    if g._may_shoot_self():
        bits |= me
    return bits


class MeetingRule(TurnRule):
    """SPORT-N3: at the zero-night meeting a black player shows the team a proposed target
    (any seat he could shoot) or none; the don shows his last: his word. The team sees it."""

    turn = Turn.MEETING

    def in_layout(self, rules: Rules, roles: Collection[Role]) -> bool:
        return rules.zero_night_meeting

    def offers(self, rules: Rules, roles: Collection[Role]) -> tuple[Act, ...]:
        return (Act.PASS, Act.NIGHT)

    def legal(self, g: Game) -> Options:
        bits = shot_targets(g, g.actor)
        return [(_Act.PASS, None), (_Act.NIGHT, bits)] if bits else [(_Act.PASS, None)]

    def apply(self, g: Game, act: Act, target: int, value: int) -> None:
        shown = target if act is _Act.NIGHT else -1
        g._log(_Ev.PROPOSE, g.actor, shown, -1, g.mafia_mask)
        g._advance()


class ExecutorRule(TurnRule):
    """FORUM-N1: the mafia member who shot names the executor of the shot."""

    turn = Turn.EXECUTOR

    def in_layout(self, rules: Rules, roles: Collection[Role]) -> bool:
        return rules.mafia_kill == "executor"

    def offers(self, rules: Rules, roles: Collection[Role]) -> tuple[Act, ...]:
        return (Act.EXECUTOR,)

    def legal(self, g: Game) -> Options:
        return [(_Act.EXECUTOR, g.alive_bits & g.mafia_mask)]

    def apply(self, g: Game, act: Act, target: int, value: int) -> None:
        s = g.actor
        g.night.executors[s] = target
        g._log(_Ev.EXECUTOR, s, target, -1, g.mafia_mask if g.rules.mafia_see_shots else 1 << s)
        g._advance()


class CheckRule(TurnRule):
    """A check only the checker learns: the don's "sheriff?", the sheriff's "black?"."""

    def __init__(self, turn: Turn):
        self.turn = turn

    def offers(self, rules: Rules, roles: Collection[Role]) -> tuple[Act, ...]:
        return (Act.PASS, Act.NIGHT)

    def legal(self, g: Game) -> Options:
        opts: Options = [(_Act.NIGHT, g.alive_bits & ~(1 << g.actor))]
        return [(_Act.PASS, None), *opts] if g.rules.check_skip else opts  # SPORT-N2

    def apply(self, g: Game, act: Act, target: int, value: int) -> None:
        if act is _Act.NIGHT:
            if g.turn is _Turn.DON_CHECK:  # SPORT-N2, CITY-N5, ONLINE-N7
                hit = g.roles[target] is _Role.SHERIFF
            else:  # black for the mafia team only: the maniac is "not mafia" (CITY-N6)
                hit = g.teams[target] is _Team.MAFIA
            g._log(_Ev.CHECK, g.actor, target, int(hit), 1 << g.actor)
        g._advance()


class PutanaRule(TurnRule):
    """CITY-N2: the putana visits one player, who is blocked tonight."""

    turn = Turn.PUTANA

    def in_layout(self, rules: Rules, roles: Collection[Role]) -> bool:
        return Role.PUTANA in roles and "putana" in rules.night_order.split()

    def offers(self, rules: Rules, roles: Collection[Role]) -> tuple[Act, ...]:
        return (Act.NIGHT,)

    def legal(self, g: Game) -> Options:
        me = 1 << g.actor
        return [(_Act.NIGHT, g.alive_bits if g.rules.putana_self else g.alive_bits & ~me)]

    def apply(self, g: Game, act: Act, target: int, value: int) -> None:
        g.night.blocked = target
        g._log(_Ev.VISIT, g.actor, target, -1, 1 << g.actor)
        g._advance()


class DoctorRule(TurnRule):
    """CITY-N7, ONLINE-N6: heal one player; never twice running; oneself a limited number."""

    turn = Turn.DOCTOR

    def in_layout(self, rules: Rules, roles: Collection[Role]) -> bool:
        return Role.DOCTOR in roles and "doctor" in rules.night_order.split()

    def offers(self, rules: Rules, roles: Collection[Role]) -> tuple[Act, ...]:
        return (Act.PASS, Act.NIGHT)

    def legal(self, g: Game) -> Options:
        r = g.rules
        bits = g.alive_bits
        if not r.heal_repeat and g.heal_prev >= 0:
            bits &= ~(1 << g.heal_prev)
        if r.heal_self is not None and g.self_heals >= r.heal_self:
            bits &= ~(1 << g.actor)
        if r.heal_skip or not bits:
            return [(_Act.PASS, None), (_Act.NIGHT, bits)] if bits else [(_Act.PASS, None)]
        return [(_Act.NIGHT, bits)]

    def apply(self, g: Game, act: Act, target: int, value: int) -> None:
        if act is _Act.NIGHT:
            g.night.heal = target
            g._log(_Ev.HEAL, g.actor, target, -1, 1 << g.actor)
        g._advance()


class ManiacRule(TurnRule):
    """CITY-N8: the maniac shoots one player, or refuses."""

    turn = Turn.MANIAC

    def in_layout(self, rules: Rules, roles: Collection[Role]) -> bool:
        return Role.MANIAC in roles and "maniac" in rules.night_order.split()

    def offers(self, rules: Rules, roles: Collection[Role]) -> tuple[Act, ...]:
        return (Act.PASS, Act.NIGHT)

    def legal(self, g: Game) -> Options:
        return [(_Act.PASS, None), (_Act.NIGHT, g.alive_bits & ~(1 << g.actor))]

    def apply(self, g: Game, act: Act, target: int, value: int) -> None:
        shot = target if act is _Act.NIGHT else -1
        g.night.maniac_shot = shot
        g._log(_Ev.SHOT, g.actor, shot, -1, 1 << g.actor)
        g._advance()


class HuntRule(TurnRule):
    """FORUM-N3: a town player may request a free hunt on one player."""

    turn = Turn.HUNT

    def in_layout(self, rules: Rules, roles: Collection[Role]) -> bool:
        return rules.hunt and "hunt" in rules.night_order.split()

    def offers(self, rules: Rules, roles: Collection[Role]) -> tuple[Act, ...]:
        return (Act.PASS, Act.HUNT)

    def legal(self, g: Game) -> Options:
        return [(_Act.PASS, None), (_Act.HUNT, g.alive_bits & ~(1 << g.actor))]

    def apply(self, g: Game, act: Act, target: int, value: int) -> None:
        if act is _Act.HUNT:  # FORUM-N4: value is the status guessed (0 mafia, 1 maniac)
            status = value if g.rules.hunt_status else -1
            g.night.hunts.append((g.actor, target, status))
            g._log(_Ev.HUNT, g.actor, target, status, 1 << g.actor)
        g._advance()

    def together(self, rules: Rules) -> bool:
        return True  # FORUM-N3: each request is private; one is drawn at dawn


TURN_RULES: tuple[TurnRule, ...] = (
    SpeechRule(Turn.SPEECH),
    SpeechRule(Turn.LAST_WORD),
    SpeechRule(Turn.TIE_SPEECH),
    VoteRule(),
    CrashVoteRule(),
    MafiaKillRule(),
    CheckRule(Turn.DON_CHECK),
    CheckRule(Turn.SHERIFF_CHECK),
    PutanaRule(),
    DoctorRule(),
    ManiacRule(),
    ExecutorRule(),
    HuntRule(),
    NamingRule(),
    SpeechRule(Turn.MONOLOGUE),
    AnswerRule(),
    OpenVoteRule(),
    MeetingRule(),
    SpeechRule(Turn.DISCUSSION),
    GestureRule(),
)
assert [r.turn for r in TURN_RULES] == list(Turn), "TURN_RULES is indexed by Turn"
# each rule's `legal` and `apply`, bound, by Turn: the hot path's one lookup a move
LEGAL = tuple(r.legal for r in TURN_RULES)
APPLY = tuple(r.apply for r in TURN_RULES)

__all__ = ["APPLY", "LEGAL", "PUBLIC", "TURN_RULES", "TurnRule"]
