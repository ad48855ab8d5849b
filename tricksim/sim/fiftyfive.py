"""Fifty-five (docs/rules.md, Fifty-five), 2 to 9 players, as numba functions over one int64
array per hand.

Defaults: ``players = 5``, ``bid_values = 10 15 20 25 60``, ``all_pass =
dealer_min``, ``exchange = 0``, ``first_lead = eldest``, ``teams = 0``; a match
is played to ``target = 55`` (``fiftyfive_game.py``).

Flow of a hand: bidding (first round from eldest to the dealer, then the duel
of a holding dealer and the bidder he displaced) -> kitty (the high bidder
takes the 5-card kitty and discards 5 dead cards one at a time) -> trump (he
names it) -> exchange (with ``exchange = k > 0``) -> play (5 tricks) -> over.

Decisions where the rule book leaves room (also in the report):

* Every player of the first round speaks, even when only ``pass`` is left
  (after a bid of 60); the dealer speaks last and may ``hold`` any bid, 60 too.
* In the duel the dealer may hold, raise or pass; after a raise by the dealer
  the displaced bidder answers again (bid higher or pass, only ``pass`` when
  the dealer raised to the highest value). A hold of the highest bid value
  ends the auction at once (nobody can bid higher).
* "60" is the highest of ``bid_values``: it is the value that ends the duel
  once held. The all-five-tricks rule applies to a bid of exactly 60.
* With nobody bidding and ``all_pass = dealer_min`` the dealer is the high
  bidder at the lowest of ``bid_values``.
* Exchange: a player may discard at most ``min(k, cards left in the stock)``
  cards, so every hand stays at 5 cards; a player who can discard nothing (the
  stock is empty) is skipped. He draws when he says ``done`` or reaches the
  limit. Any card may be exchanged. Discards are dead and private.
* Reneging is judged against the card *led* (docs/rules.md, Fifty-five: Play).
* Teams (``teams = k > 1``, side of seat p is ``p % k``): the bidding side
  must reach the bid with its pooled points, and a 60 needs all five tricks
  for the side. ``SCORES`` holds each seat's side score.
* Every seat's own points (5 a trick, 5 for the best trump) are in
  ``POINTS``; the best-trump bonus goes to the player of the highest trump.
* Match (``fiftyfive_game.py``): sides crossing the target on the same trick
  go to the bidding side if it is among them, else to the higher total (an
  exact tie shares the win). A thrown-in hand scores 0 and the deal passes
  left like any other hand.

Actions used (ids from ``actions``): pass, hold, bid N, discard XX, trump S,
done, play XX.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..cards import card, parse_cards
from . import actions as A
from .kernels import (
    ALWAYS_WINS,
    beaten_by,
    bit,
    copy_slots,
    draw_cards,
    draw_in_order,
    popcount,
    seed_stream,
    trick_winner,
)
from .layout import phases, state_layout

MAX_PLAYERS = 9  # 9 * 5 + 5 = 50 <= 52
HAND_SIZE = 5
KITTY_SIZE = 5
NUM_TRICKS = 5
TRICK_POINTS = 5  # per trick won
BEST_TRUMP_POINTS = 5  # to the player of the hand's highest trump
MAX_BIDS = 16  # bid values an option may list
PRIVILEGED = 3  # the top trumps that may be withheld on a lower trump lead: 5, J of trumps, A♥
MAX_STOCK = 52 - 2 * HAND_SIZE - KITTY_SIZE  # 37 cards with two players

# --- tables (docs/rules.md, Fifty-five) --------------------------------------

SUIT_NAMES = "CDHS"
ACE_OF_HEARTS = card("A", "H")
TRUMP_ORDERS = (  # per trump suit C D H S, high to low (docs/rules.md, Fifty-five: Trumps)
    parse_cards("5C JC AH AC KC QC 2C 3C 4C 6C 7C 8C 9C TC"),
    parse_cards("5D JD AH AD KD QD TD 9D 8D 7D 6D 4D 3D 2D"),
    parse_cards("5H JH AH KH QH TH 9H 8H 7H 6H 4H 3H 2H"),
    parse_cards("5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S TS"),
)
PLAIN_ORDERS = (  # per suit, high to low when not trumps (docs/rules.md, Fifty-five: Plain suits)
    parse_cards("KC QC JC AC 2C 3C 4C 5C 6C 7C 8C 9C TC"),
    parse_cards("KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD"),
    parse_cards("KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"),  # A♥ is always a trump
    parse_cards("KS QS JS AS 2S 3S 4S 5S 6S 7S 8S 9S TS"),
)
DECK = np.arange(52, dtype=np.int64)
DECK_MASK = (1 << 52) - 1


def _effective():
    """EFFECTIVE[t, c]: suit of card c when t is trumps; the trumps (A♥ among them) are suit t."""
    eff = np.full((4, 54), -1, dtype=np.int64)
    for t in range(4):
        for c in DECK:
            eff[t, c] = c // 13
        eff[t, TRUMP_ORDERS[t]] = t
    return eff


def _power():
    """POWER[t, c]: trumps ALWAYS_WINS and up in trump order, plain cards by their plain order."""
    power = np.full((4, 54), -1, dtype=np.int64)
    for t in range(4):
        for suit in range(4):
            if suit != t:
                plain = [c for c in PLAIN_ORDERS[suit] if c != ACE_OF_HEARTS]
                for i, c in enumerate(plain):
                    power[t, c] = len(plain) - i
        for i, c in enumerate(TRUMP_ORDERS[t]):
            power[t, c] = ALWAYS_WINS + len(TRUMP_ORDERS[t]) - i
    return power


def _withhold():
    """WITHHOLD[t, led]: the 5 and J of trumps and A♥ that outrank the trump ``led``,
    which may be withheld on that lead (docs/rules.md, Fifty-five: Play)."""
    out = np.zeros((4, 54), dtype=np.int64)
    for t in range(4):
        order = list(TRUMP_ORDERS[t])
        privileged = order[:PRIVILEGED]
        for led in order:
            for c in privileged:
                if order.index(c) < order.index(led):
                    out[t, led] |= 1 << int(c)
    return out


EFFECTIVE = _effective()
POWER = _power()
WITHHOLD = _withhold()
SUIT_MASKS = np.array(
    [[sum(1 << int(c) for c in DECK if EFFECTIVE[t, c] == e) for e in range(4)] for t in range(4)],
    dtype=np.int64,
)
# BEATEN_BY[t, c]: the cards that beat c when it is winning a trick, t trumps
BEATEN_BY = np.array([beaten_by(EFFECTIVE[t], POWER[t], DECK_MASK) for t in range(4)])

# --- options, as stored in the state (and in ``option_array``) ------------------

ALL_PASS_DEALER_MIN, ALL_PASS_REDEAL = 0, 1
FIRST_LEAD_ELDEST, FIRST_LEAD_BIDDER = 0, 1
O_PLAYERS, O_ALL_PASS, O_EXCHANGE, O_FIRST_LEAD, O_TEAMS, O_NUM_BIDS, O_BIDS = 0, 1, 2, 3, 4, 5, 6
OPTION_SIZE = O_BIDS + MAX_BIDS  # bid values ascending, then zeros

# --- state layout: one int64 array ------------------------------------------

TRICK_SLOTS = MAX_PLAYERS + 2  # a trick's record: leader, cards in play order, winner
SLOTS = state_layout(globals(), [
    ("HANDS", MAX_PLAYERS, "hand masks, seat order"),
    ("DISCARDS", MAX_PLAYERS, "masks of dead cards discarded by each seat (private)"),
    ("POINTS", MAX_PLAYERS, "points taken by each seat (5 a trick, 5 for the best trump)"),
    ("TRICKS_WON", MAX_PLAYERS, "tricks taken by each seat"),
    ("SCORES", MAX_PLAYERS, "this hand's score per seat (team games: the side's)"),
    ("LAST_CALL", MAX_PLAYERS, "each seat's latest auction action id, -1 before it speaks (public)"),
    ("KITTY", 1, "mask of the kitty until taken"),
    ("KITTY_TAKEN", 1, "the kitty's cards, once taken (seen by the bidder only)"),
    ("STOCK", 1, "mask of the cards left in the stock"),
    ("STOCK_NEXT", 1, "index in STOCK_ORDER of the next card to draw"),
    ("PHASE", 1, "the phase, an index into PHASE_NAMES"),
    ("DEALER", 1, "the dealer's seat"),
    ("TO_ACT", 1, "seat to act, -1 once the hand is over"),
    ("NUM_PLAYERS", 1, "seats at the table"),
    ("BIDDER", 1, "high bidder so far, -1 if none"),
    ("BID", 1, "high bid so far, 0 if none"),
    ("RIVAL", 1, "in the duel: the bidder the dealer displaced"),
    ("TRUMP", 1, "trump suit, -1 until named"),
    ("EXCHANGED", 1, "cards discarded so far by the seat exchanging"),
    ("LEADER", 1, "leader of the current trick"),
    ("TRICK_NO", 1, "tricks completed"),
    ("IN_TRICK", 1, "cards in the current trick"),
    ("LED", 1, "effective suit of the current lead, -1 before it"),
    ("LED_CARD", 1, "the card led, -1 before it"),
    ("PLAYED", 1, "mask of the cards played so far"),
    ("BEST_POWER", 1, "power of the best trump played so far, -1 if none"),
    ("BEST_SEAT", 1, "its player, -1 if none"),
    ("BEST_TRICK", 1, "the trick it was played in, -1 if none"),
    ("OUTCOME", 1, "OUTCOME_* code"),
    ("BIDDER_POINTS", 1, "points taken by the bidder's side"),
    ("OPTIONS", OPTION_SIZE, "the option array"),
    ("STOCK_ORDER", MAX_STOCK, "the stock's cards in drawing order (with exchange > 0)"),
    ("TRICKS", NUM_TRICKS * TRICK_SLOTS, "per trick, TRICK_SLOTS"),
    ("MATCH_TOTALS", MAX_PLAYERS, "in a match, each seat's total before this hand (public); else 0"),
    ("MATCH_TARGET", 1, "in a match, the total that wins it; 0 for a hand on its own"),
])

PHASE_NAMES = phases(globals(), [
    ("BIDDING", "bidding"),
    ("DUEL", "duel"),
    ("DISCARDING", "kitty"),
    ("TRUMPING", "trump"),
    ("EXCHANGING", "exchange"),
    ("PLAYING", "play"),
    ("OVER", "over"),
])
CARD_KIND = np.array([-1, -1, A.DISCARD, -1, A.DISCARD, A.PLAY, -1], dtype=np.int64)
OUTCOME_NONE, OUTCOME_MADE, OUTCOME_FAILED, OUTCOME_THROWN_IN = range(4)
OUTCOME_NAMES = ("", "made", "failed", "thrown_in")


@nb.njit(cache=True, inline="always")
def left(s, seat):
    """The seat left of ``seat``."""
    nxt = seat + 1
    return nxt if nxt < s[NUM_PLAYERS] else 0


@nb.njit(cache=True, inline="always")
def side(s, seat):
    """The side (team) of ``seat``: the seat itself, or ``seat % teams``."""
    k = s[OPTIONS + O_TEAMS]
    return seat % k if k > 1 else seat


# --- deal ---------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def reset(s, dealer, options):
    """Clear ``s`` for a new hand (hands not yet dealt)."""
    s[:] = 0
    s[OPTIONS:OPTIONS + OPTION_SIZE] = options
    n = options[O_PLAYERS]
    s[NUM_PLAYERS] = n
    for p in range(MAX_PLAYERS):
        s[LAST_CALL + p] = -1
    s[BIDDER] = s[RIVAL] = s[TRUMP] = s[LED] = s[LED_CARD] = -1
    s[BEST_POWER] = s[BEST_SEAT] = s[BEST_TRICK] = -1
    s[DEALER] = dealer
    s[PHASE] = BIDDING
    s[TO_ACT] = s[LEADER] = left(s, dealer)


@nb.njit(cache=True, inline="always")
def deal_random(s, seed, hand, dealer, options, rng):
    """Deal hand number ``hand`` of ``seed``: 5 random cards a seat, 5 to the kitty, the rest
    to the stock (in a random drawing order when cards are exchanged). ``rng`` is scratch."""
    reset(s, dealer, options)
    seed_stream(rng, seed, hand, 0)
    remaining = np.int64(DECK_MASK)
    for seat in range(s[NUM_PLAYERS]):
        s[HANDS + seat], remaining = draw_cards(remaining, HAND_SIZE, rng)
    s[KITTY], remaining = draw_cards(remaining, KITTY_SIZE, rng)
    s[STOCK] = remaining
    if options[O_EXCHANGE] > 0:
        draw_in_order(remaining, popcount(remaining), s, STOCK_ORDER, rng)


@nb.njit(cache=True, inline="always")
def deal(s, seed, hand, players, options, rng):
    """Hand ``hand`` of ``seed``, dealer ``hand % players``: the deal with every game's signature
    (``tricksim.spec.Rules``)."""
    deal_random(s, seed, hand, hand % players, options, rng)


# --- bidding (docs/rules.md, Fifty-five: Bidding) ------------------------------


@nb.njit(cache=True, inline="always")
def higher_bids(s):
    """Word mask of the bid actions above the current bid."""
    words = np.int64(0)
    for i in range(s[OPTIONS + O_NUM_BIDS]):
        v = s[OPTIONS + O_BIDS + i]
        if v > s[BID]:
            words |= bit(A.bid_action(v))
    return words


@nb.njit(cache=True, inline="always")
def _bidding(s, seat, action):
    """First round: each seat once, eldest to dealer; a dealer's bid wins, his hold starts the duel."""
    s[LAST_CALL + seat] = action
    dealer = s[DEALER]
    if action == A.HOLD:
        _hold(s)
    elif action == A.PASS:
        if seat != dealer:
            s[TO_ACT] = left(s, seat)
        elif s[BIDDER] >= 0:
            _take_kitty(s)
        elif s[OPTIONS + O_ALL_PASS] == ALL_PASS_REDEAL:
            s[OUTCOME] = OUTCOME_THROWN_IN
            _end(s)
        else:  # dealer_min: the dealer takes the lowest bid
            s[BIDDER] = dealer
            s[BID] = s[OPTIONS + O_BIDS]
            _take_kitty(s)
    else:
        s[BIDDER] = seat
        s[BID] = A.bid_points(action)
        if seat == dealer:
            _take_kitty(s)
        else:
            s[TO_ACT] = left(s, seat)


