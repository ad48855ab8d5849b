"""Hand classes of the decision studies (tricksim/experiments/classes.py): worked hands per game,
checked by hand; the vectorised classes against a per-hand oracle written here from the rule book
(docs/rules.md) on dealt hands; the shape of every class; a study with the defaults.

The bid games' classes measure the hand in its best candidate suit: the most of the first
measure, then of the second, then of the third (Fifty-five: top trumps, trumps, the 5; the smears:
point cards, trumps, the A). Bluke's ``sure_tricks`` holds whatever the turned card.
"""

from __future__ import annotations

import numpy as np
import pytest

import tricksim
from tricksim.agents import bluke as bluke_agent
from tricksim.cards import CardSet, card_label, cards_of
from tricksim.experiments.classes import CLASSES, DEFAULT_CLASSES
from tricksim.experiments.decisions import decision_frame
from tricksim.experiments.study import study
from tricksim.sim import bluke as bluke_kernels

RANKS = "23456789TJQKA"
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}  # Shmear's Jick: the J of the same colour
BLUKES = {"HJ", "LJ"}
BLUKE_DECK = {rank + suit for suit in "CDHS" for rank in RANKS} | BLUKES


def classes(game: str, labels: str) -> dict:
    """Every class of ``game`` for the one hand ``labels``."""
    hand = np.array([CardSet(labels).mask], dtype=np.int64)
    return {name: int(f(hand)[0]) for name, f in hand_classes(game).items()}


def hand_classes(game: str) -> dict:
    """The classes of ``game`` that read the hand alone (Bluke's expected tricks and trumps read the
    deal's columns too)."""
    return {name: f for name, f in CLASSES[game].items() if (game, name) not in ROW_CLASSES}


ROW_CLASSES = {("bluke", "expected_tricks"), ("bluke", "trumps")}


# --- worked hands --------------------------------------------------------------------------------


@pytest.mark.parametrize("labels, expected", [
    # A♥ is a trump and a top trump in every suit: clubs (1, 2), diamonds (1, 2), hearts (1, 1),
    # spades (1, 3): spades, the longest
    ("AH 2C 3D 4S 6S", (1, 3, 0)),
    # hearts trumps have three top trumps only (A♥ is the A of hearts)
    ("5H JH AH KH QH", (3, 5, 1)),
    # top trumps before length: diamonds (A♦: 1 top, 2 trumps) over clubs (0 top, 3 trumps)
    ("AD KD 2C 3C 4C", (1, 2, 0)),
    # a tie of clubs and diamonds (the 5 alone): the longer spades have no top trump
    ("5C 5D 2H 7S 8S", (1, 1, 1)),
    # the J and A of the suit with A♥: three top trumps among four trumps, no 5
    ("JS AS 9S AH 2D", (3, 4, 0)),
    # all four top trumps of clubs
    ("5C JC AC AH 2D", (4, 4, 1)),
])
def test_fiftyfive_worked_hands(labels, expected):
    got = classes("fiftyfive", labels)
    assert (got["top_trumps"], got["trump_length"], got["best_suit_five"]) == expected


@pytest.mark.parametrize("game, labels, expected", [(
    "shmear", *case) for case in [
    # the Jick counts in the best suit: clubs has Jack J♣ and Jick J♠ (2 points, 2 trumps), spades
    # the same; the longer hearts have no point card
    ("JC JS 3H 4H 5H 6D", (2, 2, 0)),
    # the joker is a point card and a trump in every suit: spades, with two more trumps
    ("LJ 3C 4D 5H 6S 7S", (1, 3, 0)),
    # hearts: High A♥, Low 2♥ and the Jick J♦ (the J of the same colour)
    ("2H AH JD 9C TC KC", (3, 3, 1)),
    # the worked doctest hand: spades A, 2, Jick J♣, joker
    ("AS JC 2S LJ 9H 4D", (4, 4, 1)),
    # every point card of diamonds: A, 2, J, Jick J♥, joker
    ("AD 2D JD JH LJ 3C", (5, 5, 1)),
    # points before length: the A of clubs over four spades
    ("AC 3S 4S 5S 6S 7D", (1, 1, 1)),
]] + [("nesmear", *case) for case in [
    # the A, J and 7 of diamonds (Low is the 7 in a 32-card deck)
    ("AD JD 7D 8C 9C TC", (3, 3, 1)),
    # no Jick in NE Smear: J♠ is a plain spade with clubs trumps, and the other way round
    ("JC JS 8H 9H TH KH", (1, 1, 0)),
    # two points in spades beat the longer hearts (one point)
    ("AS 7S JH QH 9H 8C", (2, 2, 1)),
    # no point card: the longest suit
    ("8C 9C TC KD QH 8S", (0, 3, 0)),
]])
def test_smear_worked_hands(game, labels, expected):
    got = classes(game, labels)
    assert (got["point_cards"], got["trump_length"], got["high"]) == expected


