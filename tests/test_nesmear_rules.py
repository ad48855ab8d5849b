"""Worked Four Point Northeastern Wisconsin Smear hands (docs/rules.md, NE Smear), each checked by hand.

Unless a test says otherwise: four players, dealer 0 (so seat 1 is eldest), widow 3, trump hearts,
teams 0+2 (team 0) and 1+3 (team 1). Seat 1 wins the auction, takes the widow, names hearts and
discards; he then leads the first trick. Trump and plain suits both rank A K Q J T 9 8 7; game
points A 4, K 3, Q 2, J 1, T 10 (80 in the deck).
"""

from __future__ import annotations

import numpy as np
import pytest

import tricksim
from tricksim import IllegalActionError, OptionError

from worked_hands import cards, legal_cards, play

DECK = [r + s for s in "CDHS" for r in "789TJQKA"]


def deal_on(game, hands, widow_cards="", undealt="", dealer=0):
    """``game.deal`` with ``rest`` = ``widow_cards``, then ``undealt``, then every other card in DECK order."""
    used = set(" ".join(hands).split()) | set(widow_cards.split()) | set(undealt.split())
    rest = widow_cards.split() + undealt.split() + [c for c in DECK if c not in used]
    return game.deal(hands=hands, rest=" ".join(rest), dealer=dealer)


def deal(hands, widow_cards="", undealt="", dealer=0, **options):
    game = tricksim.make_game("nesmear", **options)
    return game, deal_on(game, hands, widow_cards, undealt, dealer)


def deal_for(bidder_hand, widow_cards, bidder=1, dealer=0, **options):
    """``bidder`` gets ``bidder_hand``; the other seats get the remaining cards in DECK order."""
    used = set(bidder_hand.split()) | set(widow_cards.split())
    free = [c for c in DECK if c not in used]
    hands = []
    for seat in range(4):
        if seat == bidder:
            hands.append(bidder_hand)
        else:
            hands.append(" ".join(free[:6]))
            free = free[6:]
    return deal(hands, widow_cards, dealer=dealer, **options)


def script(bidder, bid, trump, discards, dealer=0):
    """The labels of an auction that ``bidder`` wins with ``bid`` (the others pass; a 4 ends it
    at once), then ``trump`` and the discards."""
    labels = []
    for k in range(1, 5):
        seat = (dealer + k) % 4
        labels.append(f"bid {bid}" if seat == bidder else "pass")
        if seat == bidder and bid == 4:
            break
    return labels + [f"trump {trump}"] + [f"discard {c}" for c in discards.split()]


def to_play(hands, widow_cards, trump="H", discards=None, bid=2, bidder=1, dealer=0, undealt="", **options):
    """Deal, let ``bidder`` win at ``bid``, name ``trump`` and discard ``discards`` (default: the
    widow's own cards): the state at the first lead."""
    game, state = deal(hands, widow_cards, undealt, dealer, **options)
    for label in script(bidder, bid, trump, widow_cards if discards is None else discards, dealer):
        state.apply(label)
    assert state.phase == "play" and state.current_player == bidder
    return game, state


def held(state, seat):
    return sorted(state.hand(seat).labels())


# Deal A: every point goes somewhere; High and Game to the bidders, Low and Jack to the other team.
# Undealt (beyond the widow TD 7D 8D): TC 9D QS JS 7S.
DEAL_A = ["TH JD QD KD AD 9C", "AH JH 9H AC KC 8S", "KH 7H QC 7C 9S TS", "QH 8H JC 8C AS KS"]
WIDOW_A = "TD 7D 8D"
TRICKS_A = ["AH 7H 8H TH",  # seat 1 leads; AH wins: 4 + 10 = 14 (team 1)
            "AC 7C 8C 9C",  # seat 1; AC wins: 4 (team 1)
            "JH KH QH JD",  # seat 1; KH (seat 2) wins: 1 + 3 + 2 + 1 = 7 (team 0)
            "TS AS QD 8S",  # seat 2; AS (seat 3) wins: 10 + 4 + 2 = 16 (team 1)
            "KS KD 9H 9S",  # seat 3; 9H (seat 1) trumps: 3 + 3 = 6 (team 1)
            "KC QC JC AD"]  # seat 1; KC wins (AD is off suit): 3 + 2 + 1 + 4 = 10 (team 1)

