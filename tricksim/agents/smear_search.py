"""Search hooks of the two smears (docs/rules.md, Shmear and NE Smear): the world sampler
and the solver's keys, tallies and card merging, as numba kernels over ``sim/smear.py``'s state.

``family.py`` dispatches the generic ``sample / same_side / play_key / score_key / side_points /
merge`` to the functions of the same names here; each docstring says what it must do.

**What the sampler treats as known** to the observing ``seat`` (the knowledge rules it enforces):

* its own hand and its own discards (the Shmear draw, the Shmear dealer's or the NE bidder's);
* the whole play: every finished trick and the trick in progress, and who played each card;
* the public counts: each seat's hand size, each seat's discard count (discards are made face
  down but seen to be made), the cards each Shmear seat drew (``DRAWN``) and the stock's size;
* what it saw: the NE widow if it took it, the Shmear stock if it is the dealer and took it,
  the cards it drew itself (their places in the stock order are kept);
* trump once public (Shmear: when named; NE Smear: to the bidder when he names it, to the others
  at his first lead);
* voids shown in play: a seat that did not follow the effective suit led holds none of it. When a
  trump may always be played (NE Smear, Shmear's ``may_trump``) a trump played on a plain lead
  shows nothing;
* rule facts from public play: a Shmear non-dealer's draw discards are non-trumps; the Shmear
  dealer's and the NE bidder's discards hold no protected card (A, Low, Jack, Jick, joker of
  trumps) and hold trumps only if the discarder kept at least 6 trumps (a trump may be discarded
  only while holding more than 6: docs/rules.md, Shmear: Draw, NE Smear: Widow and trump); the NE
  bidder held a card of the suit he named (which, with the discard rule, leaves him a trump to lead).

Bids (and the choice of trump, the draw counts) are NOT used as evidence about the cards: every
deal consistent with the rules above is as likely as any other. Nor is the final score of a hand
that is over (it reveals the NE bidder's discards' Game points): a finished hand's world is
rescored from its own cards.

**How it samples.** The unseen cards are dealt to the unseen *places*: each other seat's hand and
discards, and the stock (Shmear: the stock still to draw or take; NE Smear: the undealt cards,
the widow included until the auction ends), with their true sizes. First by rejection: shuffle
(``draw_cards``) and keep the deal if it meets every rule above, up to ``SAMPLE_TRIES`` times; this
is exactly uniform over the consistent deals (with a hidden NE trump, uniform over the pairs of a
suit and a deal, the suit drawn uniformly). Then, if every try failed, a constructive deal: the
most constrained cards first (fewest places they may go), each to a random place that can take it
weighted by its free room, keeping only choices after which the rest can still be dealt (a max-flow
check), so the result is always consistent but only roughly uniform. In that fallback the
discarder's trump rule is met by one of two modes: no trump among his hidden discards, or (when
that cannot be) at least 6 trumps kept; a hidden NE trump is the first suit in a random order for
which a mode can be met.

Who drew what is then chosen at random: a Shmear seat's drawn cards (``REST_ORDER``, in draw
order from eldest) are a random subset of the cards it holds or played, the Shmear dealer's taken
stock a random subset of everything he had, the NE widow a random subset of the bidder's cards;
the cards still in the stock take a random order. Each such choice is equally likely whatever the
deal, so the world stays uniform over full histories when the deal is. ``STOCK``, ``WIDOW_TAKEN``,
``REST_ORDER``, a hidden ``TRUMP``/``TABLE`` and, after the hand, the score slots are rewritten, so
the world is a reachable state: ``legal``, ``step`` and ``_score`` work on it as on a real deal.

Decisions where the rule book leaves room:

* Dead cards (discards, the NE undealt cards) never come into play, so ``merge`` does not count them
  as lying between two cards; only the cards in hands and in the trick in progress do.
* ``play_key`` includes the bidder, the bid and the dealer (fixed for a hand, so no transposition
  is lost) and, before play, the stock in drawing order; ``score_key`` folds the per-team Game
  tallies and the team holding each point card won or played, not the trick masks themselves.
* ``side_points`` is the team's Game tally: game points in its tricks, plus, in NE Smear, the
  bidder's discards for the bidding team (from the discard on), so it ends equal to ``GAME_POINTS``.
* ``score_bounds`` counts each point as the team's for sure, open, or lost (High and Low are known
  from who holds the card: every card held is played), and settles the score through the game's own
  ``bidder_score``; the solver skips a trick start whose score they fix.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..sim import smear as K
from ..sim.kernels import NO_BOUND, bit, draw_cards, draw_in_order, has, hash_mix, lowest_card, popcount, rand_below
from ..sim.smear import (
    BID, BIDDER, BIDDING, DEALER, DECK_MASKS, DISCARDS, DRAWN, EFFECTIVE, GAME, HAND_SIZE, HANDS, IN_TRICK,
    JACK, LEADER, LED, NUM_PLAYERS, O_MAY_TRUMP, O_TEAMS, O_VARIANT, O_WIDOW, OPTION_SIZE,
    OPTIONS, OUTCOME, OUTCOME_FAILED, OUTCOME_MADE, OVER, PHASE, PLAYED_BY, PLAYING, POINT_CARDS, POWER,
    PROTECTED, REST_ORDER, SCORES, SHMEAR, STOCK, STOCK_NEXT, SUIT_MASKS, TABLE, TO_ACT, TRICK_MASK, TRICK_NO,
    TRICK_SLOTS, TRICKS, TRUMP, WIDOW_TAKEN, WON,
    bidder_score, game_cards, game_points, high_low_cards, player_team, shows_void, team, trick_team, trump_shown,
)

SAMPLE_TRIES = 64  # rejection tries before the constructive deal

# places the unseen cards are dealt to
P_HAND = 0  # + seat: the seat's hand
P_DISCARD = 6  # + seat: the seat's discards
P_STOCK = 12  # the stock / undealt cards
P_KEEP = 13  # fallback only: trumps the discarder must keep, merged into his hand
NUM_PLACES = 14
FLOW_NODES = 2 + 54 + NUM_PLACES  # source, card classes, places, sink


# --- what the observer knows -------------------------------------------------------------------


@nb.njit(cache=True)
def played_mask(s):
    """Every card played so far: the finished tricks and the trick in progress."""
    return s[WON] | s[WON + 1] | s[WON + 2] | s[TRICK_MASK]


@nb.njit(cache=True)
def rest_size(s):
    """Cards not dealt to a hand: the Shmear stock (17) or the NE undealt cards (8)."""
    return popcount(DECK_MASKS[s[OPTIONS + O_VARIANT]]) - HAND_SIZE * s[NUM_PLAYERS]


@nb.njit(cache=True)
def played_by(s, played, out):
    """``out[p]`` = the mask of the cards seat ``p`` has played (from ``PLAYED_BY``)."""
    out[:] = 0
    m = played
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        out[s[PLAYED_BY + c]] |= bit(c)


@nb.njit(cache=True)
def shown_voids(s, out):
    """``out[p]`` = the cards seat ``p`` cannot hold: every suit it failed to follow. Playing a
    trump on a plain lead shows nothing when a trump may always be played (NE Smear, ``may_trump``)."""
    out[:] = 0
    n = s[NUM_PLAYERS]
    table = s[TABLE]
    trump = s[TRUMP]
    may_trump = s[OPTIONS + O_MAY_TRUMP]
    for t in range(s[TRICK_NO] + 1):
        slot = TRICKS + t * TRICK_SLOTS
        count = n if t < s[TRICK_NO] else s[IN_TRICK]
        if count < 2:
            continue
        leader = s[slot] if t < s[TRICK_NO] else s[LEADER]
        led = EFFECTIVE[table, s[slot + 1]]
        for i in range(1, count):
            e = EFFECTIVE[table, s[slot + 1 + i]]
            if shows_void(led, e, trump, may_trump):
                out[(leader + i) % n] |= SUIT_MASKS[table, led]


@nb.njit(cache=True)
def discarder(s, seat):
    """The seat other than ``seat`` whose hidden discards follow the trump-discard rule (the Shmear
    dealer, the NE bidder), or -1."""
    q = s[DEALER] if s[OPTIONS + O_VARIANT] == SHMEAR else s[BIDDER]
    return -1 if q == seat else q


@nb.njit(cache=True)
def trump_hidden(s, seat):
    """Whether ``seat`` does not know trump though it is named: NE Smear, not the bidder, before
    the bidder's first lead."""
    return s[TRUMP] >= 0 and not trump_shown(s, seat)


