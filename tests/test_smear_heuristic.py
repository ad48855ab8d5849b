"""The heuristic agent of Shmear and NE Smear (``tricksim.agents.smear``; docs/rules.md, Shmear and NE Smear).

* ``check_hands`` (numba) plays random deals with a random mix of heuristic and random seats under
  every option set that changes the phases, and checks that every action the agent chooses is
  legal and that every hand ends; with ``hide`` it also changes, at random decisions, what the
  seat to act cannot see (other seats' hands and discards, the stock, the undealt NE cards) and
  requires the same action.
* ``play_hands`` with every seat random gives ``play_random_hands``'s rows.
* Worked decisions, each checked by hand.
* The agent beats random seats clearly.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import pytest

import tricksim
from tricksim.agents import smear as H
from tricksim.agents.kinds import HEURISTIC, RANDOM
from tricksim.agents.loops import play_hands, play_random_hands
from tricksim.cards import CardSet, card_label, parse_card
from tricksim.sim import actions as A
from tricksim.sim import smear as K
from tricksim.sim.kernels import RNG_SIZE, bit, new_rng, nth_card, popcount, rand_below, seed_stream

OPTION_SETS = ([("shmear", dict(teams=teams, may_trump=may_trump)) for teams in (3, 2) for may_trump in (False, True)]
               + [("nesmear", dict(widow=widow, high_low=high_low))
                  for widow in range(4) for high_low in ("fixed", "in_play")])
IDS = [f"{name}-" + ",".join(f"{k}={v}" for k, v in options.items()) for name, options in OPTION_SETS]
HANDS_PER_SET = 2_000  # 24,000 deals over the twelve option sets
SEED = 17

# --- the checking loop -------------------------------------------------------------------------


@nb.njit(cache=False)
def _swap(s, c1, c2, rest_count):
    """Swap hidden cards ``c1`` and ``c2`` between their places (hands, discards, stock), and in
    the hidden slots that name them: the deal's undealt order and the NE widow taken."""
    both = bit(c1) | bit(c2)
    for slot in range(K.HANDS, K.DISCARDS + K.MAX_PLAYERS):
        if popcount(s[slot] & both) == 1:
            s[slot] ^= both
    if popcount(s[K.STOCK] & both) == 1:
        s[K.STOCK] ^= both
    if popcount(s[K.WIDOW_TAKEN] & both) == 1:
        s[K.WIDOW_TAKEN] ^= both
    for i in range(rest_count):
        c = s[K.REST_ORDER + i]
        s[K.REST_ORDER + i] = c2 if c == c1 else (c1 if c == c2 else c)


@nb.njit(cache=False)
def _hide(s, me, rng, rest_count):
    """Move cards ``me`` cannot see between the places it cannot see, keeping every place's size.
    Returns True if anything moved."""
    hidden = s[K.STOCK]
    for p in range(s[K.NUM_PLAYERS]):
        if p != me:
            hidden |= s[K.HANDS + p] | s[K.DISCARDS + p]
    n = popcount(hidden)
    if n < 2:
        return False
    moved = False
    for _ in range(6):
        c1 = nth_card(hidden, rand_below(rng, n))
        c2 = nth_card(hidden, rand_below(rng, n))
        place1, place2 = -1, -1
        for slot in range(K.HANDS, K.DISCARDS + K.MAX_PLAYERS):
            place1 = slot if (s[slot] >> c1) & 1 else place1
            place2 = slot if (s[slot] >> c2) & 1 else place2
        if place1 != place2:  # (the stock is place -1)
            _swap(s, c1, c2, rest_count)
            moved = True
    return moved


def _make_checker(fingerprint):
    """The checker, cached by numba; ``fingerprint`` ties the cache to the engine (conftest.py)."""

    @nb.njit(cache=True)
    def check_hands(seed, count, options, params, hide, stats):
        """Hands ``0 .. count - 1`` of ``seed``, each with a random non-empty set of heuristic seats.
        Returns ``(error, hand, action)``: error 1 an illegal action, 2 a hand that does not end,
        3 an action that changed with what the seat cannot see. ``stats`` counts [0] heuristic
        decisions, [1] hidden-information comparisons, [2] of them with cards moved, [3] hands,
        [4 + phase] heuristic decisions per phase."""
        if count < 0:  # never true: makes the engine's fingerprint part of the cache key
            return fingerprint, -1, 0
        s = np.empty(K.STATE_SIZE, np.int64)
        twin = np.empty(K.STATE_SIZE, np.int64)
        deal_rng = np.zeros(RNG_SIZE, np.uint64)
        rng = np.zeros(RNG_SIZE, np.uint64)
        twin_rng = np.zeros(RNG_SIZE, np.uint64)
        mix = np.zeros(RNG_SIZE, np.uint64)
        players = options[K.O_PLAYERS]
        rest_count = popcount(K.DECK_MASKS[options[K.O_VARIANT]]) - K.HAND_SIZE * players
        for hand in range(count):
            K.deal_random(s, seed, hand, hand % players, options, deal_rng)
            seed_stream(rng, seed, hand, 1)
            seed_stream(mix, seed, hand, 2)
            heuristic = 1 + rand_below(mix, (1 << players) - 1)  # bit per heuristic seat
            steps = 0
            while s[K.TO_ACT] >= 0:
                steps += 1
                if steps > 200:
                    return 2, hand, 0
                seat = s[K.TO_ACT]
                if (heuristic >> seat) & 1 == 0:
                    K.random_step(s, rng)
                    continue
                stats[0] += 1
                stats[4 + s[K.PHASE]] += 1
                if hide and rand_below(mix, 3) == 0:
                    twin[:] = s
                    twin_rng[:] = rng
                    stats[2] += _hide(twin, seat, mix, rest_count)
                    stats[1] += 1
                    if H.act(twin, params, twin_rng) != H.act(s, params, rng.copy()):
                        return 3, hand, H.act(s, params, rng.copy())
                a = H.act(s, params, rng)
                words, cards, kind = K.legal(s)
                if a < A.CARD_BASE:
                    ok = (words >> a) & 1 != 0
                else:
                    ok = (a - A.CARD_BASE) // 54 == kind and (cards >> ((a - A.CARD_BASE) % 54)) & 1 != 0
                if not ok:
                    return 1, hand, a
                K.step(s, a)
            stats[3] += 1
        return 0, -1, 0

    return check_hands


