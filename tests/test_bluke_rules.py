"""Worked Bluke hands, each pinning one rule of docs/rules.md (All games, Bluke; the golden
playthroughs run in test_golden.py).

Every deal here was made by hand and every legal list, trick winner and score below was worked
out by hand from the rule book (never copied from the engine's output).

Ranks in every suit A K Q J T 9 ... 2; the blukes HJ > LJ belong to no suit and take any trick
they are in. Seats 0..n-1 clockwise; unless said otherwise the dealer is the last seat, so seat 0
is eldest: he bids first and leads the first trick. A trick is written as its cards in play
order, starting with the leader. ``rest`` is the turned card, then every other undealt card.
"""


import numpy as np
import pytest

import tricksim
from tricksim.cards import card_label
from tricksim.sim.bluke_game import Bluke

ALL_CARDS = [card_label(c) for c in range(54)]

# ---------------------------------------------------------------------------------------------
# helpers


def deal(hands, turned, dealer=None, **options):
    """A hand-made deal: ``hands`` in seat order, ``turned`` on top of the rest."""
    held = {c for h in hands for c in h.split()} | {turned}
    rest = [turned] + [c for c in ALL_CARDS if c not in held]
    game = Bluke(players=len(hands), **options)
    return game.deal(hands=hands, rest=" ".join(rest), dealer=len(hands) - 1 if dealer is None else dealer)


def legal(state):
    return sorted(state.legal_labels())


def step(state, label, seat=None):
    if seat is not None:
        assert state.current_player == seat, f"expected seat {seat} to act before {label!r}"
    assert label in state.legal_labels(), f"{label!r} not legal: {legal(state)}"
    state.apply(label)


def run(state, labels):
    for label in labels:
        step(state, label)


def play(state, *tricks):
    for trick in tricks:
        for c in trick.split():
            step(state, "play " + c)


def tricks_of(state):
    return [(leader, list(cards), winner) for leader, cards, winner in state.tricks()]


# ---------------------------------------------------------------------------------------------
# blukes


def test_a_bluke_may_be_played_instead_of_following_and_takes_the_trick():
    # 3 players, 2 cards each; turned 2S: spades are trump. Dealer 2, seat 0 eldest.
    s = deal(["AH KH", "5H LJ", "3H 4S"], "2S")
    assert s.result()["trump"] == "S" and s.result()["hand_size"] == 2
    assert legal(s) == ["bid 1", "bid 2"]
    run(s, ["bid 1", "bid 1", "bid 1"])
    step(s, "play AH", seat=0)
    assert legal(s) == ["play 5H", "play LJ"]  # holds a heart, but the bluke is allowed
    step(s, "play LJ", seat=1)
    assert legal(s) == ["play 3H"]  # holds a heart and no bluke: must follow, 4S is not allowed
    step(s, "play 3H", seat=2)
    # trick 1: AH LJ 3H -> the bluke (seat 1) beats the ace led
    assert s.current_player == 1
    play(s, "5H 4S KH")  # seat 2 is void in hearts and trumps: 4S beats KH
    assert tricks_of(s) == [(0, ["AH", "LJ", "3H"], 1), (1, ["5H", "4S", "KH"], 2)]
    # seat 0 bid 1 took 0: -10; seats 1 and 2 bid 1 took 1: 10 each
    assert s.scores() == [-10, 10, 10]
    assert s.result()["taken"] == [0, 1, 1]


def test_the_high_bluke_beats_the_low_bluke_and_trumps():
    # turned 2H: hearts trump. Trick 1: AS LJ HJ -> HJ (seat 2); trick 2: seat 2 leads KS,
    # seat 0 is void of spades and trumps with AH, seat 1 follows with 2S -> AH (seat 0).
    s = deal(["AS AH", "LJ 2S", "HJ KS"], "2H")
    run(s, ["bid 1", "bid 1", "bid 2"])
    play(s, "AS")
    assert legal(s) == ["play 2S", "play LJ"]
    play(s, "LJ")
    assert legal(s) == ["play HJ", "play KS"]
    play(s, "HJ")
    assert s.current_player == 2
    play(s, "KS AH 2S")
    assert tricks_of(s) == [(0, ["AS", "LJ", "HJ"], 2), (2, ["KS", "AH", "2S"], 0)]
    # seat 0 bid 1 took 1: 10; seat 1 bid 1 took 0: -10; seat 2 bid 2 took 1: -20
    assert s.scores() == [10, -10, -20]


def test_bluke_lead_free_lets_everyone_play_anything():
    # turned 2C: clubs trump. Seat 0 leads LJ; with bluke_lead = free nobody has to follow
    # the 5D played second: seat 2 may keep KD and play 7S.
    s = deal(["LJ 3D", "AH 5D", "KD 7S"], "2C")
    run(s, ["bid 1", "bid 1", "bid 1"])
    play(s, "LJ")
    assert legal(s) == ["play 5D", "play AH"]
    play(s, "5D")
    assert legal(s) == ["play 7S", "play KD"]
    play(s, "7S")
    # trick 2: seat 0 (bluke winner) leads 3D, seat 1 void plays AH (no trump), seat 2 KD wins
    play(s, "3D AH KD")
    assert tricks_of(s) == [(0, ["LJ", "5D", "7S"], 0), (0, ["3D", "AH", "KD"], 2)]
    assert s.scores() == [10, -10, 10]


