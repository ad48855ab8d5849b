"""Brute force for the solver's tests."""

from __future__ import annotations

import numba as nb
import numpy as np
from numba import literally, types

from tricksim.agents import family as F
from tricksim.agents.solver import SCORE
from tricksim.sim import actions as A


@nb.njit
def _brute(family, stack, depth, judge, objective):
    """Plain minimax: every legal action, no pruning, no table, nothing merged."""
    s = stack[depth]
    seat = F.to_act(family, s)
    if seat < 0:
        return F.score(family, s, judge) if objective == SCORE else F.side_points(family, s, judge)
    words, cards, kind = F.legal(family, s)
    maximise = F.same_side(family, s, seat, judge)
    best = -(1 << 40) if maximise else 1 << 40
    for a in range(A.NUM_ACTIONS):
        if a < 64:
            if not (words >> a) & 1:
                continue
        else:
            c = a - 64 - 54 * kind
            if not (0 <= c < 54 and (cards >> c) & 1):
                continue
        stack[depth + 1, :] = s
        F.step(family, stack[depth + 1], a)
        v = _brute(family, stack, depth + 1, judge, objective)
        best = max(best, v) if maximise else min(best, v)
    return best


@nb.njit
def brute(family, s, judge, objective):
    literally(family)
    stack = np.zeros((80, s.size), np.int64)
    stack[0, :] = s
    return _brute(family, stack, 0, judge, objective)


def compiled_brute(family: int):
    """``brute`` compiled for ``family``'s constant: ``f(family, s, judge, objective)``."""
    return brute.compile((types.literal(family), types.int64[::1], types.int64, types.int64))
