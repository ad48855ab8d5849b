"""What always holds (docs/rules.md, All games) for the two smears, Shmear and NE Smear, checked
after every step of many random hands, and the deals' probabilities.

A rule oracle written here from docs/rules.md (All games, Shmear, NE Smear: decks, trump orders, who acts, legal bids,
trump calls, draws, discards and plays, trick winners, points and scores), independent of the
engine's tables, backs:

* ``check_hands`` (numba): deals with the engine's ``deal_random``, plays uniformly random legal
  actions through ``legal``/``step`` (the random agent, stream 1, as the batch loop does) and
  checks the raw state after every step: every card of the deck in exactly one place (hands,
  stock, discards, the trick slots played), nothing outside the deck; the stock is the rest of the
  deal's order; the seat to act and its legal set equal the oracle's (non-empty while the hand is
  on, empty after; legal cards held by that seat); one card from each player per trick,
  clockwise from the leader; the trick winner; the hand sizes; and at the end the points (Shmear
  6, or 5 exactly when Game is tied; NE Smear at most 4, a fixed High/Low/Jack with no winner
  exactly when its card was not played), the game points, the outcome and the scores.
* ``test_public_api_invariants_*``: hypothesis tests doing the same through the State API.
* deal probabilities from ``deal_random``, within 5 standard errors of the exact values.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tricksim
from tricksim.agents.random import uniform_action
from tricksim.cards import card_label, parse_card, parse_cards
from tricksim.sim import actions as A
from tricksim.sim import smear as K
from tricksim.sim.kernels import RNG_SIZE, seed_stream

from oracle_bits import bit as _bit, count as _count

# --- the rule oracle, from docs/rules.md, Shmear and NE Smear ------------------------------------

SHMEAR, NESMEAR = 0, 1  # the oracle's own variant numbers (row of its tables: variant * 4 + trump)
SUITS = "CDHS"
JOKER = parse_card("LJ")
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}  # the left bower's suit
O_DECK = np.array([sum(1 << parse_card(r + s) for s in SUITS for r in "23456789TJQKA") | (1 << JOKER),
                   sum(1 << parse_card(r + s) for s in SUITS for r in "789TJQKA")], dtype=np.int64)
O_PLAYERS = (6, 4)
O_BIDS = np.array([[3, 6], [2, 4]], dtype=np.int64)  # lowest and highest bid
O_HAND = 6  # cards a hand, and a hand's tricks


def rule_trumps(v: int, t: str) -> list[int]:
    """docs/rules.md: the trumps of suit ``t``, high to low."""
    if v == SHMEAR:
        return parse_cards(f"A{t} K{t} Q{t} J{t} J{SAME_COLOUR[t]} T{t} 9{t} 8{t} 7{t} 6{t} 5{t} 4{t} 3{t} 2{t} LJ")
    return parse_cards(f"A{t} K{t} Q{t} J{t} T{t} 9{t} 8{t} 7{t}")


# per row (variant * 4 + trump): O_SUIT[row, c] = 4 for a trump, else the natural suit, -1 outside
# the deck; O_STRENGTH[row, c]: trumps 100 - place, other cards their rank 0..12 (2..A);
# O_SUIT_MASK[row, suit] (suit 4 = trump); the protected discards; High, Low, Jack, Jick, Joker.
O_SUIT = np.full((8, 54), -1, dtype=np.int64)
O_STRENGTH = np.full((8, 54), -1, dtype=np.int64)
O_SUIT_MASK = np.zeros((8, 5), dtype=np.int64)
O_PROTECTED = np.zeros(8, dtype=np.int64)
O_POINT_CARD = np.full((8, 5), -1, dtype=np.int64)
for _v in (SHMEAR, NESMEAR):
    for _ti, _t in enumerate(SUITS):
        _row = _v * 4 + _ti
        _trumps = rule_trumps(_v, _t)
        for _c in range(54):
            if not (int(O_DECK[_v]) >> _c) & 1:
                continue
            if _c in _trumps:
                O_SUIT[_row, _c], O_STRENGTH[_row, _c] = 4, 100 - _trumps.index(_c)
            else:
                O_SUIT[_row, _c], O_STRENGTH[_row, _c] = _c // 13, "23456789TJQKA".index(card_label(_c)[0])
            O_SUIT_MASK[_row, O_SUIT[_row, _c]] |= 1 << _c
        if _v == SHMEAR:  # High A, Low 2, Jack, Jick (left bower), Joker; the dealer keeps all five
            O_POINT_CARD[_row] = parse_cards(f"A{_t} 2{_t} J{_t} J{SAME_COLOUR[_t]} LJ")
            O_PROTECTED[_row] = sum(1 << c for c in O_POINT_CARD[_row])
        else:  # High A, Low 7, Jack; the bidder keeps A, J, 7
            O_POINT_CARD[_row, :3] = parse_cards(f"A{_t} 7{_t} J{_t}")
            O_PROTECTED[_row] = sum(1 << c for c in parse_cards(f"A{_t} J{_t} 7{_t}"))
assert [bin(int(O_SUIT_MASK[r, 4])).count("1") for r in range(8)] == [15] * 4 + [8] * 4
assert all(int(O_SUIT_MASK[r].sum()) == int(O_DECK[r // 4]) for r in range(8))
O_GAME_VALUE = np.zeros(54, dtype=np.int64)  # A 4, K 3, Q 2, J 1, T 10, the joker 1
for _c in range(52):
    O_GAME_VALUE[_c] = {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10}.get(card_label(_c)[0], 0)
O_GAME_VALUE[JOKER] = 1
P_HIGH, P_LOW, P_JACK, P_JICK, P_JOKER, P_GAME = range(6)  # the engine's POINT_WINNER order

# the oracle's rule switches, built by the test from the options it asked for
R_VARIANT, R_PLAYERS, R_TEAMS, R_MAY_TRUMP, R_WIDOW, R_IN_PLAY = range(6)

OPTION_SETS = [
    ("shmear", dict()),
    ("shmear", dict(teams=2)),
    ("shmear", dict(may_trump=True)),
    ("nesmear", dict()),
    ("nesmear", dict(widow=0)),
    ("nesmear", dict(widow=2, high_low="in_play")),
]
HANDS_PER_SET = 100_000
SEED = 11

ERRORS = {
    1: "the deal is not 6 cards a seat with the rest in the stock, in REST_ORDER",
    2: "a card is in two places at once (hands, stock, discards, played)",
    3: "a card of the deck is in no place, or a card outside the deck is somewhere",
    4: "the trick slots do not hold the cards played (or TRICK_MASK / WON disagree with them)",
    5: "the legal set is empty while the hand is not over",
    6: "the legal set is not empty after the hand is over",
    7: "a legal card is not held by the seat to act",
    8: "the wrong seat is to act (bids from eldest; draw from eldest; tricks from the leader, clockwise)",
    9: "a trick's winner differs from the oracle",
    10: "the trick winner does not lead the next trick",
    11: "the legal bids differ from docs/rules.md (pass or higher, min..max; ends at the dealer or top bid)",
    12: "the legal trump calls differ (Shmear any suit; NE Smear a suit the bidder holds)",
    13: "the legal draw discards differ (a non-dealer: done, or a non-trump)",
    14: "the legal discards differ (non-trumps; unprotected trumps only with more than 6 trumps)",
    15: "a play is illegal by the oracle, or a legal play is missing",
    16: "the stock is not the rest of the deal order (Shmear: from STOCK_NEXT; NE: after the widow)",
    17: "a hand has the wrong size (6 at the first lead; 6 + widow for the NE bidder; 6 after a draw)",
    18: "the phase / card kind differs from the oracle's",
    19: "a thrown-in hand that is not all passes, or with tricks or non-zero scores",
    20: "the point winners differ from the oracle (High, Low, Jack, Jick, Joker, Game)",
    21: "Shmear: not 6 points (5 exactly when Game is tied); NE Smear: more than 4",
    22: "the game points differ from the oracle (tricks won; NE: the bidder's discards too)",
    23: "the outcome, bidder points or scores differ (made / failed), or a seat's from its team's",
    24: "the hand did not end within 200 actions",
    25: "a Shmear point card (A, 2, bowers, joker) was never played",
}


# --- small oracle functions (plain numba, not cached: the checker that calls them is) ---------


@nb.njit(cache=False)
def oracle_play_mask(hand, row, v, may_trump, led_card, first_lead):
    """docs/rules.md, Shmear / NE Smear: Play: to lead anything (the NE bidder's first lead a trump); to follow, the
    effective suit led if held (Shmear with may_trump, and NE Smear: or a trump), else anything."""
    trumps = hand & O_SUIT_MASK[row, 4]
    if led_card < 0:
        return trumps if (v == NESMEAR and first_lead) else hand
    follow = hand & O_SUIT_MASK[row, O_SUIT[row, led_card]]
    if follow == 0:
        return hand
    if v == NESMEAR or may_trump:
        return follow | trumps
    return follow


@nb.njit(cache=False)
def oracle_discard_mask(hand, row):
    """docs/rules.md, Shmear: Draw (dealer) / NE Smear: Widow and trump: non-trumps; with more than
    6 trumps also the trumps that are not protected (Shmear A, 2, bowers, joker; NE A, J, 7)."""
    trumps = hand & O_SUIT_MASK[row, 4]
    allowed = hand & ~trumps
    if _count(trumps) > O_HAND:
        allowed |= trumps & ~O_PROTECTED[row]
    return allowed


@nb.njit(cache=False)
def oracle_winner(cards, n, row):
    """Position of the trick's winner: the highest trump, else the highest card of the suit led."""
    led = O_SUIT[row, cards[0]]
    best, best_strength = -1, -1
    for i in range(n):
        c = cards[i]
        if O_SUIT[row, c] == 4:
            strength = 1000 + O_STRENGTH[row, c]
        elif O_SUIT[row, c] == led:
            strength = O_STRENGTH[row, c]
        else:
            continue
        if strength > best_strength:
            best, best_strength = i, strength
    return best


@nb.njit(cache=False)
def bid_words(high, v):
    """Word mask of the legal bidding actions: pass, or a bid above ``high`` within the range."""
    words = _bit(A.PASS)
    for b in range(max(high + 1, O_BIDS[v][0]), O_BIDS[v][1] + 1):
        words |= _bit(A.BID + b)
    return words


@nb.njit(cache=False)
def trump_words(hand, v):
    """Word mask of the legal trump calls: Shmear any suit, NE Smear a suit held."""
    words = np.int64(0)
    for t in range(4):
        if v == SHMEAR or hand & O_SUIT_MASK[NESMEAR * 4 + t, 4] != 0:  # NE: the trumps are suit t
            words |= _bit(A.TRUMP + t)
    return words


@nb.njit(cache=False)
def locate(s, n, v, teams):
    """Every card in one place: hands, discards, stock, the trick slots played; the trick slots
    agree with TRICK_MASK (current trick) and WON (finished tricks, by the slots' winners)."""
    seen = np.int64(0)
    for i in range(2 * n + 1):
        m = s[K.HANDS + i] if i < n else (s[K.DISCARDS + i - n] if i < 2 * n else s[K.STOCK])
        if seen & m:
            return 2
        seen |= m
    won = np.zeros(3, np.int64)
    current = np.int64(0)
    done = s[K.TRICK_NO]
    for t in range(min(done + 1, O_HAND)):
        slot = K.TRICKS + t * K.TRICK_SLOTS
        k_max = n if t < done else s[K.IN_TRICK]
        trick = np.int64(0)
        for k in range(k_max):
            c = s[slot + 1 + k]
            if c < 0 or c >= 54 or (seen | trick) & _bit(c):
                return 2 if c >= 0 and c < 54 and (O_DECK[v] >> c) & 1 else 3
            trick |= _bit(c)
        seen |= trick
        if t < done:
            w = s[slot + 1 + K.MAX_PLAYERS]
            if w < 0 or w >= n:
                return 4
            won[w % teams] |= trick
        else:
            current = trick
    if seen != O_DECK[v]:
        return 3
    if current != s[K.TRICK_MASK]:
        return 4
    for k in range(3):
        if s[K.WON + k] != (won[k] if k < teams else 0):
            return 4
    return 0


@nb.njit(cache=False)
def stock_ok(s, v, first, rest):
    """The stock is exactly the deal's rest order from ``first`` on (``rest`` cards dealt there)."""
    m = np.int64(0)
    for i in range(first, rest):
        m |= _bit(s[K.REST_ORDER + i])
    return m == s[K.STOCK]


@nb.njit(cache=False)
def hand_points(rules, row, bidder, played_by, won_by, discards, points, game_pts):
    """The oracle's point winners (team or -1) into ``points`` and game points per team into
    ``game_pts``; ``played_by[c]`` / ``won_by[c]``: seat that played / team that won card c, or -1."""
    v, teams = rules[R_VARIANT], rules[R_TEAMS]
    points[:] = -1
    high, low = O_POINT_CARD[row, P_HIGH], O_POINT_CARD[row, P_LOW]
    if rules[R_IN_PLAY]:  # the highest and lowest trump played (a single one is both)
        high, low = -1, -1
        for c in range(54):
            if played_by[c] >= 0 and O_SUIT[row, c] == 4:
                if high < 0 or O_STRENGTH[row, c] > O_STRENGTH[row, high]:
                    high = c
                if low < 0 or O_STRENGTH[row, c] < O_STRENGTH[row, low]:
                    low = c
    if high >= 0 and played_by[high] >= 0:  # High and Low: the team of the player
        points[P_HIGH] = played_by[high] % teams
    if low >= 0 and played_by[low] >= 0:
        points[P_LOW] = played_by[low] % teams
    for p in range(P_JACK, P_GAME):  # Jack, Jick, Joker: the team that won the trick
        c = O_POINT_CARD[row, p]
        if c >= 0:
            points[p] = won_by[c]
    game_pts[:] = 0
    for c in range(54):
        if won_by[c] >= 0:
            game_pts[won_by[c]] += O_GAME_VALUE[c]
        if v == NESMEAR and (discards >> c) & 1:
            game_pts[bidder % teams] += O_GAME_VALUE[c]
    best = 0
    for k in range(teams):
        best = max(best, game_pts[k])
    for k in range(teams):
        if game_pts[k] == best:
            points[P_GAME] = k if points[P_GAME] == -1 else -2  # -2: tied
    if points[P_GAME] == -2:
        points[P_GAME] = -1


@nb.njit(cache=False)
def check_end(s, rules, row, bidder, bid, played_by, won_by, points, game_pts):
    """At the end of a played hand: points, their count, game points, outcome and scores."""
    v, n, teams = rules[R_VARIANT], rules[R_PLAYERS], rules[R_TEAMS]
    if v == SHMEAR:
        for p in range(P_GAME):
            if played_by[O_POINT_CARD[row, p]] < 0:
                return 25
    hand_points(rules, row, bidder, played_by, won_by, s[K.DISCARDS + bidder], points, game_pts)
    awarded = 0
    for p in range(6):
        if s[K.POINT_WINNER + p] != points[p]:
            return 20
        awarded += points[p] >= 0
    for k in range(3):
        if s[K.GAME_POINTS + k] != (game_pts[k] if k < teams else 0):
            return 22
    if v == SHMEAR:  # 6 points; 5 exactly when the two top teams tie for Game
        top, second = -1, -1
        for k in range(teams):
            g = s[K.GAME_POINTS + k]
            if g > top:
                top, second = g, top
            elif g > second:
                second = g
        tied = top == second
        if awarded != (5 if tied else 6) or (s[K.POINT_WINNER + P_GAME] < 0) != tied:
            return 21
    else:
        if awarded > 4:
            return 21
        if not rules[R_IN_PLAY]:  # a fixed point card never played: nobody has the point
            for p in range(P_JICK):
                if (points[p] < 0) != (played_by[O_POINT_CARD[row, p]] < 0):
                    return 21
        elif points[P_HIGH] < 0 or points[P_LOW] < 0:  # a trump is always played
            return 21
    taken = 0
    for p in range(6):
        taken += points[p] == bidder % teams
    made = taken >= bid
    if s[K.OUTCOME] != (K.OUTCOME_MADE if made else K.OUTCOME_FAILED) or s[K.BIDDER_POINTS] != taken:
        return 23
    for seat in range(n):
        k = seat % teams
        mine = 0
        for p in range(6):
            mine += points[p] == k
        expected = (mine if made else -bid) if k == bidder % teams else mine
        if s[K.SCORES + seat] != expected or s[K.SCORES + seat] != s[K.SCORES + k]:
            return 23
    return 0


# --- the checker -----------------------------------------------------------------------------


def _make_checker(fingerprint):
    """The checker, cached by numba; ``fingerprint`` ties the cache to the engine (conftest.py)."""

    @nb.njit(cache=True)
    def check_hands(seed, first, count, options, rules, acts, stats, recorded):
        """Random hands ``first .. first + count - 1`` of ``seed``, checked at every step.
        Returns ``(error code, hand, actions taken)``; ``recorded[i]`` gets hand i's scores per
        seat and its POINT_WINNER slots. ``stats`` counts hands that were
        [0] thrown in, [1] made, [2] failed, [3] with Game tied, [4] with a trump discarded,
        [5] with a point card not in play (NE), so that the test sees each case happen."""
        if count < 0:  # never true: makes the engine's fingerprint part of the cache key
            return fingerprint, -1, 0
        v, n, teams, widow = rules[R_VARIANT], rules[R_PLAYERS], rules[R_TEAMS], rules[R_WIDOW]
        rest = 53 - 6 * n if v == SHMEAR else 32 - 6 * n  # cards left after the deal
        s = np.zeros(K.STATE_SIZE, np.int64)
        deal_rng = np.zeros(RNG_SIZE, np.uint64)
        rng = np.zeros(RNG_SIZE, np.uint64)
        tcards = np.empty(n, np.int64)
        played_by = np.empty(54, np.int64)
        won_by = np.empty(54, np.int64)
        points = np.empty(6, np.int64)
        game_pts = np.zeros(3, np.int64)
        for i in range(count):
            hand = first + i
            dealer = hand % n
            K.deal_random(s, seed, hand, dealer, options, deal_rng)
            seed_stream(rng, seed, hand, 1)
            # the deal: 6 cards a seat, the rest in the stock and in REST_ORDER
            union = np.int64(0)
            for p in range(n):
                if _count(s[K.HANDS + p]) != O_HAND or union & s[K.HANDS + p]:
                    return 1, hand, 0
                union |= s[K.HANDS + p]
            if union & s[K.STOCK] or union | s[K.STOCK] != O_DECK[v] or not stock_ok(s, v, 0, rest):
                return 1, hand, 0
            played_by[:] = -1
            won_by[:] = -1
            # the oracle's own view of the hand: phase 0 bid, 1 trump, 2 draw, 3 discard, 4 play, 5 over
            phase, speakers, high, bidder, t, row = 0, 0, 0, -1, -1, -1
            drawer, drawn_now, drawn_total, trump_discarded = -1, 0, 0, False
            leader, in_trick, tricks_done, nact = -1, 0, 0, 0
            while True:
                code = locate(s, n, v, teams)
                if code != 0:
                    return code, hand, nact
                # the stock: Shmear from STOCK_NEXT until the dealer takes it; NE after the widow
                if v == SHMEAR:
                    first_left = rest if (phase >= 3 and bidder >= 0) else drawn_total
                else:
                    first_left = widow if phase >= 1 and bidder >= 0 else 0
                if not stock_ok(s, v, first_left, rest):
                    return 16, hand, nact
                words, cards, kind = K.legal(s)
                seat = s[K.TO_ACT]
                if phase == 5 or seat < 0:
                    if phase != 5 or seat >= 0:
                        return 18, hand, nact
                    if words != 0 or cards != 0:
                        return 6, hand, nact
                    break
                if words == 0 and cards == 0:
                    return 5, hand, nact
                if nact >= 200:
                    return 24, hand, nact
                if cards & ~s[K.HANDS + seat]:
                    return 7, hand, nact
                held = s[K.HANDS + seat]
                # the oracle's seat to act and legal set for its phase
                if phase == 0:
                    if seat != (dealer + 1 + speakers) % n:
                        return 8, hand, nact
                    if words != bid_words(high, v) or cards != 0:
                        return 11, hand, nact
                elif phase == 1:
                    if seat != bidder:
                        return 8, hand, nact
                    if _count(held) != O_HAND + (widow if v == NESMEAR else 0):
                        return 17, hand, nact
                    if words != trump_words(held, v) or cards != 0:
                        return 12, hand, nact
                elif phase == 2:
                    if seat != drawer or seat == dealer:
                        return 8, hand, nact
                    if kind != A.DISCARD:
                        return 18, hand, nact
                    if words != _bit(A.DONE) or cards != held & ~O_SUIT_MASK[row, 4]:
                        return 13, hand, nact
                elif phase == 3:
                    if seat != (dealer if v == SHMEAR else bidder):
                        return 8, hand, nact
                    if kind != A.DISCARD:
                        return 18, hand, nact
                    if words != 0 or cards != oracle_discard_mask(held, row):
                        return 14, hand, nact
                else:
                    if tricks_done == 0 and in_trick == 0:
                        for p in range(n):
                            if _count(s[K.HANDS + p]) != O_HAND:
                                return 17, hand, nact
                    if seat != (leader + in_trick) % n:
                        return 8, hand, nact
                    if kind != A.PLAY:
                        return 18, hand, nact
                    led_card = tcards[0] if in_trick > 0 else -1
                    expected = oracle_play_mask(held, row, v, rules[R_MAY_TRUMP], led_card, tricks_done == 0)
                    if words != 0 or cards != expected:
                        return 15, hand, nact
                action = uniform_action(words, cards, kind, rng)
                acts[nact] = action
                nact += 1
                K.step(s, action)
                # the oracle's transition
                if phase == 0:
                    speakers += 1
                    if action != A.PASS:
                        high, bidder = action - A.BID, seat
                    if high == O_BIDS[v][1] or seat == dealer:
                        phase = 1 if bidder >= 0 else 5
                elif phase == 1:
                    t = action - A.TRUMP
                    row = v * 4 + t
                    if v == SHMEAR:
                        phase, drawer = 2, (dealer + 1) % n
                    elif widow > 0:
                        phase = 3
                    else:
                        phase, leader = 4, bidder
                elif phase == 2:
                    if action != A.DONE:
                        drawn_now += 1
                    if action == A.DONE or drawn_now == 3:  # the turn ends: he is back to 6
                        if _count(s[K.HANDS + seat]) != O_HAND:
                            return 17, hand, nact
                        drawn_total += drawn_now
                        drawn_now = 0
                        drawer = (drawer + 1) % n
                        if drawer == dealer:  # the dealer takes the stock
                            phase = 3
                            if _count(s[K.HANDS + dealer]) != O_HAND + rest - drawn_total:
                                return 17, hand, nact
                elif phase == 3:
                    c = action - A.card_action(A.DISCARD, 0)
                    trump_discarded |= O_SUIT[row, c] == 4
                    if _count(s[K.HANDS + seat]) == O_HAND:
                        phase, leader = 4, bidder
                else:
                    c = action - A.card_action(A.PLAY, 0)
                    played_by[c] = seat
                    tcards[in_trick] = c
                    in_trick += 1
                    if in_trick == n:  # the trick is complete: check its record and winner
                        w = (leader + oracle_winner(tcards, n, row)) % n
                        slot = K.TRICKS + tricks_done * K.TRICK_SLOTS
                        if s[slot] != leader:
                            return 8, hand, nact
                        for k in range(n):
                            if s[slot + 1 + k] != tcards[k]:
                                return 4, hand, nact
                        if s[slot + 1 + K.MAX_PLAYERS] != w:
                            return 9, hand, nact
                        for k in range(n):
                            won_by[tcards[k]] = w % teams
                        tricks_done += 1
                        in_trick = 0
                        leader = w
                        if tricks_done < O_HAND and s[K.TO_ACT] != w:
                            return 10, hand, nact
                        if tricks_done == O_HAND:
                            phase = 5
            # --- the hand is over ---
            for k in range(6):
                recorded[i, k] = s[K.SCORES + k]
                recorded[i, 6 + k] = s[K.POINT_WINNER + k]
            if bidder < 0:  # everyone passed: thrown in
                if s[K.OUTCOME] != K.OUTCOME_THROWN_IN or s[K.TRICK_NO] != 0 or nact != n:
                    return 19, hand, nact
                for p in range(n):
                    if s[K.SCORES + p] != 0 or acts[p] != A.PASS:
                        return 19, hand, nact
                stats[0] += 1
                continue
            if s[K.OUTCOME] == K.OUTCOME_THROWN_IN or s[K.BIDDER] != bidder or s[K.BID] != high:
                return 19, hand, nact
            code = check_end(s, rules, row, bidder, high, played_by, won_by, points, game_pts)
            if code != 0:
                return code, hand, nact
            stats[1 if s[K.OUTCOME] == K.OUTCOME_MADE else 2] += 1
            stats[3] += points[P_GAME] < 0
            stats[4] += trump_discarded
            if v == NESMEAR:
                for p in range(P_JICK):
                    if played_by[O_POINT_CARD[row, p]] < 0:
                        stats[5] += 1
                        break
        return 0, -1, 0

    return check_hands


@pytest.fixture(scope="module")
def checker(engine_fingerprint):
    return _make_checker(engine_fingerprint)


def rule_switches(name: str, options: dict) -> np.ndarray:
    """The oracle's rule switches for ``options``, from the defaults of docs/rules.md (not from the engine)."""
    v = SHMEAR if name == "shmear" else NESMEAR
    rules = np.zeros(6, dtype=np.int64)
    rules[R_VARIANT] = v
    rules[R_PLAYERS] = O_PLAYERS[v]
    rules[R_TEAMS] = options.get("teams", 3) if v == SHMEAR else 2
    rules[R_MAY_TRUMP] = int(options.get("may_trump", False)) if v == SHMEAR else 1
    rules[R_WIDOW] = options.get("widow", 3) if v == NESMEAR else 0
    rules[R_IN_PLAY] = int(options.get("high_low", "fixed") == "in_play")
    return rules


def _describe(game, seed, hand, acts, nact) -> str:
    n = game.players
    state = game.new_hand(seed, hand % n, hand)
    hands = [state.hand(p).labels() for p in range(n)]
    rest = [card_label(int(c)) for c in state.array[K.REST_ORDER:K.REST_ORDER + (53 if n == 6 else 32) - 6 * n]]
    labels = [A.action_label(int(a)) for a in acts[:nact]]
    return f"new_hand({seed}, {hand % n}, {hand}) dealt {hands}, rest {rest}, after {labels}"


@pytest.mark.parametrize("name,options", OPTION_SETS,
                         ids=lambda x: x if isinstance(x, str) else ",".join(f"{k}={v}" for k, v in x.items()))
def test_invariants_over_random_hands(checker, name, options):
    game = tricksim.make_game(name, **options)
    rules = rule_switches(name, options)
    acts = np.zeros(256, dtype=np.int64)
    stats = np.zeros(6, dtype=np.int64)
    recorded = np.zeros((HANDS_PER_SET, 12), dtype=np.int64)
    code, hand, nact = checker(SEED, 0, HANDS_PER_SET, game.option_array, rules, acts, stats, recorded)
    if code != 0:
        pytest.fail(f"{ERRORS[code]}: {_describe(game, SEED, hand, acts, nact)}")
    thrown, made, failed, game_tied, trump_discards, not_in_play = stats
    assert thrown + made + failed == HANDS_PER_SET
    assert made > 0 and failed > 0 and game_tied > 0  # the cases the checks cover all happened
    if name == "nesmear" and options.get("high_low") != "in_play":
        assert not_in_play > 0
    if name == "shmear":
        assert trump_discards > 0  # the dealer's "more than 6 trumps" case
    # the parallel batch loop plays the same hands (same streams) to the same points and scores
    out = np.zeros((HANDS_PER_SET, len(K.RECORD)), dtype=np.int64)
    K.play_random_hands(SEED, 0, game.option_array, out)
    batch = np.concatenate([out[:, K.SCORE_COLUMN:K.SCORE_COLUMN + 6], out[:, K.POINTS_COLUMN:K.POINTS_COLUMN + 6]], axis=1)
    differ = np.flatnonzero((batch != recorded).any(axis=1))
    assert differ.size == 0, f"play_random_hands differs from legal/step on hand {differ[:5]}"


# --- the same through the State API -------------------------------------------------------------

POINTS = {"shmear": ("high", "low", "jack", "jick", "joker", "game"), "nesmear": ("high", "low", "jack", "game")}


def _play_through_api(game, name, seed, hand, dealer, data):
    """Plays one hand with hypothesis-chosen legal actions, checking the public invariants."""
    n = game.players
    teams = game.options.get("teams", 2)
    state = game.new_hand(seed, dealer, hand)
    assert [len(state.hand(p)) for p in range(n)] == [6] * n
    plays = []
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal and legal == sorted(legal)
        seat = state.current_player
        action = data.draw(st.sampled_from(legal))
        label = state.action_label(action)
        if label.startswith("play ") and not plays:
            assert [len(state.hand(p)) for p in range(n)] == [6] * n
        state.apply(action)
        if label.startswith("play "):
            plays.append((seat, label[5:]))
            if len(plays) % n == 0:
                leader, cards, winner = state.tricks()[len(plays) // n - 1]
                trick = plays[-n:]
                assert [p for p, _ in trick] == [(leader + k) % n for k in range(n)]
                assert cards == [c for _, c in trick]
                assert len(plays) == 6 * n or state.current_player == winner
        held = 0
        for p in range(n):
            h = state.hand(p).mask
            assert held & h == 0
            held |= h
    assert state.legal_actions() == []
    result = state.result()
    assert set(POINTS[name]) <= set(result)
    if name == "nesmear":
        assert "jick" not in result and "joker" not in result
    if result["thrown_in"]:
        assert state.scores() == [0] * n and plays == [] and state.tricks() == []
        assert result["bidder"] is None and result["outcome"] == "thrown_in"
        return
    assert len(state.tricks()) == 6 and len(plays) == 6 * n
    assert result["outcome"] in ("made", "failed") and result["bidder"] is not None
    winners = [result[p] for p in POINTS[name]]
    assert all(w is None or 0 <= w < teams for w in winners)
    awarded = sum(w is not None for w in winners)
    if name == "shmear":
        assert awarded == (5 if result["game"] is None else 6)
        gp = sorted(result["game_points"], reverse=True)
        assert (result["game"] is None) == (gp[0] == gp[1])
    else:
        assert awarded <= 4
    assert len(result["game_points"]) == teams
    bidder_team = result["bidder"] % teams
    taken = sum(w == bidder_team for w in winners)
    assert result["bidder_points"] == taken
    assert result["outcome"] == ("made" if taken >= result["bid"] else "failed")
    scores = state.scores()
    assert scores == result["scores"]
    assert all(scores[p] == scores[p % teams] for p in range(n))
    for k in range(teams):
        mine = sum(w == k for w in winners)
        expected = (mine if taken >= result["bid"] else -result["bid"]) if k == bidder_team else mine
        assert scores[k] == expected


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(teams=st.sampled_from([3, 2]), may_trump=st.booleans(), seed=st.integers(0, 2**63 - 1),
       hand=st.integers(0, 2**31), dealer=st.integers(0, 5), data=st.data())
def test_public_api_invariants_shmear(teams, may_trump, seed, hand, dealer, data):
    game = tricksim.make_game("shmear", teams=teams, may_trump=may_trump)
    _play_through_api(game, "shmear", seed, hand, dealer, data)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(widow=st.integers(0, 3), high_low=st.sampled_from(["fixed", "in_play"]), seed=st.integers(0, 2**63 - 1),
       hand=st.integers(0, 2**31), dealer=st.integers(0, 3), data=st.data())
def test_public_api_invariants_nesmear(widow, high_low, seed, hand, dealer, data):
    game = tricksim.make_game("nesmear", widow=widow, high_low=high_low)
    _play_through_api(game, "nesmear", seed, hand, dealer, data)


# --- the deals ---------------------------------------------------------------------------------

DEALS = 200_000


def _make_deal_counts(fingerprint):
    @nb.njit(cache=True)
    def deal_counts(seed, count, options, n, rest, holds, stocked, first_rest, suit_len):
        """Over ``count`` deals: ``holds[p, c]`` seat p held card c; ``stocked[c]`` c was left
        undealt; ``first_rest[c]`` c was REST_ORDER[0] (the top of the stock / the first widow
        card); ``suit_len[p, suit, k]`` seat p held exactly k cards of the natural suit."""
        if count < 0:
            return fingerprint
        s = np.zeros(K.STATE_SIZE, np.int64)
        rng = np.zeros(RNG_SIZE, np.uint64)
        for hand in range(count):
            K.deal_random(s, seed, hand, hand % n, options, rng)
            for c in range(54):  # who holds each card, and whether it is undealt
                for p in range(n):
                    holds[p, c] += (s[K.HANDS + p] >> c) & 1
                stocked[c] += (s[K.STOCK] >> c) & 1
            first_rest[s[K.REST_ORDER]] += 1
            for p in range(n):  # suit lengths (natural suits)
                for suit in range(4):
                    suit_len[p, suit, _count((s[K.HANDS + p] >> (13 * suit)) & 0x1FFF)] += 1
        return 0

    return deal_counts


def _near(count, p, what):
    """``count`` of DEALS is within 5 standard errors of probability ``p``."""
    se = math.sqrt(p * (1 - p) / DEALS)
    freq = count / DEALS
    assert abs(freq - p) <= 5 * se, (what, freq, p)


def _deal(engine_fingerprint, name):
    game = tricksim.make_game(name)
    n = game.players
    rest = (53 if name == "shmear" else 32) - 6 * n
    holds = np.zeros((n, 54), dtype=np.int64)
    stocked = np.zeros(54, dtype=np.int64)
    first_rest = np.zeros(54, dtype=np.int64)
    suit_len = np.zeros((n, 4, 14), dtype=np.int64)
    _make_deal_counts(engine_fingerprint)(2024, DEALS, game.option_array, n, rest, holds, stocked,
                                          first_rest, suit_len)
    return n, holds, stocked, first_rest, suit_len


def test_nesmear_deal_probabilities(engine_fingerprint):
    n, holds, stocked, first_rest, _ = _deal(engine_fingerprint, "nesmear")
    deck = [c for c in range(54) if (int(O_DECK[NESMEAR]) >> c) & 1]
    undealt = math.comb(31, 7) / math.comb(32, 8)  # the card is among the 8 undealt
    p_seat = math.comb(31, 5) / math.comb(32, 6)  # a given seat's 6 include it
    assert math.isclose(1 - undealt, 24 / 32) and math.isclose(p_seat, 6 / 32)
    assert math.isclose(undealt / 8, 1 / 32)
    for c in range(54):
        if c not in deck:  # nothing outside the 32-card deck is ever dealt
            assert holds[:, c].sum() == 0 and stocked[c] == 0 and first_rest[c] == 0
            continue
        _near(holds[:, c].sum(), 1 - undealt, ("dealt", card_label(c)))
        _near(DEALS - stocked[c], 1 - undealt, ("not undealt", card_label(c)))
        _near(first_rest[c], undealt / 8, ("first widow card", card_label(c)))
        for p in range(n):
            _near(holds[p, c], p_seat, ("seat", p, card_label(c)))


def test_shmear_deal_probabilities(engine_fingerprint):
    n, holds, stocked, first_rest, suit_len = _deal(engine_fingerprint, "shmear")
    p_seat = math.comb(52, 5) / math.comb(53, 6)  # a given seat holds a given card
    assert math.isclose(p_seat, 6 / 53)
    in_stock = math.comb(52, 16) / math.comb(53, 17)
    assert math.isclose(in_stock, 17 / 53)
    for c in range(54):
        if c == 53:  # the high joker is not in Shmear's deck
            assert holds[:, c].sum() == 0 and stocked[c] == 0 and first_rest[c] == 0
            continue
        _near(stocked[c], in_stock, ("in the stock", card_label(c)))
        _near(first_rest[c], in_stock / 17, ("top of the stock", card_label(c)))
        for p in range(n):
            _near(holds[p, c], p_seat, ("seat", p, card_label(c)))
    for k in range(7):  # exactly k of a given suit's 13 among a seat's 6 of 53 (hypergeometric)
        p_k = math.comb(13, k) * math.comb(40, 6 - k) / math.comb(53, 6)
        for p in range(n):
            for suit in range(4):
                _near(suit_len[p, suit, k], p_k, ("suit length", p, SUITS[suit], k))
