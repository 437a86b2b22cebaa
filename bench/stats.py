"""Small statistics helpers shared by the benchmarks."""

from __future__ import annotations

import statistics
from collections.abc import Sequence


def median(values: Sequence[float]) -> float:
    return float(statistics.median(values)) if values else float("nan")


def pct(values: Sequence[float], q: float) -> float:
    """The `q` quantile (nearest rank), e.g. pct(xs, 0.99); NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(q * len(ordered)))])


def sliding_max(times: Sequence[float], width: float = 60.0) -> int:
    """The most of `times` (sorted) inside any `width` seconds.

    >>> sliding_max([0, 1, 2, 61, 62]), sliding_max([]), sliding_max([0, 59.9, 60])
    (3, 0, 2)
    """
    best = lo = 0
    for hi, t in enumerate(times):
        while t - times[lo] >= width:
            lo += 1
        best = max(best, hi - lo + 1)
    return best
