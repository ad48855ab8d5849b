"""Whist's search hooks (``tricksim.spec.SearchHooks``): what a seat knows, as the one world
sampler's data, and the solver's keys and bounds.

A seat knows its own hand, every card played and by whom, and the turned card, which stays in
the dealer's hand until he plays it. A seat that did not follow the suit led holds none of it.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tricksim.agents.sampler import TRIES, world
from tricksim.sim.kernels import bit, hash_mix, popcount

from . import rules as K


@nb.njit(cache=True, inline="always")
def shown_voids(s, p):
    """The cards seat ``p`` showed it cannot hold: each suit it did not follow."""
    voids = np.int64(0)
    for t in range(s[K.TRICK_NO] + 1):
        slot = K.TRICKS + t * K.TRICK_SLOTS
        count = K.PLAYERS if t < s[K.TRICK_NO] else s[K.IN_TRICK]
        if count == 0:
            continue
        led = s[slot + 1] // 13
        for i in range(1, count):
            if (s[slot] + i) % K.PLAYERS == p and s[slot + 1 + i] // 13 != led:
                voids |= K.SUIT_MASKS[0, led]
    return voids


@nb.njit(cache=True, inline="always")
def turned_hidden(s, seat):
    """Whether the turned card is known to lie in a hand ``seat`` cannot see: the dealer's."""
    return seat != s[K.DEALER] and s[K.PLAYED] & bit(s[K.TURNED]) == 0


@nb.njit(cache=True, inline="always")
def knowledge(s, seat, h, room, allow, facts):
    """The sampler's ``knowledge``: the places are the seats' hands (the dealer's less the turned
    card, which ``put`` gives back), each without the suits its seat did not follow."""
    unseen = K.DECK_MASK & ~s[K.PLAYED] & ~s[K.HANDS + seat]
    if turned_hidden(s, seat):
        unseen &= ~bit(s[K.TURNED])
    for p in range(K.PLAYERS):
        room[p] = 0 if p == seat else popcount(s[K.HANDS + p])
        allow[p] = K.DECK_MASK & ~shown_voids(s, p)
    if turned_hidden(s, seat):
        room[s[K.DEALER]] -= 1
    return K.PLAYERS, 1, unseen


@nb.njit(cache=True, inline="always")
def put(s, seat, h, cards, room, out):
    """The sampler's ``put``: the other hands into the world ``out``, the turned card the dealer's."""
    for p in range(K.PLAYERS):
        if p != seat:
            out[K.HANDS + p] = cards[p]
    if turned_hidden(s, seat):
        out[K.HANDS + s[K.DEALER]] |= bit(s[K.TURNED])


@nb.njit(cache=True)
def sample(s, seat, rng, out):
    """A world consistent with all ``seat`` knows of ``s``, by the one sampler."""
    world(s, seat, rng, out, TRIES, __name__)


@nb.njit(cache=True, inline="always")
def same_side(s, a, b):
    return (a - b) % 2 == 0


@nb.njit(cache=True, inline="always")
def play_key(s):
    """What decides the rest of the hand: trump, the seat to act, every hand, the trick in progress."""
    h = hash_mix(np.int64(0x5EED), s[K.TRUMP])
    h = hash_mix(h, s[K.TO_ACT])
    h = hash_mix(h, s[K.IN_TRICK])
    for p in range(K.PLAYERS):
        h = hash_mix(h, s[K.HANDS + p])
    slot = K.TRICKS + s[K.TRICK_NO] * K.TRICK_SLOTS
    for i in range(s[K.IN_TRICK]):
        h = hash_mix(h, s[slot + 1 + i])
    return h


@nb.njit(cache=True, inline="always")
def score_key(s):
    """``play_key`` and the tricks each side has taken."""
    return hash_mix(hash_mix(play_key(s), s[K.TAKEN]), s[K.TAKEN + 1])


@nb.njit(cache=True, inline="always")
def side_points(s, seat):
    """The tricks ``seat``'s side has taken."""
    return s[K.TAKEN + seat % 2]


@nb.njit(cache=True, inline="always")
def merge(s, cards):
    """The legal cards, every one kept (correct, if slower to search than merging runs)."""
    return cards


@nb.njit(cache=True, inline="always")
def points_bounds(s, seat):
    """No trick to every trick left."""
    return np.int64(0), np.int64(K.NUM_TRICKS - s[K.TRICK_NO])


@nb.njit(cache=True, inline="always")
def score_bounds(s, seat):
    """The side's score with what it has, and with every trick left (``side_score`` rises with tricks)."""
    took = s[K.TAKEN + seat % 2]
    low, high = points_bounds(s, seat)
    return np.int64(K.side_score(took + low)), np.int64(K.side_score(took + high))
