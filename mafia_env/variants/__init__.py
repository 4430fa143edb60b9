"""Variant files: one YAML file per rule set, validated on load into `Rules`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from mafia_env.engine.roles import Role, Team, role_from_name
from mafia_env.engine.rules import KNOBS, Rules
from mafia_env.engine.spec import get_variant, register_variants
from mafia_env.errors import ConfigError
from mafia_env.yaml_config import NonNegativeInt, Range, parse, read_yaml

HERE = Path(__file__).parent
MinPlayers = Annotated[int, Range(ge=3)]


@dataclass(frozen=True)
class Players:
    """The table sizes a variant supports."""

    min: MinPlayers
    max: MinPlayers
    default: MinPlayers

    def check(self) -> None:
        if not self.min <= self.default <= self.max:
            raise ConfigError(
                "must have min <= default <= max; "
                f"got {{min: {self.min}, max: {self.max}, default: {self.default}}}"
            )


@dataclass(frozen=True)
class TableKnobs:
    """The web table's knobs of a variant (our choices: the rules say nothing of a clock)."""

    overrun_foul: bool = False
    """a person's speech that runs out of the table's turn time is a foul (then the rule's
    default action), as a moderator calls one for speaking past the time"""


@dataclass(frozen=True)
class VariantFile:
    """A variant file, as written: its keys, each required."""

    name: str
    """the variant's name: the file's name without .yaml"""
    title: str
    """a line that says what the rules are"""
    source: str
    """the document the rules were taken from"""
    players: Players
    """the table sizes: {min, max, default}"""
    role_table: Literal["source", "default"]
    """whether the role counts come from the source document or are our default"""
    roles: dict[int, dict[str, NonNegativeInt]]
    """the roles dealt at each table size: {size: {role name: count}}"""
    rules: dict[str, Any] | None
    """knobs the source document sets (engine/rules.py KNOBS)"""
    defaults: dict[str, Any] | None
    """knobs the source is silent on: our choices"""
    table: TableKnobs = TableKnobs()
    """the web table's own knobs (`mafia_env.table`): how it referees a live game"""


def load_variant(path: str | Path) -> Rules:
    """Load and validate one variant file; every problem is a ConfigError naming the file."""
    return parse_variant(read_yaml(path, "variant"), str(path))


def parse_variant(data: Any, source: str = "variant file") -> Rules:
    """Build `Rules` from a variant file's parsed YAML."""
    f = parse(VariantFile, data, source, what="variant file")
    try:
        tables = _role_tables(f.roles, f.players.min, f.players.max)
        knobs = _knobs(f.rules, f.defaults)
    except ConfigError as e:
        raise ConfigError(f"{source}: {e}") from None
    return Rules(
        name=f.name,
        title=f.title,
        min_players=f.players.min,
        max_players=f.players.max,
        default_players=f.players.default,
        role_tables=tables,
        defaults=frozenset(f.defaults or {}),
        role_table=f.role_table,
        **knobs,
    )


def _role_tables(spec: dict[int, dict[str, int]], lo: int, hi: int) -> dict[int, dict[Role, int]]:
    if set(spec) != set(range(lo, hi + 1)):
        raise ConfigError(
            f"roles must give one table for each size {lo}..{hi}; got sizes {sorted(spec)}"
        )
    tables = {}
    for n, table in spec.items():
        try:
            counts = {role_from_name(name): c for name, c in table.items()}
        except ValueError as e:
            raise ConfigError(f"roles[{n}]: {e}") from None
        if sum(counts.values()) != n:
            raise ConfigError(f"roles[{n}] deals {sum(counts.values())} roles to {n} seats")
        black = sum(c for r, c in counts.items() if r.team is Team.MAFIA)
        if not 1 <= black < n - black:
            raise ConfigError(
                f"roles[{n}]: the mafia team must have at least one member and "
                f"fewer than the other players; got {black} of {n}"
            )
        if counts.get(Role.DON, 0) > 1 or counts.get(Role.SHERIFF, 0) > 1:
            raise ConfigError(f"roles[{n}]: at most one don and one sheriff")
        tables[n] = counts
    return tables


def _knobs(rules: dict[str, Any] | None, defaults: dict[str, Any] | None) -> dict[str, Any]:
    rules, defaults = rules or {}, defaults or {}
    both = set(rules) & set(defaults)
    if both:
        raise ConfigError(
            f"knobs {sorted(both)} are in both rules and defaults; "
            "each knob is either from the source (rules) or our choice (defaults)"
        )
    values = {**rules, **defaults}
    unknown = set(values) - set(KNOBS)
    if unknown:
        raise ConfigError(f"unknown knobs {sorted(unknown)}; knobs are: {', '.join(sorted(KNOBS))}")
    missing = set(KNOBS) - set(values)
    if missing:
        raise ConfigError(f"knobs {sorted(missing)} are not set; every variant sets every knob")
    return {name: KNOBS[name].check(name, value) for name, value in values.items()}


def load_all() -> dict[str, Rules]:
    """Load every variant file shipped in the package, by name."""
    variants = {}
    for path in sorted(HERE.glob("*.yaml")):
        rules = load_variant(path)
        if rules.name != path.stem:
            raise ConfigError(f"{path}: name {rules.name!r} differs from the file name")
        variants[rules.name] = rules
    return variants


# the engine's `GameSpec.make` and `get_variant` read these (the engine reads no file)
VARIANTS: Mapping[str, Rules] = register_variants(load_all())


@cache
def table_knobs(name: str) -> TableKnobs:
    """Return the web table's knobs of variant `name` (its file's ``table`` section)."""
    get_variant(name)
    path = HERE / f"{name}.yaml"
    return parse(VariantFile, read_yaml(path, "variant"), str(path), what="variant file").table


__all__ = [
    "VARIANTS",
    "TableKnobs",
    "VariantFile",
    "get_variant",
    "load_variant",
    "parse_variant",
    "table_knobs",
]
