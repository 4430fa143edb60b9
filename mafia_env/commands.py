"""What the package's command lines share: help with defaults, one-line errors, progress.

Every command (``mafia play``, ``mafia train``, ... and their ``python -m`` forms) builds its
parser with `parser`, whose help shows each option's default and choices. `run` runs a
command's ``main``: an optional module that is not installed ends it with one line naming the
extra to install (`mafia_env.errors.MissingExtraError`), never a traceback.

`progress` is a progress bar with a rate and an ETA on stderr (tqdm, of the ``train`` extra;
without it, a plain line every few seconds). Bars show only inside `showing_progress(True)`:
the commands turn them on and ``--quiet`` off, so that library calls (a test, a notebook
calling `baselines.ppo.train`) stay silent. `echo` prints a log line above a running bar.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from mafia_env.errors import MafiaError, MissingExtraError, missing_extra


class HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """The description as written; each option's default after its help (unless it has none)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        d = action.default
        if d is None or d is False or d == [] or d is argparse.SUPPRESS:  # (not 0: a default)
            return action.help
        return super()._get_help_string(action)


def parser(prog: str, description: str | None) -> argparse.ArgumentParser:
    """Return a command's argument parser: its defaults and choices shown in ``--help``."""
    return argparse.ArgumentParser(
        prog=prog, description=description, formatter_class=HelpFormatter
    )


def add_quiet(p: argparse.ArgumentParser, what: str = "progress bars and log lines") -> None:
    """Add ``--quiet``: the command prints no progress, only its result."""
    p.add_argument("-q", "--quiet", action="store_true", help=f"print no {what}")


def parse(p: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace | int:
    """Parse `argv`; return the exit status instead of raising SystemExit (``--help``: 0, a bad
    argument: 2, its message already printed), so that ``main`` returns it."""
    try:
        return p.parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2


def run(main: Callable[..., int | None], *args: Any, what: str = "this command") -> int:
    """Run a command's `main`; a missing optional module is one line naming its extra."""
    try:
        return main(*args) or 0
    except BrokenPipeError:  # the reader (head, less) stopped early: not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error as Python flushes at exit
        return 0
    except MissingExtraError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except ImportError as e:
        found = missing_extra(e, what)
        if not isinstance(found, MafiaError):
            raise
        print(f"error: {found}", file=sys.stderr)
        return 2


def require(module: str, what: str, extra: str | None = None) -> None:
    """Import `module` now, or raise the `MissingExtraError` naming its extra (`extra`, else
    the one that installs it): a command checks what it needs before its work, not after."""
    try:
        importlib.import_module(module)
    except ImportError as e:
        if extra is not None and (e.name or "").split(".")[0] == module:
            raise MissingExtraError(what, module, extra) from None
        raise missing_extra(e, what) from None


# ------------------------------------------------------------------------ progress

_SHOW = [False]


@contextmanager
def showing_progress(on: bool = True) -> Iterator[None]:
    """Show the progress bars of the code run inside (a command's body; off: ``--quiet``)."""
    before = _SHOW[0]
    _SHOW[0] = on
    try:
        yield
    finally:
        _SHOW[0] = before


def progress_shown() -> bool:
    """Whether progress bars are shown now (`showing_progress`)."""
    return _SHOW[0]


class _Silent:
    """A bar that shows nothing (library calls, ``--quiet``)."""

    def update(self, n: int = 1) -> None:
        pass

    def set_postfix_str(self, s: str) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _Silent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Lines(_Silent):
    """A bar without tqdm: a line on stderr every `every` seconds, with the rate and ETA."""

    def __init__(self, total: int, desc: str, unit: str, every: float = 5.0):
        self.total, self.desc, self.unit, self.every = total, desc, unit, every
        self.n, self.note = 0, ""
        self.start = self.shown = time.monotonic()

    def update(self, n: int = 1) -> None:
        self.n += n
        now = time.monotonic()
        if now - self.shown >= self.every:
            self.shown = now
            self._line(now)

    def set_postfix_str(self, s: str) -> None:
        self.note = s

    def close(self) -> None:
        if self.n:
            self._line(time.monotonic())
        self.n = 0

    def _line(self, now: float) -> None:
        spent = max(now - self.start, 1e-9)
        rate = self.n / spent
        left = (self.total - self.n) / rate if rate > 0 and self.total else 0.0
        pct = f" ({100 * self.n / self.total:.0f}%)" if self.total else ""
        note = f", {self.note}" if self.note else ""
        print(
            f"{self.desc}: {self.n}/{self.total}{pct}, {rate:.1f} {self.unit}/s, "
            f"{_clock(spent)} spent, ETA {_clock(left)}{note}",
            file=sys.stderr,
            flush=True,
        )


def _clock(seconds: float) -> str:
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


def progress(total: int, desc: str, unit: str = "it", leave: bool = True) -> Any:
    """Return a progress bar over `total` units (``update(n)``, ``close()``, a context
    manager): tqdm's with an ETA, plain lines without tqdm, nothing unless shown. A bar
    that does not `leave` is wiped when it closes (a step inside a longer bar)."""
    if not _SHOW[0]:
        return _Silent()
    try:
        from tqdm import tqdm
    except ImportError:
        return _Lines(total, desc, unit)
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True, leave=leave)


def echo(message: str) -> None:
    """Print a command's log line (stdout) without breaking a progress bar on stderr."""
    tqdm = sys.modules.get("tqdm")
    if tqdm is not None and _SHOW[0]:
        tqdm.tqdm.write(message, file=sys.stdout)
        sys.stdout.flush()
    else:
        print(message, flush=True)


__all__ = [
    "HelpFormatter",
    "add_quiet",
    "echo",
    "parse",
    "parser",
    "progress",
    "progress_shown",
    "require",
    "run",
    "showing_progress",
]
