"""A heuristic Bluke agent (docs/rules.md, Bluke): bid the tricks the hand should take, then
play to take at least that many, as numba kernels for the batch loop.

**Bid.** ``hand_strength`` estimates the tricks of a hand from what the seat sees when
it bids (its hand, the turned card, its seat), as a sum of per-card chances, and their
variance. ``density`` is the chance that a given unseen card is in an opponent's hand
(most of the deck stays undealt in short hands or with few players); a dealt higher
card falls on ours with chance ``q = density * cover``.

* HJ: 1 (it takes any trick it is in). LJ: 1 if HJ is ours or turned, else
  ``1 - density * low_bluke_risk``.
* A trump with h higher unseen trumps and j of ours above it: P(at most j of the h fall
  on it) (binomial: length protects), scaled by ``trump_value`` when h > 0.
* A side card (every suit with no trump) with h higher unseen cards and k of ours above
  it: it can win on round k + 1 of its suit; ``(1 - q) ** h`` that no higher card falls
  on it, times the chance that no opponent then out of the suit (holding <= k of it)
  ruffs with a trump or a bluke; scaled by ``ace_value`` (h = 0) or ``king_value``.
* ``void_value`` per void side suit (pro rata of the hand size: a void only pays when
  the suit is led), for as many voids as there are trumps too low to count on their own.
* ``position_value``: the dealer plays last to the first trick and eldest leads blind;
  the seat's share of that, pro rata of the hand size.

``choose_bid`` lowers the estimate by ``crowd_adjust`` for each trick the bids so far,
this estimate and an even share for the seats still to bid claim beyond the hand size,
and (``min_bid = 0``) raises it by ``zero_gift`` for each zero bid made so far (a zero
bidder ducks: the tricks his cards would take go to the other seats), then bids the
legal bid with the best mean score (``expected_score``: the engine's ``bid_score`` over
the tricks taken, normal about the estimate with its standard deviation): a miss costs
10 a trick bid and an extra trick scores only 1, so the bid sits below the estimate, the
more so the less sure the hand. It bids at least the sure tricks (HJ; LJ when HJ is out
of play; with both blukes out of play, the trumps no unseen trump beats) and at least 1,
or 0 (when ``min_bid = 0``) below ``zero_threshold`` with no sure trick; under ``hook``
the dealer's barred bid is not among the legal bids, so he takes the neighbour worth
more.

**Play**, aiming at the seat's own bid:

* Short of the bid: win the trick with the cheapest card that wins it now when last to
  play; before that, the cheapest that likely holds the trick (``_hold_chance``: the
  higher cards of the suit led and the blukes the later seats may hold, their trumps
  when out of the suit, known voids read), and when none does a thrown-away card, unless
  every trick left is needed (then the likeliest). A bluke wins
  only tricks no other card can, and only when sure to hold (HJ; LJ when last to play or
  HJ is gone), or when every trick left is needed: a trick taken with a bluke instead
  of a losing card keeps that card for a later trick. While ``bluke_patience`` (fewer than 4
  players: pro rata of the other seats) or more of the tricks left are not needed, a bluke waits
  instead of taking a trick held by a card that an unseen card of its suit beats (not a
  top card): it is better spent on a top card, whose trick its holder would take anyway.
  Cards that cannot win: the lowest side card, from the suit the hand is shortest in.
  Leads: while an unseen bluke is likely (above ``bluke_fear``) in another hand, no top
  card (its holder would spend the bluke on it: keep it to follow with); else a side
  suit's top card (no unseen card of its suit beats it) unless a seat that showed a void
  in it could ruff, the top trump (it pulls trumps); when every trick left is needed, HJ,
  a sure LJ, else the card fewest unseen cards beat; at a table of more than four, holding a
  trump for every ``trump_lead`` cards of the largest hand, the lowest trump; else a low side
  card, from the shortest side suit while holding trumps (to ruff it later).
* Bid made: ``overtricks`` = 1 plays on as above (each extra trick scores 1 and may set
  a seat that needs it); 0 ducks like a zero bid.
* Zero bid, not yet taken a trick: duck: the highest card that does not win; when every
  legal card wins, the highest (a bluke first) when last to play, else the lowest; lead
  the card most unseen cards beat.
* A bid that cannot be made any more (more tricks needed than left, or a zero bid that
  took one) scores the same whatever happens: play on to take tricks and set others.

**Knowledge.** The agent reads only what the seat to act may know: its own hand
(``HANDS + seat``), ``TURNED``, ``TRUMP``, ``PHASE``, ``TO_ACT``, ``DEALER``, ``NUM_PLAYERS``,
``HAND_SIZE``, ``TRICK_NO``, ``IN_TRICK``, ``PLAYED``, ``BIDS``, ``BIDS_MADE``,
``BID_TOTAL``, ``TAKEN``, the options (through ``bid_mask`` and ``play_mask`` too) and the
trick slots ``TRICKS``, from which it derives who showed a void. Never another hand or
``REST``. ``rng`` is unused: the agent is deterministic.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from ..cards import HIGH_JOKER, LOW_JOKER
from ..sim import actions as A
from ..sim import bluke as K
from ..sim.kernels import (
    bit,
    has,
    highest_bit,
    lowest_card,
    popcount,
    trick_power,
)

PARAMS = (
    ("ace_value", 0.95, "scale of a side card no unseen card of its suit beats"),
    ("king_value", 0.85, "scale of a side card with higher unseen cards of its suit"),
    ("trump_value", 0.85, "scale of a trump with higher unseen trumps"),
    ("void_value", 0.45, "tricks per void side suit in a 13-card hand (pro rata), with spare trumps"),
    ("cover", 0.5, "chance that a dealt higher card is played on ours"),
    ("low_bluke_risk", 0.0, "LJ loses this share of the chance that HJ is dealt to another"),
    ("position_value", 0.3, "tricks the dealer gains over eldest in a 13-card hand (pro rata)"),
    ("crowd_adjust", 0.15, "estimate lowered per trick the table's bids would claim beyond the hand"),
    ("zero_threshold", 0.85, "with min_bid 0: bid zero below this estimate (no sure trick)"),
    ("zero_gift", 0.3, "with min_bid 0: tricks each zero bid already made adds (13 cards, 4 players; pro rata)"),
    ("overtricks", 1.0, "once the bid is made: 1 keeps taking tricks (+1 each), 0 ducks"),
    ("urgency_slack", 0.0, "play every trick to win once tricks needed >= tricks left - slack"),
    ("hold_min", 0.3, "not last to play, 4 players: win only with a card at least this likely to hold the trick"),
    ("hold_crowd", 2.0, "more than 4 players: the hold_min bar falls as (3 / other seats) to this power (4 or fewer: 1)"),
    ("bluke_fear", 0.3, "lead no top card while an unseen bluke is more likely than this to be in another hand"),
    ("bluke_patience", 4.0, "keep a bluke back while this many tricks left are not needed (fewer than 4 players: "
                            "pro rata of the other seats)"),
    ("trump_lead", 3.0, "more than 4 players, short of the bid with tricks to spare: lead the lowest trump "
                        "holding a trump for every this many cards of the table's largest hand (4 trumps at 5 "
                        "players, 3 at 6 and 7, 2 from 8 on; it draws the trumps that would ruff the side cards; "
                        "0 never)"),
)
(ACE_VALUE, KING_VALUE, TRUMP_VALUE, VOID_VALUE, COVER, LOW_BLUKE_RISK, POSITION_VALUE,
 CROWD_ADJUST, ZERO_THRESHOLD, ZERO_GIFT, OVERTRICKS, URGENCY_SLACK, HOLD_MIN, HOLD_CROWD, BLUKE_FEAR,
 BLUKE_PATIENCE, TRUMP_LEAD) = range(len(PARAMS))
DEFAULTS = np.array([default for _, default, _ in PARAMS], dtype=np.float64)

FEATURES = tuple(f"trumps_{p}" for p in range(K.MAX_PLAYERS)) + tuple(
    f"sure_tricks_x10_{p}" for p in range(K.MAX_PLAYERS)
)
"""Per seat (-1 for absent seats): the trumps dealt (0 with no trump) and the expected
tricks ``hand_strength`` gives the dealt hand at the DEFAULTS, in tenths of a trick, at
most 127 (the batch loop stores features as int8)."""

# --- tables (docs/rules.md, Bluke: Players, deck and ranks) --------------------------------------

HJ, LJ = HIGH_JOKER, LOW_JOKER
BLUKE_MASK = K.BLUKE_MASK


@nb.njit(cache=True, inline="always")
def _ipow(x, k):
    """x ** k for a small int k >= 0."""
    r = 1.0
    for _ in range(k):
        r *= x
    return r


@nb.njit(cache=True, inline="always")
def _at_most(h, q, j):
    """P(X <= j) for X ~ Binomial(h, q)."""
    q = min(q, 0.999)
    return _binomial_at_most(h, 1.0 - q, q / (1.0 - q), j)


INVERSES = 1.0 / np.arange(1, 64)  # INVERSES[i] = 1 / (i + 1): a product where a division is slow


@nb.njit(cache=True, inline="always")
def _binomial_at_most(h, miss, odds, j):
    """``_at_most`` from the chance ``miss = 1 - q`` and the odds ``q / (1 - q)`` (q <= 0.999),
    taken once for many calls."""
    if j >= h:
        return 1.0
    term = _ipow(miss, h)
    total = term
    for i in range(j):
        term *= (h - i) * INVERSES[i] * odds
        total += term
    return total


def _holding_tables():
    """For a hand of ``size`` cards seen at bidding time (53 - size cards unseen), an
    opponent's hand is ``size`` draws from them, taken as independent:
    HOLDS_AT_MOST[size, u, k] = P(he holds <= k of ``u`` unseen cards of a suit);
    HOLDS_ANY[size, r] = P(he holds at least one of ``r`` unseen ruffing cards)."""
    at_most = np.zeros((K.MAX_HAND + 1, 14, K.MAX_HAND + 1), dtype=np.float64)
    any_of = np.zeros((K.MAX_HAND + 1, 16), dtype=np.float64)
    for size in range(1, K.MAX_HAND + 1):
        unseen = 53 - size
        for u in range(14):
            for k in range(K.MAX_HAND + 1):
                at_most[size, u, k] = _at_most(size, u / unseen, k)
        for r in range(16):
            any_of[size, r] = 1 - (1 - r / unseen) ** size
    return at_most, any_of


@nb.njit(cache=True, inline="always")
def _density_and_miss(players, size, n_unseen, cover):
    """At bidding time, the share of the ``n_unseen`` cards the other hands hold, and ``miss``:
    the chance that a given unseen card does not fall on a given card of ours (``cover`` of the
    cards in the other hands would)."""
    density = min(1.0, (players - 1) * size / n_unseen)
    return density, 1.0 - min(density * cover, 0.999)


def _kept_table():
    """KEPT[players, size, h] = (1 - q) ** h at the default ``cover``, q as ``hand_strength``
    takes it at bidding time (53 - size cards unseen): the chance that none of h unseen cards
    falls on a card. Taken card by card (an exp, or a loop of products) the power took half of
    ``hand_strength``'s time on fresh hands."""
    kept = np.ones((K.MAX_PLAYERS + 1, K.MAX_HAND + 1, K.MAX_HAND + 1), dtype=np.float64)
    for players in range(K.MIN_PLAYERS, K.MAX_PLAYERS + 1):
        for size in range(1, K.MAX_HAND + 1):
            miss = _density_and_miss(players, size, 53 - size, DEFAULTS[COVER])[1]
            for h in range(K.MAX_HAND + 1):
                kept[players, size, h] = miss ** h
    return kept


