"""Worked Shmear hands (docs/rules.md, Shmear), each checked by hand.

Unless a test says otherwise: six players in three teams (team = seat % 3: seats 0+3, 1+4, 2+5),
dealer 0, so seat 1 is eldest; seat 1 bids and the others pass, names trump, nobody draws, and the
dealer picks up the 17-card stock and discards exactly the stock's cards again (deals A and B put
all 15 trumps in the hands, so the stock holds no trump and the dealer keeps the hand he was
dealt). The bidder leads the first trick. The draw tests use their own deal and stock (DRAW).

Trumps, high to low: A K Q J(right bower) J-of-same-colour(left bower) T 9 .. 2 joker (LJ).
Game points: A 4, K 3, Q 2, J 1, T 10, joker 1.
"""

from __future__ import annotations

import numpy as np
import pytest

import tricksim
from tricksim import IllegalActionError, OptionError
from tricksim.cards import CardSet, card_label, parse_card

from worked_hands import cards, legal_cards, play

ALL = [card_label(c) for c in range(53)]  # 52 cards + LJ


def deal(hands, stock=None, dealer=0, **options):
    """A deal of ``hands`` (seat order); the stock is ``stock`` (drawing order, top first) followed
    by every other card in index order."""
    game = tricksim.make_game("shmear", **options)
    used = {parse_card(c) for c in " ".join(hands).split() + (stock or "").split()}
    rest = (stock or "").split() + [c for c in ALL if parse_card(c) not in used]
    return game, game.deal(hands=hands, rest=" ".join(rest), dealer=dealer)


def bid_round(state, bid, bidder, dealer=0):
    """``bidder`` bids ``bid``, everyone else passes (the auction stops at once on a 6)."""
    for k in range(1, 7):
        seat = (dealer + k) % 6
        state.apply(f"bid {bid}" if seat == bidder else "pass")
        if bid == 6 and seat == bidder:
            break
    assert state.phase == "trump" and state.current_player == bidder


def to_play(hands, trump, bid=3, bidder=1, dealer=0, **options):
    """Deal, auction (``bidder`` alone bids), trump, nobody draws, the dealer throws the stock
    back: the state at the first lead."""
    game, state = deal(hands, dealer=dealer, **options)
    bid_round(state, bid, bidder, dealer)
    state.apply(f"trump {trump}")
    while state.phase == "draw":
        state.apply("done")
    assert state.phase == "discard" and state.current_player == dealer
    assert len(state.hand(dealer)) == 23
    keep = CardSet(hands[dealer])
    for c in state.hand(dealer).labels():
        if c not in keep:
            state.apply(f"discard {c}")
    assert state.phase == "play" and state.current_player == bidder
    assert state.hand(dealer) == keep
    return game, state


def winners(state):
    return [w for _, _, w in state.tricks()]


# --- Deal A: a whole hand, trump hearts -------------------------------------------------------------
#
# All 15 trumps are dealt: s0 QH 8H 7H, s1 AH KH 9H, s2 2H 3H, s3 JD 4H, s4 6H TH, s5 LJ 5H JH.
# The stock (dealer's dead discards) holds AD TD QD KS QS JS JC ...: 23 game points nobody gets.
FULL = ["QH 8H 7H TC 8S 9D",  # s0 dealer (team 0)
        "AH KH 9H AC 4C 5S",  # s1 bidder (team 1)
        "2H 3H 2D KC TS 2C",  # s2 (team 2)
        "JD 4H 2S QC AS 3D",  # s3 (team 0)
        "6H TH 3S 5C 6S 4D",  # s4 (team 1)
        "LJ 5H JH 6C 7S KD"]  # s5 (team 2)
FULL_PLAY = [
    "9H 3H JD TH 5H 8H",  # s1 leads; JD (left bower) beats TH: s3 wins 1 + 10 = 11        (team 0)
    "4H 6H JH QH KH 2H",  # s3 leads; KH wins: J1 Q2 K3 = 6; Jack (s5's JH), Low (s2's 2H) (team 1)
    "AH 2D 2S 3S LJ 7H",  # s1 leads; s2 s3 s4 void in trumps; s5 must give up LJ: A4 + 1 = 5 (team 1)
    "AC KC QC 5C 6C TC",  # s1; AC wins: 4 + 3 + 2 + 10 = 19                                 (team 1)
    "5S TS AS 6S 7S 8S",  # s1; AS (s3) wins: 10 + 4 = 14                                   (team 0)
    "3D 4D KD 9D 4C 2C",  # s3; KD (s5) wins: 3; s1 and s2 are void in diamonds             (team 2)
]
# Game points: team 0 11 + 14 = 25, team 1 6 + 5 + 19 = 30, team 2 3 (58 in the hands).
# Points: High (AH, played by s1) team 1; Low (2H, played by s2 on s1's trick) team 2; Jack (JH,
# played by s5, taken by s1) team 1; Jick (JD, s3's own trick) team 0; Joker (LJ, played by s5,
# taken by s1) team 1; Game team 1 (30). Team 1: 4, team 0: 1, team 2: 1 = 6.


