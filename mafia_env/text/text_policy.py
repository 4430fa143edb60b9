"""`TextPolicy`: a text-in, text-out function (a language model) as a `Policy`.

Each move asks the model with the text observation; a reply that names no legal action is
answered with the error and asked again; then a counted fallback plays (`FALLBACKS`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import numpy as np

from mafia_env.errors import ConfigError
from mafia_env.lang import DEFAULT, table
from mafia_env.text.reply import ReplyError, _norm, choices_from_text, read_reply

log = logging.getLogger(__name__)

# What a TextPolicy counts: moves asked, model calls, replies rejected, fallbacks played,
# calls that timed out or failed otherwise.
STATS = ("moves", "calls", "invalid", "fallbacks", "timeouts", "errors")

FALLBACKS = ("rule", "random", "first", "raise")  # what a TextPolicy plays when replies fail


class Defer(ReplyError):
    """A policy hands this move to `policy` (its fallback), which takes its own observation.

    The seating code (`mafia_env.seating.games.choose`) asks `policy` with the observation it takes
    (the rule bot reads the vector) and plays its move.
    """

    def __init__(self, message: str, policy: Any):
        super().__init__(message)
        self.policy = policy


def _is_timeout(error: BaseException) -> bool:
    """Return whether a failed call ran out of time (the openai client's APITimeoutError too)."""
    return isinstance(error, TimeoutError) or "timeout" in type(error).__name__.casefold()


class TextPolicy:
    """A `Policy` over text observations: asks `complete(prompt) -> reply` for each move.

    A reply that names no legal action (`read_reply`) is answered with the error (which
    lists the legal choices, in `lang`) and asked again, up to `retries` times. A call that
    raises (a timeout, a server error) is not asked again. Then `fallback` plays the move:
    ``"first"`` the first legal action, ``"random"`` a random legal one, ``"rule"`` the
    `backup` policy (the rule bot: it raises `Defer`, and the seating code asks the bot with
    its own observation), ``"raise"`` raises the ReplyError. Every fallback is counted in
    `stats` and listed in `fallbacks` (with its reason), and logged with the error: never
    silent (the first as a warning, the rest at DEBUG level, so that a long run is not
    flooded; the arena, whose seats are fresh policies, lets one warning a minute through).

    A reply may add table talk ("3. Say: I trust player 2."): `talk` holds it after `act`,
    for the seating code to say during a speech (`mafia_env.seating.games`).
    """

    observes = "text"  # the seating code gives it text observations (`mafia_env.seating.games`)

    def __init__(
        self,
        complete: Callable[[str], str] | None = None,
        retries: int = 2,
        lang: str = DEFAULT,
        fallback: str = "first",
        backup: Any = None,
        seed: int = 0,
        describe: Callable[[int], str] | None = None,
    ):
        if fallback not in FALLBACKS:
            raise ConfigError(f"fallback is one of {', '.join(FALLBACKS)}; got {fallback!r}")
        if fallback == "rule" and backup is None:
            raise ConfigError("fallback 'rule' needs backup=<the rule bot's policy>")
        self.complete = complete
        self.retries = retries
        self.lang = lang
        self.ui = table(lang).UI
        self.fallback = fallback
        self.backup = backup
        self.describe = describe  # action index -> short name ("nominate 3"), if known
        self.rng = np.random.default_rng(seed)
        self.errors: list[str] = []  # every rejected reply's message, for inspection
        self.fallbacks: list[tuple[str, str]] = []  # (reason, message) of every fallback
        self.stats = dict.fromkeys(STATS, 0)
        self.talk: str | None = None

    def seed(self, seed: int) -> None:
        """Restart the random fallback's stream (and the backup's)."""
        self.rng = np.random.default_rng(seed)
        if self.backup is not None and callable(getattr(self.backup, "seed", None)):
            self.backup.seed(seed)

    def reply(self, prompt: str, tries: list[tuple[str, str]]) -> str:
        """Return the model's reply to `prompt`, after the rejected `tries` (reply, error)."""
        if self.complete is None:
            raise ConfigError("TextPolicy needs complete(prompt) -> reply, or a reply() method")
        return self.complete(prompt if not tries else f"{prompt}\n{tries[-1][1]}")

    def act(self, obs: Any, mask: np.ndarray) -> int:
        """Return the action index the model's reply names, else the fallback's."""
        self.talk = None
        prompt = str(obs)
        choices = choices_from_text(prompt, mask)
        aliases = None
        if self.describe is not None:
            aliases = {_norm(self.describe(i)): i for i, _ in choices}
        stats = self.stats
        stats["moves"] += 1
        tries: list[tuple[str, str]] = []
        for _ in range(self.retries + 1):
            stats["calls"] += 1
            try:
                reply = self.reply(prompt, tries)
            except Exception as e:  # the model did not answer: no retry, the fallback plays
                reason = "timeout" if _is_timeout(e) else "error"
                stats["timeouts" if reason == "timeout" else "errors"] += 1
                return self._fall_back(reason, f"{type(e).__name__}: {e}", choices)
            try:
                got = read_reply(reply, choices, aliases, self.ui, self.lang)
            except ReplyError as e:
                stats["invalid"] += 1
                self.errors.append(str(e))
                tries.append((reply, str(e)))
                continue
            self.talk = got.talk
            return got.index
        return self._fall_back("invalid", tries[-1][1], choices)

    def _fall_back(self, reason: str, message: str, choices: list[tuple[int, str]]) -> int:
        self.stats["fallbacks"] += 1
        self.fallbacks.append((reason, message))
        if self.stats["fallbacks"] == 1:  # once per policy: the rest are counted in stats
            log.warning(
                "%s: %s (%s); fallback %r plays (further fallbacks are logged at DEBUG and "
                "counted in stats)",
                type(self).__name__,
                reason,
                message[:300],
                self.fallback,
            )
        else:
            log.debug(
                "%s: %s (%s); fallback %r plays",
                type(self).__name__,
                reason,
                message[:300],
                self.fallback,
            )
        if self.fallback == "raise":
            raise ReplyError(message)
        if self.fallback == "rule":
            raise Defer(message, self.backup)
        if self.fallback == "random":
            return choices[int(self.rng.integers(len(choices)))][0]
        return choices[0][0]

    def act_batch(self, obs: Any, masks: np.ndarray) -> np.ndarray:
        """Return one action per row of `masks`."""
        return np.array([self.act(o, m) for o, m in zip(obs, masks, strict=True)], dtype=np.int64)


__all__ = ["FALLBACKS", "STATS", "Defer", "TextPolicy"]