BEATERS = K.BEATEN_BY & ~BLUKE_MASK  # BEATERS[t, c]: the suited cards that beat a winning c, trump row t
# HIGHER[c]: the cards of c's suit that outrank it (HJ above LJ): with no trump, what beats it, less the blukes
HIGHER = np.where(K.EFFECTIVE[K.NO_TRUMP] == K.BLUKES, K.BEATEN_BY[K.NO_TRUMP], BEATERS[K.NO_TRUMP])
HOLDS_AT_MOST, HOLDS_ANY = _holding_tables()
KEPT = _kept_table()
NO_TRUMP = K.NO_TRUMP
MODE_NEED, MODE_TAKE, MODE_DUCK = range(3)  # play to win / keep winning / avoid tricks

# --- hand strength (the bid) ---------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def _add(e, var, p):
    """A card taking a trick with chance ``p``: the sum and variance of the hand's tricks."""
    return e + p, var + p * (1.0 - p)


@nb.njit(cache=True)
def hand_strength(hand, trump, turned, players, size, position, params):
    """Expected tricks of ``hand`` seen at bidding time and their variance (the cards taken
    as independent), for the seat ``position`` places after eldest (the dealer: players - 1);
    module docstring, Bid."""
    unseen = K.DECK_MASK & ~hand & ~bit(turned)
    n_unseen = popcount(unseen)
    density, miss = _density_and_miss(players, size, n_unseen, params[COVER])
    e, var = 0.0, 0.0
    if has(hand, HJ):
        e += 1.0
    if has(hand, LJ):
        e, var = _add(e, var, 1.0 - density * params[LOW_BLUKE_RISK] if has(unseen, HJ) else 1.0)
    # an opponent ruffs a side card when out of its suit and holding a trump or a bluke
    ruffers = unseen & (BLUKE_MASK | (K.SUIT_MASKS[trump, trump] if trump < 4 else 0))
    p_ruffer = HOLDS_ANY[size, popcount(ruffers)]
    odds = (1.0 - miss) / miss
    tabled = n_unseen == 53 - size and params[COVER] == DEFAULTS[COVER]  # KEPT holds the powers
    voids = 0
    for suit in range(4):
        voids += suit != trump and hand & K.SUIT_MASKS[4, suit] == 0
    spare = 0  # trumps too low to count as a trick: they ruff voids
    # one pass over the hand's cards, in the order of the suits: on a fresh hand each branch
    # the processor guesses wrong costs more than the arithmetic
    m = hand & ~BLUKE_MASK
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        suit = c // 13
        above = popcount(hand & HIGHER[c])  # the cards of its suit held above it
        h = popcount(unseen & HIGHER[c])  # ... and unseen
        if suit == trump:  # the trumps held above protect it
            p = _binomial_at_most(h, miss, odds, above)
            e, var = _add(e, var, p if h == 0 else p * params[TRUMP_VALUE])
            spare += p < 0.5
        else:
            # it wins on round above + 1 of the suit at best, if no opponent out of the suit
            # by then (holding <= above cards of it) ruffs and none of the h falls on it
            outside = popcount(unseen & K.SUIT_MASKS[4, suit])
            no_ruff = _ipow(1.0 - HOLDS_AT_MOST[size, outside, above] * p_ruffer, players - 1)
            scale = params[ACE_VALUE] if h == 0 else params[KING_VALUE]
            kept = KEPT[players, size, h] if tabled else _ipow(miss, h)
            e, var = _add(e, var, min(1.0, scale * kept * no_ruff))
    if trump < 4:
        e += params[VOID_VALUE] * size / K.MAX_HAND * min(voids, spare)
    # playing after the others pays in long hands (eldest leads blind)
    e += params[POSITION_VALUE] * size / K.MAX_HAND * (position / (players - 1) - 0.5)
    return max(0.0, min(e, float(size))), var