@nb.njit(cache=True, inline="always")
def _hold(s):
    """The dealer matches the bid and displaces its bidder, who may answer unless nothing is higher."""
    s[RIVAL] = s[BIDDER]
    s[BIDDER] = s[DEALER]
    if higher_bids(s) == 0:
        _take_kitty(s)
    else:
        s[PHASE] = DUEL
        s[TO_ACT] = s[RIVAL]


@nb.njit(cache=True, inline="always")
def _duel(s, seat, action):
    """The dealer and the displaced bidder, until one passes or the highest bid is held."""
    s[LAST_CALL + seat] = action
    dealer, rival = s[DEALER], s[RIVAL]
    if action == A.HOLD:
        _hold(s)
    elif action == A.PASS:
        if seat == dealer:
            s[BIDDER] = rival
        _take_kitty(s)
    else:
        s[BIDDER] = seat
        s[BID] = A.bid_points(action)
        s[TO_ACT] = rival if seat == dealer else dealer


# --- kitty, trump, exchange (docs/rules.md, Fifty-five: Kitty and trump, Exchange) ---


@nb.njit(cache=True, inline="always")
def _take_kitty(s):
    bidder = s[BIDDER]
    s[HANDS + bidder] |= s[KITTY]
    s[KITTY_TAKEN] = s[KITTY]
    s[KITTY] = 0
    s[PHASE] = DISCARDING
    s[TO_ACT] = bidder


