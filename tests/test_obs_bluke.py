"""The numeric Bluke observation (``sim/obs_bluke.py``) shows a seat exactly its ``observe()`` dict.

Both ways: the kernel's vector equals a reference encoding of the dict (so it shows nothing
more), and the dict is rebuilt from the vector alone (so it shows nothing less). Twin deals that
differ only in cards a seat cannot see must give that seat identical vectors.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tricksim.cards import CardSet, card_label, parse_card
from tricksim.sim.obs_bluke import COLUMN, DECK, blocks, observe
from tricksim.sim.observation import Layout
from tricksim.sim import actions as A
from tricksim.sim import bluke as K
from tricksim.sim.bluke_game import TRUMP_NAMES, Bluke

from table_view import expected_table

CARD_AT = {int(col): c for c, col in enumerate(COLUMN) if col >= 0}
GUARD = 8  # entries past the layout that the kernel must leave alone

OPTION_SETS = [
    {"players": 2},
    {"players": 3, "min_bid": 0, "hook": True},
    {"players": 4},
    {"players": 4, "min_bid": 0, "hook": True, "bluke_lead": "next_sets_suit"},
    {"players": 6, "hook": True},
    {"players": 10, "min_bid": 0, "bluke_lead": "next_sets_suit"},
]


def _vector(state, seat):
    layout = Layout(blocks(state.game))
    buf = np.full(layout.size + GUARD, 99, dtype=np.int8)
    observe(state.array, seat, buf[:layout.size])
    assert (buf[layout.size:] == 99).all(), "the kernel wrote past its layout"
    return buf[:layout.size]


def _winner(cards, leader, trump, players):
    """docs/rules.md, Bluke: the highest bluke, else the highest trump, else the highest of the suit led."""
    led = cards[0] // 13  # 4 for a bluke, which no suited card matches (a bluke wins then anyway)

    def power(c):
        if c >= 52:
            return 100 + c
        if trump is not None and c // 13 == "CDHS".index(trump):
            return 50 + c % 13
        return c % 13 if c // 13 == led else -1

    return (leader + max(range(len(cards)), key=lambda i: power(cards[i]))) % players


def _encode(game, view):
    """The vector the dict ``view`` calls for, built in Python from the dict alone."""
    n, seat = game.players, view["seat"]
    layout = Layout(blocks(game))
    out = np.zeros(layout.size, dtype=np.int8)
    part = layout.split(out)  # views into out
    for name, values in expected_table(view, n, COLUMN, K.PHASE_NAMES, (view["dealer"] + 1) % n).items():
        part[name][:] = values
    for t, (leader, cards, winner) in enumerate(view["tricks"]):
        assert winner == _winner([parse_card(c) for c in cards], leader, view["trump"], n)

    def rel(p):
        return (p - seat) % n

    assert view["taken"] == [sum(w == p for _, _, w in view["tricks"]) for p in range(n)]
    for p in range(n):
        part["bids"][rel(p)] = -1 if view["bids"][p] is None else view["bids"][p]
    part["hand_size"][0] = view["hand_size"]
    part["turned"][COLUMN[parse_card(view["turned"])]] = 1
    part["trump"][K.NO_TRUMP if view["trump"] is None else TRUMP_NAMES.index(view["trump"])] = 1
    return out


def _decode(game, obs, seat):
    """The dict ``observe(seat)`` rebuilt from the vector (and the seat) alone."""
    n = game.players
    part = Layout(blocks(game)).split(obs)

    def cards(plane):
        return [CARD_AT[int(i)] for i in np.flatnonzero(plane)]

    def absolute(r):
        return (seat + r) % n

    seat_of = {c: absolute(r) for r, plane in enumerate(part["played"].reshape(n, DECK)) for c in cards(plane)}
    dealer = absolute(int(np.argmax(part["dealer"])))
    phase = K.PHASE_NAMES[int(np.argmax(part["phase"]))]
    trump = None if part["trump"][K.NO_TRUMP] else TRUMP_NAMES[int(np.argmax(part["trump"]))]
    bids = [None] * n
    for r, b in enumerate(part["bids"]):
        bids[absolute(r)] = None if b < 0 else int(b)

    def in_order(t, leader):
        by_seat = {seat_of[c]: c for c in seat_of if part["played_in"][COLUMN[c]] == t + 1}
        return [by_seat[(leader + i) % n] for i in range(n) if (leader + i) % n in by_seat]

    leader, tricks = (dealer + 1) % n, []
    for t in range(int(part["tricks_won"].sum())):
        order = in_order(t, leader)
        winner = _winner(order, leader, trump, n)
        tricks.append((leader, [card_label(c) for c in order], winner))
        leader = winner
    current = in_order(len(tricks), leader)
    if phase == "bidding":
        to_act = (dealer + 1 + sum(b is not None for b in bids)) % n
    else:
        to_act = (leader + len(current)) % n if phase == "play" else None
    taken = [0] * n
    for r, x in enumerate(part["tricks_won"]):
        taken[absolute(r)] = int(x)
    return {
        "seat": seat,
        "dealer": dealer,
        "phase": phase,
        "to_act": to_act,
        "hand_size": int(part["hand_size"][0]),
        "hand": CardSet(cards(part["hand"])).labels(),
        "turned": card_label(cards(part["turned"])[0]),
        "trump": trump,
        "bids": bids,
        "tricks": tricks,
        "current_trick": [card_label(c) for c in current],
        "taken": taken,
    }


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_the_vector_is_the_dict_and_stays_in_bounds(options):
    game = Bluke(**options)
    n = game.players
    layout = Layout(blocks(game))
    low, high = layout.low(), layout.high()
    sizes = set()
    for i in range(6):
        hand = (i * 7 + 2) % game.match_hands
        state = game.new_hand(seed=i, dealer=i % n, hand=hand)
        sizes.add(game.hand_size(hand))
        rng = random.Random(i)
        while True:
            for seat in range(n):
                view = state.observe(seat)
                obs = _vector(state, seat)
                assert ((low <= obs) & (obs <= high)).all(), view
                assert (obs == _encode(game, view)).all(), (seat, view)
                assert _decode(game, obs, seat) == view
                assert not layout.split(obs)["totals"].any()
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
    assert len(sizes) >= 3


def test_the_layout_fits_int8_and_every_option():
    for n in range(K.MIN_PLAYERS, K.MAX_PLAYERS + 1):
        game = Bluke(players=n)
        layout = Layout(blocks(game))
        assert layout.blocks[-1].name == "totals"
        assert (layout.low() <= layout.high()).all()
        assert layout.block("bids").high == layout.block("tricks_won").high == K.max_hand(n) <= 127


def _deal_labels(state):
    """The deal of ``state`` as ``game.deal`` takes it: hands in seat order, turned card first."""
    s = state.array
    hands = [str(state.hand(p)) for p in range(state.game.players)]
    rest = [card_label(int(s[K.TURNED]))] + CardSet.from_mask(int(s[K.REST])).labels()
    return hands, rest


def _swap(hands, rest, a, b, stash):
    """Seats ``a`` and ``b`` swap their first cards; seat ``stash`` swaps its first card with
    the first undealt card under the turned one. Returns the deal and the cards that moved."""
    hands = [h.split() for h in hands]
    rest = list(rest)
    moved = {hands[a][0], hands[b][0], hands[stash][0], rest[1]}
    hands[a][0], hands[b][0] = hands[b][0], hands[a][0]
    hands[stash][0], rest[1] = rest[1], hands[stash][0]
    return [" ".join(h) for h in hands], rest, moved


@pytest.mark.parametrize("players, hand", [(4, 3), (4, 12), (10, 0), (3, 20)])
def test_twin_deals_differing_in_hidden_cards_look_the_same(players, hand):
    """Seat 0 cannot tell the twins apart until a moved card is played; the seats whose hands
    differ can, at every step."""
    game = Bluke(players=players, hook=True)
    for seed in range(3):
        hands, rest = _deal_labels(game.new_hand(seed=seed, dealer=seed % players, hand=hand))
        twin_hands, twin_rest, moved = _swap(hands, rest, 1, players - 1, players // 2)
        a = game.deal(hands, " ".join(rest), dealer=seed % players)
        b = game.deal(twin_hands, " ".join(twin_rest), dealer=seed % players)
        rng = random.Random(seed)
        steps = 0
        while True:
            assert (_vector(a, 0) == _vector(b, 0)).all(), f"seat 0 sees the hidden cards after {a.history}"
            for seat in {1, players - 1, players // 2}:
                assert (_vector(a, seat) != _vector(b, seat)).any(), f"seat {seat} misses its own hand"
            common = [x for x in a.legal_actions() if x in b.legal_actions()
                      and (x < A.CARD_BASE or card_label((x - A.CARD_BASE) % 54) not in moved)]
            if not common:
                break
            action = rng.choice(common)
            a.apply(action)
            b.apply(action)
            steps += 1
        assert steps >= players  # at least the bids were compared
