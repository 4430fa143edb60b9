"""Errors raised on bad input: each message says what was wrong and what is allowed."""

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


# the extra of pyproject.toml that installs each optional module (its top-level name)
EXTRAS = {
    "torch": "train",
    "tensorboard": "train",
    "matplotlib": "train",
    "tqdm": "train",
    "openskill": "train",
    "openai": "llm",
    "pyspiel": "openspiel",
    "starlette": "table",
    "uvicorn": "table",
    "websockets": "table",
    "ray": "rllib",
    "httpx": "dev",
}


class MissingExtraError(MafiaError, ModuleNotFoundError):
    """An optional module is not installed: the message names the extra that installs it.

    It is a `MafiaError` (a command prints it as one line) and a `ModuleNotFoundError` (code
    that tries an import and goes on without it still catches it)."""

    def __init__(self, what: str, module: str, extra: str | None = None):
        extra = extra or EXTRAS.get(module, module)
        super().__init__(
            f"{what} needs {module}, which is not installed: pip install 'mafia-env[{extra}]'"
        )
        self.name = module
        self.extra = extra


def missing_extra(error: ImportError, what: str) -> MafiaError | ImportError:
    """Return `error` as a `MissingExtraError` where it names a module of an extra, else as is.

    ``raise missing_extra(e, "the ppo bot") from None`` in an ``except ImportError as e``."""
    if isinstance(error, MissingExtraError):
        return error
    module = (getattr(error, "name", None) or "").split(".")[0]
    if module not in EXTRAS:
        return error
    return MissingExtraError(what, module)