@pytest.fixture(scope="module")
def checker(engine_fingerprint):
    return _make_checker(engine_fingerprint)


def _run(checker, name, options, hide):
    game = tricksim.make_game(name, **options)
    stats = np.zeros(4 + len(K.PHASE_NAMES), dtype=np.int64)
    error, hand, action = checker(SEED, HANDS_PER_SET, game.option_array, H.DEFAULTS, hide, stats)
    where = f"{name} {options}: hand {hand} (new_hand({SEED}, {hand % game.players}, {hand}))"
    label = A.action_label(int(action)) if 0 <= action < A.NUM_ACTIONS else str(action)
    assert error != 1, f"illegal action {label} in {where}"
    assert error != 2, f"the hand did not end in {where}"
    assert error != 3, f"the action ({label}) changed with what the seat cannot see in {where}"
    assert error == 0 and stats[3] == HANDS_PER_SET
    return stats


@pytest.mark.parametrize("name,options", OPTION_SETS, ids=IDS)
def test_every_action_is_legal_and_every_hand_ends(checker, name, options):
    stats = _run(checker, name, options, hide=False)
    phases = {"bidding", "trump", "play"} | ({"draw", "discard"} if name == "shmear" else set())
    phases |= {"discard"} if options.get("widow", 0) > 0 else set()
    acted = {K.PHASE_NAMES[k] for k in range(len(K.PHASE_NAMES)) if stats[4 + k] > 0}
    assert acted == phases and stats[0] > 10 * HANDS_PER_SET


@pytest.mark.parametrize("name,options", OPTION_SETS, ids=IDS)
def test_actions_do_not_depend_on_what_the_seat_cannot_see(checker, name, options):
    stats = _run(checker, name, options, hide=True)
    assert stats[1] > 2 * HANDS_PER_SET and stats[2] > 0.8 * stats[1]


# --- the batch loop ----------------------------------------------------------------------------


def _play(name, options, kinds, hands, seed=3, first=0):
    game = tricksim.make_game(name, **options)
    out = np.empty((hands, len(K.RECORD) + len(H.FEATURES)), dtype=np.int64)
    params = np.tile(H.DEFAULTS, (game.players, 1))
    play_hands(game, seed, first, np.array(kinds, dtype=np.int64), params, out)
    return game, out


@pytest.mark.parametrize("name,options", [OPTION_SETS[0], OPTION_SETS[3], OPTION_SETS[4], OPTION_SETS[11]],
                         ids=[IDS[0], IDS[3], IDS[4], IDS[11]])
def test_random_seats_give_the_random_loops_rows(name, options):
    game = tricksim.make_game(name, **options)
    game, out = _play(name, options, [RANDOM] * game.players, 20_000, seed=9, first=777)
    raw = np.empty((20_000, len(K.RECORD)), dtype=np.int64)
    play_random_hands(game, 9, 777, raw)
    np.testing.assert_array_equal(out[:, :len(K.RECORD)], raw)


def test_features_describe_the_bidders_dealt_hand():
    game, out = _play("shmear", {}, [HEURISTIC] * 6, 3000)
    col = {name: i for i, name in enumerate(K.RECORD + H.FEATURES)}
    thrown = out[:, col["outcome"]] == K.OUTCOME_THROWN_IN
    assert thrown.any() and (out[thrown][:, len(K.RECORD):] == -1).all()
    for i in np.flatnonzero(~thrown)[:200]:  # the bidder's hand as new_hand deals it
        row = out[i]
        dealt = game.new_hand(seed=3, dealer=i % 6, hand=int(i)).hand(int(row[col["bidder"]])).labels()
        t = "CDHS"[row[col["trump"]]]
        left = {"C": "S", "S": "C", "D": "H", "H": "D"}[t]
        trumps = {c for c in dealt if c[-1] == t or c == "LJ" or c == "J" + left}
        assert row[col["trumps"]] == len(trumps)
        assert row[col["top_trumps"]] == len(trumps & {r + t for r in "AKQJ"})
        assert row[col["point_cards"]] == len(set(dealt) & {"A" + t, "2" + t, "J" + t, "J" + left, "LJ"})
        assert row[col["tens"]] == sum(c[0] == "T" for c in dealt)


# --- worked decisions ----------------------------------------------------------------------------
#
# Shmear: dealer 0 unless said otherwise, so seat 1 is eldest and a trick led by seat 1 is played
# 1 2 3 4 5 0; teams 0+3, 1+4, 2+5. NE Smear: teams 0+2, 1+3.

DECKS = {"shmear": [card_label(c) for c in range(53)], "nesmear": [r + s for s in "CDHS" for r in "789TJQKA"]}


def deal(name, hands, first="", dealer=0, **options):
    """A deal where seat ``p`` holds ``hands[p]`` (a dict; the other seats get the free cards in deck
    order); ``rest`` is ``first`` (the top of the stock, the NE widow) then the other free cards."""
    game = tricksim.make_game(name, **options)
    used = {parse_card(c) for c in " ".join(hands.values()).split() + first.split()}
    free = [c for c in DECKS[name] if parse_card(c) not in used]
    seats = []
    for p in range(game.players):
        seats.append(hands[p] if p in hands else " ".join(free[:6]))
        free = free if p in hands else free[6:]
    return game.deal(hands=seats, rest=" ".join(first.split() + free), dealer=dealer)


