"""What a smear seat sees (``observation.py``; read back as ``State.observe``'s view):

card planes run over the variant's own deck in card order (``DECKS``: Shmear's 52 cards and the
joker last, NE Smear's 32 cards), so the two variants have layouts of different sizes, served by
one kernel that reads the variant from the state. After the table blocks: each seat's bidding
call (``call_code``: -1 not yet spoken, 0 pass, N a bid of N); the high bidder (one-hot, none
before a bid) and the bid (0 before a bid); trump (one-hot, public in Shmear; in NE Smear shown
to the bidder at once and to the others from his first lead); the seat's own discards. Shmear
then adds its team (1 for each seat on the observer's team, itself included: the ``teams``
option), how many cards each seat swapped in the draw, and the number of cards left in the
stock; NE Smear adds the widow the bidder took, to the bidder only (its first entry says whether
the seat sees it).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..cards import SUITS
from . import smear as K
from .kernels import popcount
from .observation import (
    Block,
    call_code,
    calls,
    card_plane,
    cards,
    deck_columns,
    encode_table,
    number,
    number_or_none,
    one_hot,
    one_of,
    one_seat,
    per_seat,
    private,
    relative,
    table_blocks,
    totals_block,
)

DECKS = tuple(np.array([c for c in range(54) if int(mask) >> c & 1], dtype=np.int64) for mask in K.DECK_MASKS)
DECK_SIZES = np.array([len(deck) for deck in DECKS], dtype=np.int64)
COLUMNS = np.stack([deck_columns(deck) for deck in DECKS])  # row per variant
PHASES = len(K.PHASE_NAMES)


def deck(game):
    return DECKS[game.variant]


def blocks(game) -> list[Block]:
    v, players = game.variant, game.players
    deck = int(DECK_SIZES[v])
    top_bid = int(K.MAX_BID[v])
    common = [
        Block("calls", players, high=top_bid, low=-1, read=calls),
        Block("bidder", players, read=one_seat),
        Block("bid", 1, high=top_bid, read=number_or_none),
        Block("trump", 4, read=one_of(SUITS)),
        Block("discards", deck, read=cards),
    ]
    if v == K.SHMEAR:
        own = [
            Block("team", players, read=per_seat),  # 1 for each seat on the observer's team
            Block("drawn", players, high=K.MAX_DRAW, read=per_seat),
            Block("stock_left", 1, high=K.MAX_REST, read=number),
        ]
    else:
        own = [Block("widow", 1 + deck, read=private(cards))]
    return table_blocks(players, deck, K.PHASE_NAMES, K.NUM_TRICKS) + common + own + [totals_block(players)]


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
        out[at + relative(p, seat, players)] = call_code(s[K.LAST_CALL + p])
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
        out[at] = 1
        card_plane(s[K.WIDOW_TAKEN], column, out, at + 1)
