"""Whist's heuristic agent (``tricksim.spec.HeuristicAgent``): win a trick as cheaply as it can
unless the partner is winning it, else throw the weakest card; lead a sure winner, else low."""

from __future__ import annotations

import numba as nb
import numpy as np

from tricksim.sim import actions as A
from tricksim.sim.kernels import bit, popcount

from . import rules as K

PARAMS = (("cover", 1.0, "1: beat the winning card when the partner is not winning it; 0: always play low"),)
DEFAULTS = np.array([default for _, default, _ in PARAMS], dtype=np.float64)
FEATURES = tuple(f"trumps_{p}" for p in range(K.PLAYERS))  # trumps dealt to each seat


@nb.njit(cache=True, inline="always")
def weakest(cards, t):
    """The card of ``cards`` with the least power under trump ``t`` (a trump only if all are)."""
    best, low = -1, 1 << 20
    for c in range(52):
        if cards >> c & 1 and K.POWER[t, c] < low:
            best, low = c, K.POWER[t, c]
    return best


@nb.njit(cache=True, inline="always")
def strongest(cards, t):
    best, high = -1, -1
    for c in range(52):
        if cards >> c & 1 and K.POWER[t, c] > high:
            best, high = c, K.POWER[t, c]
    return best


@nb.njit(cache=True)
def choose_card(s, params):
    seat = s[K.TO_ACT]
    t = s[K.TRUMP]
    _, cards, _ = K.legal(s)
    if s[K.IN_TRICK] == 0:
        top = strongest(cards & ~K.SUIT_MASKS[0, t], t)
        unseen = K.DECK_MASK & ~s[K.PLAYED] & ~s[K.HANDS + seat]
        if top >= 0 and K.BEATEN_BY[t, top] & unseen & K.SUIT_MASKS[0, top // 13] == 0:
            return top  # no unseen card of its suit beats it
        return weakest(cards, t)
    slot = K.TRICKS + s[K.TRICK_NO] * K.TRICK_SLOTS
    n = s[K.IN_TRICK]
    winning = s[slot + 1]
    by = 0
    for i in range(1, n):
        if K.BEATEN_BY[t, winning] & bit(s[slot + 1 + i]):
            winning, by = s[slot + 1 + i], i
    partner_wins = (s[slot] + by) % K.PLAYERS == (seat + 2) % K.PLAYERS
    beating = cards & K.BEATEN_BY[t, winning]
    if partner_wins or beating == 0 or params[0] < 0.5:
        return weakest(cards, t)
    return weakest(beating, t)


@nb.njit(cache=True)
def act(s, params, rng):
    """The action id the heuristic chooses for the seat to act."""
    return A.card_action(A.PLAY, choose_card(s, params))


@nb.njit(cache=True, inline="always")
def record_features(s, dealt, out, i, column):
    """Each seat's trumps as dealt."""
    for p in range(K.PLAYERS):
        out[i, column + p] = popcount(dealt[p] & K.SUIT_MASKS[0, s[K.TRUMP]])