@nb.njit(cache=True, inline="always")
def _discard_kitty(s, seat, c):
    s[HANDS + seat] &= ~bit(c)
    s[DISCARDS + seat] |= bit(c)
    if popcount(s[HANDS + seat]) == HAND_SIZE:
        s[PHASE] = TRUMPING


@nb.njit(cache=True, inline="always")
def _name_trump(s, action):
    s[TRUMP] = action - A.TRUMP
    if s[OPTIONS + O_EXCHANGE] > 0:
        s[PHASE] = EXCHANGING
        _next_exchanger(s, left(s, s[DEALER]))
    else:
        _start_play(s)


@nb.njit(cache=True, inline="always")
def exchange_limit(s):
    """Most cards the seat exchanging may still discard: k, and no more than the stock holds."""
    left_in_stock = popcount(s[STOCK])
    k = s[OPTIONS + O_EXCHANGE]
    return min(k, left_in_stock) - s[EXCHANGED]


@nb.njit(cache=True, inline="always")
def _next_exchanger(s, seat):
    """Give the turn to the first of ``seat`` onwards (up to the dealer) who exchanges."""
    s[EXCHANGED] = 0
    eldest = left(s, s[DEALER])
    first = True
    while first or seat != eldest:
        first = False
        if seat != s[BIDDER] and popcount(s[STOCK]) > 0:
            s[TO_ACT] = seat
            return
        seat = left(s, seat)
    _start_play(s)