def apply(state, labels):
    for label in labels.split(","):
        state.apply(label.strip())
    return state


def choice(state):
    """The heuristic's action for the seat to act, as a label."""
    return A.action_label(int(H.act(state.array, H.DEFAULTS, new_rng())))


def let_act(state, phase):
    """The heuristic acts while the hand is in ``phase``; the labels it chose."""
    labels = []
    while state.phase == phase:
        labels.append(choice(state))
        state.apply(labels[-1])
    return labels


def shmear_play(hands, trump="H", **options):
    """Seat 1 bids 3 alone and names ``trump``; nobody draws; the dealer (seat 0) throws the stock
    back: the state at seat 1's first lead."""
    state = apply(deal("shmear", dict(enumerate(hands)), **options),
                  f"bid 3, pass, pass, pass, pass, pass, trump {trump}")
    apply(state, "done, done, done, done, done")
    for c in state.hand(0).labels():
        if c not in hands[0].split():
            state.apply(f"discard {c}")
    assert state.phase == "play" and state.current_player == 1
    return state


def test_shmear_bids_a_strong_hand_and_names_its_suit():
    # Eldest holds A K Q J of hearts, the Jick (JD) and the 2H: High, Low, Jack and Jick are his
    # (1 each; nothing can catch his Jack or Jick), the joker comes to his team with 0.23 + 3 x 0.15
    # = 0.68 (a partner holds it, or his three top trumps catch it), and Game with 0.94 (log-odds
    # -1.55 + 0.55 x (6 trumps + 3 top) - 0.6 for the third team): 5.6 points. He bids 3, the
    # lowest bid: he scores the points he takes, not his bid (with three teams, `bid_jump` 0); won
    # at 3, he names hearts. With two teams he bids his estimate, 5.
    state = deal("shmear", {0: "3C 4C 5C 6C 7C 8C", 1: "AH KH QH JH JD 2H"})
    assert choice(state) == "bid 3"
    apply(state, "bid 3, pass, pass, pass, pass, pass")
    assert choice(state) == "trump H"
    assert choice(deal("shmear", {0: "3C 4C 5C 6C 7C 8C", 1: "AH KH QH JH JD 2H"}, teams=2)) == "bid 5"


def test_shmear_passes_a_weak_hand():
    # No A, 2, J or joker of any suit: High, Low, Jack, Jick and joker come only through a
    # partner (0.23 each) and Game at most 0.2: about 1.4 points, short of the lowest bid, 3.
    assert choice(deal("shmear", {1: "3C 5D 7S 9H 4C 6D"})) == "pass"


def test_shmear_dealer_bids_just_enough():
    # Eldest bids 3, the others pass. The dealer holds A K Q J 2 of spades, about 5.4 points, but
    # he speaks last: he bids 4, the least that wins the auction.
    state = deal("shmear", {0: "AS KS QS JS 2S 9D", 1: "3C 4C 5C 6C 7C 8C", 2: "3D 4D 5D 6D 7D 8D",
                            3: "3H 4H 5H 6H 7H 8H", 4: "9C TC QC TD QD KD", 5: "9H TH QH KH KC 2D"})
    apply(state, "bid 3, pass, pass, pass, pass")
    assert choice(state) == "bid 4"


def test_shmear_draw_throws_plain_cards_shortest_suit_first_keeps_guarded_tens():
    # Hearts trump. Eldest (4H 9H 3C 7C AS AD) throws his singleton aces AD and AS (a fresh card
    # may be a trump), then the 3C: the third discard ends his turn. Seat 2 (4D 5H TC AC 3S 8H)
    # throws 3S and 4D (singletons, lowest first), then the AC, and keeps TC, which his AC guards
    # while it is in hand.
    state = deal("shmear", {0: "5C 6C 7D 6D 9C TD", 1: "4H 9H 3C 7C AS AD", 2: "4D 5H TC AC 3S 8H",
                            3: "3D 5D 5S 6S 7S 8S", 4: "9D QC JC 4C 2C 8C", 5: "9S TS QS KS KC KD"})
    apply(state, "bid 3, pass, pass, pass, pass, pass, trump H")
    labels = []
    while state.current_player in (1, 2):
        labels.append(choice(state))
        state.apply(labels[-1])
    assert labels == ["discard AD", "discard AS", "discard 3C", "discard 3S", "discard 4D", "discard AC"]


def test_shmear_dealer_keeps_point_cards_and_high_trumps_then_aces():
    # Hearts trump, nobody draws; the dealer takes the stock (23 cards in hand) and ends with all
    # his trumps, AH JH 5H 2H (three point cards among them), then the plain aces AC AS, over
    # TC, KC and the rest.
    hands = {0: "AH 5H 9C 8S 2D 3D", 1: "KH QH 7C 6C 3C 4C", 2: "JD TH 9H 8H 7H 6H", 3: "4H 3H LJ 5D 6D 7D",
             4: "AD KD QD 8D 9D 4S", 5: "KS QS JS 5S 6S 7S"}
    state = deal("shmear", hands, first="JH 2H AC TC AS")
    apply(state, "bid 3, pass, pass, pass, pass, pass, trump H, done, done, done, done, done")
    let_act(state, "discard")
    assert state.hand(0) == CardSet("AH JH 5H 2H AC AS")


def test_ne_bidder_names_his_suit_and_banks_a_plain_ten():
    # Widow 3: TC 8C 9S. Seat 1 names hearts (AH KH 9H 7H: High, Low and the Jack's guards) and
    # throws TC first (his discards count for his Game), then the lowest, 8C and 8D; he keeps his
    # trumps, AS and 9S.
    state = deal("nesmear", {0: "9C JC QC KC AC 7C", 1: "AH KH 7H 9H AS 8D", 2: "7D 9D TD JD QD KD",
                             3: "AD 7S JS QS KS TS"}, first="TC 8C 9S")
    apply(state, "bid 2, pass, pass, pass")
    assert choice(state) == "trump H"
    state.apply("trump H")
    assert let_act(state, "discard") == ["discard TC", "discard 8C", "discard 8D"]