def _full(bid=3, hands=FULL, **options):
    game, state = to_play(hands, "H", bid=bid, **options)
    for trick in FULL_PLAY:
        play(state, trick)
    return state


def test_full_hand_trick_by_trick():
    game, state = to_play(FULL, "H")
    # Trick 1, s1 leads 9H: everyone holds a trump and must play one.
    state.apply("play 9H")
    assert legal_cards(state) == cards("2H 3H")  # s2: only trumps
    state.apply("play 3H")
    assert legal_cards(state) == cards("JD 4H")  # s3: the left bower is a trump, 3D is not
    play(state, "JD TH 5H 8H")
    # Trick 3, s1 leads AH: s2 holds 2D KC TS 2C, no trump: anything.
    play(state, FULL_PLAY[1])
    state.apply("play AH")
    assert legal_cards(state) == cards("2D KC TS 2C")
    play(state, "2D 2S 3S")
    assert legal_cards(state) == ["LJ"]  # s5's last trump is the joker: forced
    play(state, "LJ 7H")
    for trick in FULL_PLAY[3:]:
        play(state, trick)
    assert winners(state) == [3, 1, 1, 1, 3, 5]
    assert [leader for leader, _, _ in state.tricks()] == [1, 3, 1, 1, 1, 3]
    assert state.tricks()[0] == (1, "9H 3H JD TH 5H 8H".split(), 3)
    assert state.phase == "over" and state.current_player is None


def test_each_point_goes_to_the_right_team():
    state = _full(bid=3)
    r = state.result()
    assert (r["high"], r["low"], r["jack"], r["jick"], r["joker"], r["game"]) == (1, 2, 1, 0, 1, 1)
    # The dealer's 17 discards (AD TD QD KS QS JS JC ...) are dead: they are nobody's Game.
    assert r["game_points"] == [25, 30, 3]
    assert r["dealer"] == 0 and r["bidder"] == 1 and r["bid"] == 3 and r["trump"] == "H"
    assert r["bidder_points"] == 4 and r["outcome"] == "made" and not r["thrown_in"]


def test_made_bid_scores_all_its_points_beyond_the_bid():
    # Bid 3, took 4 points: the bidding team scores 4, not 3; the others score theirs.
    state = _full(bid=3)
    assert state.scores() == [1, 4, 1, 1, 4, 1]
    assert state.result()["scores"] == state.scores()
    # Bid 4 is made exactly.
    state = _full(bid=4)
    assert state.scores() == [1, 4, 1, 1, 4, 1] and state.result()["outcome"] == "made"


def test_set_bidding_team_loses_its_bid_others_score_theirs():
    state = _full(bid=5)
    # Team 1 took 4 < 5: -5 for s1 and s4. Team 0 (Jick) and team 2 (Low) still score 1.
    assert state.scores() == [1, -5, 1, 1, -5, 1]
    r = state.result()
    assert r["outcome"] == "failed" and r["bidder_points"] == 4 and r["bid"] == 5


def test_bid_six_set():
    # s1 bids 6: the auction ends at once; the same play takes 4 points: -6.
    state = _full(bid=6)
    assert state.scores() == [1, -6, 1, 1, -6, 1]


# Deal A': as A, but s0 holds KS for 8S and s5 QS for 7S. Trick 5 is then 5S TS AS 6S QS KS, still
# won by AS (s3): 10 + 4 + 2 + 3 = 19, so team 0 has 11 + 19 = 30, level with team 1 (30).
FULL_TIE = ["QH 8H 7H TC KS 9D", FULL[1], FULL[2], FULL[3], FULL[4], "LJ 5H JH 6C QS KD"]


def test_game_tie_gives_game_to_nobody_five_points():
    game, state = to_play(FULL_TIE, "H")
    for trick in FULL_PLAY[:4] + ["5S TS AS 6S QS KS", FULL_PLAY[5]]:
        play(state, trick)
    r = state.result()
    assert r["game_points"] == [30, 30, 3]
    assert r["game"] is None
    # Team 1: High, Jack, Joker = 3 (bid 3: made exactly); team 0 Jick 1; team 2 Low 1: 5 points.
    assert (r["high"], r["low"], r["jack"], r["jick"], r["joker"]) == (1, 2, 1, 0, 1)
    assert state.scores() == [1, 3, 1, 1, 3, 1] and r["outcome"] == "made" and r["bidder_points"] == 3