@nb.njit(cache=True)
def place_sizes(s, seat, cap):
    """The unseen places' sizes into ``cap``; returns the mask of the cards ``seat`` cannot see."""
    cap[:] = 0
    for p in range(s[NUM_PLAYERS]):
        if p != seat:
            cap[P_HAND + p] = popcount(s[HANDS + p])
            cap[P_DISCARD + p] = popcount(s[DISCARDS + p])
    cap[P_STOCK] = popcount(s[STOCK])
    deck = DECK_MASKS[s[OPTIONS + O_VARIANT]]
    return deck & ~(s[HANDS + seat] | s[DISCARDS + seat] | played_mask(s))


@nb.njit(cache=True)
def place_rules(s, seat, trump, voids, allow):
    """Which cards each place may take, trump being ``trump`` (-1: not named)."""
    deck = DECK_MASKS[s[OPTIONS + O_VARIANT]]
    row = s[OPTIONS + O_VARIANT] * 4 + max(trump, 0)
    trumps = SUIT_MASKS[row, trump] if trump >= 0 else np.int64(0)
    q = discarder(s, seat)
    for p in range(s[NUM_PLAYERS]):
        allow[P_HAND + p] = deck & ~voids[p]
        if p == q:  # the dealer / bidder: no protected card
            allow[P_DISCARD + p] = deck & ~(PROTECTED[row] if trump >= 0 else 0)
        else:  # the Shmear draw: non-trumps only
            allow[P_DISCARD + p] = deck & ~trumps
    allow[P_STOCK] = deck
    allow[P_KEEP] = 0


