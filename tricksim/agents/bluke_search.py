"""Bluke's search hooks (docs/rules.md, Bluke): the world sampler and the solver's keys, tallies and
card merging, for the generic solver, PIMC and ISMCTS (``agents.family`` dispatches to them).

**What a seat knows** (``Bluke.observe`` / ``envs.obs_bluke``), which ``sample`` keeps and nothing
more: its own hand; the turned card (public, out of play); every card played, by whom and in
which trick (the trick history and the current trick are public); each seat's hand size
(the hand size less the cards it played) and the size of the undealt rest; the bids.
Everything else (the other hands and the undealt rest under the turned card) is re-dealt.

**Knowledge rules the sampler enforces**

* Shown voids: a seat that played a suited card of another suit to a trick whose suit to
  follow was set holds no card of that suit now (``agents.bluke.known_voids``, read from the
  public trick slots; that kernel is the one definition of it).
* A bluke shows nothing: it may be played at any time instead of following (docs/rules.md, Bluke: Play).
* A bluke lead sets no suit: with ``bluke_lead = free`` nobody has to follow anything in that
  trick, so nothing is shown; with ``next_sets_suit`` the first non-bluke card sets the suit
  (that card itself shows nothing) and the later players who did not follow it are void.
* The lead shows nothing. Trumps follow the same rule as every suit (no trumping exception in
  Bluke), so a trump played on another suit led shows a void in that suit, like any discard.
* The undealt rest is out of play and hidden from everyone: it takes any unseen card.
* Bids are NOT used as evidence: a world is drawn from the hard constraints alone.

**How a world is drawn.** The unseen cards are dealt at random into the other seats' hands
(their current sizes) and the rest (its size); a deal that gives a seat a card of a suit it
showed void in is rejected and dealt again, up to ``MAX_TRIES`` times, which makes the
world exactly uniform over the consistent deals (the seats with the most voids are dealt
first, so a bad try stops early; that changes nothing in the distribution). Measured on
heuristic play of 13-card hands (8 cards for 6 players), all tries fail for about 0.1 % of
the samples with 3 players, 0.6 % with 4 and 0.8 % with 6, in positions where the voids leave
few deals. Then ``_construct`` deals card by card, the class (suit, or the blukes) with the
least slack first, each card to a random place that keeps a complete deal possible (Hall's
condition over the five card classes, which is exact here because a seat's constraint only
depends on a card's class). That deal is always consistent but only approximately
uniform: a place is chosen in proportion to its free room, not to the number of deals it
leaves. The slots rewritten are the other seats' hands and ``REST``; nothing else in the
state is cached from the hands (trump comes from the turned card, which stays).

**Decisions where the rule book left room**

* ``play_key`` leaves out the undealt rest: it is out of play and never changes the future
  of a hand. It leaves out the bids during the play (they never change a legal move) but folds
  them in while bidding (the hook reads their total); ``score_key`` always folds them in.
* ``merge`` treats LJ and HJ held together as equivalent (both always legal, nothing lies
  between them, either wins any trick it is in since the other cannot be in it). Cards in the
  undealt rest or the turned card do not separate a run: they never reach a trick.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..cards import HIGH_JOKER, LOW_JOKER
from ..sim import bluke as K
from ..sim.kernels import NO_BOUND, bit, draw_cards, hash_mix, highest_bit, nth_card, popcount, rand_below
from .bluke import known_voids

MAX_TRIES = 512  # rejection tries before the constructive deal (see the module docstring)
CLASSES = 5  # card classes for the constructive deal: the four suits, then the blukes
SUBSETS = 1 << CLASSES


# --- the world sampler ------------------------------------------------------------------------


@nb.njit(cache=True)
def unseen_cards(s, seat):
    """Cards ``seat`` cannot see in ``s``: not its own, not played, not the turned card."""
    return K.DECK_MASK & ~s[K.HANDS + seat] & ~s[K.PLAYED] & ~bit(s[K.TURNED])


@nb.njit(cache=True)
def forbidden_masks(s, out):
    """``out[p]``: the cards seat ``p`` cannot hold now, the suits it showed void in."""
    voids = known_voids(s)
    trump = s[K.TRUMP]
    for p in range(s[K.NUM_PLAYERS]):
        out[p] = 0
        for e in range(4):
            if voids >> (4 * p + e) & 1:
                out[p] |= K.SUIT_MASKS[trump, e]


@nb.njit(cache=True)
def _deal_order(s, seat, forbid, order):
    """The other seats, those with the most forbidden cards first, into ``order``; returns how
    many. Dealing them first makes a failing try fail sooner (the distribution is the same)."""
    count = 0
    for p in range(s[K.NUM_PLAYERS]):
        if p == seat:
            continue
        i = count
        while i > 0 and popcount(forbid[order[i - 1]]) < popcount(forbid[p]):
            order[i] = order[i - 1]
            i -= 1
        order[i] = p
        count += 1
    return count


@nb.njit(cache=True)
def _try_deal(s, order, count, unseen, forbid, rng, out):
    """One random deal of ``unseen`` into the hands of ``order[:count]`` (their sizes) and the
    rest; False (``out`` partly written) when a seat gets a card of a suit it showed void in."""
    remaining = unseen
    for i in range(count):
        p = order[i]
        drawn, remaining = draw_cards(remaining, popcount(s[K.HANDS + p]), rng)
        if drawn & forbid[p]:
            return False
        out[K.HANDS + p] = drawn
    out[K.REST] = remaining
    return True


@nb.njit(cache=True)
def _hall_ok(count, room, accepts, places):
    """Whether the cards still to deal (``count`` per class) fit the free ``room`` per place,
    a place taking the classes of its ``accepts`` bits: Hall's condition on every set of
    classes (enough room in the places that take at least one of them)."""
    for subset in range(1, SUBSETS):
        need = 0
        for e in range(CLASSES):
            if subset >> e & 1:
                need += count[e]
        if need == 0:
            continue
        have = 0
        for q in range(places):
            if accepts[q] & subset:
                have += room[q]
        if need > have:
            return False
    return True


@nb.njit(cache=True)
def _tightest_class(count, room, accepts, places):
    """The class with cards left and the least slack (free room that takes it, less its cards)."""
    best, slack = -1, 1 << 30
    for e in range(CLASSES):
        if count[e] == 0:
            continue
        have = 0
        for q in range(places):
            if accepts[q] >> e & 1:
                have += room[q]
        if have - count[e] < slack:
            best, slack = e, have - count[e]
    return best


@nb.njit(cache=True)
def _choose_place(e, count, room, accepts, places, rng):
    """A random place for one card of class ``e`` (its count already lowered), drawn in
    proportion to free room among the places that take it and keep a full deal possible."""
    total = 0
    for q in range(places):
        if accepts[q] >> e & 1 and room[q] > 0:
            room[q] -= 1
            if _hall_ok(count, room, accepts, places):
                total += room[q] + 1
            room[q] += 1
    pick = rand_below(rng, total)
    for q in range(places):
        if accepts[q] >> e & 1 and room[q] > 0:
            room[q] -= 1
            if _hall_ok(count, room, accepts, places):
                if pick <= room[q]:
                    return q  # room[q] stays lowered: the card is placed
                pick -= room[q] + 1
            room[q] += 1
    return -1  # unreachable while the deal before was possible


@nb.njit(cache=True)
def _construct(s, seat, unseen, forbid, rng, out):
    """Deal ``unseen`` card by card so that every seat keeps its shown voids (always possible:
    the real deal is one, and each step keeps Hall's condition). Places are the seats (index =
    seat; ``seat`` itself has no room) and the rest (index = players)."""
    n = s[K.NUM_PLAYERS]
    trump = s[K.TRUMP]
    places = n + 1
    room = np.zeros(K.MAX_PLAYERS + 1, np.int64)
    accepts = np.zeros(K.MAX_PLAYERS + 1, np.int64)  # bit e: the place may take class e
    dealt = np.zeros(K.MAX_PLAYERS + 1, np.int64)
    count = np.zeros(CLASSES, np.int64)
    left = np.zeros(CLASSES, np.int64)  # the class's unseen cards not dealt yet
    for e in range(CLASSES):
        left[e] = unseen & K.SUIT_MASKS[trump, e]
        count[e] = popcount(left[e])
    for p in range(n):
        if p != seat:
            room[p] = popcount(s[K.HANDS + p])
            for e in range(CLASSES):
                if K.SUIT_MASKS[trump, e] & forbid[p] == 0:
                    accepts[p] |= 1 << e
    room[n] = popcount(s[K.REST])
    accepts[n] = SUBSETS - 1
    for _ in range(popcount(unseen)):
        e = _tightest_class(count, room, accepts, places)
        c = nth_card(left[e], rand_below(rng, count[e]))
        left[e] &= ~bit(c)
        count[e] -= 1
        dealt[_choose_place(e, count, room, accepts, places, rng)] |= bit(c)
    for p in range(n):
        if p != seat:
            out[K.HANDS + p] = dealt[p]
    out[K.REST] = dealt[n]


@nb.njit(cache=True)
def sample(s, seat, rng, out):
    """Write into ``out`` (an int64 array of ``len(s)``) a world consistent with all ``seat``
    knows of ``s``: the other hands and the undealt rest re-dealt from the cards ``seat``
    cannot see, every size kept and every shown void respected (module docstring). Bids are
    not evidence. Uniform over the consistent deals unless ``MAX_TRIES`` rejections fail, then
    the constructive deal (consistent, about uniform). ``s`` is not changed."""
    out[:] = s
    unseen = unseen_cards(s, seat)
    forbid = np.zeros(K.MAX_PLAYERS, np.int64)
    forbidden_masks(s, forbid)
    forbid[seat] = 0
    order = np.empty(K.MAX_PLAYERS, np.int64)
    count = _deal_order(s, seat, forbid, order)
    for _ in range(MAX_TRIES):
        if _try_deal(s, order, count, unseen, forbid, rng, out):
            return
    _construct(s, seat, unseen, forbid, rng, out)


# --- sides, keys and tallies --------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def same_side(s, a, b):
    """Bluke is every seat for itself (docs/rules.md, Bluke): only a seat is on its own side."""
    return a == b


@nb.njit(cache=True, inline="always")
def play_key(s):
    """A hash of all that decides the rest of the hand: phase, options, trump, the seat to act,
    every hand, the trick in progress (leader, its cards in play order, the suit to follow)
    and the tricks left; while bidding also the dealer and the bids so far (the hook reads
    their total). Not the undealt rest (out of play), nor the tricks taken or the finished
    tricks' history: transposed finished tricks give the same key."""
    n = s[K.NUM_PLAYERS]
    h = hash_mix(np.int64(0x2545F4914F6CDD1D), s[K.PHASE])
    h = hash_mix(h, n)
    h = hash_mix(h, s[K.TRUMP])
    h = hash_mix(h, s[K.OPT_BLUKE_LEAD])
    h = hash_mix(h, s[K.TO_ACT])
    h = hash_mix(h, s[K.LEADER])
    h = hash_mix(h, s[K.LED])
    h = hash_mix(h, s[K.HAND_SIZE] - s[K.TRICK_NO])
    for p in range(n):
        h = hash_mix(h, s[K.HANDS + p])
    slot = K.TRICKS + s[K.TRICK_NO] * K.TRICK_SLOTS
    h = hash_mix(h, s[K.IN_TRICK])
    for i in range(s[K.IN_TRICK]):
        h = hash_mix(h, s[slot + 1 + i])
    if s[K.PHASE] == K.BIDDING:
        h = hash_mix(h, s[K.DEALER])
        h = hash_mix(h, s[K.HAND_SIZE])
        h = hash_mix(h, s[K.OPT_MIN_BID])
        h = hash_mix(h, s[K.OPT_HOOK])
        for p in range(n):
            h = hash_mix(h, s[K.BIDS + p])
    return h