def test_two_teams_of_three_pool_their_points():
    # teams = 2: seats 0+2+4 (team 0) and 1+3+5 (team 1). Same deal and play as A.
    state = _full(bid=3, teams=2)
    r = state.result()
    # Tricks won by s3 s1 s1 s1 s3 s5: all team 1, so Game is 58 to 0. Jick (taken by s3) and the
    # Jack (played by s5) are team 1's too. Low: s2 played 2H: team 0.
    assert (r["high"], r["low"], r["jack"], r["jick"], r["joker"], r["game"]) == (1, 0, 1, 1, 1, 1)
    assert r["game_points"] == [0, 58]
    assert state.scores() == [1, 5, 1, 5, 1, 5]


# --- Deal B: bowers and the joker, trump hearts -------------------------------------------------------
#
# s2's only trump is the left bower JD (and he holds no diamond); s3's only trump is the joker (no club, no
# diamond); s0's only trump is 2H (no club, no diamond).
BOWERS = ["2H TS JS QS KS AS",  # s0 dealer
          "AH KH QH TH 5D 4C",  # s1
          "JD 2C 3C 2S 3S 4S",  # s2
          "LJ 5S 6S 7S 8S 9S",  # s3
          "JH 9H 8H 7H 6D 7D",  # s4
          "6H 5H 4H 3H 8D 9D"]  # s5


def test_left_bower_follows_trumps_beats_the_ten_loses_to_the_right_bower():
    game, state = to_play(BOWERS, "H")
    state.apply("play TH")  # a trump lead
    assert legal_cards(state) == ["JD"]  # s2: JD is his only trump and must be played
    state.apply("play JD")
    assert legal_cards(state) == ["LJ"]  # s3: the joker is his only trump
    state.apply("play LJ")
    assert legal_cards(state) == cards("JH 9H 8H 7H")  # s4: trumps only, not 6D 7D
    right = state.clone()
    play(state, "7H 3H 2H")
    # TH JD LJ 7H 3H 2H: the left bower beats the T.
    assert state.tricks()[0] == (1, "TH JD LJ 7H 3H 2H".split(), 2)
    assert state.current_player == 2
    play(right, "JH 3H 2H")
    # TH JD LJ JH 3H 2H: the right bower beats the left bower.
    assert right.tricks()[0][2] == 4 and right.current_player == 4
    # Play the rest out (lowest legal action each time): the points of trick 1 are settled.
    while not right.is_terminal():
        right.apply(right.legal_actions()[0])
    r = right.result()
    # s4 (team 1) took the Jack, the Jick played by s2 (team 2) and the joker played by s3 (team 0);
    # s0 (team 0) played the 2H: Low; s1 (team 1) holds AH and must play it some time: High.
    assert (r["jack"], r["jick"], r["joker"], r["low"], r["high"]) == (1, 1, 1, 0, 1)


def test_left_bower_holder_is_void_in_its_own_suit():
    game, state = to_play(BOWERS, "H")
    state.apply("play 5D")
    # s2 holds JD 2C 3C 2S 3S 4S: JD is a heart now, so he has no diamond: anything.
    assert legal_cards(state) == cards("JD 2C 3C 2S 3S 4S")
    state.apply("play 2C")
    assert legal_cards(state) == cards("LJ 5S 6S 7S 8S 9S")  # s3: void too
    state.apply("play 5S")
    assert legal_cards(state) == cards("6D 7D")  # s4 follows diamonds (no trumping)
    state.apply("play 7D")
    assert legal_cards(state) == cards("8D 9D")
    state.apply("play 9D")
    assert legal_cards(state) == cards(BOWERS[0])  # s0: void in diamonds
    state.apply("play TS")
    assert state.tricks()[0] == (1, "5D 2C 5S 7D 9D TS".split(), 5)


@pytest.mark.parametrize("may_trump", [False, True])
def test_left_bower_is_no_diamond_for_a_player_holding_diamonds(may_trump):
    # Deal A, but s5 bids and leads KD. s3 holds JD 4H 2S QC AS 3D: his only diamond is 3D.
    game, state = to_play(FULL, "H", bidder=5, may_trump=may_trump)
    state.apply("play KD")
    assert legal_cards(state) == cards("9D QH 8H 7H" if may_trump else "9D")  # s0
    state.apply("play 9D")
    assert legal_cards(state) == cards(FULL[1])  # s1 has no diamond: anything
    state.apply("play 4C")
    assert legal_cards(state) == cards("2D 2H 3H" if may_trump else "2D")  # s2
    state.apply("play 2D")
    # s3: JD is a heart; he must follow with 3D (with may_trump he may play JD or 4H instead).
    assert legal_cards(state) == cards("3D JD 4H" if may_trump else "3D")
    play(state, "3D 4D")
    assert state.tricks()[0] == (5, "KD 9D 4C 2D 3D 4D".split(), 5)