@pytest.mark.parametrize("labels, sure", [
    ("HJ 2C", 1),  # HJ takes any trick it is in
    ("LJ 2C", 0),  # HJ may be in another hand
    ("HJ LJ", 2),  # LJ behind HJ
    ("HJ LJ AC AD AH AS", 3),  # whatever the trump, its A is sure
    ("HJ LJ AC KC AD KD AH KH AS KS QS", 4),  # A K of every suit
    ("HJ LJ AC KC AD AH AS KS QS", 3),  # the diamonds (or hearts) may be trump: A alone
    ("HJ LJ AC AD AH KS QS JS", 2),  # the spades may be trump, with A♠ unseen
    ("HJ AC KC AD KD AH KH AS KS", 1),  # LJ unseen beats every trump
    ("LJ AC AD AH AS KS", 0),  # the aces are never sure without both blukes
])
def test_bluke_worked_hands(labels, sure):
    got = classes("bluke", labels)
    assert got["sure_tricks"] == sure and got["hand_size"] == len(labels.split())


# --- the oracle: one hand at a time, from the card labels -----------------------------------------


def fiftyfive_oracle(hand: set) -> tuple:
    """(top_trumps, trump_length, best_suit_five) in the best suit (docs/rules.md, Fifty-five: Trumps)."""
    return max((len(hand & {"5" + s, "J" + s, "A" + s, "AH"}),
                sum(1 for c in hand if c[-1] == s or c == "AH"),
                int("5" + s in hand)) for s in "CDHS")


def smear_oracle(hand: set, game: str) -> tuple:
    """(point_cards, trump_length, high) in the best suit (docs/rules.md, Shmear and NE Smear: Points)."""
    keys = []
    for s in "CDHS":
        if game == "shmear":
            trumps = {c for c in hand if c[-1] == s or c in ("J" + SAME_COLOUR[s], "LJ")}
            points = hand & {"A" + s, "2" + s, "J" + s, "J" + SAME_COLOUR[s], "LJ"}
        else:
            trumps = {c for c in hand if c[-1] == s}
            points = hand & {"A" + s, "7" + s, "J" + s}
        keys.append((len(points), len(trumps), int("A" + s in hand)))
    return max(keys)


def bluke_oracle(hand: set) -> int:
    """The fewest tricks the hand is sure of over every turned card (docs/rules.md, Bluke): HJ wins any
    trick; LJ any trick without HJ; a trump any trick without a bluke or a higher trump."""
    fewest = None
    for turned in BLUKE_DECK - hand:
        unseen = BLUKE_DECK - hand - {turned}
        sure = int("HJ" in hand) + int("LJ" in hand and "HJ" not in unseen)
        if turned not in BLUKES and not BLUKES & unseen:
            trump = turned[-1]
            for c in hand - BLUKES:
                higher = {r + trump for r in RANKS[RANKS.index(c[0]) + 1:]}
                sure += c[-1] == trump and not higher & unseen
        fewest = sure if fewest is None else min(fewest, sure)
    return fewest


def bluke_agent_worst(mask: int) -> int:
    """The heuristic agent's ``sure_tricks`` at its worst over every turned card."""
    deck = int(bluke_kernels.DECK_MASK)
    worst = None
    for turned in cards_of(deck & ~mask):
        trump = bluke_kernels.NO_TRUMP if turned >= 52 else turned // 13
        sure = bluke_agent.sure_tricks(np.int64(mask), np.int64(deck & ~mask & ~(1 << turned)), trump)
        worst = sure if worst is None else min(worst, sure)
    return worst


def dealt_hands(game: str, deals: int, seed: int = 11) -> np.ndarray:
    """Every seat's dealt hand of ``deals`` deals (Bluke: every hand size of the match in turn)."""
    g = tricksim.make_game(game)
    hands = []
    for i in range(deals):
        state = g.new_hand(seed=seed + i, dealer=i % g.players, hand=i % 25 if game == "bluke" else i)
        hands += [state.array[g.kernels.HANDS + p] for p in range(g.players)]
    return np.array(hands, dtype=np.int64)


def rich_bluke_hands(count: int, seed: int = 3) -> np.ndarray:
    """Hands with both blukes and all four aces, 6 to 13 cards, the rest mostly kings, queens and
    jacks (runs from the ace), where the trumps can be sure."""
    rng = np.random.default_rng(seed)
    base = CardSet("HJ LJ AC AD AH AS").mask
    picture = [c for c in range(52) if c % 13 in (9, 10, 11)]
    low = [c for c in range(52) if c % 13 < 9]
    hands = []
    for _ in range(count):
        pictures = rng.choice(picture, rng.integers(0, 8), replace=False)
        lows = rng.choice(low, rng.integers(0, 8 - len(pictures)), replace=False)
        hands.append(base | sum(1 << int(c) for c in (*pictures, *lows)))
    return np.array(hands, dtype=np.int64)


