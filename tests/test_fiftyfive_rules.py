"""Worked Fifty-five hands (docs/rules.md), each checked by hand (the golden playthroughs run in test_golden.py).

Unless a test says otherwise: five players, dealer 0, so seat 1 is eldest; seat 1 bids and the
others pass, seat 1 takes the kitty and discards exactly the kitty's five cards (so his hand is
the one dealt), then names trump; seat 1 leads the first trick.
"""

from __future__ import annotations


import numpy as np
import pytest

from tricksim import IllegalActionError
from tricksim.cards import card_label, parse_card
from tricksim.errors import OptionError
from tricksim.sim import fiftyfive as K
from tricksim.sim.fiftyfive_game import FiftyFive

from worked_hands import cards, legal_cards, play

ALL = [card_label(c) for c in range(52)]


def deal(hands, kitty, dealer=0, stock=None, **options):
    """A deal of ``hands`` (seat order) with ``kitty``; the stock is ``stock`` then every other
    card in index order."""
    game = FiftyFive(players=len(hands), **options)
    used = set(" ".join(hands).split()) | set(kitty.split()) | set((stock or "").split())
    rest = kitty.split() + (stock or "").split() + [c for c in ALL if c not in used]
    return game, game.deal(hands=hands, rest=" ".join(rest), dealer=dealer)


def to_play(hands, kitty, trump, bid=10, bidder=1, dealer=0, **options):
    """Deal, let ``bidder`` win the auction at ``bid`` (everyone else passes), discard the
    kitty's own cards and name ``trump``: the state at the first lead."""
    game, state = deal(hands, kitty, dealer, **options)
    n = len(hands)
    for k in range(1, n + 1):
        seat = (dealer + k) % n
        state.apply(f"bid {bid}" if seat == bidder else "pass")
    assert state.current_player == bidder and state.phase == "kitty"
    for c in kitty.split():
        state.apply(f"discard {c}")
    state.apply(f"trump {trump}")
    return game, state


# --- tables ---------------------------------------------------------------------------------------


def test_hearts_are_thirteen_trumps_and_the_ace_of_hearts_is_always_the_third_trump():
    t_h, t_d = 2, 1
    assert bin(int(K.SUIT_MASKS[t_h, t_h])).count("1") == 13  # A♥ is already a heart
    for t in (0, 1, 3):
        assert bin(int(K.SUIT_MASKS[t, t])).count("1") == 14  # 13 of the suit + A♥
        assert bin(int(K.SUIT_MASKS[t, t_h])).count("1") == 12  # hearts without A♥
        assert K.EFFECTIVE[t, parse_card("AH")] == t
    for t in range(4):
        order = sorted(range(52), key=lambda c: -K.POWER[t, c])[:3]
        assert [card_label(c) for c in order] == ["5" + "CDHS"[t], "J" + "CDHS"[t], "AH"]
    # with hearts trumps: 5H JH AH KH
    assert K.POWER[t_h, parse_card("AH")] > K.POWER[t_h, parse_card("KH")]
    # red and black trump orders: KD QD TD (high) but KC QC 2C (black low cards high)
    assert K.POWER[t_d, parse_card("TD")] > K.POWER[t_d, parse_card("2D")]
    assert K.POWER[0, parse_card("2C")] > K.POWER[0, parse_card("TC")]


# --- play: plain orders, following, reneging ---------------------------------------------------