# Deal B: the bidder's discarded TD decides Game. Undealt: TC AC AD TS AS.
DEAL_B = ["JH KH KC KD 9D JS", "AH 9H 7C 8C 7S 8S", "7H 8H QC 9S KS QS", "QH TH 9C JC JD QD"]
WIDOW_B = "TD 7D 8D"


# --- bidding ------------------------------------------------------------------------------------


def test_bids_must_rise_and_the_dealer_speaks_last():
    game, state = deal(DEAL_A, WIDOW_A, dealer=2)
    # Dealer 2: eldest is seat 3, then 0, 1 and the dealer last.
    assert state.phase == "bidding" and state.current_player == 3
    assert sorted(state.legal_labels()) == ["bid 2", "bid 3", "bid 4", "pass"]
    state.apply("pass")
    assert state.current_player == 0
    assert sorted(state.legal_labels()) == ["bid 2", "bid 3", "bid 4", "pass"]  # a pass sets no bid
    state.apply("bid 2")
    assert state.current_player == 1 and sorted(state.legal_labels()) == ["bid 3", "bid 4", "pass"]
    with pytest.raises(IllegalActionError):
        state.apply("bid 2")  # not higher than 2
    state.apply("bid 3")
    assert state.current_player == 2 and sorted(state.legal_labels()) == ["bid 4", "pass"]
    state.apply("pass")
    # The dealer has spoken: seat 1 wins at 3, takes the widow at once and names trump.
    assert state.phase == "trump" and state.current_player == 1
    assert held(state, 1) == cards(DEAL_A[1] + " " + WIDOW_A)


def test_a_bid_of_4_ends_the_auction_at_once():
    game, state = deal(DEAL_A, WIDOW_A)
    state.apply("pass")  # seat 1
    state.apply("bid 4")  # seat 2: nobody can go higher, seats 3 and 0 never speak
    assert state.phase == "trump" and state.current_player == 2
    assert len(state.hand(2)) == 9
    assert "pass" not in state.legal_labels()


def test_all_four_pass_throws_the_hand_in():
    game, state = deal(DEAL_A, WIDOW_A, dealer=3)
    for seat in (0, 1, 2, 3):
        assert state.current_player == seat
        state.apply("pass")
    assert state.current_player is None and state.phase == "over"
    assert state.legal_labels() == [] and state.tricks() == []
    assert state.scores() == [0, 0, 0, 0]
    r = state.result()
    assert r["outcome"] == "thrown_in" and r["thrown_in"] is True
    assert r["bidder"] is None and r["bid"] is None and r["bidder_points"] is None and r["trump"] is None
    assert r["dealer"] == 3 and r["scores"] == [0, 0, 0, 0]


# --- the widow and the discard --------------------------------------------------------------------


def test_the_bidder_takes_the_widow_and_discards_only_non_trumps():
    game, state = deal(DEAL_A, WIDOW_A)
    for label in ["bid 2", "pass", "pass", "pass"]:
        state.apply(label)
    # 9 cards: his 6 and the widow, the first 3 cards of rest.
    assert state.phase == "trump" and held(state, 1) == cards("AH JH 9H AC KC 8S TD 7D 8D")
    # He holds all four suits (the widow brought the diamonds): any suit may be trump.
    assert sorted(state.legal_labels()) == ["trump C", "trump D", "trump H", "trump S"]
    state.apply("trump H")
    # 3 trumps (AH JH 9H), not more than 6: only non-trumps may go.
    assert state.phase == "discard" and state.current_player == 1
    assert sorted(state.legal_labels()) == sorted(f"discard {c}" for c in "AC KC 8S TD 7D 8D".split())
    with pytest.raises(IllegalActionError):
        state.apply("discard 9H")
    state.apply("discard TD").apply("discard 7D")
    assert state.phase == "discard"
    state.apply("discard 8D")  # back to 6: the discard ends by itself
    assert state.phase == "play" and state.current_player == 1
    assert held(state, 1) == cards(DEAL_A[1])
    # The other undealt cards stay out: nobody else's hand changed.
    assert held(state, 2) == cards(DEAL_A[2]) and held(state, 0) == cards(DEAL_A[0])


