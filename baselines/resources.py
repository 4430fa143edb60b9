"""Files the package reads at run time: the run configs and the reference results.

In a checkout (and an editable install) they are the repository's ``configs/`` and
``results/``. A wheel carries copies inside the package, under ``baselines/_data/`` (setup.py's
``build_py`` copies its ``RUNTIME_DATA`` there), so that a non-editable install reads the same
files: the search bot's budget, `baselines.exploit`'s default config and the results its
``strongest`` start reads, and every config a command may be given by name.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """Return the folder `name` (``configs``, ``results/v3``): the wheel's copy, else the
    repository's."""
    packaged = HERE / "_data" / name
    return packaged if packaged.is_dir() else HERE.parent / name


def config_path(name: str | Path) -> Path:
    """Return a config file: `name` as a path, else as a shipped config's name.

    ``ppo/sport``, ``ppo/sport.yaml`` and ``configs/ppo/sport.yaml`` name the same shipped
    file from any folder (a wheel install has no ``configs/`` of its own). A name that is
    neither comes back as given, for the loader to report the missing file.
    """
    path = Path(name)
    if path.is_file():
        return path
    parts = path.parts[1:] if path.parts[:1] == ("configs",) else path.parts
    if parts:
        shipped = data_dir("configs").joinpath(*parts)
        if not shipped.suffix:
            shipped = shipped.with_suffix(".yaml")
        if shipped.is_file():
            return shipped
    return path


def config_names(kind: str) -> list[str]:
    """Return the shipped configs of one kind (``ppo``, ``eval``, ...) as ``kind/name``."""
    return sorted(f"{kind}/{p.stem}" for p in (data_dir("configs") / kind).glob("*.yaml"))


__all__ = ["config_names", "config_path", "data_dir"]