def test_left_bower_lead_is_a_trump_lead():
    # Deal A, s3 bids and leads JD: a trump lead, not a diamond lead.
    game, state = to_play(FULL, "H", bidder=3)
    state.apply("play JD")
    assert legal_cards(state) == cards("6H TH")  # s4 holds 4D but must play a trump
    state.apply("play TH")
    assert legal_cards(state) == cards("LJ 5H JH")  # s5: KD is no answer
    play(state, "5H 7H 9H 3H")
    # JD TH 5H 7H 9H 3H: the left bower wins.
    assert state.tricks()[0] == (3, "JD TH 5H 7H 9H 3H".split(), 3)


def test_joker_beats_every_plain_card_and_loses_to_the_two():
    game, state = to_play(BOWERS, "H")
    state.apply("play 4C")
    assert legal_cards(state) == cards("2C 3C")  # s2 follows clubs
    state.apply("play 2C")
    assert legal_cards(state) == cards(BOWERS[3])  # s3 is void in clubs: anything
    state.apply("play LJ")
    play(state, "6D 8D")  # s4 and s5 are void in clubs too
    assert legal_cards(state) == cards(BOWERS[0])  # s0 void
    two = state.clone()
    state.apply("play AS")
    # 4C 2C LJ 6D 8D AS: the joker is the only trump: s3 wins.
    assert state.tricks()[0][2] == 3 and state.current_player == 3
    two.apply("play 2H")
    # 4C 2C LJ 6D 8D 2H: the 2 of trumps beats the joker: s0 wins.
    assert two.tricks()[0][2] == 0 and two.current_player == 0


def test_joker_lead_is_a_trump_lead():
    # s3 bids and leads the joker; everyone else holds a trump and must play one.
    game, state = to_play(BOWERS, "H", bidder=3)
    assert state.current_player == 3 and legal_cards(state) == cards(BOWERS[3])
    state.apply("play LJ")
    assert legal_cards(state) == cards("JH 9H 8H 7H")  # s4
    state.apply("play 7H")
    assert legal_cards(state) == cards("6H 5H 4H 3H")  # s5
    state.apply("play 3H")
    assert legal_cards(state) == ["2H"]  # s0
    state.apply("play 2H")
    assert legal_cards(state) == cards("AH KH QH TH")  # s1
    state.apply("play TH")
    assert legal_cards(state) == ["JD"]  # s2: the left bower answers a joker lead
    state.apply("play JD")
    assert state.tricks()[0] == (3, "LJ 7H 3H 2H TH JD".split(), 2)


def test_may_trump_lets_a_player_trump_when_able_to_follow():
    game, state = to_play(BOWERS, "H", may_trump=True)
    state.apply("play 5D")
    assert legal_cards(state) == cards(BOWERS[2])  # s2 void: anything, as before
    play(state, "2C 5S")
    # s4 holds 6D 7D: he may follow or play any of his trumps, but not a plain card of another suit
    # (he has none).
    assert legal_cards(state) == cards("6D 7D JH 9H 8H 7H")
    state.apply("play 7H")
    assert legal_cards(state) == cards("8D 9D 6H 5H 4H 3H")  # s5 likewise
    play(state, "9D TS")
    assert state.tricks()[0] == (1, "5D 2C 5S 7H 9D TS".split(), 4)  # s4's 7H trumps the diamonds

    game, state = to_play(BOWERS, "H", may_trump=True)
    state.apply("play 4C")
    assert legal_cards(state) == cards("2C 3C JD")  # s2 may trump with the left bower
    state.apply("play JD")
    assert legal_cards(state) == cards(BOWERS[3])  # s3 void in clubs: anything
    play(state, "5S 6D 8D AS")
    assert state.tricks()[0] == (1, "4C JD 5S 6D 8D AS".split(), 2)

    # A trump lead still forces trumps under may_trump.
    game, state = to_play(BOWERS, "H", may_trump=True)
    state.apply("play TH")
    assert legal_cards(state) == ["JD"]


def test_without_may_trump_a_player_who_can_follow_must():
    game, state = to_play(BOWERS, "H")
    state.apply("play 4C")
    assert legal_cards(state) == cards("2C 3C")
    with pytest.raises(IllegalActionError):
        state.apply("play JD")