@nb.njit(cache=True)
def rules_hold(s, seat, trump, got, played_of):
    """The discarder's rules on a deal ``got``: trumps among his discards only when he kept at
    least 6 trumps; with a hidden NE trump, he held a card of that suit."""
    q = discarder(s, seat)
    if q < 0 or trump < 0:
        return True
    trumps = SUIT_MASKS[s[OPTIONS + O_VARIANT] * 4 + trump, trump]
    kept = got[P_HAND + q] | got[P_KEEP] | played_of[q]
    if got[P_DISCARD + q] & trumps != 0 and popcount(kept & trumps) < HAND_SIZE:
        return False
    if trump_hidden(s, seat) and (kept | got[P_DISCARD + q]) & trumps == 0:
        return False
    return True


# --- dealing ----------------------------------------------------------------------------------


@nb.njit(cache=True)
def deal_once(unseen, cap, allow, got, rng):
    """Shuffle ``unseen`` into the places (sizes ``cap``); False as soon as a place gets a card it
    may not take. Drawing place after place is a uniform deal whatever the order."""
    remaining = unseen
    for p in range(NUM_PLACES):
        got[p], remaining = draw_cards(remaining, cap[p], rng)
        if got[p] & ~allow[p] != 0:
            return False
    return True


@nb.njit(cache=True)
def max_flow(r, nodes, parent, queue):
    """Edmonds-Karp on the residual capacities ``r`` (source 0, sink ``nodes - 1``); consumes ``r``."""
    sink = nodes - 1
    flow = 0
    while True:
        parent[:nodes] = -1
        parent[0] = 0
        queue[0] = 0
        head, tail = 0, 1
        while head < tail and parent[sink] < 0:
            u = queue[head]
            head += 1
            for v in range(nodes):
                if parent[v] < 0 and r[u, v] > 0:
                    parent[v] = u
                    queue[tail] = v
                    tail += 1
        if parent[sink] < 0:
            return flow
        push = np.int64(1 << 30)
        v = sink
        while v != 0:
            push = min(push, r[parent[v], v])
            v = parent[v]
        v = sink
        while v != 0:
            r[parent[v], v] -= push
            r[v, parent[v]] += push
            v = parent[v]
        flow += push


