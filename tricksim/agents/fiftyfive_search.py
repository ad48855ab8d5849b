"""Fifty-five's search hooks (docs/rules.md, Fifty-five): what a seat knows, for the world sampler, and what the
exact solver, PIMC and ISMCTS need to search one hand (``agents.family`` dispatches the generic calls here).

``sample(s, seat, rng, out)`` deals again every card ``seat`` cannot see. What it keeps, the
knowledge rules of the sampler:

* ``seat``'s own hand and its own discards (kitty or exchange discards: it knows them).
* Everything public: the auction, bidder, bid, trump, every card played and by whom (finished
  tricks and the trick in progress), each seat's hand size, the size of every discard pile, of
  the untaken kitty and of the stock (the count of an exchange is seen at the table).
* The kitty (``KITTY_TAKEN``) when ``seat`` took it: then its five cards are known.
* The cards ``seat`` drew in an exchange, at their places in the stock's order.
* Shown voids (docs/rules.md, Fifty-five: Play), judged on each trick's effective suit led under the trump:
  on a plain lead, a seat that played neither the suit led nor a trump holds none of that suit
  now (trumping is always allowed, so a trump shows nothing); on a trump lead, a seat that played
  no trump holds no trump now except those it could withhold (the 5, the J of trumps and A♥
  ranking above the card *led*, the kernel's ``WITHHOLD``), so playing a plain card under a high
  lead shows less than a void, and following with a trump shows nothing (the heuristic's
  ``agents.fiftyfive.shown_void``, the one definition of it).
* Bids are NOT used as evidence here (nor any other choice a player made: which cards the bidder
  kept, which cards an exchanger threw): every deal consistent with the hard facts above counts
  alike. With inference (``agents.inference``) ``auction_log_chance`` weighs a world by the bids.

What it deals again, and how:

* The unseen cards (deck minus ``seat``'s hand, its discards and the cards played) go to the other
  seats' hands, their discard piles, the kitty while untaken and the stock, with the sizes of
  ``s``, by the one sampler of ``agents.sampler`` (uniform over the deals that keep the shown
  voids): ``knowledge`` names those places and the cards each hand may hold, ``put`` writes them.
* The remaining stock gets a random drawing order (``STOCK_ORDER`` from ``STOCK_NEXT`` on), also
  with ``exchange = 0`` (where no rule reads it), so that ``game.deal`` rebuilds the world.
* Derived slots (``finish``): when another seat took the kitty, ``KITTY_TAKEN`` becomes five random cards of
  the ten that seat has held (hand, discards, cards played); the cards another seat drew in an
  exchange become random cards, in random order, of what it holds or has played (its discards
  came from the hand it was dealt), written at its place in the stock's order (exchangers draw in
  turn from eldest, the bidder skipped, each as many as it discarded). Under the rule "no choice
  is evidence" these choices are uniform too, so the whole sample stays uniform when rejection
  succeeds. Every other slot (tricks, points, scores, auction) is public and copied.

The world's deal is then rebuilt with ``game.deal``: seat p's hand as dealt is what it holds, has
played and has discarded, less the kitty it took or the cards it drew; the rest is the kitty then
``STOCK_ORDER``. Replaying the hand's actions (another seat's private discards replaced by its
discards in the world) gives back the world's array slot for slot.

The other hooks:

* ``same_side``: teams (``teams = k``: seats ``p % k``) are fixed by the options, so sides are
  formed from the start; without teams each seat is its own side.
* ``play_key`` folds what ``legal``/``step`` read for the rest of the hand and what decides its
  points: every hand, the untaken kitty, the stock and (before play, with an exchange) its order
  from the next card, phase, seat to act, dealer, bidder, bid, rival, trump, the count exchanged,
  leader, tricks done, the trick in progress with its leader, led suit and card, and the best
  trump so far with its player (it decides who gets the best-trump bonus: every card held is
  played by the end of the hand, so its holder is fixed by the hands left and this pair). Not
  folded: the auction record, discards, points and tricks taken, the cards played before.
* ``score_key`` adds each side's points and tricks so far and the final scores and outcome.
* ``side_points`` is the side's sum of ``POINTS`` (5 a trick, and the 5 of the best trump once the
  game adds it at the end): the game's own tally before the bid is settled.
* ``score_bounds``: a side's final points lie within ``side_points`` and ``points_bounds``; a side
  that did not bid scores them, the bidding side's score (``sim.fiftyfive.bidder_score``, the
  game's own rule) never falls as they rise, and a 60 bid stays open only while the side has taken
  every finished trick. The solver settles a trick start whose score they fix.
* ``merge`` keeps the highest card of each run of the seat's legal cards with the same effective
  suit and no card between them in trick power held by anyone or lying in the trick in progress.
  Cards carry no points, and the best-trump bonus goes to the holder of the highest trump left,
  whichever of his cards he plays first. The 5, the J of trumps and A♥ (which may be withheld)
  never merge with a lower trump: keeping one of them instead of a low trump changes what its
  holder must play later; two of them may merge (no lead can fall between them).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..sim.fiftyfive import (
    BEST_POWER,
    BEST_SEAT,
    BEST_TRICK,
    BEST_TRUMP_POINTS,
    BID,
    BIDDER,
    BIDDING,
    DEALER,
    DECK_MASK,
    DISCARDS,
    EFFECTIVE,
    EXCHANGED,
    EXCHANGING,
    FIRST_LEAD_BIDDER,
    HANDS,
    IN_TRICK,
    KITTY,
    KITTY_SIZE,
    KITTY_TAKEN,
    LAST_CALL,
    LEADER,
    LED,
    LED_CARD,
    MATCH_TARGET,
    MATCH_TOTALS,
    MAX_PLAYERS,
    MAX_STOCK,
    NUM_PLAYERS,
    NUM_TRICKS,
    O_EXCHANGE,
    O_FIRST_LEAD,
    OPTION_SIZE,
    OPTIONS,
    OUTCOME,
    OVER,
    PHASE,
    PLAYED,
    PLAYING,
    POINTS,
    POWER,
    PRIVILEGED,
    RIVAL,
    SCORES,
    STOCK,
    STOCK_NEXT,
    STOCK_ORDER,
    SUIT_MASKS,
    TO_ACT,
    TRICK_NO,
    TRICK_POINTS,
    TRICK_SLOTS,
    TRICKS,
    TRICKS_WON,
    TRUMP,
    TRUMP_ORDERS,
    bidder_score,
    left,
    legal,
    reset,
    side,
    side_tricks,
    step,
)
from ..sim.kernels import (
    NO_BOUND,
    bit,
    draw_cards,
    draw_in_order,
    has,
    hash_mix,
    popcount,
    suit_orders,
)
from .fiftyfive import act as heuristic_act
from .fiftyfive import shown_void
from .inference import bid_log_chance
from .sampler import TRIES, world


# --- tables (docs/rules.md, Fifty-five) ----------------------------------------


# RUN_ORDER[t, e, i]: the i-th strongest card of effective suit e when t is trumps, -1 past the
# last; RUN_LENGTH[t, e] cards
RUN_ORDER = np.array([suit_orders(EFFECTIVE[t], POWER[t], DECK_MASK, 4, max(map(len, TRUMP_ORDERS))) for t in range(4)])
RUN_LENGTH = (RUN_ORDER >= 0).sum(axis=2)

# slots folded into play_key as they are (each read by legal/step, or deciding the points to come)
PLAY_SLOTS = np.array([PHASE, TO_ACT, DEALER, NUM_PLAYERS, BIDDER, BID, RIVAL, TRUMP, EXCHANGED,
                       LEADER, TRICK_NO, IN_TRICK, LED, LED_CARD, BEST_POWER, BEST_SEAT], dtype=np.int64)


# --- what is public ----------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def _trick_count(s, k):
    """Cards in trick ``k`` (finished: every seat; in progress: IN_TRICK)."""
    return s[NUM_PLAYERS] if k < s[TRICK_NO] else s[IN_TRICK]


@nb.njit(cache=True)
def played_by(s, out):
    """``out[p]``: the mask of the cards seat p has played (public)."""
    n = s[NUM_PLAYERS]
    out[:] = 0
    for k in range(min(s[TRICK_NO] + 1, NUM_TRICKS)):
        slot = TRICKS + k * TRICK_SLOTS
        leader = s[slot] if k < s[TRICK_NO] else s[LEADER]
        for i in range(_trick_count(s, k)):
            p = (leader + i) % n
            out[p] |= bit(s[slot + 1 + i])


@nb.njit(cache=True, inline="always")
def _exchanger_done(s, p):
    """Whether seat ``p``'s exchange discards have been replaced from the stock: every non-bidder
    but the one exchanging now (a seat yet to exchange has no discards, so counts nothing)."""
    return p != s[BIDDER] and not (s[PHASE] == EXCHANGING and p == s[TO_ACT])


# --- what a seat knows, for the world sampler ----------------------------------------------------


@nb.njit(cache=True, inline="always")
def knowledge(s, seat, h, room, allow, facts):
    """The sampler's ``knowledge`` (``agents.sampler``): the places are the seats' hands (place =
    seat), their discards (``players`` + seat), the untaken kitty and the stock (``2 * players`` and
    one more); ``seat``'s own hand and discards hide nothing, and a hand may not hold what its seat
    has shown it does not hold (``agents.fiftyfive.shown_void``, the one definition of it).
    ``facts``: the cards each seat has played."""
    n = s[NUM_PLAYERS]
    played_by(s, facts)
    for p in range(n):
        allow[p] = DECK_MASK & ~shown_void(s, p, s[TRUMP])
        allow[n + p] = DECK_MASK
        room[p] = popcount(s[HANDS + p]) if p != seat else 0
        room[n + p] = popcount(s[DISCARDS + p]) if p != seat else 0
    allow[2 * n] = allow[2 * n + 1] = DECK_MASK
    room[2 * n] = popcount(s[KITTY])
    room[2 * n + 1] = popcount(s[STOCK])
    return 2 * n + 2, 1, DECK_MASK & ~s[HANDS + seat] & ~s[DISCARDS + seat] & ~s[PLAYED]


@nb.njit(cache=True, inline="always")
def put(s, seat, h, cards, room, out):
    """The sampler's ``put``: the other hands and discards, the kitty and the stock into ``out``."""
    n = s[NUM_PLAYERS]
    for p in range(n):
        if p != seat:
            out[HANDS + p] = cards[p]
            out[DISCARDS + p] = cards[n + p]
    out[KITTY] = cards[2 * n]
    out[STOCK] = cards[2 * n + 1]