# --- the draw and the dealer's discard (trump spades) ---------------------------------------------------

DRAW = ["2S AS AD 2C 3C 4C",  # s0 dealer: two trumps
        "JC LJ 2H 3H 4H 5H",  # s1 bidder: left bower and joker are trumps
        "2D 3D 4D 5D 6D 7D",  # s2
        "3S 4S 5S 6S 7S 8S",  # s3: only trumps
        "8D 9D TD JD QD KD",  # s4
        "6H 7H 8H 9H TH JH"]  # s5
# Stock, top first: s1 draws QH 5C, s2 draws KH AH 6C, s5 draws 7C; the dealer gets the other 11.
DRAW_STOCK = "QH 5C KH AH 6C 7C 8C 9C TC QC KC AC 9S TS JS QS KS"


def test_draw_non_trumps_only_up_to_three_replacements_in_stock_order():
    game, state = deal(DRAW, DRAW_STOCK)
    bid_round(state, 3, 1)
    assert sorted(state.legal_labels()) == ["trump C", "trump D", "trump H", "trump S"]
    state.apply("trump S")
    assert state.phase == "draw" and state.current_player == 1
    # s1: JC (left bower) and LJ are trumps and can't be thrown.
    assert sorted(state.legal_labels()) == sorted(["done"] + [f"discard {c}" for c in "2H 3H 4H 5H".split()])
    for bad in ["discard JC", "discard LJ", "discard 2D", "pass", "play 2H"]:  # 2D: not his
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    state.apply("discard 2H").apply("discard 3H").apply("done")
    assert state.hand(1) == CardSet("JC LJ 4H 5H QH 5C")  # the top two of the stock
    # s2 throws three: his turn ends by itself, he draws the next three.
    assert state.phase == "draw" and state.current_player == 2
    state.apply("discard 2D").apply("discard 3D").apply("discard 4D")
    assert state.hand(2) == CardSet("5D 6D 7D KH AH 6C")
    # s3 holds only trumps: nothing to throw, `done` only.
    assert state.current_player == 3 and state.legal_labels() == ["done"]
    state.apply("done")
    assert state.hand(3) == CardSet(DRAW[3])
    # s4 may keep everything.
    assert state.current_player == 4 and "done" in state.legal_labels()
    state.apply("done")
    assert state.hand(4) == CardSet(DRAW[4])
    state.apply("discard 6H").apply("done")
    assert state.hand(5) == CardSet("7H 8H 9H TH JH 7C")
    # The dealer takes the rest of the stock: 6 + 11 = 17 cards.
    assert state.phase == "discard" and state.current_player == 0
    assert state.hand(0) == CardSet(DRAW[0] + " 8C 9C TC QC KC AC 9S TS JS QS KS")


def test_draw_runs_from_eldest_to_the_seat_before_the_dealer():
    game, state = deal(BOWERS, dealer=4)
    bid_round(state, 3, bidder=2, dealer=4)  # seats 5 0 1 pass, 2 bids, 3 4 pass
    state.apply("trump H")
    order = []
    while state.phase == "draw":
        order.append(state.current_player)
        state.apply("done")
    assert order == [5, 0, 1, 2, 3]
    assert state.phase == "discard" and state.current_player == 4 and len(state.hand(4)) == 23


def test_a_bidding_dealer_does_not_draw_and_leads():
    game, state = to_play(BOWERS, "H", bidder=0)
    assert state.current_player == 0 and legal_cards(state) == cards(BOWERS[0])


def _dealer_discard_state():
    game, state = deal(DRAW, DRAW_STOCK)
    bid_round(state, 3, 1)
    state.apply("trump S")
    for a in ["discard 2H", "discard 3H", "done", "discard 2D", "discard 3D", "discard 4D", "done",
              "done", "discard 6H", "done"]:
        state.apply(a)
    assert state.phase == "discard" and state.current_player == 0
    return state


def test_dealer_with_more_than_six_trumps_may_throw_an_unprotected_trump():
    state = _dealer_discard_state()
    # 7 trumps (2S 9S TS JS QS KS AS) > 6: any card but A and 2 of trumps and the bowers (JS here;
    # JC and LJ are with s1). No `done`.
    plain = "AD 2C 3C 4C 8C 9C TC QC KC AC"
    assert legal_cards(state) == cards(plain + " 9S TS QS KS")
    assert all(label.startswith("discard") for label in state.legal_labels())
    for bad in ["discard AS", "discard 2S", "discard JS", "done"]:
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    state.apply("discard KS")
    # Down to 6 trumps: only non-trumps now.
    assert legal_cards(state) == cards(plain)
    with pytest.raises(IllegalActionError):
        state.apply("discard QS")
    for c in plain.split():
        state.apply(f"discard {c}")
    # 6 cards: play begins, the bidder leads.
    assert state.hand(0) == CardSet("2S 9S TS JS QS AS")
    assert state.phase == "play" and state.current_player == 1


