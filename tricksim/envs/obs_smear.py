"""What a smear seat sees, as numbers (the same as ``Shmear.observe`` / ``NESmear.observe``):

card planes run over the variant's own deck in card order (``DECKS``: Shmear's 52 cards and the
joker last, NE Smear's 32 cards), so the two variants have layouts of different sizes, served by
one kernel that reads the variant from the state. After the table blocks (``observation.py``):
each seat's bidding call (-1 not yet spoken, 0 pass,
N a bid of N); the high bidder (one-hot, none before a bid) and the bid (0 before a bid); trump
(one-hot, public in Shmear; in NE Smear shown to the bidder at once and to the others from his
first lead); the seat's own discards. Shmear then adds its team (1 for each seat on the observer's
team, itself included: the ``teams`` option), how many cards each seat swapped in the draw, and the
number of cards left in the stock; NE Smear adds the widow the bidder took, to the bidder only.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..sim import actions as A
from ..sim import smear as K
from ..sim.kernels import popcount
from .observation import (
    Block,
    card_plane,
    deck_columns,
    encode_table,
    one_hot,
    relative,
    table_blocks,
    totals_block,
)

DECKS = tuple(np.array([c for c in range(54) if int(mask) >> c & 1], dtype=np.int64) for mask in K.DECK_MASKS)
DECK_SIZES = np.array([len(deck) for deck in DECKS], dtype=np.int64)
COLUMNS = np.stack([deck_columns(deck) for deck in DECKS])  # row per variant
PHASES = len(K.PHASE_NAMES)


def blocks(game) -> list[Block]:
    v, players = game.variant, game.players
    deck = int(DECK_SIZES[v])
    top_bid = int(K.MAX_BID[v])
    common = [
        Block("calls", players, high=top_bid, low=-1),
        Block("bidder", players),
        Block("bid", 1, high=top_bid),
        Block("trump", 4),
        Block("discards", deck),
    ]
    if v == K.SHMEAR:
        own = [
            Block("team", players),  # 1 for each seat on the observer's team
            Block("drawn", players, high=K.MAX_DRAW),
            Block("stock_left", 1, high=K.MAX_REST),
        ]
    else:
        own = [Block("widow", deck)]
    return table_blocks(players, deck, PHASES, K.NUM_TRICKS) + common + own + [totals_block(players)]


@nb.njit(cache=True)
def observe(s, seat, out):
    """Write what ``seat`` may know of state ``s`` into ``out`` (the layout of ``blocks``)."""
    v = s[K.OPTIONS + K.O_VARIANT]
    players = s[K.NUM_PLAYERS]
    deck = DECK_SIZES[v]
    column = COLUMNS[v]
    at = encode_table(s, seat, players, deck, column, PHASES, K.PLAYING, K.HANDS, K.PHASE, K.DEALER,
                      K.LEADER, K.TO_ACT, K.TRICK_NO, K.IN_TRICK, K.TRICKS, K.TRICK_SLOTS, out)
    for p in range(players):
        call = s[K.LAST_CALL + p]  # an action id: -1 (not spoken) and pass (0) stay as they are
        out[at + relative(p, seat, players)] = call if call <= A.PASS else call - A.BID
    at += players
    bidder = s[K.BIDDER]
    one_hot(relative(bidder, seat, players), out, at)
    out[at + players] = s[K.BID]
    at += players + 1
    # NE Smear: trump is named in private; the bidder's first lead (a trump) shows it
    if K.trump_shown(s, seat):
        one_hot(s[K.TRUMP], out, at)
    at += 4
    card_plane(s[K.DISCARDS + seat], column, out, at)
    at += deck
    if v == K.SHMEAR:
        own_team = K.team(s, seat)
        for p in range(players):
            r = relative(p, seat, players)
            out[at + r] = 1 if K.team(s, p) == own_team else 0
            out[at + players + r] = s[K.DRAWN + p]
        out[at + 2 * players] = popcount(s[K.STOCK])
    elif seat == bidder:
        card_plane(s[K.WIDOW_TAKEN], column, out, at)