@nb.njit(cache=True, inline="always")
def seat_position(s, seat):
    """Seats from eldest (0) round to the dealer (players - 1)."""
    p = seat - s[K.DEALER] - 1
    return p + s[K.NUM_PLAYERS] if p < 0 else p


@nb.njit(cache=True, inline="always")
def sure_tricks(hand, unseen, trump):
    """Tricks the hand takes whatever happens: HJ, LJ when HJ cannot beat it and, when no
    bluke can beat them, the trumps no unseen trump beats."""
    sure = 1 if has(hand, HJ) else 0
    if has(hand, LJ) and not has(unseen, HJ):
        sure += 1
    if trump < 4 and unseen & BLUKE_MASK == 0:
        m = hand & K.SUIT_MASKS[trump, trump]
        while m != 0:
            c = lowest_card(m)
            m &= m - 1
            if HIGHER[c] & unseen == 0:
                sure += 1
    return sure


@nb.njit(cache=True, inline="always")
def _normal_above(z, density):
    """P(Z > z) for a standard normal Z, given ``density = exp(-z * z / 2)``: Abramowitz and
    Stegun's 7.1.26 (error under 1e-7), on the exponential the caller already has: math.erfc
    took 4 % of Bluke's heuristic self-play."""
    t = 1.0 / (1.0 + 0.2316419 * abs(z))  # 0.3275911 / sqrt(2): erf's t at x = |z| / sqrt(2)
    tail = 0.5 * density * t * (0.254829592 + t * (-0.284496736 + t * (1.421413741
                                                                     + t * (-1.453152027 + t * 1.061405429))))
    return tail if z >= 0.0 else 1.0 - tail


