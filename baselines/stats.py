"""Statistics shared by evaluation, training reports and the benchmark."""

from __future__ import annotations

import math


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the Wilson score interval of a proportion wins/n (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # the interval always holds p: at 0 or n wins, rounding must not leave p just outside
    return min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half))
