"""What a host may choose for a table, and the checks of every field a client sends.

A table's settings arrive as JSON from anyone who can reach the server, so each field is
checked for its type and range here, with an error that says what was wrong and what is
allowed: a number must be finite, a seat a seat of the table, a knob one of the variant's
rule knobs (never an option of the environment such as ``render_mode`` or ``lang``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from mafia_env.engine.rules import KNOBS
from mafia_env.errors import ConfigError
from mafia_env.lang import LANGS
from mafia_env.table.words import message
from mafia_env.variants import VARIANTS, table_knobs

MAX_BOT_DELAY = 60.0  # seconds
MAX_TURN_TIMEOUT = 3600.0  # seconds; null (None) means no limit
MAX_NIGHT_TURN = 600.0  # seconds; null (None): a person's night turn lasts as he takes
NIGHT_TURN = 10.0  # seconds: the night turn of a table of two people that was given none
MAX_SEED = 2**32 - 1
MAX_NAME = 200  # characters of a bot's name
MAX_BODY = 16_384  # bytes of a create request
MAX_DEPTH = 32  # levels of nesting in a client's JSON (a table config needs 3)
# The table's default bot, then what sits instead where it cannot play the table (no filler
# or league file shipped for the variant and table size, or torch not installed):
# `bots.BotShelf.settle`
DEFAULT_BOTS = ("filler", "league", "rule", "random")
# `roles` deals the roles by seat (scenario tables); every other knob is a rule knob
TABLE_KNOBS = frozenset(KNOBS) | {"roles"}


class HostError(ConfigError):
    """A table setting the server refuses: `key` names its message (`words.MESSAGES`), so
    the host reads it in his language (`text`); ``str(error)`` is the English."""

    def __init__(self, key: str, /, **fields: Any):
        self.key, self.fields = key, fields
        super().__init__(message(key, "en", **fields))

    def text(self, lang: str = "en") -> str:
        """Return the message in `lang`."""
        return message(self.key, lang, **self.fields)


@dataclass(frozen=True)
class TableConfig:
    """What the host chose: the rules, who sits where, and the pace of the game."""

    variant: str = "sport"
    num_players: int | None = None  # None: the variant's default
    humans: tuple[int, ...] = (1,)  # seats (1-based) for people
    bots: dict[int, str] = field(default_factory=dict)  # seat -> bot name; default below
    # a bot the server offers (`bots.BotShelf.names`) for every seat `bots` leaves out; one of
    # DEFAULT_BOTS falls back to the next of them where it cannot play the table
    default_bot: str = DEFAULT_BOTS[0]
    seed: int | None = None
    bot_delay: float = 1.0  # seconds a bot waits before it acts, so people can follow
    turn_timeout: float | None = 60.0  # seconds a person may think; None: no limit
    # seconds every night turn lasts where two or more people are alive, whoever takes it
    # (a person moves within it), so no person can time another's night (`night`); None:
    # a person's night turn lasts as long as he takes, and the night waits for him
    night_turn: float | None = NIGHT_TURN
    knobs: dict[str, Any] = field(default_factory=dict)
    lang: str = "en"  # the table's language: its bots' table talk (`talk.voice`)
    bot_talk: bool = True  # the bots say their speech acts as table talk too (`talk`)
    # whether a person's speech that runs out of time is a foul; None: the variant's
    # (`mafia_env.variants.table_knobs`)
    overrun_foul: bool | None = None

    def overruns_foul(self) -> bool:
        """Return whether a person's speech that the clock ends is a foul at this table."""
        if self.overrun_foul is not None:
            return self.overrun_foul
        return table_knobs(self.variant).overrun_foul

    @classmethod
    def from_json(cls, data: Any) -> TableConfig:
        """Build a config from the host's JSON form; a bad field is a HostError."""
        if not isinstance(data, dict):
            raise HostError("cfg_object")
        allowed = set(cls.__dataclass_fields__)
        unknown = set(data) - allowed
        if unknown:
            raise HostError("cfg_fields", got=sorted(unknown), fields=sorted(allowed))
        d = dict(data)
        variant = d.get("variant", cls.variant)
        if not isinstance(variant, str) or variant not in VARIANTS:
            raise HostError("cfg_variant", names=", ".join(sorted(VARIANTS)), got=repr(variant))
        if d.get("num_players") is not None:
            _players(variant, d["num_players"])
        if "humans" in d:
            d["humans"] = _seats(d["humans"])
        if "bots" in d:
            d["bots"] = _bots(d["bots"])
        if "default_bot" in d:
            _name("default_bot", d["default_bot"])
        d["bot_delay"] = _seconds("bot_delay", d.get("bot_delay", cls.bot_delay), MAX_BOT_DELAY)
        if d.get("turn_timeout", cls.turn_timeout) is not None:
            d["turn_timeout"] = _seconds(
                "turn_timeout", d.get("turn_timeout", cls.turn_timeout), MAX_TURN_TIMEOUT, 0.0
            )
        if d.get("night_turn", cls.night_turn) is not None:
            d["night_turn"] = _seconds(
                "night_turn", d.get("night_turn", cls.night_turn), MAX_NIGHT_TURN, 0.0
            )
        seed = d.get("seed")
        if seed is not None and not (_is_int(seed) and 0 <= seed <= MAX_SEED):
            raise HostError("cfg_seed", most=MAX_SEED, got=repr(seed))
        d["knobs"] = _knobs(d.get("knobs", {}))
        lang = d.get("lang", cls.lang)
        if not isinstance(lang, str) or lang not in LANGS:
            raise HostError("bad_lang", lang=str(lang)[:20], langs=", ".join(LANGS))
        if not isinstance(d.get("bot_talk", True), bool):
            raise HostError("cfg_bot_talk", got=repr(d["bot_talk"]))
        overrun = d.get("overrun_foul")
        if overrun is not None and not isinstance(overrun, bool):
            raise HostError("cfg_overrun", got=repr(overrun))
        return cls(**d)

    def check_night(self) -> None:
        """Raise a HostError where two or more people sit and a night turn lasts as long as a
        person takes: the other person could time his night (`night`)."""
        if self.night_turn is None and len(self.humans) >= 2:
            raise HostError("cfg_night_needed", people=len(self.humans))

    def check_seats(self, n: int) -> None:
        """Raise a ConfigError unless people and bots sit in distinct seats 1..n."""
        humans = self.humans
        if len(set(humans)) != len(humans) or not all(1 <= h <= n for h in humans):
            raise HostError("cfg_seats", n=n, got=list(humans))
        wrong = sorted(s for s in self.bots if not 1 <= s <= n or s in humans)
        if wrong:
            raise HostError("cfg_bot_seats", n=n, got=wrong)

    def to_json(self) -> dict[str, Any]:
        """Return the config as JSON-ready data that `from_json` reads back."""
        return {
            "variant": self.variant,
            "num_players": self.num_players,
            "humans": list(self.humans),
            "bots": {str(s): name for s, name in sorted(self.bots.items())},
            "default_bot": self.default_bot,
            "seed": self.seed,
            "bot_delay": self.bot_delay,
            "turn_timeout": self.turn_timeout,
            "night_turn": self.night_turn,
            "knobs": dict(self.knobs),
            "lang": self.lang,
            "bot_talk": self.bot_talk,
            "overrun_foul": self.overrun_foul,
        }


