"""The smears' numeric observation (``sim/obs_smear.py``) against the dict ``observe`` read back from it.

Consistency: on random hands every block, decoded, says what the seat's dict says. Bounds: every
entry lies in its block's ``low..high``. Twins: two hands that differ only in what a seat may not
see (cards of other hands, the stock or widow, a private discard or trump) give that seat the same
observation at every step, while a seat that sees the difference tells them apart.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import tricksim
from tricksim.cards import SUITS, card_label
from tricksim.sim.obs_smear import DECKS, blocks, observe
from tricksim.sim.observation import Layout, deck_columns
from tricksim.sim import smear as K

from table_view import expected_table

OPTION_SETS = [
    ("shmear", {}),
    ("shmear", {"teams": 2}),
    ("shmear", {"may_trump": True}),
    ("nesmear", {}),
    ("nesmear", {"widow": 0}),
    ("nesmear", {"widow": 1, "high_low": "in_play"}),
    ("nesmear", {"widow": 2}),
]


def _game_id(param):
    name, options = param
    return name + "".join(f"-{k}={v}" for k, v in options.items())


class Observer:
    """The numeric observations of a game's states, cut into blocks."""

    def __init__(self, game):
        self.game = game
        self.layout = Layout(blocks(game))
        self.out = np.zeros(self.layout.size, dtype=np.int8)

    def vector(self, state, seat) -> np.ndarray:
        observe(state.array, seat, self.out)
        return self.out.copy()

    def all_seats(self, state) -> np.ndarray:
        return np.stack([self.vector(state, seat) for seat in range(self.game.players)])


def _random_hands(game, hands, seed):
    """Each state of ``hands`` random hands played with random legal actions, terminal ones too."""
    rng = random.Random(seed)
    for i in range(hands):
        state = game.new_hand(seed=seed * 1000 + i, dealer=i % game.players)
        yield state
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            yield state


def expected_blocks(game, view) -> dict[str, np.ndarray]:
    """Every block of the observation, built from ``view`` (the dict) alone."""
    players, seat = game.players, view["seat"]
    deck = DECKS[game.variant]
    column = {card_label(int(c)): i for i, c in enumerate(deck)}

    def rel(of):
        return (of - seat) % players

    def plane(labels):
        out = np.zeros(len(deck), dtype=np.int64)
        out[[column[label] for label in labels]] = 1
        return out

    def seats(of):
        out = np.zeros(players, dtype=np.int64)
        if of is not None:
            out[rel(of)] = 1
        return out

    def per_seat(values):
        out = np.zeros(players, dtype=np.int64)
        for p, value in enumerate(values):
            out[rel(p)] = value
        return out

    trump = np.zeros(4, dtype=np.int64)
    if view["trump"] is not None:
        trump[SUITS.index(view["trump"])] = 1
    calls = [-1 if call is None else 0 if call == "pass" else int(call.split()[1]) for call in view["calls"]]
    out = expected_table(view, players, deck_columns(deck), K.PHASE_NAMES, view["bidder"])  # the bidder leads
    out |= {
        "calls": per_seat(calls),
        "bidder": seats(view["bidder"]),
        "bid": np.array([view["bid"] or 0]),
        "trump": trump,
        "discards": plane(view["discards"]),
        "totals": np.zeros(players, dtype=np.int64),
    }
    if game.name == "shmear":
        out["team"] = per_seat([game.team(p) == game.team(seat) for p in range(players)])
        assert view["team"] == [int(game.team(p) == game.team(seat)) for p in range(players)]
        out["drawn"] = per_seat(view["drawn"])
        out["stock_left"] = np.array([view["stock_left"]])
    else:
        assert (view["widow"] is None) == (view["bidder"] != seat)
        out["widow"] = np.concatenate([[view["widow"] is not None], plane(view["widow"] or [])])
    return out