def test_plain_orders_TD_beats_AD_KC_beats_AC_2S_beats_TS():
    # Hearts trumps, so diamonds, clubs and spades are all plain.
    game, state = to_play(
        ["5D 5C 5S 2D 2C", "AD AC TS 7D 7C", "TD KC 2S 8D 8C", "3D 3C 3S 9D 9C", "4D 4C 4S 6D 6C"],
        kitty="KS QS JS KD QD", trump="H")
    # Trick 1, seat 1 leads AD: TD (T of K Q J T .. 2 A) beats 3D 4D 5D and the low AD.
    play(state, "AD TD 3D 4D 5D")
    # Trick 2, seat 2 leads KC: clubs K Q J A 2 .. T, so KC beats 3C 4C 5C and AC.
    play(state, "KC 3C 4C 5C AC")
    # Trick 3, seat 2 leads 2S: spades K Q J A 2 3 .. T, so 2S beats 3S 4S 5S and TS.
    play(state, "2S 3S 4S 5S TS")
    # Trick 4, seat 2 leads 8D: 9D (seat 3) is the highest of 8D 9D 6D 2D 7D.
    play(state, "8D 9D 6D 2D 7D")
    # Trick 5, seat 3 leads 9C: 2C (seat 0) beats 9C 6C 7C 8C (2 is high in black plain suits).
    play(state, "9C 6C 2C 7C 8C")
    assert [w for _, _, w in state.tricks()] == [2, 2, 2, 3, 0]
    # No trump played: 25 points, no bonus. Seat 1 bid 10 and took nothing: a failed bid, -10.
    assert state.scores() == [5, -10, 15, 5, 0]
    assert state.result()["outcome"] == "failed" and state.result()["bidder_points"] == 0


def test_plain_lead_follow_or_trump_never_forced_to_trump():
    game, state = to_play(
        ["AH 2H 3H 4H 5H", "KD 2C 3C 4C 6C", "2D 5S 7C 8C 9C", "3S 7H 8H 9H 6S", "3D 4D 6H TH TC"],
        kitty="KS QS JS AD QD", trump="S")
    state.apply("play KD")  # seat 1 leads a plain diamond
    assert legal_cards(state) == cards("2D 5S")  # seat 2: a diamond or a trump, not a club
    state.apply("play 2D")
    assert legal_cards(state) == cards("3S 7H 8H 9H 6S")  # seat 3 is void: anything, not forced to trump
    state.apply("play 7H")
    assert legal_cards(state) == cards("3D 4D")  # seat 4: diamonds, no trumps to add
    state.apply("play 3D")
    # Seat 0: void in diamonds; A♥ is a trump (spades) and his hearts are plain: any card.
    assert legal_cards(state) == cards("AH 2H 3H 4H 5H")


def test_ace_of_hearts_is_no_heart_when_hearts_are_led():
    game, state = to_play(
        ["AH KS QS JS TS", "7H 2C 3C 4C 6C", "KH 2D 3D 4D 5D", "2S 6S 7S 8S 9S", "TC 9C 8C 7C 5C"],
        kitty="KD QD JD AD 6D", trump="C")
    state.apply("play 7H")
    assert legal_cards(state) == cards("KH")  # seat 2: follows hearts (no trumps)
    state.apply("play KH")
    assert legal_cards(state) == cards("2S 6S 7S 8S 9S")  # seat 3 void, no trumps
    state.apply("play 2S")
    assert legal_cards(state) == cards("TC 9C 8C 7C 5C")  # seat 4: all trumps, void in hearts
    state.apply("play TC")
    # Seat 0 holds A♥ but no heart: A♥ is a trump (the third), so he may play anything.
    assert legal_cards(state) == cards("AH KS QS JS TS")
    state.apply("play AH")
    # A♥ (third trump) beats TC (the lowest club trump): seat 0 wins.
    assert state.tricks()[0][2] == 0


def test_renege_when_the_five_is_led_nothing_may_be_withheld():
    game, state = to_play(
        ["KS QS JS AS 2S", "5D 2C 3C 4C 6C", "JD 7S 8S 9S TS", "AH 7C 8C 9C TC", "2D 3D KH QH JH"],
        kitty="KC QC JC AC 5C", trump="D")
    state.apply("play 5D")  # the best trump: no trump ranks above it
    assert legal_cards(state) == ["JD"]  # the J ranks below the 5: must be played
    state.apply("play JD")
    assert legal_cards(state) == ["AH"]  # A♥ alone, also below the 5: must be played
    state.apply("play AH")
    assert legal_cards(state) == cards("2D 3D")  # ordinary trumps
    state.apply("play 3D")
    assert legal_cards(state) == cards("KS QS JS AS 2S")  # no trump: anything
    state.apply("play 2S")
    assert state.tricks()[0][2] == 1


