"""Bluke's rule oracle for the shared invariant harness (``invariants.py``), and what only Bluke has.

A small rule oracle written here from docs/rules.md, Bluke (hand sizes, the turned card, legal bids, legal
plays, the trick winner, scores), independent of the engine's tables, is checked by the harness's
random hands after every step (the hooks ``on_deal`` .. ``on_end``) and through the State API
(``api_step``, ``api_end``): every one of the 54 cards is in exactly one place (a hand, the turned
card, the rest or the cards played, which are exactly the cards in the trick slots); the legal set
equals the oracle's; bids go from eldest, who leads the first trick; the trick winner is the
oracle's; the hand ends after hand size tricks, which the tricks taken add up to; the scores are
the oracle's. Here too: the deal, P(no trump) = 2/54 within 5 standard errors, and the batch rows.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from tricksim.agents.loops import play_random_hands
from tricksim.cards import parse_card, parse_cards
from tricksim.sim import actions as A
from tricksim.sim import bluke as K
from tricksim.sim.bluke_game import Bluke
from tricksim.sim.kernels import RNG_SIZE

from invariants import Case
from oracle_bits import count as _count

ORACLE_GAMES = ("bluke",)

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


# --- the hooks of the shared harness ------------------------------------------------------------

ERRORS = {
    101: "the deal is not hand size cards a seat, one turned card and the rest, out of 54",
    102: "a card is in two places at once (hands, turned, rest, played)",
    103: "a card of the deck is in no place",
    104: "the cards played are not exactly the cards in the trick slots",
    107: "the legal bids differ from docs/rules.md, Bluke (min_bid .. hand size, the hook)",
    108: "the legal plays differ from docs/rules.md, Bluke (follow suit, blukes any time, bluke lead)",
    109: "the wrong seat is to act in the bidding (eldest first, clockwise)",
    110: "eldest does not lead the first trick",
    112: "a trick's winner differs from docs/rules.md, Bluke",
    114: "tricks taken do not add to the hand size",
    115: "scores differ from docs/rules.md, Bluke",
    116: "the hand size or trump differs from the deal rules",
    117: "the hand did not end after hand size tricks",
}
MEMORY = np.dtype([("size", np.int64), ("trump", np.int64), ("eldest", np.int64), ("nbids", np.int64),
                   ("total", np.int64), ("leader", np.int64), ("in_trick", np.int64), ("done", np.int64),
                   ("bids", np.int64, (K.MAX_PLAYERS,)), ("won", np.int64, (K.MAX_PLAYERS,)),
                   ("trick", np.int64, (K.MAX_PLAYERS,))])
STATS = ()


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
            return 102
        seen |= m
    if seen != FULL_DECK:
        return 103
    in_slots = np.int64(0)
    for t in range(s[K.TRICK_NO] + 1):
        k = n if t < s[K.TRICK_NO] else s[K.IN_TRICK]
        if t >= s[K.HAND_SIZE]:
            break
        for j in range(k):
            c = s[K.TRICKS + t * K.TRICK_SLOTS + 1 + j]
            if c < 0 or c >= 54 or in_slots & (np.int64(1) << c):
                return 104
            in_slots |= np.int64(1) << c
    return 0 if in_slots == s[K.PLAYED] else 104


@nb.njit(cache=False)
def on_deal(s, hand, params, mem):
    m = mem[0]
    n = params[0]
    m.size = O_SIZES[n, hand % O_LENGTH[n]]
    if s[K.HAND_SIZE] != m.size:
        return 116
    for p in range(n):
        if _count(s[K.HANDS + p]) != m.size:
            return 101
    if _count(s[K.REST]) != 54 - n * m.size - 1:
        return 101
    m.trump = _suit(s[K.TURNED])
    if (s[K.TRUMP] == K.NO_TRUMP) != (m.trump < 0) or (m.trump >= 0 and s[K.TRUMP] != m.trump):
        return 116
    m.eldest = (hand + 1) % n  # the harness deals match hand number ``hand`` with dealer hand % n
    m.bids[:] = 0
    m.won[:] = 0
    m.nbids, m.total, m.leader, m.in_trick, m.done = 0, 0, m.eldest, 0, 0
    return 0


@nb.njit(cache=False)
def on_state(s, words, cards, kind, nact, params, mem):
    m = mem[0]
    n, min_bid, hook, next_sets = params[0], params[1], params[2], params[3]
    code = locate(s, n)
    if code != 0 or s[K.TO_ACT] < 0:
        return code
    seat = s[K.TO_ACT]
    if m.nbids < n:
        if seat != (m.eldest + m.nbids) % n:
            return 109
        expect = np.int64(0)
        for b in range(min_bid, m.size + 1):
            if not (hook and m.nbids == n - 1 and m.total + b == m.size):
                expect |= np.int64(1) << (A.BID + b)
        if words != expect or cards != 0:
            return 107
        return 0
    if m.done == 0 and m.in_trick == 0 and seat != m.eldest:
        return 110
    if words != 0 or kind != A.PLAY:
        return 108
    if cards != oracle_play_mask(s[K.HANDS + seat], m.trick, m.in_trick, next_sets):
        return 108
    return 0


@nb.njit(cache=False)
def on_step(s, seat, action, kind, params, mem):
    m = mem[0]
    n = params[0]
    if m.nbids < n:
        m.bids[seat] = action - A.BID
        m.total += action - A.BID
        m.nbids += 1
        return 0
    m.trick[m.in_trick] = action - A.card_action(A.PLAY, 0)
    m.in_trick += 1
    if m.in_trick == n:
        w = oracle_winner(m.trick, n, m.leader, m.trump)
        if s[K.TRICKS + m.done * K.TRICK_SLOTS + 1 + K.MAX_PLAYERS] != w:
            return 112
        m.won[w] += 1
        m.done += 1
        m.in_trick = 0
        m.leader = w
        if (m.done == m.size) != (s[K.TO_ACT] < 0):
            return 117
    return 0


@nb.njit(cache=False)
def on_end(s, nact, params, mem, stats):
    m = mem[0]
    n = params[0]
    if m.done != m.size:
        return 117
    t = 0
    for p in range(n):
        t += s[K.TAKEN + p]
        if s[K.TAKEN + p] != m.won[p]:
            return 114
    if t != m.size:
        return 114
    for p in range(n):
        if s[K.SCORES + p] != oracle_score(m.bids[p], m.won[p]):
            return 115
    return 0


def cases(name):
    return [Case(name, options, hands) for options, hands in OPTION_SETS]


def params(game, case):
    return game.option_array.copy()


def check_stats(case, stats):
    """Nothing to see happen: every Bluke hand is played out."""


OPTION_SETS = [
    (dict(players=4), 30_000),
    (dict(players=4, bluke_lead="next_sets_suit"), 20_000),
    (dict(players=2, min_bid=0, hook=True), 20_000),
    (dict(players=3, bluke_lead="next_sets_suit", hook=True), 15_000),
    (dict(players=6, min_bid=0), 10_000),
    (dict(players=10, min_bid=0, hook=True, bluke_lead="next_sets_suit"), 5_000),
    (dict(players=5), 5_000),
]


def test_at_least_100000_hands_are_checked():
    assert sum(count for _, count in OPTION_SETS) >= 100_000


# --- the State API (play_through_api calls these) ------------------------------------------------

API_EXAMPLES = 100
API_DEAL_OPTIONS = {}


def api_step(state, played):
    """The cards held and played are the cards dealt; bids go from eldest; the oracle's trick winner."""
    n = played.game.players
    held = sum(state.hand(p).mask for p in range(n))
    assert held | played.mask == sum(played.start.hand(p).mask for p in range(n))
    seat, label = played.actions[-1]
    if label.startswith("bid "):
        bids = [a for a in played.actions if a[1].startswith("bid ")]
        assert seat == (played.dealer + len(bids)) % n
    elif len(played.plays) % n == 0:
        leader, cards, winner = state.tricks()[len(played.plays) // n - 1]
        turned = state.observe(0)["turned"]
        trump = -1 if turned in ("LJ", "HJ") else "CDHS".index(turned[1])
        assert winner == oracle_winner(np.array(parse_cards(cards), dtype=np.int64), n, leader, trump)


def api_end(state, played):
    """The deal's sizes and turned card, the tricks taken, the bids and the scores."""
    n = played.game.players
    size = oracle_sizes(n)[played.hand]
    view = played.start.observe(0)
    turned = view["turned"]
    trump = None if turned in ("LJ", "HJ") else turned[1]
    assert played.start.result()["trump"] == trump and view["hand_size"] == size
    hands = [played.start.hand(p).mask for p in range(n)]
    assert all(bin(h).count("1") == size for h in hands)
    assert not sum(hands) >> parse_card(turned) & 1
    tricks = state.tricks()
    assert len(tricks) == size
    taken = [sum(1 for *_, w in tricks if w == p) for p in range(n)]
    assert sum(taken) == size
    result = state.result()
    assert result["taken"] == taken
    bids = [int(label[4:]) for _, label in played.actions if label.startswith("bid ")]
    order = [(played.dealer + 1 + k) % n for k in range(n)]
    assert [result["bids"][p] for p in order] == bids
    assert state.scores() == [oracle_score(result["bids"][p], taken[p]) for p in range(n)]


# --- the batch rows ------------------------------------------------------------------------------


def test_batch_rows_add_up():
    game = Bluke(players=4)
    raw = np.empty((5000, len(K.RECORD)), dtype=np.int64)
    play_random_hands(game, 3, 0, raw)
    df = game.frame(raw, 3, 0)
    taken = df[[f"taken_{p}" for p in range(4)]].sum(axis=1)
    assert (taken == df["hand_size"]).all()
    assert (df["hand_size"] == [oracle_sizes(4)[h % 25] for h in range(5000)]).all()
    assert (df["hand_size"][::25] == 13).all()  # match hand 0: thirteen cards a seat


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