@pytest.mark.parametrize("param", OPTION_SETS, ids=_game_id)
def test_every_block_says_what_the_dict_says(param):
    name, options = param
    game = tricksim.make_game(name, **options)
    obs = Observer(game)
    names = [b.name for b in obs.layout.blocks]
    assert names[-1] == "totals"
    for state in _random_hands(game, hands=12, seed=len(options)):
        for seat in range(game.players):
            got = obs.layout.split(obs.vector(state, seat))
            want = expected_blocks(game, state.observe(seat))
            assert sorted(want) == sorted(names)
            for block in names:
                np.testing.assert_array_equal(got[block], want[block], err_msg=f"{block}, seat {seat}, "
                                              f"history {state.history}")


@pytest.mark.parametrize("param", OPTION_SETS, ids=_game_id)
def test_every_entry_is_within_its_bounds(param):
    name, options = param
    game = tricksim.make_game(name, **options)
    obs = Observer(game)
    low, high = obs.layout.low(), obs.layout.high()
    seen_low = np.full(obs.layout.size, 127)
    seen_high = np.full(obs.layout.size, -128)
    for state in _random_hands(game, hands=40, seed=7):
        vectors = obs.all_seats(state)
        assert (vectors >= low).all() and (vectors <= high).all(), state.history
        seen_low = np.minimum(seen_low, vectors.min(axis=0))
        seen_high = np.maximum(seen_high, vectors.max(axis=0))
    # honest bounds: the calls, the bid and the Shmear draw reach both ends
    for block in ("calls", "bid", "drawn", "stock_left"):
        if block in obs.layout.offsets:
            at = obs.layout.slice(block)
            assert seen_low[at].min() == low[at].min() and seen_high[at].max() == high[at].max(), block


# --- twins -------------------------------------------------------------------------------------------


def _deal_labels(state):
    """The hands (seat order) and the undealt cards (stock / widow first) of a fresh deal."""
    game, s = state.game, state.array
    rest = len(DECKS[game.variant]) - K.HAND_SIZE * game.players
    hands = [state.hand(p).labels() for p in range(game.players)]
    return hands, [card_label(int(c)) for c in s[K.REST_ORDER:K.REST_ORDER + rest]]


def _twin_views(obs, a, b, rng, script_a=(), script_b=(), stop=lambda state: False):
    """Every seat's observation in twins ``a`` and ``b`` after each step: first the two scripts,
    then random actions legal in both, until ``stop``, no common action, or the end."""
    views = [(obs.all_seats(a), obs.all_seats(b))]
    for action_a, action_b in zip(script_a, script_b):
        a.apply(action_a)
        b.apply(action_b)
        views.append((obs.all_seats(a), obs.all_seats(b)))
    while not a.is_terminal() and not stop(a):
        common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
        if not common:
            break
        action = rng.choice(common)
        a.apply(action)
        b.apply(action)
        views.append((obs.all_seats(a), obs.all_seats(b)))
    return views


def _check_twins(views, blind, seer):
    """``blind`` seats see the same at every step; ``seer`` tells the twins apart at some step."""
    for step, (va, vb) in enumerate(views):
        for seat in blind:
            np.testing.assert_array_equal(va[seat], vb[seat], err_msg=f"seat {seat} at step {step}")
    assert any((va[seer] != vb[seer]).any() for va, vb in views), f"seat {seer} never sees the difference"


def _swap(cards_a, cards_b, i, j):
    """The two lists with ``cards_a[i]`` and ``cards_b[j]`` traded."""
    cards_a, cards_b = list(cards_a), list(cards_b)
    cards_a[i], cards_b[j] = cards_b[j], cards_a[i]
    return cards_a, cards_b


@pytest.mark.parametrize("name", ["shmear", "nesmear"])
def test_cards_of_two_other_hands_are_hidden(name):
    # Seats 1 and 2 trade one card; seat 1 sees it, seats 0 and 3.. do not.
    game = tricksim.make_game(name)
    obs = Observer(game)
    for seed in range(6):
        rng = random.Random(seed)
        hands, rest = _deal_labels(game.new_hand(seed=seed, dealer=seed % game.players))
        twin = list(hands)
        twin[1], twin[2] = _swap(hands[1], hands[2], rng.randrange(6), rng.randrange(6))
        a = game.deal(hands, rest, dealer=seed % game.players)
        b = game.deal(twin, rest, dealer=seed % game.players)
        _check_twins(_twin_views(obs, a, b, rng), blind=[0] + list(range(3, game.players)), seer=1)


