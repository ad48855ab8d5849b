"""Fifty-five's rule oracle for the shared invariant harness (``invariants.py``), and the deal's
probabilities.

An oracle written here from docs/rules.md (Fifty-five: trumps, plain suits, play, score), independent of the
engine's tables, is checked by the harness's random hands after every step (the hooks ``on_deal``
.. ``on_end``) and through the State API (``api_step``, ``api_end``): the deal is 5 cards a seat
and 5 in the kitty, the rest in the stock; every card is in exactly one place (hands, kitty,
stock, discards, played = the trick slots); every legal card is held by the seat to act; the legal
plays are the oracle's (follow or trump; renege only with 5, J, A of hearts above the lead); every
hand holds 5 cards when play starts; the trick winner is the oracle's; at the end 25 points + 5 if
a trump was played, and the scores recomputed. And: P(a given seat holds the 5 of a given suit) =
5/52, within 5 standard errors.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from tricksim.cards import parse_card, parse_cards
from tricksim.sim import actions as A
from tricksim.sim import fiftyfive as K
from tricksim.sim.fiftyfive_game import FiftyFive
from tricksim.sim.kernels import RNG_SIZE

from invariants import Case
from oracle_bits import bit as _bit, count as _count

ORACLE_GAMES = ("fiftyfive",)

# --- the rule oracle, from docs/rules.md, Fifty-five ---------------------------------------------

DECK_MASK = (1 << 52) - 1
AH = parse_card("AH")
RULE_TRUMPS = ["5C JC AH AC KC QC 2C 3C 4C 6C 7C 8C 9C TC", "5D JD AH AD KD QD TD 9D 8D 7D 6D 4D 3D 2D",
               "5H JH AH KH QH TH 9H 8H 7H 6H 4H 3H 2H", "5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S TS"]
RULE_PLAIN = {"C": "K Q J A 2 3 4 5 6 7 8 9 T", "D": "K Q J T 9 8 7 6 5 4 3 2 A",
              "H": "K Q J T 9 8 7 6 5 4 3 2", "S": "K Q J A 2 3 4 5 6 7 8 9 T"}
O_STRENGTH = np.full((4, 52), -1, dtype=np.int64)  # per trump: trumps 100+, plain 0..12
O_SUIT = np.zeros((4, 52), dtype=np.int64)  # per trump: 4 = trump, else natural suit
for _t in range(4):
    for _s, _ranks in RULE_PLAIN.items():
        for _i, _r in enumerate(_ranks.split()):
            O_STRENGTH[_t, parse_card(_r + _s)] = 20 - _i
            O_SUIT[_t, parse_card(_r + _s)] = "CDHS".index(_s)
    for _i, _c in enumerate(parse_cards(RULE_TRUMPS[_t])):
        O_STRENGTH[_t, _c] = 100 - _i
        O_SUIT[_t, _c] = 4
O_TRUMP_MASK = np.array([sum(1 << c for c in parse_cards(RULE_TRUMPS[t])) for t in range(4)], dtype=np.int64)
O_PRIVILEGED = np.array([[c for c in parse_cards(RULE_TRUMPS[t])[:3]] for t in range(4)], dtype=np.int64)
assert [bin(int(m)).count("1") for m in O_TRUMP_MASK] == [14, 14, 13, 14]

@nb.njit(cache=False)
def oracle_play_mask(hand, t, led_card):
    """docs/rules.md, Fifty-five: Play, written plainly from the oracle tables."""
    if led_card < 0:
        return hand
    trumps = hand & O_TRUMP_MASK[t]
    if O_SUIT[t, led_card] != 4:
        follow = np.int64(0)
        for c in range(52):
            if (hand >> c) & 1 and O_SUIT[t, c] == O_SUIT[t, led_card]:
                follow |= _bit(c)
        return (follow | trumps) if follow != 0 else hand
    must = np.int64(0)
    for c in range(52):
        if (trumps >> c) & 1:
            withheld = False
            for k in range(3):
                if O_PRIVILEGED[t, k] == c and O_STRENGTH[t, c] > O_STRENGTH[t, led_card]:
                    withheld = True
            if not withheld:
                must |= _bit(c)
    return trumps if must != 0 else hand


@nb.njit(cache=False)
def oracle_winner(cards, n, t):
    led = O_SUIT[t, cards[0]]
    best, best_strength = -1, -1
    for i in range(n):
        c = cards[i]
        if O_SUIT[t, c] == 4:
            strength = 1000 + O_STRENGTH[t, c]
        elif O_SUIT[t, c] == led:
            strength = O_STRENGTH[t, c]
        else:
            continue
        if strength > best_strength:
            best, best_strength = i, strength
    return best


@nb.njit(cache=False)
def locate(s, n):
    seen = np.int64(0)
    for i in range(2 * n + 3):
        if i < n:
            m = s[K.HANDS + i]
        elif i < 2 * n:
            m = s[K.DISCARDS + i - n]
        elif i == 2 * n:
            m = s[K.KITTY]
        elif i == 2 * n + 1:
            m = s[K.STOCK]
        else:
            m = s[K.PLAYED]
        if seen & m:
            return 102
        seen |= m
    if seen != DECK_MASK:
        return 103
    in_slots = np.int64(0)
    for t in range(min(s[K.TRICK_NO] + 1, K.NUM_TRICKS)):
        k_max = n if t < s[K.TRICK_NO] else s[K.IN_TRICK]
        for k in range(k_max):
            c = s[K.TRICKS + t * K.TRICK_SLOTS + 1 + k]
            if c < 0 or c >= 52 or in_slots & _bit(c):
                return 104
            in_slots |= _bit(c)
    if in_slots != s[K.PLAYED]:
        return 104
    return 0


# --- the hooks of the shared harness ------------------------------------------------------------

OPTION_SETS = [
    dict(players=5),
    dict(players=3, exchange=2),
    dict(players=7, all_pass="redeal", first_lead="bidder"),
    dict(players=4, teams=2),
    dict(players=9, exchange=3),
    dict(players=2, exchange=3, bid_values="5 10 20 30"),
    dict(players=6, teams=3, all_pass="redeal"),
]
HANDS_PER_SET = 40_000  # 280,000 hands in all

ERRORS = {
    101: "the deal is not 5 cards a seat, 5 in the kitty and the rest in the stock",
    102: "a card is in two places at once (hands, kitty, stock, discards, played)",
    103: "a card of the deck is in no place",
    104: "the cards played are not exactly the cards in the trick slots",
    107: "a legal card is not held by the seat to act",
    109: "a trick's winner differs from docs/rules.md (Fifty-five: Play)",
    111: "the points handed out are not 25 (+5 if a trump was played)",
    112: "the scores differ from docs/rules.md (Fifty-five: Score)",
    113: "the hand did not end within 200 actions",
    114: "a play is illegal by the oracle (follow or trump; renege only with 5, J, A♥ above the lead)",
    115: "a hand does not hold 5 cards when play starts",
    116: "a thrown-in hand without all_pass = redeal, or with non-zero scores",
}
MEMORY = np.dtype([(f, np.int64) for f in ("in_trick", "leader", "tricks_done", "best_strength", "best_seat",
                                            "trump")]
                  + [(f, np.int64, (K.MAX_PLAYERS,)) for f in ("tcards", "points", "tricks", "side_points",
                                                               "side_tricks")])
STATS = ("trump_played",)  # hands with a trump played (the bonus case)


def cases(name):
    return [Case(name, options, HANDS_PER_SET) for options in OPTION_SETS]


def params(game, case):
    return game.option_array.copy()


def check_stats(case, stats):
    assert stats["trump_played"] > case.hands // 2


@nb.njit(cache=False)
def on_deal(s, hand, options, mem):
    m = mem[0]
    n = options[K.O_PLAYERS]
    union = np.int64(0)
    for p in range(n):
        if _count(s[K.HANDS + p]) != 5 or union & s[K.HANDS + p]:
            return 101
        union |= s[K.HANDS + p]
    if _count(s[K.KITTY]) != 5 or union & s[K.KITTY] or union | s[K.KITTY] | s[K.STOCK] != DECK_MASK:
        return 101
    m.points[:] = 0
    m.tricks[:] = 0
    m.in_trick, m.leader, m.tricks_done, m.best_strength, m.best_seat = 0, -1, 0, -1, -1
    return 0


@nb.njit(cache=False)
def on_state(s, words, cards, kind, nact, options, mem):
    m = mem[0]
    n = options[K.O_PLAYERS]
    code = locate(s, n)
    seat = s[K.TO_ACT]
    if code != 0 or seat < 0:
        return code
    if nact >= 200:
        return 113
    if cards & ~s[K.HANDS + seat]:
        return 107
    m.trump = s[K.TRUMP]
    if kind == A.PLAY:
        if m.tricks_done == 0 and m.in_trick == 0:
            for p in range(n):
                if _count(s[K.HANDS + p]) != 5:
                    return 115
        if m.in_trick == 0:
            m.leader = seat
        led_card = m.tcards[0] if m.in_trick > 0 else -1
        if cards != oracle_play_mask(s[K.HANDS + seat], m.trump, led_card):
            return 114
    return 0


@nb.njit(cache=False)
def on_step(s, seat, action, kind, options, mem):
    m = mem[0]
    if kind != A.PLAY:
        return 0
    n = options[K.O_PLAYERS]
    t = m.trump
    c = action - A.card_action(A.PLAY, 0)
    if O_SUIT[t, c] == 4 and O_STRENGTH[t, c] > m.best_strength:
        m.best_strength, m.best_seat = O_STRENGTH[t, c], seat
    m.tcards[m.in_trick] = c
    m.in_trick += 1
    if m.in_trick == n:
        w = (m.leader + oracle_winner(m.tcards, n, t)) % n
        if s[K.TRICKS + m.tricks_done * K.TRICK_SLOTS + 1 + K.MAX_PLAYERS] != w:
            return 109
        m.points[w] += 5
        m.tricks[w] += 1
        m.tricks_done += 1
        m.in_trick = 0
    return 0


@nb.njit(cache=False)
def on_end(s, nact, options, mem, stats):
    m = mem[0]
    n, teams = options[K.O_PLAYERS], options[K.O_TEAMS]
    points, side_points, side_tricks = m.points, m.side_points, m.side_tricks
    if s[K.OUTCOME] == K.OUTCOME_THROWN_IN:
        if options[K.O_ALL_PASS] != K.ALL_PASS_REDEAL or m.tricks_done != 0:
            return 116
        for p in range(n):
            if s[K.SCORES + p] != 0:
                return 116
        return 0
    if m.best_seat >= 0:
        points[m.best_seat] += 5
        stats[0] += 1
    total = 0
    for p in range(n):
        total += points[p]
        if s[K.POINTS + p] != points[p]:
            return 111
    if total != 25 + (5 if m.best_seat >= 0 else 0) or m.tricks_done != 5:
        return 111
    side_points[:] = 0
    side_tricks[:] = 0
    for p in range(n):
        q = p % teams if teams > 1 else p
        side_points[q] += points[p]
        side_tricks[q] += m.tricks[p]
    bidder = s[K.BIDDER]
    b = bidder % teams if teams > 1 else bidder
    bid = s[K.BID]
    if bid == 60:
        bidder_score = 60 if side_tricks[b] == 5 else -60
    else:
        bidder_score = side_points[b] if side_points[b] >= bid else -bid
    for p in range(n):
        q = p % teams if teams > 1 else p
        expected = bidder_score if q == b else side_points[q]
        if s[K.SCORES + p] != expected:
            return 112
    return 0


# --- the State API (play_through_api calls these) ------------------------------------------------

API_EXAMPLES = 100
API_DEAL_OPTIONS = {}


def api_step(state, played):
    """Every hand holds 5 cards when play starts."""
    n = played.game.players
    if len(played.plays) == 1 and played.actions[-1][1].startswith("play "):
        assert [len(state.hand(p)) for p in range(n) if p != played.plays[0][0]] == [5] * (n - 1)
        assert len(state.hand(played.plays[0][0])) == 4


def api_end(state, played):
    """The deal, then 5 tricks and 25 points, + 5 if a trump was played."""
    n = played.game.players
    assert [len(played.start.hand(p)) for p in range(n)] == [5] * n
    result = state.result()
    if result["thrown_in"]:
        assert played.game.options["all_pass"] == "redeal" and played.plays == []
        return
    assert len(state.tricks()) == 5 and len(played.plays) == 5 * n
    trump = "CDHS".index(result["trump"])
    trump_played = any(O_SUIT[trump, parse_card(c)] == 4 for _, c in played.plays)
    assert sum(state.observe(0)["points_taken"]) == 25 + (5 if trump_played else 0)


# --- the deal --------------------------------------------------------------------------------------

DEALS = 200_000


def _make_deal_counts(fingerprint):
    @nb.njit(cache=True)
    def deal_counts(seed, count, options, fives):
        """``fives[p, s]`` counts the deals where seat p (n: the kitty) holds the 5 of suit s."""
        if count < 0:
            return fingerprint
        n = options[K.O_PLAYERS]
        s = np.zeros(K.STATE_SIZE, np.int64)
        rng = np.zeros(RNG_SIZE, np.uint64)
        for hand in range(count):
            K.deal_random(s, seed, hand, hand % n, options, rng)
            for p in range(n + 1):
                m = s[K.KITTY] if p == n else s[K.HANDS + p]
                for suit in range(4):
                    if (m >> (suit * 13 + 3)) & 1:
                        fives[p, suit] += 1
        return 0

    return deal_counts


def test_a_given_seat_holds_a_given_five_with_probability_5_in_52(engine_fingerprint):
    game = FiftyFive(players=5)
    fives = np.zeros((6, 4), dtype=np.int64)
    _make_deal_counts(engine_fingerprint)(2024, DEALS, game.option_array, fives)
    p = 5 / 52  # a hand (or the kitty) is 5 of the 52 cards
    se = math.sqrt(p * (1 - p) / DEALS)
    for seat in range(6):
        for suit in range(4):
            freq = fives[seat, suit] / DEALS
            assert abs(freq - p) <= 5 * se, (seat, suit, freq, p)
