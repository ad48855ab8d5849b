"""What a Bluke seat sees (``observation.py``; read back as ``State.observe``'s view): after the
table blocks (card planes over all 54 cards, C D H S by rank 2..A then LJ and HJ, since the
blukes are dealt, played and turned like any card; the tricks each seat won read as ``taken``),
``hand_size`` (the tricks of this hand, which bound the bids); the turned card; ``trump``,
one-hot over C D H S and no trump (a turned bluke), which the turned card implies but is spelled
out; and ``bids`` per relative seat, -1 until that seat has bid. The bid total is the sum of the
bids, so it is not repeated. Nobody sees another hand or the undealt cards under the turned one.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..cards import NUM_CARDS, SUITS
from . import bluke as K
from .observation import (
    Block,
    bids,
    card,
    deck_columns,
    encode_table,
    number,
    one_hot,
    one_of,
    relative,
    table_blocks,
    totals_block,
)

DECK = NUM_CARDS
COLUMN = deck_columns(np.arange(NUM_CARDS))
PHASES = len(K.PHASE_NAMES)
TRUMPS = K.NO_TRUMP + 1  # C D H S, no trump


def deck(game):
    return np.arange(NUM_CARDS)


def blocks(game) -> list[Block]:
    players = game.players
    most = K.max_hand(players)
    return table_blocks(players, DECK, K.PHASE_NAMES, most, won_key="taken") + [
        Block("hand_size", 1, high=most, read=number),
        Block("turned", DECK, read=card),
        Block("trump", TRUMPS, read=one_of(tuple(SUITS) + (None,))),  # no trump last (K.NO_TRUMP)
        Block("bids", players, high=most, low=-1, read=bids),
        totals_block(players),
    ]


@nb.njit(cache=True)
def observe(s, seat, out):
    """Write what ``seat`` may know of state ``s`` into ``out`` (the layout of ``blocks``)."""
    players = s[K.NUM_PLAYERS]
    at = encode_table(s, seat, players, DECK, COLUMN, PHASES, K.PLAYING, K.HANDS, K.PHASE,
                      K.DEALER, K.LEADER, K.TO_ACT, K.TRICK_NO, K.IN_TRICK, K.TRICKS, K.TRICK_SLOTS, out)
    out[at] = s[K.HAND_SIZE]
    at += 1
    out[at + COLUMN[s[K.TURNED]]] = 1
    at += DECK
    one_hot(s[K.TRUMP], out, at)
    at += TRUMPS
    for p in range(players):
        out[at + relative(p, seat, players)] = s[K.BIDS + p]
    # the totals after the bids stay 0: the environment fills them