def test_ne_bidder_banks_plain_faces_before_low_cards():
    # Widow 3: TC QC 9S. Seat 1 names hearts and throws TC, then his plain faces, the KS and the QC
    # (his discards count for his Game; kept, they mostly fall to an ace or a trump), before the
    # low 8D and 9S.
    state = deal("nesmear", {0: "7C 8C 9C JC KC AC", 1: "AH KH 7H 9H KS 8D", 2: "7D 9D TD JD QD KD",
                             3: "AD 7S JS QS AS TS"}, first="TC QC 9S")
    apply(state, "bid 2, pass, pass, pass, trump H")
    assert let_act(state, "discard") == ["discard TC", "discard KS", "discard QC"]


# Every trump (hearts: A K Q J, JD, T .. 2, LJ) is in a hand, so that the dealer keeps his own six.
PLAY = ["3C 4C 5C TC 8S 9D", "AH KH 4H AC 9S 3D", "2H 6H 3H KC TS 2C",
        "JD 7H 9H QC AS 4D", "5H TH QH 6C 6S 5D", "LJ 8H JH 7C 7S KD"]


def test_bidder_leads_his_master_trump_from_four_trumps_or_with_two_partners():
    # Hearts trump; the bidder holds AH KH 4H 9H: no trump beats the AH, and it pulls the others'.
    hands = list(PLAY)
    hands[1], hands[3] = "AH KH 4H AC 9S 9H", "JD 7H 3D QC AS 4D"
    assert choice(shmear_play(hands)) == "play AH"
    # With only AH KH 4H and one partner he keeps the AH for the Jack, Jick, joker or ten it may
    # catch later and leads the 4H (three trumps: the low one draws the others); with two partners
    # (teams=2) he leads the AH, which they feed their point cards.
    assert choice(shmear_play(PLAY)) == "play 4H"
    assert choice(shmear_play(PLAY, teams=2)) == "play AH"


def test_bidder_with_the_master_trump_and_one_other_keeps_both_at_the_first_lead():
    # The bidder holds AH 4H and four side cards: at the first lead he leads the AC, which no
    # opponent can beat, and keeps the AH to catch a point card later (leading the AH from two or
    # three trumps cost 0.04 a deal). Every seat follows clubs; from the second lead on his master
    # trump leads as before.
    hands = list(PLAY)
    hands[1], hands[2] = "AH 4H AC 9S 3D 2C", "2H 6H 3H KC TS KH"
    state = shmear_play(hands)
    assert choice(state) == "play AC"
    state.apply("play AC")
    while state.current_player != 1:
        state.apply(choice(state))
    assert choice(state) == "play AH"


def test_bidder_does_not_lead_the_jack_into_higher_trumps():
    # The bidder holds JH 6H 4H while AH, KH and QH are out: he leads the low 4H to draw them
    # (three trumps), never the JH.
    hands = ["3C 4C 5C TC 8S 9D", "JH 4H 6H AC 9S 3D", "2H AS 3H KC TS 2C",
             "JD 7H 9H QC 6S 5D", "5H TH 3S 6C KH QH", "LJ 8H AH 7C 7S KD"]
    assert choice(shmear_play(hands)) == "play 4H"


def test_last_seat_wins_with_the_cheapest_winning_card():
    # s1 leads 5C; s2 9C wins so far (team 2); s3 3C, s4 4C, s5 6C. The dealer, last, holds QC KC
    # 2C: QC and KC both win; he takes it with the QC and keeps the KC.
    hands = ["QC KC 2C 8S 9D 3D", "AH KH 4H 5C 9S 4D", "9C 6H 2H TS 3H 5D",
             "3C 7H JD QH AS 9H", "4C TH 5H 6S 7D 8D", "6C 8H JH 7S KD LJ"]
    state = apply(shmear_play(hands), "play 5C, play 9C, play 3C, play 4C, play 6C")
    assert choice(state) == "play QC"


def test_last_seat_keeps_a_jack_nothing_can_catch_and_wins_with_the_ten():
    # s1 leads 5C; s2 TC wins so far (team 2); s3 3C, s4 4C, s5 6C. The dealer, last and void in
    # clubs, holds AH KH QH JH TH: every trump wins. The JH, with every trump above it in his own
    # hand, wins whatever trick it is played to later; he takes this one with the TH (20 for Game).
    hands = ["AH KH QH JH TH 9D", "5C 9S 4D 2H 3H 4H", "TC 6H 7H 3D 5D TS",
             "3C JD 8H QD AS 9H", "4C 5H 6S 7D 8D LJ", "6C 2C 7S KD 3S KC"]
    state = apply(shmear_play(hands), "play 5C, play TC, play 3C, play 4C, play 6C")
    assert choice(state) == "play TH"


def test_last_seat_feeds_a_ten_to_the_partner_winning_and_does_not_overtake_him():
    # s1 leads 5C; s3, the dealer's partner, wins with KC and nobody plays after the dealer. The
    # dealer holds AC TC 2C: the AC would overtake his partner; he feeds him the TC (10 for Game).
    hands = ["AC TC 2C 8S 9D 3D", "AH KH 4H 5C 9S 4D", "3C 6H 2H TS 3H 5D",
             "KC 7H JD QH AS 9H", "4C TH 5H 6S 7D 8D", "6C 8H JH 7S KD LJ"]
    state = apply(shmear_play(hands), "play 5C, play 3C, play KC, play 4C, play 6C")
    assert choice(state) == "play TC"


