"""Variant files: one YAML file per rule set, validated on load into `Rules`."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from mafia_env.engine.roles import Role, Team, role_from_name
from mafia_env.engine.rules import KNOBS, Rules
from mafia_env.errors import ConfigError

HERE = Path(__file__).parent
TOP_KEYS = {"name", "title", "source", "players", "roles", "rules", "defaults"}
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_variant(path: str | Path) -> Rules:
    """Load and validate one variant file; every problem is a ConfigError naming the file."""
    path = Path(path)
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    except (OSError, yaml.YAMLError) as e:
        raise ConfigError(f"{path}: cannot read the variant file: {e}") from None
    try:
        return parse_variant(data)
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from None


def parse_variant(data: Any) -> Rules:
    """Build `Rules` from a variant file's parsed YAML."""
    if not isinstance(data, dict):
        raise ConfigError("a variant file must be a mapping of " + ", ".join(sorted(TOP_KEYS)))
    unknown = set(data) - TOP_KEYS
    missing = TOP_KEYS - set(data)
    if unknown or missing:
        raise ConfigError(
            f"unknown keys {sorted(unknown)} / missing keys {sorted(missing)}; "
            f"a variant file has exactly: {', '.join(sorted(TOP_KEYS))}"
        )
    players = data["players"]
    if (
        not isinstance(players, dict)
        or set(players) != {"min", "max", "default"}
        or not all(isinstance(v, int) and v >= 3 for v in players.values())
        or not players["min"] <= players["default"] <= players["max"]
    ):
        raise ConfigError(
            f"players must be {{min, max, default}} with min <= default <= max, "
            f"all at least 3; got {players!r}"
        )
    tables = _role_tables(data["roles"], players["min"], players["max"])
    knobs = _knobs(data["rules"], data["defaults"])
    return Rules(
        name=str(data["name"]),
        title=str(data["title"]),
        min_players=players["min"],
        max_players=players["max"],
        default_players=players["default"],
        role_tables=tables,
        defaults=frozenset(data["defaults"] or {}),
        **knobs,
    )


def _role_tables(spec: Any, lo: int, hi: int) -> dict[int, dict[Role, int]]:
    if not isinstance(spec, dict) or set(spec) != set(range(lo, hi + 1)):
        got = sorted(spec) if isinstance(spec, dict) else spec
        raise ConfigError(f"roles must give one table for each size {lo}..{hi}; got sizes {got}")
    tables = {}
    for n, table in spec.items():
        if not isinstance(table, dict):
            raise ConfigError(f"roles[{n}] must map role names to counts; got {table!r}")
        try:
            counts = {role_from_name(name): c for name, c in table.items()}
        except ValueError as e:
            raise ConfigError(f"roles[{n}]: {e}") from None
        if not all(isinstance(c, int) and c >= 0 for c in counts.values()):
            raise ConfigError(f"roles[{n}]: counts must be non-negative integers; got {table!r}")
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


def _knobs(rules: Any, defaults: Any) -> dict[str, Any]:
    rules, defaults = rules or {}, defaults or {}
    if not isinstance(rules, dict) or not isinstance(defaults, dict):
        raise ConfigError("rules and defaults must map knob names to values")
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


VARIANTS: Mapping[str, Rules] = load_all()


def get_variant(name: str) -> Rules:
    """Return the variant called `name`, or raise a ConfigError listing the variants."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise ConfigError(
            f"unknown variant {name!r}; variants are: {', '.join(sorted(VARIANTS))}"
        ) from None


__all__ = ["VARIANTS", "get_variant", "load_variant", "parse_variant"]