def test_shmear_stock_is_hidden_but_from_the_dealer():
    # The bottom stock card (never drawn, the dealer takes it) trades places with a card of seat 2.
    game = tricksim.make_game("shmear")
    obs = Observer(game)
    for seed in range(6):
        rng = random.Random(seed)
        hands, rest = _deal_labels(game.new_hand(seed=seed, dealer=0))
        twin_hand, twin_rest = _swap(hands[2], rest, rng.randrange(6), len(rest) - 1)
        a = game.deal(hands, rest, dealer=0)
        b = game.deal(hands[:2] + [twin_hand] + hands[3:], twin_rest, dealer=0)
        views = _twin_views(obs, a, b, rng, ["bid 3"], ["bid 3"])
        _check_twins(views, blind=[1, 3, 4, 5], seer=0)


def test_ne_widow_is_hidden_but_from_the_bidder():
    # A widow card trades places with an undealt card that stays out; eldest (seat 1) bids 4.
    game = tricksim.make_game("nesmear")
    obs = Observer(game)
    for seed in range(6):
        rng = random.Random(seed)
        hands, rest = _deal_labels(game.new_hand(seed=seed, dealer=0))
        widow = game.options["widow"]
        i, j = rng.randrange(widow), rng.randrange(widow, len(rest))
        twin_rest = list(rest)
        twin_rest[i], twin_rest[j] = rest[j], rest[i]
        a = game.deal(hands, rest, dealer=0)
        b = game.deal(hands, twin_rest, dealer=0)
        views = _twin_views(obs, a, b, rng, ["bid 4"], ["bid 4"])
        _check_twins(views, blind=[0, 2, 3], seer=1)


def test_shmear_draw_discards_are_hidden():
    # Eldest bids 6 and names a trump, then swaps one of two different non-trumps.
    game = tricksim.make_game("shmear")
    obs = Observer(game)
    checked = 0
    for seed in range(10):
        rng = random.Random(seed)
        a = game.new_hand(seed=seed, dealer=0)
        b = a.clone()
        for label in ("bid 6", "trump " + SUITS[seed % 4]):
            a.apply(label)
            b.apply(label)
        options = [label for label in a.legal_labels() if label.startswith("discard")]
        if len(options) < 2:
            continue
        first, second = rng.sample(options, 2)
        views = _twin_views(obs, a, b, rng, [first, "done"], [second, "done"])
        _check_twins(views, blind=[0, 2, 3, 4, 5], seer=1)
        checked += 1
    assert checked >= 5


def test_ne_trump_is_hidden_until_the_first_lead():
    # Eldest bids 4 and names one of two suits he holds; the others see the same until he leads.
    def led(state):
        return bool(state.observe(0)["current_trick"])

    for widow in (0, 3):
        game = tricksim.make_game("nesmear", widow=widow)
        obs = Observer(game)
        checked = 0
        for seed in range(10):
            rng = random.Random(seed)
            a = game.new_hand(seed=seed, dealer=0)
            a.apply("bid 4")
            b = a.clone()
            trumps = a.legal_labels()
            if len(trumps) < 2:
                continue
            first, second = rng.sample(trumps, 2)
            views = _twin_views(obs, a, b, rng, [first], [second], stop=led)
            _check_twins(views, blind=[0, 2, 3], seer=1)
            checked += 1
        assert checked >= 5
        # the first lead shows trump to everyone
        state = game.new_hand(seed=1, dealer=0).apply("bid 4")
        while not led(state):
            state.apply(state.legal_actions()[0])
        for seat in range(4):
            trump = obs.vector(state, seat)[obs.layout.slice("trump")]
            assert trump.sum() == 1 and SUITS[int(trump.argmax())] == game.trump(state.array)
