"""The one typed config loader (mafia_env.yaml_config): types, bounds, sections, clear errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest

from mafia_env import yaml_config
from mafia_env.errors import ConfigError
from mafia_env.yaml_config import PositiveInt, Range

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Section:
    names: tuple[str, ...]
    games: PositiveInt = 10


@dataclass(frozen=True)
class Example:
    """A config of every kind of field the loader checks."""

    name: str
    count: PositiveInt = 1
    rate: float = 0.5
    share: Annotated[float, Range(gt=0, le=1)] = 0.5
    flag: bool = False
    mode: Literal["fast", "slow"] = "fast"
    path: str | None = None
    sizes: tuple[PositiveInt, ...] = (1,)
    weights: dict[str, float] = field(default_factory=dict)
    section: Section | None = None
    anything: Any = None

    def check(self) -> None:
        if self.mode == "slow" and self.count > 3:
            raise ConfigError("count must be <= 3 when mode is slow")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, r"cfg\.yaml: missing keys \['name'\]; required keys: name"),
        ({"name": "x", "colour": 1}, r"unknown keys \['colour'\]; allowed keys: name, count"),
        ({"name": 3}, r"name must be str; got 3"),
        ({"name": "x", "count": 0}, r"count must be >= 1; got 0"),
        ({"name": "x", "count": True}, r"count must be int; got True"),
        ({"name": "x", "count": 2.0}, r"count must be int; got 2\.0"),
        ({"name": "x", "rate": "1e-3"}, r"rate must be float; got '1e-3'"),
        ({"name": "x", "rate": float("nan")}, r"rate must be a finite number; got nan"),
        ({"name": "x", "rate": float("inf")}, r"rate must be a finite number; got inf"),
        ({"name": "x", "share": 0}, r"share must be in \(0, 1\]; got 0"),
        ({"name": "x", "flag": "yes"}, r"flag must be bool; got 'yes'"),
        ({"name": "x", "mode": "medium"}, r"mode must be one of fast, slow; got 'medium'"),
        ({"name": "x", "path": 5}, r"path must be str or null; got 5"),
        ({"name": "x", "count": None}, r"count must not be null"),
        ({"name": "x", "sizes": [4, 0]}, r"sizes must be a list of positive ints; got \[4, 0\]"),
        ({"name": "x", "sizes": 4}, r"sizes must be a list of positive ints; got 4"),
        ({"name": "x", "weights": {"a": "b"}}, r"weights must be a mapping of strings to"),
        ({"name": "x", "section": {"names": ["a"], "games": 0}}, r"section\.games must be >= 1"),
        ({"name": "x", "section": {"x": 1}}, r"section: unknown keys \['x'\]; allowed keys: names"),
        ({"name": "x", "mode": "slow", "count": 4}, r"cfg\.yaml: count must be <= 3 when mode"),
    ],
)
def test_config_errors_name_the_file_the_key_and_what_is_allowed(data, message):
    with pytest.raises(ConfigError, match=message):
        yaml_config.parse(Example, data, source="cfg.yaml")


def test_config_converts_to_the_declared_types():
    cfg = yaml_config.parse(
        Example,
        {"name": "x", "rate": 2, "sizes": [3, 4], "weights": {"a": 1}, "section": {"names": []}},
    )
    assert cfg.rate == 2.0 and isinstance(cfg.rate, float)
    assert cfg.sizes == (3, 4) and cfg.weights == {"a": 1.0}
    assert cfg.section == Section(names=())


def test_config_files(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("name: x\nsizes: [2]\n")
    assert yaml_config.load(Example, path).sizes == (2,)
    with pytest.raises(ConfigError, match=r"config file '.*none\.yaml' not found"):
        yaml_config.load(Example, tmp_path / "none.yaml")
    path.write_text("name: [x\n")
    with pytest.raises(ConfigError, match=r"c\.yaml: cannot read the config file: not valid YAML"):
        yaml_config.load(Example, path)
    path.write_text("- x\n")
    with pytest.raises(ConfigError, match=r"c\.yaml: a config is a mapping of keys to values"):
        yaml_config.load(Example, path)


@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "configs").glob("*/*.yaml")),
    ids=lambda p: f"{p.parent.name}/{p.stem}",
)
def test_every_shipped_config_loads_through_the_one_loader(path, monkeypatch):
    """PPO, RLlib, evaluation, arena and search configs all read through mafia_env.yaml_config."""
    pytest.importorskip("torch")
    from baselines.arena import load_config as load_arena
    from baselines.evaluate import load_config as load_eval
    from baselines.ismcts import load_config as load_search
    from baselines.ppo import load_config as load_ppo
    from baselines.rllib.rllib_config import load_config as load_rllib

    calls = []
    real = yaml_config.read_yaml
    monkeypatch.setattr(yaml_config, "read_yaml", lambda *a, **k: calls.append(a) or real(*a, **k))
    load = {
        "ppo": load_ppo,
        "league": load_ppo,
        "league_v2": load_ppo,
        "filler": load_ppo,
        "exploit": load_ppo,
        "rllib": load_rllib,
        "eval": load_eval,
        "arena": load_arena,
        "ismcts": lambda path: load_search(path.stem, path),
    }[path.parent.name]
    load(path)
    assert calls
