"""The errors the engine raises on bad input: each message says what was wrong and what is
allowed (`mafia_env.errors` holds them too, with the errors of the layers above).
"""

from __future__ import annotations


class MafiaError(ValueError):
    """Base class of every error this package raises on bad input."""


class ConfigError(MafiaError):
    """A variant file, a knob, a role table or a run config is invalid."""


class IllegalActionError(MafiaError):
    """An agent chose an action outside its mask, or acted out of turn."""


class RecordError(MafiaError):
    """A game record is corrupt or does not match the variant it names."""


class KnobWarning(UserWarning):
    """A knob was set that changes nothing: it sets a rule of a role the variant never deals
    (``heal_self`` on SPORT, which has no doctor)."""


class IllegalActionWarning(UserWarning):
    """An agent's action outside its mask was answered by a foul or by ending the game
    (COMMON-7); knob ``illegal_action="raise"`` makes it an `IllegalActionError` instead."""


__all__ = [
    "ConfigError",
    "IllegalActionError",
    "IllegalActionWarning",
    "KnobWarning",
    "MafiaError",
    "RecordError",
]