@nb.njit(cache=True)
def feasible(cards, cap, allow, keys, counts, r, parent, queue):
    """Whether ``cards`` can be dealt to the places (free room ``cap``, rules ``allow``): a
    transportation problem over classes of cards with the same allowed places, solved by max-flow."""
    classes = 0
    m = cards
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        key = 0
        for p in range(NUM_PLACES):
            if cap[p] > 0 and has(allow[p], c):
                key |= 1 << p
        if key == 0:
            return False
        j = 0
        while j < classes and keys[j] != key:
            j += 1
        if j == classes:
            keys[j] = key
            counts[j] = 0
            classes += 1
        counts[j] += 1
    nodes = 2 + classes + NUM_PLACES
    r[:nodes, :nodes] = 0
    for j in range(classes):
        r[0, 1 + j] = counts[j]
        for p in range(NUM_PLACES):
            if keys[j] >> p & 1:
                r[1 + j, 1 + classes + p] = counts[j]
    for p in range(NUM_PLACES):
        r[1 + classes + p, nodes - 1] = cap[p]
    return max_flow(r, nodes, parent, queue) == popcount(cards)


@nb.njit(cache=True)
def deal_constructive(unseen, cap, allow, got, rng):
    """Deal ``unseen`` consistently (the caller checked ``feasible``): the cards with the fewest
    allowed places first, each to a random allowed place weighted by its free room, keeping only
    choices that leave the rest dealable."""
    keys = np.zeros(54, np.int64)
    counts = np.zeros(54, np.int64)
    r = np.zeros((FLOW_NODES, FLOW_NODES), np.int64)
    parent = np.zeros(FLOW_NODES, np.int64)
    queue = np.zeros(FLOW_NODES, np.int64)
    order = np.zeros(54, np.int64)
    free = cap.copy()
    got[:] = 0
    # the order: by number of allowed places, random within
    options = np.zeros(54, np.int64)
    m = unseen
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        for p in range(NUM_PLACES):
            if cap[p] > 0 and has(allow[p], c):
                options[c] += 1
    at = 0
    for k in range(1, NUM_PLACES + 1):
        group = np.int64(0)
        m = unseen
        while m != 0:
            c = lowest_card(m)
            m &= m - 1
            if options[c] == k:
                group |= bit(c)
        draw_in_order(group, popcount(group), order, at, rng)
        at += popcount(group)
    rest = unseen
    for i in range(at):
        c = order[i]
        rest &= ~bit(c)
        tried = 0  # places already refused for this card
        while True:
            room = 0
            for p in range(NUM_PLACES):
                if not (tried >> p & 1) and has(allow[p], c):
                    room += free[p]
            if room == 0:  # cannot happen from a feasible start: put it anywhere with room
                chosen = 0
                while free[chosen] == 0:
                    chosen += 1
                got[chosen] |= bit(c)
                free[chosen] -= 1
                break
            chosen = pick_place(c, allow, free, tried, rand_below(rng, room))
            free[chosen] -= 1
            if feasible(rest, free, allow, keys, counts, r, parent, queue):
                got[chosen] |= bit(c)
                break
            free[chosen] += 1
            tried |= 1 << chosen


@nb.njit(cache=True)
def pick_place(c, allow, free, tried, pick):
    """The place that the ``pick``-th free slot among the untried places allowing ``c`` falls in."""
    for p in range(NUM_PLACES):
        if not (tried >> p & 1) and has(allow[p], c):
            if pick < free[p]:
                return p
            pick -= free[p]
    return -1


@nb.njit(cache=True)
def fallback(s, seat, unseen, cap, voids, played_of, got, rng):
    """The constructive deal, with the discarder's trump rule as a place: mode 0 keeps trumps out
    of his hidden discards (and, trump hidden, one trump in his hand); mode 1 keeps at least 6
    trumps with him. Returns the trump used (a hidden NE trump: the first suit, in random order,
    for which a mode works)."""
    allow = np.zeros(NUM_PLACES, np.int64)
    free = np.zeros(NUM_PLACES, np.int64)
    keys = np.zeros(54, np.int64)
    counts = np.zeros(54, np.int64)
    r = np.zeros((FLOW_NODES, FLOW_NODES), np.int64)
    parent = np.zeros(FLOW_NODES, np.int64)
    queue = np.zeros(FLOW_NODES, np.int64)
    suits = np.zeros(4, np.int64)
    hidden = trump_hidden(s, seat)
    if hidden:
        draw_in_order(np.int64(0xF), 4, suits, 0, rng)
    q = discarder(s, seat)
    for k in range(4 if hidden else 1):
        trump = suits[k] if hidden else s[TRUMP]
        for mode in range(2):
            place_rules(s, seat, trump, voids, allow)
            free[:] = cap
            if q >= 0 and trump >= 0:
                trumps = SUIT_MASKS[s[OPTIONS + O_VARIANT] * 4 + trump, trump]
                if mode == 0:
                    allow[P_DISCARD + q] &= ~trumps
                    need = 1 if hidden else 0
                else:
                    need = max(0, HAND_SIZE - popcount(played_of[q] & trumps))
                if need > free[P_HAND + q]:
                    continue
                free[P_KEEP] = need
                free[P_HAND + q] -= need
                allow[P_KEEP] = allow[P_HAND + q] & trumps
            elif mode == 1:
                continue
            if feasible(unseen, free, allow, keys, counts, r, parent, queue):
                deal_constructive(unseen, free, allow, got, rng)
                if q >= 0:
                    got[P_HAND + q] |= got[P_KEEP]
                got[P_KEEP] = 0
                return trump
    # no consistent deal (cannot happen for a reachable state): deal ignoring the rules
    deal_once(unseen, cap, np.full(NUM_PLACES, -1, np.int64), got, rng)
    return s[TRUMP]