def test_renege_when_the_jack_is_led():
    game, state = to_play(
        ["KS QS JS AS 2S", "JD 2C 3C 4C 6C", "5D 7S 8S 9S TS", "AH 7C 8C 9C TC", "2D KH QH JH TH"],
        kitty="KC QC JC AC 5C", trump="D")
    state.apply("play JD")
    # Seat 2's only trump is the 5, which ranks above the J led: he may withhold it.
    assert legal_cards(state) == cards("5D 7S 8S 9S TS")
    state.apply("play 7S")
    assert legal_cards(state) == ["AH"]  # A♥ ranks below the J: no renege
    state.apply("play AH")
    assert legal_cards(state) == ["2D"]
    state.apply("play 2D")
    state.apply("play 2S")
    assert state.tricks()[0][2] == 1  # JD wins: 5D was withheld


def test_renege_on_a_low_trump_lead_and_ace_of_hearts_as_only_trump():
    game, state = to_play(
        ["JD 2D KS QS JS", "4D 2C 3C 4C 6C", "AH 7S 8S 9S TS", "5D JH 7C 8C 9C", "3D KH QH TH 9H"],
        kitty="KC QC JC AC 5C", trump="D")
    state.apply("play 4D")
    # Seat 2: A♥ is his only trump and ranks above the 4 led: he may play anything.
    assert legal_cards(state) == cards("AH 7S 8S 9S TS")
    state.apply("play 7S")
    # Seat 3: his only trump is the 5: anything.
    assert legal_cards(state) == cards("5D JH 7C 8C 9C")
    state.apply("play 5D")
    assert legal_cards(state) == ["3D"]
    state.apply("play 3D")
    # Seat 0 holds the J (withholdable) and the 2 (not): he must play a trump, either one.
    assert legal_cards(state) == cards("JD 2D")


# --- scoring ------------------------------------------------------------------------------------


def test_best_trump_bonus_goes_to_a_defender_who_plays_the_five():
    game, state = to_play(
        ["3S 4S 5S 6S QS", "AC KD QD JD TD", "5C 2H 3H 4H 6H", "7S 8S 9S TS 2S", "7H 8H 9H TH KH"],
        kitty="2D 3D 4D 5D 6D", trump="C")
    state.apply("play AC")
    assert legal_cards(state) == cards("5C 2H 3H 4H 6H")  # 5C may be withheld ...
    play(state, "5C 7S 7H 3S")  # ... but he plays it and wins
    play(state, "2H 8S 8H 4S KD")  # 8H beats 2H: seat 4
    play(state, "9H 5S QD 3H 9S")  # seat 4 leads 9H and wins
    play(state, "TH 6S JD 4H TS")
    play(state, "KH QS TD 6H 2S")
    assert [w for _, _, w in state.tricks()] == [2, 4, 4, 4, 4]
    # Seat 2: one trick + the best trump (5C) = 10; seat 4: 4 tricks = 20; total 30 with a trump.
    # Bidder seat 1 bid 10 with 0 points: -10.
    assert state.scores() == [0, -10, 10, 0, 20]
    assert state.result()["best_trump_seat"] == 2


TOP_HEARTS = ["2C 3C 4C 6C 7C", "5H JH AH KH QH", "KC QC JC AC 8C", "KS QS JS AS 2S", "KD QD JD AD 2D"]