def test_last_seat_gives_the_jack_to_the_partner_winning_with_the_ace():
    # Trump led (s1 4H); s3, the dealer's partner, plays AH and wins. The dealer must follow with
    # a trump, JH or 5H: the JH goes to his partner's trick (the Jack's point for his team).
    hands = ["JH 5H 8S 9D 3D 7S", "KH QH 4H 5C 9S 4D", "6H 3C 9H TS 3H 5D",
             "AH 7H JD QS AS 6D", "TH 4C 3S 6S 7D 8D", "8H 6C LJ KS KD 2H"]
    state = apply(shmear_play(hands), "play 4H, play 6H, play AH, play TH, play 8H")
    assert choice(state) == "play JH"


def test_partner_who_may_be_beaten_is_covered_with_a_jack_that_may_fall_later():
    # s1 leads 5C; s2 wins so far with KC, s3 3C, s4 4C. The AC is unseen: the dealer, last, may
    # beat it. s2's partner s5, out of clubs, holds JH 8H: the dealer has shown no club void, so
    # neither trump can be beaten in this trick. The trick is worth 3 for Game, less than
    # win_value, but the AH KH QH are unseen and may catch the Jack later: he covers with the JH,
    # which banks its own point.
    hands = ["AC 2C 9D TD 5S 6S", "AH KH QH 5C 9S 4D", "KC 2H 3H 4H 5H 6H",
             "3C 7H 9H JD TH 6D", "4C LJ QD KD 7S 8S", "JH 8H 3S 4S 7D 8D"]
    state = apply(shmear_play(hands), "play 5C, play KC, play 3C, play 4C")
    assert choice(state) == "play JH"


def test_partners_sure_trick_banks_a_jack_that_may_fall_later_even_overtaking():
    # s1 leads 5C; s2 wins with the AC, s3 3C, s4 4C; the dealer, last, has shown no club void, so
    # s2's trick is sure. His partner s5, out of clubs, holds JH 8H 3S 4S 7D 8D: the JH would
    # overtake the AC, but nobody after him can beat it here, while the AH KH QH are unseen and may
    # catch it later. He plays it to the sure trick, which banks its point, instead of a low card.
    hands = ["KC 2C 9D TD 5S 6S", "AH KH QH 5C 9S 4D", "AC 2H 3H 4H 5H 6H",
             "3C 7H 9H JD TH 6D", "4C LJ QD KD 7S 8S", "JH 8H 3S 4S 7D 8D"]
    state = apply(shmear_play(hands), "play 5C, play AC, play 3C, play 4C")
    assert choice(state) == "play JH"


# Hearts trump; tricks 1-3 pull AH KH QH (s1 leads them), trick 4 is s1's 9D. Every trump but the
# TH, held by s2 for the last trick, has then been played but the Jack, with s0 (first test) or s1.
ENDGAME = "play AH, play 2H, play 8H, play LJ, play AC, play 4H, play KH, play 3H, play 9H, play QD, play KC, " \
          "play 5H, play QH, play 7H, play JD, play 6D, play JC, play 6H, play 9D, play 7D, play 2D, play 5D, " \
          "play 2S, play 8D"


def test_last_seat_keeps_the_master_jack_for_the_last_trick_where_the_ten_falls():
    # Trick 5: s1 leads 5S and the others follow with spades; the dealer, void in spades, holds JH
    # and 3C. The JH, no trump above it out, would win a trick of no value; kept, it wins the last
    # trick, where s2 must play the TH: he throws the 3C.
    hands = ["JH 4H 5H 6H 3C 8D", "AH KH QH 9D 5S 4D", "2H 3H 7H TH 6S 7D",
             "8H 9H JD 7S 2D 3D", "LJ 8S 9S 5D 6D QD", "2S 3S 4S KC JC AC"]
    state = apply(shmear_play(hands), ENDGAME + ", play 5S, play 6S, play 7S, play 8S, play 3S")
    assert choice(state) == "play 3C"


def test_bidder_with_two_cards_leads_the_side_card_and_keeps_the_master_jack():
    # As above, but the bidder s1 holds the JH: with JH and 4D left, he leads the 4D; the JH takes
    # the last trick and the TH with it.
    hands = ["5S 4H 5H 6H 3C 8D", "AH KH QH 9D JH 4D", "2H 3H 7H TH 6S 7D",
             "8H 9H JD 7S 2D 3D", "LJ 8S 9S 5D 6D QD", "2S 3S 4S KC JC AC"]
    state = apply(shmear_play(hands), ENDGAME)
    assert choice(state) == "play 4D"


def test_last_seat_with_two_cards_ruffs_a_trick_of_no_value_with_a_trump_the_ten_would_catch():
    # As in the tests above, but the dealer played his JH on the AH and holds 4H and 3C: the 4H wins
    # trick 5 (worth nothing, below ruff_value) surely; kept, it would fall to the TH still out in
    # the last trick: it ruffs now.
    hands = ["JH 4H 5H 6H 3C 8D", "AH KH QH 9D 5S 4D", "2H 3H 7H TH 6S 7D",
             "8H 9H JD 7S 2D 3D", "LJ 8S 9S 5D 6D QD", "2S 3S 4S KC JC AC"]
    endgame = ENDGAME.replace("play AC, play 4H", "play AC, play JH")
    state = apply(shmear_play(hands), endgame + ", play 5S, play 6S, play 7S, play 8S, play 3S")
    assert choice(state) == "play 4H"


@pytest.mark.parametrize("trump, expected", [("TH", "play TH"), ("9H", "play 3D")])
def test_last_seat_ruffs_a_trick_below_the_ruff_value_with_the_ten_of_trumps(trump, expected):
    # Hearts trump. s1 leads KC; s2 QC, s3 5C, s4 6C, s5 7C: a trick of 5 game points, below
    # ruff_value (8). The dealer, last and out of clubs, wins it with the TH, which banks its own
    # ten for Game; the 9H stays for a trick that counts, and he throws the 3D. (Every trump is
    # dealt, so that the dealer may throw the stock back.)
    other = "9H" if trump == "TH" else "TH"
    hands = [f"{trump} 8S 9S 3D 4D 5D", "KC AH KH 2H 9C 2S", "QC 6H 7H 5H 7D 3S",
             f"5C 8H JH 8D {other} 4S", "6C QH TD JD 5S LJ", "7C 3H 4H QD KD 6S"]
    state = apply(shmear_play(hands), "play KC, play QC, play 5C, play 6C, play 7C")
    assert choice(state) == expected


