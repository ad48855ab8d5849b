"""A heuristic Sheepshead agent (docs/rules.md, Sheepshead) that plays as a sound club player, in numba.

Phases:

* **Pick** (``pick_strength``, ``pick_rule``): a weighted count of the six dealt cards (queens,
  jacks, the other trumps, fail aces, fail voids, card points), less ``no_hold_penalty`` for a
  hand that would play alone (no fail card to call with, or the jack of diamonds when it names the
  partner). A seat picks from ``pick_threshold``, lowered by ``position_step`` for each seat
  nearer the dealer (a later seat has seen more passes), raised by ``BUMP_STEP`` under
  ``double_on_bump`` (a lost pick costs twice). The dealer under ``no_pick = forced`` must pick.
* **Bury** (``choose_bury``): of the 28 pairs of the eight cards, the one that keeps most: buried
  points count for the picker; each fail void made is worth ``void_value`` points; keeping a hold
  card for a legal call is worth ``hold_value`` (called ace only); and each buried card loses its
  keep value (``BURY_KEEP``: a trump by its rank, 8 points for 7D up to 47 for QC, so a low trump
  may go to keep a hold card; a fail ace more than its 11; a ten or king less than its points:
  without the ace they are likely lost).
* **Call** (``choose_call``): ``alone`` when the six cards kept reach ``alone_threshold`` (or no
  call is legal); else the legal card of the suit where he holds fewest cards, then most points
  (they go on the partner's ace). The unknown (``under``) is his lowest-point fail card.
* **Play** (``choose_play``): the seat knows some seats as friends or foes (``teams``) and the
  rest not yet; a defender who does not know the partner reads a seat that beat the picker's card
  after him as a fellow defender (the partner does not overtake the picker). Leading: the
  picker's side pulls trumps with the top trump, else leads its cheapest trump; a defender leads
  the called suit until it has been led; then both cash fail cards no unseen card of their suit
  beats, else lead their cheapest fail card. Following: on a friend's trick that will hold,
  schmear the most points (fail A/T, then AD/TD); on a friend's trick that may not hold, take it
  over only with a card sure to hold and only for ``take_points`` or more (a defender void in the
  fail suit a fellow defender led, with the picker still to play, ruffs it first with his
  cheapest jack or queen), else throw low; against a foe (or an unknown seat), win with the
  cheapest card sure to hold (the last seat with the diamond worth most, AD then TD; no power
  trump for the last seat on a pointless trick, nor for the picker's side on a fail trick worth
  less than ``take_points``), play the highest winner for a trick of ``take_points`` or more,
  trump in when void in the fail suit led (a point trump first; a power trump only as a
  defender), and otherwise throw the cheapest card (points plus keep value). A card is *sure*
  when no unseen card beats it; in the first round of a fail suit a ruff is not feared, so every
  trump is sure.
* **Leaster** (``leaster_play``): duck tricks, shedding points and high cards onto other seats'
  tricks; lead the lowest card; as the last seat, take one pointless trick to qualify (not the
  last trick: the blind goes with it); when forced to win, win as cheaply in points as possible.

Knowledge rule: ``act`` reads only what the seat to act may know. Slots read: ``TO_ACT``,
``PHASE``, ``DEALER``, ``PASSES``, ``PICKER``, the option slots, ``HANDS + seat`` (its own hand
only), ``PLAYED``, ``LEADER``, ``TRICK_NO``, ``IN_TRICK``, ``LED``, ``TRICKS`` (the public trick
history), ``TRICKS_WON``, ``CALLED_SUIT_LED`` and ``REVEALED`` (public: they follow from the
history), ``UNKNOWN_TRICK`` (the unknown is played face up from its pile); ``BURIED`` and
``UNKNOWN`` only by the picker; ``CALLED`` only with a called ace (with the jack of diamonds it
tells whether the picker holds JD); ``PARTNER`` only once ``REVEALED``. Who played JD, and so
whether a picker who played it is alone, shows in the history. It calls the game's ``legal`` /
``play_mask`` / ``callable_mask`` for the seat to act, which read that seat's hand and public
slots (what ``play_mask`` reads of ``CALLED`` matters only for the called-ace partner himself).
``rng`` is not used: ties go to a fixed order of the cards.

Speed: no allocation in ``act``; the batch loop inlines it (``act_borrowed``: a call per decision cost
~15%), and a forced card (the last trick, a single card of the suit led) is played before any
other work. Choosing "the card of a mask with the least X" is branch free: ``ORDER_*`` tables map
a hand mask, a byte per suit, to the positions of its cards in the order of X, so the lowest
(highest) set bit is the card wanted.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..cards import CLUBS, HEARTS, SPADES, parse_card, parse_cards
from ..sim import actions as A
from ..sim import sheepshead as K
from ..sim.kernels import bit, borrow, has, highest_bit, lowest_card, popcount

PARAMS = (
    ("pick_threshold", 8.0, "pick strength from which the eldest picks (with double_on_bump, 2 more)"),
    ("position_step", 0.5, "threshold decrease for each seat nearer the dealer (the dealer: 4 steps)"),
    ("queen_weight", 3.0, "strength of each queen"),
    ("jack_weight", 2.0, "strength of each jack"),
    ("trump_weight", 1.5, "strength of each other trump (AD TD KD 9D 8D 7D)"),
    ("ace_weight", 1.0, "strength of each fail ace"),
    ("void_weight", 1.0, "strength of each fail suit the hand is void in"),
    ("points_weight", 0.03, "strength of each card point in the hand"),
    ("no_hold_penalty", 4.0, "strength taken off a hand that would play alone: no hold card to call (with no_call"
     " = alone), or the jack of diamonds (with partner = jack_of_diamonds)"),
    ("alone_threshold", 16.0, "strength of the six cards kept after the bury from which he goes alone"),
    ("void_value", 6.0, "bury: card points a fail void made by the bury is worth"),
    ("hold_value", 20.0, "bury: card points keeping a hold card for a legal call is worth"),
    ("take_points", 10.0, "trick points from which a seat plays its highest winner though it may be beaten,"
     " and the picker's side ruffs a fail trick with a jack or queen"),
)
DEFAULTS = np.array([default for _, default, _ in PARAMS], dtype=np.float64)
(PICK_THRESHOLD, POSITION_STEP, QUEEN_WEIGHT, JACK_WEIGHT, TRUMP_WEIGHT, ACE_WEIGHT, VOID_WEIGHT,
 POINTS_WEIGHT, NO_HOLD_PENALTY, ALONE_THRESHOLD, VOID_VALUE, HOLD_VALUE, TAKE_POINTS) = range(len(PARAMS))

# of the picker's hand as dealt (-1 when nobody picked): trump count, the unbroken run of top
# trumps from QC, queens, jacks, fail aces, fail voids, card points; then every seat's trumps
FEATURES = ("trumps", "top_trumps", "queens", "jacks", "fail_aces", "voids", "points",
            "trumps_0", "trumps_1", "trumps_2", "trumps_3", "trumps_4")

# --- tables (docs/rules.md, Sheepshead) ----------------------------------------------------

PLAYERS = K.PLAYERS
TRUMP = K.TRUMP
TRUMPS = int(K.SUIT_MASKS[TRUMP])
CLUB_MASK, SPADE_MASK, HEART_MASK = (int(K.SUIT_MASKS[suit]) for suit in (CLUBS, SPADES, HEARTS))


def _mask(cards):
    return sum(1 << int(c) for c in cards)


QUEENS = _mask(parse_cards("QC QS QH QD"))
JACKS = _mask(parse_cards("JC JS JH JD"))
LOW_TRUMPS = _mask(parse_cards("AD TD KD 9D 8D 7D"))
FAIL_ACES = _mask(parse_cards("AC AS AH"))
ACE_OF_CLUBS, ACE_OF_SPADES, ACE_OF_HEARTS = parse_cards("AC AS AH")
JD = parse_card("JD")
TRUMP_ORDER = np.array(K.TRUMP_ORDER, dtype=np.int64)  # high to low
ZERO_POINT_CARDS = _mask(c for c in K.DECK if K.POINTS[c] == 0)
# the point table as (value, mask of the cards worth it): a mask's points in five popcounts
POINT_VALUES = sorted({int(p) for p in K.POINTS if p > 0}, reverse=True)
assert len(POINT_VALUES) == 5
(P0, P1, P2, P3, P4) = POINT_VALUES
(M0, M1, M2, M3, M4) = (_mask(c for c in K.DECK if K.POINTS[c] == p) for p in POINT_VALUES)


def _trump_rank():
    """0 for 7D up to 13 for QC; -1 for a fail card."""
    rank = np.full(54, -1, dtype=np.int64)
    for i, c in enumerate(reversed(K.TRUMP_ORDER)):
        rank[c] = i
    return rank


def _keep():
    """What holding a card is worth beyond its points, in half points: a trump by its rank, a
    fail ace a little (it may take a trick later). Throwing to a foe costs points + keep;
    schmearing to a friend gains points - keep."""
    keep = np.zeros(54, dtype=np.int64)
    for c in K.DECK:
        if TRUMP_RANK[c] >= 0:
            keep[c] = 4 + 3 * TRUMP_RANK[c]
        elif K.POINTS[c] == 11:
            keep[c] = 6
    return keep


def _bury_keep():
    """Keep value of a card for the bury, in points: a trump by its rank (a low trump may go to
    keep a hold card), a fail ace takes a trick, a ten or king without its ace is likely lost."""
    keep = np.zeros(54, dtype=np.float64)
    for c in K.DECK:
        if TRUMP_RANK[c] >= 0:
            keep[c] = 8.0 + 3.0 * TRUMP_RANK[c]
        else:
            keep[c] = {11: 14.0, 10: 5.0, 4: 2.0}.get(int(K.POINTS[c]), 0.0)
    return keep


def _order(key):
    """The cards of the deck in the order of ``key`` (ties: lower card first) as a lookup table:
    ``order[suit, byte]`` is the mask of the order positions of the cards in that byte of a hand
    mask (the byte of ranks 7..A of ``suit``), ``order[4, position]`` the card at a position."""
    cards = sorted((int(c) for c in K.DECK), key=lambda c: (key(c), c))
    position = {c: i for i, c in enumerate(cards)}
    order = np.zeros((5, 256), dtype=np.int64)
    for suit in range(4):
        for byte in range(256):
            for r in range(8):
                if byte >> r & 1 and suit * 13 + 5 + r in position:
                    order[suit, byte] |= 1 << position[suit * 13 + 5 + r]
    order[4, :len(cards)] = cards
    return order


TRUMP_RANK = _trump_rank()
JACK_RANK = TRUMP_RANK[JD]  # trumps from here up are the eight "power" trumps
KEEP = _keep()
DUMP = 2 * K.POINTS + KEEP  # cost of giving a card to a foe's trick
SCHMEAR = 2 * K.POINTS - KEEP  # gain of giving a card to a friend's trick
BURY_NET = K.POINTS - _bury_keep()  # what burying a card gains
# leaster: how likely a card is to win a trick, 1 (a fail 7) .. 36 (QC)
LEVEL = np.array([9 + 2 * TRUMP_RANK[c] if TRUMP_RANK[c] >= 0 else max(K.POWER[c], 0) for c in range(54)])
SHED = 2 * K.POINTS + LEVEL  # leaster: what a card given to another seat's trick gets rid of

ORDER_POWER = _order(lambda c: K.POWER[c])  # trick power; trumps above every fail card
ORDER_DUMP = _order(lambda c: (DUMP[c], K.POWER[c]))
ORDER_SCHMEAR = _order(lambda c: (SCHMEAR[c], -K.POWER[c]))
ORDER_SHED = _order(lambda c: (SHED[c], K.POWER[c]))
ORDER_TAKE = _order(lambda c: (K.POINTS[c], -LEVEL[c]))  # leaster: fewest points, then highest


def _positions(mask):
    m = 0
    for suit in range(4):
        m |= int(ORDER_POWER[suit, (mask >> (suit * 13 + 5)) & 255])
    return m


TRUMP_POSITIONS = _positions(TRUMPS)  # the trumps' bits in ORDER_POWER
POWER_BIT = np.array([_positions(1 << c) for c in range(54)], dtype=np.int64)  # a card's bit there
SUIT_POSITIONS = np.array([_positions(int(m)) for m in K.SUIT_MASKS], dtype=np.int64)
# seats after ``seat`` in a trick with ``k`` cards to come after his: AFTER[seat, k]
AFTER = np.array([[sum(1 << ((seat + i) % PLAYERS) for i in range(1, k + 1)) for k in range(PLAYERS)]
                  for seat in range(PLAYERS)], dtype=np.int64)
ALL_SEATS = (1 << PLAYERS) - 1


def _sides(seat, picker, partner):
    """``(friends, foes)`` as seat masks for ``seat`` when ``picker`` picked and ``seat`` knows
    the partner as ``partner`` (``known_partner``: a seat, -1 unknown, -2 the picker alone)."""
    others = ALL_SEATS & ~(1 << seat)
    if seat == picker:
        if partner >= 0:
            return 1 << partner, others & ~(1 << partner)
        return 0, (others if partner == -2 else 0)
    if partner == seat:
        return 1 << picker, others & ~(1 << picker)
    foes = 1 << picker  # a defender
    if partner >= 0:
        foes |= 1 << partner
        return others & ~foes, foes
    return (others & ~foes if partner == -2 else 0), foes


# teams as a table, FRIENDS[seat, picker, partner + 2] (FOES alike): a lookup, where the rule's
# branches on seats would be mispredicted
_SIDES = np.array([[[_sides(seat, picker, partner) for partner in range(-2, PLAYERS)] for picker in range(PLAYERS)]
                   for seat in range(PLAYERS)], dtype=np.int64)
FRIENDS, FOES = _SIDES[..., 0].copy(), _SIDES[..., 1].copy()

# --- bit helpers -------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def _below_or_at(x):
    """Mask of the bits at or below the highest set bit of ``x`` (0 for 0)."""
    return (np.int64(2) << highest_bit(x)) - 1 if x != 0 else np.int64(0)


@nb.njit(cache=True, inline="always")
def _ranks(mask, order):
    """The order positions of the cards of ``mask`` (see ``_order``)."""
    m = np.int64(mask)
    return order[0, (m >> 5) & 255] | order[1, (m >> 18) & 255] | order[2, (m >> 31) & 255] | order[3, (m >> 44) & 255]


@nb.njit(cache=True, inline="always")
def _least(mask, order):
    """The card of the non-empty ``mask`` first in ``order``."""
    return order[4, lowest_card(_ranks(mask, order))]


@nb.njit(cache=True, inline="always")
def _most(mask, order):
    """The card of the non-empty ``mask`` last in ``order``."""
    return order[4, highest_bit(_ranks(mask, order))]


@nb.njit(cache=True, inline="always")
def card_points(mask):
    """Card points of ``mask`` (the game's POINTS table, as five popcounts)."""
    return (P0 * popcount(mask & M0) + P1 * popcount(mask & M1) + P2 * popcount(mask & M2)
            + P3 * popcount(mask & M3) + P4 * popcount(mask & M4))


@nb.njit(cache=True, inline="always")
def _voids(mask):
    return (mask & CLUB_MASK == 0) + (mask & SPADE_MASK == 0) + (mask & HEART_MASK == 0)


@nb.njit(cache=True, inline="always")
def _safe(unseen_ranks, led, first_round):
    """The ORDER_POWER positions of the cards that, played to the current trick, no unseen card
    can beat (a card is *sure* when it can win the trick and is safe): the trumps above every
    unseen trump; in a fail suit led, its cards above every unseen card of it, where no ruff is
    feared (the suit's first round, or no trump unseen). In a fail suit's first round every trump
    is safe: the seats after him are expected to follow suit, so the cheapest trump takes it."""
    unseen_trumps = unseen_ranks & TRUMP_POSITIONS
    if led != TRUMP and first_round:
        return TRUMP_POSITIONS | (SUIT_POSITIONS[led] & ~_below_or_at(unseen_ranks & SUIT_POSITIONS[led]))
    safe = TRUMP_POSITIONS & ~_below_or_at(unseen_trumps)
    if led != TRUMP and unseen_trumps == 0:
        suit = SUIT_POSITIONS[led]
        safe |= suit & ~_below_or_at(unseen_ranks & suit)
    return safe


# --- pick ------------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def pick_strength(hand, params):
    """Strength of a hand (of any size) on the scale of ``pick_threshold``."""
    return (params[QUEEN_WEIGHT] * popcount(hand & QUEENS) + params[JACK_WEIGHT] * popcount(hand & JACKS)
            + params[TRUMP_WEIGHT] * popcount(hand & LOW_TRUMPS) + params[ACE_WEIGHT] * popcount(hand & FAIL_ACES)
            + params[VOID_WEIGHT] * _voids(hand) + params[POINTS_WEIGHT] * card_points(hand))


# with double_on_bump a lost pick costs twice: picking from 2 strength more beat picking from
# pick_threshold by 0.07 to 0.09 a deal on duplicate deals (3,000 deals, seeds 42 and 43; 3 more: -0.01)
BUMP_STEP = 2.0


@nb.njit(cache=True, inline="always")
def pick_rule(strength, position, params, double_on_bump=False):
    """Pick (True) or pass: ``position`` is 1 for the eldest .. 5 for the dealer."""
    threshold = params[PICK_THRESHOLD] + (BUMP_STEP if double_on_bump else 0.0)
    return strength >= threshold - params[POSITION_STEP] * (position - 1)


@nb.njit(cache=True, inline="always")
def _hold_suits(hand):
    """The fail suits where ``hand`` has a card but not the ace: the suits it could call."""
    out = np.int64(0)
    for suit_mask, ace in ((CLUB_MASK, ACE_OF_CLUBS), (SPADE_MASK, ACE_OF_SPADES), (HEART_MASK, ACE_OF_HEARTS)):
        if hand & suit_mask != 0 and not has(hand, ace):
            out |= suit_mask
    return out


@nb.njit(cache=True, inline="always")
def picks(s, hand, params):
    """Whether the seat to act at ``s``, free to pass, picks with the six cards ``hand``: the pick
    rule alone, without asking what is legal, so that the inference can ask it for each of the 28
    blinds a picker may have found (``sheepshead_search.auction_log_chance``)."""
    seat = s[K.TO_ACT]
    strength = pick_strength(hand, params)
    if s[K.OPT_PARTNER] == K.PARTNER_CALLED_ACE:
        if s[K.OPT_NO_CALL] == K.NO_CALL_ALONE and _hold_suits(hand) == 0:
            strength -= params[NO_HOLD_PENALTY]  # unless the blind brings a hold card, he plays alone
    elif has(hand, JD):
        strength -= params[NO_HOLD_PENALTY]  # the jack of diamonds makes him his own partner
    position = (seat - s[K.DEALER] + PLAYERS - 1) % PLAYERS + 1
    return pick_rule(strength, position, params, s[K.OPT_DOUBLE_ON_BUMP] != 0)


@nb.njit(cache=True)
def choose_pick(s, params):
    words, _, _ = K.legal(s)
    if words & bit(A.PASS) == 0:  # the dealer under no_pick = forced
        return A.PICK
    return A.PICK if picks(s, s[K.HANDS + s[K.TO_ACT]], params) else A.PASS


# --- bury, call, under -----------------------------------------------------------------------


@nb.njit(cache=True)
def choose_bury(s, params):
    """The card to bury now: one of the best pair of the picker's eight cards (with one card
    buried, the best pair that holds it)."""
    hand = s[K.HANDS + s[K.TO_ACT]]
    buried = s[K.BURIED]
    own = hand | buried
    # the suits he could call with a hold card kept: their ace (ten, with all three aces) not his
    # (docs/rules.md, Sheepshead: Partner, as in the game's callable_mask, here for the cards he may keep)
    tens = own & FAIL_ACES == FAIL_ACES
    hold_suits = np.int64(0)
    if not has(own, K.TENS[CLUBS] if tens else K.ACES[CLUBS]):
        hold_suits |= CLUB_MASK
    if not has(own, K.TENS[SPADES] if tens else K.ACES[SPADES]):
        hold_suits |= SPADE_MASK
    if not has(own, K.TENS[HEARTS] if tens else K.ACES[HEARTS]):
        hold_suits |= HEART_MASK
    hold_value = params[HOLD_VALUE] if s[K.OPT_PARTNER] == K.PARTNER_CALLED_ACE else 0.0
    void_value = params[VOID_VALUE]
    best, best_value = -1, -1e30
    m1 = np.int64(buried if buried != 0 else hand)
    while m1 != 0:
        c1 = lowest_card(m1)
        m1 &= m1 - 1
        m2 = hand if buried != 0 else m1  # with c1 in hand: the cards above it
        while m2 != 0:
            c2 = lowest_card(m2)
            m2 &= m2 - 1
            kept = own & ~(bit(c1) | bit(c2))
            value = BURY_NET[c1] + BURY_NET[c2] + void_value * _voids(kept) + hold_value * (kept & hold_suits != 0)
            if value > best_value:
                best_value = value
                best = c2 if buried != 0 else c1
    return best


@nb.njit(cache=True)
def choose_call(s, params):
    """``alone`` with a strong six or no legal call; else the call that keeps most safe."""
    hand = s[K.HANDS + s[K.TO_ACT]]
    calls = K.callable_mask(s)
    if calls == 0 or pick_strength(hand, params) >= params[ALONE_THRESHOLD]:
        return A.ALONE
    best, best_value = -1, -(1 << 30)
    m = np.int64(calls)
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        suit = hand & K.SUIT_MASKS[K.EFFECTIVE[c]]
        # fewest cards of the suit (a single hold card), then most points to go on the partner's ace
        value = -64 * popcount(suit) + card_points(suit)
        if value > best_value:
            best, best_value = c, value
    return A.card_action(A.CALL, best)


@nb.njit(cache=True, inline="always")
def choose_under(s):
    """The unknown: his cheapest fail card (its points go to whoever wins the called suit's
    first trick), else his cheapest trump."""
    hand = s[K.HANDS + s[K.TO_ACT]]
    fail = hand & ~TRUMPS
    return _least(fail if fail != 0 else hand, ORDER_DUMP)


# --- card play -------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def known_partner(s, seat, hand):
    """The partner's seat as ``seat`` knows it: -1 while unknown, -2 when the picker is alone."""
    if s[K.OPT_PARTNER] == K.PARTNER_CALLED_ACE:
        if s[K.CALLED] < 0:
            return -2  # he announced alone
        if s[K.REVEALED]:
            return s[K.PARTNER]
        return seat if has(hand, s[K.CALLED]) else -1
    # the jack of diamonds: nobody is told; its fall shows who held it
    if s[K.REVEALED]:
        return s[K.PARTNER]
    if has(s[K.PLAYED], JD):
        return -2  # it fell and revealed nobody: the picker played it
    if seat == s[K.PICKER]:
        return -2 if has(hand | s[K.BURIED], JD) else -1
    return seat if has(hand, JD) else -1


@nb.njit(cache=True, inline="always")
def teams(s, seat, hand):
    """``(friends, foes)`` as seat masks: the seats ``seat`` knows to be on its side, or not."""
    known = known_partner(s, seat, hand) + 2
    return FRIENDS[seat, s[K.PICKER], known], FOES[seat, s[K.PICKER], known]


@nb.njit(cache=True, inline="always")
def _current_trick(s, n):
    """``(slot of its first card, mask of its cards, their points)`` for the current trick of
    ``n`` cards."""
    slot = K.TRICKS + s[K.TRICK_NO] * K.TRICK_SLOTS + 1
    trick = np.int64(0)
    for i in range(PLAYERS - 1):  # a fixed count, so that the loop unrolls; slots past n unused
        trick |= bit(s[slot + i]) if i < n else 0
    return slot, trick, card_points(trick)


@nb.njit(cache=True, inline="always")
def _cash(ranks, unseen_ranks, played):
    """The ORDER_POWER positions among ``ranks`` of the fail cards no unseen card of their suit
    beats, in a suit not led yet or with no trump out."""
    no_trump_out = unseen_ranks & TRUMP_POSITIONS == 0
    cash = np.int64(0)
    for suit in (CLUBS, SPADES, HEARTS):
        if no_trump_out or played & K.SUIT_MASKS[suit] == 0:
            positions = SUIT_POSITIONS[suit]
            cash |= ranks & positions & ~_below_or_at(unseen_ranks & positions)
    return cash


@nb.njit(cache=True, inline="always")
def _lead(s, seat, legal, unseen, friends):
    picker = s[K.PICKER]
    trumps = legal & TRUMPS
    ranks = _ranks(legal, ORDER_POWER)
    unseen_ranks = _ranks(unseen, ORDER_POWER)
    unseen_trumps = unseen_ranks & TRUMP_POSITIONS
    if seat == picker or (friends >> picker) & 1:
        if trumps != 0 and unseen_trumps != 0:
            top = highest_bit(ranks)  # trumps rank above every fail card
            if top > highest_bit(unseen_trumps):
                return ORDER_POWER[4, top]  # pull trumps with the top one
            # else his cheapest trump: it draws the foes' trumps and his side may still take it
            # (a high trump led into a higher one only feeds it)
            return _least(trumps, ORDER_DUMP)
    # a defender: find the partner by leading the called suit
    elif s[K.OPT_PARTNER] == K.PARTNER_CALLED_ACE and s[K.CALLED] >= 0 and s[K.CALLED_SUIT_LED] == 0:
        suit = legal & K.SUIT_MASKS[K.EFFECTIVE[s[K.CALLED]]]
        if suit != 0:
            return _least(suit, ORDER_DUMP)
    # both sides: cash, then every trump left wins, then lead fail
    cash = _cash(ranks, unseen_ranks, s[K.PLAYED])  # only here: most leads above need no cash
    if cash != 0:
        return ORDER_POWER[4, highest_bit(cash)]
    if trumps != 0 and unseen_trumps == 0:
        return _most(trumps, ORDER_POWER)  # every trump left wins
    fail = legal & ~TRUMPS
    return _least(fail if fail != 0 else legal, ORDER_DUMP)


@nb.njit(cache=True, inline="always")
def _beat_the_picker(s, seat, leader, pos, friends):
    """1 when ``seat`` is a defender who does not know the partner yet and the seat winning the
    trick (at ``pos``) beat the picker's card played before it: he reads it as a fellow defender,
    since the partner does not overtake the picker."""
    picker = s[K.PICKER]
    if seat == picker or friends != 0 or s[K.REVEALED]:
        return 0  # the picker, the partner (his friend is the picker) or teams known
    return 1 if (picker - leader + PLAYERS) % PLAYERS < pos else 0


@nb.njit(cache=True, inline="always")
def _follow(s, seat, legal, unseen, friends, params):
    n = s[K.IN_TRICK]
    leader = s[K.LEADER]
    led = s[K.LED]
    slot, trick, points = _current_trick(s, n)
    pos = K.winning_position(s, n)
    winning = s[slot + pos]
    winner = (leader + pos) % PLAYERS
    to_come = PLAYERS - 1 - n
    wins = legal & K.BEATEN_BY[winning]
    friend = (friends >> winner) & 1 | _beat_the_picker(s, seat, leader, pos, friends)
    if not friend and wins == 0:
        return _least(legal, ORDER_DUMP)  # the commonest case, before any further work
    # every card is safe when nobody after him would take the trick (AFTER[seat, 0] is empty)
    safe = np.int64(-1)
    if AFTER[seat, to_come] & ~friends != 0:
        first_round = led != TRUMP and s[K.PLAYED] & ~trick & K.SUIT_MASKS[led] == 0
        safe = _safe(_ranks(unseen, ORDER_POWER), led, first_round)
    picker = s[K.PICKER]
    picker_side = seat == picker or (friends >> picker) & 1 != 0
    if friend:
        if POWER_BIT[winning] & safe != 0:
            return _most(legal, ORDER_SCHMEAR)  # his trick holds: give him points
        if points >= params[TAKE_POINTS]:
            sure = _ranks(wins, ORDER_POWER) & safe
            if sure != 0:
                return ORDER_POWER[4, lowest_card(sure)]  # it may not hold: take it over, surely
        power_ruffs = wins & TRUMPS & ~LOW_TRUMPS
        if led != TRUMP and not picker_side and (AFTER[seat, to_come] >> picker) & 1 != 0 and power_ruffs != 0:
            # a fellow defender's fail trick that the picker, still to play, may ruff: ruff it
            # first with the cheapest jack or queen, so that he must spend a higher one to take
            # it and the defenders after can schmear onto it
            return _least(power_ruffs, ORDER_POWER)
        return _least(legal, ORDER_DUMP)  # never overtake a friend otherwise
    win_ranks = _ranks(wins, ORDER_POWER)
    sure = win_ranks & safe
    # the picker's side keeps its jacks and queens to draw trumps: a fail trick worth less than
    # take_points is not worth one, even if the card thrown instead carries points
    keep_power = led != TRUMP and points < params[TAKE_POINTS] and picker_side
    if sure != 0:
        c = ORDER_POWER[4, lowest_card(sure)]
        if TRUMP_RANK[c] >= JACK_RANK:
            throw = _least(legal, ORDER_DUMP)
            if keep_power or to_come == 0 and points == 0 and K.POINTS[throw] == 0:
                return throw  # the trick is not worth a power trump
        if to_come == 0 and wins & LOW_TRUMPS != 0:
            return _most(wins & LOW_TRUMPS, ORDER_SCHMEAR)  # the last seat takes it with AD, TD first
        return c
    if points >= params[TAKE_POINTS]:
        return ORDER_POWER[4, highest_bit(win_ranks)]  # worth a try with the best card
    ruffs = wins & TRUMPS
    if led != TRUMP and ruffs != 0:
        # void in the fail suit led: trump in rather than let a foe take it cheaply; with a point
        # trump (AD first), else (a defender) the lowest power trump that wins
        if ruffs & LOW_TRUMPS != 0:
            return _most(ruffs & LOW_TRUMPS, ORDER_POWER)
        if not keep_power:
            return _least(ruffs, ORDER_POWER)
    return _least(legal, ORDER_DUMP)


@nb.njit(cache=True, inline="always")
def leaster_play(s, seat, legal):
    """Leaster: the fewest points among those who took a trick wins; take one cheap trick."""
    n = s[K.IN_TRICK]
    if n == 0:
        return _least(legal, ORDER_SHED)  # lead the card least likely to win
    slot, _, points = _current_trick(s, n)
    pos = K.winning_position(s, n)
    wins = legal & K.BEATEN_BY[s[slot + pos]]
    ducks = legal & ~wins
    if (n == PLAYERS - 1 and points == 0 and s[K.TRICKS_WON + seat] == 0
            and s[K.TRICK_NO] < K.NUM_TRICKS - 1 and wins & ZERO_POINT_CARDS != 0):
        return _most(wins & ZERO_POINT_CARDS, ORDER_POWER)  # a pointless trick to qualify
    if ducks != 0:
        return _most(ducks, ORDER_SHED)  # points and high cards onto another seat's trick
    if n == PLAYERS - 1:
        return _least(wins, ORDER_TAKE)
    return _least(wins, ORDER_POWER)  # the lowest winner: a later seat may still take it


@nb.njit(cache=True, inline="always")
def choose_play(s, params):
    """The card the seat to act plays."""
    seat = s[K.TO_ACT]
    hand = s[K.HANDS + seat]
    if s[K.TRICK_NO] == K.NUM_TRICKS - 1:  # one card left: the last of his hand, else the unknown
        return lowest_card(hand) if hand != 0 else s[K.UNKNOWN]
    if s[K.IN_TRICK] != 0:
        suit = hand & K.SUIT_MASKS[s[K.LED]]
        if suit & (suit - 1) == 0 and suit != 0:
            # his one card of the suit led: play_mask only restricts a hold or called card of another
            # suit, and gives the unknown only to a picker void in the suit led
            return lowest_card(suit)
    legal = K.play_mask(s, seat)
    if legal & (legal - 1) == 0:
        return lowest_card(legal)
    picker = s[K.PICKER]
    if picker < 0:
        return leaster_play(s, seat, legal)
    unseen = K.DECK_MASK & ~s[K.PLAYED] & ~hand
    if seat == picker:
        unseen &= ~s[K.BURIED]
        if s[K.UNKNOWN] >= 0:
            unseen &= ~bit(s[K.UNKNOWN])
    friends, _ = teams(s, seat, hand)
    if s[K.IN_TRICK] == 0:
        return _lead(s, seat, legal, unseen, friends)
    return _follow(s, seat, legal, unseen, friends, params)


# --- the agent ---------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def act_borrowed(s, params, rng):
    """``act`` for borrowed ``s`` and ``params``: inlined into the batch loop, it costs no call."""
    phase = s[K.PHASE]
    if phase == K.PLAYING:
        return A.card_action(A.PLAY, choose_play(s, params))
    if phase == K.PICKING:
        return choose_pick(s, params)
    if phase == K.BURYING:
        return A.card_action(A.BURY, choose_bury(s, params))
    if phase == K.CALLING:
        return choose_call(s, params)
    return A.card_action(A.UNDER, choose_under(s))


@nb.njit(cache=True)
def act(s, params, rng):
    """The action id the heuristic chooses for the seat to act, s[TO_ACT] (always legal)."""
    # borrowed views: the functions inlined below then count no references (~10% faster)
    return act_borrowed(borrow(s), borrow(params.view(np.int64)).view(np.float64), rng)


@nb.njit(cache=True, inline="always")
def record_features(s, dealt, out, i, column):
    """Write len(FEATURES) int64 values to out[i, column:column + len(FEATURES)] for the finished hand s;
    dealt[p] is seat p's hand as dealt (before any blind, kitty, widow, draw or discard)."""
    picker = s[K.PICKER]
    if picker < 0:
        for k in range(7):
            out[i, column + k] = -1
    else:
        hand = dealt[picker]
        run = 0
        while run < 14 and has(hand, TRUMP_ORDER[run]):
            run += 1
        out[i, column] = popcount(hand & TRUMPS)
        out[i, column + 1] = run
        out[i, column + 2] = popcount(hand & QUEENS)
        out[i, column + 3] = popcount(hand & JACKS)
        out[i, column + 4] = popcount(hand & FAIL_ACES)
        out[i, column + 5] = _voids(hand)
        out[i, column + 6] = card_points(hand)
    for p in range(PLAYERS):
        out[i, column + 7 + p] = popcount(dealt[p] & TRUMPS)
