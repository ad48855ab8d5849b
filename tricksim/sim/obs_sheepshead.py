"""What a Sheepshead seat sees (``observation.py``; read back as ``State.observe``'s view):

after the table blocks, the picker; the partner, only once the called card has fallen, or to the
partner himself, or once the hand is over; the called card (none with the jack-of-diamonds
partner, which is a fixed rule); the bury, to the picker only (its first entry says whether the
seat sees it); the unknown, to the picker only; the card points each seat has taken; and whether
the hand is a doubler play-off.
"""

from __future__ import annotations

import numba as nb

from . import sheepshead as K
from .observation import (Block, card, card_plane, cards, deck_columns, encode_table, flag, one_hot, one_seat,
                          per_seat, private, relative, table_blocks, totals_block)

P = K.PLAYERS
DECK = len(K.DECK)
COLUMN = deck_columns(K.DECK)


def deck(game):
    return K.DECK


def blocks(game) -> list[Block]:
    return table_blocks(P, DECK, K.PHASE_NAMES, K.NUM_TRICKS) + [
        Block("picker", P, read=one_seat),
        Block("partner", P, read=one_seat),
        Block("called", DECK, read=card),
        Block("buried", 1 + DECK, read=private(cards)),
        Block("unknown", DECK, read=card),
        Block("points_taken", P, high=120, read=per_seat),
        Block("doubled", 1, read=flag),
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
        out[at] = 1
        card_plane(s[K.BURIED], COLUMN, out, at + 1)
        if s[K.UNKNOWN] >= 0:
            out[at + 1 + DECK + COLUMN[s[K.UNKNOWN]]] = 1
    at += 1 + 2 * DECK
    for p in range(P):
        out[at + relative(p, seat, P)] = s[K.POINTS_TAKEN + p]
    out[at + P] = s[K.DOUBLED]
