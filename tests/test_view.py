"""The seat's view (``State.observe``: its observation vector read back, ``tricksim.sim.view``),
over every game, several option sets and random hands, checked against the state itself:

* it is plain data (ints, strings, lists, None), and the public table is the state's: the dealer,
  phase, seat to act, tricks and trick in progress;
* it shows the seat's own hand and no other: every card it names outside the public play is a card
  the seat has held itself, and none is in another seat's hand now;
* the piles (the bury, the kitty, the widow, the discards) only to who saw them, the Sheepshead
  partner only once known;
* twins: two deals that differ only in a card swapped between two other seats' hands give every
  other seat the same view and the same vector at every step, while the card stays in those hands.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import tricksim
from tricksim.cards import CardSet, card_label
from tricksim.errors import IllegalActionError
from tricksim.sim.observation import observation_layout
from tricksim.spec import family_part

OPTION_SETS = {
    "sheepshead": [{}, {"partner": "jack_of_diamonds"}, {"no_call": "unknown", "no_pick": "doubler"}],
    "fiftyfive": [{}, {"players": 4, "teams": 2, "exchange": 2}, {"players": 7, "all_pass": "redeal"}],
    "shmear": [{}, {"teams": 2, "may_trump": True}],
    "nesmear": [{}, {"widow": 0, "high_low": "in_play"}],
    "bluke": [{}, {"players": 7, "min_bid": 0, "hook": True}],
}
CASES = [(name, options) for name in tricksim.games() for options in OPTION_SETS.get(name, [{}])]
HANDS = 16  # per option set
CARD_LABELS = {card_label(c) for c in range(54)}
PUBLIC = ("tricks", "current_trick", "called", "turned")  # the keys that name cards everybody sees
PILES = {"buried": ("PICKER", "BURIED"), "kitty": ("BIDDER", "KITTY_TAKEN"), "widow": ("BIDDER", "WIDOW_TAKEN")}


def _case_id(case):
    name, options = case
    return name + "".join(f"-{k}={v}" for k, v in options.items())


def _vector(state, seat) -> np.ndarray:
    out = np.zeros(observation_layout(state.game).size, dtype=np.int8)
    family_part(state.game.family, "observation").observe(state.array, seat, out)
    return out


def _labels(value):
    """Every card label named anywhere in ``value``."""
    if isinstance(value, str):
        return {value} & CARD_LABELS
    if isinstance(value, (list, tuple)):
        return set().union(*map(_labels, value)) if value else set()
    return set()


def _is_plain(value) -> bool:
    if value is None or type(value) in (int, str, bool):
        return True
    if type(value) in (list, tuple):
        return all(map(_is_plain, value))
    return type(value) is dict and all(type(k) is str and _is_plain(v) for k, v in value.items())


def _random_action(state, rng):
    """A random legal action; a pass more often while the first seats decide, so that some hands
    are thrown in or bought cheap."""
    legal = state.legal_actions()
    if state.phase in ("picking", "bidding", "duel") and 0 in legal and rng.random() < 0.5:
        return 0
    return rng.choice(legal)


def _play(game, seed):
    """A random hand of ``game``: the states after each action (the deal first) and the actions."""
    hand = {"hand": seed % game.match_hands} if game.name == "bluke" else {}
    state = game.new_hand(seed=seed, dealer=seed % game.players, **hand)
    rng = random.Random(seed)
    states, history = [state.clone()], []
    while not state.is_terminal():
        history.append(_random_action(state, rng))
        state.apply(history[-1])
        states.append(state.clone())
    return states, history


def _check_view(state, seat, view, held):
    """``view`` against the truth of ``state``: the public table, the seat's hand and nothing of
    another hand, the piles and the partner. ``held``: every card the seat has held so far."""
    game, s, K = state.game, state.array, state.game.kernels
    assert _is_plain(view) and json.dumps(view)
    in_progress = s[K.TRICKS + int(s[K.TRICK_NO]) * K.TRICK_SLOTS + 1:][:int(s[K.IN_TRICK])]
    assert view["seat"] == seat and view["dealer"] == int(s[K.DEALER]) and view["phase"] == state.phase
    assert view["to_act"] == state.current_player and view["tricks"] == state.tricks()
    assert view["current_trick"] == [card_label(int(c)) for c in in_progress]
    assert view["hand"] == state.hand(seat).labels()
    private = _labels([v for k, v in view.items() if k not in PUBLIC])
    others = set().union(*(state.hand(p).labels() for p in range(game.players) if p != seat))
    assert not private & others, f"seat {seat} sees another hand's cards"
    assert private <= held, f"seat {seat} sees cards it never held: {private - held}"
    for key, (owner, slot) in PILES.items():
        if key in view:
            pile = CardSet.from_mask(int(s[getattr(K, slot)])).labels()
            if seat != s[getattr(K, owner)]:
                assert view[key] is None, f"seat {seat} sees the {key}"
            elif pile:
                assert view[key] == pile, f"the {key} is hidden from its owner, seat {seat}"
    if "discards" in view:
        assert view["discards"] == CardSet.from_mask(int(s[K.DISCARDS + seat])).labels()
    if "partner" in view:
        partner, called = int(s[K.PARTNER]), card_label(int(s[K.CALLED])) if s[K.CALLED] >= 0 else None
        fallen = called in _labels([view["tricks"], view["current_trick"]])
        known = seat == partner or fallen or state.phase == "over"
        assert view["partner"] == (partner if known and partner >= 0 else None), f"seat {seat}, partner {partner}"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_a_view_shows_what_the_seat_may_know(case):
    name, options = case
    game = tricksim.make_game(name, **options)
    for seed in range(HANDS):
        states, _ = _play(game, seed)
        held = [set() for _ in range(game.players)]
        for state in states:
            for seat in range(game.players):
                held[seat] |= set(state.hand(seat).labels())
                _check_view(state, seat, state.observe(seat), held[seat])


def _deal(game, state):
    """The deal of ``state`` (a fresh hand) as ``game.deal`` takes it."""
    hands = [state.hand(p).labels() for p in range(game.players)]
    rest = [card_label(c) for c in game.rest(state.array)]
    return hands, rest, dict(dealer=int(state.array[game.kernels.DEALER]), **game.deal_flags(state.array))


def _twin_cards(game, states, at, rng):
    """Two seats and a card of each, dealt to it and still in its hand at step ``at``; None if no
    two seats have one."""
    kept = [set(states[0].hand(p).labels()) & set(states[at].hand(p).labels()) for p in range(game.players)]
    seats = [p for p in range(game.players) if kept[p]]
    if len(seats) < 2:
        return None
    a, b = rng.sample(seats, 2)
    return a, rng.choice(sorted(kept[a])), b, rng.choice(sorted(kept[b]))


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_twins_the_seat_cannot_tell_apart_give_the_same_view_and_vector(case):
    name, options = case
    game = tricksim.make_game(name, **options)
    checked = 0
    for seed in range(3 * HANDS):
        rng = random.Random(seed)
        states, history = _play(game, seed)
        at = rng.randrange(len(history))
        swap = _twin_cards(game, states, at, rng)
        if swap is None:
            continue
        a, card_a, b, card_b = swap
        hands, rest, deal = _deal(game, states[0])
        twin_hands = [list(h) for h in hands]
        twin_hands[a][twin_hands[a].index(card_a)], twin_hands[b][twin_hands[b].index(card_b)] = card_b, card_a
        one, two = game.deal(hands, rest, **deal), game.deal(twin_hands, rest, **deal)
        blind = [p for p in range(game.players) if p not in (a, b)]
        for step, action in enumerate(history[:at] + [None]):
            for seat in blind:
                assert one.observe(seat) == two.observe(seat), (seat, history[:step])
                assert (_vector(one, seat) == _vector(two, seat)).all(), (seat, history[:step])
            if action is None:
                assert one.observe(a) != two.observe(a)  # the twins do differ
                checked += 1
                break
            one.apply(action)
            try:
                two.apply(action)
            except IllegalActionError:  # the swap changed what a or b may play: no twin from here
                break
    assert checked >= HANDS // 2, f"only {checked} twins played out"
