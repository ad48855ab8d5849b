"""The two smears as numba functions over one int64 array per hand: Shmear
and Four Point Northeastern Wisconsin Smear (docs/rules.md, Shmear and NE Smear).

Both bid a number of points, name trump, play six tricks and score High, Low,
Jack and Game (Shmear adds Jick and Joker) for teams; the variant is one
option (``O_VARIANT``) and the rules that differ are tables and flags:

==================  ===============================  ==============================
                    Shmear (``SHMEAR``)               NE Smear (``NESMEAR``)
==================  ===============================  ==============================
deck                52 cards and the joker (``LJ``)  32 cards, 7 to A
players, teams      6; 3 teams of 2 or 2 of 3        4; 2 teams of 2
bids                3 to 6                           2 to 4
trumps              A K Q J, left bower, T .. 2,     A K Q J T 9 8 7
                    joker
before play         draw: each non-dealer swaps up   the bidder takes ``widow``
                    to 3 non-trumps, the dealer      undealt cards, names a suit he
                    takes the stock, discards to 6   holds, discards to 6
protected discards  A, 2, both bowers, joker         A, J, 7
first lead          the bidder, anything             the bidder, a trump
following           the suit led, else anything      a trump or the suit led, else
                    (``may_trump``: or a trump)      anything
Low                 the 2 of trumps                  the 7 (``high_low = in_play``:
                                                     the lowest trump played)
Game                tricks won                       tricks won, the bidder's
                                                     discards too
==================  ===============================  ==============================

Flow of a hand: bidding (eldest to dealer, once each; the top bid ends it) ->
trump (NE Smear: the widow is in hand first) -> draw (Shmear) -> discard (the
Shmear dealer; the NE bidder with ``widow > 0``) -> play (6 tricks) -> over.
When everyone passes the hand is thrown in: scores 0 (a match deals again).

Decisions where the rule book leaves room (also in the issue note):

* A non-dealer's turn in the draw always offers ``done``, also when he holds
  no non-trump; his replacements come off the top of the stock as his turn
  ends (after ``done`` or his third discard).
* "More than 6 trumps" (the only case a trump may be discarded) is checked
  before each single discard, so the dealer ends holding at most 6 trumps
  and at least as many as he had up to 6.
* High and Low go to the team of the player who plays the card, whoever wins
  the trick; Jack, Jick and Joker to the team that wins the trick. The Shmear
  point cards are always in play (the dealer may not discard them).
* NE ``high_low = in_play``: when a single trump is played it is both the
  highest and the lowest, and its team takes High and Low.
* Game goes to the one team with the most game points; a tie for the most
  (even between two of three Shmear teams) gives it to nobody.

Actions used (ids from ``actions``): pass, bid N, trump S, discard XX, done,
play XX.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..cards import LOW_JOKER, SUITS, card
from . import actions as A
from .actions import random_card, uniform_action
from .kernels import (
    ALWAYS_WINS,
    beaten_by,
    bit,
    copy_slots,
    draw_cards,
    draw_in_order,
    lowest_card,
    popcount,
    seed_stream,
    trick_winner,
)
from .layout import phases, state_layout

SHMEAR, NESMEAR = 0, 1
MAX_PLAYERS = 6
MAX_TEAMS = 3
HAND_SIZE = 6
NUM_TRICKS = 6
MAX_DRAW = 3  # non-trumps a Shmear player may swap
MAX_REST = 53 - 6 * HAND_SIZE  # the Shmear stock: 17 cards (NE Smear leaves 8 undealt)
JOKER = LOW_JOKER

# per variant: deck, players, bids
DECK_MASKS = np.array([(1 << 52) - 1 | (1 << JOKER),
                       sum(1 << card(r, s) for s in "CDHS" for r in "789TJQKA")], dtype=np.int64)
MIN_BID = np.array([3, 2], dtype=np.int64)
MAX_BID = np.array([6, 4], dtype=np.int64)
LOW_RANK = ("2", "7")  # the Low card's rank per variant

# --- tables, per variant and trump: row ``v * 4 + trump`` (the state's TABLE slot) ----

NUM_POINTS = 6  # High, Low, Jack, Jick, Joker, Game (NE Smear has no Jick or Joker)
HIGH, LOW, JACK, JICK, JOKER_POINT, GAME = range(NUM_POINTS)
POINT_NAMES = ("high", "low", "jack", "jick", "joker", "game")


def _trump_order(v: int, t: int) -> list[int]:
    """The trumps of variant ``v`` with suit ``t`` trumps, high to low."""
    s = SUITS[t]
    if v == NESMEAR:
        return [card(r, s) for r in "AKQJT987"]
    left_bower = card("J", SUITS[3 - t])  # the jack of the same colour: C<->S, D<->H
    return [card(r, s) for r in "AKQJ"] + [left_bower] + [card(r, s) for r in "T98765432"] + [JOKER]


def _tables():
    effective = np.full((8, 54), -1, dtype=np.int64)
    power = np.full((8, 54), -1, dtype=np.int64)
    suit_masks = np.zeros((8, 4), dtype=np.int64)
    protected = np.zeros(8, dtype=np.int64)
    point_cards = np.full((8, NUM_POINTS), -1, dtype=np.int64)  # the card of High, Low, Jack, Jick, Joker
    for v in (SHMEAR, NESMEAR):
        deck = [c for c in range(54) if DECK_MASKS[v] >> c & 1]
        for t in range(4):
            row = v * 4 + t
            trumps = _trump_order(v, t)
            for c in deck:
                effective[row, c] = t if c in trumps else c // 13
                power[row, c] = (ALWAYS_WINS + len(trumps) - trumps.index(c) if c in trumps
                                 else c % 13 + 1)  # plain suits: rank order, A high
                suit_masks[row, effective[row, c]] |= 1 << c
            s = SUITS[t]
            point_cards[row, HIGH] = card("A", s)
            point_cards[row, LOW] = card(LOW_RANK[v], s)
            point_cards[row, JACK] = card("J", s)
            if v == SHMEAR:
                point_cards[row, JICK] = trumps[4]
                point_cards[row, JOKER_POINT] = JOKER
            for c in point_cards[row, :GAME]:
                if c >= 0:
                    protected[row] |= 1 << int(c)
    return effective, power, suit_masks, protected, point_cards


EFFECTIVE, POWER, SUIT_MASKS, PROTECTED, POINT_CARDS = _tables()
# BEATEN_BY[row, c]: the cards that beat c when it is winning a trick
BEATEN_BY = np.array([beaten_by(EFFECTIVE[row], POWER[row], DECK_MASKS[row // 4]) for row in range(8)])


def _rank_mask(ranks: str) -> int:
    return sum(1 << card(r, s) for s in SUITS for r in ranks)


# Game points (docs/rules.md, Shmear and NE Smear: Points): A 4, K 3, Q 2, J 1, T 10, the joker 1; as masks per value.
GAME_VALUE_MASKS = np.array([_rank_mask("A"), _rank_mask("K"), _rank_mask("Q"),
                             _rank_mask("J") | (1 << JOKER), _rank_mask("T")], dtype=np.int64)
GAME_VALUES = np.array([4, 3, 2, 1, 10], dtype=np.int64)

# --- options, as stored in the state (and in ``option_array``) ------------------

HIGH_LOW_FIXED, HIGH_LOW_IN_PLAY = 0, 1
O_VARIANT, O_PLAYERS, O_TEAMS, O_MAY_TRUMP, O_WIDOW, O_HIGH_LOW = range(6)
OPTION_SIZE = 6

# --- state layout: one int64 array ------------------------------------------

TRICK_SLOTS = MAX_PLAYERS + 2  # a trick's record: leader, cards in play order, winner
SLOTS = state_layout(globals(), [
    ("HANDS", MAX_PLAYERS, "hand masks, seat order"),
    ("DISCARDS", MAX_PLAYERS, "masks of the cards each seat discarded (private)"),
    ("DRAWN", MAX_PLAYERS, "cards each seat swapped in the Shmear draw (public)"),
    ("SCORES", MAX_PLAYERS, "this hand's score per seat (its team's)"),
    ("LAST_CALL", MAX_PLAYERS, "each seat's bidding action id, -1 before it speaks (public)"),
    ("WON", MAX_TEAMS, "masks of the cards in the tricks each team won"),
    ("GAME_POINTS", MAX_TEAMS, "game points per team (NE: the bidder's discards included)"),
    ("POINT_WINNER", NUM_POINTS, "the team that won High, Low, Jack, Jick, Joker, Game; -1 nobody"),
    ("STOCK", 1, "mask of the cards not dealt to a hand and not yet taken"),
    ("STOCK_NEXT", 1, "index in REST_ORDER of the next card to draw"),
    ("WIDOW_TAKEN", 1, "NE Smear: the widow's cards, once taken (seen by the bidder only)"),
    ("PHASE", 1, "the phase, an index into PHASE_NAMES"),
    ("DEALER", 1, "the dealer's seat"),
    ("TO_ACT", 1, "seat to act, -1 once the hand is over"),
    ("NUM_PLAYERS", 1, "seats at the table"),
    ("BIDDER", 1, "high bidder so far, -1 if none"),
    ("BID", 1, "high bid so far, 0 if none"),
    ("TRUMP", 1, "trump suit, -1 until named"),
    ("TABLE", 1, "row of the tables: variant * 4 + trump"),
    ("DISCARDED", 1, "cards discarded so far in the current turn of the draw"),
    ("LEADER", 1, "leader of the current trick"),
    ("TRICK_NO", 1, "tricks completed"),
    ("IN_TRICK", 1, "cards in the current trick"),
    ("LED", 1, "effective suit of the current lead, -1 before it"),
    ("TRICK_MASK", 1, "cards of the current trick"),
    ("OUTCOME", 1, "OUTCOME_* code"),
    ("BIDDER_POINTS", 1, "points won by the bidding team"),
    ("OPTIONS", OPTION_SIZE, "the option array"),
    # from here on, slots are read only once written in this hand, so a new hand need not clear them
    ("REST_ORDER", MAX_REST, "the undealt cards in order (stock / widow first)"),
    ("PLAYED_BY", 54, "the seat that played each card"),
    ("TRICKS", NUM_TRICKS * TRICK_SLOTS, "per trick, TRICK_SLOTS"),
    ("MATCH_TOTALS", MAX_PLAYERS, "in a match, each seat's total before this hand (public); else 0"),
    ("MATCH_TARGET", 1, "in a match, the total that wins it; 0 for a hand on its own"),
    ("MATCH_BID_ONLY", 1, "in a match, 1 if a side goes out only on a hand where it made its own bid"),
])

PHASE_NAMES = phases(globals(), [
    ("BIDDING", "bidding"),
    ("TRUMPING", "trump"),
    ("DRAWING", "draw"),
    ("DISCARDING", "discard"),
    ("PLAYING", "play"),
    ("OVER", "over"),
])
CARD_KIND = np.array([-1, -1, A.DISCARD, A.DISCARD, A.PLAY, -1], dtype=np.int64)
OUTCOME_NONE, OUTCOME_MADE, OUTCOME_FAILED, OUTCOME_THROWN_IN = range(4)
OUTCOME_NAMES = ("", "made", "failed", "thrown_in")
PLAY_BASE = A.CARD_BASE + 54 * A.PLAY
DISCARD_BASE = A.CARD_BASE + 54 * A.DISCARD


@nb.njit(cache=True, inline="always")
def left(s, seat):
    """The seat left of ``seat``."""
    nxt = seat + 1
    return nxt - s[NUM_PLAYERS] * (nxt >= s[NUM_PLAYERS])  # no branch: seats vary at random


@nb.njit(cache=True, inline="always")
def team(s, seat):
    """The team of ``seat``, named by its lowest seat: ``seat % teams``."""
    teams = s[OPTIONS + O_TEAMS]
    return seat - teams * ((seat >= teams) + (seat >= 2 * teams))  # seat < 6: no division


@nb.njit(cache=True, inline="always")
def trumps_of(s, mask):
    """The trumps among ``mask``, once trump is named."""
    return mask & SUIT_MASKS[s[TABLE], s[TRUMP]]


# --- deal ---------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def reset(s, dealer, options):
    """Clear ``s`` for a new hand (hands not yet dealt)."""
    s[:OPTIONS] = 0
    s[MATCH_TOTALS:] = 0  # (a match writes them after the deal)
    s[OPTIONS:OPTIONS + OPTION_SIZE] = options
    s[NUM_PLAYERS] = options[O_PLAYERS]
    for p in range(MAX_PLAYERS):
        s[LAST_CALL + p] = -1
    for k in range(NUM_POINTS):
        s[POINT_WINNER + k] = -1
    s[BIDDER] = s[TRUMP] = s[LED] = -1
    s[DEALER] = dealer
    s[PHASE] = BIDDING
    s[TO_ACT] = s[LEADER] = left(s, dealer)


@nb.njit(cache=True, inline="always")
def deal_random(s, seed, hand, dealer, options, rng):
    """Deal hand number ``hand`` of ``seed``: 6 random cards a seat, and the other cards: those
    that can be drawn (15 of the Shmear stock, the NE widow) in a random order, then the rest
    in card order (the Shmear dealer takes them all; NE leaves them out). ``rng`` is scratch."""
    reset(s, dealer, options)
    seed_stream(rng, seed, hand, 0)
    remaining = DECK_MASKS[options[O_VARIANT]]
    for seat in range(s[NUM_PLAYERS]):
        s[HANDS + seat], remaining = draw_cards(remaining, HAND_SIZE, rng)
    s[STOCK] = remaining
    drawable = options[O_WIDOW] if options[O_VARIANT] == NESMEAR else MAX_DRAW * (s[NUM_PLAYERS] - 1)
    remaining = draw_in_order(remaining, drawable, s, REST_ORDER, rng)
    for i in range(drawable, drawable + popcount(remaining)):
        s[REST_ORDER + i] = lowest_card(remaining)
        remaining &= remaining - 1


@nb.njit(cache=True, inline="always")
def deal(s, seed, hand, players, options, rng):
    """Hand ``hand`` of ``seed``, dealer ``hand % players``: the deal with every game's signature
    (``tricksim.spec.Rules``)."""
    deal_random(s, seed, hand, hand % players, options, rng)


# --- bidding (docs/rules.md, Shmear: Bidding and trump; NE Smear: Bidding) ------


@nb.njit(cache=True, inline="always")
def higher_bids(s):
    """Word mask of the bid actions above the current bid."""
    v = s[OPTIONS + O_VARIANT]
    low = max(s[BID] + 1, MIN_BID[v])
    high = MAX_BID[v]
    return ((np.int64(1) << (high - low + 1)) - 1) << (A.BID + low)


@nb.njit(cache=True, inline="always")
def _bidding(s, seat, action):
    s[LAST_CALL + seat] = action
    if action != A.PASS:
        s[BIDDER] = seat
        s[BID] = action - A.BID
    if s[BID] == MAX_BID[s[OPTIONS + O_VARIANT]] or seat == s[DEALER]:
        if s[BIDDER] < 0:
            s[OUTCOME] = OUTCOME_THROWN_IN
            _end(s)
        else:
            _win_auction(s)
    else:
        s[TO_ACT] = left(s, seat)


@nb.njit(cache=True, inline="always")
def _win_auction(s):
    """The bidder names trump next; in NE Smear he takes the widow into his hand first."""
    bidder = s[BIDDER]
    widow = s[OPTIONS + O_WIDOW]
    for i in range(widow):
        s[WIDOW_TAKEN] |= bit(s[REST_ORDER + i])
    s[HANDS + bidder] |= s[WIDOW_TAKEN]
    s[STOCK] &= ~s[WIDOW_TAKEN]
    s[PHASE] = TRUMPING
    s[TO_ACT] = bidder


@nb.njit(cache=True, inline="always")
def trump_words(s):
    """Word mask of the trump actions: any suit in Shmear, a suit he holds in NE Smear."""
    if s[OPTIONS + O_VARIANT] == SHMEAR:
        return np.int64(0xF) << A.TRUMP
    hand = s[HANDS + s[TO_ACT]]
    words = np.int64(0)
    for t in range(4):
        if hand & SUIT_MASKS[NESMEAR * 4 + t, t] != 0:
            words |= bit(A.TRUMP + t)
    return words


@nb.njit(cache=True, inline="always")
def _name_trump(s, action):
    t = action - A.TRUMP
    s[TRUMP] = t
    s[TABLE] = s[OPTIONS + O_VARIANT] * 4 + t
    if s[OPTIONS + O_VARIANT] == SHMEAR:
        s[PHASE] = DRAWING
        s[TO_ACT] = left(s, s[DEALER])
    elif s[OPTIONS + O_WIDOW] > 0:
        s[PHASE] = DISCARDING
    else:
        _start_play(s)


# --- the Shmear draw and the discards (docs/rules.md, Shmear: Draw; NE Smear: Widow and trump) ---


@nb.njit(cache=True, inline="always")
def _draw(s, seat, action):
    """A non-dealer's turn: discard a non-trump, or ``done``; at the end of the turn he draws
    as many from the stock, and after the last non-dealer the dealer takes the stock."""
    if action != A.DONE:
        c = action - DISCARD_BASE
        s[HANDS + seat] &= ~bit(c)
        s[DISCARDS + seat] |= bit(c)
        s[DISCARDED] += 1
        if s[DISCARDED] < MAX_DRAW:
            return
    for _ in range(s[DISCARDED]):
        d = s[REST_ORDER + s[STOCK_NEXT]]
        s[STOCK_NEXT] += 1
        s[STOCK] &= ~bit(d)
        s[HANDS + seat] |= bit(d)
    s[DRAWN + seat] = s[DISCARDED]
    s[DISCARDED] = 0
    nxt = left(s, seat)
    if nxt == s[DEALER]:
        s[HANDS + nxt] |= s[STOCK]
        s[STOCK] = 0
        s[PHASE] = DISCARDING
    s[TO_ACT] = nxt


@nb.njit(cache=True, inline="always")
def draw_mask(s, seat):
    """Cards ``seat`` may discard in the draw: his non-trumps (``done`` is legal too)."""
    hand = s[HANDS + seat]
    return hand & ~trumps_of(s, hand)


@nb.njit(cache=True, inline="always")
def discard_mask(s, hand):
    """Cards that may be discarded from ``hand``: non-trumps, and while it holds more than 6
    trumps the unprotected trumps too."""
    trumps = trumps_of(s, hand)
    if popcount(trumps) > HAND_SIZE:
        return hand & ~PROTECTED[s[TABLE]]
    return hand & ~trumps


@nb.njit(cache=True, inline="always")
def _discard(s, seat, c):
    s[HANDS + seat] &= ~bit(c)
    s[DISCARDS + seat] |= bit(c)
    if popcount(s[HANDS + seat]) == HAND_SIZE:
        _start_play(s)


# --- play (docs/rules.md, Shmear and NE Smear: Play) -----------------------------


@nb.njit(cache=True, inline="always")
def _start_play(s):
    s[PHASE] = PLAYING
    s[LEADER] = s[TO_ACT] = s[BIDDER]


@nb.njit(cache=True, inline="always")
def play_mask(s, seat):
    """Cards ``seat`` may play now: to lead anything (the NE bidder's first lead a trump);
    to follow the effective suit led if he can (with ``may_trump``, and in NE Smear, or a
    trump), else anything."""
    hand = s[HANDS + seat]
    if s[IN_TRICK] == 0:
        if s[TRICK_NO] == 0 and s[OPTIONS + O_VARIANT] == NESMEAR:
            return trumps_of(s, hand)
        return hand
    follow = hand & SUIT_MASKS[s[TABLE], s[LED]]
    may_trump = trumps_of(s, hand) & -s[OPTIONS + O_MAY_TRUMP]
    return hand if follow == 0 else follow | may_trump


@nb.njit(cache=True, inline="always")
def shows_void(led, e, trump, may_trump):
    """Whether a card of effective suit ``e`` played to a trick led in ``led`` shows that its
    player holds none of ``led`` (``play_mask``), ``trump`` trumps and ``may_trump`` the option
    (on in NE Smear): he did not follow, and not with a trump he may play anyway. The caller reads
    the two slots once for its whole loop (measured: read each time, the NE Smear heuristic ran at
    0.8 of its speed)."""
    return e != led and (e != trump or may_trump == 0)


@nb.njit(cache=True, inline="always")
def trump_shown(s, seat):
    """Whether ``seat`` may see trump once it is named: always in Shmear; in NE Smear the bidder
    names it in private and his first lead, a trump, shows it (docs/rules.md, NE Smear: Widow and
    trump)."""
    return s[OPTIONS + O_VARIANT] == SHMEAR or seat == s[BIDDER] or s[TRICK_NO] > 0 or s[IN_TRICK] > 0


@nb.njit(cache=True, inline="always")
def _play(s, seat, c):
    table = s[TABLE]
    slot = TRICKS + s[TRICK_NO] * TRICK_SLOTS
    n = s[IN_TRICK]
    if n == 0:
        s[slot] = seat
        s[LED] = EFFECTIVE[table, c]
    s[slot + 1 + n] = c
    s[HANDS + seat] &= ~bit(c)
    s[TRICK_MASK] |= bit(c)
    s[PLAYED_BY + c] = seat
    s[IN_TRICK] = n + 1
    if n + 1 < s[NUM_PLAYERS]:
        s[TO_ACT] = left(s, seat)
    else:
        _end_trick(s, slot)


@nb.njit(cache=True, inline="always")
def _end_trick(s, slot):
    n = s[NUM_PLAYERS]
    table = s[TABLE]
    leader = s[slot]
    if n == 6:  # a constant count: the loop is unrolled
        position = trick_winner(s, slot + 1, 6, s[LED], EFFECTIVE[table], POWER[table], -1)
    else:
        position = trick_winner(s, slot + 1, 4, s[LED], EFFECTIVE[table], POWER[table], -1)
    winner = leader + position
    winner -= n * (winner >= n)
    s[slot + 1 + MAX_PLAYERS] = winner
    s[WON + team(s, winner)] |= s[TRICK_MASK]
    s[TRICK_MASK] = 0
    s[TRICK_NO] += 1
    s[IN_TRICK] = 0
    s[LED] = -1
    s[LEADER] = s[TO_ACT] = winner
    if s[TRICK_NO] == NUM_TRICKS:
        _score(s)
        _end(s)


@nb.njit(cache=True, inline="always")
def _end(s):
    s[PHASE] = OVER
    s[TO_ACT] = -1


# --- scoring (docs/rules.md, Shmear and NE Smear: Points, Score) -------------------


@nb.njit(cache=True, inline="always")
def game_points(mask):
    """Game points of the cards in ``mask``: A 4, K 3, Q 2, J 1, T 10, the joker 1."""
    total = 0
    for k in range(GAME_VALUES.shape[0]):
        total += GAME_VALUES[k] * popcount(mask & GAME_VALUE_MASKS[k])
    return total


@nb.njit(cache=True, inline="always")
def extreme_trumps(table, trumps):
    """The highest and the lowest card of the mask ``trumps`` by power; -1, -1 when empty."""
    high, low = -1, -1
    m = np.int64(trumps)
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        if high < 0 or POWER[table, c] > POWER[table, high]:
            high = c
        if low < 0 or POWER[table, c] < POWER[table, low]:
            low = c
    return high, low


@nb.njit(cache=True, inline="always")
def high_low_cards(s, played):
    """The cards that give High and Low when ``played`` are the cards played in the hand: the
    fixed ones of the table, or with ``in_play`` the highest and lowest trump among them (never
    the joker); -1 for none."""
    table = s[TABLE]
    if s[OPTIONS + O_HIGH_LOW] == HIGH_LOW_IN_PLAY:
        return extreme_trumps(table, trumps_of(s, played) & ~bit(JOKER))
    return POINT_CARDS[table, HIGH], POINT_CARDS[table, LOW]


@nb.njit(cache=True, inline="always")
def trick_team(s, c):
    """The team that won the trick holding card ``c``, which takes Jack, Jick and Joker
    (docs/rules.md, Shmear: Points); -1 if it was not played."""
    winner = -1
    for k in range(MAX_TEAMS):  # selects, not branches: who wins a point is random
        winner = k if (s[WON + k] >> c) & 1 else winner
    return winner


@nb.njit(cache=True, inline="always")
def player_team(s, c, played):
    """The team of the seat that played card ``c``, which takes High and Low (docs/rules.md,
    Shmear: Points); -1 if ``c`` is not among ``played``."""
    return team(s, s[PLAYED_BY + c]) if (played >> c) & 1 else -1


@nb.njit(cache=True, inline="always")
def game_cards(s, k):
    """The cards that count for team ``k``'s Game: the tricks it won and, in NE Smear, the
    bidder's discards for his team (docs/rules.md, NE Smear: Points)."""
    won = s[WON + k]
    bidder = s[BIDDER]
    if s[OPTIONS + O_VARIANT] == NESMEAR and bidder >= 0 and team(s, bidder) == k:
        won |= s[DISCARDS + bidder]
    return won


@nb.njit(cache=True, inline="always")
def bidder_score(points, bid):
    """``(score, made)`` of the bidding team that won ``points`` points on ``bid``: the points when
    they reach the bid, else minus the bid (docs/rules.md, Shmear and NE Smear: Score). It never falls as
    ``points`` rise."""
    made = points >= bid
    return (points if made else -bid), made


@nb.njit(cache=True, inline="always")
def _score(s):
    table = s[TABLE]
    teams = s[OPTIONS + O_TEAMS]
    bidder_team = team(s, s[BIDDER])
    # High and Low: to the team of who played the card (in_play: the top and bottom trump played)
    played = s[WON] | s[WON + 1] | s[WON + 2]
    high, low = high_low_cards(s, played)
    if high >= 0:
        s[POINT_WINNER + HIGH] = player_team(s, high, played)
    if low >= 0:
        s[POINT_WINNER + LOW] = player_team(s, low, played)
    # Jack, Jick, Joker: to the team that won the trick holding the card
    for point in range(JACK, GAME):
        c = POINT_CARDS[table, point]
        if c >= 0:
            s[POINT_WINNER + point] = trick_team(s, c)
    # Game: the one team with the most game points (the NE bidder's discards count for his team)
    best, best_team, at_best = -1, -1, 0
    for k in range(teams):
        points = game_points(game_cards(s, k))
        s[GAME_POINTS + k] = points
        at_best = 1 if points > best else at_best + (points == best)
        best_team = k if points > best else best_team
        best = max(best, points)
    s[POINT_WINNER + GAME] = best_team if at_best == 1 else -1
    for k in range(teams):
        s[SCORES + k] = 0
    for point in range(NUM_POINTS):
        winner = s[POINT_WINNER + point]
        s[SCORES + max(winner, 0)] += winner >= 0
    taken = s[SCORES + bidder_team]
    s[BIDDER_POINTS] = taken
    score, made = bidder_score(taken, s[BID])
    s[OUTCOME] = OUTCOME_MADE if made else OUTCOME_FAILED
    s[SCORES + bidder_team] = score
    for p in range(teams, s[NUM_PLAYERS]):  # every seat shows its team's score
        s[SCORES + p] = s[SCORES + team(s, p)]


# --- legal moves and step -----------------------------------------------------


@nb.njit(cache=True, inline="always")
def legal(s):
    """The legal actions now as ``(word_mask, card_mask, card_kind)``.

    ``word_mask`` has bit ``a`` set for each legal action id ``a < 64`` (pass,
    bid N, trump S, done); ``card_mask`` holds the cards of the legal card
    actions, of kind ``card_kind``. Both are empty once the hand is over.
    """
    phase = s[PHASE]
    seat = s[TO_ACT]
    if phase == PLAYING:  # first: most decisions of a hand are cards to play
        return np.int64(0), play_mask(s, seat), np.int64(A.PLAY)
    words = np.int64(0)
    cards = np.int64(0)
    if phase == BIDDING:
        words = bit(A.PASS) | higher_bids(s)
    elif phase == TRUMPING:
        words = trump_words(s)
    elif phase == DRAWING:
        words = bit(A.DONE)
        cards = draw_mask(s, seat)
    elif phase == DISCARDING:
        cards = discard_mask(s, s[HANDS + seat])
    return words, cards, CARD_KIND[phase]


@nb.njit(cache=True, inline="always")
def step(s, action):
    """Apply ``action`` (an action id) for the seat to act; it must be legal (unchecked)."""
    seat = s[TO_ACT]
    phase = s[PHASE]
    if phase == PLAYING:
        _play(s, seat, action - PLAY_BASE)
    elif phase == BIDDING:
        _bidding(s, seat, action)
    elif phase == TRUMPING:
        _name_trump(s, action)
    elif phase == DRAWING:
        _draw(s, seat, action)
    else:
        _discard(s, seat, action - DISCARD_BASE)


@nb.njit(cache=True, inline="always")
def random_step(s, rng):
    """Play a uniformly random legal action: ``step(s, uniform_action(*legal(s), rng))``, the
    same draw, with one dispatch on the phase instead of two (the batch loop's random agent)."""
    seat = s[TO_ACT]
    phase = s[PHASE]
    if phase == PLAYING:
        _play(s, seat, random_card(play_mask(s, seat), rng))
    elif phase == DRAWING:
        _draw(s, seat, uniform_action(bit(A.DONE), draw_mask(s, seat), A.DISCARD, rng))
    elif phase == DISCARDING:
        _discard(s, seat, random_card(discard_mask(s, s[HANDS + seat]), rng))
    elif phase == BIDDING:
        _bidding(s, seat, uniform_action(bit(A.PASS) | higher_bids(s), np.int64(0), -1, rng))
    else:
        words, cards, kind = legal(s)
        step(s, uniform_action(words, cards, kind, rng))


# --- the hand's row (the batch loops', agents/loops.py) ---------------------------

RECORD = (("dealer", "bidder", "bid", "trump", "outcome", "bidder_points")
          + POINT_NAMES + tuple(f"game_points_{k}" for k in range(MAX_TEAMS))
          + tuple(f"score_{p}" for p in range(MAX_PLAYERS)))
POINTS_COLUMN = 6
GAME_POINTS_COLUMN = POINTS_COLUMN + NUM_POINTS
SCORE_COLUMN = GAME_POINTS_COLUMN + MAX_TEAMS


@nb.njit(cache=True, inline="always")
def record(s, out, i):
    """Write the finished hand ``s`` into row ``i`` of ``out`` (columns RECORD)."""
    out[i, 0] = s[DEALER]
    out[i, 1] = s[BIDDER]
    out[i, 2] = s[BID]
    out[i, 3] = s[TRUMP]
    out[i, 4] = s[OUTCOME]
    out[i, 5] = s[BIDDER_POINTS]
    copy_slots(out, i, POINTS_COLUMN, s, POINT_WINNER, NUM_POINTS)
    copy_slots(out, i, GAME_POINTS_COLUMN, s, GAME_POINTS, MAX_TEAMS)
    copy_slots(out, i, SCORE_COLUMN, s, SCORES, MAX_PLAYERS)