@nb.njit(cache=True, inline="always")
def expected_score(bid, e, sd):
    """The mean score of ``bid`` >= 1 when the tricks taken are normal with mean ``e`` and
    deviation ``sd`` (continuity-corrected), priced by the engine's ``bid_score``: made,
    missed, and each trick over. Closed form (one exp): it runs at every bid."""
    sd = max(sd, 0.3)
    z = (bid - 0.5 - e) / sd
    density = math.exp(-0.5 * z * z)  # times 1 / sqrt(2 pi): the normal density at z
    p_make = _normal_above(z, density)
    over = max(0.0, sd * 0.3989422804014327 * density + (e - bid) * p_make)  # E[(tricks - bid)+]
    made = K.bid_score(bid, bid)
    return p_make * made + over * (K.bid_score(bid, bid + 1) - made) + (1.0 - p_make) * K.bid_score(bid, bid - 1)


@nb.njit(cache=True, inline="always")
def _score_bound(bid, e, sd):
    """More than ``expected_score(bid, e, sd)`` can be (made: 10 a trick bid; the tricks over:
    at most the estimate's excess over the bid plus 0.4 deviations, the normal density's peak
    0.399 times the deviation), and rising with ``bid``: once it falls under the best score so
    far, neither that bid nor any lower one needs pricing."""
    return 10.0 * bid + max(0.0, e - bid) + 0.4 * max(sd, 0.3) + 1e-6


@nb.njit(cache=True, inline="always")
def _zero_gift(s, params):
    """With ``min_bid = 0``: the tricks the zero bids made so far leave to the other seats. A
    zero bidder ducks, so the tricks his cards would take go to the rest of the table, a share
    of them to this seat (``zero_gift`` in a 13-card hand at 4 players, pro rata of the hand
    size and of the other seats)."""
    if s[K.OPT_MIN_BID] != 0:
        return 0.0
    n = s[K.NUM_PLAYERS]
    zeros = 0
    for p in range(n):
        zeros += s[K.BIDS + p] == 0
    return params[ZERO_GIFT] * zeros * s[K.HAND_SIZE] / K.MAX_HAND * 3.0 / (n - 1)