@pytest.mark.parametrize("options, expected", [({"may_trump": True}, "play LJ"), ({}, "play LJ"),
                                              ({"teams": 2}, "play AH")])
def test_with_may_trump_a_sure_winner_the_trick_is_not_worth_is_kept(options, expected):
    # Hearts trump. Trick 1: the bidder s1 leads 5H; s2 must follow with AH or LJ. The AH wins
    # surely but is not worth a trick of no points while the Jack, Jick and ten of hearts are out.
    # With may_trump, kept it may trump any later trick that counts, and thrown as the cheaper card
    # it would take this one all the same: the joker goes, and s2's partner s5 takes the trick with
    # the KH (the joker's point with it). Without, with one partner, the joker goes too: the AH is
    # the master trump, sure of a trick later, and the joker may be caught (``_spares_master``);
    # with two partners the cheaper card goes: the AH.
    hands = ["QH TS TD AS AD 9D", "5H 6H 7H 8H 9H 4C", "AH LJ 3C JS 8S 2S",
             "JH JD 2H 3D 4D 5D", "TH 3H 6C 8C 9C JC", "KH 4H 7C KC 3S 4S"]
    state = apply(shmear_play(hands, **options), "play 5H")
    assert choice(state) == expected


@pytest.mark.parametrize("options, expected", [({}, "play LJ"), ({"may_trump": True}, "play QH"),
                                              ({"teams": 2}, "play QH")])
def test_a_follower_gives_away_a_joker_that_may_be_caught_and_keeps_his_master_trump(options, expected):
    # Hearts trump, every trump dealt. Trick 1: the bidder s1 leads AH, the others follow 3H to 7H.
    # Trick 2: s1 leads KH; s2 must follow with QH or LJ and can win with neither. The QH is now the
    # master trump, sure to win a trick later, while the joker, the lowest trump, may be caught by
    # the eight hearts still out: with one partner and without may_trump the joker goes. With
    # may_trump (it may trump any later trick to bank itself) or two partners (who may hold the
    # trump above it) the cheaper QH goes, as before.
    hands = ["7H 8S 9S 2D 3D 5D", "AH KH 9D 5S 4D 3C", "QH LJ 3H 7D 8C 9C",
             "4H 8H JD 7S 2S 6D", "5H 9H TH 6C 4S 3S", "6H JH 2H KC JC AC"]
    state = apply(shmear_play(hands, **options), "play AH, play 3H, play 4H, play 5H, play 6H, play 7H, play KH")
    assert choice(state) == expected


@pytest.mark.parametrize("played, expected", [("AD KD", "KS"), ("", "QD")])
def test_a_card_given_away_counts_only_the_cards_above_it_still_unseen(played, expected):
    # Shmear, hearts trump: a follower gives away QD or KS (the AS unseen). With the AD and KD
    # played the QD is the top diamond and is kept, as the ace was; with them unseen the QD goes.
    row = K.SHMEAR * 4 + "CDHS".index("H")
    unseen = sum(bit(parse_card(c)) for c in DECKS["shmear"] if c not in ["QD", "KS"] + played.split())
    assert card_label(H._throw(bit(parse_card("QD")) | bit(parse_card("KS")), row, unseen)) == expected


NE_HANDS = {0: "KH QH 8S 9S 7D 8D", 1: "AH 8C JC QC TS 7S", 2: "7C 9H JS QS KS AS", 3: "9C TC 7H 8H TD JD"}


@pytest.mark.parametrize("third, win_value, expected", [("9C", None, "play 7D"), ("TC", None, "play KH"),
                                                     ("TC", 16, "play 7D")])
def test_ne_top_trump_only_for_a_trick_worth_it(third, win_value, expected):
    # Widow 0, hearts trump. Trick 1: s1 AH, s2 9H, s3 7H, s0 QH. Trick 2: s1 8C, s2 7C, then s3
    # (s1's partner) 9C or TC; s0, last and out of clubs, holds KH 8S 9S 7D 8D. On a pointless
    # trick he keeps his K of trumps and throws the 7D; at ne_win_value 10 the TC in it (10 for
    # Game) is worth the KH; at Shmear's win_value (16) a lone ten is not.
    state = apply(deal("nesmear", NE_HANDS, widow=0), "bid 2, pass, pass, pass, trump H")
    apply(state, f"play AH, play 9H, play 7H, play QH, play 8C, play 7C, play {third}")
    params = H.DEFAULTS.copy()
    if win_value is not None:
        params[H.NE_WIN_VALUE] = win_value
    assert A.action_label(int(H.act(state.array, params, new_rng()))) == expected


def test_ne_master_jack_is_kept_for_a_trick_where_the_ten_of_trumps_may_fall():
    # Widow 0, hearts trump. Trick 1: s1 AH, s2 KH, s3 QH, s0 8H: the JH s0 holds is now the
    # highest trump out. Trick 2: s1 8C, s2 7C, s3 9C, worth nothing; s0, last and out of clubs,
    # could win it only with the JH. The JH is safe whatever trick it goes to, and the TH is still
    # out (s3's): he keeps it for a trick where the ten may fall and throws the 7D.
    hands = {0: "JH 8H 7D 8D 9S KS", 1: "AH 8C JC QC TD 7S", 2: "KH 7C JS QS AS 9D", 3: "QH TH 9C TC AD JD"}
    state = apply(deal("nesmear", hands, widow=0), "bid 2, pass, pass, pass, trump H")
    apply(state, "play AH, play KH, play QH, play 8H, play 8C, play 7C, play 9C")
    assert choice(state) == "play 7D"


