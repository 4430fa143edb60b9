"""The per-role handlers: what a rule bot does at each kind of turn, and what each role says.

`RoleHandlers` is the half of `RulePolicy` that decides: a handler takes a `Seen` (one agent's
reading of its observation) and returns an action index or None (the policy's fallback then).
Speech is a plan (a list of choices; the first legal one not done yet is played), by role
(`RulePolicy.speakers`) or by team (`RulePolicy.team_speakers`).
"""

from __future__ import annotations

import numpy as np

from baselines.rule.plan import (
    COUNTERCLAIM_P,
    FAKE_CLAIM_P,
    coin,
    mafia_day_scores,
    mafia_ranking,
)
from baselines.rule.reading import Choice, Seen
from baselines.rule.suspicion import STRONG, W_SHERIFF_RED, public_credible
from mafia_env.engine.kinds import Act
from mafia_env.engine.roles import Role


class RoleHandlers:
    """The turn handlers and speech planners of `RulePolicy` (a mixin: it holds no state)."""

    # -------------------------------------------------------------- speech

    def speech(self, seen: Seen) -> Choice:
        """Do the first act of the role's plan that is legal and not yet done, else end."""
        planner = self.speakers.get(seen.role) or self.team_speakers.get(seen.team)
        plan = planner(seen) if planner is not None else []
        for choice in plan:
            if choice is not None and seen.mask[choice]:
                return choice
        return seen.can(Act.PASS)

    def claim(self, seen: Seen, role: Role) -> Choice:
        if seen.claimed[seen.me] is role:
            return None
        return seen.can(Act.CLAIM_ROLE, -1, int(role))

    def say_check(self, seen: Seen, target: int, black: bool) -> Choice:
        said = seen.claimed_black if black else seen.claimed_red
        if said[seen.me, target]:
            return None
        return seen.can(Act.CLAIM_CHECK, target, int(black))

    def accuse(self, seen: Seen, target: int) -> Choice:
        return None if seen.accused[seen.me, target] else seen.can(Act.ACCUSE, target)

    def nominate(self, seen: Seen, scores: np.ndarray, floor: float) -> Choice:
        """Nominate the highest-scored seat above `floor` that may be nominated."""
        sc = scores.tolist()
        allowed = [t for t in seen.targets(Act.NOMINATE) if sc[t] > floor and t != seen.me]
        if not allowed:
            return None
        top = max(sc[t] for t in allowed)
        if any(sc[t] >= top for t in seen.nominees):
            return None  # the top suspect is already up for the vote
        return seen.can(Act.NOMINATE, self.pick(scores, allowed))

    def town_speech(self, seen: Seen) -> list[Choice]:
        """Civilian: accuse a strong suspect, nominate the top suspect."""
        sus = seen.suspicion()
        plan: list[Choice] = []
        alive = [s for s in seen.alive.nonzero()[0].tolist() if s != seen.me]
        if alive:
            top = self.pick(sus, alive)
            if top is not None and sus[top] >= STRONG:
                plan.append(self.accuse(seen, top))
        # someone must be put up for the vote: with nobody nominated yet, the top suspect
        plan.append(self.nominate(seen, sus, 0.0 if seen.nominees else -1e8))
        return plan

    def sheriff_speech(self, seen: Seen) -> list[Choice]:
        """Sheriff: claim and announce checks once black is found or in danger; nominate black."""
        me = seen.me
        blacks = [s for s in seen.checked_yes.nonzero()[0]]
        reds = [s for s in seen.checked_no.nonzero()[0]]
        live_black = [int(s) for s in blacks if seen.alive[s]]
        danger = (
            seen.turn in ("last_word", "tie_speech")
            or me in seen.nominees
            or me in seen.candidates
            or seen.claimed[me] is Role.SHERIFF
            or seen.claimed_black[:, me].any()  # a false sheriff calls me black
        )
        plan: list[Choice] = []
        if live_black or danger:
            plan.append(self.claim(seen, Role.SHERIFF))
            plan += [self.say_check(seen, int(s), True) for s in live_black]
            plan += [self.say_check(seen, int(s), True) for s in blacks if not seen.alive[s]]
            if live_black:
                plan.append(seen.can(Act.NOMINATE, live_black[0]))
            plan += [self.say_check(seen, int(s), False) for s in reds]
        sus = seen.suspicion()
        for c in seen.sheriff_claimants():  # a false sheriff: I know he lies
            if c != me and seen.alive[c]:
                plan.append(self.accuse(seen, c))
        plan.append(self.nominate(seen, sus, 0.0))
        return plan

    def mafia_speech(self, seen: Seen) -> list[Choice]:
        """Mafia: now and then counter-claim sheriff; nominate the mafia's top target."""
        plan: list[Choice] = []
        if self.has_sheriff and seen.bot.rules.claims:
            plan += self.counterclaim(seen)
        if seen.turn == "speech":  # nominate as the town would: with a public reason
            me = seen.me
            scores = mafia_day_scores(seen)
            provoked = (seen.nominations[:, me] + seen.accused[:, me] + seen.votes[:, me]) > 0
            plan.append(self.nominate(seen, scores + provoked, 0.1))
        return plan

    def don_speech(self, seen: Seen) -> list[Choice]:
        """Don: accuse the sheriff he found (the mafia's signal), then speak as mafia."""
        plan: list[Choice] = []
        for s in seen.checked_yes.nonzero()[0]:
            if seen.alive[s] and not public_credible(seen, int(s)):
                plan.append(self.accuse(seen, int(s)))
        return plan + self.mafia_speech(seen)

    def counterclaim(self, seen: Seen) -> list[Choice]:
        """Claim sheriff with a false black check, if this member is the one to do it today."""
        me = seen.me
        team = [me, *seen.mates]
        if seen.claimed[me] is Role.SHERIFF:  # keep the story going: call the sheriff black
            return [
                self.say_check(seen, c, True)
                for c in seen.sheriff_claimants()
                if c not in team and int(seen.claimed_black[me].sum()) < seen.day - 1
            ]
        if (
            any(seen.claimed[m] is Role.SHERIFF for m in seen.mates)
            or seen.day < 2
            or not seen.alive[me]  # a last word: too late to start a story
        ):
            return []
        live = [m for m in team if seen.alive[m]]
        exposers = [
            c
            for c in seen.sheriff_claimants()
            if c not in team
            and seen.alive[c]
            and public_credible(seen, c)
            and seen.claimed_black[c][team].any()
        ]
        if exposers:
            exposed = {m for m in team if seen.claimed_black[exposers[0]][m]}
            speaker = min([m for m in live if m not in exposed] or live)
            if speaker != me or coin(seen, 1) >= COUNTERCLAIM_P:
                return []
            target = exposers[0]
        elif not seen.sheriff_claimants() and coin(seen, 2) < FAKE_CLAIM_P:
            if min(live) != me:
                return []
            rank = mafia_ranking(seen)
            target = int(np.argmax(rank))
        else:
            return []
        return [
            self.claim(seen, Role.SHERIFF),
            self.say_check(seen, target, True),
            seen.can(Act.NOMINATE, target),
        ]

    # ---------------------------------------------------------------- vote

    def vote(self, seen: Seen) -> Choice:
        """Town: the most suspected candidate; mafia: the top-ranked town candidate."""
        target = self.ballot(seen, seen.targets(Act.VOTE))
        return seen.can(Act.PASS) if target is None else seen.can(Act.VOTE, target)

    def open_vote(self, seen: Seen) -> Choice:
        """An open count (CLUB-E7, ONLINE-V7): raise the hand at the count of the candidate
        `vote` would choose among those not counted yet, keep it down at the others."""
        now = seen.targets(Act.VOTE)  # the nominee being counted
        if not now:
            return seen.can(Act.PASS)
        counted = now[0]
        order = [s for s in seen.nominees if s in seen.candidates] or now
        left = order[order.index(counted) :] if counted in order else now
        target = self.ballot(seen, left)
        return seen.can(Act.VOTE, counted) if target == counted else seen.can(Act.PASS)

    def ballot(self, seen: Seen, options: list[int]) -> int | None:
        """Return the candidate of `options` to vote for (None: abstain or pass)."""
        if not options:
            return None
        order = {s: i for i, s in enumerate(seen.nominees)}
        if seen.black_team:
            town = [s for s in options if not seen.is_mafia(s)]
            sus = seen.suspicion()
            doomed = max(options, key=lambda s: sus[s])
            if not town or (seen.is_mafia(doomed) and sus[doomed] >= STRONG):
                return doomed  # a teammate the town has exposed goes anyway: vote with the town
            rank = mafia_day_scores(seen)
            return max(town, key=lambda s: rank[s])
        sus = seen.suspicion()
        options = [s for s in options if s != seen.me] or options
        best = max(sus[s] for s in options)
        if best < 0 and self.rules.silent_vote == "abstain":
            return None
        # the earliest nominee among the most suspected, so that the town's votes meet
        top = [s for s in options if sus[s] >= best - 1e-9]
        return min(top, key=lambda s: order.get(s, seen.n))

    def crash_vote(self, seen: Seen) -> Choice:
        """Remove every tied player? Town: yes if one is suspected and none cleared."""
        tied = seen.candidates
        if seen.black_team:
            yes = not any(seen.is_mafia(s) for s in tied)
        else:
            sus = seen.suspicion()
            yes = seen.me not in tied and max(sus[tied]) > 0 and min(sus[tied]) > W_SHERIFF_RED
        return seen.can(Act.VOTE_YES if yes else Act.VOTE_NO)

    # --------------------------------------------------------------- night

    def mafia_kill(self, seen: Seen) -> Choice:
        """Shoot the mafia's top-ranked town player (the same for every member); on the first
        night, the don's word at the zero-night meeting (SPORT-N3), where he gave one. At the
        meeting itself, show the team that same top-ranked player."""
        targets = seen.targets(Act.NIGHT)
        town = [s for s in targets if not seen.is_mafia(s)]
        if not town:
            return seen.can(Act.NIGHT, targets[0]) if targets else None
        word = self.dons_word(seen)
        if word in town:
            return seen.can(Act.NIGHT, word)
        shots = seen.v.get("team_shots")
        if shots is not None and self.rules.mafia_kill == "unanimous":
            # CLUB-N4, ONLINE-N8: awake together, they shoot where a teammate already points
            for mate in seen.mates:
                if shots[mate].any() and int(shots[mate].argmax()) in town:
                    return seen.can(Act.NIGHT, int(shots[mate].argmax()))
        rank = mafia_ranking(seen, night=True)
        return seen.can(Act.NIGHT, max(town, key=lambda s: rank[s]))

    def dons_word(self, seen: Seen) -> int:
        """SPORT-N3: on the first night, the target the don showed the team at the zero-night
        meeting (-1: none, or another night)."""
        plan = seen.v.get("team_plan")
        if plan is None or seen.day != 1:
            return -1
        if seen.role is Role.DON:
            don = seen.me
        else:
            don = next((s for s, r in seen.mate_roles.items() if r is Role.DON), -1)
        return int(plan[don].argmax()) if don >= 0 and plan[don].any() else -1

    def sheriff_check(self, seen: Seen) -> Choice:
        """Check the most suspected player not checked yet."""
        targets = seen.targets(Act.NIGHT)
        fresh = [s for s in targets if not (seen.checked_yes[s] or seen.checked_no[s])]
        return seen.can(Act.NIGHT, self.pick(seen.suspicion(), fresh or targets))

    def putana(self, seen: Seen) -> Choice:
        """Putana: block the most suspected player."""
        return seen.can(Act.NIGHT, self.pick(seen.suspicion(), seen.targets(Act.NIGHT)))

    def doctor(self, seen: Seen) -> Choice:
        """Doctor: protect the trusted sheriff, else the player the town trusts most."""
        targets = seen.targets(Act.NIGHT)
        trusted = seen.trusted()
        if trusted is not None and trusted != seen.me and trusted in targets:
            return seen.can(Act.NIGHT, trusted)
        others = [s for s in targets if s != seen.me]
        return seen.can(Act.NIGHT, self.pick(-seen.suspicion(), others or targets))

    def maniac(self, seen: Seen) -> Choice:
        """Maniac: pick off players who claimed a role, else anyone (seeded random)."""
        targets = seen.targets(Act.NIGHT)
        score = np.array([10.0 if c not in (None, Role.CIVILIAN) else 0.0 for c in seen.claimed])
        return seen.can(Act.NIGHT, self.pick(score, targets))

    def executor(self, seen: Seen) -> Choice:
        """Mafia: the member the town suspects least carries out the shot (lowest seat on ties)."""
        team = seen.targets(Act.EXECUTOR)
        if not team:
            return None
        sus = seen.suspicion()
        return seen.can(Act.EXECUTOR, min(team, key=lambda s: (sus[s], s)))

    def hunt(self, seen: Seen) -> Choice:
        """Town: request the free hunt on a strong suspect, else hold it."""
        targets = seen.targets(Act.HUNT)
        if targets:
            sus = seen.suspicion()
            top = self.pick(sus, targets)
            if top is not None and sus[top] >= STRONG:
                return seen.can(Act.HUNT, top)
        return seen.can(Act.PASS)

    def answer(self, seen: Seen) -> Choice:
        """Answer "do you claim role R?": yes iff R is the role this player shows the table.

        A player shows his public role claim, else civilian: the mafia and the hidden town
        roles pass for civilians.
        """
        questions = seen.v.get("questions")
        if questions is None or not questions[seen.me].any():
            return None
        asked = self.roles[int(questions[seen.me].argmax())]
        shown = seen.claimed[seen.me] or Role.CIVILIAN
        return seen.can(Act.ANSWER, -1, 0 if asked is shown else 1)  # Answer: 0 yes, 1 no

    def naming(self, seen: Seen) -> Choice:
        """Nomination round: name the top suspect (mafia: the top-ranked town player)."""
        targets = [s for s in seen.targets(Act.NOMINATE) if s != seen.me]
        scores = mafia_ranking(seen) if seen.black_team else seen.suspicion()
        return seen.can(Act.NOMINATE, self.pick(scores, targets))

    def don_check(self, seen: Seen) -> Choice:
        """Look for the sheriff among unchecked town players, likeliest first."""
        if seen.checked_yes[seen.alive].any():
            return seen.can(Act.PASS) or self.fallback(seen.mask)  # found him already
        targets = [s for s in seen.targets(Act.NIGHT) if not seen.is_mafia(s)]
        fresh = [s for s in targets if not (seen.checked_yes[s] or seen.checked_no[s])]
        black = [seen.me, *seen.mates]
        score = seen.accused[:, black].sum(axis=1) + seen.claimed_black[:, black].sum(axis=1)
        score = score.astype(float)
        for c in seen.sheriff_claimants():
            if public_credible(seen, c):
                score[c] -= 10.0  # already a target; the sheriff may be hiding elsewhere
        return seen.can(Act.NIGHT, self.pick(score, fresh or targets))


__all__ = ["RoleHandlers"]