@nb.njit(cache=True, inline="always")
def _exchange(s, seat, action, c):
    if action != A.DONE:
        s[HANDS + seat] &= ~bit(c)
        s[DISCARDS + seat] |= bit(c)
        s[EXCHANGED] += 1
        if exchange_limit(s) > 0:
            return
    for _ in range(s[EXCHANGED]):  # draw as many, in the stock's order
        d = s[STOCK_ORDER + s[STOCK_NEXT]]
        s[STOCK_NEXT] += 1
        s[STOCK] &= ~bit(d)
        s[HANDS + seat] |= bit(d)
    nxt = left(s, seat)
    if nxt == left(s, s[DEALER]):
        _start_play(s)
    else:
        _next_exchanger(s, nxt)


# --- play (docs/rules.md, Fifty-five: Play) --------------------------------------


@nb.njit(cache=True, inline="always")
def _start_play(s):
    s[PHASE] = PLAYING
    s[EXCHANGED] = 0
    first = s[BIDDER] if s[OPTIONS + O_FIRST_LEAD] == FIRST_LEAD_BIDDER else left(s, s[DEALER])
    s[LEADER] = s[TO_ACT] = first


@nb.njit(cache=True, inline="always")
def play_mask(s, seat):
    """Cards ``seat`` may play now: anything to lead; on a plain lead the suit or any trump
    (any card when void); on a trump lead a trump, but the 5, J and A♥ above the card led may
    be withheld, and a hand whose trumps may all be withheld plays anything."""
    hand = s[HANDS + seat]
    if s[IN_TRICK] == 0:
        return hand
    t = s[TRUMP]
    led = s[LED]
    trumps = hand & SUIT_MASKS[t, t]
    if led != t:
        follow = hand & SUIT_MASKS[t, led]
        return follow | trumps if follow != 0 else hand
    must = trumps & ~WITHHOLD[t, s[LED_CARD]]
    return trumps if must != 0 else hand