def _run_top_hearts(bid):
    game, state = to_play(TOP_HEARTS, kitty="3S 4S 5S 6S 7S", trump="H", bid=bid)
    # Seat 1 leads his five trumps; nobody else holds a heart.
    # Order of play: seats 1, 2, 3, 4, 0. Nobody else holds a trump: anything goes.
    play(state, "5H KC 2S 2D 2C")
    play(state, "JH QC AS AD 3C")
    play(state, "AH JC JS JD 4C")
    play(state, "KH AC QS QD 6C")
    play(state, "QH 8C KS KD 7C")
    assert [w for _, _, w in state.tricks()] == [1] * 5
    return state


def test_all_five_tricks_on_a_25_bid_score_30_not_60():
    state = _run_top_hearts(25)
    # 5 tricks * 5 + 5 for the best trump (5H) = 30, just the points taken.
    assert state.scores() == [0, 30, 0, 0, 0]
    assert state.result()["outcome"] == "made"


def test_60_made_with_all_five_tricks():
    state = _run_top_hearts(60)
    assert state.scores() == [0, 60, 0, 0, 0]


def test_60_failed_with_four_tricks():
    game, state = to_play(
        ["2C 3C 4C 6C 7C", "5H JH AH KH 9C", "KC QC JC AC 8C", "KS QS JS AS 2S", "KD QD JD AD 2D"],
        kitty="3S 4S 5S 6S 7S", trump="H", bid=60)
    play(state, "5H KC 2S 2D 2C")
    play(state, "JH QC AS AD 3C")
    play(state, "AH JC JS JD 4C")
    play(state, "KH AC QS QD 6C")
    play(state, "9C 8C KS KD 7C")  # seat 1 leads 9C, seats 2 and 0 follow with 8C and 7C:
    # clubs plain order K Q J A 2 3 4 5 6 7 8 9 T, so 7C (seat 0) outranks 8C and 9C.
    assert state.tricks()[-1][2] == 0
    # Bidder took 4 tricks + best trump = 25 but bid 60: -60. Seat 0 took the last trick: 5.
    assert state.scores() == [5, -60, 0, 0, 0]
    assert state.result()["outcome"] == "failed" and state.result()["bidder_points"] == 25


# --- the auction ----------------------------------------------------------------------------------

PLAIN_DEAL = ["2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D", "2H 3H 4H 5H 6H", "2S 3S 4S 5S 6S", "7C 8C 9C TC JC"]
BIDS = ["bid 10", "bid 15", "bid 20", "bid 25", "bid 60"]


def test_hold_and_re_raise_duel():
    game, state = deal(PLAIN_DEAL, "7D 8D 9D TD JD")
    assert state.current_player == 1 and sorted(state.legal_labels()) == sorted(BIDS + ["pass"])
    state.apply("bid 15")
    assert sorted(state.legal_labels()) == sorted(["bid 20", "bid 25", "bid 60", "pass"])
    for _ in range(3):
        state.apply("pass")
    # The dealer alone may hold, and may raise.
    assert state.current_player == 0
    assert sorted(state.legal_labels()) == sorted(["bid 20", "bid 25", "bid 60", "hold", "pass"])
    state.apply("hold")
    # The displaced bidder answers: higher, or pass (no hold for him).
    assert state.current_player == 1 and state.phase == "duel"
    assert sorted(state.legal_labels()) == sorted(["bid 20", "bid 25", "bid 60", "pass"])
    state.apply("bid 20")
    assert state.current_player == 0
    assert sorted(state.legal_labels()) == sorted(["bid 25", "bid 60", "hold", "pass"])
    state.apply("bid 25")  # a raise in the duel: seat 1 answers again
    assert state.current_player == 1 and sorted(state.legal_labels()) == ["bid 60", "pass"]
    state.apply("pass")
    assert state.phase == "kitty" and state.current_player == 0
    assert len(state.hand(0)) == 10
    assert state.observe(0)["bid"] == 25 and state.observe(0)["bidder"] == 0


def test_dealer_raise_in_the_first_round_wins_at_once():
    game, state = deal(PLAIN_DEAL, "7D 8D 9D TD JD")
    for a in ["bid 15", "pass", "pass", "pass", "bid 20"]:
        state.apply(a)
    assert state.phase == "kitty" and state.current_player == 0 and state.observe(3)["bid"] == 20


