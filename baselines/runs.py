"""Where a run writes: a second run never overwrites a first.

A run's folder (a training run's ``runs/<exp_name>_<variant>_<seed>``, an evaluation's or the
arena's ``out``) that already holds files is left alone: the new run takes the first free
``<folder>-2``, ``<folder>-3``, ... and says so. ``--force`` (``force=True``) empties the
folder and writes there instead, once the run starts writing. A result file a command is
asked to write (``--out``) that exists is refused before any work starts, unless forced.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from mafia_env.errors import ConfigError


def fresh_dir(path: str | Path, force: bool = False) -> Path:
    """Return the folder a new run writes: `path` if it is free (or `force`: `claim_dir`
    empties it when the run starts writing), else the first free ``path-2``, ``path-3``, ...
    Nothing is made or removed here, so a run that fails its checks leaves nothing behind."""
    path = Path(path)
    if force or not _taken(path):
        return path
    k = 2
    while _taken(path.with_name(f"{path.name}-{k}")):
        k += 1
    return path.with_name(f"{path.name}-{k}")


def claim_dir(path: str | Path, force: bool = False) -> Path:
    """Make the run's folder `path`; with `force`, remove what an earlier run left there."""
    path = Path(path)
    if force and _taken(path):
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()
    path.mkdir(parents=True, exist_ok=True)
    return path


def _taken(path: Path) -> bool:
    """Whether `path` exists and is not an empty folder."""
    return path.exists() and not (path.is_dir() and not any(path.iterdir()))


def free_file(path: str | Path | None, force: bool = False) -> None:
    """Refuse to write the result file `path` over an earlier one, unless `force`."""
    if path is None or force or not Path(path).exists():
        return
    raise ConfigError(
        f"{path} exists (an earlier result): give another --out, or --force to overwrite it"
    )


__all__ = ["claim_dir", "free_file", "fresh_dir"]
