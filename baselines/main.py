"""The main job: play games of a variant with random legal play and summarise them.

python -m baselines.main --config configs/main.yaml
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from pathlib import Path

import numpy as np
import yaml

import mafia_env
from mafia_env.errors import ConfigError

KEYS = {"variant": str, "num_players": int, "games": int, "seed": int}


def load_config(path: str | Path) -> dict:
    """Read and validate a run config; an unknown or missing key is an error."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"config file {path} does not exist")
    try:
        data = yaml.safe_load(path.read_text())
    except yaml.YAMLError as e:
        raise ConfigError(f"{path}: not valid YAML: {e}") from None
    if not isinstance(data, dict) or set(data) != set(KEYS):
        raise ConfigError(f"{path}: a config has exactly the keys {sorted(KEYS)}; got {data!r}")
    for key, kind in KEYS.items():
        if not isinstance(data[key], kind):
            raise ConfigError(f"{path}: {key} must be {kind.__name__}; got {data[key]!r}")
    return data


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Play and summarise random games.")
    parser.add_argument("--config", default="configs/main.yaml")
    cfg = load_config(parser.parse_args(argv).config)
    env = mafia_env.raw_env(cfg["variant"], cfg["num_players"])
    rng = np.random.default_rng(cfg["seed"])
    winners, days, moves = Counter(), [], 0
    start = time.perf_counter()
    for g in range(cfg["games"]):
        env.reset(seed=cfg["seed"] + g)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            moves += 1
        winners[env.winner] += 1
        days.append(env.day)
    elapsed = time.perf_counter() - start
    n = cfg["games"]
    print(
        f"{n} random games of {cfg['variant']} at {cfg['num_players']} seats "
        f"in {elapsed:.1f} s ({moves / elapsed:,.0f} moves/s)"
    )
    for outcome in ("town", "mafia", "maniac", "draw"):
        if winners[outcome]:
            lo, hi = wilson(winners[outcome], n)
            print(f"  {outcome:7} {winners[outcome] / n:6.1%}  (95% CI {lo:.1%}..{hi:.1%})")
    print(f"  mean length {np.mean(days):.2f} days, {moves / n:.0f} moves")


if __name__ == "__main__":
    main()
