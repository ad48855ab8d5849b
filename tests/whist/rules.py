"""Whist's rules as numba kernels over one int64 array: the sixth game, written in the tests
through the game interface alone (``tricksim.spec.Rules``), to show what a new game needs.

* Four players in two partnerships (seats 0 and 2, 1 and 3); 52 cards, A high.
* Deal: 13 cards each. The dealer's last card is turned face up: its suit is trump. It stays
  in the dealer's hand (everyone knows he holds it until he plays it).
* Play: eldest leads; follow suit if you can, else play anything; the highest trump wins the
  trick, else the highest card of the suit led. The winner leads the next.
* Score: the side that takes seven tricks or more scores one point a trick over six (its *odd
  tricks*); the other side scores as much negative. Each seat's score is its side's.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tricksim.cards import RANKS, SUITS, card
from tricksim.sim import actions as A
from tricksim.sim.kernels import (
    ALWAYS_WINS,
    beaten_by,
    bit,
    draw_cards,
    follow_mask,
    nth_card,
    rand_below,
    seed_stream,
    trick_winner,
)
from tricksim.sim.layout import phases, state_layout

PLAYERS = 4
NUM_TRICKS = 13
DECK_MASK = (np.int64(1) << np.int64(52)) - 1


def _effective():
    """Each card's suit (the same whatever the trump), one row per trump."""
    return np.array([[c // 13 for c in range(52)] for _ in range(4)], dtype=np.int64)


def _power():
    """A card's power with each trump: its rank, and ALWAYS_WINS above the rest for a trump."""
    power = np.empty((4, 52), dtype=np.int64)
    for t in range(4):
        for s, suit in enumerate(SUITS):
            for r, rank in enumerate(RANKS):
                power[t, card(rank, suit)] = (ALWAYS_WINS if s == t else 0) + r
    return power


EFFECTIVE = _effective()
POWER = _power()
SUIT_MASKS = np.array([[sum(1 << c for c in range(13 * e, 13 * e + 13)) for e in range(4)]] * 4, dtype=np.int64)
BEATEN_BY = np.array([beaten_by(EFFECTIVE[t], POWER[t], DECK_MASK) for t in range(4)])

TRICK_SLOTS = PLAYERS + 2  # leader, the four cards in play order, winner
SLOTS = state_layout(globals(), [
    ("HANDS", PLAYERS, "hand masks, seat order"),
    ("TURNED", 1, "the dealer's turned card, public until he plays it"),
    ("TRUMP", 1, "trump suit 0..3"),
    ("PHASE", 1, "the phase, an index into PHASE_NAMES"),
    ("DEALER", 1, "the dealer's seat"),
    ("TO_ACT", 1, "seat to act, -1 once the hand is over"),
    ("LEADER", 1, "leader of the current trick"),
    ("TRICK_NO", 1, "tricks completed"),
    ("IN_TRICK", 1, "cards in the current trick"),
    ("LED", 1, "suit led in the current trick, -1 before the lead"),
    ("PLAYED", 1, "mask of the cards played so far"),
    ("TAKEN", 2, "tricks taken by each side"),
    ("SCORES", PLAYERS, "this hand's scores"),
    ("TRICKS", NUM_TRICKS * TRICK_SLOTS, "per trick, TRICK_SLOTS"),
])
PHASE_NAMES = phases(globals(), [("PLAYING", "play"), ("OVER", "over")])
RECORD = ("dealer", "trump", "turned", "tricks_0", "tricks_1") + tuple(f"score_{p}" for p in range(PLAYERS))


@nb.njit(cache=True, inline="always")
def start(s, dealer, turned):
    """Begin the play of the hands already in ``s``: ``turned`` (in the dealer's hand) sets trump."""
    s[TURNED] = turned
    s[TRUMP] = turned // 13
    s[PHASE] = PLAYING
    s[DEALER] = dealer
    s[LED] = -1
    s[TO_ACT] = s[LEADER] = (dealer + 1) % PLAYERS


@nb.njit(cache=True, inline="always")
def deal_random(s, seed, hand, dealer, options, rng):
    """Deal hand ``hand`` of ``seed`` (dealer ``dealer``): 13 random cards a seat, and one of the
    dealer's at random turned (the last card dealt is any of his 13 alike)."""
    s[:] = 0
    seed_stream(rng, seed, hand, 0)
    remaining = DECK_MASK
    for seat in range(PLAYERS):
        s[HANDS + seat], remaining = draw_cards(remaining, NUM_TRICKS, rng)
    start(s, dealer, nth_card(s[HANDS + dealer], rand_below(rng, NUM_TRICKS)))


@nb.njit(cache=True, inline="always")
def deal(s, seed, hand, players, options, rng):
    """The deal with every game's signature: dealer ``hand % players``."""
    deal_random(s, seed, hand, hand % players, options, rng)


@nb.njit(cache=True, inline="always")
def legal(s):
    """``(word_mask, card_mask, card_kind)``: the cards the seat to act may play (follow suit)."""
    if s[PHASE] != PLAYING:
        return np.int64(0), np.int64(0), np.int64(A.PLAY)
    hand = s[HANDS + s[TO_ACT]]
    cards = hand if s[LED] < 0 else follow_mask(hand, s[LED], SUIT_MASKS[0])
    return np.int64(0), cards, np.int64(A.PLAY)


@nb.njit(cache=True, inline="always")
def step(s, action):
    """Play the legal card ``action`` for the seat to act."""
    seat = s[TO_ACT]
    c = action - A.card_action(A.PLAY, 0)
    slot = TRICKS + s[TRICK_NO] * TRICK_SLOTS
    n = s[IN_TRICK]
    s[slot + 1 + n] = c
    s[HANDS + seat] &= ~bit(c)
    s[PLAYED] |= bit(c)
    if n == 0:
        s[slot] = seat
        s[LED] = c // 13
    s[IN_TRICK] = n + 1
    if n + 1 < PLAYERS:
        s[TO_ACT] = (seat + 1) % PLAYERS
        return
    t = s[TRUMP]
    winner = (s[slot] + trick_winner(s, slot + 1, PLAYERS, s[LED], EFFECTIVE[t], POWER[t], -1)) % PLAYERS
    s[slot + TRICK_SLOTS - 1] = winner
    s[TAKEN + winner % 2] += 1
    s[TRICK_NO] += 1
    s[IN_TRICK] = 0
    s[LED] = -1
    s[LEADER] = s[TO_ACT] = winner
    if s[TRICK_NO] == NUM_TRICKS:
        for p in range(PLAYERS):
            s[SCORES + p] = side_score(s[TAKEN + p % 2])
        s[PHASE] = OVER
        s[TO_ACT] = -1


@nb.njit(cache=True, inline="always")
def side_score(tricks):
    """A side's score for ``tricks`` taken: its odd tricks, or minus the other side's."""
    return tricks - 6 if tricks >= 7 else tricks - 7


@nb.njit(cache=True, inline="always")
def record(s, out, i):
    """Write the finished hand's RECORD columns into row ``i`` of ``out``."""
    out[i, 0] = s[DEALER]
    out[i, 1] = s[TRUMP]
    out[i, 2] = s[TURNED]
    out[i, 3] = s[TAKEN]
    out[i, 4] = s[TAKEN + 1]
    for p in range(PLAYERS):
        out[i, 5 + p] = s[SCORES + p]