@nb.njit(cache=True, inline="always")
def finish(s, seat, h, facts, rng, out):
    """The sampler's ``finish``: the stock in a random order from the next card to draw, and the
    kitty another seat took and the cards other seats drew, made anew from the world's hands (see
    the module docstring): ``STOCK_ORDER`` and ``KITTY_TAKEN``."""
    draw_in_order(out[STOCK], popcount(out[STOCK]), out, STOCK_ORDER + s[STOCK_NEXT], rng)
    n = s[NUM_PLAYERS]
    bidder = s[BIDDER]
    if s[KITTY_TAKEN] != 0 and bidder != seat:
        held = out[HANDS + bidder] | out[DISCARDS + bidder] | facts[bidder]
        out[KITTY_TAKEN], _ = draw_cards(held, KITTY_SIZE, rng)
    at = 0
    p = (s[DEALER] + 1) % n
    for _ in range(n):  # exchangers from eldest, the bidder skipped
        if _exchanger_done(s, p):
            k = popcount(s[DISCARDS + p])
            if p != seat and k > 0:
                draw_in_order(out[HANDS + p] | facts[p], k, out, STOCK_ORDER + at, rng)
            at += k
        p = p + 1 if p + 1 < n else 0


@nb.njit(cache=True)
def sample(s, seat, rng, out):
    """Write into ``out`` (an int64 array of len(s)) a full state consistent with all ``seat`` knows
    in ``s``: the one sampler (``agents.sampler.world``) with Fifty-five's knowledge (module
    docstring); derived slots follow the new deal. Bids are not evidence. ``s`` is not touched;
    ``rng`` is a random stream."""
    world(s, seat, rng, out, TRIES, __name__)  # with this module's knowledge, put and finish


