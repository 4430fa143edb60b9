"""One description of a game, built from (rules, table size), that every layer reads.

`GameSpec` declares the roles in play, the kinds of turn in play and which of them the table
sees, and the acts of the action space with their widths. The action layout, the observation
layout, the text observations, the table's views and the rule bots read it, so a rule's
knowledge lives in the engine (its `TurnRule`) and in this spec, and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass

from mafia_env.engine.events import ANSWER_NAMES
from mafia_env.engine.kinds import NIGHT_TURNS, PUBLIC_TURNS, SPEECH_TURNS, Act, Turn
from mafia_env.engine.roles import Role
from mafia_env.engine.rules import Rules
from mafia_env.engine.turns import TURN_RULES

# SPORT's eight acts open every action space (so that the spaces share a base); the turns in
# play add their own after them, in `Act` order.
BASE_ACTS = (
    Act.PASS,
    Act.NOMINATE,
    Act.VOTE,
    Act.NIGHT,
    Act.CLAIM_ROLE,
    Act.CLAIM_CHECK,
    Act.ACCUSE,
    Act.VOUCH,
)
# acts whose segment has one entry per target seat
TARGETED = frozenset(
    {
        Act.NOMINATE,
        Act.VOTE,
        Act.NIGHT,
        Act.CLAIM_CHECK,
        Act.ACCUSE,
        Act.VOUCH,
        Act.ASK,
        Act.EXECUTOR,
        Act.HUNT,
    }
)


@dataclass(frozen=True)
class GameSpec:
    """What a game of one variant at one table size can contain."""

    rules: Rules
    n: int
    roles: tuple[Role, ...]  # every role some table of the variant deals, in Role order
    turns: tuple[Turn, ...]  # the kinds of turn in the layouts, in Turn order
    public_turns: frozenset[Turn]  # turns in play whose taker the whole table sees
    speech_turns: frozenset[Turn]
    night_turns: frozenset[Turn]
    acts: tuple[Act, ...]  # the action space's segments, in order
    widths: dict[Act, int]  # entries per segment

    @classmethod
    def of(cls, rules: Rules, n: int) -> GameSpec:
        """Return the spec of `rules` at a table of `n` (built once per rules and size)."""
        key = (id(rules), n)
        hit = _SPECS.get(key)
        if hit is not None and hit.rules is rules:
            return hit
        rules.check_players(n)
        roles = rules.roles_in_play()
        turns = tuple(t.turn for t in TURN_RULES if t.in_layout(rules, roles))
        offered = {a for t in turns for a in TURN_RULES[t].offers(rules, roles)}
        acts = BASE_ACTS + tuple(a for a in Act if a in offered and a not in BASE_ACTS)
        per_act = {
            Act.CLAIM_ROLE: len(roles),
            Act.CLAIM_CHECK: 2 * n,
            Act.HUNT: 2 * n,  # FORUM-N4: target x status guessed (only "mafia" without status)
            Act.ASK: n * len(roles),
            Act.ANSWER: len(ANSWER_NAMES),
        }
        widths = {a: per_act.get(a, n if a in TARGETED else 1) for a in acts}
        spec = cls(
            rules=rules,
            n=n,
            roles=roles,
            turns=turns,
            public_turns=PUBLIC_TURNS & set(turns),
            speech_turns=SPEECH_TURNS & set(turns),
            night_turns=NIGHT_TURNS & set(turns),
            acts=acts,
            widths=widths,
        )
        if len(_SPECS) >= 256:
            _SPECS.clear()
        _SPECS[key] = spec
        return spec

    @property
    def action_size(self) -> int:
        return sum(self.widths.values())

    def offers(self, turn: Turn) -> tuple[Act, ...]:
        """Return the acts a turn of kind `turn` can offer in this game."""
        return TURN_RULES[turn].offers(self.rules, self.roles)


_SPECS: dict[tuple[int, int], GameSpec] = {}

__all__ = ["BASE_ACTS", "TARGETED", "GameSpec"]