def test_ne_master_jack_is_not_fed_to_a_partner_while_the_ten_of_trumps_is_out():
    # Widow 0, hearts trump. Trick 1: s1 AH, s2 7H, s3 KH, s0 8H. Trick 2: s1 8C, s2 (s0's
    # partner) ruffs with QH, now the highest trump, s3 9C; s0 is last, out of clubs, and his
    # partner's trick is sure. His JH would go to it safely, but it is safe anyway, and the TH is
    # still out (s3's): he keeps the Jack for a trick where the ten may fall and feeds another card.
    hands = {0: "JH 8H 7D 8D 9S KS", 1: "AH 8C JC QC 7S 8S", 2: "QH 7H JS QS AS 9D", 3: "KH TH 9H 9C TC AD"}
    state = apply(deal("nesmear", hands, widow=0), "bid 2, pass, pass, pass, trump H")
    apply(state, "play AH, play 7H, play KH, play 8H, play 8C, play QH, play 9C")
    assert choice(state) == "play KS"


def test_ne_top_trump_wins_a_trick_worth_a_ruff_once_nothing_is_left_to_catch():
    # Widow 0, hearts trump. Trick 1: s1 AH, s2 9H, s3 7H, s0 TH: the Jack is s0's own and the ten
    # is played, so no trump kept could catch anything. Trick 2: s1 8C, s2 7C, then s3 (s1's
    # partner) AC, 4 for Game; s0, last and out of clubs, holds KH QH JH 7D 8D. A top trump (and
    # the Jack, safe behind it) would be kept only to win a later trick: the trick needs only
    # ne_ruff_value (4), not ne_win_value (10). He takes it with the KH (the Jack wins anywhere).
    hands = {0: "KH QH JH TH 7D 8D", 1: "AH 8C JC QC TS 7S", 2: "7C 9H JS QS KS AS", 3: "9C AC 7H 8H TD JD"}
    state = apply(deal("nesmear", hands, widow=0), "bid 2, pass, pass, pass, trump H")
    apply(state, "play AH, play 9H, play 7H, play TH, play 8C, play 7C, play AC")
    assert choice(state) == "play KH"


def test_ne_bidder_without_the_master_trump_leads_his_queen_which_the_jack_and_ten_fall_under():
    # Widow 0, s1 bids and names hearts holding QH 9H 7H without the AH (s3 has it). With three
    # trumps he leads one to draw the others out: the QH rather than the 7H, as a Jack or ten of
    # hearts an opponent must play to it falls to him unless the AH or KH is played.
    hands = {0: "TH 9C 8C TC JC KC", 1: "QH 9H 7H 9D QC 8S", 2: "JH 8H AD KD 7C AS", 3: "AH KH JD TS 9S KS"}
    state = apply(deal("nesmear", hands, widow=0), "bid 2, pass, pass, pass, trump H")
    assert choice(state) == "play QH"


@pytest.mark.parametrize("low_trumps, expected", [(None, "play QH"), (3, "play 8S")])
def test_ne_bidder_without_the_master_trump_draws_from_two_trumps(low_trumps, expected):
    # Widow 0, hearts trump; the AH, JH and TH are undealt. Trick 1: s1, the bidder, leads 9H and
    # takes it (s2 7H, s3 7D, s0 8H). Trick 2: he holds KH QH 9D QC 8S, the AH unseen above his
    # trumps: from two trumps (ne_lead_low_trumps) he leads the QH to draw the others out; from
    # three (Shmear's lead_low_trumps) he would lead a side card, the 8S, his cheapest.
    hands = {0: "8H 9C 8C TC JC KC", 1: "KH QH 9H 9D QC 8S", 2: "7H AD KD 7C AS QS", 3: "JD TS 9S KS 8D 7D"}
    state = apply(deal("nesmear", hands, widow=0), "bid 2, pass, pass, pass, trump H")
    apply(state, "play 9H, play 7H, play 7D, play 8H")
    params = H.DEFAULTS.copy()
    if low_trumps is not None:
        params[H.NE_LEAD_LOW_TRUMPS] = low_trumps
    assert A.action_label(int(H.act(state.array, params, new_rng()))) == expected


def test_ne_master_trump_is_not_spent_on_a_pointless_trick_when_every_card_would_win_it():
    # Widow 0, hearts trump. Trick 1: s1 KH, s2 9H, s3 8H, s0 7H. Trick 2: s1 leads the 7D, worth
    # nothing; s2 must follow with AD or KD or trump with his AH. Every one of them beats the 7D,
    # but only the AH for sure (s3 may ruff a diamond), and a top trump is worth only a trick of
    # win_value while the Jack and ten of hearts are out: he throws the KD, his cheapest card, and
    # keeps the AH. (Spending the master trump because every card beats cost 0.09 a deal.)
    hands = {0: "7H 9C 8C TC JC KC", 1: "KH 7D 9D QC 8S 7S", 2: "AH 9H AD KD 7C AS", 3: "QH 8H JD TS 9S KS"}
    state = apply(deal("nesmear", hands, widow=0), "bid 2, pass, pass, pass, trump H")
    apply(state, "play KH, play 9H, play 8H, play 7H, play 7D")
    assert choice(state) == "play KD"