@nb.njit(cache=True, inline="always")
def play_start(s, out):
    """Write into ``out`` the state of ``s``'s deal (``s`` in the card play) at the start of the
    card play, for the inference's replay (``agents.inference``): every card played back in the
    hand that played it, the tricks' tallies and the best trump cleared, the first leader
    (``sim.fiftyfive._start_play``) to lead. The tricks' slots keep their cards: the replay writes
    them again."""
    out[:] = s
    n = s[NUM_PLAYERS]
    for t in range(s[TRICK_NO] + 1):
        slot = TRICKS + t * TRICK_SLOTS
        for i in range(_trick_count(s, t)):
            out[HANDS + (s[slot] + i) % n] |= bit(s[slot + 1 + i])
    out[PLAYED] = 0
    out[BEST_POWER] = out[BEST_SEAT] = out[BEST_TRICK] = -1
    out[POINTS:POINTS + MAX_PLAYERS] = 0
    out[TRICKS_WON:TRICKS_WON + MAX_PLAYERS] = 0
    out[TRICK_NO] = 0
    out[IN_TRICK] = 0
    out[LED] = out[LED_CARD] = -1
    first = s[BIDDER] if s[OPTIONS + O_FIRST_LEAD] == FIRST_LEAD_BIDDER else (s[DEALER] + 1) % n
    out[LEADER] = out[TO_ACT] = first


