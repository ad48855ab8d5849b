"""The Sheepshead deal (docs/rules.md, All games: Seats, deals and tricks; Sheepshead): 6 cards a seat, 2 to the blind,
every hand a uniformly random subset of the 32 cards, reproducible from (seed, hand number).

The probabilities are worked out here from first principles with math.comb and compared with
the frequencies of the engine's own ``deal_random`` over 400,000 deals (a numba loop): each
must lie within 5 standard errors, sqrt(p (1 - p) / n).
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np
import pytest

import tricksim
from tricksim.cards import parse_card, parse_cards
from tricksim.sim import sheepshead as K
from tricksim.sim.kernels import RNG_SIZE

DEALS = 400_000
SEED = 977
PLAYERS = 5
DECK_LABELS = [rank + suit for suit in "CDHS" for rank in "789TJQKA"]
DECK = np.array(sorted(parse_card(label) for label in DECK_LABELS), dtype=np.int64)
DECK_MASK = sum(1 << int(c) for c in DECK)
TRUMP_MASK = sum(1 << c for c in parse_cards("QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D"))
QC, QS, QH, QD = parse_cards("QC QS QH QD")
BLACK_QUEENS = (1 << QC) | (1 << QS)
RED_QUEENS = (1 << QH) | (1 << QD)

# --- exact probabilities ------------------------------------------------------------------------
# A hand is a uniform 6-card subset of the 32 cards; a second hand, a uniform 6-subset of the 26
# left; and so on.

# Exactly 3 of the 14 trumps (and 3 of the 18 fail cards) in a given hand.
P_THREE_TRUMPS = math.comb(14, 3) * math.comb(18, 3) / math.comb(32, 6)

# QC in a given hand: the hand is QC plus 5 of the other 31 cards.
P_QC_IN_HAND = math.comb(31, 5) / math.comb(32, 6)
P_CARD_IN_BLIND = math.comb(31, 1) / math.comb(32, 2)

# Somebody (one of the five hands; the blind is nobody) holds QC+QS, or somebody holds QH+QD.
# B = "some hand holds both black queens", R = the same for the red queens; P(B or R) =
# P(B) + P(R) - P(B and R), with the five hands disjoint so that P(B) = 5 P(hand 1 has both):
_P_PAIR_IN_HAND = math.comb(30, 4) / math.comb(32, 6)
# B and R: one hand holds all four queens (5 hands), or hand i holds QC QS without the red
# queens and hand j != i holds QH QD (5 * 4 ordered pairs of hands):
_P_FOUR_IN_HAND = math.comb(28, 2) / math.comb(32, 6)
_P_SPLIT_PAIRS = math.comb(28, 4) * math.comb(24, 4) / (math.comb(32, 6) * math.comb(26, 6))
P_QUEEN_PAIR = 2 * (5 * _P_PAIR_IN_HAND) - (5 * _P_FOUR_IN_HAND + 20 * _P_SPLIT_PAIRS)


def test_exact_values_match_the_quoted_figures():
    assert round(P_THREE_TRUMPS, 4) == 0.3278
    assert round(P_QUEEN_PAIR, 4) == 0.2795
    assert P_QC_IN_HAND == 0.1875 == 6 / 32


@nb.njit(cache=False)
def _popcount(m):
    n = 0
    while m != 0:
        m &= m - 1
        n += 1
    return n


def _make_deal_counts(fingerprint):
    """The counting loop, cached by numba; ``fingerprint`` ties the cache to the engine's
    sources (conftest.py)."""

    @nb.njit(cache=True)
    def deal_counts(seed, count, options, places, three_trumps, queen_pairs):
        """Deal hands 0..count-1 of ``seed`` with the engine's ``deal_random``. ``places[c, p]``
        counts card c in place p (seats 0..4, the blind 5); ``three_trumps[p]`` the deals where
        seat p holds exactly 3 trumps; ``queen_pairs[0]`` the deals where some seat holds both
        black or both red queens. Returns the number of malformed deals (not 6 + ... + 6 + 2
        disjoint cards making up the deck)."""
        if count < 0:  # never true: makes the fingerprint part of numba's cache key
            return fingerprint
        s = np.zeros(K.STATE_SIZE, np.int64)
        rng = np.zeros(RNG_SIZE, np.uint64)
        bad = 0
        for hand in range(count):
            K.deal_random(s, seed, hand, hand % PLAYERS, options, 0, rng)
            union = np.int64(0)
            pair = False
            for p in range(PLAYERS + 1):
                m = s[K.BLIND] if p == PLAYERS else s[K.HANDS + p]
                if _popcount(m) != (2 if p == PLAYERS else 6) or union & m:
                    bad += 1
                union |= m
                for c in range(54):
                    if (m >> c) & 1:
                        places[c, p] += 1
                if p < PLAYERS:
                    if _popcount(m & TRUMP_MASK) == 3:
                        three_trumps[p] += 1
                    if (m & BLACK_QUEENS) == BLACK_QUEENS or (m & RED_QUEENS) == RED_QUEENS:
                        pair = True
            if union != DECK_MASK:
                bad += 1
            if pair:
                queen_pairs[0] += 1
        return bad

    return deal_counts


@pytest.fixture(scope="module")
def counts(engine_fingerprint):
    deal_counts = _make_deal_counts(engine_fingerprint)
    places = np.zeros((54, PLAYERS + 1), dtype=np.int64)
    three = np.zeros(PLAYERS, dtype=np.int64)
    pairs = np.zeros(1, dtype=np.int64)
    game = tricksim.make_game("sheepshead")
    bad = deal_counts(SEED, DEALS, game.option_array, places, three, pairs)
    return {"bad": bad, "places": places, "three": three, "pairs": int(pairs[0])}


def _within_5_se(hits, n, p, what):
    se = math.sqrt(p * (1 - p) / n)
    freq = hits / n
    assert abs(freq - p) <= 5 * se, f"{what}: {freq:.5f} over {n} deals, exact {p:.5f} (5 SE = {5 * se:.5f})"


def test_every_deal_is_six_cards_a_seat_and_two_in_the_blind(counts):
    assert counts["bad"] == 0
    places = counts["places"]
    assert places[DECK].sum(axis=1).tolist() == [DEALS] * 32  # every card dealt once a deal
    assert places.sum() == 32 * DEALS
    assert places[[c for c in range(54) if c not in set(DECK.tolist())]].sum() == 0


@pytest.mark.parametrize("seat", range(PLAYERS))
def test_three_trumps_in_a_given_hand(counts, seat):
    _within_5_se(counts["three"][seat], DEALS, P_THREE_TRUMPS, f"P(exactly 3 trumps in seat {seat})")


def test_somebody_holds_both_black_or_both_red_queens(counts):
    _within_5_se(counts["pairs"], DEALS, P_QUEEN_PAIR, "P(a hand holds QC+QS or QH+QD)")


def test_queen_of_clubs_in_a_given_hand(counts):
    for seat in range(PLAYERS):
        _within_5_se(counts["places"][QC, seat], DEALS, P_QC_IN_HAND, f"P(QC in seat {seat})")


def test_every_card_is_equally_likely_in_every_place(counts):
    places = counts["places"]
    for c in DECK:
        for p in range(PLAYERS + 1):
            exact = P_CARD_IN_BLIND if p == PLAYERS else P_QC_IN_HAND
            where = "the blind" if p == PLAYERS else f"seat {p}"
            _within_5_se(places[c, p], DEALS, exact, f"P({tricksim.cards.card_label(int(c))} in {where})")


# --- the public deal: new_hand -----------------------------------------------------------------


def _deal_of(state):
    hands = [state.hand(seat).labels() for seat in range(PLAYERS)]
    return hands


def test_new_hand_deals_six_cards_a_seat_and_a_two_card_blind():
    game = tricksim.make_game("sheepshead")
    for hand in range(50):
        state = game.new_hand(seed=5, dealer=hand % 5, hand=hand)
        masks = [state.hand(seat).mask for seat in range(PLAYERS)]
        assert [len(state.hand(seat)) for seat in range(PLAYERS)] == [6] * 5
        union = 0
        for m in masks:
            assert union & m == 0
            union |= m
        assert union & ~DECK_MASK == 0
        assert bin(DECK_MASK & ~union).count("1") == 2  # the blind
        assert state.current_player == (hand % 5 + 1) % 5  # eldest speaks first
        assert state.legal_labels() == ["pass", "pick"]


def test_new_hand_is_reproducible_and_differs_across_hand_numbers_and_seeds():
    game = tricksim.make_game("sheepshead")
    deals = [_deal_of(game.new_hand(seed=11, dealer=0, hand=h)) for h in range(40)]
    again = [_deal_of(tricksim.make_game("sheepshead").new_hand(seed=11, dealer=0, hand=h)) for h in range(40)]
    assert deals == again
    assert len({str(d) for d in deals}) == 40  # 40 different deals
    other_seed = [_deal_of(game.new_hand(seed=12, dealer=0, hand=h)) for h in range(40)]
    assert all(a != b for a, b in zip(deals, other_seed))


def test_new_hand_deal_survives_playing_the_hand_and_the_blind_is_reproducible():
    game = tricksim.make_game("sheepshead")
    first = game.new_hand(seed=3, dealer=1, hand=8)
    hands = _deal_of(first)
    first.apply("pick")  # seat 2 (eldest) picks: his hand shows the blind
    blind = first.hand(2) - tricksim.cards.CardSet(hands[2])
    second = game.new_hand(seed=3, dealer=1, hand=8)
    assert _deal_of(second) == hands
    second.apply("pick")
    assert second.hand(2) - tricksim.cards.CardSet(hands[2]) == blind
    assert len(blind) == 2
