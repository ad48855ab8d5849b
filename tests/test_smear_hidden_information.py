"""What a seat may see in the smears (docs/rules.md, Shmear and NE Smear):

* Shmear: a player's draw discards are private (the others see how many he swapped) and the
  dealer's discards are private; the stock is seen by nobody.
* NE Smear: the widow is seen by the bidder only, and the trump he names stays private until his
  first lead shows it.

Twin tests play the same public actions in two hands that differ only in something a seat may not
see, and require that seat's ``observe()`` to be identical in both.
"""

from __future__ import annotations

import random

import pytest

import tricksim
from tricksim.cards import card_label

SHMEAR_ALL = [card_label(c) for c in range(53)]
NE_ALL = [r + s for s in "CDHS" for r in "789TJQKA"]


def _rest(deck, hands, first=""):
    used = set(" ".join(hands).split()) | set(first.split())
    return " ".join(first.split() + [c for c in deck if c not in used])


def _same_views(a, b, seats, when):
    for seat in seats:
        assert a.observe(seat) == b.observe(seat), f"seat {seat} tells the twins apart {when}"


def _play_both(a, b, labels_a, labels_b, seats):
    """Apply the two action lists in step, comparing ``seats``' views before and after each."""
    _same_views(a, b, seats, "at the start")
    for la, lb in zip(labels_a, labels_b):
        a.apply(la)
        b.apply(lb)
        assert a.current_player == b.current_player
        _same_views(a, b, seats, f"after {la} / {lb}")


# --- NE Smear ----------------------------------------------------------------------------------

NE_HANDS = ["9C TC JC QC 7D 8D", "AS KS AH KH 7C 8C", "9S TS 9H TH 9D TD", "QS JS QH JH QD JD"]


def test_ne_trump_is_private_until_the_first_lead():
    # Dealer 0; seat 1 bids 4, takes the widow KC AC 8S, and names spades in one twin and hearts in
    # the other; he throws the same three clubs in both. Seats 0, 2, 3 see the same until he leads.
    game = tricksim.make_game("nesmear")
    rest = _rest(NE_ALL, NE_HANDS, first="KC AC 8S")
    a = game.deal(hands=NE_HANDS, rest=rest, dealer=0)
    b = game.deal(hands=NE_HANDS, rest=rest, dealer=0)
    common = ["bid 4"]
    then = ["discard 7C", "discard 8C", "discard KC"]
    _play_both(a, b, common + ["trump S"] + then, common + ["trump H"] + then, seats=(0, 2, 3))
    assert a.observe(1)["trump"] == "S" and b.observe(1)["trump"] == "H"
    assert a.observe(2)["trump"] is None
    a.apply("play AS")
    assert [a.observe(seat)["trump"] for seat in range(4)] == ["S"] * 4


def test_ne_widow_is_seen_by_the_bidder_only():
    # The twins differ in the widow's third card (8S or 8H), and so in the undealt cards; seat 1
    # discards the same three clubs in both.
    game = tricksim.make_game("nesmear")
    a = game.deal(hands=NE_HANDS, rest=_rest(NE_ALL, NE_HANDS, first="KC AC 8S"), dealer=0)
    b = game.deal(hands=NE_HANDS, rest=_rest(NE_ALL, NE_HANDS, first="KC AC 8H"), dealer=0)
    labels = ["bid 4", "trump S", "discard 7C", "discard 8C", "discard KC"]
    _play_both(a, b, labels, labels, seats=(0, 2, 3))
    assert set(a.observe(1)["widow"]) == {"KC", "AC", "8S"} and set(b.observe(1)["widow"]) == {"KC", "AC", "8H"}
    assert all(a.observe(seat)["widow"] is None for seat in (0, 2, 3))


# --- Shmear ------------------------------------------------------------------------------------

SHMEAR_HANDS = ["2C 3C 4C 5C 6C 7C", "AH KH 8C 9C 8D 9D", "2D 3D 4D 5D 6D 7D",
                "2S 3S 4S 5S 6S 7S", "8S 9S TS JS QS KS", "TD JD QD KD AD AS"]


