"""One typed loader for every YAML config: run configs, evaluation configs, variant files.

A config is a frozen dataclass; the type of each field says what its key may hold:

| type | YAML |
|---|---|
| ``int``, ``bool``, ``str`` | that scalar (a bool is not an int) |
| ``float`` | a number; an int is taken as a float; nan and inf are refused |
| ``Literal["a", "b"]`` | one of the choices |
| ``X | None`` | ``null`` or an X |
| ``tuple[X, ...]`` | a list of X |
| ``dict[K, V]`` | a mapping of K to V |
| a dataclass | a mapping of its fields |
| ``Any`` | anything |
| ``Annotated[X, Range(ge=1)]`` | an X within bounds (``PositiveInt``, ``Fraction``, ...) |

A field without a default is required; an unknown key is an error that lists the allowed
keys. After the fields, a dataclass's ``check()`` method (if it defines one) checks the
whole: rules between fields, or against the variant; it may return a completed copy.
Every error is a `ConfigError` that names the source (the file), the key (a path such as
``matchups[0].town`` or ``ratings.games``) and what is allowed.

    cfg = load(RLlibConfig, "configs/rllib/sport.yaml")
    cfg = parse(RLlibConfig, {"policies": "per_team"}, source="config")
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, Union

import yaml

from mafia_env.errors import ConfigError

T = TypeVar("T")
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C parser where PyYAML has it


@dataclass(frozen=True)
class Range:
    """Bounds of a number (``ge``: >=, ``gt``: >, ``le``: <=, ``lt``: <); None: unbounded."""

    ge: float | None = None
    gt: float | None = None
    le: float | None = None
    lt: float | None = None

    def holds(self, x: float) -> bool:
        """Return whether `x` is within the bounds."""
        return not (
            (self.ge is not None and x < self.ge)
            or (self.gt is not None and x <= self.gt)
            or (self.le is not None and x > self.le)
            or (self.lt is not None and x >= self.lt)
        )

    def __str__(self) -> str:
        """Return the bounds in words: ">= 1", "in (0, 1]"."""
        bounds = [(op, x) for op, x in (("[", self.ge), ("(", self.gt)) if x is not None]
        bounds += [(op, x) for op, x in (("]", self.le), (")", self.lt)) if x is not None]
        if len(bounds) == 2 and bounds[0][0] in "[(" and bounds[1][0] in "])":
            (a, low), (b, high) = bounds
            return f"in {a}{low:g}, {high:g}{b}"
        words = {"[": ">=", "(": ">", "]": "<=", ")": "<"}
        return " and ".join(f"{words[op]} {x:g}" for op, x in bounds) or "any number"


PositiveInt = Annotated[int, Range(ge=1)]
NonNegativeInt = Annotated[int, Range(ge=0)]
PositiveFloat = Annotated[float, Range(gt=0)]
NonNegativeFloat = Annotated[float, Range(ge=0)]
Fraction = Annotated[float, Range(ge=0, le=1)]


# ------------------------------------------------------------------ reading files


def read_yaml(path: str | Path, what: str = "config") -> Any:
    """Return a YAML file's data; a missing or unreadable file is a ConfigError naming it."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"{what} file '{path}' not found")
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
        raise ConfigError(f"{path}: cannot read the {what} file: not valid YAML: {e}") from None


def load(cls: type[T], path: str | Path, what: str = "config") -> T:
    """Read a YAML file and return it as a `cls`, checked."""
    return parse(cls, read_yaml(path, what), source=str(path), what=what)


# ------------------------------------------------------------------------ parsing


def parse(cls: type[T], data: Any, source: str = "config", what: str = "config") -> T:
    """Return `data` (a mapping) as a checked `cls`; every problem is a ConfigError."""
    if data is None:
        raise ConfigError(f"{source}: the {what} is empty; a {what} is a mapping of keys to values")
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: a {what} is a mapping of keys to values; got {data!r}")
    return _dataclass(cls, data, source, "")


def _dataclass(cls: type[T], data: dict, source: str, path: str) -> T:
    hints = _hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}  # type: ignore[arg-type]
    at = f"{path}: " if path else ""
    unknown = [k for k in data if k not in fields]
    if unknown:
        raise ConfigError(
            f"{source}: {at}unknown keys {sorted(map(str, unknown))}; "
            f"allowed keys: {', '.join(fields)}"
        )
    missing = [name for name, f in fields.items() if name not in data and _required(f)]
    if missing:
        raise ConfigError(
            f"{source}: {at}missing keys {missing}; required keys: "
            + ", ".join(n for n, f in fields.items() if _required(f))
        )
    values = {k: _value(hints[k], v, source, f"{path}.{k}" if path else k) for k, v in data.items()}
    obj = cls(**values)
    check = getattr(cls, "check", None)
    if check is not None:
        try:
            checked = check(obj)
        except ConfigError as e:
            raise ConfigError(f"{source}: {at}{e}") from None
        if checked is not None:
            obj = checked
    return obj


def _required(f: dataclasses.Field) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, include_extras=True)


