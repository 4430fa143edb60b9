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

from mafia_env.errors import ConfigError

# the habits each habit knob may name, the default first
HABITS: dict[str, tuple[str, ...]] = {
    "reading": ("table", "posterior"),
    "abstain": ("suspicion", "posterior"),
    "check": ("suspicion", "information"),
    "don_check": ("attackers", "information"),
    "heal": ("trusted", "likeliest"),
    "block": ("suspicion", "posterior"),
    "hunt": ("strong", "sure"),
    "executor": ("suspicion", "posterior"),
}
# the number knobs, each a probability
CHANCES = ("counterclaim_p", "fake_claim_p")


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
    """The putana blocks the most suspected seat (``suspicion``) or the likeliest black
    (``posterior``, never herself)."""
    hunt: str = "strong"
    """The free hunt is requested on a strong suspect (``strong``) or, by the town only, on
    a seat the posterior holds near surely black (``sure``)."""
    executor: str = "suspicion"
    """The mafia send out the member the town suspects least (``suspicion``) or whom the
    town's posterior holds likeliest town (``posterior``)."""
    counterclaim_p: float = 0.5
    """The chance the mafia counter-claim a sheriff who exposed one of them."""
    fake_claim_p: float = 0.1
    """The chance, each day with no sheriff claim yet, that the mafia claim sheriff."""

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

__all__ = ["CHANCES", "HABITS", "RULE", "RULE_V2", "Style"]