def test_shmear_draw_discards_are_private():
    # Seat 1 bids, names hearts and swaps two non-trumps: 8C 9C in one twin, 8D 9D in the other.
    # He draws the same two cards. Seats 2..5 and 0 see only that he swapped two.
    game = tricksim.make_game("shmear")
    rest = _rest(SHMEAR_ALL, SHMEAR_HANDS)
    a = game.deal(hands=SHMEAR_HANDS, rest=rest, dealer=0)
    b = game.deal(hands=SHMEAR_HANDS, rest=rest, dealer=0)
    auction = ["bid 3"] + ["pass"] * 5 + ["trump H"]
    _play_both(a, b, auction + ["discard 8C", "discard 9C", "done"],
               auction + ["discard 8D", "discard 9D", "done"], seats=(0, 2, 3, 4, 5))
    assert a.observe(3)["drawn"][1] == 2
    assert a.observe(1)["discards"] == ["8C", "9C"] and b.observe(1)["discards"] == ["8D", "9D"]


def test_shmear_dealer_discards_are_private():
    # Nobody draws. The stock is TC JC QC KC AC, 2H..QH and LJ, so the dealer (seat 0) holds 23
    # cards with 12 trumps (hearts trumps): while he holds more than six he may throw unprotected
    # hearts. He throws 3H..7H and 8H in one twin, 3H..7H and 9H in the other (keeping 2H JH LJ,
    # which he may not throw), then his eleven clubs. The others cannot tell the twins apart.
    game = tricksim.make_game("shmear")
    rest = _rest(SHMEAR_ALL, SHMEAR_HANDS)
    auction = ["bid 3"] + ["pass"] * 5 + ["trump H"] + ["done"] * 5
    clubs = [f"discard {r}C" for r in "234567TJQKA"]
    hearts = [f"discard {r}H" for r in "34567"]
    a = game.deal(hands=SHMEAR_HANDS, rest=rest, dealer=0)
    b = game.deal(hands=SHMEAR_HANDS, rest=rest, dealer=0)
    _play_both(a, b, auction + hearts + ["discard 8H"] + clubs, auction + hearts + ["discard 9H"] + clubs,
               seats=(1, 2, 3, 4, 5))
    assert a.phase == b.phase == "play"
    assert a.hand(0).labels() == ["2H", "9H", "TH", "JH", "QH", "LJ"]
    assert b.hand(0).labels() == ["2H", "8H", "TH", "JH", "QH", "LJ"]


# --- random hands: no seat is shown a card it may not know ---------------------------------------


def _known_cards(state, seat, view):
    """Cards ``seat`` may name: its hand and discards, the widow if it took it, the cards played."""
    known = set(view["hand"]) | set(view["discards"]) | set(view.get("widow") or [])
    for _, cards, _ in view["tricks"]:
        known |= set(cards)
    return known | set(view["current_trick"])


@pytest.mark.parametrize("name,options", [("shmear", {}), ("shmear", {"teams": 2}), ("nesmear", {}),
                                          ("nesmear", {"widow": 1})])
def test_random_hands_show_no_card_a_seat_may_not_know(name, options):
    game = tricksim.make_game(name, **options)
    rng = random.Random(5)
    labels = {card_label(c) for c in range(54)}
    for hand in range(40):
        state = game.new_hand(seed=3, dealer=hand % game.players, hand=hand)
        while not state.is_terminal():
            for seat in range(game.players):
                view = state.observe(seat)
                shown = {w for w in _words(view) if w in labels}
                assert shown <= _known_cards(state, seat, view), (hand, seat, shown - _known_cards(state, seat, view))
            state.apply(rng.choice(state.legal_actions()))


def _words(value):
    if isinstance(value, str):
        yield from value.split()
    elif isinstance(value, dict):
        for v in value.values():
            yield from _words(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _words(v)
