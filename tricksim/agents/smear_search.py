"""Search hooks of the two smears (docs/rules.md, Shmear and NE Smear): what a seat knows, for the
world sampler, and the solver's keys, tallies and card merging, as numba kernels over ``sim/smear.py``'s state.

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
  shows nothing (the heuristic's ``agents.smear.shown_voids``, the one definition of it);
* rule facts from public play: a Shmear non-dealer's draw discards are non-trumps; the Shmear
  dealer's and the NE bidder's discards hold no protected card (A, Low, Jack, Jick, joker of
  trumps) and hold trumps only if the discarder kept at least 6 trumps (a trump may be discarded
  only while holding more than 6: docs/rules.md, Shmear: Draw, NE Smear: Widow and trump); the NE
  bidder held a card of the suit he named (which, with the discard rule, leaves him a trump to lead).

The sampler does not read the bids (nor the choice of trump, the draw counts) as evidence about the
cards: every deal consistent with the rules above is as likely as any other; the inference
(``agents.inference``, ``auction_log_chance`` here) weighs the worlds by the bids. Nor is the final
score of a hand that is over (it reveals the NE bidder's discards' Game points): a finished hand's
world is rescored from its own cards.

**How it samples**: by the one sampler of ``agents.sampler``, uniform over the deals that keep the
rules above. Its places are each other seat's hand and discards, and the stock (Shmear: the stock
still to draw or take; NE Smear: the undealt cards, the widow included until the auction ends),
with their true sizes (``knowledge``: the voids and the discard masks); ``holds`` replays the
discarder's discards through the game's ``discard_mask`` and checks a hidden NE trump against
``trump_words``. A hidden NE trump is a hypothesis: the worlds are uniform over the pairs of a suit
and a deal. In the constructive fallback the discarder's trump rule is met one of two ways
(``variant``): no trump among his hidden discards, or (when that cannot be) at least 6 trumps kept.

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

from ..sim import actions as A
from ..sim import smear as K
from ..sim.kernels import NO_BOUND, bit, draw_in_order, has, hash_mix, lowest_card, popcount
from ..sim.smear import (
    BID, BIDDER, BIDDING, DEALER, DECK_MASKS, DISCARDS, DRAWN, GAME, HAND_SIZE, HANDS, IN_TRICK,
    JACK, LEADER, LED, MAX_TEAMS, NUM_PLAYERS, O_TEAMS, O_VARIANT, O_WIDOW, OPTION_SIZE,
    OPTIONS, OUTCOME, OUTCOME_FAILED, OUTCOME_MADE, OVER, PHASE, PLAYED_BY, PLAYING, POINT_CARDS, POWER,
    PROTECTED, REST_ORDER, SCORES, SHMEAR, STOCK, STOCK_NEXT, SUIT_MASKS, TABLE, TO_ACT, TRICK_MASK, TRICK_NO,
    TRICK_SLOTS, TRICKS, TRUMP, WIDOW_TAKEN, WON, LAST_CALL, MAX_PLAYERS,
    bidder_score, discard_mask, game_cards, game_points, high_low_cards, left, player_team, team, trick_team,
    trump_shown, trump_words, trumps_of,
)
from .inference import bid_log_chance
from .sampler import QUOTA_COUNT, QUOTA_MASK, QUOTA_PLACE, TRIES, world
from .smear import act as heuristic_act
from .smear import shown_voids

# the sampler's places
P_HAND = 0  # + seat: the seat's hand
P_DISCARD = 6  # + seat: the seat's discards
P_STOCK = 12  # the stock / undealt cards
NUM_PLACES = 13


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
def _trump(s, seat, h):
    """Trump under hypothesis ``h``: suit ``h`` while it is hidden from ``seat``, else the known one
    (-1 before it is named)."""
    return h if trump_hidden(s, seat) else s[TRUMP]


@nb.njit(cache=True, inline="always")
def knowledge(s, seat, h, room, allow, facts):
    """The sampler's ``knowledge`` (``agents.sampler``): the places are each seat's hand
    (``P_HAND`` + seat) and discards (``P_DISCARD`` + seat; ``seat``'s own hide nothing) and the
    stock, with their true sizes; a hand holds no suit its seat showed void in (the heuristic's
    ``agents.smear.shown_voids``, the one definition of it), the discarder's discards no protected
    card, a Shmear draw's discards no trump, and no trump either when he cannot have kept
    ``HAND_SIZE`` trumps (a trump is discarded only from more: ``discard_mask``; implied by
    ``holds``, so a mask only spares rejected tries). While the NE trump is hidden from ``seat``,
    each suit is a hypothesis. ``facts``: the cards each seat has played."""
    played_by(s, played_mask(s), facts)
    trump = _trump(s, seat, h)
    row = s[OPTIONS + O_VARIANT] * 4 + max(trump, 0)
    deck = DECK_MASKS[s[OPTIONS + O_VARIANT]]
    trumps = SUIT_MASKS[row, trump] if trump >= 0 else np.int64(0)
    voids = shown_voids(s)
    q = discarder(s, seat)
    room[:NUM_PLACES] = 0
    allow[:NUM_PLACES] = deck
    for p in range(s[NUM_PLAYERS]):
        if p != seat:
            room[P_HAND + p] = popcount(s[HANDS + p])
            room[P_DISCARD + p] = popcount(s[DISCARDS + p])
        for e in range(4):
            if voids >> (4 * p + e) & 1:
                allow[P_HAND + p] &= ~SUIT_MASKS[s[TABLE], e]
        if p == q:  # the dealer / bidder: no protected card
            allow[P_DISCARD + p] = deck & ~(PROTECTED[row] if trump >= 0 else 0)
        else:  # the Shmear draw: non-trumps only
            allow[P_DISCARD + p] = deck & ~trumps
    room[P_STOCK] = popcount(s[STOCK])
    unseen = deck & ~(s[HANDS + seat] | s[DISCARDS + seat] | played_mask(s))
    if q >= 0 and trump >= 0:  # a trump discarded leaves him more than HAND_SIZE - 1 (discard_mask)
        most = popcount(facts[q] & trumps) + min(popcount(unseen & trumps & allow[P_HAND + q]), room[P_HAND + q])
        if most < HAND_SIZE:
            allow[P_DISCARD + q] &= ~trumps
    hypotheses = 4 if trump_hidden(s, seat) else 1
    return NUM_PLACES, hypotheses, unseen


@nb.njit(cache=True, inline="always")
def put(s, seat, h, cards, room, out):
    """The sampler's ``put``: the other hands and discards and the stock into ``out``, and a hidden
    NE trump (``TRUMP`` and ``TABLE``) as hypothesis ``h``."""
    for p in range(s[NUM_PLAYERS]):
        if p != seat:
            out[HANDS + p] = cards[P_HAND + p]
            out[DISCARDS + p] = cards[P_DISCARD + p]
    out[STOCK] = cards[P_STOCK]
    if trump_hidden(s, seat):
        out[TRUMP] = h
        out[TABLE] = s[OPTIONS + O_VARIANT] * 4 + h


@nb.njit(cache=True, inline="always")
def holds(s, seat, h, facts, out):
    """The sampler's ``holds``: the discarder's hidden discards were legal (``discard_mask``) in
    some order, the non-trumps first and then the trumps, from his cards then (what he keeps or
    has played, and his discards); a hidden NE trump was a suit he could name (``trump_words``)."""
    q = discarder(s, seat)
    if q < 0 or out[TRUMP] < 0:
        return True
    discards = out[DISCARDS + q]
    hand = out[HANDS + q] | facts[q] | discards
    trumps = trumps_of(out, discards)
    for part in (discards & ~trumps, trumps):
        m = part
        while m != 0:
            c = lowest_card(m)
            m &= m - 1
            if not has(discard_mask(out, hand), c):
                return False
            hand &= ~bit(c)
    if not trump_hidden(s, seat):
        return True
    kept, to_act = out[HANDS + q], out[TO_ACT]
    out[HANDS + q], out[TO_ACT] = kept | facts[q] | discards, q
    named = has(trump_words(out), A.TRUMP + out[TRUMP])
    out[HANDS + q], out[TO_ACT] = kept, to_act
    return named


@nb.njit(cache=True)
def variant(s, seat, h, v, salt, free, fixed, facts, extra, quota):
    """The sampler's ``variant``: the discarder's trump rule met one of two ways. Variant 0: no
    trump among his hidden discards (and, trump hidden, one trump in his hand); variant 1: at
    least as many trumps kept as a hand has cards (``HAND_SIZE``), his played trumps counted."""
    extra[:] = 0
    quota[QUOTA_COUNT] = 0
    q = discarder(s, seat)
    trump = _trump(s, seat, h)
    if q < 0 or trump < 0:
        return 1
    trumps = SUIT_MASKS[s[OPTIONS + O_VARIANT] * 4 + trump, trump]
    quota[QUOTA_PLACE], quota[QUOTA_MASK] = P_HAND + q, trumps
    if v == 0:
        extra[P_DISCARD + q] = trumps
        quota[QUOTA_COUNT] = 1 if trump_hidden(s, seat) else 0
    else:
        quota[QUOTA_COUNT] = max(0, HAND_SIZE - popcount(facts[q] & trumps))
    return 2


@nb.njit(cache=True, inline="always")
def finish(s, seat, h, facts, rng, out):
    """The sampler's ``finish``: rebuild what follows from the deal in ``out``: the stock order,
    who drew which cards, the NE widow, a finished hand's score (module docstring)."""
    n = s[NUM_PLAYERS]
    size = rest_size(s)
    if s[OPTIONS + O_VARIANT] == SHMEAR:
        dealer = s[DEALER]
        at = 0
        p = (dealer + 1) % n
        while p != dealer:  # the draw, from eldest: each seat's drawn cards in its hand or play
            d = s[DRAWN + p]
            if d > 0 and p != seat:
                draw_in_order(out[HANDS + p] | facts[p], d, out, REST_ORDER + at, rng)
            at += d
            p = (p + 1) % n
        nxt = s[STOCK_NEXT]
        if s[STOCK] != 0:  # the stock still to draw or take, in a random order
            draw_in_order(out[STOCK], size - nxt, out, REST_ORDER + nxt, rng)
        elif seat != dealer:  # the dealer took it: some of what he had
            everything = out[HANDS + dealer] | out[DISCARDS + dealer] | facts[dealer]
            draw_in_order(everything, size - nxt, out, REST_ORDER + nxt, rng)
    else:
        widow = s[OPTIONS + O_WIDOW]
        bidder = s[BIDDER]
        if s[PHASE] == BIDDING or bidder < 0:  # the widow is still among the undealt cards
            draw_in_order(out[STOCK], size, out, REST_ORDER, rng)
        else:
            if seat != bidder:  # the widow: some of the bidder's cards
                everything = out[HANDS + bidder] | out[DISCARDS + bidder] | facts[bidder]
                draw_in_order(everything, widow, out, REST_ORDER, rng)
                out[WIDOW_TAKEN] = 0
                for i in range(widow):
                    out[WIDOW_TAKEN] |= bit(out[REST_ORDER + i])
            draw_in_order(out[STOCK], size - widow, out, REST_ORDER + widow, rng)
    if s[PHASE] == OVER and (s[OUTCOME] == OUTCOME_MADE or s[OUTCOME] == OUTCOME_FAILED):
        K._score(out)


@nb.njit(cache=True)
def sample(s, seat, rng, out):
    """Write into ``out`` (an int64 array of ``len(s)``) a full state ("world") consistent with all
    that ``seat`` knows in ``s``: the one sampler (``agents.sampler.world``) with the smears'
    knowledge (module docstring). ``s`` is not changed; ``rng`` is
    a random stream."""
    world(s, seat, rng, out, TRIES, __name__)  # with this module's knowledge, put, holds, variant, finish


@nb.njit(cache=True, inline="always")
def play_start(s, out):
    """Write into ``out`` the state of ``s``'s deal (``s`` in the card play) at the start of the
    card play, for the inference's replay (``agents.inference``): every card played back in the
    hand that played it, the tricks won cleared, the bidder to lead. The tricks' slots and
    ``PLAYED_BY`` keep their cards: the replay writes them again."""
    out[:] = s
    n = s[NUM_PLAYERS]
    for t in range(s[TRICK_NO] + 1):
        slot = TRICKS + t * TRICK_SLOTS
        for i in range(n if t < s[TRICK_NO] else s[IN_TRICK]):
            out[HANDS + (s[slot] + i) % n] |= bit(s[slot + 1 + i])
    out[WON:WON + MAX_TEAMS] = 0
    out[TRICK_MASK] = 0
    out[TRICK_NO] = 0
    out[IN_TRICK] = 0
    out[LED] = -1
    out[LEADER] = out[TO_ACT] = s[BIDDER]


@nb.njit(cache=True, inline="always")
def dealt_hands(world, out):
    """Write into ``out``'s hands each seat's hand as dealt in ``world`` (in the card play; the
    other slots as ``play_start`` writes them): the cards played back, the discards back, less
    what the seat drew from the stock (Shmear: its cards of ``REST_ORDER``, the dealer the rest of
    the stock) or took with the widow (NE Smear: ``WIDOW_TAKEN``). In a sampled world those are the
    sampler's own choice among the seat's cards (``finish``)."""
    play_start(world, out)
    n = world[NUM_PLAYERS]
    if world[OPTIONS + O_VARIANT] == SHMEAR:
        dealer = world[DEALER]
        at = 0
        p = left(world, dealer)
        while p != dealer:
            drawn = np.int64(0)
            for i in range(world[DRAWN + p]):
                drawn |= bit(world[REST_ORDER + at + i])
            at += world[DRAWN + p]
            out[HANDS + p] = (out[HANDS + p] | world[DISCARDS + p]) & ~drawn
            p = left(world, p)
        taken = np.int64(0)
        for i in range(at, rest_size(world)):
            taken |= bit(world[REST_ORDER + i])
        out[HANDS + dealer] = (out[HANDS + dealer] | world[DISCARDS + dealer]) & ~taken
    else:
        for p in range(n):
            out[HANDS + p] |= world[DISCARDS + p]
        if world[BIDDER] >= 0:
            out[HANDS + world[BIDDER]] &= ~world[WIDOW_TAKEN]


@nb.njit(cache=True, inline="always")
def _log_chance(s, action, eps, hparams, rng):
    """The log of the softened heuristic's chance that the seat to act at ``s`` makes the call
    ``action`` (a pass or a bid, on a scale: ``inference.bid_log_chance``)."""
    words, _, _ = K.legal(s)
    return bid_log_chance(words, heuristic_act(s, hparams, rng), action, eps)


@nb.njit(cache=True)
def auction_log_chance(world, seat, eps, hparams, rng, r):
    """The log of the chance of the bids and passes of the seats other than ``seat`` in ``world``
    (a full deal, in the bidding or the card play), each from its hand as dealt
    (``dealt_hands``), under the heuristic softened by ``eps`` (``agents.inference``). The trump,
    the draw and the discards are not read, nor is anything between the bidding and the play.
    ``r`` (an int64 array of ``len(world)``) is scratch."""
    phase = world[PHASE]
    if phase == PLAYING:
        dealt_hands(world, r)
    elif phase == BIDDING:
        r[:] = world
    else:
        return 0.0
    r[PHASE] = BIDDING
    r[BIDDER] = r[TRUMP] = -1
    r[BID] = r[TABLE] = 0
    for p in range(MAX_PLAYERS):
        r[LAST_CALL + p] = -1
    r[TO_ACT] = left(r, r[DEALER])
    total = 0.0
    while r[PHASE] == BIDDING and world[LAST_CALL + r[TO_ACT]] >= 0:
        call = world[LAST_CALL + r[TO_ACT]]
        if r[TO_ACT] != seat:
            total += _log_chance(r, call, eps, hparams, rng)
        K.step(r, call)
    return total


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