@nb.njit(cache=True)
def write_world(s, seat, trump, got, played_of, rng, out):
    """Write the deal ``got`` into ``out`` (a copy of ``s``) and rebuild what follows from it:
    the stock order, who drew which cards, the NE widow, a hidden trump, a finished hand's score."""
    n = s[NUM_PLAYERS]
    for p in range(n):
        if p != seat:
            out[HANDS + p] = got[P_HAND + p]
            out[DISCARDS + p] = got[P_DISCARD + p]
    out[STOCK] = got[P_STOCK]
    if trump != s[TRUMP]:
        out[TRUMP] = trump
        out[TABLE] = s[OPTIONS + O_VARIANT] * 4 + trump
    size = rest_size(s)
    if s[OPTIONS + O_VARIANT] == SHMEAR:
        dealer = s[DEALER]
        at = 0
        p = (dealer + 1) % n
        while p != dealer:  # the draw, from eldest: each seat's drawn cards in its hand or play
            d = s[DRAWN + p]
            if d > 0 and p != seat:
                draw_in_order(out[HANDS + p] | played_of[p], d, out, REST_ORDER + at, rng)
            at += d
            p = (p + 1) % n
        nxt = s[STOCK_NEXT]
        if s[STOCK] != 0:  # the stock still to draw or take, in a random order
            draw_in_order(got[P_STOCK], size - nxt, out, REST_ORDER + nxt, rng)
        elif seat != dealer:  # the dealer took it: some of what he had
            everything = out[HANDS + dealer] | out[DISCARDS + dealer] | played_of[dealer]
            draw_in_order(everything, size - nxt, out, REST_ORDER + nxt, rng)
    else:
        widow = s[OPTIONS + O_WIDOW]
        bidder = s[BIDDER]
        if s[PHASE] == BIDDING or bidder < 0:  # the widow is still among the undealt cards
            draw_in_order(got[P_STOCK], size, out, REST_ORDER, rng)
        else:
            if seat != bidder:  # the widow: some of the bidder's cards
                everything = out[HANDS + bidder] | out[DISCARDS + bidder] | played_of[bidder]
                draw_in_order(everything, widow, out, REST_ORDER, rng)
                out[WIDOW_TAKEN] = 0
                for i in range(widow):
                    out[WIDOW_TAKEN] |= bit(out[REST_ORDER + i])
            draw_in_order(got[P_STOCK], size - widow, out, REST_ORDER + widow, rng)
    if s[PHASE] == OVER and (s[OUTCOME] == OUTCOME_MADE or s[OUTCOME] == OUTCOME_FAILED):
        K._score(out)


@nb.njit(cache=True)
def sample_with(s, seat, rng, out, tries):
    """``sample`` with ``tries`` rejection tries (0: the constructive deal at once, for tests)."""
    out[:] = s
    cap = np.zeros(NUM_PLACES, np.int64)
    allow = np.zeros(NUM_PLACES, np.int64)
    got = np.zeros(NUM_PLACES, np.int64)
    voids = np.zeros(K.MAX_PLAYERS, np.int64)
    played_of = np.zeros(K.MAX_PLAYERS, np.int64)
    unseen = place_sizes(s, seat, cap)
    shown_voids(s, voids)
    played_by(s, played_mask(s), played_of)
    hidden = trump_hidden(s, seat)
    trump = s[TRUMP]
    for _ in range(tries):
        if hidden:
            trump = rand_below(rng, 4)
        place_rules(s, seat, trump, voids, allow)
        if deal_once(unseen, cap, allow, got, rng) and rules_hold(s, seat, trump, got, played_of):
            write_world(s, seat, trump, got, played_of, rng, out)
            return
    trump = fallback(s, seat, unseen, cap, voids, played_of, got, rng)
    write_world(s, seat, trump, got, played_of, rng, out)