def test_exactly_six_trumps_still_discards_only_non_trumps():
    game, state = deal_for("AH KH QH JH TH 9H", "AC KC 7S")
    for label in script(1, 2, "H", ""):
        state.apply(label)
    # Six trumps is not "more than 6": only AC KC 7S may go, and all three must.
    assert sorted(state.legal_labels()) == ["discard 7S", "discard AC", "discard KC"]
    state.apply("discard AC").apply("discard KC")
    assert state.legal_labels() == ["discard 7S"]
    state.apply("discard 7S")
    assert state.phase == "play" and held(state, 1) == cards("AH KH QH JH TH 9H")


def test_seven_trumps_unprotected_trumps_may_go_until_six_remain():
    game, state = deal_for("AH KH QH JH TH AC", "9H 7H 8S")
    for label in script(1, 2, "H", ""):
        state.apply(label)
    # AH KH QH JH TH 9H 7H AC 8S: seven trumps. Any card may go but AH, JH and 7H.
    assert sorted(state.legal_labels()) == sorted(f"discard {c}" for c in "KH QH TH 9H AC 8S".split())
    state.apply("discard AC")
    # Still seven trumps: the same rule.
    assert sorted(state.legal_labels()) == sorted(f"discard {c}" for c in "KH QH TH 9H 8S".split())
    state.apply("discard KH")
    # Now six trumps: only the non-trump 8S.
    assert state.legal_labels() == ["discard 8S"]
    state.apply("discard 8S")
    assert state.phase == "play" and held(state, 1) == cards("AH QH JH TH 9H 7H")
    # All six are trumps: any may lead.
    assert legal_cards(state) == cards("AH QH JH TH 9H 7H")


def test_eight_trumps_never_the_ace_jack_or_seven():
    game, state = deal_for("AH KH QH JH TH 9H", "8H 7H AC")
    for label in ["bid 2", "pass", "pass", "pass"]:
        state.apply(label)
    # He holds hearts and one club only: only those suits may be named.
    assert sorted(state.legal_labels()) == ["trump C", "trump H"]
    with pytest.raises(IllegalActionError):
        state.apply("trump S")
    state.apply("trump H")
    assert sorted(state.legal_labels()) == sorted(f"discard {c}" for c in "KH QH TH 9H 8H AC".split())
    for protected in ("AH", "JH", "7H"):
        with pytest.raises(IllegalActionError):
            state.apply(f"discard {protected}")
    state.apply("discard 8H")  # 7 trumps left: still more than 6
    assert sorted(state.legal_labels()) == sorted(f"discard {c}" for c in "KH QH TH 9H AC".split())
    state.apply("discard 9H")  # 6 trumps: only the club
    assert state.legal_labels() == ["discard AC"]
    state.apply("discard AC")
    assert state.phase == "play" and held(state, 1) == cards("AH KH QH JH TH 7H")


def test_widow_0_trump_only_a_suit_held_and_play_starts_at_once():
    hands = ["7C 8C 9C TC JC QC", "AH KH QH AD KD QD", "7S 8S 9S TS JS QS", "7D 8D 9D TD JD KC"]
    game, state = deal(hands, "", widow=0)
    for label in ["bid 2", "pass", "pass", "pass"]:
        state.apply(label)
    assert state.phase == "trump" and held(state, 1) == cards(hands[1])  # no widow: 6 cards
    assert sorted(state.legal_labels()) == ["trump D", "trump H"]
    for absent in ("C", "S"):
        with pytest.raises(IllegalActionError):
            state.apply(f"trump {absent}")
    state.apply("trump D")
    # No discard phase: the bidder leads at once, a diamond.
    assert state.phase == "play" and state.current_player == 1
    assert legal_cards(state) == cards("AD KD QD")


def test_widow_2_takes_two_and_discards_two():
    hands = ["7C 8C 9C TC JC QC", "AH KH QH AD KD QD", "7S 8S 9S TS JS QS", "7D 8D 9D TD JD KC"]
    # rest: the widow AS KS, then AC (not part of a 2-card widow) and the rest.
    game, state = deal(hands, "AS KS", undealt="AC", widow=2)
    for label in ["pass", "bid 3", "pass", "pass"]:
        state.apply(label)
    assert state.phase == "trump" and state.current_player == 2
    assert held(state, 2) == cards(hands[2] + " AS KS")  # 8 cards, AC not among them
    assert sorted(state.legal_labels()) == ["trump S"]  # spades is all he holds
    state.apply("trump S")
    # 8 trumps: anything but AS, JS and 7S.
    assert legal_cards(state) == cards("KS QS TS 9S 8S")
    state.apply("discard 8S")
    # 7 trumps left (> 6): the same.
    assert legal_cards(state) == cards("KS QS TS 9S")
    state.apply("discard 9S")
    assert state.phase == "play" and state.current_player == 2
    assert held(state, 2) == cards("AS KS QS JS TS 7S")


