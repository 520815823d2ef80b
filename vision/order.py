"""Order statistics of small arrays, as numpy's ``median`` and ``percentile`` give them.

The readers take a median or a percentile of a few hundred pixels many times a frame (each
token's face, the cloth round it, a marker's paper). ``np.median`` and ``np.percentile`` cost
tens of microseconds of checks and dispatch each before any work; these take one partition and
return the same values (numpy's default: the mean of the two middle values for a median of an
even count, linear interpolation between the closest ranks for a percentile).
"""

from __future__ import annotations

import numpy as np


def median(values: np.ndarray) -> float:
    """The median of a non-empty 1-D array (``float(np.median(values))``)."""
    n = values.size
    k = n // 2
    if n % 2:
        return float(np.partition(values, k)[k])
    part = np.partition(values, (k - 1, k))
    return (float(part[k - 1]) + float(part[k])) / 2.0


def percentile(values: np.ndarray, q: float) -> float:
    """The ``q``-th percentile (0-100) of a non-empty 1-D array, linearly interpolated
    between the closest ranks (``float(np.percentile(values, q))``)."""
    n = values.size
    rank = (n - 1) * q / 100.0
    low = int(rank)
    high = min(low + 1, n - 1)
    part = np.partition(values, (low, high))
    a, b = float(part[low]), float(part[high])
    return a + (b - a) * (rank - low)