def test_bluke_lead_next_sets_suit_the_first_suited_card_sets_the_suit():
    s = deal(["LJ 3D", "AH 5D", "KD 7S"], "2C", bluke_lead="next_sets_suit")
    run(s, ["bid 1", "bid 1", "bid 1"])
    play(s, "LJ")
    assert legal(s) == ["play 5D", "play AH"]  # nothing set yet: anything
    play(s, "5D")  # diamonds are now to be followed
    assert legal(s) == ["play KD"]
    play(s, "KD")
    # trick 2: 3D AH 7S -> only diamond 3D wins (clubs are trump, none played)
    play(s, "3D AH 7S")
    assert [w for _, _, w in s.tricks()] == [0, 0]
    # seat 0 bid 1 took 2: 10 + 1 = 11; seats 1, 2 bid 1 took 0: -10
    assert s.scores() == [11, -10, -10]


def test_bluke_lead_next_sets_suit_a_second_bluke_sets_nothing():
    s = deal(["LJ 3D", "HJ 5D", "KD 7S"], "2C", bluke_lead="next_sets_suit")
    run(s, ["bid 1", "bid 1", "bid 1"])
    play(s, "LJ")
    assert legal(s) == ["play 5D", "play HJ"]
    play(s, "HJ")
    assert legal(s) == ["play 7S", "play KD"]  # two blukes, no suit set
    play(s, "7S")
    # trick 1 to HJ (seat 1); trick 2: 5D KD 3D -> KD (seat 2)
    play(s, "5D KD 3D")
    assert tricks_of(s) == [(0, ["LJ", "HJ", "7S"], 1), (1, ["5D", "KD", "3D"], 2)]
    assert s.scores() == [-10, 10, 10]


def test_a_turned_bluke_means_no_trump():
    # turned HJ: no trump. Trick 1: 2C KC AS -> KC (the ace of spades is no trump);
    # trick 2: seat 1 leads 2S, 9H, AD -> 2S, the only spade.
    s = deal(["2C AD", "KC 2S", "AS 9H"], "HJ")
    assert s.result()["trump"] is None
    assert s.observe(0)["turned"] == "HJ"
    run(s, ["bid 1", "bid 2", "bid 1"])
    play(s, "2C")
    assert legal(s) == ["play KC"]
    play(s, "KC")
    assert legal(s) == ["play 9H", "play AS"]  # void in clubs
    play(s, "AS", "2S 9H AD")
    assert [w for _, _, w in s.tricks()] == [1, 1]
    # seat 1 bid 2 took 2: 20; the others bid 1 took 0: -10
    assert s.scores() == [-10, 20, -10]


# ---------------------------------------------------------------------------------------------
# scores


def test_overtricks_bid_six_take_eight_scores_62():
    # 2 players, 8 cards (match hand 5: 13 - 5). Spades trump; seat 0 holds the eight top spades.
    s = deal(["AS KS QS JS TS 9S 8S 7S", "2H 3H 4H 5H 6H 7H 8H 9H"], "2S", dealer=1)
    assert legal(s) == [f"bid {n}" for n in sorted(range(1, 9), key=str)]
    run(s, ["bid 6", "bid 1"])
    for spade, heart in zip("AS KS QS JS TS 9S 8S 7S".split(), "2H 3H 4H 5H 6H 7H 8H 9H".split()):
        play(s, f"{spade} {heart}")
    assert [w for _, _, w in s.tricks()] == [0] * 8
    # seat 0: 10 * 6 + (8 - 6) = 62; seat 1 bid 1 took 0: -10
    assert s.scores() == [62, -10]
    assert s.result() == {"dealer": 1, "hand_size": 8, "trump": "S", "bids": [6, 1], "taken": [8, 0],
                          "scores": [62, -10]}


def test_zero_bids_and_the_hook():
    # min_bid = 0, hook = true; 3 players, 2 cards, clubs trump; dealer 2 bids last.
    s = deal(["2H 3H", "AH 4D", "KH AD"], "2C", min_bid=0, hook=True)
    assert legal(s) == ["bid 0", "bid 1", "bid 2"]
    run(s, ["bid 0", "bid 1"])
    # bids total 1 of 2 tricks: the dealer may not bid 1 (the total would be the hand size)
    assert legal(s) == ["bid 0", "bid 2"]
    with pytest.raises(tricksim.IllegalActionError):
        s.apply("bid 1")
    step(s, "bid 0", seat=2)
    play(s, "2H AH KH", "4D AD 3H")  # AH (seat 1), then AD (seat 2)
    assert [w for _, _, w in s.tricks()] == [1, 2]
    # seat 0 zero made: 10; seat 1 bid 1 took 1: 10; seat 2 zero missed: -10
    assert s.scores() == [10, 10, -10]