# --- leading and following -------------------------------------------------------------------------


def test_first_lead_must_be_a_trump_second_lead_anything():
    game, state = to_play(DEAL_A, WIDOW_A)
    assert legal_cards(state) == cards("AH JH 9H")  # not AC KC 8S
    with pytest.raises(IllegalActionError):
        state.apply("play AC")
    play(state, TRICKS_A[0])
    assert state.tricks()[0] == (1, ["AH", "7H", "8H", "TH"], 1)
    # Seat 1 leads again: any of his five cards.
    assert state.current_player == 1 and legal_cards(state) == cards("JH 9H AC KC 8S")


def test_a_bidder_who_is_not_eldest_makes_the_first_lead():
    # Seat 3 bids (dealer 0): he leads, and only his trumps.
    game, state = to_play(DEAL_A, "TD 7D 8D", trump="S", bidder=3, bid=3)
    assert held(state, 3) == cards(DEAL_A[3])
    assert legal_cards(state) == cards("AS KS")
    state.apply("play KS")
    # Seat 0 holds no spades (trump): anything.
    assert state.current_player == 0 and legal_cards(state) == cards(DEAL_A[0])


def test_trump_lead_must_be_answered_with_a_trump():
    game, state = to_play(DEAL_A, WIDOW_A)
    state.apply("play AH")
    assert legal_cards(state) == cards("KH 7H")  # seat 2 holds trumps: one of them
    with pytest.raises(IllegalActionError):
        state.apply("play QC")
    state.apply("play 7H")
    assert legal_cards(state) == cards("QH 8H")  # seat 3
    state.apply("play 8H")
    assert legal_cards(state) == ["TH"]  # seat 0: his only trump
    state.apply("play TH")
    play(state, TRICKS_A[1])
    state.apply("play JH")
    assert legal_cards(state) == ["KH"]  # seat 2's last trump
    state.apply("play KH").apply("play QH")
    # Seat 0 has no trump left: anything.
    assert legal_cards(state) == cards("JD QD KD AD")


def test_plain_lead_follow_or_trump_never_a_third_suit():
    game, state = to_play(DEAL_A, WIDOW_A)
    play(state, TRICKS_A[0])
    state.apply("play AC")
    # Seat 2 (KH QC 7C 9S TS): a club or a trump, not a spade.
    assert legal_cards(state) == cards("KH QC 7C")
    with pytest.raises(IllegalActionError):
        state.apply("play 9S")
    state.apply("play 7C")
    assert legal_cards(state) == cards("QH JC 8C")  # seat 3 likewise
    state.apply("play 8C")
    assert legal_cards(state) == ["9C"]  # seat 0: a club, no trump to add
    state.apply("play 9C")
    play(state, TRICKS_A[2])
    # Trick 4, seat 2 leads TS. Seat 3 follows spades; seat 0 is void: anything.
    state.apply("play TS")
    assert legal_cards(state) == cards("AS KS")
    state.apply("play AS")
    assert legal_cards(state) == cards("QD KD AD")
    state.apply("play QD")
    assert legal_cards(state) == cards("9H 8S")  # seat 1: the spade or the trump, not KC
    state.apply("play 8S")
    # Trick 5, seat 3 leads KS: seat 1 is void in spades, free to trump or not.
    state.apply("play KS").apply("play KD")
    assert legal_cards(state) == cards("9H KC")
    state.apply("play 9H")
    assert legal_cards(state) == ["9S"]
    state.apply("play 9S")
    assert state.tricks()[3][2] == 3 and state.tricks()[4][2] == 1  # AS; the 9H trump beats KS


# --- the four points --------------------------------------------------------------------------------