@nb.njit(cache=True)
def sample(s, seat, rng, out):
    """Write into ``out`` (an int64 array of ``len(s)``) a full state ("world") consistent with all
    that ``seat`` knows in ``s``: the cards it cannot see dealt again at random among the places
    they could be (other hands and discards, the stock), with the true sizes, under the knowledge
    rules of the module docstring. Bids are not used as evidence. Uniform by rejection, else a
    constructive, always consistent deal. ``s`` is not changed; ``rng`` is a random stream."""
    sample_with(s, seat, rng, out, SAMPLE_TRIES)


# --- the solver's hooks ------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def same_side(s, a, b):
    """Whether seats ``a`` and ``b`` score together: the same team (fixed by the seating)."""
    return team(s, a) == team(s, b)


@nb.njit(cache=True, inline="always")
def side_points(s, seat):
    """The Game tally of ``seat``'s team so far: game points (A 4, K 3, Q 2, J 1, T 10, joker 1) in
    the tricks it won, plus, in NE Smear, the bidder's discards for the bidding team. At the end it
    equals the game's ``GAME_POINTS`` slot of that team."""
    return np.int64(game_points(game_cards(s, team(s, seat))))


@nb.njit(cache=True, inline="always")
def play_key(s):
    """A hash of all that decides the rest of the hand: every hand, the seat to act, the leader,
    the trick in progress in play order, trump, the options, the phase, the trick number (a function
    of the hand sizes; it also says whether the NE first lead, a trump, is still to come), the
    bidder, bid and dealer, and before play the stock in drawing order and the draw counter. Not
    what was taken: finished tricks played in another order give the same key."""
    n = s[NUM_PLAYERS]
    h = hash_mix(np.int64(0x5EA5), s[PHASE])
    for k in range(OPTION_SIZE):
        h = hash_mix(h, s[OPTIONS + k])
    for p in range(n):
        h = hash_mix(h, s[HANDS + p])
    for slot in (TO_ACT, LEADER, TRUMP, TRICK_NO, IN_TRICK, LED, BIDDER, BID, DEALER):
        h = hash_mix(h, s[slot])
    at = TRICKS + s[TRICK_NO] * TRICK_SLOTS + 1
    for i in range(s[IN_TRICK]):
        h = hash_mix(h, s[at + i])
    if s[PHASE] < PLAYING:
        h = hash_mix(h, s[STOCK])
        h = hash_mix(h, s[STOCK_NEXT])
        h = hash_mix(h, s[K.DISCARDED])
        for i in range(s[STOCK_NEXT], rest_size(s)):
            h = hash_mix(h, s[REST_ORDER + i])
    return h


@nb.njit(cache=True, inline="always")
def score_key(s):
    """``play_key`` folded with all taken so far that the score reads: each team's Game tally, the
    team that won the trick holding the Jack, Jick and joker, and the team that played High and Low
    (``in_play``: the highest and lowest trump played so far, and the team that played each)."""
    h = play_key(s)
    for k in range(s[OPTIONS + O_TEAMS]):
        h = hash_mix(h, side_points(s, k))
    if s[TRUMP] < 0:
        return h
    table = s[TABLE]
    won = s[WON] | s[WON + 1] | s[WON + 2]
    for point in range(JACK, GAME):
        c = POINT_CARDS[table, point]
        h = hash_mix(h, trick_team(s, c) if c >= 0 else -1)
    high, low = high_low_cards(s, won)
    for c in (high, low):
        who = player_team(s, c, won) if c >= 0 else -1
        h = hash_mix(h, c * 8 + who + 1)
    return h