@nb.njit(cache=True)
def auction_start(s, out):
    """Write into ``out`` the state of ``s``'s deal before the first bid: each seat's hand as dealt
    (what it holds, has played and has discarded, less the kitty it took or the cards it drew),
    the kitty, the stock with its drawing order, the options and the match's totals."""
    n = s[NUM_PLAYERS]
    reset(out, s[DEALER], s[OPTIONS:OPTIONS + OPTION_SIZE])
    played_by(s, out[HANDS:HANDS + MAX_PLAYERS])  # the cards played; what is held or discarded joins them
    out[STOCK_ORDER:STOCK_ORDER + MAX_STOCK] = s[STOCK_ORDER:STOCK_ORDER + MAX_STOCK]
    out[MATCH_TOTALS:MATCH_TOTALS + MAX_PLAYERS] = s[MATCH_TOTALS:MATCH_TOTALS + MAX_PLAYERS]
    out[MATCH_TARGET] = s[MATCH_TARGET]
    out[KITTY] = s[KITTY] | s[KITTY_TAKEN]
    out[STOCK] = s[STOCK]
    at = 0
    p = left(s, s[DEALER])
    for _ in range(n):  # exchangers drew in turn from eldest, the bidder skipped
        out[HANDS + p] |= s[HANDS + p] | s[DISCARDS + p]
        if p == s[BIDDER]:
            out[HANDS + p] &= ~s[KITTY_TAKEN]
        elif _exchanger_done(s, p):
            for i in range(at, at + popcount(s[DISCARDS + p])):
                out[HANDS + p] &= ~bit(s[STOCK_ORDER + i])
                out[STOCK] |= bit(s[STOCK_ORDER + i])
            at += popcount(s[DISCARDS + p])
        p = left(s, p)


@nb.njit(cache=True)
def auction_log_chance(world, seat, eps, hparams, rng, r):
    """The log of the chance of the calls of the seats other than ``seat`` in ``world`` (a full
    deal, in any phase), each from its hand as dealt (``auction_start``), under the heuristic
    softened by ``eps``, the calls on a scale (``inference.bid_log_chance``). Only the first round
    up to the bidder the dealer displaced is read: a duel overwrites the record of each seat's
    latest call, so the displaced bidder's first bid is lost. ``r`` (an int64 array of
    ``len(world)``) is scratch."""
    auction_start(world, r)
    total = 0.0
    for _ in range(world[NUM_PLAYERS]):
        p = r[TO_ACT]
        call = world[LAST_CALL + p]
        if r[PHASE] != BIDDING or p == world[RIVAL] or call < 0:
            break
        if p != seat:
            words, _, _ = legal(r)
            total += bid_log_chance(words, heuristic_act(r, hparams, rng), call, eps)
        step(r, call)
    return total


# --- sides, keys and points ----------------------------------------------------------


@nb.njit(cache=True, inline="always")
def same_side(s, a, b):
    """Whether seats ``a`` and ``b`` score together: the same team (``teams`` option, fixed from the
    deal), or the same seat when every player is alone."""
    return side(s, a) == side(s, b)


@nb.njit(cache=True, inline="always")
def play_key(s):
    """A hash of all that decides the rest of the hand's play and points (module docstring), and
    nothing taken so far: positions reached through the same finished tricks in another order
    get the same key."""
    h = np.int64(0x55)
    for slot in PLAY_SLOTS:
        h = hash_mix(h, s[slot])
    for i in range(OPTION_SIZE):
        h = hash_mix(h, s[OPTIONS + i])
    for p in range(s[NUM_PLAYERS]):
        h = hash_mix(h, s[HANDS + p])
    h = hash_mix(h, s[KITTY])
    h = hash_mix(h, s[STOCK])
    if s[OPTIONS + O_EXCHANGE] > 0 and s[PHASE] < PLAYING:  # the order the stock will be drawn in
        nxt = s[STOCK_NEXT]
        for i in range(min(popcount(s[STOCK]), MAX_STOCK - nxt)):
            h = hash_mix(h, s[STOCK_ORDER + nxt + i])
    if s[PHASE] == PLAYING:
        slot = TRICKS + s[TRICK_NO] * TRICK_SLOTS
        for i in range(s[IN_TRICK]):
            h = hash_mix(h, s[slot + 1 + i])
    return h