def test_held_60_ends_the_auction_and_dealer_pass_in_duel_gives_it_back():
    game, state = deal(PLAIN_DEAL, "7D 8D 9D TD JD")
    state.apply("bid 60")
    assert state.legal_labels() == ["pass"]  # nothing higher than 60
    for _ in range(3):
        state.apply("pass")
    assert sorted(state.legal_labels()) == ["hold", "pass"]
    state.apply("hold")
    assert state.phase == "kitty" and state.current_player == 0 and state.observe(0)["bid"] == 60

    game, state = deal(PLAIN_DEAL, "7D 8D 9D TD JD")
    for a in ["bid 10", "pass", "pass", "pass", "hold", "bid 15", "pass"]:
        state.apply(a)
    assert state.phase == "kitty" and state.current_player == 1 and state.observe(1)["bid"] == 15


def test_all_pass_dealer_takes_the_lowest_bid():
    game, state = deal(PLAIN_DEAL, "7D 8D 9D TD JD", dealer=2)
    for _ in range(4):
        state.apply("pass")
    assert state.current_player == 2
    assert sorted(state.legal_labels()) == sorted(BIDS + ["pass"])  # nothing to hold
    state.apply("pass")
    assert state.phase == "kitty" and state.current_player == 2 and state.observe(2)["bid"] == 10


def test_all_pass_redeal_throws_the_hand_in():
    game, state = deal(PLAIN_DEAL, "7D 8D 9D TD JD", all_pass="redeal")
    for _ in range(5):
        state.apply("pass")
    assert state.is_terminal() and state.legal_actions() == []
    assert state.scores() == [0] * 5
    r = state.result()
    assert r["outcome"] == "thrown_in" and r["thrown_in"] and r["bidder"] is None


def test_kitty_discards_are_dead_and_private():
    game, state = deal(PLAIN_DEAL, "7D 8D 9D TD JD")
    for a in ["bid 10", "pass", "pass", "pass", "pass"]:
        state.apply(a)
    assert state.observe(1)["kitty"] == sorted(["7D", "8D", "9D", "TD", "JD"], key=parse_card)
    assert state.observe(2)["kitty"] is None
    for c in "2D 3D 4D 5D 6D".split():  # he keeps the kitty, throws his hand
        state.apply(f"discard {c}")
    assert state.legal_labels() == ["trump C", "trump D", "trump H", "trump S"]
    assert len(state.observe(1)["discards"]) == 5 and state.observe(2)["discards"] == []
    state.apply("trump D")
    assert state.phase == "play" and state.current_player == 1
    assert sorted(state.hand(1).labels()) == sorted("7D 8D 9D TD JD".split())


# --- options ----------------------------------------------------------------------------------------


def test_exchange_draws_from_the_stock_in_order():
    hands = ["2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D", "2H 3H 4H 5H 6H"]
    game, state = deal(hands, "7D 8D 9D TD JD", stock="KS QS JS AS", exchange=2)
    for a in ["bid 10", "pass", "pass"]:
        state.apply(a)
    for c in "7D 8D 9D TD JD".split():
        state.apply(f"discard {c}")
    state.apply("trump D")
    # Eldest (seat 1) is the bidder: seat 2 exchanges first, then the dealer.
    assert state.phase == "exchange" and state.current_player == 2
    assert sorted(state.legal_labels()) == sorted(["done"] + [f"discard {c}" for c in hands[2].split()])
    state.apply("discard 2H").apply("done")  # draws KS
    assert sorted(state.hand(2).labels()) == sorted("3H 4H 5H 6H KS".split())
    assert state.current_player == 0
    state.apply("discard 2C").apply("discard 3C")  # the most allowed: ends by itself, draws QS JS
    assert sorted(state.hand(0).labels()) == sorted("4C 5C 6C QS JS".split())
    assert state.phase == "play" and state.current_player == 1
    assert state.observe(0)["discards"] == ["2C", "3C"] and state.observe(1)["discards"] != ["2C", "3C"]


