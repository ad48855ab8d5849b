"""tricksim's one family of errors (``tricksim.errors``): each bad input gets the error of its
kind, a ValueError, and changes nothing."""

from __future__ import annotations

import pytest

import tricksim
from tricksim import errors, records
from tricksim.cards import card_label, parse_card
from tricksim.errors import DealError, IllegalActionError, LabelError, OptionError, RecordError
from tricksim.sim.actions import action_label, parse_action

FIVE = ["7C 8C 9C TC JC QC", "7S 8S 9S TS JS QS", "7H 8H 9H TH JH QH", "7D 8D 9D TD JD QD", "KC AC KS AS KH AH"]


def test_every_error_is_a_value_error():
    for kind in (IllegalActionError, OptionError, LabelError, DealError, RecordError):
        assert issubclass(kind, ValueError) and kind.__module__ == "tricksim.errors"
    assert records.RecordError is errors.RecordError


@pytest.mark.parametrize("call, match", [
    (lambda: parse_card("ZZ"), "'ZZ' is not a card"),
    (lambda: card_label(60), "no card has index 60"),
    (lambda: parse_action("play ZZ"), "'play ZZ' is not an action label"),
    (lambda: parse_action("fold"), "'fold' is not an action label"),
    (lambda: action_label(9999), "9999 is not an action id"),
])
def test_a_label_that_does_not_parse_is_a_label_error(call, match):
    with pytest.raises(LabelError, match=match):
        call()


def test_a_bad_action_changes_nothing():
    state = tricksim.make_game("sheepshead").new_hand(seed=1, dealer=0)
    before = state.array.copy()
    with pytest.raises(LabelError):
        state.apply("play ZZ")
    with pytest.raises(LabelError):
        state.apply(3.5)
    with pytest.raises(IllegalActionError):
        state.apply("play QC")  # the picking round: no card may be played
    assert (state.array == before).all() and state.history == []


@pytest.mark.parametrize("hands, rest, dealer, match", [
    (FIVE[:4], "KD AD", 0, "deal needs 5 hands, got 4"),
    ([FIVE[0][:-3]] + FIVE[1:], "KD AD", 0, "seat 0 needs 6 cards, got 5"),
    (FIVE, "KD", 0, "rest needs 2 cards, got 1"),
    (FIVE, "KD 2C", 0, "2C is not in this game's deck"),
    (FIVE, "KD 7C", 0, "7C is dealt twice"),
    (FIVE, "KD AD", 5, "dealer 5 is not a seat"),
])
def test_a_malformed_deal_is_a_deal_error(hands, rest, dealer, match):
    with pytest.raises(DealError, match=match):
        tricksim.make_game("sheepshead").deal(hands, rest, dealer=dealer)


def test_a_bluke_deal_of_the_wrong_size_is_a_deal_error():
    game = tricksim.make_game("bluke", players=4)
    with pytest.raises(DealError, match="hands of 0 cards; 4 players hold 1..13"):
        game.deal(["", "", "", ""], "AC")