def test_each_point_to_the_team_that_earns_it():
    game, state = to_play(DEAL_A, WIDOW_A, bid=2)
    for t in TRICKS_A:
        play(state, t)
    assert [(leader, w) for leader, _, w in state.tricks()] == [(1, 1), (1, 1), (1, 2), (2, 3), (3, 1), (1, 1)]
    assert state.current_player is None and state.phase == "over"
    r = state.result()
    # High: seat 1 played AH. Low: seat 2 played 7H (into a lost trick: playing it is enough).
    # Jack: seat 1 led JH and seat 2's KH took it: team 0.
    assert (r["high"], r["low"], r["jack"]) == (1, 0, 0)
    # Game: team 0 took trick 3 only, 7. Team 1: 14 + 4 + 16 + 6 + 10 = 50, plus the discards
    # TD 7D 8D = 10: 60. (Undealt TC 9D QS JS 7S hold 13: 7 + 60 + 13 = 80.)
    assert r["game_points"] == [7, 60] and r["game"] == 1
    # Team 1 bid 2 and won 2: made, 2. Team 0 scores its 2.
    assert r["bidder"] == 1 and r["bid"] == 2 and r["trump"] == "H" and r["dealer"] == 0
    assert r["outcome"] == "made" and r["thrown_in"] is False and r["bidder_points"] == 2
    assert state.scores() == [2, 2, 2, 2] and r["scores"] == [2, 2, 2, 2]


def test_a_discarded_ten_wins_game_and_makes_the_bid():
    game, state = to_play(DEAL_B, WIDOW_B, bid=3)
    play(state, "AH 7H QH JH")  # seat 1: 4 + 2 + 1 = 7 (team 1); High and Jack team 1, Low team 0
    play(state, "9H 8H TH KH")  # seat 1 leads 9H, seat 0's KH wins: 10 + 3 = 13 (team 0)
    play(state, "KC 7C QC 9C")  # seat 0: 3 + 2 = 5 (team 0)
    play(state, "KD 8C 9S JD")  # seat 0 (seats 1, 2 void in diamonds): 3 + 1 = 4 (team 0)
    play(state, "9D 7S KS QD")  # seat 3's QD wins: 3 + 2 = 5 (team 1)
    play(state, "JC JS 8S QS")  # seat 3, the only club: 1 + 1 + 2 = 4 (team 1)
    assert [w for _, _, w in state.tricks()] == [1, 0, 0, 0, 3, 3]
    r = state.result()
    # Tricks: team 0 13 + 5 + 4 = 22, team 1 7 + 5 + 4 = 16: team 0 would win Game, but team 1's
    # discards (TD 7D 8D = 10) count: 26 > 22.
    assert r["game_points"] == [22, 26] and r["game"] == 1
    assert (r["high"], r["low"], r["jack"]) == (1, 0, 1)
    # Team 1: High, Jack, Game = 3 = the bid: made. Team 0: Low = 1.
    assert r["bidder_points"] == 3 and r["outcome"] == "made"
    assert state.scores() == [1, 3, 1, 3]


def test_a_game_tie_gives_game_to_nobody_and_sets_the_bidder():
    # Deal B again, played differently in tricks 3-6.
    game, state = to_play(DEAL_B, WIDOW_B, bid=3)
    play(state, "AH 7H QH JH")  # 7 to team 1
    play(state, "9H 8H TH KH")  # 13 to team 0
    play(state, "KC 7C QC JC")  # seat 0: 3 + 2 + 1 = 6 (team 0)
    play(state, "KD 8C 9S QD")  # seat 0: 3 + 2 = 5 (team 0)
    play(state, "9D 7S KS JD")  # seat 3: 3 + 1 = 4 (team 1)
    play(state, "9C JS 8S QS")  # seat 3, the only club: 1 + 2 = 3 (team 1)
    r = state.result()
    # Team 0: 13 + 6 + 5 = 24. Team 1: 7 + 4 + 3 = 14, + 10 discarded = 24. A tie: nobody.
    assert r["game_points"] == [24, 24] and r["game"] is None
    # Team 1: High and Jack = 2 < 3: set, -3. Team 0: Low, 1.
    assert r["bidder_points"] == 2 and r["outcome"] == "failed"
    assert state.scores() == [1, -3, 1, -3]