@nb.njit(cache=True, inline="always")
def choose_bid(s, seat, params):
    """The bid (a number of tricks) for ``seat`` (module docstring, Bid)."""
    n, size = s[K.NUM_PLAYERS], s[K.HAND_SIZE]
    hand = s[K.HANDS + seat]
    e, var = hand_strength(hand, s[K.TRUMP], s[K.TURNED], n, size, seat_position(s, seat), params)
    later = n - 1 - s[K.BIDS_MADE]
    excess = s[K.BID_TOTAL] + e + later * size / n - size  # tricks claimed beyond the hand
    e = max(0.0, e - params[CROWD_ADJUST] * max(0.0, excess))
    e += _zero_gift(s, params)
    sure = sure_tricks(hand, K.DECK_MASK & ~hand & ~bit(s[K.TURNED]), s[K.TRUMP])
    legal = K.bid_mask(s, seat) >> A.BID
    if sure == 0 and e < params[ZERO_THRESHOLD] and legal & 1:
        return 0
    # the legal bid with the best mean score (what a miss costs, 10 a trick bid, against
    # 1 a trick over), the tricks taken normal about the estimate: the hook's barred bid is
    # simply not among them
    sd = np.sqrt(var)
    best, best_value = -1, -1e9
    low = max(sure, 1)
    for cand in range(min(size, max(low, int(e) + 2)), low - 1, -1):  # more than e + 1 never pays
        if best >= 0 and _score_bound(cand, e, sd) < best_value:
            break  # no bid from here down can score more (the bound rises with the bid)
        if (legal >> cand) & 1:
            v = expected_score(cand, e, sd)
            if v >= best_value:  # the lowest of equal bids, as the scan runs down
                best, best_value = cand, v
    if best >= 0:
        return best
    for cand in range(size, -1, -1):  # the hook barred every bid from the sure tricks up
        if (legal >> cand) & 1:
            return cand
    return size


# --- card play -----------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def _cheapest(t, cards):
    """The card of ``cards`` with the lowest power (a side card before a trump)."""
    best, best_power = -1, 1 << 20
    m = cards
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        if K.POWER[t, c] < best_power:
            best, best_power = c, K.POWER[t, c]
    return best


@nb.njit(cache=True, inline="always")
def _dearest(t, cards):
    """The card of ``cards`` with the highest power."""
    best, best_power = -1, -1
    m = cards
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        if K.POWER[t, c] > best_power:
            best, best_power = c, K.POWER[t, c]
    return best


@nb.njit(cache=True, inline="always")
def _threats(t, c, unseen):
    return popcount(BEATERS[t, c] & unseen)


@nb.njit(cache=True, inline="always")
def _safest(t, cards, unseen):
    """The card of ``cards`` (suited) fewest unseen cards beat; the cheapest of those."""
    best, key = -1, 1 << 30
    m = cards
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        k = _threats(t, c, unseen) * 256 + K.POWER[t, c]
        if k < key:
            best, key = c, k
    return best


@nb.njit(cache=True, inline="always")
def _riskiest(t, cards, unseen):
    """The card of ``cards`` (suited) most unseen cards beat; the cheapest of those."""
    best, key = -1, -(1 << 30)
    m = cards
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        k = _threats(t, c, unseen) * 256 - K.POWER[t, c]
        if k > key:
            best, key = c, k
    return best