@nb.njit(cache=True, inline="always")
def shown_missing(t, led_card, c):
    """The cards a seat shows it does not hold by playing ``c`` to a trick led with ``led_card``,
    ``t`` trumps (``play_mask``): nothing when it followed or trumped; on a plain lead, the suit
    led; on a trump lead, every trump but those it may withhold."""
    led = EFFECTIVE[t, led_card]
    e = EFFECTIVE[t, c]
    if e == led or e == t:
        return np.int64(0)
    if led == t:
        return SUIT_MASKS[t, t] & ~WITHHOLD[t, led_card]
    return SUIT_MASKS[t, led]


@nb.njit(cache=True, inline="always")
def _play(s, seat, c):
    t = s[TRUMP]
    slot = TRICKS + s[TRICK_NO] * TRICK_SLOTS
    n = s[IN_TRICK]
    if n == 0:
        s[slot] = seat
        s[LED] = EFFECTIVE[t, c]
        s[LED_CARD] = c
    s[slot + 1 + n] = c
    s[HANDS + seat] &= ~bit(c)
    s[PLAYED] |= bit(c)
    p = POWER[t, c]
    if p >= ALWAYS_WINS and p > s[BEST_POWER]:
        s[BEST_POWER] = p
        s[BEST_SEAT] = seat
        s[BEST_TRICK] = s[TRICK_NO]
    s[IN_TRICK] = n + 1
    if n + 1 < s[NUM_PLAYERS]:
        s[TO_ACT] = left(s, seat)
    else:
        _end_trick(s, slot)


@nb.njit(cache=True, inline="always")
def _end_trick(s, slot):
    n = s[NUM_PLAYERS]
    t = s[TRUMP]
    leader = s[slot]
    winner = leader + trick_winner(s, slot + 1, n, s[LED], EFFECTIVE[t], POWER[t], -1)
    if winner >= n:
        winner -= n
    s[slot + 1 + MAX_PLAYERS] = winner
    s[POINTS + winner] += TRICK_POINTS
    s[TRICKS_WON + winner] += 1
    s[TRICK_NO] += 1
    s[IN_TRICK] = 0
    s[LED] = s[LED_CARD] = -1
    s[LEADER] = s[TO_ACT] = winner
    if s[TRICK_NO] == NUM_TRICKS:
        if s[BEST_SEAT] >= 0:
            s[POINTS + s[BEST_SEAT]] += BEST_TRUMP_POINTS
        _score(s)
        _end(s)


@nb.njit(cache=True, inline="always")
def _end(s):
    s[PHASE] = OVER
    s[TO_ACT] = -1


# --- scoring (docs/rules.md, Fifty-five: Score, Teams) -----------------------------