def test_dealer_with_more_than_six_trumps_after_plain_discards_still_may_throw_trumps():
    state = _dealer_discard_state()
    for c in "AD 2C 3C 4C 8C 9C TC QC KC AC".split():
        state.apply(f"discard {c}")
    # 7 cards, all trumps (7 > 6): the unprotected ones only.
    assert legal_cards(state) == cards("9S TS QS KS")
    state.apply("discard 9S")
    assert state.hand(0) == CardSet("2S TS JS QS KS AS")
    assert state.phase == "play" and state.current_player == 1


def test_dealer_with_six_trumps_or_fewer_throws_only_non_trumps():
    # Deal A: the dealer holds 3 trumps and picks up 17 plain cards: never a trump.
    game, state = deal(FULL)
    bid_round(state, 3, 1)
    state.apply("trump H")
    while state.phase == "draw":
        state.apply("done")
    stock = CardSet(" ".join(ALL)) - CardSet(" ".join(FULL))
    assert state.hand(0) == CardSet(FULL[0]) | stock
    # QH 8H 7H are trumps; his plain TC 8S 9D and the 17 stock cards may go.
    assert legal_cards(state) == sorted(stock.labels() + "TC 8S 9D".split())
    with pytest.raises(IllegalActionError):
        state.apply("discard 7H")


# --- the auction -------------------------------------------------------------------------------------

BIDS = ["bid 3", "bid 4", "bid 5", "bid 6"]


def test_bids_must_rise_from_three_to_six_and_the_dealer_speaks_last():
    game, state = deal(BOWERS)
    assert state.phase == "bidding" and state.current_player == 1
    assert sorted(state.legal_labels()) == sorted(BIDS + ["pass"])
    state.apply("bid 4")
    assert state.current_player == 2 and sorted(state.legal_labels()) == ["bid 5", "bid 6", "pass"]
    for bad in ["bid 2", "bid 3", "bid 4", "bid 7"]:
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    for a in ["pass", "pass", "bid 5", "pass"]:  # s2 s3 pass, s4 raises, s5 passes
        state.apply(a)
    assert state.current_player == 0 and sorted(state.legal_labels()) == ["bid 6", "pass"]
    state.apply("pass")
    assert state.phase == "trump" and state.current_player == 4
    assert sorted(state.legal_labels()) == ["trump C", "trump D", "trump H", "trump S"]


def test_a_six_ends_the_auction_at_once():
    game, state = deal(BOWERS)
    state.apply("pass").apply("bid 6")
    assert state.phase == "trump" and state.current_player == 2


def test_the_dealer_may_bid_after_five_passes():
    game, state = deal(BOWERS, dealer=3)
    for _ in range(5):  # seats 4 5 0 1 2
        state.apply("pass")
    assert state.current_player == 3 and sorted(state.legal_labels()) == sorted(BIDS + ["pass"])
    state.apply("bid 3")
    assert state.phase == "trump" and state.current_player == 3


def test_all_pass_throws_the_hand_in():
    game, state = deal(BOWERS, dealer=2)
    for _ in range(6):
        state.apply("pass")
    assert state.phase == "over" and state.current_player is None and state.legal_labels() == []
    assert state.scores() == [0] * 6 and state.tricks() == []
    r = state.result()
    assert r["outcome"] == "thrown_in" and r["thrown_in"] is True
    assert r["bidder"] is None and r["bid"] is None and r["trump"] is None and r["bidder_points"] is None
    assert r["dealer"] == 2


# --- matches -----------------------------------------------------------------------------------------


def _rotated(hands, r):
    """The deal with every hand moved ``r`` seats to the left (seat i's hand goes to seat i + r)."""
    out = [""] * 6
    for i, h in enumerate(hands):
        out[(i + r) % 6] = h
    return out


def _play_full_in_match(m, r=0, bid=3):
    """Replace the match's hand with deal A moved ``r`` seats (dealer r, bidder r + 1) and play it
    as FULL_PLAY: the scores are those of deal A moved r seats."""
    game = m.game
    hands = _rotated(FULL, r)
    used = {parse_card(c) for c in " ".join(hands).split()}
    m.state = game.deal(hands=hands, rest=" ".join(c for c in ALL if parse_card(c) not in used), dealer=r)
    for k in range(1, 7):
        m.apply(f"bid {bid}" if k == 1 else "pass")
    m.apply("trump H")
    while m.state.phase == "draw":
        m.apply("done")
    keep = CardSet(hands[r])
    for c in m.state.hand(r).labels():
        if c not in keep:
            m.apply(f"discard {c}")
    for trick in FULL_PLAY:
        for c in trick.split():
            m.apply(f"play {c}")