def _value(kind: Any, value: Any, source: str, path: str) -> Any:
    """Return `value` checked (and converted: int -> float, list -> tuple) against `kind`."""
    if kind is Any:
        return value
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if value is None and origin not in (Union, types.UnionType):
        raise ConfigError(f"{source}: {path} must not be null; it takes {describe(kind)}")
    if origin is Annotated:
        inner, bounds = args[0], [a for a in args[1:] if isinstance(a, Range)]
        value = _value(inner, value, source, path)
        for r in bounds:
            if not r.holds(value):
                raise ConfigError(f"{source}: {path} must be {r}; got {value!r}")
        return value
    if origin in (Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        if value is None:
            if len(options) < len(args):
                return None
            raise ConfigError(f"{source}: {path} must not be null; it takes {describe(kind)}")
        if len(options) == 1 and not _simple(options[0]):  # a section: its own errors
            return _value(options[0], value, source, path)
        for option in options:
            try:
                return _value(option, value, source, path)
            except ConfigError:
                pass
        raise ConfigError(f"{source}: {path} must be {describe(kind)}; got {value!r}")
    if origin is Literal:
        if value in args and type(value) in {type(a) for a in args}:
            return value
        raise ConfigError(f"{source}: {path} must be {describe(kind)}; got {value!r}")
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise ConfigError(f"{source}: {path} must be {describe(kind)}; got {value!r}")
        return tuple(_items(args[0], list(value), range(len(value)), source, path, kind, value))
    if origin is dict:
        if not isinstance(value, dict):
            raise ConfigError(f"{source}: {path} must be {describe(kind)}; got {value!r}")
        keys = _items(args[0], list(value), None, source, path, kind, value)
        vals = _items(args[1], list(value.values()), value, source, path, kind, value)
        return dict(zip(keys, vals, strict=True))
    if dataclasses.is_dataclass(kind):
        if isinstance(value, kind):
            return value
        if not isinstance(value, dict):
            raise ConfigError(
                f"{source}: {path} must be a mapping of keys to values; got {value!r}"
            )
        return _dataclass(kind, value, source, path)
    return _scalar(kind, value, source, path)


def _items(
    kind: Any, items: list, names: Any, source: str, path: str, whole: Any, value: Any
) -> list:
    """Check the items (or keys: `names` None) of a list or mapping `value` of type `whole`.

    An item of a simple kind fails the whole ("hidden must be a list of positive ints; got
    [64, 0]"); a section is checked under its own path (``matchups[0]``).
    """
    if names is None or _simple(kind):
        try:
            return [_value(kind, x, source, path) for x in items]
        except ConfigError:
            raise ConfigError(
                f"{source}: {path} must be {describe(whole)}; got {value!r}"
            ) from None
    return [_value(kind, x, source, _sub(path, k)) for k, x in zip(names, items, strict=True)]


def _sub(path: str, key: Any) -> str:
    return f"{path}.{key}" if isinstance(key, str) else f"{path}[{key}]"


def _scalar(kind: Any, value: Any, source: str, path: str) -> Any:
    if kind is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            if not math.isfinite(value):
                raise ConfigError(f"{source}: {path} must be a finite number; got {value!r}")
            return float(value)
    elif kind in (int, str, bool):
        if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
            return value
    else:
        raise TypeError(f"the config loader cannot check type {kind!r} (at {path})")
    raise ConfigError(f"{source}: {path} must be {describe(kind)}; got {value!r}")


def _simple(kind: Any) -> bool:
    """Return whether `kind` is a scalar, a choice, or one of them with bounds or null."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is Annotated:
        return _simple(args[0])
    if origin in (Union, types.UnionType):
        return all(_simple(a) for a in args if a is not type(None))
    return origin is Literal or kind in (int, float, str, bool)


# ------------------------------------------------------------------ words for types

_NOUN = {int: "int", float: "float", str: "str", bool: "bool"}
_PLURAL = {int: "ints", float: "numbers", str: "strings", bool: "booleans"}


def describe(kind: Any, plural: bool = False) -> str:
    """Return what a type admits in words: "int", "str or null", "a list of positive ints"."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if kind is Any:
        return "anything"
    if origin is Annotated:
        base = describe(args[0], plural)
        for r in args[1:]:
            if r == Range(gt=0) or (r == Range(ge=1) and args[0] is int):
                base = f"positive {base}"
            elif r == Range(ge=0):
                base = f"non-negative {base}"
            elif isinstance(r, Range):
                base = f"{base} {r}"
        return base
    if origin in (Union, types.UnionType):
        return " or ".join("null" if a is type(None) else describe(a, plural) for a in args)
    if origin is Literal:
        return "one of " + ", ".join(map(str, args))
    if origin is tuple:
        return f"a list of {describe(args[0], plural=True)}"
    if origin is dict:
        return f"a mapping of {describe(args[0], True)} to {describe(args[1], True)}"
    if dataclasses.is_dataclass(kind):
        return "a mapping of " + ", ".join(f.name for f in dataclasses.fields(kind))
    return (_PLURAL if plural else _NOUN).get(kind, getattr(kind, "__name__", str(kind)))


__all__ = [
    "Fraction",
    "NonNegativeFloat",
    "NonNegativeInt",
    "PositiveFloat",
    "PositiveInt",
    "Range",
    "describe",
    "load",
    "parse",
    "read_yaml",
]