@nb.njit(cache=True, inline="always")
def bidder_score(points, tricks, bid):
    """``(score, made)`` of the bidding side that took ``points`` in ``tricks`` tricks on ``bid``:
    its points when they reach the bid, else minus the bid; a bid of 60 makes only with every
    trick (docs/rules.md, Fifty-five: Score). The score never falls as ``points`` rise."""
    if bid == 60:
        made = tricks == NUM_TRICKS
        return (60 if made else -60), made
    made = points >= bid
    return (points if made else -bid), made


@nb.njit(cache=True, inline="always")
def side_tricks(s, seat):
    """The tricks ``seat``'s side has taken so far."""
    total = 0
    for p in range(s[NUM_PLAYERS]):
        if side(s, p) == side(s, seat):
            total += s[TRICKS_WON + p]
    return total


@nb.njit(cache=True, inline="always")
def _score(s):
    n = s[NUM_PLAYERS]
    bidder_side = side(s, s[BIDDER])
    for p in range(n):  # SCORES[q] of each side's first seat q = side(q) gathers its points
        s[SCORES + side(s, p)] += s[POINTS + p]
    taken = s[SCORES + bidder_side]
    s[BIDDER_POINTS] = taken
    score, made = bidder_score(taken, side_tricks(s, bidder_side), s[BID])
    s[OUTCOME] = OUTCOME_MADE if made else OUTCOME_FAILED
    s[SCORES + bidder_side] = score
    for p in range(n):  # every seat shows its side's score (side(p) <= p: read before written)
        s[SCORES + p] = s[SCORES + side(s, p)]


# --- legal moves and step -----------------------------------------------------


@nb.njit(cache=True, inline="always")
def legal(s):
    """The legal actions now as ``(word_mask, card_mask, card_kind)``.

    ``word_mask`` has bit ``a`` set for each legal action id ``a < 64`` (pass,
    hold, bid N, trump S, done); ``card_mask`` holds the cards of the legal card
    actions, of kind ``card_kind``. Both are empty once the hand is over.
    """
    phase = s[PHASE]
    seat = s[TO_ACT]
    if phase == PLAYING:  # first: most decisions of a hand are cards to play
        return np.int64(0), play_mask(s, seat), np.int64(A.PLAY)
    words = np.int64(0)
    cards = np.int64(0)
    if phase == BIDDING or phase == DUEL:
        words = bit(A.PASS) | higher_bids(s)
        if seat == s[DEALER] and s[BIDDER] >= 0 and s[BIDDER] != seat:
            words |= bit(A.HOLD)
    elif phase == DISCARDING:
        cards = s[HANDS + seat]
    elif phase == TRUMPING:
        words = np.int64(0xF) << A.TRUMP
    elif phase == EXCHANGING:
        words = bit(A.DONE)
        cards = s[HANDS + seat]
    return words, cards, CARD_KIND[phase]


@nb.njit(cache=True, inline="always")
def step(s, action):
    """Apply ``action`` (an action id) for the seat to act; it must be legal (unchecked)."""
    seat = s[TO_ACT]
    phase = s[PHASE]
    if phase == PLAYING:
        _play(s, seat, action - A.card_action(A.PLAY, 0))
    elif phase == BIDDING:
        _bidding(s, seat, action)
    elif phase == DUEL:
        _duel(s, seat, action)
    elif phase == DISCARDING:
        _discard_kitty(s, seat, action - A.card_action(A.DISCARD, 0))
    elif phase == TRUMPING:
        _name_trump(s, action)
    else:
        _exchange(s, seat, action, action - A.card_action(A.DISCARD, 0))


# --- the hand's row (the batch loops', agents/loops.py) ---------------------------

RECORD = ("dealer", "bidder", "bid", "trump", "bidder_points", "outcome", "best_trump_seat") + tuple(
    f"score_{p}" for p in range(MAX_PLAYERS)
)
SCORE_COLUMN = 7


@nb.njit(cache=True, inline="always")
def record(s, out, i):
    """Write the finished hand ``s`` into row ``i`` of ``out`` (columns RECORD; unused score columns 0)."""
    out[i, 0] = s[DEALER]
    out[i, 1] = s[BIDDER]
    out[i, 2] = s[BID]
    out[i, 3] = s[TRUMP]
    out[i, 4] = s[BIDDER_POINTS]
    out[i, 5] = s[OUTCOME]
    out[i, 6] = s[BEST_SEAT]
    copy_slots(out, i, SCORE_COLUMN, s, SCORES, MAX_PLAYERS)
