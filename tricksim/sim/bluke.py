"""Bluke (docs/rules.md, Bluke), 2 to 10 players, 54 cards, as numba functions over one
int64 array per hand.

Defaults: ``players = 4``, ``min_bid = 1``, ``hook = false``, ``bluke_lead = free``.

* Deck: 52 cards and the two blukes, ``LJ`` (low) and ``HJ`` (high); the blukes
  belong to no suit (effective suit BLUKES).
* Deal: hand h of a match deals ``hand_size(n, h)`` cards a seat; the top card
  of the undealt rest is turned: its suit is trump, a turned bluke means no
  trump. The turned card is public; it and the rest stay out of play.
* Bidding: from eldest, each seat once, ``bid N`` for N in min_bid .. hand size;
  with ``hook`` the dealer (last to bid) may not make the bids total the hand size.
* Play: eldest leads; follow the suit led if you can, else anything; a bluke may
  always be played instead of following. A trick with a bluke goes to the
  highest bluke, else the highest trump, else the highest card of the suit led.
* Score: made (took >= bid): 10 per trick bid + 1 per extra trick; set: -10 per
  trick bid. A zero bid (``min_bid = 0``) is made only by taking no trick: +10,
  else -10.

Decisions where the rule book leaves room:

* Hand sizes: the largest hand is ``M = min(13, 53 // n)`` (13 for 2–4 players;
  5: 10, 6: 8, 7: 7, 8: 6, 9 and 10: 5), so at least one card is left to turn.
  A match is the ``2M - 1`` hands M, M-1, …, 1, 2, …, M: 25 hands for 2–4
  players, fewer for 5–10 (15 for 6). Hand number h deals ``|h - (M - 1)| + 1``;
  a hand number past the match is taken modulo ``2M - 1``.
* ``bluke_lead = free``: after a bluke lead nobody has to follow anything, even
  once a suited card has been played. ``next_sets_suit``: the first non-bluke
  card played to a bluke-led trick sets the suit the later players must follow
  (blukes still allowed). A bluke in the trick wins it anyway.
* Following with a bluke is allowed even when holding the suit led; a player
  void in the suit led may play anything (blukes included).
* ``hook``: applies to the dealer's bid only; min_bid .. hand size always keeps
  another legal bid, so the dealer is never left without one.
* A zero bid scores no overtricks (taking any trick misses it).
* Every bid is public as soon as it is made; nobody sees the rest under the
  turned card.
* ``game.deal`` (a hand-made deal) records the hand number of the way down,
  ``M - hand size``; only the hand size matters to the rules.

Actions used (ids from ``actions``): bid N (N = 0..13), play XX.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..cards import HIGH_JOKER, LOW_JOKER, NUM_CARDS, RANKS, SUITS, card
from . import actions as A
from .kernels import (
    ALWAYS_WINS,
    beaten_by,
    bit,
    copy_slots,
    draw_cards,
    follow_mask,
    nth_card,
    seed_stream,
    trick_winner,
)
from .layout import phases, state_layout

MAX_PLAYERS = 10
MIN_PLAYERS = 2
MAX_HAND = 13

# --- tables (docs/rules.md, Bluke) -------------------------------------------

NO_TRUMP = 4  # trump row of a hand whose turned card is a bluke
BLUKES = 4  # effective suit of the two blukes (no suit)
BLUKE_POWER = 2 * ALWAYS_WINS  # LJ; HJ one higher: above every trump


def _effective():
    """docs/rules.md, Bluke: Players, deck and ranks: a suited card is of its own suit whatever the trump; the
    blukes belong to no suit. Row t = trump (C D H S, then no trump)."""
    eff = np.empty((5, NUM_CARDS), dtype=np.int64)
    for t in range(5):
        for c in range(52):
            eff[t, c] = c // 13
        eff[t, LOW_JOKER] = eff[t, HIGH_JOKER] = BLUKES
    return eff


def _power():
    """docs/rules.md, Bluke: Play: highest bluke (HJ > LJ) beats everything, then trumps by rank
    (A high), then the suit led by rank."""
    power = np.empty((5, NUM_CARDS), dtype=np.int64)
    for t in range(5):
        for s in range(4):
            for r, rank in enumerate(RANKS):  # 2 .. A, low to high
                power[t, card(rank, SUITS[s])] = (ALWAYS_WINS if s == t else 0) + r
        power[t, LOW_JOKER] = BLUKE_POWER
        power[t, HIGH_JOKER] = BLUKE_POWER + 1
    return power


def _suit_masks():
    masks = np.zeros((5, 5), dtype=np.int64)
    for t in range(5):
        for c in range(NUM_CARDS):
            masks[t, EFFECTIVE[t, c]] |= np.int64(1) << np.int64(c)
    return masks


def max_hand(players: int) -> int:
    """docs/rules.md, Bluke: Deals: the largest hand, min(13, floor(53 / n))."""
    return min(MAX_HAND, 53 // players)


def _hand_sizes():
    """HAND_SIZES[n, h] for hand h = 0 .. 2M-2 of a match of n players, then
    MATCH_HANDS[n] = 2M - 1 (docs/rules.md, Bluke: Deals: M down to 1 and back up)."""
    sizes = np.zeros((MAX_PLAYERS + 1, 2 * MAX_HAND - 1), dtype=np.int64)
    hands = np.zeros(MAX_PLAYERS + 1, dtype=np.int64)
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        m = max_hand(n)
        hands[n] = 2 * m - 1
        for h in range(2 * m - 1):
            sizes[n, h] = abs(h - (m - 1)) + 1
    return sizes, hands


EFFECTIVE = _effective()
POWER = _power()
SUIT_MASKS = _suit_masks()
HAND_SIZES, MATCH_HANDS = _hand_sizes()
DECK_MASK = (np.int64(1) << np.int64(NUM_CARDS)) - 1
BLUKE_MASK = SUIT_MASKS[0, BLUKES]
# BEATEN_BY[t, c]: the cards that beat c when it is winning a trick, trump row t
BEATEN_BY = np.array([beaten_by(EFFECTIVE[t], POWER[t], DECK_MASK) for t in range(5)])

# --- options, as stored in the state ----------------------------------------

OPTION_NAMES = ("players", "min_bid", "hook", "bluke_lead")
LEAD_FREE, LEAD_NEXT_SETS_SUIT = 0, 1

# --- state layout: one int64 array ------------------------------------------

TRICK_SLOTS = MAX_PLAYERS + 2  # a trick's record: leader, MAX_PLAYERS cards in play order, winner
SLOTS = state_layout(globals(), [
    ("HANDS", MAX_PLAYERS, "hand masks, seat order (unused seats 0)"),
    ("TURNED", 1, "the turned card (public, out of play)"),
    ("REST", 1, "mask of the other undealt cards (out of play)"),
    ("TRUMP", 1, "trump suit 0..3, or NO_TRUMP: the row of the tables"),
    ("PHASE", 1, "the phase, an index into PHASE_NAMES"),
    ("DEALER", 1, "the dealer's seat"),
    ("TO_ACT", 1, "seat to act, -1 once the hand is over"),
    ("NUM_PLAYERS", 1, "seats at the table"),
    ("HAND_SIZE", 1, "cards dealt to each seat = tricks in the hand"),
    ("HAND_NO", 1, "match hand number that set the hand size"),
    ("LEADER", 1, "leader of the current trick"),
    ("TRICK_NO", 1, "tricks completed"),
    ("IN_TRICK", 1, "cards in the current trick"),
    ("LED", 1, "effective suit to follow in the current trick, -1: any card"),
    ("PLAYED", 1, "mask of the cards played so far"),
    ("BIDS_MADE", 1, "bids so far"),
    ("BID_TOTAL", 1, "sum of the bids so far"),
    ("OPT_PLAYERS", 1, "option players"),
    ("OPT_MIN_BID", 1, "option min_bid"),
    ("OPT_HOOK", 1, "option hook: 0 or 1"),
    ("OPT_BLUKE_LEAD", 1, "option bluke_lead: LEAD_*"),
    ("BIDS", MAX_PLAYERS, "each seat's bid, -1 before it"),
    ("TAKEN", MAX_PLAYERS, "tricks taken"),
    ("SCORES", MAX_PLAYERS, "this hand's scores"),
    ("TRICKS", MAX_HAND * TRICK_SLOTS, "per trick, TRICK_SLOTS"),
])

PHASE_NAMES = phases(globals(), [
    ("BIDDING", "bidding"),
    ("PLAYING", "play"),
    ("OVER", "over"),
])

# --- deal ---------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def hand_size(players, match_hand):
    """Cards a seat for match hand number ``match_hand`` (modulo the match length)."""
    return HAND_SIZES[players, match_hand % MATCH_HANDS[players]]


@nb.njit(cache=True, inline="always")
def reset(s, dealer, match_hand, size, options):
    """Clear ``s`` for a new hand of ``size`` cards a seat (hands not yet dealt)."""
    s[:] = 0
    n = options[0]
    s[OPT_PLAYERS:OPT_BLUKE_LEAD + 1] = options[:4]
    s[NUM_PLAYERS] = n
    s[DEALER] = dealer
    s[HAND_SIZE] = size
    s[HAND_NO] = match_hand
    s[LED] = -1
    s[BIDS:BIDS + MAX_PLAYERS] = -1
    s[PHASE] = BIDDING
    eldest = dealer + 1 if dealer + 1 < n else 0
    s[TO_ACT] = s[LEADER] = eldest


@nb.njit(cache=True, inline="always")
def set_turned(s, turned, rest):
    """Turn ``turned`` (docs/rules.md, Bluke: Trump): its suit is trump, a bluke means none."""
    s[TURNED] = turned
    s[REST] = rest
    s[TRUMP] = NO_TRUMP if turned >= 52 else turned // 13


@nb.njit(cache=True, inline="always")
def deal_random(s, seed, stream, match_hand, dealer, options, rng):
    """Deal match hand number ``match_hand`` from the stream ``(seed, stream)``: each
    seat a uniformly random hand of its size, then the turned card drawn from the
    rest. ``rng`` (``kernels.new_rng``) is scratch."""
    n = options[0]
    size = hand_size(n, match_hand)
    reset(s, dealer, match_hand, size, options)
    seed_stream(rng, seed, stream, 0)
    remaining = DECK_MASK
    for seat in range(n):
        s[HANDS + seat], remaining = draw_cards(remaining, size, rng)
    turned, remaining = draw_cards(remaining, 1, rng)
    set_turned(s, nth_card(turned, 0), remaining)


@nb.njit(cache=True, inline="always")
def deal(s, seed, hand, players, options, rng):
    """Hand ``hand`` of ``seed``, dealer ``hand % players``, its size that of match hand ``hand``
    (mod the match's length): the deal with every game's signature (``tricksim.spec.Rules``)."""
    deal_random(s, seed, hand, hand % MATCH_HANDS[players], hand % players, options, rng)


# --- phases -------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def _left(s, seat):
    return seat + 1 if seat + 1 < s[NUM_PLAYERS] else 0


@nb.njit(cache=True, inline="always")
def bid_mask(s, seat):
    """Bids ``seat`` may make now as a mask of action ids (docs/rules.md, Bluke: Bidding)."""
    size = s[HAND_SIZE]
    low = s[OPT_MIN_BID]
    words = ((np.int64(1) << (size + 1)) - 1) & ~((np.int64(1) << low) - 1)
    if s[OPT_HOOK] != 0 and seat == s[DEALER]:
        hooked = size - s[BID_TOTAL]
        if hooked >= 0:
            words &= ~bit(hooked)
    return words << A.BID


@nb.njit(cache=True, inline="always")
def _bid(s, seat, n):
    s[BIDS + seat] = n
    s[BID_TOTAL] += n
    s[BIDS_MADE] += 1
    if s[BIDS_MADE] < s[NUM_PLAYERS]:
        s[TO_ACT] = _left(s, seat)
    else:
        s[PHASE] = PLAYING
        s[LEADER] = s[TO_ACT] = _left(s, s[DEALER])  # eldest leads


@nb.njit(cache=True, inline="always")
def play_mask(s, seat):
    """Cards ``seat`` may play now (docs/rules.md, Bluke: Play): the suit to follow if held,
    blukes always, anything when void or when no suit is to be followed."""
    hand = s[HANDS + seat]
    led = s[LED]
    if led < 0:
        return hand
    return follow_mask(hand, led, SUIT_MASKS[s[TRUMP]]) | (hand & BLUKE_MASK)


@nb.njit(cache=True, inline="always")
def suit_led(e):
    """The suit to follow (-1: any card) after a lead of effective suit ``e``: none after a bluke
    (docs/rules.md, Bluke: Play)."""
    return -1 if e == BLUKES else e


@nb.njit(cache=True, inline="always")
def sets_suit_later(s, e):
    """Whether a card of effective suit ``e`` sets the suit to follow of a trick that has none yet
    (a bluke was led): with ``bluke_lead = next_sets_suit``, the first suited card does."""
    return e != BLUKES and s[OPT_BLUKE_LEAD] == LEAD_NEXT_SETS_SUIT


@nb.njit(cache=True, inline="always")
def _play(s, seat, c):
    slot = TRICKS + s[TRICK_NO] * TRICK_SLOTS
    n = s[IN_TRICK]
    s[slot + 1 + n] = c
    s[HANDS + seat] &= ~bit(c)
    s[PLAYED] |= bit(c)
    e = EFFECTIVE[s[TRUMP], c]
    if n == 0:  # written as branches, not one store a card: the playouts run 1.3 times faster
        s[slot] = seat
        s[LED] = suit_led(e)
    elif s[LED] < 0 and sets_suit_later(s, e):
        s[LED] = e
    s[IN_TRICK] = n + 1
    if n + 1 < s[NUM_PLAYERS]:
        s[TO_ACT] = _left(s, seat)
    else:
        _end_trick(s, slot)


@nb.njit(cache=True, inline="always")
def _end_trick(s, slot):
    n = s[NUM_PLAYERS]
    t = s[TRUMP]
    leader = s[slot]
    led = EFFECTIVE[t, s[slot + 1]]
    winner = leader + trick_winner(s, slot + 1, n, led, EFFECTIVE[t], POWER[t], -1)
    if winner >= n:
        winner -= n
    s[slot + 1 + MAX_PLAYERS] = winner
    s[TAKEN + winner] += 1
    s[TRICK_NO] += 1
    s[IN_TRICK] = 0
    s[LED] = -1
    s[LEADER] = s[TO_ACT] = winner
    if s[TRICK_NO] == s[HAND_SIZE]:
        _score(s)
        s[PHASE] = OVER
        s[TO_ACT] = -1


# --- scoring (docs/rules.md, Bluke: Score) ------------------------------------


@nb.njit(cache=True, inline="always")
def bid_score(bid, took):
    """One seat's score for ``bid`` and ``took`` tricks."""
    if bid == 0:
        return 10 if took == 0 else -10
    if took >= bid:
        return 10 * bid + (took - bid)
    return -10 * bid


@nb.njit(cache=True, inline="always")
def _score(s):
    for p in range(s[NUM_PLAYERS]):
        s[SCORES + p] = bid_score(s[BIDS + p], s[TAKEN + p])


# --- legal moves and step -----------------------------------------------------


@nb.njit(cache=True, inline="always")
def legal(s):
    """The legal actions now as ``(word_mask, card_mask, card_kind)``: bids as bits
    of ``word_mask``, cards to play in ``card_mask``; both empty once over."""
    phase = s[PHASE]
    seat = s[TO_ACT]
    if phase == PLAYING:
        return np.int64(0), play_mask(s, seat), np.int64(A.PLAY)
    if phase == BIDDING:
        return bid_mask(s, seat), np.int64(0), np.int64(A.PLAY)
    return np.int64(0), np.int64(0), np.int64(A.PLAY)


@nb.njit(cache=True, inline="always")
def step(s, action):
    """Apply ``action`` (an action id) for the seat to act; it must be legal (unchecked)."""
    seat = s[TO_ACT]
    if s[PHASE] == PLAYING:
        _play(s, seat, action - A.card_action(A.PLAY, 0))
    else:
        _bid(s, seat, action - A.BID)


# --- the hand's row (the batch loops', agents/loops.py) ---------------------------

RECORD = (
    ("dealer", "match_hand", "hand_size", "trump", "turned")
    + tuple(f"bid_{p}" for p in range(MAX_PLAYERS))
    + tuple(f"taken_{p}" for p in range(MAX_PLAYERS))
    + tuple(f"score_{p}" for p in range(MAX_PLAYERS))
)


@nb.njit(cache=True, inline="always")
def record(s, out, i):
    """Write the finished hand ``s`` into row ``i`` of ``out`` (columns RECORD; unused seats 0)."""
    out[i, 0] = s[DEALER]
    out[i, 1] = s[HAND_NO]
    out[i, 2] = s[HAND_SIZE]
    out[i, 3] = -1 if s[TRUMP] == NO_TRUMP else s[TRUMP]
    out[i, 4] = s[TURNED]
    copy_slots(out, i, 5, s, BIDS, MAX_PLAYERS)
    for p in range(s[NUM_PLAYERS], MAX_PLAYERS):
        out[i, 5 + p] = 0
    copy_slots(out, i, 5 + MAX_PLAYERS, s, TAKEN, 2 * MAX_PLAYERS)
