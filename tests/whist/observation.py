"""What a Whist seat sees (``tricksim.spec.Observation``): the table blocks, the turned card
(public; the dealer holds it until he plays it) and trump."""

from __future__ import annotations

import numba as nb
import numpy as np

from tricksim.cards import SUITS
from tricksim.sim.observation import Block, card, deck_columns, encode_table, one_hot, one_of, table_blocks, totals_block

from . import rules as K

COLUMN = deck_columns(np.arange(52))


def deck(game):
    return np.arange(52)


def blocks(game) -> list[Block]:
    return table_blocks(K.PLAYERS, 52, K.PHASE_NAMES, K.NUM_TRICKS) + [
        Block("turned", 52, read=card),
        Block("trump", 4, read=one_of(SUITS)),
        totals_block(K.PLAYERS),
    ]


@nb.njit(cache=True)
def observe(s, seat, out):
    """Write what ``seat`` may know of ``s`` into ``out`` (the layout of ``blocks``)."""
    at = encode_table(s, seat, K.PLAYERS, 52, COLUMN, len(K.PHASE_NAMES), K.PLAYING, K.HANDS, K.PHASE, K.DEALER,
                      K.LEADER, K.TO_ACT, K.TRICK_NO, K.IN_TRICK, K.TRICKS, K.TRICK_SLOTS, out)
    out[at + COLUMN[s[K.TURNED]]] = 1
    one_hot(s[K.TRUMP], out, at + 52)