def test_a_lone_team_reaching_the_target_wins():
    game = tricksim.make_game("shmear")
    m = game.new_match(seed=0, dealer=0, totals=[0, 18, 0, 0, 18, 0])
    _play_full_in_match(m)  # team 1 + 4
    assert m.totals == [1, 22, 1, 1, 22, 1] and m.is_over() and m.winners == [1, 4]


def test_two_teams_cross_the_target_the_higher_total_wins():
    game = tricksim.make_game("shmear")
    # Team 0 (not bidding) 20 + 1 = 21, team 1 (bidding) 18 + 4 = 22: team 1.
    m = game.new_match(seed=0, dealer=0, totals=[20, 18, 0, 20, 18, 0])
    _play_full_in_match(m)
    assert m.totals == [21, 22, 1, 21, 22, 1] and m.is_over() and m.winners == [1, 4]
    # Two non-bidding teams: team 0 20 + 1 = 21, team 2 21 + 1 = 22: team 2.
    m = game.new_match(seed=0, dealer=0, totals=[20, 0, 21, 20, 0, 21])
    _play_full_in_match(m)
    assert m.totals == [21, 4, 22, 21, 4, 22] and m.is_over() and m.winners == [2, 5]
    # Team 2 25 + 1 = 26 beats the bidding team 17 + 4 = 21.
    m = game.new_match(seed=0, dealer=0, totals=[0, 17, 25, 0, 17, 25])
    _play_full_in_match(m)
    assert m.totals == [1, 21, 26, 1, 21, 26] and m.winners == [2, 5]


def test_an_exact_tie_goes_to_the_bidding_team():
    game = tricksim.make_game("shmear")
    # Team 0 20 + 1 = 21, team 1 (bidding) 17 + 4 = 21: tied, the bidding team wins.
    m = game.new_match(seed=0, dealer=0, totals=[20, 17, 0, 20, 17, 0])
    _play_full_in_match(m)
    assert m.totals == [21, 21, 1, 21, 21, 1] and m.is_over() and m.winners == [1, 4]


def test_a_tie_without_the_bidding_team_plays_another_hand():
    game = tricksim.make_game("shmear")
    # Teams 0 and 2 both 20 + 1 = 21; team 1 (bidding) 4: nobody wins yet.
    m = game.new_match(seed=0, dealer=0, totals=[20, 0, 20, 20, 0, 20])
    _play_full_in_match(m)
    assert m.totals == [21, 4, 21, 21, 4, 21]
    assert not m.is_over() and m.winners == []
    assert m.state.phase == "bidding" and m.state.current_player == 2  # dealer 1 deals on
    # Next hand: deal A moved one seat (dealer 1, bidder s2 of team 2). Team t of deal A is now team
    # t + 1: team 2 (bidding) + 4, team 0 + 1, team 1 + 1: 22, 5, 25: team 2 has the higher total.
    _play_full_in_match(m, r=1)
    assert m.totals == [22, 5, 25, 22, 5, 25]
    assert m.is_over() and m.winners == [2, 5]


def test_a_thrown_in_hand_keeps_the_dealer_in_a_match():
    game = tricksim.make_game("shmear")
    m = game.new_match(seed=0, dealer=2)
    used = {parse_card(c) for c in " ".join(FULL).split()}
    m.state = game.deal(hands=FULL, rest=" ".join(c for c in ALL if parse_card(c) not in used), dealer=2)
    for _ in range(6):
        m.apply("pass")
    # The same dealer deals again: eldest is still seat 3.
    assert not m.is_over() and m.totals == [0] * 6
    assert m.state.phase == "bidding" and m.state.current_player == 3
    assert m.state.result()["dealer"] == 2


@pytest.mark.parametrize("teams", [3, 2])
def test_a_match_played_out_ends_with_a_winning_team_at_the_target(teams):
    # Eldest bids 3 and the others pass (always taking legal_actions()[0] would pass forever:
    # 'pass' is action 0 and all-pass redeals; random bids of 6 are set so often that every
    # total sinks); after the auction every seat takes legal_actions()[0].
    game = tricksim.make_game("shmear", teams=teams)
    m = game.new_match(seed=3)
    for _ in range(100_000):
        if m.is_over():
            break
        if m.state.phase == "bidding":
            m.apply("bid 3" if "bid 3" in m.state.legal_labels() else "pass")
        else:
            m.apply(m.state.legal_actions()[0])
    assert m.is_over()
    assert m.winners in ([[0, 3], [1, 4], [2, 5]] if teams == 3 else [[0, 2, 4], [1, 3, 5]])
    assert all(m.totals[w] >= 21 and m.totals[w] == max(m.totals) for w in m.winners)
    assert all(m.totals[i] == m.totals[i % teams] for i in range(6))


