"""`Style`: how a rule bot plays, as knobs that its batched decisions read.

A knob names a habit at one decision point (how the sheriff picks his check, when the town
abstains, ...) or sets a number the decisions use (how often the mafia fake a sheriff
claim). The defaults are the rule bots v1 (``rule``); `RULE_V2` is ``rule_v2``, the same
play deciding from a posterior over the deal. Each habit a knob may name is one function in
its decision's table in `baselines.rule.handlers` (`HABIT_TABLES`; the reading's in
`baselines.rule.suspicion.READINGS`), over the whole batch.

A new style of play is a new value: a habit is a name in `HABITS` and a function in its
table; a new decision point is a field here whose default is today's play, read by the
decision it changes. A bot plays a style given as ``RulePolicy(..., style=Style(...))`` or
as its knobs (``load_policy("rule", table, style={"check": "information"})``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from mafia_env.errors import ConfigError

# the habits each habit knob may name, the default first
HABITS: dict[str, tuple[str, ...]] = {
    "reading": ("table", "posterior"),
    "abstain": ("suspicion", "posterior"),
    "check": ("suspicion", "information"),
    "don_check": ("attackers", "information"),
    "heal": ("trusted", "likeliest"),
    "block": ("suspicion", "posterior", "random", "trusted"),
    "hunt": ("strong", "sure", "eager", "never"),
    "executor": ("suspicion", "posterior"),
    "fake_role": ("sheriff", "doctor"),
    "fake_claimer": ("lowest", "don", "all"),
    "fake_from": ("day2", "day1"),
    "fake_story": ("claim", "check"),
    "sheriff_claim": ("black", "counter", "open"),
    "push": ("town", "frame"),
    "talk": ("normal", "quiet", "talkative"),
    "nominate": ("top", "random", "neighbour"),
    "ballot": ("top", "first", "bandwagon", "second", "contrarian", "random"),
    "maniac": ("claimers", "random", "suspect", "trusted"),
    "noisy": ("all", "mafia", "town"),
}
# the number knobs, each a probability
CHANCES = ("counterclaim_p", "fake_claim_p", "noise_p")
# the knobs that shape a bot's reading and its speech plans: one call of a bot holds one value
# of each (`Style.shape`); every other knob a batch may mix row by row (`StyleMix`)
SHAPE = ("reading", "talk", "fake_role")


@dataclass(frozen=True)
class Style:
    """The knobs of a rule bot's play (the defaults: the rule bots v1)."""

    reading: str = "table"
    """The town's reading of the table: ``table`` scores claims, checks and behaviour in
    fixed weights (`town_suspicion`); ``posterior`` adds the log-odds of the posterior over
    the deal (`baselines.rule.posterior`): the reader's own, the town's for a mafia reader."""
    abstain: str = "suspicion"
    """Where the rules allow it, the town abstains when every candidate scores below zero
    (``suspicion``) or when the posterior clears every candidate (``posterior``)."""
    check: str = "suspicion"
    """The sheriff checks the most suspected unchecked seat (``suspicion``), or the seat of
    best suspicion plus the expected information of the answer (``information``)."""
    don_check: str = "attackers"
    """The don looks for the sheriff among those who attacked the mafia (``attackers``), or
    by the expected information of "sheriff?" under the town's posterior (``information``)."""
    heal: str = "trusted"
    """The doctor heals the trusted sheriff, else the seat the town trusts most
    (``trusted``), or the likeliest sheriff, else the likeliest town player (``likeliest``)."""
    block: str = "suspicion"
    """The putana blocks the most suspected seat (``suspicion``), the likeliest black
    (``posterior``, never herself), any seat (``random``, never herself while she may visit
    another) or the seat the town trusts most (``trusted``)."""
    hunt: str = "strong"
    """The free hunt is requested on a strong suspect (``strong``), by the town only on a
    seat the posterior holds near surely black (``sure``), on the top suspect whenever any
    seat scores above zero (``eager``), or never (``never``: always pass)."""
    executor: str = "suspicion"
    """The mafia send out the member the town suspects least (``suspicion``) or whom the
    town's posterior holds likeliest town (``posterior``)."""
    counterclaim_p: float = 0.5
    """The chance the mafia counter-claim a sheriff who exposed one of them."""
    fake_claim_p: float = 0.1
    """The chance, each day with no sheriff claim yet, that the mafia claim sheriff (or the
    role of `fake_role`)."""
    fake_role: str = "sheriff"
    """The role of the mafia's unprompted fake claim: ``sheriff`` (with a false black check
    on the mafia's top target) or ``doctor`` (where the rules deal one; elsewhere sheriff)."""
    fake_claimer: str = "lowest"
    """Who makes the fake claim: the lowest live member (``lowest``), the don (``don``:
    where the rules deal none, the lowest member), or every live member (``all``)."""
    fake_from: str = "day2"
    """The first day of a fake claim: ``day2`` or ``day1``."""
    fake_story: str = "claim"
    """What a mafia sheriff claimant says after his claim: as the rule bots v1 (``claim``:
    he calls black each other sheriff claimant, a check a night passed; the black check his
    plan names beside a fresh claim is never reached, the claim is said first and then he is
    a claimant), or he calls the mafia's top target black at once and nominates him
    (``check``: the human's fake check, on day 1 too)."""
    sheriff_claim: str = "black"
    """The real sheriff claims once a check is black or he is in danger (``black``), also
    as soon as another live player claims sheriff (``counter``), or from his first speech
    (``open``)."""
    push: str = "town"
    """By day the mafia push the town's own top suspect (``town``) or frame one town player
    (``frame``: each member accuses, nominates and votes the same one, chosen from the public
    table and kept from day to day)."""
    talk: str = "normal"
    """A town civilian's speech: accuse a strong suspect and nominate (``normal``); say
    nothing but a nomination while nobody is up (``quiet``); or accuse the two top suspects,
    vouch for the seat the reading clears most and nominate (``talkative``)."""
    nominate: str = "top"
    """The town's nomination (civilian and sheriff): the top suspect (``top``); while nobody
    is up, any seat (``random``) or the next live seat after the speaker (``neighbour``),
    else the top suspect."""
    ballot: str = "top"
    """The town's ballot among the candidates: the most suspected (``top``), the earliest
    nominee (``first``), the one with most votes this round (``bandwagon``, else ``top``),
    the second suspect (``second``), the one with fewest votes this round, least suspected
    first (``contrarian``), or any, drawn (``random``; in an open count: ``top``)."""
    maniac: str = "claimers"
    """The maniac shoots players who claimed a role, else any (``claimers``); anyone
    (``random``); the town's top suspect (``suspect``); or the seat the town trusts most
    (``trusted``)."""
    noise_p: float = 0.0
    """The chance that each act of a speech is a random legal speech act (not the end of
    the speech) instead of the plan's: noisy talk."""
    noisy: str = "all"
    """Whose speeches `noise_p` makes noisy: ``all``, the ``mafia`` or the ``town``."""

    def __post_init__(self) -> None:
        for name, allowed in HABITS.items():
            value = getattr(self, name)
            if value not in allowed:
                raise ConfigError(
                    f"style knob {name!r} must be one of {', '.join(map(repr, allowed))}; "
                    f"got {value!r}"
                )
        for name in CHANCES:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise ConfigError(f"style knob {name!r} must be a number in [0, 1]; got {value!r}")

    @property
    def shape(self) -> tuple[str, ...]:
        """The values of its `SHAPE` knobs: styles alike in them decide a batch together
        (`RulePolicy.act_styles`), each row by its own style's other knobs."""
        return tuple(getattr(self, k) for k in SHAPE)

    def but(self, **knobs: Any) -> Style:
        """Return this style with `knobs` changed (checked as any style is)."""
        return Style.of(knobs, self)

    @classmethod
    def of(cls, style: Style | Mapping[str, Any] | None, default: Style) -> Style:
        """Return `style`: a `Style`, knobs over `default` (a mapping), or `default` (None)."""
        if style is None or isinstance(style, Style):
            return default if style is None else style
        if not isinstance(style, Mapping):
            raise ConfigError(f"a style is a Style or a mapping of its knobs; got {style!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(style) - known)
        if unknown:
            raise ConfigError(
                f"unknown style knob(s) {', '.join(map(repr, unknown))}; the knobs are: "
                f"{', '.join(sorted(known))}"
            )
        return replace(default, **style)


RULE = Style()
RULE_V2 = Style(
    reading="posterior",
    abstain="posterior",
    check="information",
    don_check="information",
    heal="likeliest",
    block="posterior",
    hunt="sure",
    executor="posterior",
)


class StyleMix:
    """The styles of a batch's rows, where they differ: row r plays ``styles[index[r]]``.

    The styles share their `Style.shape`; a decision reads each other knob through `groups`
    (the rows of each value) or `chance` (a row's probability)."""

    def __init__(self, styles: tuple[Style, ...], index: np.ndarray):
        self.styles, self.index = styles, index
        self._groups: dict[str, list[tuple[Any, np.ndarray | None]]] = {}

    def groups(self, knob: str) -> list[tuple[Any, np.ndarray | None]]:
        """[(value, rows)]: each value of `knob` among the styles, in the styles' order, and
        the rows that play it ([R] bool; None where every row plays the one value)."""
        got = self._groups.get(knob)
        if got is None:
            values = [getattr(s, knob) for s in self.styles]
            distinct = list(dict.fromkeys(values))
            if len(distinct) == 1:
                got = [(distinct[0], None)]
            else:
                of_style = np.array([distinct.index(v) for v in values])
                of_row = of_style[self.index]
                got = [(v, of_row == k) for k, v in enumerate(distinct)]
            self._groups[knob] = got
        return got

    def chance(self, knob: str, i: int) -> float:
        """Row `i`'s probability `knob` (one of `CHANCES`)."""
        return getattr(self.styles[self.index[i]], knob)

    def rows(self, knob: str, value: Any) -> np.ndarray:
        """[R] bool: the rows whose style's `knob` is `value`."""
        for v, rows in self.groups(knob):
            if v == value:
                return np.ones(len(self.index), dtype=bool) if rows is None else rows
        return np.zeros(len(self.index), dtype=bool)

    def take(self, rows: np.ndarray) -> StyleMix:
        """The mix of the batch's rows `rows` (indices)."""
        return StyleMix(self.styles, self.index[rows])


__all__ = ["CHANCES", "HABITS", "RULE", "RULE_V2", "SHAPE", "Style", "StyleMix"]
