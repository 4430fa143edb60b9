"""One description of a game, built from (rules, table size), that every layer reads.

`GameSpec` declares the roles in play, the kinds of turn in play and which of them the table
sees, and the acts of the action space with their widths. The action layout, the observation
layout, the text observations, the table's views and the rule bots read it, so a rule's
knowledge lives in the engine (its `TurnRule`) and in this spec, and nowhere else.

`GameSpec.make` is the one setup every constructor shares: variant -> rules with knobs ->
table size -> role table -> (a fixed deal) -> spec, every step checked once with a clear
`ConfigError`, and the spec cached, so that the layouts built on it (`ActionLayout.of(spec)`,
`ObsLayout.of(spec)`, through `GameSpec.cached`) are built once too::

    spec = GameSpec.make("sport", 10, max_days=4)          # or roles=[...] for a fixed deal
    env = mafia_env.env(spec)                               # and VectorMafia(spec), ...
    spec.rules, spec.n, spec.deal, spec.knobs               # what was asked for, checked

Observation options (pieces an encoder may add, that change the observation layout but not
the game) travel in `GameSpec.obs` and key the layout caches: `spec.with_obs(name=value)`
for a name in `OBS_OPTIONS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from mafia_env.engine.errors import ConfigError
from mafia_env.engine.events import ANSWER_NAMES
from mafia_env.engine.kinds import NIGHT_TURNS, PUBLIC_TURNS, SPEECH_TURNS, Act, Turn
from mafia_env.engine.roles import Role
from mafia_env.engine.rules import Rules, parse_roles
from mafia_env.engine.turns import TURN_RULES

T = TypeVar("T")
# The variants by name (`GameSpec.make("sport")`): the engine reads no file; the layer that
# loads the variant files (`mafia_env.variants`) hands them over with `register_variants`.
VARIANTS: dict[str, Rules] = {}


def register_variants(variants: Mapping[str, Rules]) -> dict[str, Rules]:
    """Make `variants` (name -> rules) the variants `GameSpec.make` and `get_variant` know;
    return the engine's table of them (`VARIANTS`)."""
    VARIANTS.clear()
    VARIANTS.update(variants)
    return VARIANTS


