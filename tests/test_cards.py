"""Card and action labels (docs/rules.md, All games: Card labels, Action labels) and CardSet."""

from __future__ import annotations

import itertools

import pytest

from tricksim.cards import (
    HIGH_JOKER,
    LOW_JOKER,
    NUM_CARDS,
    CardSet,
    card_label,
    cards_of,
    format_cards,
    mask_of,
    parse_card,
    parse_cards,
)
from tricksim.sim import actions as A

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUITED = [rank + suit for suit in SUITS for rank in RANKS]
ALL_LABELS = SUITED + ["LJ", "HJ"]


# --- cards ----------------------------------------------------------------------------------------


def test_every_card_has_a_distinct_label_that_parses_back():
    labels = [card_label(c) for c in range(NUM_CARDS)]
    assert sorted(labels) == sorted(ALL_LABELS)
    assert len(set(labels)) == NUM_CARDS == 54
    for c, label in enumerate(labels):
        assert parse_card(label) == c
    assert card_label(LOW_JOKER) == "LJ" and card_label(HIGH_JOKER) == "HJ"


@pytest.mark.parametrize("label", SUITED)
def test_suited_label_variants(label):
    rank, suit = label[0], label[1]
    c = parse_card(label)
    assert card_label(c) == label
    variants = [label.lower(), rank.lower() + suit, rank + suit.lower(), rank + SYMBOLS[suit],
                rank.lower() + SYMBOLS[suit], f"  {label} "]
    if rank == "T":
        variants += ["10" + suit, "10" + suit.lower(), "10" + SYMBOLS[suit]]
    for variant in variants:
        assert parse_card(variant) == c, variant


@pytest.mark.parametrize("label, expected", [("LJ", "LJ"), ("lj", "LJ"), ("HJ", "HJ"), ("hj", "HJ"),
                                             ("JK", "LJ"), ("jk", "LJ"), ("Jk", "LJ")])
def test_joker_labels(label, expected):
    assert card_label(parse_card(label)) == expected


def test_a_jack_is_not_a_joker():
    assert card_label(parse_card("JC")) == "JC"
    assert card_label(parse_card("JH")) == "JH"
    assert parse_card("JH") != parse_card("HJ")


BAD_LABELS = ["", " ", "Q", "C", "QX", "1C", "11H", "0S", "1H", "10", "T", "QCC", "CQ", "ZZ",
              "JJ", "KJ", "AA", "♣Q", "Q♣♣", "10 H", "Q-C", "LJJ", "J K", "XJ", "BJ", "100H"]


@pytest.mark.parametrize("label", BAD_LABELS)
def test_bad_card_labels_raise_value_error_naming_the_label(label):
    with pytest.raises(ValueError) as error:
        parse_card(label)
    assert repr(label) in str(error.value)


@pytest.mark.parametrize("value", [None, 5, 3.0, b"QC"])
def test_non_strings_are_not_cards(value):
    with pytest.raises(ValueError) as error:
        parse_card(value)
    assert repr(value) in str(error.value)


@pytest.mark.parametrize("index", [-1, 54, 100])
def test_card_label_of_a_bad_index_raises(index):
    with pytest.raises(ValueError) as error:
        card_label(index)
    assert str(index) in str(error.value)


def test_parse_cards_and_format_cards():
    assert parse_cards("QC 10h  7♦ jk") == [parse_card("QC"), parse_card("TH"), parse_card("7D"), LOW_JOKER]
    assert parse_cards(["AS", "HJ"]) == [parse_card("AS"), HIGH_JOKER]
    assert parse_cards("") == []
    assert format_cards(parse_cards("QC TH 7D")) == "QC TH 7D"  # in the order given
    with pytest.raises(ValueError, match="'QZ'"):
        parse_cards("QC QZ 7D")


def test_masks_and_card_lists():
    cards = parse_cards("HJ 7C QC 2C")
    m = mask_of(cards)
    assert m == sum(1 << c for c in cards)
    assert cards_of(m) == sorted(cards)  # lowest index first
    assert cards_of(0) == []
    assert cards_of(mask_of(range(NUM_CARDS))) == list(range(NUM_CARDS))


# --- CardSet --------------------------------------------------------------------------------------


def test_cardset_construction_is_the_same_from_labels_indices_and_cardsets():
    a = CardSet("QC JD 7C")
    assert a == CardSet(["QC", "JD", "7C"]) == CardSet(parse_cards("7C QC JD")) == CardSet(a)
    assert a == CardSet(["qc", "J♦", "7c"])
    assert a == CardSet.from_mask(mask_of(parse_cards("QC JD 7C")))
    assert CardSet() == CardSet("") == CardSet([])
    assert len(CardSet()) == 0 and not list(CardSet())
    assert a != CardSet("QC JD") and a != CardSet("QC JD 7C AS")
    assert hash(a) == hash(CardSet("7C JD QC"))
    assert len({a, CardSet("7C JD QC"), CardSet("QC")}) == 2


