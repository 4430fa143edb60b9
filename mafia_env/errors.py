"""Errors raised on bad input: each message says what was wrong and what is allowed."""

from __future__ import annotations

from mafia_env.engine.errors import (  # the engine's, raised by every layer
    ConfigError,
    IllegalActionError,
    IllegalActionWarning,
    KnobWarning,
    MafiaError,
    RecordError,
)

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


__all__ = [
    "EXTRAS",
    "ConfigError",
    "IllegalActionError",
    "IllegalActionWarning",
    "KnobWarning",
    "MafiaError",
    "MissingExtraError",
    "RecordError",
    "missing_extra",
]
