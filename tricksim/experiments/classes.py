"""Hand classes for decision studies: data, a function from the hand masks of a study's rows
(an int64 array) to a class per row, named as players name them.

``CLASSES[game]`` maps each name to its function; a study groups its rows by the classes it is
given (the game's ``DEFAULT_CLASSES`` unless told) and by position. A user's own class is any
function of the same shape:

>>> import numpy as np
>>> from tricksim.cards import parse_cards
>>> hand = np.array([sum(1 << c for c in parse_cards("QC QS JD AC 7H 8H"))])
>>> [int(CLASSES["sheepshead"][name](hand)[0]) for name in ("trumps", "queens", "jacks", "fail_aces", "voids")]
[3, 2, 1, 1, 1]
"""

from __future__ import annotations

import numpy as np

from ..agents import sheepshead as sheepshead_agent
from ..sim import sheepshead as sheepshead_kernels


def _count(mask: int):
    """The class function counting a hand's cards in ``mask``."""
    mask = np.int64(mask)
    return lambda cards: np.bitwise_count(np.asarray(cards, dtype=np.int64) & mask).astype(np.int8)


def _sheepshead_voids(cards):
    """Fail suits (clubs, spades, hearts) the hand holds no card of."""
    cards = np.asarray(cards, dtype=np.int64)
    fail = (sheepshead_agent.CLUB_MASK, sheepshead_agent.SPADE_MASK, sheepshead_agent.HEART_MASK)
    return sum(((cards & np.int64(m)) == 0).astype(np.int8) for m in fail)


CLASSES = {
    "sheepshead": {
        "trumps": _count(sheepshead_kernels.SUIT_MASKS[sheepshead_kernels.TRUMP]),
        "queens": _count(sheepshead_agent.QUEENS),
        "jacks": _count(sheepshead_agent.JACKS),
        "fail_aces": _count(sheepshead_agent.FAIL_ACES),
        "voids": _sheepshead_voids,
    },
}
DEFAULT_CLASSES = {"sheepshead": ("trumps",)}