def test_random_hands_hand_out_six_points_or_five_on_a_game_tie():
    # The A, the 2, both bowers and the joker are always played (the dealer can't throw them), so
    # every point is won; scores follow the made/failed rule.
    game = tricksim.make_game("shmear")
    rng = np.random.default_rng(1)
    for seed in range(60):
        state = game.new_hand(seed=seed, dealer=seed % 6)
        while not state.is_terminal():
            labels = state.legal_labels()
            if state.phase == "bidding":
                state.apply(labels[int(rng.integers(len(labels)))] if state.current_player == (seed + 1) % 6
                            and "pass" in labels else "pass")
            else:
                state.apply(labels[int(rng.integers(len(labels)))])
        r = state.result()
        if r["thrown_in"]:
            continue
        assert len(state.tricks()) == 6 and all(len(t[1]) == 6 for t in state.tricks())
        won = [r[k] for k in ("high", "low", "jack", "jick", "joker", "game")]
        assert None not in won[:5]
        assert (won[5] is None) == (sorted(r["game_points"])[-1] == sorted(r["game_points"])[-2])
        team = r["bidder"] % 3
        for t in range(3):
            points = won.count(t)
            if t == team:
                assert points == r["bidder_points"]
                expect = points if points >= r["bid"] else -r["bid"]
            else:
                expect = points
            assert state.scores()[t] == state.scores()[t + 3] == expect


# --- bad input ---------------------------------------------------------------------------------------


def _snapshot(state):
    return (state.phase, state.current_player, sorted(state.legal_labels()),
            [state.hand(p).labels() for p in range(6)], state.tricks())


def test_illegal_actions_raise_and_change_nothing():
    game, state = deal(FULL)
    state.apply("bid 4")
    before = _snapshot(state)
    for bad in ["bid 3", "bid 4", "trump H", "play 2H", "discard 2H", "done", "hold"]:
        with pytest.raises(IllegalActionError) as err:
            state.apply(bad)
        assert bad in str(err.value) and "bid 5" in str(err.value)  # names it, lists the legal
        assert _snapshot(state) == before
    with pytest.raises(ValueError):
        state.apply("bid x")
    assert _snapshot(state) == before

    game, state = to_play(FULL, "H")
    state.apply("play 9H")
    before = _snapshot(state)
    # s2 holds 2H 3H 2D KC TS 2C: 2D does not follow a trump lead; AS is not his; no passing now.
    for bad in ["play 2D", "play AS", "play 9H", "pass", "discard 2D", "done"]:
        with pytest.raises(IllegalActionError):
            state.apply(bad)
        assert _snapshot(state) == before
    state.apply("play 2H")  # and the state still plays on
    assert state.current_player == 3


def test_bad_options_are_refused():
    for bad in [dict(teams=4), dict(players=5), dict(teams=1)]:
        with pytest.raises(OptionError):
            tricksim.make_game("shmear", **bad)


def test_bad_deals_are_refused():
    game = tricksim.make_game("shmear")
    # Seven cards in seat 0 (AD taken from the stock).
    with pytest.raises(ValueError):
        deal([FULL[0] + " AD"] + FULL[1:])
    # AH twice (seat 0 and seat 1), 9D nowhere: still 53 cards in all.
    twice = ["QH 8H 7H TC 8S AH"] + FULL[1:]
    used = {parse_card(c) for c in " ".join(FULL).split()}
    rest = " ".join(c for c in ALL if parse_card(c) not in used)
    with pytest.raises(ValueError):
        game.deal(hands=twice, rest=rest)
    # A hand card again in the stock.
    with pytest.raises(ValueError):
        game.deal(hands=FULL, rest="AH " + " ".join(rest.split()[1:]))
    # HJ is no Shmear card.
    with pytest.raises(ValueError):
        game.deal(hands=FULL, rest="HJ " + " ".join(rest.split()[1:]))


def test_the_joker_may_be_written_JK():
    hands = FULL[:5] + ["JK 5H JH 6C 7S KD"]
    game, state = to_play(hands, "H")
    assert "LJ" in state.hand(5) and len(state.hand(5)) == 6