@nb.njit(cache=True, inline="always")
def score_key(s):
    """``play_key`` folded with what the hand's score reads: each seat's bid and tricks taken."""
    h = play_key(s)
    for p in range(s[K.NUM_PLAYERS]):
        h = hash_mix(h, s[K.BIDS + p])
        h = hash_mix(h, s[K.TAKEN + p])
    return h


@nb.njit(cache=True, inline="always")
def side_points(s, seat):
    """The tricks ``seat`` has taken so far (every seat is its own side)."""
    return s[K.TAKEN + seat]


# --- merging equivalent cards ---------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def _live_cards(s, seat, cards):
    """Cards that can still meet ``seat``'s cards in a trick: the other hands, the current
    trick, and (to stay safe) ``seat``'s own cards outside ``cards``."""
    live = s[K.HANDS + seat] & ~cards
    for p in range(s[K.NUM_PLAYERS]):
        if p != seat:
            live |= s[K.HANDS + p]
    slot = K.TRICKS + s[K.TRICK_NO] * K.TRICK_SLOTS
    for i in range(s[K.IN_TRICK]):
        live |= bit(s[slot + 1 + i])
    return live


@nb.njit(cache=True, inline="always")
def merge(s, cards):
    """The legal cards ``cards`` of the seat to act with each run of equivalent cards cut to
    its highest: cards of one suit with no live card (another hand, the current trick)
    between them in rank, and LJ with HJ. The score counts only tricks, so equal power order
    against every live card means an equal value. Outside the play, ``cards`` unchanged."""
    if s[K.PHASE] != K.PLAYING:
        return cards
    live = _live_cards(s, s[K.TO_ACT], cards)
    kept = cards
    for e in range(4):
        mine = cards & K.SUIT_MASKS[0, e]
        if popcount(mine) < 2:
            continue
        run = False  # a held card of the run is kept above
        for c in range(highest_bit(K.SUIT_MASKS[0, e]), 13 * e - 1, -1):
            if mine >> c & 1:
                if run:
                    kept &= ~bit(c)
                run = True
            elif live >> c & 1:
                run = False
    both = bit(LOW_JOKER) | bit(HIGH_JOKER)
    if cards & both == both:
        kept &= ~bit(LOW_JOKER)
    return kept