def test_jack_won_by_the_partner_and_all_four_on_a_bid_of_4():
    hands = ["TH 9H AD KD QD 7C", "AH JH 7H AC KC QC", "KH AS KS QS JS TS", "QH 8H JC TC 9C 8C"]
    game, state = to_play(hands, "7D 8D 9D", bid=4)  # undealt: 7S 8S 9S TD JD
    play(state, "AH KH 8H 9H")  # seat 1: 4 + 3 = 7
    # Seat 1 leads JH; seat 3 (his partner) must trump with QH and wins over seat 0's TH.
    play(state, "JH AS QH TH")  # seat 3: 1 + 4 + 2 + 10 = 17
    play(state, "8C 7C AC KS")  # seat 3 leads; seat 1 takes it with AC: 4 + 3 = 7
    play(state, "7H QS JC AD")  # seat 1 plays the 7H (Low) and wins: 2 + 1 + 4 = 7
    play(state, "KC JS TC KD")  # seat 1: 3 + 1 + 10 + 3 = 17
    play(state, "QC TS 9C QD")  # seat 1: 2 + 10 + 2 = 14
    assert [w for _, _, w in state.tricks()] == [1, 3, 1, 1, 1, 1]
    r = state.result()
    # Team 1 won every trick: 69 (80 - TD - JD undealt); team 0 none.
    assert r["game_points"] == [0, 69]
    assert (r["high"], r["low"], r["jack"], r["game"]) == (1, 1, 1, 1)
    assert r["bidder_points"] == 4 and r["outcome"] == "made"
    assert state.scores() == [0, 4, 0, 4]


# --- points whose card was not in play: high_low = fixed | in_play ------------------------------------

# AH, JH and 7H are undealt (beyond the widow 7C 8C 9C), as are TC and 7D.
DEAL_C = ["8H 9S 8S 7S 9D 8D", "KH 9H AC KC QC JC", "QH AS KS QS JS TS", "TH AD KD QD JD TD"]
TRICKS_C = ["KH QH TH 8H",  # seat 1: 3 + 2 + 10 = 15
            "AC JS JD 7S",  # seat 1: 4 + 1 + 1 = 6 (nobody else holds a club or a trump)
            "KC QS QD 9D",  # 7
            "QC KS KD 8D",  # 8
            "JC AS AD 8S",  # 9
            "9H TS TD 9S"]  # 20


def _play_c(high_low):
    game, state = to_play(DEAL_C, "7C 8C 9C", undealt="AH JH 7H TC 7D", high_low=high_low)
    assert legal_cards(state) == cards("KH 9H")
    for t in TRICKS_C:
        play(state, t)
    assert [w for _, _, w in state.tricks()] == [1] * 6
    return state


def test_fixed_a_point_whose_card_was_never_dealt_goes_to_nobody():
    state = _play_c("fixed")
    r = state.result()
    # AH, 7H and JH never in play: High, Low and Jack go to nobody, although KH and 8H were played.
    assert (r["high"], r["low"], r["jack"]) == (None, None, None)
    # Game: team 1 took every trick, 65 (80 - AH 4 - JH 1 - TC 10).
    assert r["game_points"] == [0, 65] and r["game"] == 1
    # Team 1 has 1 point on a bid of 2: set.
    assert r["bidder_points"] == 1 and r["outcome"] == "failed"
    assert state.scores() == [0, -2, 0, -2]


def test_in_play_high_and_low_go_to_the_highest_and_lowest_trump_played():
    state = _play_c("in_play")
    r = state.result()
    # Trumps played: KH (seat 1), QH (2), TH (3), 8H (0), 9H (1). High: KH, team 1. Low: 8H, team 0.
    # Jack: JH never played, nobody, under in_play too.
    assert (r["high"], r["low"], r["jack"], r["game"]) == (1, 0, None, 1)
    assert r["bidder_points"] == 2 and r["outcome"] == "made"
    assert state.scores() == [1, 2, 1, 2]


# Widow 0: seven hearts and 7S undealt; seat 1's 9H is the only trump in play.
DEAL_D = ["9C 8C 7C 8D 7D 8S", "9H AC KC QC JC TC", "AD KD QD JD TD 9D", "AS KS QS JS TS 9S"]
TRICKS_D = ["9H 9D 9S 8S", "AC AD AS 9C", "KC KD KS 8C", "QC QD QS 7C", "JC JD JS 8D", "TC TD TS 7D"]


