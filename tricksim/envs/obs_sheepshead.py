"""What a Sheepshead seat sees, as numbers (the same as ``Sheepshead.observe``):

after the table blocks (``observation.py``), the picker; the partner, only once the called card
has fallen, or to the partner himself; the called card (none with the jack-of-diamonds partner,
which is a fixed rule); the bury and the unknown, to the picker only; the card points each seat
has taken; and whether the hand is a doubler play-off.
"""

from __future__ import annotations

import numba as nb

from ..sim import sheepshead as K
from .observation import (Block, card_plane, deck_columns, encode_table, one_hot, relative, table_blocks,
                          totals_block)

P = K.PLAYERS
DECK = len(K.DECK)
COLUMN = deck_columns(K.DECK)


def blocks(game) -> list[Block]:
    return table_blocks(P, DECK, len(K.PHASE_NAMES), K.NUM_TRICKS) + [
        Block("picker", P),
        Block("partner", P),
        Block("called", DECK),
        Block("buried", DECK),
        Block("unknown", DECK),
        Block("points_taken", P, high=120),
        Block("doubled", 1),
        totals_block(P),
    ]


@nb.njit(cache=True)
def observe(s, seat, out):
    """Write what ``seat`` may know of state ``s`` into ``out`` (the layout of ``blocks``)."""
    at = encode_table(s, seat, P, DECK, COLUMN, len(K.PHASE_NAMES), K.PLAYING, K.HANDS, K.PHASE,
                      K.DEALER, K.LEADER, K.TO_ACT, K.TRICK_NO, K.IN_TRICK, K.TRICKS, K.TRICK_SLOTS, out)
    picker, partner = s[K.PICKER], s[K.PARTNER]
    one_hot(relative(picker, seat, P), out, at)
    at += P
    if K.partner_shown(s, seat):
        one_hot(relative(partner, seat, P), out, at)
    at += P
    if s[K.CALLED] >= 0 and s[K.OPT_PARTNER] == K.PARTNER_CALLED_ACE:
        out[at + COLUMN[s[K.CALLED]]] = 1
    at += DECK
    if seat == picker:
        card_plane(s[K.BURIED], COLUMN, out, at)
        if s[K.UNKNOWN] >= 0:
            out[at + DECK + COLUMN[s[K.UNKNOWN]]] = 1
    at += 2 * DECK
    for p in range(P):
        out[at + relative(p, seat, P)] = s[K.POINTS_TAKEN + p]
    out[at + P] = s[K.DOUBLED]