@nb.njit(cache=True, inline="always")
def merge(s, cards):
    """``cards`` (the legal cards of the seat to act) with one card kept (the highest) of each run
    of equivalent cards: the same effective suit, the same game points, no point card (High, Low,
    Jack, Jick, joker), and no card between them in power in any hand or in the trick in progress.
    Such cards give the same value in every line of play. Outside card play: ``cards`` unchanged."""
    if s[PHASE] != PLAYING:
        return cards
    table = s[TABLE]
    special = np.int64(0)
    for k in range(GAME):
        c = POINT_CARDS[table, k]
        if c >= 0:
            special |= bit(c)
    live = s[TRICK_MASK]
    for p in range(s[NUM_PLAYERS]):
        live |= s[HANDS + p]
    out = cards
    for e in range(4):
        suit = SUIT_MASKS[table, e]
        candidates = cards & suit & ~special
        if popcount(candidates) < 2:
            continue
        between = live & suit & ~candidates  # cards that may separate two candidates
        m = candidates
        while m != 0:
            c = lowest_card(m)
            m &= m - 1
            power = POWER[table, c]
            above = -1  # the next candidate up
            rest = candidates
            while rest != 0:
                d = lowest_card(rest)
                rest &= rest - 1
                if POWER[table, d] > power and (above < 0 or POWER[table, d] < POWER[table, above]):
                    above = d
            if above < 0 or game_points(bit(c)) != game_points(bit(above)):
                continue
            split = False
            rest = between
            while rest != 0:
                x = lowest_card(rest)
                rest &= rest - 1
                if power < POWER[table, x] and POWER[table, x] < POWER[table, above]:
                    split = True
            if not split:
                out &= ~bit(c)
    return out


@nb.njit(cache=True, inline="always")
def points_bounds(s, seat):
    """``(low, high)`` bounds on what ``side_points`` of ``seat`` can still gain from ``s``: at
    most the game points of every card still in a hand or in the trick in progress."""
    live = s[TRICK_MASK]
    for p in range(s[NUM_PLAYERS]):
        live |= s[HANDS + p]
    return np.int64(0), np.int64(game_points(live))


@nb.njit(cache=True, inline="always")
def _player_of(s, c, live):
    """The seat that plays (or played) card ``c``: its holder while it is in a hand."""
    if has(live ^ s[TRICK_MASK], c):
        for p in range(s[NUM_PLAYERS]):
            if has(s[HANDS + p], c):
                return p
    return s[PLAYED_BY + c]


@nb.njit(cache=True, inline="always")
def score_bounds(s, seat):
    """``(low, high)`` bounds on the hand score of ``seat`` from ``s`` on. Every card held is
    played by the end, so High and Low (to the team that plays the card, fixed or ``in_play``) are
    known from who holds or played it; Jack, Jick and Joker are its team's once in its tricks and
    open while the card is live; Game is sure when no other team can catch up with all the game
    points still live, open while the team can still pass every other. The team's points lie in
    between; a team that did not bid scores them, the bidding team's score (``bidder_score``) never
    falls as they rise. Before the play: ``NO_BOUND``; once the hand is over, the score itself."""
    if s[PHASE] == OVER:
        return s[SCORES + seat], s[SCORES + seat]
    if s[PHASE] != PLAYING:
        return -NO_BOUND, NO_BOUND
    table = s[TABLE]
    k = team(s, seat)
    live = s[TRICK_MASK]  # cards still to go into a team's tricks
    for p in range(s[NUM_PLAYERS]):
        live |= s[HANDS + p]
    won = s[WON] | s[WON + 1] | s[WON + 2]
    sure, open_ = 0, 0
    high, low = high_low_cards(s, won | live)
    for c in (high, low):
        if c >= 0 and has(won | live, c) and team(s, _player_of(s, c, live)) == k:
            sure += 1
    for point in range(JACK, GAME):
        c = POINT_CARDS[table, point]
        if c >= 0:
            sure += trick_team(s, c) == k
            open_ += has(live, c)
    rest = game_points(live)
    mine = side_points(s, seat)
    ahead, can_pass = True, True
    for j in range(s[OPTIONS + O_TEAMS]):
        if j != k:
            theirs = side_points(s, j)  # team j is named by its lowest seat, j
            ahead = ahead and mine > theirs + rest
            can_pass = can_pass and mine + rest > theirs
    sure += ahead
    open_ += can_pass and not ahead
    if s[BIDDER] >= 0 and team(s, s[BIDDER]) == k:
        return np.int64(bidder_score(sure, s[BID])[0]), np.int64(bidder_score(sure + open_, s[BID])[0])
    return np.int64(sure), np.int64(sure + open_)
