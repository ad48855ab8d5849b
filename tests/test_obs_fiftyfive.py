"""The numeric Fifty-five observation (``sim/obs_fiftyfive.py``) against the view read back from it.

* Consistency: random hands under several option sets; after every step, every seat's vector
  is cut into its blocks and each block is decoded and compared with the seat's dict, and every
  value lies within the layout's bounds.
* Hidden information: twin deals that differ only in what some seats cannot see (two hands swap
  a card, the kitty swaps a card with the stock or a hand, the bidder discards other cards) play
  the same public actions; the seats that cannot see the difference get identical vectors at
  every step, and a seat that can see it gets a different one.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tricksim.cards import SUITS, card_label, parse_cards
from tricksim.sim.obs_fiftyfive import COLUMN, blocks, observe
from tricksim.sim.observation import Layout
from tricksim.sim import actions as A
from tricksim.sim import fiftyfive as K
from tricksim.sim.fiftyfive_game import FiftyFive

from table_view import expected_table

OPTION_SETS = [
    {},
    {"players": 2},
    {"players": 9},
    {"players": 9, "exchange": 2},
    {"players": 6, "teams": 3, "first_lead": "bidder"},
    {"players": 4, "exchange": 3},
    {"players": 5, "all_pass": "redeal"},
    {"players": 3, "bid_values": "5 10 30", "exchange": 1},
]
HANDS = 150  # per option set, shared out among the seats: the work grows with players squared
CALL_LABELS = {-1: None, 0: "pass", -2: "hold"}


def vector(game, state, seat):
    out = np.full(Layout(blocks(game)).size, 99, dtype=np.int8)  # 99: no entry may keep it
    observe(state.array, seat, out)
    return out


def random_action(state, rng):
    """A random legal action; in the auction pass more often, so some hands are thrown in."""
    legal = state.legal_actions()
    if state.phase in ("bidding", "duel") and rng.random() < 0.6:
        return A.PASS
    return rng.choice(legal)


def plane_labels(plane):
    return sorted(card_label(int(c)) for c in np.flatnonzero(plane))


def first_leader(game, view):
    if game.options["first_lead"] == "bidder":
        return view["bidder"]
    return (view["dealer"] + 1) % game.players


def check_view(game, got, view):
    """Every block of ``got`` (the split vector) against the seat's dict ``view``."""
    n, seat = game.players, view["seat"]
    seat_of = [(seat + r) % n for r in range(n)]  # relative seat -> seat

    def one_hot_seat(block, expected):
        assert got[block].sum() == (expected is not None), block
        if expected is not None:
            assert seat_of[int(np.argmax(got[block]))] == expected, block

    for name, values in expected_table(view, n, COLUMN, K.PHASE_NAMES, first_leader(game, view)).items():
        assert list(got[name]) == list(values), name
    for r, p in enumerate(seat_of):
        assert CALL_LABELS.get(int(got["calls"][r]), f"bid {got['calls'][r]}") == view["calls"][p]
        assert got["points_taken"][r] == view["points_taken"][p]
    one_hot_seat("bidder", view["bidder"])
    assert got["bid"][0] == (view["bid"] or 0)
    assert list(got["trump"]) == [int(s == view["trump"]) for s in SUITS]
    assert got["kitty"][0] == (view["kitty"] is not None)  # whether the seat sees the kitty, then the kitty
    assert plane_labels(got["kitty"][1:]) == sorted(view["kitty"] or [])
    assert plane_labels(got["discards"]) == sorted(view["discards"])
    assert got["stock_left"][0] == view["stock_left"]
    assert not got["totals"].any()


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: " ".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_matches_dict_and_bounds(options):
    game = FiftyFive(**options)
    layout = Layout(blocks(game))
    low, high = layout.low(), layout.high()
    assert layout.blocks[-1].name == "totals"
    phases, outcomes = set(), set()
    for i in range(HANDS // game.players):
        state = game.new_hand(seed=i, dealer=i % game.players)
        rng = random.Random(i)
        while True:
            phases.add(state.phase)
            for seat in range(game.players):
                out = vector(game, state, seat)
                assert ((low <= out) & (out <= high)).all(), layout.split(out)
                check_view(game, layout.split(out), state.observe(seat))
            if state.is_terminal():
                outcomes.add(state.result()["outcome"])
                break
            state.apply(random_action(state, rng))
    expected = {"bidding", "kitty", "trump", "play", "over"} | ({"exchange"} if game.options["exchange"] else set())
    assert expected <= phases  # every phase was observed
    assert ("thrown_in" in outcomes) == (game.options["all_pass"] == "redeal")


# --- hidden information: twin deals ---------------------------------------------------------------

DEAL = [  # 5 players, dealer 4: seat 0 is eldest
    "5H JH 2C 3D 4S",
    "AH KH 6C 7D 8S",
    "QH TH 9C 2D 3S",
    "9H 8H 4C 5D 6S",
    "7H 6H 7C 8D 9S",
]
REST = ("KC QC JC TC 8C "  # the kitty
        "AC 5C 3C AD KD QD JD TD 9D 6D 4D AS KS QS JS TS 7S 5S 2S 4H 3H 2H")  # the stock, in order
AUCTION = ["pass", "bid 20", "pass", "pass", "pass"]  # seat 1 takes the kitty


def swap(deal, rest, a, b):
    """Hands and rest with cards ``a`` and ``b`` swapped wherever they lie."""
    cards = [h.split() for h in deal] + [rest.split()]
    where = {c: (i, row.index(c)) for c in (a, b) for i, row in enumerate(cards) if c in row}
    (ia, ja), (ib, jb) = where[a], where[b]
    cards[ia][ja], cards[ib][jb] = b, a
    return [" ".join(h) for h in cards[:-1]], " ".join(cards[-1])


def play_twins(game, a, b, blind, sees, rng, actions=(), private=None):
    """Play ``actions``, then random actions legal in both twins that name no card of ``private``
    (the cards the twins differ in, which would tell them apart). The seats ``blind`` must see the
    same at every step; each seat of ``sees`` must see a difference at some step."""
    differed = set()
    banned = {A.card_action(kind, c) for kind in (A.DISCARD, A.PLAY) for c in parse_cards(private or [])}
    scripted = list(actions)
    while True:
        for seat in range(game.players):
            same = np.array_equal(vector(game, a, seat), vector(game, b, seat))
            if seat in blind:
                assert same, (seat, a.history)
                assert a.observe(seat) == b.observe(seat)
            elif not same:
                differed.add(seat)
        if scripted:
            pa = pb = scripted.pop(0)
            if isinstance(pa, tuple):  # a private action that differs between the twins
                pa, pb = pa
            a.apply(pa)
            b.apply(pb)
            continue
        common = sorted((set(a.legal_actions()) & set(b.legal_actions())) - banned)
        if not common:
            break
        action = rng.choice(common)
        a.apply(action)
        b.apply(action)
    assert set(sees) <= differed


@pytest.mark.parametrize("trial", range(4))
def test_swap_between_two_other_hands_is_hidden(trial):
    game = FiftyFive(players=5)
    deal_b, rest_b = swap(DEAL, REST, "4C", "9S")  # seats 3 and 4
    a = game.deal(DEAL, REST, dealer=4)
    b = game.deal(deal_b, rest_b, dealer=4)
    play_twins(game, a, b, blind={0, 1, 2}, sees={3, 4}, rng=random.Random(trial),
               actions=AUCTION, private="4C 9S")


@pytest.mark.parametrize("exchange", [0, 3])
def test_kitty_is_seen_by_its_taker_only(exchange):
    """A kitty card swapped with the stock's last card (never drawn): only the bidder can tell."""
    game = FiftyFive(players=5, exchange=exchange)
    deal_b, rest_b = swap(DEAL, REST, "KC", "2H")
    a = game.deal(DEAL, REST, dealer=4)
    b = game.deal(deal_b, rest_b, dealer=4)
    play_twins(game, a, b, blind={0, 2, 3, 4}, sees={1}, rng=random.Random(exchange),
               actions=AUCTION, private="KC 2H")


def test_kitty_swapped_with_a_hand_is_seen_by_both_holders_only():
    game = FiftyFive(players=5)
    deal_b, rest_b = swap(DEAL, REST, "QC", "QH")  # the kitty and seat 2
    a = game.deal(DEAL, REST, dealer=4)
    b = game.deal(deal_b, rest_b, dealer=4)
    play_twins(game, a, b, blind={0, 3, 4}, sees={1, 2}, rng=random.Random(5),
               actions=AUCTION, private="QC QH")


@pytest.mark.parametrize("exchange", [0, 2])
def test_discards_are_private(exchange):
    """The bidder buries other cards in each twin; the others (and, with exchange, their own
    different exchange discards) cannot tell."""
    game = FiftyFive(players=5, exchange=exchange)
    a = game.deal(DEAL, REST, dealer=4)
    b = game.deal(DEAL, REST, dealer=4)
    bury_a, bury_b = "KC QC JC TC 8C", "KC QC JC TC AH"  # seat 1 keeps AH, or 8C
    kitty = [(f"discard {x}", f"discard {y}") for x, y in zip(bury_a.split(), bury_b.split())]
    actions = AUCTION + kitty + ["trump H"]
    if exchange:  # from eldest, the bidder skipped: seat 2 exchanges a different card in each twin
        actions += ["done", ("discard QH", "discard TH"), "done", "done", "done"]
    exchanger = {2} if exchange else set()
    play_twins(game, a, b, blind={0, 2, 3, 4} - exchanger, sees={1} | exchanger, rng=random.Random(9),
               actions=actions, private="8C AH QH TH")
