"""Small statistics used by the summaries."""

from __future__ import annotations

import math


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float, float]:
    """The rate ``successes / trials`` with its Wilson score interval ``(rate, low, high)``.

    NaNs when there are no trials.

    >>> [round(x, 4) for x in wilson(60, 100)]
    [0.6, 0.502, 0.6906]
    """
    if trials <= 0:
        return (math.nan, math.nan, math.nan)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (p, max(0.0, centre - half), min(1.0, centre + half))


def signed(x: float, digits: int = 4) -> str:
    """``x`` with its sign at ``digits`` decimals, a value that rounds to zero as +0 (two agents
    that play alike differ by float noise of either sign, which ``-0.0000`` would misreport).

    >>> signed(-6e-18), signed(-0.00012), signed(0.25, 3)
    ('+0.0000', '-0.0001', '+0.250')
    """
    return f"{round(x, digits) + 0.0:+.{digits}f}"


def mean_interval(values, z: float = 1.96) -> tuple[float, float, float]:
    """Mean with a normal-approximation interval ``(mean, low, high)``."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = float(values.mean())
    half = z * float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    return (mean, mean - half, mean + half)