def get_variant(name: str) -> Rules:
    """Return the variant called `name`, or raise a ConfigError listing the variants."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(VARIANTS)) or "none registered (import mafia_env)"
        raise ConfigError(f"unknown variant {name!r}; variants are: {known}{_hint(name)}") from None


def _hint(name: object) -> str:
    """Point a name such as "sport-10" (a benchmark task's) to the task and to the variant."""
    base, dash, size = str(name).rpartition("-")
    if not dash or base not in VARIANTS or not size.isdigit():
        return ""
    return (
        f". {name!r} reads as a benchmark task's name (variant-size: mafia_env.TASKS lists "
        f"them, mafia_env.single_agent({name!r}) plays one); the rules alone at that size are "
        f"mafia_env.env({base!r}, num_players={size})"
    )


# Observation options a spec may carry (name -> what it does). They change what an encoder
# writes, never the game; an option added here becomes part of the layout caches' key.
OBS_OPTIONS: dict[str, str] = {
    "belief": "belief='deduction' adds the piece `belief`: each seat's probability of every "
    "role, from what this agent can deduce (mafia_env.belief); None (the default): no piece",
}

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
    deal: tuple[Role, ...] | None = None  # a fixed deal by seat (knob roles=[...]); None: dealt
    knobs: tuple[tuple[str, Any], ...] = ()  # the knobs given over the variant file's, in order
    obs: tuple[tuple[str, Any], ...] = ()  # observation options (`OBS_OPTIONS`), sorted
    # what the layers build on this spec, by (key, obs): shared by the specs of one (rules, n)
    layouts: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def make(
        cls,
        variant: str | Rules | GameSpec = "sport",
        num_players: int | None = None,
        roles: Sequence[str | Role] | None = None,
        *,
        obs: Mapping[str, Any] | None = None,
        **knobs: Any,
    ) -> GameSpec:
        """Return the checked spec of a game: a variant (its name, its `Rules`, or a spec whose
        rules, size and deal are taken over), the table size (None: the variant's default, or
        the given spec's), a fixed deal by seat (`roles`, role names), observation options and
        rule knobs. Every problem is a ConfigError that says what is allowed; the same
        arguments return the same (cached) spec.
        """
        given_obs = {k: knobs.pop(k) for k in list(knobs) if k in OBS_OPTIONS}
        if given_obs:  # an observation option among the knobs: it travels in `obs`
            obs = {**(obs or {}), **given_obs}
        obs = obs or None  # no options and obs={} are one spec (one cache entry)
        same_size = num_players is None or num_players == getattr(variant, "n", None)
        if isinstance(variant, GameSpec) and same_size and not (roles or obs or knobs):
            return variant
        key, anchor = _make_key(variant, num_players, roles, obs, knobs)
        hit = _MADE.get(key) if key is not None else None
        if hit is not None and hit[0] is anchor:
            return hit[1]
        if isinstance(variant, GameSpec):
            base, given = variant.rules, dict(variant.knobs)
            n = variant.n if num_players is None else num_players
            if roles is None and variant.deal is not None and n == variant.n:
                roles = variant.deal
            options = {**dict(variant.obs), **(obs or {})}
        else:
            base = variant if isinstance(variant, Rules) else get_variant(variant)
            given, n, options = {}, num_players, dict(obs or {})
        rules = base.with_knobs(**knobs)  # an unknown knob or a bad value: a ConfigError
        if n is None:
            n = rules.default_players
        rules.check_players(n)
        rules.role_counts(n)  # the role table at this size, mafia_count applied
        asked = roles if isinstance(roles, str) else list(roles or ())  # a str: refused
        deal = None if roles is None else tuple(parse_roles(asked, rules, n))
        spec = cls.of(rules, n)
        merged = tuple({**given, **knobs}.items())
        if deal is not None or merged or options:
            spec = replace(spec, deal=deal, knobs=merged).with_obs(**options)
        if key is not None:
            if len(_MADE) >= 256:
                _MADE.clear()
            _MADE[key] = (anchor, spec)
        return spec

    def with_obs(self, **options: Any) -> GameSpec:
        """Return this spec with observation options set (names from `OBS_OPTIONS`)."""
        unknown = sorted(set(options) - set(OBS_OPTIONS))
        if unknown:
            allowed = ", ".join(sorted(OBS_OPTIONS)) or "none yet"
            raise ConfigError(f"unknown observation options {unknown}; options: {allowed}")
        # an option set to None is an option not taken: one spec, one set of layouts
        merged = tuple(
            sorted((k, v) for k, v in {**dict(self.obs), **options}.items() if v is not None)
        )
        return self if merged == self.obs else replace(self, obs=merged)

    def cached(self, key: Any, build: Callable[[GameSpec], T]) -> T:
        """Return what `build(self)` returns, built once per (key, observation options) for
        every spec of these rules and table size (the layouts: `ActionLayout.of(spec)`)."""
        full = (key, self.obs)
        hit = self.layouts.get(full)
        if hit is None:
            hit = self.layouts[full] = build(self)
        return hit

    @property
    def variant(self) -> str:
        """The variant's name."""
        return self.rules.name

    @property
    def knob_dict(self) -> dict[str, Any]:
        """The knobs given over the variant file's, as a new dict."""
        return dict(self.knobs)

    def __getstate__(self) -> dict:
        # the layouts are rebuilt where the spec is unpickled (they hold shared mask caches)
        return {k: v for k, v in self.__dict__.items() if k != "layouts"}

    def __setstate__(self, state: dict) -> None:
        for k, v in {**state, "layouts": {}}.items():
            object.__setattr__(self, k, v)

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
        if len(_SPECS) >= 256:  # bounded: the variant files' specs stay (their layouts are
            for k in [k for k, v in _SPECS.items() if VARIANTS.get(v.rules.name) is not v.rules]:
                del _SPECS[k]  # shared by every spec made of them, before and after), not others
            _MADE.clear()  # specs made from the ones let go
        _SPECS[key] = spec
        return spec

    @property
    def action_size(self) -> int:
        return sum(self.widths.values())

    def offers(self, turn: Turn) -> tuple[Act, ...]:
        """Return the acts a turn of kind `turn` can offer in this game."""
        return TURN_RULES[turn].offers(self.rules, self.roles)


_SPECS: dict[tuple[int, int], GameSpec] = {}
_MADE: dict[tuple, tuple[Any, GameSpec]] = {}  # make's arguments -> (anchor, spec)


def _make_key(variant: Any, n: Any, roles: Any, obs: Any, knobs: dict) -> tuple:
    """Return a hashable key of `GameSpec.make`'s arguments (None where there is none) and
    the object a cached spec must have been made from (None: a variant file's rules)."""
    if isinstance(variant, str):
        base, anchor = variant, None
    elif isinstance(variant, Rules) and VARIANTS.get(variant.name) is variant:
        base, anchor = variant.name, None  # a variant file's rules: as its name
    else:
        base, anchor = id(variant), variant
    key = (
        base,
        n,
        None if roles is None else tuple(roles) if isinstance(roles, list | tuple) else roles,
        None if obs is None else tuple(sorted(obs.items())),
        tuple(knobs.items()),
    )
    try:
        hash(key)
    except TypeError:
        return None, anchor
    return key, anchor


__all__ = [
    "BASE_ACTS",
    "OBS_OPTIONS",
    "TARGETED",
    "VARIANTS",
    "GameSpec",
    "get_variant",
    "register_variants",
]