def parse_body(body: bytes) -> Any:
    """Return the JSON of a request body; NaN and Infinity are not JSON numbers here."""
    if len(body) > MAX_BODY:
        raise HostError("cfg_big", got=len(body), most=MAX_BODY)

    def refuse(word: str) -> Any:
        raise HostError("cfg_number", word=word)

    try:
        text = body.decode("utf-8") if isinstance(body, bytes) else body
        if json_depth(text) > MAX_DEPTH:
            raise HostError("cfg_deep", most=MAX_DEPTH)
        return json.loads(text, parse_constant=refuse)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise HostError("cfg_json", why=e) from None
    except RecursionError:
        raise HostError("cfg_deep", most=MAX_DEPTH) from None


def json_depth(text: str) -> int:
    """Return how deep the arrays and objects of JSON `text` nest (strings skipped), without
    parsing it: a client's message is refused before a parser recurses into it."""
    depth = most = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > most:
                most = depth
        elif c in "]}":
            depth -= 1
    return most


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _seconds(key: str, v: Any, most: float, least_excl: float | None = None) -> float:
    """Return a finite number of seconds in range, else raise saying what is allowed."""
    ok = isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
    if not ok or v > most or v < 0 or (least_excl is not None and v <= least_excl):
        raise HostError(f"cfg_{key}", most=f"{most:g}", got=repr(v))
    return float(v)


def _players(variant: str, n: Any) -> None:
    """Raise a HostError unless variant `variant` supports a table of `n` players."""
    rules = VARIANTS[variant]
    if not _is_int(n) or not rules.min_players <= n <= rules.max_players:
        lo, hi = rules.min_players, rules.max_players
        raise HostError("cfg_players", variant=repr(variant), lo=lo, hi=hi, got=repr(n))


def _seats(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(_is_int(h) and 0 <= h < 1000 for h in value):
        raise HostError("cfg_humans", got=repr(value))
    return tuple(value)


def _bots(value: Any) -> dict[int, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise HostError("cfg_bots", got=repr(value))
    out: dict[int, str] = {}
    for key, name in value.items():
        if not (isinstance(key, str) and key.isdecimal() and len(key) <= 3):
            raise HostError("cfg_bot_keys", got=list(value))
        out[int(key)] = _name(f"bots[{key}]", name)
    return out


def _name(key: str, v: Any) -> str:
    if not isinstance(v, str) or not 0 < len(v) <= MAX_NAME:
        raise HostError("cfg_bot_name", key=key, most=MAX_NAME, got=repr(v))
    return v


def _knobs(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise HostError("cfg_knobs")
    wrong = sorted(set(value) - TABLE_KNOBS)
    if wrong:
        raise HostError("cfg_not_knobs", wrong=wrong, knobs=", ".join(sorted(TABLE_KNOBS)))
    return dict(value)


__all__ = [
    "DEFAULT_BOTS",
    "MAX_BODY",
    "MAX_DEPTH",
    "NIGHT_TURN",
    "TABLE_KNOBS",
    "HostError",
    "TableConfig",
    "json_depth",
    "parse_body",
]