@nb.njit(cache=True, inline="always")
def _throw_away(t, hand, cards, short_first):
    """The least useful card of ``cards``: a side card before a trump before a bluke, the
    lowest rank, from the suit the hand holds fewest of (towards a void); with
    ``short_first`` the shortest suit before the lowest rank."""
    pool = cards & ~BLUKE_MASK
    if pool == 0:
        return _cheapest(t, cards)
    if t < 4 and pool & ~K.SUIT_MASKS[t, t] != 0:
        pool &= ~K.SUIT_MASKS[t, t]
    best, key = -1, 1 << 30
    m = pool
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        length = popcount(hand & K.SUIT_MASKS[4, c // 13])
        k = length * 16 + c % 13 if short_first else (c % 13) * 16 + length
        if k < key:
            best, key = c, k
    return best


@nb.njit(cache=True, inline="always")
def known_voids(s):
    """Bit ``4 * seat + suit`` for every seat that did not follow a suit it had to follow
    (public: read from the trick slots). A bluke shows nothing, it may always be played."""
    return voids_in(s, 0b1111, s[K.TRICK_NO] + 1)


@nb.njit(cache=True, inline="always")
def voids_in(s, suits, tricks):
    """``known_voids`` for the suits of the bit mask ``suits`` only, read from the first
    ``tricks`` tricks (the current one the last): the tricks led in another suit are skipped
    unread (those led with a bluke are read, a later card may set their suit)."""
    n, t = s[K.NUM_PLAYERS], s[K.TRUMP]
    voids = np.int64(0)
    for trick in range(tricks):
        slot = K.TRICKS + trick * K.TRICK_SLOTS
        count = n if trick < s[K.TRICK_NO] else s[K.IN_TRICK]
        if count == 0:
            break
        seat = s[slot]
        follow = K.suit_led(K.EFFECTIVE[t, s[slot + 1]])
        if follow >= 0 and (suits >> follow) & 1 == 0:
            continue
        for i in range(1, count):
            seat = seat + 1 if seat + 1 < n else 0
            e = K.EFFECTIVE[t, s[slot + 1 + i]]
            if follow < 0:
                if K.sets_suit_later(s, e):
                    follow = e
            elif e != follow and e != K.BLUKES:
                voids |= bit(4 * seat + follow)
    return voids & _suit_bits(suits)


@nb.njit(cache=True, inline="always")
def _suit_bits(suits):
    """The bits ``4 * seat + suit`` of every seat for the suits of the bit mask ``suits``."""
    return (suits & 0b1111) * np.int64(0x1111111111)


@nb.njit(cache=True, inline="always")
def _hold_chance(s, c, led, unseen, later):
    """The chance that ``c``, winning the current trick now, still wins it once the seats
    after this one have played: each unseen card is taken as in a given hand with the
    share of the unseen cards that hand holds (the rest are undealt). A beater of the
    suit led (or a bluke) falls on it whenever held; any other beater (a trump on a side
    suit) only from a seat out of the suit led, known void or holding none of its unseen
    cards. ``later`` is ``_later_seats``: what the card does not change."""
    voids, x, p_none_led, bluke_kept = later
    t = s[K.TRUMP]
    beaters = BEATERS[t, c] & unseen
    if led != K.BLUKES:
        beaters |= unseen & BLUKE_MASK
    suit_led = K.SUIT_MASKS[t, led] if led != K.BLUKES else BLUKE_MASK
    always = popcount(beaters & (suit_led | BLUKE_MASK))
    ruffs = popcount(beaters & ~suit_led & ~BLUKE_MASK)
    if always + ruffs == 0:
        return 1.0
    kept = _ipow(x, always)  # a later seat holds none of the beaters that always fall on it
    ruffed = 1.0 - _ipow(x, ruffs)  # ... some trump that beats it
    hold = 1.0
    for i in range(s[K.NUM_PLAYERS] - 1 - s[K.IN_TRICK]):  # the seats in play order
        void = (voids >> i) & 1 != 0
        hold *= bluke_kept if void else kept
        if ruffs > 0:
            hold *= 1.0 - (1.0 if void else p_none_led) * ruffed
    return hold


@nb.njit(cache=True, inline="always")
def _later_seats(s, led, unseen):
    """What ``_hold_chance`` reads that no card of this seat changes: bit i set when the i-th
    seat still to play showed a void in the suit led, the chance ``x`` that a given unseen card
    is not in a given later hand (1 - its share of the unseen cards), the chance that it holds
    none of the suit led, and none of the unseen blukes."""
    n = s[K.NUM_PLAYERS]
    x = 1.0 - (s[K.HAND_SIZE] - s[K.TRICK_NO]) / max(1, popcount(unseen))  # none unseen: no beater, x unread
    suit_led = K.SUIT_MASKS[s[K.TRUMP], led] if led != K.BLUKES else BLUKE_MASK
    voids = np.int64(0)
    if led != K.BLUKES:
        shown = voids_in(s, 1 << led, s[K.TRICK_NO])  # the finished tricks: the current one shows no later seat's
        seat = s[K.TO_ACT]
        for i in range(n - 1 - s[K.IN_TRICK]):
            seat = seat + 1 if seat + 1 < n else 0
            voids |= ((shown >> (4 * seat + led)) & 1) << i
    return voids, x, _ipow(x, popcount(unseen & suit_led)), _ipow(x, popcount(unseen & BLUKE_MASK))


@nb.njit(cache=True, inline="always")
def _bluke_out_chance(s, unseen):
    """The chance that another seat holds an unseen bluke (each unseen card in a hand with the
    share of the unseen cards the other hands hold; the rest are undealt)."""
    out = popcount(unseen & BLUKE_MASK)
    if out == 0:
        return 0.0
    f = min(1.0, (s[K.NUM_PLAYERS] - 1) * (s[K.HAND_SIZE] - s[K.TRICK_NO]) / popcount(unseen))
    return 1.0 - _ipow(1.0 - f, out)


@nb.njit(cache=True, inline="always")
def _top_lead(s, seat, suited, trumps, unseen):
    """A card no unseen card of its suit beats, to lead: a side suit's top card first, before a
    void shows up and it gets ruffed (not into a seat that showed a void in it while trumps are
    out), then the top trump (it pulls trumps); -1 if none."""
    t = s[K.TRUMP]
    voids = np.int64(-1)
    for suit in range(4):
        m = suited & K.SUIT_MASKS[4, suit]
        if suit == t or m == 0:
            continue
        c = highest_bit(m)  # its top card: the ranks rise with the card index
        if HIGHER[c] & unseen != 0:
            continue
        if t == NO_TRUMP or unseen & K.SUIT_MASKS[t, t] == 0:
            return c
        if voids < 0:
            voids = known_voids(s)
        shown = False  # another seat known to be out of the suit may ruff
        for p in range(s[K.NUM_PLAYERS]):
            shown |= p != seat and (voids >> (4 * p + suit)) & 1 != 0
        if not shown:
            return c
    if trumps != 0:
        c = highest_bit(trumps)
        if HIGHER[c] & unseen == 0:
            return c
    return -1


@nb.njit(cache=True, inline="always")
def _lead(s, seat, hand, unseen, mode, urgent, params):
    t = s[K.TRUMP]
    suited = hand & ~BLUKE_MASK
    if suited == 0:
        return _cheapest(t, hand)  # blukes only: LJ first
    if mode == MODE_DUCK:
        return _riskiest(t, suited, unseen)
    trumps = suited & K.SUIT_MASKS[t, t] if t < 4 else np.int64(0)
    # a top card led into an unseen bluke is the trick its holder takes with it (he spends it on
    # a trick nothing else of his wins): keep it to follow with, or for when the blukes are out
    if _bluke_out_chance(s, unseen) <= params[BLUKE_FEAR]:
        c = _top_lead(s, seat, suited, trumps, unseen)
        if c >= 0:
            return c
    if urgent:  # every trick left is needed: the surest card, blukes first
        if has(hand, HJ):
            return HJ
        if has(hand, LJ) and not has(unseen, HJ):
            return LJ
        return _safest(t, suited, unseen)
    side = suited & ~trumps
    if side == 0:
        return _cheapest(t, suited)
    n = s[K.NUM_PLAYERS]
    if mode == MODE_NEED and n > 4 and params[TRUMP_LEAD] > 0:
        # at a big table side suits run short fast and get ruffed: trumps drawn early ruff fewer of
        # its side cards later (measured: +0.03 to +0.04 a deal at 5 to 10 players; at 4, a loss)
        if popcount(trumps) * params[TRUMP_LEAD] >= K.HAND_SIZES[n, 0]:  # a match's first hand
            return _cheapest(t, trumps)
    return _throw_away(t, hand, side, trumps != 0)  # holding trumps: make a void to ruff


@nb.njit(cache=True, inline="always")
def _first_holding(s, of_led, trumps, led, unseen, later, bar):
    """The cheapest of the winners ``of_led`` (of the suit led) and ``trumps`` at least ``bar``
    likely to hold the trick (``_hold_chance``), in rising power: the suit led, then trumps,
    each from its lowest rank; -1 if none."""
    for part in range(2):
        m = of_led if part == 0 else trumps
        while m != 0:
            c = lowest_card(m)
            m &= m - 1
            if _hold_chance(s, c, led, unseen, later) >= bar:
                return c
    return -1


@nb.njit(cache=True, inline="always")
def _likely_winner(s, hand, legal, plain, led, unseen, urgent, params):
    """Not last to play, holding suited cards that win the trick now: the cheapest that
    likely holds it (``_hold_chance`` at least ``hold_min * 3 / (players - 1)``, to the power
    ``hold_crowd`` beyond four players); if none does, the likeliest when every trick left is
    needed, else a card thrown away (a card beaten later is wasted; it may win a later trick)."""
    t = s[K.TRUMP]
    # a card kept back wins a later trick less often the more seats there are to beat it:
    # the bar falls with the other seats (measured: 4 players 0.3, 3 players 0.45, 6 players 0.11,
    # where 0.18 lost 0.05 a deal), faster beyond four (only there a pow call at every decision)
    n = s[K.NUM_PLAYERS]
    share = 3.0 / (n - 1)
    if n > 4:
        share **= params[HOLD_CROWD]
    bar = params[HOLD_MIN] * share
    of_led = plain & K.SUIT_MASKS[t, led]
    trumps = plain & ~of_led
    cheapest = lowest_card(of_led) if of_led != 0 else lowest_card(trumps)
    later = _later_seats(s, led, unseen)  # here, next to its first use: measured 2 % faster than at the top
    hold = _hold_chance(s, cheapest, led, unseen, later)
    if hold >= bar:
        return cheapest
    # a dearer winner is beaten by a subset of the cards that beat a cheaper one, so it holds
    # at least as often: the dearest tells whether any winner clears the bar, and its chance
    # is the likeliest's
    top = highest_bit(trumps) if trumps != 0 else highest_bit(of_led)
    if top != cheapest:
        hold = _hold_chance(s, top, led, unseen, later)
        if hold >= bar:
            others = ~bit(cheapest)
            return _first_holding(s, of_led & others, trumps & others, led, unseen, later, bar)
    if urgent or legal & ~plain & ~BLUKE_MASK == 0:
        return _first_holding(s, of_led, trumps, led, unseen, later, hold)  # the cheapest of the likeliest
    return _throw_away(t, hand, legal & ~plain, False)


@nb.njit(cache=True, inline="always")
def _bluke_waits(s, winning, unseen, params):
    """Whether to keep a bluke back rather than take with it a trick that ``winning`` holds now,
    while ``bluke_patience`` or more of the tricks left are not needed (fewer than four players:
    ``bluke_patience * (players - 1) / 3``): a card of its suit still unseen beats ``winning``, so
    the trick is not one of its holder's sure ones; a bluke kept for a top card (or for the last
    tricks) takes a trick another seat's card would win anyway, and the cards of ours that trick
    would have beaten win later. (Raised with the seats beyond four, the bar kept the bluke back
    almost never in a six-player hand of eight cards, and the card-play gap to PIMC was half as
    wide again: BENCHMARKS.md.)"""
    seat = s[K.TO_ACT]
    spare = s[K.HAND_SIZE] - s[K.TRICK_NO] - max(0, s[K.BIDS + seat] - s[K.TAKEN + seat])
    return (spare >= params[BLUKE_PATIENCE] * min(1.0, (s[K.NUM_PLAYERS] - 1) / 3.0)
            and winning < LJ and HIGHER[winning] & unseen != 0)


@nb.njit(cache=True, inline="always")
def _follow(s, hand, legal, unseen, mode, urgent, params):
    t, n = s[K.TRUMP], s[K.NUM_PLAYERS]
    slot = K.TRICKS + s[K.TRICK_NO] * K.TRICK_SLOTS
    count = s[K.IN_TRICK]
    led = K.EFFECTIVE[t, s[slot + 1]]
    best, winning = -1, -1
    for i in range(count):
        c = s[slot + 1 + i]
        p = trick_power(c, led, K.EFFECTIVE[t], K.POWER[t])
        if p > best:
            best, winning = p, c
    winners = legal & K.BEATEN_BY[t, winning]
    last = count == n - 1
    if mode == MODE_DUCK:
        losers = legal & ~winners
        if losers != 0:
            return _dearest(t, losers)
        return _dearest(t, legal) if last else _cheapest(t, legal)
    plain = winners & ~BLUKE_MASK
    if plain != 0:
        if last:
            return _cheapest(t, plain)
        return _likely_winner(s, hand, legal, plain, led, unseen, urgent, params)
    if winners != 0 and not urgent and _bluke_waits(s, winning, unseen, params):
        winners = 0  # only a bluke wins, and it waits for a better trick: throw a card away
    if winners != 0:  # only a bluke wins: play it if it is sure to hold
        if has(winners, HJ) and not (has(winners, LJ) and (last or not has(unseen, HJ))):
            return HJ
        if last or urgent or not has(unseen, HJ):
            return LJ
    return _throw_away(t, hand, legal, False)


@nb.njit(cache=True, inline="always")
def choose_card(s, seat, params):
    """The card ``seat`` plays now (module docstring, Play)."""
    legal = K.play_mask(s, seat)
    if legal & (legal - 1) == 0:
        return lowest_card(legal)
    hand = s[K.HANDS + seat]
    unseen = K.DECK_MASK & ~hand & ~s[K.PLAYED] & ~bit(s[K.TURNED])
    left = s[K.HAND_SIZE] - s[K.TRICK_NO]
    bid, took = s[K.BIDS + seat], s[K.TAKEN + seat]
    need = bid - took
    if bid == 0:
        mode = MODE_DUCK if took == 0 else MODE_TAKE
    elif need <= 0:
        mode = MODE_TAKE if params[OVERTRICKS] >= 0.5 else MODE_DUCK
    else:
        mode = MODE_NEED  # also when it can no longer be made: take tricks to set others
    urgent = mode == MODE_NEED and need >= left - params[URGENCY_SLACK]
    if s[K.IN_TRICK] == 0:
        return _lead(s, seat, hand, unseen, mode, urgent, params)
    return _follow(s, hand, legal, unseen, mode, urgent, params)


@nb.njit(cache=True)
def act(s, params, rng):
    """The action id the heuristic chooses for the seat to act, s[TO_ACT] (always legal)."""
    seat = s[K.TO_ACT]
    if s[K.PHASE] == K.BIDDING:
        return A.BID + choose_bid(s, seat, params)
    return A.card_action(A.PLAY, choose_card(s, seat, params))


# --- batch play ----------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def record_features(s, dealt, out, i, column):
    """Write len(FEATURES) int64 values to out[i, column:column + len(FEATURES)] for the finished hand s;
    dealt[p] is seat p's hand as dealt (before any blind, kitty, widow, draw or discard)."""
    n, t = s[K.NUM_PLAYERS], s[K.TRUMP]
    for p in range(K.MAX_PLAYERS):
        if p < n:
            out[i, column + p] = popcount(dealt[p] & K.SUIT_MASKS[t, t]) if t < 4 else 0
            e = hand_strength(dealt[p], t, s[K.TURNED], n, s[K.HAND_SIZE], seat_position(s, p), DEFAULTS)[0]
            out[i, column + K.MAX_PLAYERS + p] = min(127, int(round(10.0 * e)))
        else:
            out[i, column + p] = -1
            out[i, column + K.MAX_PLAYERS + p] = -1