@nb.njit(cache=True, inline="always")
def score_key(s):
    """``play_key`` with each side's points and tricks taken so far, and the final scores and
    outcome once the hand is over: equal keys, equal scores for equal continuations."""
    h = play_key(s)
    n = s[NUM_PLAYERS]
    for q in range(n):
        if side(s, q) == q:  # a side is named by its lowest seat
            h = hash_mix(hash_mix(h, side_points(s, q)), side_tricks(s, q))
    for p in range(n):
        h = hash_mix(h, s[SCORES + p])
    return hash_mix(h, s[OUTCOME])


@nb.njit(cache=True, inline="always")
def side_points(s, seat):
    """Points taken so far by ``seat``'s side (5 a trick; the best trump's 5 once the hand is over):
    at the end, what the game counts for the side before the bid is settled."""
    total = 0
    for p in range(s[NUM_PLAYERS]):
        if side(s, p) == side(s, seat):
            total += s[POINTS + p]
    return np.int64(total)


# --- merging equivalent cards ----------------------------------------------------------


@nb.njit(cache=True, inline="always")
def merge(s, cards):
    """The legal cards ``cards`` of the seat to act with the lower cards of each run of equivalent
    cards removed (the highest kept). A run: cards of one effective suit with no card between them
    in trick power still held by anyone or in the trick in progress; the withholdable top three
    trumps and the other trumps make separate runs. ``cards`` unchanged outside card play."""
    if s[PHASE] != PLAYING:
        return cards
    t = s[TRUMP]
    live = np.int64(0)
    for p in range(s[NUM_PLAYERS]):
        live |= s[HANDS + p]
    slot = TRICKS + s[TRICK_NO] * TRICK_SLOTS
    for i in range(s[IN_TRICK]):
        live |= bit(s[slot + 1 + i])
    between = live & ~cards  # cards that split a run
    kept = cards
    for e in range(4):
        if popcount(cards & SUIT_MASKS[t, e]) < 2:
            continue
        open_run = False
        for i in range(RUN_LENGTH[t, e]):
            if e == t and i == PRIVILEGED:
                open_run = False
            c = RUN_ORDER[t, e, i]
            if has(cards, c):
                if open_run:
                    kept &= ~bit(c)
                open_run = True
            elif has(between, c):
                open_run = False
    return kept


@nb.njit(cache=True, inline="always")
def points_bounds(s, seat):
    """``(low, high)`` bounds on what ``side_points`` of ``seat`` can still gain from ``s``: 5 for
    each trick not yet finished, and the best trump's 5 (added when the hand ends)."""
    if s[TO_ACT] < 0:
        return np.int64(0), np.int64(0)
    return np.int64(0), np.int64(TRICK_POINTS * (NUM_TRICKS - s[TRICK_NO]) + BEST_TRUMP_POINTS)


@nb.njit(cache=True, inline="always")
def score_bounds(s, seat):
    """``(low, high)`` bounds on the hand score of ``seat`` from ``s`` on. Its side ends with
    ``side_points`` plus a gain within ``points_bounds``; a side that did not bid scores those
    points, and the bidding side's score (``bidder_score``) never falls as they rise, so the ends
    of that range bound it. A 60 bid is made only while the side has taken every finished trick.
    Before the play: ``NO_BOUND``; once the hand is over, the score itself."""
    if s[PHASE] == OVER:
        return s[SCORES + seat], s[SCORES + seat]
    if s[PHASE] != PLAYING:
        return -NO_BOUND, NO_BOUND
    taken = side_points(s, seat)
    gain_low, gain_high = points_bounds(s, seat)
    low, high = taken + gain_low, taken + gain_high
    if side(s, seat) != side(s, s[BIDDER]):
        return np.int64(low), np.int64(high)
    tricks = side_tricks(s, seat)
    most = tricks + NUM_TRICKS - s[TRICK_NO]  # the side may still take every trick not finished
    return np.int64(bidder_score(low, tricks, s[BID])[0]), np.int64(bidder_score(high, most, s[BID])[0])
