"""The two smears' rule oracle (Shmear and NE Smear) for the shared invariant harness
(``invariants.py``), and the deals' probabilities.

A rule oracle written here from docs/rules.md (All games, Shmear, NE Smear: decks, trump orders, who acts,
legal bids, trump calls, draws, discards and plays, trick winners, points and scores), independent
of the engine's tables, is checked by the harness's random hands after every step (the hooks
``on_deal`` .. ``on_end``) and through the State API (``api_step``, ``api_end``): every card of the
deck in exactly one place (hands, stock, discards, the trick slots played, which TRICK_MASK and WON
agree with), nothing outside the deck; the deal is 6 cards a seat and the stock the rest of the
deal's order; the seat to act and its legal set equal the oracle's (bids from eldest, the bidder
names trump and leads, the draw from eldest, the discards); every legal card held by the seat to
act; the trick winner; the hand sizes; and at the end the points (Shmear 6, or 5 exactly when Game
is tied; NE Smear at most 4, a fixed High/Low/Jack with no winner exactly when its card was not
played), the game points, the outcome and the scores. And the deal probabilities from
``deal_random``, within 5 standard errors of the exact values.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

import tricksim
from tricksim.cards import card_label, parse_card, parse_cards
from tricksim.sim import actions as A
from tricksim.sim import smear as K
from tricksim.sim.kernels import RNG_SIZE

from invariants import Case
from oracle_bits import bit as _bit, count as _count

ORACLE_GAMES = ("shmear", "nesmear")

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

# the oracle's rule switches (the hooks' params), built from the options asked for
R_VARIANT, R_PLAYERS, R_TEAMS, R_MAY_TRUMP, R_WIDOW, R_IN_PLAY = range(6)

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
            return 102
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
                return 102 if c >= 0 and c < 54 and (O_DECK[v] >> c) & 1 else 103
            trick |= _bit(c)
        seen |= trick
        if t < done:
            w = s[slot + 1 + K.MAX_PLAYERS]
            if w < 0 or w >= n:
                return 104
            won[w % teams] |= trick
        else:
            current = trick
    if seen != O_DECK[v]:
        return 103
    if current != s[K.TRICK_MASK]:
        return 104
    for k in range(3):
        if s[K.WON + k] != (won[k] if k < teams else 0):
            return 104
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
                return 125
    hand_points(rules, row, bidder, played_by, won_by, s[K.DISCARDS + bidder], points, game_pts)
    awarded = 0
    for p in range(6):
        if s[K.POINT_WINNER + p] != points[p]:
            return 120
        awarded += points[p] >= 0
    for k in range(3):
        if s[K.GAME_POINTS + k] != (game_pts[k] if k < teams else 0):
            return 122
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
            return 121
    else:
        if awarded > 4:
            return 121
        if not rules[R_IN_PLAY]:  # a fixed point card never played: nobody has the point
            for p in range(P_JICK):
                if (points[p] < 0) != (played_by[O_POINT_CARD[row, p]] < 0):
                    return 121
        elif points[P_HIGH] < 0 or points[P_LOW] < 0:  # a trump is always played
            return 121
    taken = 0
    for p in range(6):
        taken += points[p] == bidder % teams
    made = taken >= bid
    if s[K.OUTCOME] != (K.OUTCOME_MADE if made else K.OUTCOME_FAILED) or s[K.BIDDER_POINTS] != taken:
        return 123
    for seat in range(n):
        k = seat % teams
        mine = 0
        for p in range(6):
            mine += points[p] == k
        expected = (mine if made else -bid) if k == bidder % teams else mine
        if s[K.SCORES + seat] != expected:
            return 123
    return 0


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


# --- the hooks of the shared harness ------------------------------------------------------------

OPTION_SETS = [
    ("shmear", dict()),
    ("shmear", dict(teams=2)),
    ("shmear", dict(may_trump=True)),
    ("nesmear", dict()),
    ("nesmear", dict(widow=0)),
    ("nesmear", dict(widow=2, high_low="in_play")),
]
HANDS_PER_SET = 100_000

ERRORS = {
    101: "the deal is not 6 cards a seat with the rest in the stock, in REST_ORDER",
    102: "a card is in two places at once (hands, stock, discards, played)",
    103: "a card of the deck is in no place, or a card outside the deck is somewhere",
    104: "the trick slots do not hold the cards played (or TRICK_MASK / WON disagree with them)",
    107: "a legal card is not held by the seat to act",
    108: "the wrong seat is to act (bids from eldest; trump by the bidder; draw from eldest; the bidder leads)",
    109: "a trick's winner differs from the oracle",
    111: "the legal bids differ from docs/rules.md (pass or higher, min..max; ends at the dealer or top bid)",
    112: "the legal trump calls differ (Shmear any suit; NE Smear a suit the bidder holds)",
    113: "the legal draw discards differ (a non-dealer: done, or a non-trump)",
    114: "the legal discards differ (non-trumps; unprotected trumps only with more than 6 trumps)",
    115: "a play is illegal by the oracle, or a legal play is missing",
    116: "the stock is not the rest of the deal order (Shmear: from STOCK_NEXT; NE: after the widow)",
    117: "a hand has the wrong size (6 at the first lead; 6 + widow for the NE bidder; 6 after a draw)",
    118: "the phase / card kind differs from the oracle's",
    119: "a thrown-in hand that is not all passes, or with tricks",
    120: "the point winners differ from the oracle (High, Low, Jack, Jick, Joker, Game)",
    121: "Shmear: not 6 points (5 exactly when Game is tied); NE Smear: more than 4",
    122: "the game points differ from the oracle (tricks won; NE: the bidder's discards too)",
    123: "the outcome, bidder points or scores differ (made / failed), or a seat's from its team's",
    124: "the hand did not end within 200 actions",
    125: "a Shmear point card (A, 2, bowers, joker) was never played",
}
MEMORY = np.dtype([(f, np.int64) for f in ("dealer", "phase", "speakers", "high", "bidder", "row", "drawer",
                                            "drawn_now", "drawn_total", "trump_discarded", "leader", "in_trick",
                                            "tricks_done")]
                  + [("tcards", np.int64, (K.MAX_PLAYERS,)), ("played_by", np.int64, (54,)),
                     ("won_by", np.int64, (54,)), ("points", np.int64, (6,)), ("game_pts", np.int64, (3,))])
STATS = ("thrown", "made", "failed", "game_tied", "trump_discards", "not_in_play")
"""Hands thrown in, made, failed, with Game tied, with a trump discarded, with a point card not
in play (NE), so that the test sees each case happen."""


def cases(name):
    return [Case(variant, options, HANDS_PER_SET) for variant, options in OPTION_SETS if variant == name]


def params(game, case):
    return rule_switches(case.name, case.options)


def check_stats(case, stats):
    assert stats["thrown"] + stats["made"] + stats["failed"] == case.hands
    assert stats["made"] > 0 and stats["failed"] > 0 and stats["game_tied"] > 0  # the cases all happened
    if case.name == "nesmear" and case.options.get("high_low") != "in_play":
        assert stats["not_in_play"] > 0
    if case.name == "shmear":
        assert stats["trump_discards"] > 0  # the dealer's "more than 6 trumps" case


@nb.njit(cache=False)
def _rest(rules):
    """Cards left after the deal."""
    return (53 if rules[R_VARIANT] == SHMEAR else 32) - 6 * rules[R_PLAYERS]


@nb.njit(cache=False)
def on_deal(s, hand, rules, mem):
    m = mem[0]
    v, n = rules[R_VARIANT], rules[R_PLAYERS]
    union = np.int64(0)  # the deal: 6 cards a seat, the rest in the stock and in REST_ORDER
    for p in range(n):
        if _count(s[K.HANDS + p]) != O_HAND or union & s[K.HANDS + p]:
            return 101
        union |= s[K.HANDS + p]
    if union & s[K.STOCK] or union | s[K.STOCK] != O_DECK[v] or not stock_ok(s, v, 0, _rest(rules)):
        return 101
    m.played_by[:] = -1
    m.won_by[:] = -1
    # the oracle's own view of the hand: phase 0 bid, 1 trump, 2 draw, 3 discard, 4 play, 5 over
    m.dealer = hand % n  # the harness deals hand number ``hand`` with dealer hand % n
    m.phase, m.speakers, m.high, m.bidder, m.row = 0, 0, 0, -1, -1
    m.drawer, m.drawn_now, m.drawn_total, m.trump_discarded = -1, 0, 0, 0
    m.leader, m.in_trick, m.tricks_done = -1, 0, 0
    return 0


@nb.njit(cache=False)
def on_state(s, words, cards, kind, nact, rules, mem):
    m = mem[0]
    v, n, teams, widow = rules[R_VARIANT], rules[R_PLAYERS], rules[R_TEAMS], rules[R_WIDOW]
    rest = _rest(rules)
    phase, row, dealer = m.phase, m.row, m.dealer
    code = locate(s, n, v, teams)
    if code != 0:
        return code
    # the stock: Shmear from STOCK_NEXT until the dealer takes it; NE after the widow
    if v == SHMEAR:
        first_left = rest if (phase >= 3 and m.bidder >= 0) else m.drawn_total
    else:
        first_left = widow if phase >= 1 and m.bidder >= 0 else 0
    if not stock_ok(s, v, first_left, rest):
        return 116
    seat = s[K.TO_ACT]
    if phase == 5 or seat < 0:
        return 118 if phase != 5 or seat >= 0 else 0
    if nact >= 200:
        return 124
    if cards & ~s[K.HANDS + seat]:
        return 107
    held = s[K.HANDS + seat]
    # the oracle's seat to act and legal set for its phase
    if phase == 0:
        if seat != (dealer + 1 + m.speakers) % n:
            return 108
        if words != bid_words(m.high, v) or cards != 0:
            return 111
    elif phase == 1:
        if seat != m.bidder:
            return 108
        if _count(held) != O_HAND + (widow if v == NESMEAR else 0):
            return 117
        if words != trump_words(held, v) or cards != 0:
            return 112
    elif phase == 2:
        if seat != m.drawer or seat == dealer:
            return 108
        if kind != A.DISCARD:
            return 118
        if words != _bit(A.DONE) or cards != held & ~O_SUIT_MASK[row, 4]:
            return 113
    elif phase == 3:
        if seat != (dealer if v == SHMEAR else m.bidder):
            return 108
        if kind != A.DISCARD:
            return 118
        if words != 0 or cards != oracle_discard_mask(held, row):
            return 114
    else:
        if m.tricks_done == 0 and m.in_trick == 0:
            for p in range(n):
                if _count(s[K.HANDS + p]) != O_HAND:
                    return 117
            if seat != m.bidder:  # the bidder leads first; later tricks' leaders are the harness's
                return 108
        if kind != A.PLAY:
            return 118
        led_card = m.tcards[0] if m.in_trick > 0 else -1
        expected = oracle_play_mask(held, row, v, rules[R_MAY_TRUMP], led_card, m.tricks_done == 0)
        if words != 0 or cards != expected:
            return 115
    return 0


@nb.njit(cache=False)
def on_step(s, seat, action, kind, rules, mem):
    m = mem[0]
    v, n, teams, widow = rules[R_VARIANT], rules[R_PLAYERS], rules[R_TEAMS], rules[R_WIDOW]
    rest = _rest(rules)
    dealer = m.dealer
    if m.phase == 0:
        m.speakers += 1
        if action != A.PASS:
            m.high, m.bidder = action - A.BID, seat
        if m.high == O_BIDS[v][1] or seat == dealer:
            m.phase = 1 if m.bidder >= 0 else 5
    elif m.phase == 1:
        m.row = v * 4 + action - A.TRUMP
        if v == SHMEAR:
            m.phase, m.drawer = 2, (dealer + 1) % n
        elif widow > 0:
            m.phase = 3
        else:
            m.phase, m.leader = 4, m.bidder
    elif m.phase == 2:
        if action != A.DONE:
            m.drawn_now += 1
        if action == A.DONE or m.drawn_now == 3:  # the turn ends: he is back to 6
            if _count(s[K.HANDS + seat]) != O_HAND:
                return 117
            m.drawn_total += m.drawn_now
            m.drawn_now = 0
            m.drawer = (m.drawer + 1) % n
            if m.drawer == dealer:  # the dealer takes the stock
                m.phase = 3
                if _count(s[K.HANDS + dealer]) != O_HAND + rest - m.drawn_total:
                    return 117
    elif m.phase == 3:
        c = action - A.card_action(A.DISCARD, 0)
        m.trump_discarded |= np.int64(O_SUIT[m.row, c] == 4)
        if _count(s[K.HANDS + seat]) == O_HAND:
            m.phase, m.leader = 4, m.bidder
    else:
        c = action - A.card_action(A.PLAY, 0)
        m.played_by[c] = seat
        m.tcards[m.in_trick] = c
        m.in_trick += 1
        if m.in_trick == n:  # the trick is complete: its winner
            w = (m.leader + oracle_winner(m.tcards, n, m.row)) % n
            if s[K.TRICKS + m.tricks_done * K.TRICK_SLOTS + 1 + K.MAX_PLAYERS] != w:
                return 109
            for k in range(n):
                m.won_by[m.tcards[k]] = w % teams
            m.tricks_done += 1
            m.in_trick = 0
            m.leader = w
            if m.tricks_done == O_HAND:
                m.phase = 5
    return 0


@nb.njit(cache=False)
def on_end(s, nact, rules, mem, stats):
    m = mem[0]
    v, n = rules[R_VARIANT], rules[R_PLAYERS]
    if m.bidder < 0:  # everyone passed: thrown in (the harness sees the scores 0)
        if s[K.OUTCOME] != K.OUTCOME_THROWN_IN or s[K.TRICK_NO] != 0 or nact != n:
            return 119
        stats[0] += 1
        return 0
    if s[K.OUTCOME] == K.OUTCOME_THROWN_IN or s[K.BIDDER] != m.bidder or s[K.BID] != m.high:
        return 119
    code = check_end(s, rules, m.row, m.bidder, m.high, m.played_by, m.won_by, m.points, m.game_pts)
    if code != 0:
        return code
    stats[1 if s[K.OUTCOME] == K.OUTCOME_MADE else 2] += 1
    stats[3] += m.points[P_GAME] < 0
    stats[4] += m.trump_discarded
    if v == NESMEAR:
        for p in range(P_JICK):
            if m.played_by[O_POINT_CARD[m.row, p]] < 0:
                stats[5] += 1
                break
    return 0


# --- the State API (play_through_api calls these) ------------------------------------------------

POINTS = {"shmear": ("high", "low", "jack", "jick", "joker", "game"), "nesmear": ("high", "low", "jack", "game")}
API_EXAMPLES = 100
API_DEAL_OPTIONS = {}


def api_step(state, played):
    """Every hand holds 6 cards when play starts."""
    n = played.game.players
    if len(played.plays) == 1 and played.actions[-1][1].startswith("play "):
        first = played.plays[0][0]
        assert [len(state.hand(p)) for p in range(n)] == [5 if p == first else 6 for p in range(n)]


def api_end(state, played):
    """The deal, then the result: its points, game points, bidder points, outcome and scores."""
    game, name = played.game, played.game.name
    n = game.players
    teams = game.teams
    assert [len(played.start.hand(p)) for p in range(n)] == [6] * n
    result = state.result()
    assert set(POINTS[name]) <= set(result)
    if name == "nesmear":
        assert "jick" not in result and "joker" not in result
    if result["thrown_in"]:
        assert played.plays == [] and state.tricks() == []
        assert result["bidder"] is None and result["outcome"] == "thrown_in"
        return
    assert len(state.tricks()) == 6 and len(played.plays) == 6 * n
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
    for k in range(teams):
        mine = sum(w == k for w in winners)
        expected = (mine if taken >= result["bid"] else -result["bid"]) if k == bidder_team else mine
        assert scores[k] == expected


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