# --- strength ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, margin", [("shmear", 0.7), ("nesmear", 0.5)])
def test_heuristic_seat_beats_random_seats(name, margin):
    # On the same 4,000 deals: seat k's mean score when it alone is heuristic, minus its mean when
    # every seat is random, averaged over k. Measured (seed 5, 20,000 deals): Shmear +1.38 points a
    # hand (teams of 3: +1.19), NE Smear +1.05 (widow 0: +1.04); the margins are about half.
    deals = 4_000
    game = tricksim.make_game(name)
    n = game.players
    score = K.SCORE_COLUMN
    _, base = _play(name, {}, [RANDOM] * n, deals, seed=5)
    gain = np.zeros(deals)
    for k in range(n):
        _, out = _play(name, {}, [HEURISTIC if p == k else RANDOM for p in range(n)], deals, seed=5)
        gain += (out[:, score + k] - base[:, score + k]) / n
    standard_error = gain.std() / np.sqrt(deals)
    assert gain.mean() > margin and gain.mean() > 4 * standard_error


@pytest.mark.parametrize("name, options, margin", [("shmear", {}, 0.1), ("shmear", {"teams": 2}, 0.2),
                                                    ("nesmear", {}, -0.2), ("nesmear", {"widow": 0}, -0.2),
                                                    ("nesmear", {"high_low": "in_play"}, -0.35)])
def test_bid_margin_reads_the_rules(name, options, margin):
    # bid_margin 0.1, partner_margin 0.1 per partner beyond the first (two teams of three: two
    # partners), ne_margin -0.3 in NE Smear. Measured against the rule without the adjustment
    # (compare, 150,000 deals, seed 45): teams=2 +0.020 [+0.013, +0.027] a deal; NE Smear (20,000
    # deals, seed 41) +0.34 [+0.31, +0.36], widow 0 +0.21 [+0.18, +0.23]; in_play_margin -0.15 with
    # high_low = in_play (20,000 deals, seed 61) +0.078 [+0.060, +0.096].
    state = tricksim.make_game(name, **options).new_hand(seed=1, dealer=0)
    assert H.bid_margin(state.array, H.DEFAULTS) == pytest.approx(margin)


def test_ne_top_bid_takes_a_margin_while_3_is_open_and_less_over_an_opponents_3():
    # NE Smear, dealer 0, teams 0+2 and 1+3. Eldest (seat 1), 3 still open: 4 needs a worth of
    # 4 + ne_top_margin. Over seat 1's 3, its opponent seat 2 needs 4 - ne_overcall, its partner
    # seat 3 and the dealer, who passes the hand on with no overcall, 4. Shmear: its top bid.
    state = deal("nesmear", {})
    top, margin, overcall = 4.0, H.DEFAULTS[H.NE_TOP_MARGIN], H.DEFAULTS[H.NE_OVERCALL]
    assert margin > 0 and overcall > 0
    assert H.top_line(state.array, 1, 2, H.DEFAULTS) == pytest.approx(top + margin)
    apply(state, "bid 3")
    assert H.top_line(state.array, 2, 4, H.DEFAULTS) == pytest.approx(top - overcall)
    apply(state, "pass")
    assert H.top_line(state.array, 3, 4, H.DEFAULTS) == pytest.approx(top)
    apply(state, "pass")
    assert H.top_line(state.array, 0, 4, H.DEFAULTS) == pytest.approx(top)
    shmear = deal("shmear", {})
    assert H.top_line(shmear.array, 1, 3, H.DEFAULTS) == pytest.approx(float(H.MAX_BID[0]))


# --- the chance of being beaten and the strength now ----------------------------------------------


def test_beat_chance_counts_the_unseen_cards_a_later_opponent_may_hold():
    # NE Smear, widow 0, hearts trump; trick 1: s1 AH, s2 9H, s3 7H, s0 QH, s1 wins and leads. He
    # has seen 9 cards (his 5 and the trick's 4): each other seat holds each of the 23 unseen ones
    # with 5 / 23. Leading TS, both opponents (s2, s0; s3 is his partner) may beat it with one of the
    # 4 unseen spades above it or, as any seat may trump in NE Smear, one of the 4 unseen trumps.
    state = apply(deal("nesmear", NE_HANDS, widow=0), "bid 2, pass, pass, pass, trump H")
    apply(state, "play AH, play 9H, play 7H, play QH")
    s = state.array
    me = 1
    played = s[K.WON] | s[K.WON + 1] | s[K.TRICK_MASK]
    unseen = K.DECK_MASKS[K.NESMEAR] & ~s[K.HANDS + me] & ~played & ~s[K.DISCARDS + me]
    assert popcount(unseen) == 23
    q = 5 / 23
    above = trump = 1 - (1 - q) ** 4
    beat = above + (1 - above) * trump
    chance = H.beat_chance(s, parse_card("TS"), me, unseen, H.shown_voids(s))
    assert chance == pytest.approx(1 - (1 - beat) ** 2)


def test_beat_chance_is_zero_for_a_card_no_later_opponent_can_beat():
    # Shmear, the bidder's first lead: nothing beats his AH.
    state = shmear_play(PLAY)
    s = state.array
    unseen = K.DECK_MASKS[K.SHMEAR] & ~s[K.HANDS + 1] & ~s[K.DISCARDS + 1]
    assert H.beat_chance(s, parse_card("AH"), 1, unseen, H.shown_voids(s)) == 0.0
    assert H.beat_chance(s, parse_card("KH"), 1, unseen, H.shown_voids(s)) == 0.0  # his own AH is not out
    assert H.beat_chance(s, parse_card("4H"), 1, unseen, H.shown_voids(s)) > 0.0


@pytest.mark.parametrize("variant, is_trump, above, strength", [(K.SHMEAR, True, 0, 16), (K.SHMEAR, True, 14, 2),
                                                                  (K.NESMEAR, True, 7, 2), (K.NESMEAR, True, 1, 14),
                                                                  (K.SHMEAR, False, 0, 4), (K.SHMEAR, False, 1, 2),
                                                                  (K.NESMEAR, False, 3, 0)])
def test_card_strength_counts_the_cards_above_still_out(variant, is_trump, above, strength):
    # A king whose ace is played is as strong as the ace was (the play's tables, ``_best_now``).
    assert H.card_strength(variant, is_trump, above) == strength