@pytest.mark.parametrize("high_low, high, low, points, scores", [
    ("fixed", None, None, 1, [0, -2, 0, -2]),
    ("in_play", 1, 1, 3, [0, 3, 0, 3]),
])
def test_a_single_trump_played(high_low, high, low, points, scores):
    game, state = to_play(DEAL_D, "", undealt="AH KH QH JH TH 8H 7H 7S", widow=0, high_low=high_low)
    assert legal_cards(state) == ["9H"]  # his only trump must lead
    for t in TRICKS_D:
        play(state, t)
    # Seat 1 wins every trick (the 9H trump, then the top club each time): 60 game points.
    assert [w for _, _, w in state.tricks()] == [1] * 6
    r = state.result()
    # in_play: the 9H is both the highest and the lowest trump played: High and Low to team 1.
    assert (r["high"], r["low"], r["jack"], r["game"]) == (high, low, None, 1)
    assert r["game_points"] == [0, 60] and r["bidder_points"] == points
    assert state.scores() == scores


# --- matches -------------------------------------------------------------------------------------------


def _match_with(totals, deal_hands, widow_cards, bid, tricks, **options):
    game = tricksim.make_game("nesmear", **options)
    m = game.new_match(seed=0, dealer=0, totals=totals)
    m.state = deal_on(game, deal_hands, widow_cards)
    for label in script(1, bid, "H", widow_cards):
        m.apply(label)
    for t in tricks:
        for c in t.split():
            m.apply(f"play {c}")
    return m


TRICKS_B_TIE = ["AH 7H QH JH", "9H 8H TH KH", "KC 7C QC JC", "KD 8C 9S QD", "9D 7S KS JD", "9C JS 8S QS"]


def test_both_teams_reach_15_the_bidder_who_made_it_wins():
    # Deal A: team 1 (bidder) makes 2, team 0 scores 2. From 14 / 13 both reach 15; team 0 ends
    # higher (16) but the bidding team made its bid: it wins.
    m = _match_with([14, 13, 14, 13], DEAL_A, WIDOW_A, 2, TRICKS_A)
    assert m.totals == [16, 15, 16, 15]
    assert m.is_over() and sorted(m.winners) == [1, 3]


def test_a_set_bidder_lets_the_other_team_go_out():
    # Deal B tie: team 1 bid 3 and won 2: -3; team 0 scores Low: 14 + 1 = 15.
    m = _match_with([14, 14, 14, 14], DEAL_B, WIDOW_B, 3, TRICKS_B_TIE)
    assert m.totals == [15, 11, 15, 11]
    assert m.is_over() and sorted(m.winners) == [0, 2]


def test_go_out_any_lets_the_non_bidding_team_win():
    m = _match_with([13, 0, 13, 0], DEAL_A, WIDOW_A, 2, TRICKS_A)
    assert m.totals == [15, 2, 15, 2] and m.is_over() and sorted(m.winners) == [0, 2]


def test_bid_only_the_non_bidding_team_stops_at_14():
    # The same hand with go_out = bid_only: team 0's 13 + 2 stops at 14, and the match goes on.
    m = _match_with([13, 0, 13, 0], DEAL_A, WIDOW_A, 2, TRICKS_A, go_out="bid_only")
    assert m.totals == [14, 2, 14, 2]
    assert not m.is_over() and m.winners == []
    # The deal passes left: dealer 1, seat 2 speaks first.
    assert m.dealer == 1 and m.state.phase == "bidding" and m.state.current_player == 2
    # A set bidder does not help either: Deal B tie gives team 0 Low (14 + 1, capped).
    m = _match_with([14, 14, 14, 14], DEAL_B, WIDOW_B, 3, TRICKS_B_TIE, go_out="bid_only")
    assert m.totals == [14, 11, 14, 11] and not m.is_over()


def test_bid_only_the_bidding_team_goes_out_by_making_its_bid():
    m = _match_with([13, 13, 13, 13], DEAL_A, WIDOW_A, 2, TRICKS_A, go_out="bid_only")
    # Team 1 makes 2: 15, out. Team 0 (not bidding) stops at 14.
    assert m.totals == [14, 15, 14, 15]
    assert m.is_over() and sorted(m.winners) == [1, 3]


def test_a_thrown_in_hand_keeps_the_dealer():
    game = tricksim.make_game("nesmear")
    m = game.new_match(seed=0, dealer=2, totals=[3, 5, 3, 5])
    m.state = deal_on(game, DEAL_A, WIDOW_A, dealer=2)
    for _ in range(4):
        m.apply("pass")  # seats 3, 0, 1, 2
    assert not m.is_over() and m.totals == [3, 5, 3, 5]
    # A new hand, dealt by the same seat 2: seat 3 bids first.
    assert m.dealer == 2
    assert m.state.phase == "bidding" and m.state.current_player == 3
    assert len(m.state.hand(0)) == 6


