"""Bluke's search hooks (docs/rules.md, Bluke): what a seat knows, for the world sampler, and the solver's
keys, tallies and card merging, for the generic solver, PIMC and ISMCTS (``agents.family`` dispatches to them).

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
* The sampler does not read the bids: a world is drawn from the hard constraints alone; the
  inference (``agents.inference``, ``auction_log_chance`` here) weighs the worlds by them.

**How a world is drawn**: by the one sampler of ``agents.sampler``, uniform over the deals that
keep the rules above. Its places are the other seats' hands (their current sizes) and the undealt
rest (its size), the hands without the suits their seats showed void in (``knowledge``). The slots
rewritten are the other seats' hands and ``REST`` (``put``); nothing else in the state is cached
from the hands (trump comes from the turned card, which stays).

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
from ..sim import actions as A
from ..sim import bluke as K
from ..sim.kernels import NO_BOUND, bit, hash_mix, highest_bit, popcount
from .bluke import act as heuristic_act
from .bluke import known_voids
from .inference import bid_log_chance
from .sampler import TRIES, world


# --- what a seat knows, for the world sampler ----------------------------------------------------


@nb.njit(cache=True, inline="always")
def knowledge(s, seat, h, room, allow, facts):
    """The sampler's ``knowledge`` (``agents.sampler``): the places are the seats' hands (place =
    seat; ``seat``'s own hides nothing) and the undealt rest (place ``players``), each hand without
    the suits its seat showed void in (``agents.bluke.known_voids``, the one definition of them)."""
    n = s[K.NUM_PLAYERS]
    voids = known_voids(s)
    trump = s[K.TRUMP]
    for p in range(n):
        room[p] = popcount(s[K.HANDS + p]) if p != seat else 0
        allow[p] = K.DECK_MASK
        for e in range(4):
            if voids >> (4 * p + e) & 1:
                allow[p] &= ~K.SUIT_MASKS[trump, e]
    room[n] = popcount(s[K.REST])
    allow[n] = K.DECK_MASK
    return n + 1, 1, K.DECK_MASK & ~s[K.HANDS + seat] & ~s[K.PLAYED] & ~bit(s[K.TURNED])


@nb.njit(cache=True, inline="always")
def put(s, seat, h, cards, room, out):
    """The sampler's ``put``: the other hands and the undealt rest into the world ``out``."""
    n = s[K.NUM_PLAYERS]
    for p in range(n):
        if p != seat:
            out[K.HANDS + p] = cards[p]
    out[K.REST] = cards[n]


@nb.njit(cache=True)
def sample(s, seat, rng, out):
    """Write into ``out`` (an int64 array of ``len(s)``) a world consistent with all ``seat``
    knows of ``s``: the one sampler (``agents.sampler.world``) with Bluke's knowledge (module
    docstring). ``s`` is not changed."""
    world(s, seat, rng, out, TRIES, __name__)  # with this module's knowledge and put


@nb.njit(cache=True, inline="always")
def play_start(s, out):
    """Write into ``out`` the state of ``s``'s deal (``s`` in the card play) at the start of the
    card play, for the inference's replay (``agents.inference``): every card played back in the
    hand that played it, the tricks' tallies cleared, eldest to lead. The tricks' slots keep their
    cards: the replay writes them again."""
    out[:] = s
    n = s[K.NUM_PLAYERS]
    for t in range(s[K.TRICK_NO] + 1):
        slot = K.TRICKS + t * K.TRICK_SLOTS
        for i in range(n if t < s[K.TRICK_NO] else s[K.IN_TRICK]):
            out[K.HANDS + (s[slot] + i) % n] |= bit(s[slot + 1 + i])
    out[K.PLAYED] = 0
    out[K.TRICK_NO] = 0
    out[K.IN_TRICK] = 0
    out[K.LED] = -1
    out[K.TAKEN:K.TAKEN + K.MAX_PLAYERS] = 0
    out[K.LEADER] = out[K.TO_ACT] = (s[K.DEALER] + 1) % n


@nb.njit(cache=True)
def auction_log_chance(world, seat, eps, hparams, rng, r):
    """The log of the chance of the bids of the seats other than ``seat`` in ``world`` (a full
    deal, in the bidding or the card play), each from its hand as dealt, under the heuristic
    softened by ``eps``, the bids on a scale (``inference.bid_log_chance``). ``r`` (an int64 array
    of ``len(world)``) is scratch."""
    if world[K.PHASE] == K.PLAYING:
        play_start(world, r)
    else:
        r[:] = world
    r[K.PHASE] = K.BIDDING
    r[K.BIDS:K.BIDS + K.MAX_PLAYERS] = -1
    r[K.BID_TOTAL] = r[K.BIDS_MADE] = 0
    r[K.TO_ACT] = (r[K.DEALER] + 1) % r[K.NUM_PLAYERS]
    total = 0.0
    while r[K.PHASE] == K.BIDDING and world[K.BIDS + r[K.TO_ACT]] >= 0:
        bid = A.BID + world[K.BIDS + r[K.TO_ACT]]
        if r[K.TO_ACT] != seat:
            words, _, _ = K.legal(r)
            total += bid_log_chance(words, heuristic_act(r, hparams, rng), bid, eps)
        K.step(r, bid)
    return total


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
