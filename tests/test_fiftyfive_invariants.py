"""What always holds (docs/rules.md, All games) for Fifty-five, checked after every step of many
random hands, and the deal's probabilities.

* ``check_hands`` (numba) deals with the engine's ``deal_random``, plays uniformly random legal
  actions through ``legal``/``step`` and checks the raw state after every step: every card in
  exactly one place (hands, kitty, stock, discards, played = the trick slots), a non-empty legal
  set while the hand is on (empty after), legal cards held by the seat to act, seats in turn
  (one card from each player per trick, clockwise from the leader), the trick winner by an
  oracle written here from docs/rules.md (Fifty-five), and at the end 25 points + 5 if a trump was played,
  with the scores recomputed.
* A hypothesis test does the same through the Python ``State`` API.
* P(a given seat holds the 5 of a given suit) = 5/52, within 5 standard errors.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tricksim.agents.random import uniform_action
from tricksim.cards import parse_card, parse_cards
from tricksim.sim import actions as A
from tricksim.sim import fiftyfive as K
from tricksim.sim.fiftyfive_game import FiftyFive
from tricksim.sim.kernels import RNG_SIZE, seed_stream

from oracle_bits import count as _count, bit as _bit

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
    1: "the deal is not 5 cards a seat, 5 in the kitty and the rest in the stock",
    2: "a card is in two places at once (hands, kitty, stock, discards, played)",
    3: "a card of the deck is in no place",
    4: "the cards played are not exactly the cards in the trick slots",
    5: "the legal set is empty while the hand is not over",
    6: "the legal set is not empty after the hand is over",
    7: "a legal card is not held by the seat to act",
    8: "the wrong seat is to act in a trick (leader first, then clockwise)",
    9: "a trick's winner differs from docs/rules.md (Fifty-five: Play)",
    10: "the trick winner does not lead the next trick",
    11: "the points handed out are not 25 (+5 if a trump was played)",
    12: "the scores differ from docs/rules.md (Fifty-five: Score)",
    13: "the hand did not end within 200 actions",
    14: "a play is illegal by the oracle (follow or trump; renege only with 5, J, A♥ above the lead)",
    15: "a hand does not hold 5 cards when play starts",
    16: "a thrown-in hand without all_pass = redeal, or with non-zero scores",
}




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
            return 2
        seen |= m
    if seen != DECK_MASK:
        return 3
    in_slots = np.int64(0)
    for t in range(min(s[K.TRICK_NO] + 1, K.NUM_TRICKS)):
        k_max = n if t < s[K.TRICK_NO] else s[K.IN_TRICK]
        for k in range(k_max):
            c = s[K.TRICKS + t * K.TRICK_SLOTS + 1 + k]
            if c < 0 or c >= 52 or in_slots & _bit(c):
                return 4
            in_slots |= _bit(c)
    if in_slots != s[K.PLAYED]:
        return 4
    return 0


def _make_checker(fingerprint):
    """The checker, cached by numba; ``fingerprint`` ties the cache to the engine (conftest.py)."""

    @nb.njit(cache=True)
    def check_hands(seed, first, count, options, acts, trump_hands):
        """Random hands ``first .. first + count - 1`` of ``seed``, checked at every step.
        Returns ``(error code, hand, actions taken)``; ``trump_hands[0]`` counts hands with a
        trump played (so that the test can see the bonus case happen)."""
        if count < 0:  # never true: makes the engine's fingerprint part of the cache key
            return fingerprint, -1, 0
        n = options[K.O_PLAYERS]
        teams = options[K.O_TEAMS]
        s = np.zeros(K.STATE_SIZE, np.int64)
        deal_rng = np.zeros(RNG_SIZE, np.uint64)
        rng = np.zeros(RNG_SIZE, np.uint64)
        tcards = np.empty(n, np.int64)
        points = np.zeros(n, np.int64)
        tricks = np.zeros(n, np.int64)
        side_points = np.zeros(n, np.int64)
        side_tricks = np.zeros(n, np.int64)
        for i in range(count):
            hand = first + i
            dealer = hand % n
            K.deal_random(s, seed, hand, dealer, options, deal_rng)
            seed_stream(rng, seed, hand, 7)
            union = np.int64(0)
            for p in range(n):
                if _count(s[K.HANDS + p]) != 5 or union & s[K.HANDS + p]:
                    return 1, hand, 0
                union |= s[K.HANDS + p]
            if _count(s[K.KITTY]) != 5 or union & s[K.KITTY] or union | s[K.KITTY] | s[K.STOCK] != DECK_MASK:
                return 1, hand, 0
            points[:] = 0
            tricks[:] = 0
            in_trick, leader, tricks_done, nact = 0, -1, 0, 0
            best_strength, best_seat = -1, -1
            while True:
                code = locate(s, n)
                if code != 0:
                    return code, hand, nact
                words, cards, kind = K.legal(s)
                seat = s[K.TO_ACT]
                if seat < 0:
                    if words != 0 or cards != 0:
                        return 6, hand, nact
                    break
                if words == 0 and cards == 0:
                    return 5, hand, nact
                if nact >= 200:
                    return 13, hand, nact
                if cards & ~s[K.HANDS + seat]:
                    return 7, hand, nact
                t = s[K.TRUMP]
                if kind == A.PLAY:
                    if tricks_done == 0 and in_trick == 0:
                        for p in range(n):
                            if _count(s[K.HANDS + p]) != 5:
                                return 15, hand, nact
                    if in_trick == 0:
                        leader = seat
                    elif seat != (leader + in_trick) % n:
                        return 8, hand, nact
                    led_card = tcards[0] if in_trick > 0 else -1
                    if cards != oracle_play_mask(s[K.HANDS + seat], t, led_card):
                        return 14, hand, nact
                action = uniform_action(words, cards, kind, rng)
                acts[nact] = action
                nact += 1
                K.step(s, action)
                if kind == A.PLAY:
                    c = action - A.card_action(A.PLAY, 0)
                    if O_SUIT[t, c] == 4 and O_STRENGTH[t, c] > best_strength:
                        best_strength, best_seat = O_STRENGTH[t, c], seat
                    tcards[in_trick] = c
                    in_trick += 1
                    if in_trick == n:
                        w = (leader + oracle_winner(tcards, n, t)) % n
                        if s[K.TRICKS + tricks_done * K.TRICK_SLOTS + 1 + K.MAX_PLAYERS] != w:
                            return 9, hand, nact
                        points[w] += 5
                        tricks[w] += 1
                        tricks_done += 1
                        in_trick = 0
                        if tricks_done < 5 and s[K.TO_ACT] != w:
                            return 10, hand, nact
            # --- the hand is over ---
            if s[K.OUTCOME] == K.OUTCOME_THROWN_IN:
                if options[K.O_ALL_PASS] != K.ALL_PASS_REDEAL or tricks_done != 0:
                    return 16, hand, nact
                for p in range(n):
                    if s[K.SCORES + p] != 0:
                        return 16, hand, nact
                continue
            if best_seat >= 0:
                points[best_seat] += 5
                trump_hands[0] += 1
            total = 0
            for p in range(n):
                total += points[p]
                if s[K.POINTS + p] != points[p]:
                    return 11, hand, nact
            if total != 25 + (5 if best_seat >= 0 else 0) or tricks_done != 5:
                return 11, hand, nact
            side_points[:] = 0
            side_tricks[:] = 0
            for p in range(n):
                q = p % teams if teams > 1 else p
                side_points[q] += points[p]
                side_tricks[q] += tricks[p]
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
                    return 12, hand, nact
        return 0, -1, 0

    return check_hands


@pytest.fixture(scope="module")
def checker(engine_fingerprint):
    return _make_checker(engine_fingerprint)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_invariants_over_random_hands(checker, options):
    game = FiftyFive(**options)
    acts = np.zeros(256, dtype=np.int64)
    trump_hands = np.zeros(1, dtype=np.int64)
    code, hand, nact = checker(11, 0, HANDS_PER_SET, game.option_array, acts, trump_hands)
    if code != 0:
        state = game.new_hand(11, hand % game.players, hand)
        labels = [A.action_label(int(a)) for a in acts[:nact]]
        hands = [state.hand(p).labels() for p in range(game.players)]
        pytest.fail(f"{ERRORS[code]}: new_hand(11, {hand % game.players}, {hand}) dealt {hands}, after {labels}")
    assert trump_hands[0] > HANDS_PER_SET // 2


# --- the same through the State API -------------------------------------------------------------

OPTIONS = st.fixed_dictionaries({
    "players": st.integers(2, 9),
    "exchange": st.integers(0, 3),
    "all_pass": st.sampled_from(["dealer_min", "redeal"]),
    "first_lead": st.sampled_from(["eldest", "bidder"]),
})


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTIONS, teams=st.sampled_from([0, 2, 3]), seed=st.integers(0, 2**63 - 1),
       hand=st.integers(0, 2**31), data=st.data())
def test_public_api_invariants(options, teams, seed, hand, data):
    n = options["players"]
    if teams and n % teams:
        teams = 0
    game = FiftyFive(teams=teams, **options)
    dealer = hand % n
    state = game.new_hand(seed, dealer, hand)
    assert [len(state.hand(p)) for p in range(n)] == [5] * n
    plays = []
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal
        seat = state.current_player
        action = data.draw(st.sampled_from(legal))
        label = state.action_label(action)
        if label.startswith("play ") and not plays:
            assert [len(state.hand(p)) for p in range(n)] == [5] * n
        state.apply(action)
        if label.startswith("play "):
            plays.append((seat, label[5:]))
            if len(plays) % n == 0:
                leader, cards, winner = state.tricks()[len(plays) // n - 1]
                trick = plays[-n:]
                assert [p for p, _ in trick] == [(leader + k) % n for k in range(n)]
                assert cards == [c for _, c in trick]
        held = 0
        for p in range(n):
            h = state.hand(p).mask
            assert held & h == 0
            held |= h
    assert state.legal_actions() == []
    result = state.result()
    if result["thrown_in"]:
        assert options["all_pass"] == "redeal" and state.scores() == [0] * n and plays == []
        return
    assert len(state.tricks()) == 5 and len(plays) == 5 * n
    trump = "CDHS".index(result["trump"])
    trump_played = any(O_SUIT[trump, parse_card(c)] == 4 for _, c in plays)
    points = state.observe(0)["points_taken"]
    assert sum(points) == 25 + (5 if trump_played else 0)
    if teams:
        assert all(state.scores()[p] == state.scores()[p % teams] for p in range(n))


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
