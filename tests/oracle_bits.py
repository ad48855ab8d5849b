"""Plain bit helpers for the tests' rule oracles, written apart from the engine's
kernels on purpose: an oracle must not share the code it checks."""

import numba as nb
import numpy as np


@nb.njit(cache=False)
def count(m):
    """Number of set bits, one at a time."""
    n = 0
    while m != 0:
        m &= m - 1
        n += 1
    return n


@nb.njit(cache=False)
def bit(c):
    return np.int64(1) << np.int64(c)