def test_exchange_stops_when_the_stock_runs_out():
    # 9 players: 45 cards dealt, 5 in the kitty, 2 in the stock.
    suits = [f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA"]
    hands = [" ".join(suits[5 * i:5 * i + 5]) for i in range(9)]
    kitty = " ".join(suits[45:50])
    game, state = deal(hands, kitty, exchange=3)
    state.apply("bid 10")
    for _ in range(8):
        state.apply("pass")
    for c in kitty.split():
        state.apply(f"discard {c}")
    state.apply("trump S")
    assert state.current_player == 2
    state.apply(f"discard {hands[2].split()[0]}")
    state.apply(f"discard {hands[2].split()[1]}")  # 2 = the stock's size: ends by itself
    assert len(state.hand(2)) == 5
    assert state.phase == "play" and state.current_player == 1  # nobody else can exchange


def test_first_lead_bidder():
    game, state = to_play(PLAIN_DEAL, "7D 8D 9D TD JD", trump="D", bidder=3, first_lead="bidder")
    assert state.phase == "play" and state.current_player == 3


def test_teams_pool_their_points():
    # Four players, teams = 2: seats 0+2 and 1+3. Trump spades; seat 1 bids 15.
    game, state = to_play(
        ["2H 3H 4H 6H 7H", "5S 2C 3C 4C 6C", "KD QD JD TD 9D", "KC QC JC 8H 9H"],
        kitty="AD 2D 3D 4D 5D", trump="S", bid=15, teams=2)
    play(state, "5S KD 8H 2H")  # seat 1 wins with the best trump: 5 + 5
    play(state, "2C QD KC 3H")  # KC (seat 3) tops clubs
    play(state, "QC 4H 3C JD")
    play(state, "JC 6H 4C TD")
    play(state, "9H 7H 6C 9D")  # 9H beats 7H
    assert [w for _, _, w in state.tricks()] == [1, 3, 3, 3, 3]
    # Side 1+3: 10 + 20 = 30 >= 15: made, 30 each; side 0+2: nothing.
    assert state.scores() == [0, 30, 0, 30]


def test_options_are_checked():
    assert FiftyFive(bid_values="10 15 20 25 60").options["bid_values"] == (10, 15, 20, 25, 60)
    assert FiftyFive(bid_values=[5, 30]).options["bid_values"] == (5, 30)
    for bad in [dict(players=10), dict(players=1), dict(teams=2, players=5), dict(exchange=4),
                dict(bid_values="10 10"), dict(bid_values="10 45"), dict(all_pass="forced"),
                dict(first_lead="dealer"), dict(target=0), dict(hands=10)]:
        with pytest.raises(OptionError):
            FiftyFive(**bad)


# --- the checked boundary ---------------------------------------------------------------------------


def test_illegal_actions_raise_and_change_nothing():
    game, state = deal(PLAIN_DEAL, "7D 8D 9D TD JD")
    state.apply("bid 15")
    before, history = state.array.copy(), list(state.history)
    for bad in ["hold", "bid 10", "bid 15", "play 2H", "discard 2H", "trump C", "done"]:
        with pytest.raises(IllegalActionError) as err:
            state.apply(bad)
        assert "seat 2" in str(err.value) and "pass" in str(err.value)
        assert np.array_equal(state.array, before) and state.history == history
    with pytest.raises(ValueError):
        state.apply("bid 17x")
    game, state = to_play(PLAIN_DEAL, "7D 8D 9D TD JD", trump="D")
    before = state.array.copy()
    for bad in ["play 2C", "play AS", "pass", "discard 2D"]:
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    assert np.array_equal(state.array, before)


def test_bad_deals_are_refused():
    game = FiftyFive()
    with pytest.raises(ValueError):
        game.deal(hands=PLAIN_DEAL, rest="7D 8D 9D TD JD")  # rest must be all 27 other cards
    with pytest.raises(ValueError):
        game.deal(hands=PLAIN_DEAL[:4], rest=" ".join(ALL[:32]))


# --- matches (docs/rules.md, Fifty-five: Match) -------------------------------------------------------

CROSSING = ["6C TD 8H 9H TH", "5S JS AS 2C 3C", "KC 4D 5D 6D 7D", "4C 8D 2H 3H 4H", "5C 9D 5H 6H 7H"]


def _crossing_match(totals, bid=20, target=55):
    game = FiftyFive(target=target)
    m = game.new_match(seed=0, dealer=0, totals=totals)
    used = set(" ".join(CROSSING).split()) | set("QD KD AD 2D 3D".split())
    m.state = game.deal(hands=CROSSING, rest=" ".join("QD KD AD 2D 3D".split() + [c for c in ALL if c not in used]),
                        dealer=0)
    for a in [f"bid {bid}", "pass", "pass", "pass", "pass"] + [f"discard {c}" for c in "QD KD AD 2D 3D".split()]:
        m.apply(a)
    m.apply("trump S")
    for trick in ["5S 7D 2H 5H 8H",  # seat 1: 5 + best trump 5 = 10
                  "2C KC 4C 5C 6C",  # seat 2: KC tops clubs, 5
                  "4D 8D 9D TD JS",  # seat 1 trumps: 15
                  "AS 5D 3H 6H 9H",  # seat 1: 20, reaches his bid
                  "3C 6D 4H 7H TH"]:  # seat 1: the only club, 25
        for c in trick.split():
            m.apply(f"play {c}")
    return m


def test_two_players_cross_the_target_the_first_to_reach_wins():
    # Before: seat 1 (bidder, bid 20) 45, seat 2 50. Seat 1's raw points would reach 55 after
    # trick 1 (45 + 10), but a bidder's points count only once they reach his bid: trick 4.
    # Seat 2 reaches 55 on trick 2 and goes out first, although seat 1 ends higher (45 + 25 = 70).
    m = _crossing_match([0, 45, 50, 0, 0])
    assert m.totals == [0, 70, 55, 0, 0]
    assert m.is_over() and m.winners == [2]


def test_bidder_goes_out_on_the_trick_that_makes_his_bid():
    # Seat 2 needs 10 (45 + 5 on trick 2 is only 50); seat 1 at 40 + 20 on trick 4 = 60.
    m = _crossing_match([0, 40, 45, 0, 0])
    assert m.totals == [0, 65, 50, 0, 0] and m.winners == [1]


def test_a_failed_bidder_cannot_go_out():
    # Seat 1 bids 60 from 50: his 25 points (50 + 10 after trick 1) never count, and he loses 60.
    m = _crossing_match([0, 50, 0, 0, 0], bid=60)
    assert m.totals == [0, -10, 5, 0, 0] and not m.is_over()


def test_match_goes_on_below_the_target():
    m = _crossing_match([0, 0, 0, 0, 0])
    assert not m.is_over() and m.winners == [] and m.dealer == 1 and m.state.current_player == 2


def test_a_random_match_ends_with_a_winner_at_the_target():
    # Everybody passes (the dealer takes 10) and plays at random; the non-bidders' points only
    # grow, so somebody reaches 30 within a few hands.
    game = FiftyFive(players=4, teams=2, target=30)
    m = game.new_match(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(10_000):
        if m.is_over():
            break
        labels = m.state.legal_labels()
        m.apply("pass" if "pass" in labels else labels[int(rng.integers(len(labels)))])
    assert m.is_over() and m.winners and all(m.totals[w] >= 30 for w in m.winners)
    assert set(m.winners) in ({0, 2}, {1, 3})
    assert m.totals[0] == m.totals[2] and m.totals[1] == m.totals[3]
