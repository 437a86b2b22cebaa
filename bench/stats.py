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