def labels_of(mask) -> set:
    return {card_label(c) for c in cards_of(int(mask))}


@pytest.mark.parametrize("game, deals", [("fiftyfive", 600), ("shmear", 500), ("nesmear", 750)])
def test_best_suit_classes_match_the_oracle_on_dealt_hands(game, deals):
    hands = dealt_hands(game, deals)
    names = list(CLASSES[game])
    got = np.stack([CLASSES[game][name](hands) for name in names], axis=1)
    oracle = fiftyfive_oracle if game == "fiftyfive" else (lambda hand: smear_oracle(hand, game))
    expected = np.array([oracle(labels_of(m)) for m in hands])
    assert got.dtype == np.int8 and got.shape == (len(hands), 3) and len(hands) >= 3000
    mismatch = np.flatnonzero((got != expected).any(axis=1))
    assert mismatch.size == 0, f"{labels_of(hands[mismatch[0]])}: {got[mismatch[0]]} != {expected[mismatch[0]]}"
    for k in range(3):  # the samples reach more than one value of every class
        assert len(np.unique(got[:, k])) > 1


def test_bluke_classes_match_the_oracle_and_the_agent():
    hands = np.concatenate([dealt_hands("bluke", 750), rich_bluke_hands(300)])
    got = CLASSES["bluke"]["sure_tricks"](hands)
    assert got.dtype == np.int8
    expected = np.array([bluke_oracle(labels_of(m)) for m in hands])
    np.testing.assert_array_equal(got, expected)
    agent = np.array([bluke_agent_worst(int(m)) for m in hands])
    np.testing.assert_array_equal(got, agent)
    assert set(np.unique(got)) >= {0, 1, 2, 3, 4}  # blukes and trumps both counted
    np.testing.assert_array_equal(CLASSES["bluke"]["hand_size"](hands), [len(labels_of(m)) for m in hands])


def test_bluke_expected_tricks_read_the_seats_own_columns():
    rows = decision_frame(tricksim.make_game("bluke"), 300, seed=2)
    seat = rows["seat"].to_numpy()
    tenths = np.array([rows[f"sure_tricks_x10_{p}"].iat[i] for i, p in enumerate(seat)])
    trumps = np.array([rows[f"trumps_{p}"].iat[i] for i, p in enumerate(seat)])
    np.testing.assert_array_equal(CLASSES["bluke"]["expected_tricks"](rows), np.floor(tenths / 10 + 0.5))
    np.testing.assert_array_equal(CLASSES["bluke"]["trumps"](rows), trumps)
    result = study(tricksim.make_game("bluke"), 1500, seed=2)  # grouped by expected tricks (the default)
    best = result["best"].dropna(subset=["best"])  # the undecided aside
    bid = best["best"].str.removeprefix("bid ").astype(int)
    low, high = bid[best["expected_tricks"] <= 1].mean(), bid[best["expected_tricks"] >= 3].mean()
    assert high > low + 1  # the more tricks a hand expects, the higher its best bid


# --- shape and defaults --------------------------------------------------------------------------


@pytest.mark.parametrize("game", tricksim.games())
def test_every_class_gives_one_small_int_per_row(game):
    assert DEFAULT_CLASSES[game] and set(DEFAULT_CLASSES[game]) <= set(CLASSES[game])
    hands = dealt_hands(game, 20)
    for name, f in hand_classes(game).items():
        values = np.asarray(f(hands))
        assert values.shape == hands.shape and np.issubdtype(values.dtype, np.integer), name
        assert values.min() >= 0 and values.max() <= 14, name
        assert np.asarray(f(np.zeros(0, np.int64))).shape == (0,), name  # a study checks names on no rows
        assert list(f(list(hands[:3]))) == list(values[:3]), name  # any array-like of masks


def test_fiftyfive_study_groups_by_top_trumps():
    result = study(tricksim.make_game("fiftyfive"), 200, seed=1)
    best, table = result["best"], result["table"]
    assert list(best.columns[:2]) == ["top_trumps", "position"]
    assert set(best["top_trumps"]) <= {0, 1, 2, 3, 4} and {0, 1, 2} <= set(best["top_trumps"])
    assert table["decisions"].sum() == len(result["rows"])
    rows = result["rows"]
    np.testing.assert_array_equal(np.bitwise_count(rows["cards"].to_numpy()), 5)  # the dealt hand
