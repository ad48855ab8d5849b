"""What always holds (docs/rules.md, All games) for Bluke, checked after every step of many random hands.

A small rule oracle written here from docs/rules.md, Bluke (hand sizes, the turned card, legal bids, legal
plays, the trick winner, scores), independent of the engine's tables, backs two checkers:

* ``check_hands``: a numba loop that deals with the engine's own ``deal_random``, plays uniformly
  random legal actions through ``legal``/``step`` and checks the raw state after every step; it
  returns ``(code, hand, actions taken)`` at the first broken invariant.
* ``test_public_api_invariants``: a hypothesis test doing the same through the State API.

Invariants: every one of the 54 cards is in exactly one place (a hand, the turned card, the rest
or the cards played, which are exactly the cards in the trick slots); the legal set is never
empty while the hand is on and empty once it is over, and equals the oracle's; seats act in turn
(bids from eldest, each trick from its leader), so every trick has one card from each player;
the trick winner is the oracle's and leads next; tricks taken add to the hand size; the scores
are the oracle's. Finally the deal: P(no trump) = 2/54 within 5 standard errors.
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
from tricksim.sim import bluke as K
from tricksim.sim.bluke_game import Bluke
from tricksim.sim.kernels import RNG_SIZE, seed_stream

from oracle_bits import count as _count

# --- the rule oracle, from docs/rules.md, Bluke -------------------------------------------------

FULL_DECK = (1 << 54) - 1
LJ, HJ = parse_card("LJ"), parse_card("HJ")
O_BLUKES = (1 << LJ) | (1 << HJ)
O_SUIT_MASK = np.array([sum(1 << parse_card(r + s) for r in "23456789TJQKA") for s in "CDHS"], dtype=np.int64)


def oracle_sizes(players):
    """docs/rules.md, Bluke: Deals: M = min(13, 53 // n), then M, M-1, ..., 1, 2, ..., M."""
    m = min(13, 53 // players)
    return list(range(m, 0, -1)) + list(range(2, m + 1))


def test_oracle_sizes():
    assert len(oracle_sizes(4)) == 25 and oracle_sizes(2)[:2] == [13, 12]
    assert oracle_sizes(5)[0] == 10 and oracle_sizes(10)[0] == 5


O_SIZES = np.zeros((11, 25), dtype=np.int64)
O_LENGTH = np.zeros(11, dtype=np.int64)
for _n in range(2, 11):
    _s = oracle_sizes(_n)
    O_LENGTH[_n] = len(_s)
    O_SIZES[_n, :len(_s)] = _s


@nb.njit(cache=False)
def _suit(c):
    return -1 if c >= 52 else c // 13  # -1: a bluke


@nb.njit(cache=False)
def oracle_winner(cards, n, leader, trump):
    """Seat winning ``cards`` (play order from ``leader``): the highest bluke (HJ > LJ), else the
    highest trump, else the highest of the suit led. ``trump`` -1 = none."""
    best, best_key = 0, -1
    led = _suit(cards[0])
    for i in range(n):
        c = cards[i]
        if c == HJ:
            key = 1000
        elif c == LJ:
            key = 999
        elif _suit(c) == trump:
            key = 500 + c % 13
        elif _suit(c) == led:
            key = c % 13
        else:
            key = -1
        if key > best_key:
            best, best_key = i, key
    return (leader + best) % n


@nb.njit(cache=False)
def oracle_score(bid, took):
    """docs/rules.md, Bluke: Score."""
    if bid == 0:
        return 10 if took == 0 else -10
    return 10 * bid + (took - bid) if took >= bid else -10 * bid


@nb.njit(cache=False)
def oracle_play_mask(hand, trick, count, next_sets):
    """Cards that may be played to ``trick[:count]`` from ``hand``."""
    if count == 0:
        return hand
    follow = _suit(trick[0])
    if follow < 0:  # a bluke led
        follow = -1
        if next_sets:
            for i in range(1, count):
                if _suit(trick[i]) >= 0:
                    follow = _suit(trick[i])
                    break
    if follow < 0:
        return hand
    same = hand & O_SUIT_MASK[follow]
    if same == 0:
        return hand
    return same | (hand & O_BLUKES)


# --- the numba checker ----------------------------------------------------------------------------

ERRORS = {
    1: "the deal is not hand size cards a seat, one turned card and the rest, out of 54",
    2: "a card is in two places at once (hands, turned, rest, played)",
    3: "a card of the deck is in no place",
    4: "the cards played are not exactly the cards in the trick slots",
    5: "the legal set is empty while the hand is on",
    6: "the legal set is not empty once the hand is over",
    7: "the legal bids differ from docs/rules.md, Bluke (min_bid .. hand size, the hook)",
    8: "the legal plays differ from docs/rules.md, Bluke (follow suit, blukes any time, bluke lead)",
    9: "the wrong seat is to act in the bidding (eldest first, clockwise)",
    10: "the wrong seat is to act in a trick (leader first, then clockwise)",
    11: "a trick's slots differ from the plays made",
    12: "a trick's winner differs from docs/rules.md, Bluke",
    13: "the trick winner does not lead the next trick",
    14: "tricks taken do not add to the hand size",
    15: "scores differ from docs/rules.md, Bluke",
    16: "the hand size or trump differs from the deal rules",
    17: "the hand did not end after hand size tricks",
}



@nb.njit(cache=False)
def locate(s, n):
    seen = np.int64(0)
    for i in range(n + 3):
        if i < n:
            m = s[K.HANDS + i]
        elif i == n:
            m = np.int64(1) << s[K.TURNED]
        elif i == n + 1:
            m = s[K.REST]
        else:
            m = s[K.PLAYED]
        if seen & m:
            return 2
        seen |= m
    if seen != FULL_DECK:
        return 3
    in_slots = np.int64(0)
    for t in range(s[K.TRICK_NO] + 1):
        k = n if t < s[K.TRICK_NO] else s[K.IN_TRICK]
        if t >= s[K.HAND_SIZE]:
            break
        for j in range(k):
            c = s[K.TRICKS + t * K.TRICK_SLOTS + 1 + j]
            if c < 0 or c >= 54 or in_slots & (np.int64(1) << c):
                return 4
            in_slots |= np.int64(1) << c
    return 0 if in_slots == s[K.PLAYED] else 4


def _make_checker(fingerprint):
    """The checker, cached by numba; ``fingerprint`` ties the cache to the engine (conftest.py)."""

    @nb.njit(cache=True)
    def check_hands(seed, first, count, options, acts):
        if count < 0:  # never true: makes the engine's fingerprint part of the cache key
            return fingerprint, -1, 0
        n, min_bid, hook, next_sets = options[0], options[1], options[2], options[3]
        s = np.zeros(K.STATE_SIZE, np.int64)
        deal_rng = np.zeros(RNG_SIZE, np.uint64)
        rng = np.zeros(RNG_SIZE, np.uint64)
        trick = np.empty(n, np.int64)
        bids = np.zeros(n, np.int64)
        won = np.zeros(n, np.int64)
        for i in range(count):
            hand = first + i
            dealer = hand % n
            size = O_SIZES[n, hand % O_LENGTH[n]]
            K.deal_random(s, seed, hand, hand % O_LENGTH[n], dealer, options, deal_rng)
            seed_stream(rng, seed, hand, 7)
            if s[K.HAND_SIZE] != size:
                return 16, hand, 0
            for p in range(n):
                if _count(s[K.HANDS + p]) != size:
                    return 1, hand, 0
            if _count(s[K.REST]) != 54 - n * size - 1:
                return 1, hand, 0
            turned = s[K.TURNED]
            trump = _suit(turned)
            if (s[K.TRUMP] == K.NO_TRUMP) != (trump < 0) or (trump >= 0 and s[K.TRUMP] != trump):
                return 16, hand, 0
            eldest = (dealer + 1) % n
            bids[:] = 0
            won[:] = 0
            nbids, total, leader, in_trick, done = 0, 0, eldest, 0, 0
            nact = 0
            while True:
                code = locate(s, n)
                if code != 0:
                    return code, hand, nact
                words, cards, kind = K.legal(s)
                if s[K.TO_ACT] < 0:
                    if words != 0 or cards != 0:
                        return 6, hand, nact
                    break
                if words == 0 and cards == 0:
                    return 5, hand, nact
                seat = s[K.TO_ACT]
                if nbids < n:
                    if seat != (eldest + nbids) % n:
                        return 9, hand, nact
                    expect = np.int64(0)
                    for b in range(min_bid, size + 1):
                        if not (hook and nbids == n - 1 and total + b == size):
                            expect |= np.int64(1) << (A.BID + b)
                    if words != expect or cards != 0:
                        return 7, hand, nact
                else:
                    if seat != (leader + in_trick) % n:
                        return 10, hand, nact
                    if words != 0 or kind != A.PLAY:
                        return 8, hand, nact
                    if cards != oracle_play_mask(s[K.HANDS + seat], trick, in_trick, next_sets):
                        return 8, hand, nact
                action = uniform_action(words, cards, kind, rng)
                acts[nact] = action
                nact += 1
                K.step(s, action)
                if nbids < n:
                    bids[seat] = action - A.BID
                    total += action - A.BID
                    nbids += 1
                    continue
                trick[in_trick] = action - A.card_action(A.PLAY, 0)
                in_trick += 1
                if in_trick == n:
                    slot = K.TRICKS + done * K.TRICK_SLOTS
                    if s[slot] != leader:
                        return 11, hand, nact
                    for j in range(n):
                        if s[slot + 1 + j] != trick[j]:
                            return 11, hand, nact
                    w = oracle_winner(trick, n, leader, trump)
                    if s[slot + 1 + K.MAX_PLAYERS] != w:
                        return 12, hand, nact
                    won[w] += 1
                    done += 1
                    in_trick = 0
                    leader = w
                    if done < size and s[K.TO_ACT] != w:
                        return 13, hand, nact
                    if (done == size) != (s[K.TO_ACT] < 0):
                        return 17, hand, nact
            if done != size:
                return 17, hand, nact
            t = 0
            for p in range(n):
                t += s[K.TAKEN + p]
                if s[K.TAKEN + p] != won[p]:
                    return 14, hand, nact
            if t != size:
                return 14, hand, nact
            for p in range(n):
                if s[K.SCORES + p] != oracle_score(bids[p], won[p]):
                    return 15, hand, nact
        return 0, -1, 0

    return check_hands


@pytest.fixture(scope="module")
def check_hands(engine_fingerprint):
    return _make_checker(engine_fingerprint)


OPTION_SETS = [
    (dict(players=4), 30_000),
    (dict(players=4, bluke_lead="next_sets_suit"), 20_000),
    (dict(players=2, min_bid=0, hook=True), 20_000),
    (dict(players=3, bluke_lead="next_sets_suit", hook=True), 15_000),
    (dict(players=6, min_bid=0), 10_000),
    (dict(players=10, min_bid=0, hook=True, bluke_lead="next_sets_suit"), 5_000),
    (dict(players=5), 5_000),
]


@pytest.mark.parametrize("options, count", OPTION_SETS, ids=[str(o) for o, _ in OPTION_SETS])
def test_random_hands_keep_the_invariants(check_hands, options, count):
    game = Bluke(**options)
    acts = np.zeros(512, np.int64)
    code, hand, nact = check_hands(31, 0, count, game.option_array, acts)
    if code != 0:
        labels = [A.action_label(int(a)) for a in acts[:nact]]
        pytest.fail(f"{ERRORS.get(code, code)}: Bluke({options}) hand {hand} "
                    f"(new_hand(seed=31, dealer={hand % game.players}, hand={hand % game.match_hands})), "
                    f"actions {labels}")


def test_at_least_100000_hands_are_checked():
    assert sum(count for _, count in OPTION_SETS) >= 100_000


def test_batch_rows_add_up():
    game = Bluke(players=4)
    raw = np.empty((5000, len(K.RECORD)), dtype=np.int64)
    K.play_random_hands(3, 0, game.option_array, raw)
    df = game.frame(raw, 3, 0)
    taken = df[[f"taken_{p}" for p in range(4)]].sum(axis=1)
    assert (taken == df["hand_size"]).all()
    assert (df["hand_size"] == [oracle_sizes(4)[h % 25] for h in range(5000)]).all()
    raw13 = np.empty((2000, len(K.RECORD)), dtype=np.int64)
    K.play_random_hands(3, 0, game.option_array, raw13, 0)
    assert (raw13[:, 2] == 13).all()


# --- the public API, by hypothesis ------------------------------------------------------------


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 10),
    min_bid=st.sampled_from([1, 0]),
    hook=st.booleans(),
    bluke_lead=st.sampled_from(["free", "next_sets_suit"]),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_public_api_invariants(players, min_bid, hook, bluke_lead, seed, data):
    game = Bluke(players=players, min_bid=min_bid, hook=hook, bluke_lead=bluke_lead)
    number = data.draw(st.integers(0, game.match_hands - 1))
    dealer = data.draw(st.integers(0, players - 1))
    state = game.new_hand(seed, dealer, number)
    size = oracle_sizes(players)[number]
    view = state.observe(0)
    turned = view["turned"]
    trump = None if turned in ("LJ", "HJ") else turned[1]
    assert state.result()["trump"] == trump and view["hand_size"] == size
    hands = [state.hand(p).mask for p in range(players)]
    assert all(bin(h).count("1") == size for h in hands)
    union = 0
    for h in hands:
        assert union & h == 0
        union |= h
    assert not union >> parse_card(turned) & 1
    bids = []
    plays = []
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal
        seat = state.current_player
        action = data.draw(st.sampled_from(legal))
        label = state.action_label(action)
        state.apply(action)
        if label.startswith("bid "):
            assert seat == (dealer + 1 + len(bids)) % players
            bids.append(int(label[4:]))
        else:
            plays.append((seat, label[5:]))
            if len(plays) % players == 0:
                leader, cards, winner = state.tricks()[len(plays) // players - 1]
                trick = plays[-players:]
                assert [p for p, _ in trick] == [(leader + k) % players for k in range(players)]
                assert cards == [c for _, c in trick]
                ids = np.array(parse_cards(cards), dtype=np.int64)
                assert winner == oracle_winner(ids, players, leader, -1 if trump is None else "CDHS".index(trump))
        held = sum(state.hand(p).mask for p in range(players))
        played = sum(1 << parse_card(c) for _, c in plays)
        assert held & played == 0 and held | played == union
    assert state.legal_actions() == []
    tricks = state.tricks()
    assert len(tricks) == size
    taken = [sum(1 for *_, w in tricks if w == p) for p in range(players)]
    assert sum(taken) == size
    result = state.result()
    assert result["taken"] == taken
    order = [(dealer + 1 + k) % players for k in range(players)]
    assert [result["bids"][p] for p in order] == bids
    assert state.scores() == [oracle_score(result["bids"][p], taken[p]) for p in range(players)]


# --- the deal -------------------------------------------------------------------------------------

DEALS = 400_000


def _make_no_trump_count(fingerprint):
    @nb.njit(cache=True)
    def no_trump_count(seed, count, options):
        if count < 0:
            return fingerprint
        s = np.zeros(K.STATE_SIZE, np.int64)
        rng = np.zeros(RNG_SIZE, np.uint64)
        hits = 0
        for hand in range(count):
            K.deal_random(s, seed, hand, hand % 25, hand % options[0], options, rng)
            if s[K.TURNED] >= 52:
                hits += 1
        return hits

    return no_trump_count


def test_no_trump_has_probability_2_in_54(engine_fingerprint):
    count = _make_no_trump_count(engine_fingerprint)
    hits = count(17, DEALS, Bluke(players=4).option_array)
    p = 2 / 54
    se = math.sqrt(p * (1 - p) / DEALS)
    assert abs(hits / DEALS - p) <= 5 * se, f"{hits / DEALS:.5f} vs {p:.5f} (5 SE = {5 * se:.5f})"


def test_batch_rows_do_not_depend_on_threads_or_chunks():
    import numba

    game = Bluke(players=5, min_bid=0)
    whole = np.empty((3000, len(K.RECORD)), dtype=np.int64)
    K.play_random_hands(8, 0, game.option_array, whole)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        parts = np.empty_like(whole)
        K.play_random_hands(8, 0, game.option_array, parts[:1234])
        K.play_random_hands(8, 1234, game.option_array, parts[1234:])
    finally:
        numba.set_num_threads(threads)
    assert np.array_equal(whole, parts)