@pytest.mark.parametrize("go_out", ["any", "bid_only"])
def test_a_random_match_ends_with_a_winning_team(go_out):
    # "pass" is action id 0, so always taking the first legal action would throw every hand in,
    # and fully random bids of 4 drive both totals down for ever. So: eldest bids 2, the others
    # pass, and every later action is random.
    game = tricksim.make_game("nesmear", go_out=go_out)
    m = game.new_match(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(200_000):
        if m.is_over():
            break
        labels = m.state.legal_labels()
        if m.state.phase == "bidding":
            m.apply("bid 2" if "bid 2" in labels else "pass")
        else:
            m.apply(labels[int(rng.integers(len(labels)))])
    assert m.is_over()
    assert sorted(m.winners) in ([0, 2], [1, 3])
    assert m.totals[0] == m.totals[2] and m.totals[1] == m.totals[3]
    w = m.winners[0]
    assert m.totals[w] >= 15
    if go_out == "bid_only":
        assert m.totals[1 - w % 2] <= 14  # the other team never passes target - 1
        last = m.finished[-1].result()
        assert last["bidder"] % 2 == w % 2 and last["outcome"] == "made"


# --- bad input --------------------------------------------------------------------------------------


def test_illegal_actions_raise_and_change_nothing():
    game, state = deal(DEAL_A, WIDOW_A)
    state.apply("bid 3")
    before, history, labels = state.array.copy(), list(state.history), state.legal_labels()
    for bad in ["bid 2", "bid 3", "play TH", "trump H", "discard TH", "done", "bid 5"]:
        with pytest.raises(IllegalActionError) as err:
            state.apply(bad)
        assert "pass" in str(err.value)  # the message lists what is legal
        assert np.array_equal(state.array, before) and state.history == history
    assert state.legal_labels() == labels and state.current_player == 2
    with pytest.raises(ValueError):
        state.apply("bid 3x")
    # In play: a plain card on the first lead, and another seat's card.
    game, state = to_play(DEAL_A, WIDOW_A)
    before = state.array.copy()
    for bad in ["play AC", "play KH", "play TD", "pass", "discard 8S"]:
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    assert np.array_equal(state.array, before) and held(state, 1) == cards(DEAL_A[1])


def test_a_clone_is_independent():
    game, state = to_play(DEAL_A, WIDOW_A)
    copy = state.clone()
    play(copy, TRICKS_A[0])
    assert state.tricks() == [] and legal_cards(state) == cards("AH JH 9H")
    assert copy.tricks()[0][2] == 1


@pytest.mark.parametrize("bad", [dict(widow=4), dict(widow=-1), dict(players=5), dict(high_low="x"),
                                 dict(go_out="x")])
def test_bad_options_raise_option_error(bad):
    with pytest.raises(OptionError):
        tricksim.make_game("nesmear", **bad)


def test_good_options_are_accepted():
    for good in [dict(widow=0), dict(widow=2), dict(high_low="in_play"), dict(go_out="bid_only"),
                 dict(target=21)]:
        game = tricksim.make_game("nesmear", **good)
        key, value = next(iter(good.items()))
        assert game.options[key] == value


def test_bad_deals_raise_value_error():
    game = tricksim.make_game("nesmear")
    rest = "TD 7D 8D TC 9D QS JS 7S"
    game.deal(hands=DEAL_A, rest=rest)  # the good deal is accepted
    with pytest.raises(ValueError):  # a 5-card hand (seat 3's KS moved into rest)
        game.deal(hands=DEAL_A[:3] + ["QH 8H JC 8C AS"], rest=rest + " KS")
    with pytest.raises(ValueError):  # the 6 of hearts (in place of TH) is not in the 32-card deck
        game.deal(hands=["6H JD QD KD AD 9C"] + DEAL_A[1:], rest=rest)
    with pytest.raises(ValueError):  # AH twice (seat 0 and seat 1), TH nowhere
        game.deal(hands=["AH JD QD KD AD 9C"] + DEAL_A[1:], rest=rest)
    with pytest.raises(ValueError):  # a card twice in rest
        game.deal(hands=DEAL_A, rest="TD 7D 8D TC 9D QS JS JS")
