"""What a Fifty-five seat sees (``observation.py``; read back as ``State.observe``'s view): after
the table blocks, ``calls``: each relative seat's latest auction call (``call_code``: -1 not
spoken yet, 0 pass, -2 hold, N a bid of N); ``bidder``: the high bidder so far (one-hot over
relative seats, none before the first bid and in a thrown-in hand); ``bid``: the high bid, 0 for
none; ``trump``: the suit named (one-hot over C D H S, none before); ``kitty``: the five kitty
cards, shown only to the seat that took it, once the auction is over (its first entry says
whether the seat sees it); ``discards``: this seat's own dead cards (kitty and exchange
discards); ``stock_left``: the cards left in the stock; ``points_taken``: each seat's points so
far (5 a trick, 5 for the best trump at the end of the hand); then the match totals.
"""

from __future__ import annotations

import numba as nb

from ..cards import SUITS
from . import fiftyfive as K
from .kernels import popcount
from .observation import (
    HOLD_CODE,
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
    per_seat,
    private,
    relative,
    one_seat,
    table_blocks,
    totals_block,
)

DECK = len(K.DECK)
COLUMN = deck_columns(K.DECK)
PHASES = len(K.PHASE_NAMES)
MAX_POINTS = K.NUM_TRICKS * K.TRICK_POINTS + K.BEST_TRUMP_POINTS


def deck(game):
    return K.DECK


def blocks(game) -> list[Block]:
    n = game.players
    top_bid = max(game.options["bid_values"])
    return table_blocks(n, DECK, K.PHASE_NAMES, K.NUM_TRICKS) + [
        Block("calls", n, high=top_bid, low=HOLD_CODE, read=calls),
        Block("bidder", n, read=one_seat),
        Block("bid", 1, high=top_bid, read=number_or_none),
        Block("trump", 4, read=one_of(SUITS)),
        Block("kitty", 1 + DECK, read=private(cards)),
        Block("discards", DECK, read=cards),
        Block("stock_left", 1, high=52 - n * K.HAND_SIZE - K.KITTY_SIZE, read=number),
        Block("points_taken", n, high=MAX_POINTS, read=per_seat),
        totals_block(n),
    ]


@nb.njit(cache=True)
def observe(s, seat, out):
    """Write what ``seat`` may know of state ``s`` into ``out`` (the layout of ``blocks``)."""
    n = s[K.NUM_PLAYERS]
    at = encode_table(s, seat, n, DECK, COLUMN, PHASES, K.PLAYING, K.HANDS, K.PHASE, K.DEALER,
                      K.LEADER, K.TO_ACT, K.TRICK_NO, K.IN_TRICK, K.TRICKS, K.TRICK_SLOTS, out)
    for p in range(n):
        out[at + relative(p, seat, n)] = call_code(s[K.LAST_CALL + p])
    at += n
    bidder = s[K.BIDDER]
    one_hot(relative(bidder, seat, n), out, at)
    at += n
    out[at] = s[K.BID]
    at += 1
    one_hot(s[K.TRUMP], out, at)
    at += 4
    auction_over = s[K.PHASE] != K.BIDDING and s[K.PHASE] != K.DUEL
    if auction_over and seat == bidder:  # a thrown-in hand has no bidder
        out[at] = 1
        card_plane(s[K.KITTY_TAKEN], COLUMN, out, at + 1)
    at += 1 + DECK
    card_plane(s[K.DISCARDS + seat], COLUMN, out, at)
    at += DECK
    out[at] = popcount(s[K.STOCK])
    at += 1
    for p in range(n):
        out[at + relative(p, seat, n)] = s[K.POINTS + p]
    # the totals stay 0: the environment fills them in
