"""The environments' side of an observation: the Gymnasium space of a game's vector (whose
blocks and kernels are the rules' own, ``tricksim.sim.observation``), and the action mask."""

from __future__ import annotations

import numba as nb
from gymnasium import spaces

from ..sim import actions as A
from ..sim.kernels import lowest_card
from ..sim.observation import Layout


def observation_space(layout: Layout) -> spaces.Box:
    """The Gymnasium space of an observation vector of ``layout``."""
    return spaces.Box(layout.low(), layout.high(), dtype=layout.low().dtype)


@nb.njit(cache=True, inline="always")
def encode_mask(words, cards, kind, out):
    """The action mask of a game's ``legal(state)`` triple over the flat action space."""
    out[:] = 0
    while words:
        out[lowest_card(words)] = 1
        words &= words - 1
    base = A.CARD_BASE + 54 * kind
    while cards:
        out[base + lowest_card(cards)] = 1
        cards &= cards - 1