def test_cardset_membership_iteration_and_labels():
    a = CardSet("QC JD 7C 10H")
    assert "QC" in a and "10H" in a and "th" in a and parse_card("JD") in a
    assert "QD" not in a and parse_card("AS") not in a
    assert list(a) == sorted(parse_cards("QC JD 7C TH"))
    assert a.labels() == [card_label(c) for c in sorted(parse_cards("QC JD 7C TH"))]
    assert str(a) == " ".join(a.labels())
    assert len(a) == 4
    with pytest.raises(ValueError, match="'QZ'"):
        "QZ" in a  # noqa: B015
    with pytest.raises(ValueError, match="'QZ'"):
        CardSet("QC QZ")


def test_cardset_set_operations():
    hearts = CardSet("AH TH KH")
    high = CardSet("AH AS QC")
    assert hearts | high == CardSet("AH TH KH AS QC")
    assert hearts & high == CardSet("AH")
    assert hearts - high == CardSet("TH KH")
    assert high - hearts == CardSet("AS QC")
    assert hearts | "AS" == CardSet("AH TH KH AS")  # a label string is a set too
    assert hearts - ["TH"] == CardSet("AH KH")
    assert (hearts & CardSet("7C")) == CardSet()
    assert hearts == CardSet("AH TH KH")  # the operands are unchanged
    assert high == CardSet("AH AS QC")
    # the operations agree with Python's sets, over many pairs of small sets
    pool = parse_cards("7C QC JD AH TH 9S LJ HJ")
    subsets = [set(s) for r in (0, 2, 3) for s in itertools.combinations(pool, r)]
    for x, y in itertools.product(subsets[::5], subsets[::7]):
        cx, cy = CardSet(sorted(x)), CardSet(sorted(y))
        assert set(cx | cy) == x | y
        assert set(cx & cy) == x & y
        assert set(cx - cy) == x - y


def test_cardset_repr_round_trips():
    for text in ["QC JD 7C", "", "LJ HJ 2C", "10H"]:
        s = CardSet(text)
        r = repr(s)
        assert r.startswith("CardSet(")
        assert eval(r, {"CardSet": CardSet}) == s
    assert repr(CardSet("QC JD 7C")) == "CardSet('7C QC JD')"  # lowest index first: 7C=5, QC=10, JD=22
    assert repr(CardSet()) == "CardSet('')"


# --- action labels --------------------------------------------------------------------------------


def _valid_ids():
    ids = []
    for a in range(A.NUM_ACTIONS):
        try:
            A.action_label(a)
        except ValueError:
            continue
        ids.append(a)
    return ids


def test_action_labels_round_trip_for_every_action_id():
    ids = _valid_ids()
    labels = [A.action_label(a) for a in ids]
    assert len(set(labels)) == len(labels)
    for a, label in zip(ids, labels):
        assert A.parse_action(label) == a, label
    # the ids the action space promises (actions.py) are all there
    words = {"pass", "pick", "alone", "hold", "done"}
    assert words <= set(labels)
    assert {f"trump {s}" for s in SUITS} <= set(labels)
    assert {f"bid {n}" for n in list(range(31)) + [60]} <= set(labels)
    for kind in ("bury", "call", "under", "discard", "play"):
        assert {f"{kind} {label}" for label in ALL_LABELS} <= set(labels)
    assert len(ids) == 5 + 4 + 32 + 5 * 54


def test_card_actions_follow_the_card_index():
    for kind_index, kind in enumerate(A.CARD_KINDS):
        for c in range(NUM_CARDS):
            a = A.CARD_BASE + 54 * kind_index + c
            assert A.action_label(a) == f"{kind} {card_label(c)}"
            assert A.card_action(kind_index, c) == a


@pytest.mark.parametrize("label, same_as", [
    ("play 10H", "play TH"), ("play t♥", "play TH"), ("play th", "play TH"), ("bury jk", "bury LJ"),
    ("call a♠", "call AS"), ("discard 10♣", "discard TC"),
])
def test_action_label_variants(label, same_as):
    assert A.parse_action(label) == A.parse_action(same_as)


def test_unused_ids_have_no_label():
    valid = set(_valid_ids())
    for a in [-1, A.NUM_ACTIONS, A.NUM_ACTIONS + 100] + [a for a in range(A.NUM_ACTIONS) if a not in valid]:
        with pytest.raises(ValueError) as error:
            A.action_label(a)
        assert str(a) in str(error.value)


BAD_ACTIONS = ["", "play", "play QZ", "play 1C", "bury", "bid 31", "bid 61", "bid -5", "bid x",
               "trump X", "trump", "dance", "pass now", "play QC QS", "call", "hold 5",
               "under", "discard QCC", "QC", "pick pick"]


@pytest.mark.parametrize("label", BAD_ACTIONS)
def test_bad_action_labels_raise_value_error_naming_them(label):
    with pytest.raises(ValueError) as error:
        A.parse_action(label)
    assert repr(label) in str(error.value)