@nb.njit(cache=True, inline="always")
def points_bounds(s, seat):
    """``(low, high)`` bounds on the tricks ``seat`` can still take from ``s``: none to every
    trick not yet finished."""
    if s[K.TO_ACT] < 0:
        return np.int64(0), np.int64(0)
    return np.int64(0), np.int64(s[K.HAND_SIZE] - s[K.TRICK_NO])


@nb.njit(cache=True, inline="always")
def score_bounds(s, seat):
    """``(low, high)`` bounds on the hand score of ``seat`` from ``s`` on: it ends with between
    the tricks it has and those plus every trick not finished (``points_bounds``), and its score
    (``bid_score``) moves one way with them (up from a bid of one, down from a bid of zero), so the
    two ends bound it. Before the play: ``NO_BOUND``; once the hand is over, the score itself."""
    if s[K.PHASE] == K.OVER:
        return s[K.SCORES + seat], s[K.SCORES + seat]
    if s[K.PHASE] != K.PLAYING:
        return -NO_BOUND, NO_BOUND
    took = s[K.TAKEN + seat]
    gain_low, gain_high = points_bounds(s, seat)
    a = K.bid_score(s[K.BIDS + seat], took + gain_low)
    b = K.bid_score(s[K.BIDS + seat], took + gain_high)
    return np.int64(min(a, b)), np.int64(max(a, b))