def test_without_the_hook_the_dealer_may_make_the_total():
    s = deal(["2H 3H", "AH 4D", "KH AD"], "2C", min_bid=0)
    run(s, ["bid 0", "bid 1"])
    assert legal(s) == ["bid 0", "bid 1", "bid 2"]


def test_the_hook_with_min_bid_one():
    s = deal(["2H 3H", "AH 4D", "KH AD"], "2C", hook=True)
    run(s, ["bid 2", "bid 1"])  # 3 > 2 already: nothing to forbid
    assert legal(s) == ["bid 1", "bid 2"]
    # 2 players, 2 cards: eldest bids 1, so the dealer may not bid 1 (1 + 1 = 2)
    s = deal(["2H 3H", "AH 4D"], "2C", hook=True)
    step(s, "bid 1", seat=0)
    assert legal(s) == ["bid 2"]


# ---------------------------------------------------------------------------------------------
# deals and matches


@pytest.mark.parametrize(
    "players, sizes",
    [
        (3, list(range(13, 0, -1)) + list(range(2, 14))),
        (4, list(range(13, 0, -1)) + list(range(2, 14))),
        (6, list(range(8, 0, -1)) + list(range(2, 9))),  # 53 // 6 = 8: 15 hands
    ],
)
def test_the_deal_sizes_of_a_whole_match(players, sizes):
    game = Bluke(players=players)
    m = game.new_match(seed=5, dealer=0)
    dealers = []
    while not m.is_over():
        if not m.state.history:
            dealers.append(m.state.result()["dealer"])
        m.apply(m.state.legal_actions()[0])
    assert [s.result()["hand_size"] for s in m.finished] == sizes
    assert [len(s.tricks()) for s in m.finished] == sizes
    assert dealers == [h % players for h in range(len(sizes))]  # the deal passes left
    assert m.hands_played == len(sizes)
    assert m.totals == [sum(s.scores()[p] for s in m.finished) for p in range(players)]
    assert m.winners == [p for p in range(players) if m.totals[p] == max(m.totals)]


def test_new_hand_deals_the_hand_size_and_turns_a_card():
    game = Bluke(players=4)
    for h in range(25):
        s = game.new_hand(seed=9, dealer=h % 4, hand=h)
        size = 13 - h if h <= 12 else h - 11
        hands = [s.hand(p) for p in range(4)]
        assert [len(x) for x in hands] == [size] * 4
        turned = s.observe(0)["turned"]
        assert all(turned not in x.labels() for x in hands)
        assert s.current_player == (h % 4 + 1) % 4
        assert s.observe(1)["hand"] == hands[1].labels()
        assert "hands" not in s.observe(1)
    with pytest.raises(ValueError):
        game.new_hand(seed=9, hand=25)


# ---------------------------------------------------------------------------------------------
# bad input


def test_illegal_actions_raise_and_change_nothing():
    s = deal(["AH KH", "5H LJ", "3H 4S"], "2S")
    before = s.array.copy()
    for bad in ["bid 0", "bid 3", "play AH", "pass"]:
        with pytest.raises(tricksim.IllegalActionError):
            s.apply(bad)
        assert np.array_equal(s.array, before) and s.history == []
    run(s, ["bid 1", "bid 1", "bid 1", "play AH"])
    before = s.array.copy()
    for bad in ["play 4S", "play 3H", "bid 1", "play KH"]:  # seat 1 to act: 5H or LJ only
        with pytest.raises(tricksim.IllegalActionError):
            s.apply(bad)
        assert np.array_equal(s.array, before) and len(s.history) == 4
    with pytest.raises(ValueError):
        s.apply("play ZZ")


def test_bad_deals_and_options_are_refused():
    with pytest.raises(tricksim.OptionError):
        Bluke(players=11)
    with pytest.raises(tricksim.OptionError):
        Bluke(min_bid=2)
    with pytest.raises(ValueError):
        deal(["AH KH", "5H LJ", "3H 4S 5S"], "2S")
    with pytest.raises(ValueError):
        Bluke(players=3).deal(hands=["AH KH", "5H LJ", "3H 4S"], rest="2S", dealer=2)  # rest too short



def test_a_seat_sees_its_hand_the_turned_card_and_the_bids_only():
    # twin deals: seats 1 and 2 swap 5H and 3H, and the rest below the turned card is reversed
    a = deal(["AH KH", "5H LJ", "3H 4S"], "2S")
    held = {"AH", "KH", "5H", "LJ", "3H", "4S", "2S"}
    others = [c for c in ALL_CARDS if c not in held]
    b = Bluke(players=3).deal(hands=["AH KH", "3H LJ", "5H 4S"], rest=" ".join(["2S"] + others[::-1]), dealer=2)
    for label in ["bid 1", "bid 2", "bid 1"]:
        assert a.observe(0) == b.observe(0)
        a.apply(label)
        b.apply(label)
    view = a.observe(0)
    assert view["hand"] == ["KH", "AH"] and view["turned"] == "2S" and view["trump"] == "S"
    assert view["bids"] == [1, 2, 1] and view == b.observe(0)
