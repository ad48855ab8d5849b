"""The heuristic Fifty-five agent (``tricksim/agents/fiftyfive.py``).

* ``run_hands`` (numba) plays random deals of every option set that changes the phases, with
  heuristic and random seats mixed, and checks each heuristic action against ``legal`` and that
  every hand ends; it keeps copies of the state at some heuristic decisions.
* At those decisions, what the seat to act cannot see is dealt again (other hands, their discards,
  the kitty before it is taken, the stock and its order): the action must not change.
* With every seat random, ``play_hands`` gives exactly ``play_random_hands``'s rows; the feature
  columns are checked against the deals.
* Worked positions, each checked by hand in its comment (default parameters).
* On the same deals, a heuristic seat among random ones scores clearly more than a random seat.
"""

from __future__ import annotations

import random

import numba as nb
import numpy as np
import pytest

from tricksim.agents import fiftyfive as H
from tricksim.agents.kinds import HEURISTIC, RANDOM
from tricksim.agents.loops import play_hands, play_random_hands
from tricksim.agents.random import uniform_action
from tricksim.cards import card_label, cards_of, mask_of, parse_cards
from tricksim.sim import actions as A
from tricksim.sim import fiftyfive as K
from tricksim.sim.fiftyfive_game import FiftyFive
from tricksim.sim.kernels import RNG_SIZE, new_rng, seed_stream

OPTION_SETS = [
    dict(players=5),
    dict(players=2, exchange=3, bid_values="5 10 20 30"),
    dict(players=3, exchange=2, first_lead="bidder"),
    dict(players=4, teams=2),
    dict(players=6, teams=3, all_pass="redeal"),
    dict(players=7, all_pass="redeal", first_lead="bidder", exchange=1),
    dict(players=8, teams=4, exchange=1, bid_values="15 20 25 60"),
    dict(players=9, exchange=3),
]
HANDS_PER_SET = 3000  # 24,000 deals in all
SNAPSHOTS = 400  # decisions kept per option set for the hidden-information test
ALL = [card_label(c) for c in range(52)]


def _make_runner(fingerprint):
    """The checker, cached by numba; ``fingerprint`` ties the cache to the engine (conftest.py)."""

    @nb.njit(cache=True)
    def run_hands(seed, count, options, params, every, snaps):
        """Hands ``0 .. count - 1`` of ``seed``: even hands all heuristic, odd hands heuristic at
        alternate seats. Returns ``(error, hand, snapshots)``: error 1 if a heuristic action is not
        legal, 2 if a hand does not end within 400 actions. Every ``every``-th heuristic decision
        is copied to ``snaps`` while there is room."""
        if count < 0:  # never true: makes the engine's fingerprint part of the cache key
            return fingerprint, -1, 0
        n = options[K.O_PLAYERS]
        s = np.zeros(K.STATE_SIZE, np.int64)
        deal_rng = np.zeros(RNG_SIZE, np.uint64)
        rng = np.zeros(RNG_SIZE, np.uint64)
        taken = 0
        decisions = 0
        for hand in range(count):
            K.deal_random(s, seed, hand, hand % n, options, deal_rng)
            seed_stream(rng, seed, hand, 1)
            for _ in range(400):
                seat = s[K.TO_ACT]
                if seat < 0:
                    break
                words, cards, kind = K.legal(s)
                if hand % 2 == 0 or (seat + hand // 2) % 2 == 0:
                    decisions += 1
                    if decisions % every == 0 and taken < snaps.shape[0]:
                        snaps[taken] = s
                        taken += 1
                    a = H.act(s, params, rng)
                    if a < A.CARD_BASE:
                        ok = a >= 0 and (words >> a) & 1 == 1
                    else:
                        c = (a - A.CARD_BASE) % 54
                        ok = (a - A.CARD_BASE) // 54 == kind and (cards >> c) & 1 == 1
                    if not ok:
                        return 1, hand, taken
                else:
                    a = uniform_action(words, cards, kind, rng)
                K.step(s, a)
            if s[K.TO_ACT] >= 0:
                return 2, hand, taken
        return 0, count, taken

    return run_hands


@pytest.fixture(scope="module")
def runs(engine_fingerprint):
    """Per option set: its game and the snapshots kept, after checking every action was legal."""
    run_hands = _make_runner(engine_fingerprint)
    out = []
    for i, options in enumerate(OPTION_SETS):
        game = FiftyFive(**options)
        snaps = np.zeros((SNAPSHOTS, K.STATE_SIZE), np.int64)
        error, hand, taken = run_hands(100 + i, HANDS_PER_SET, game.option_array, H.DEFAULTS, 11, snaps)
        out.append((options, game, error, hand, snaps[:taken]))
    return out


def test_every_action_is_legal_and_every_hand_ends(runs):
    for options, _, error, hand, snaps in runs:
        assert error == 0, f"{options}: {['', 'illegal action', 'hand did not end'][error]} in hand {hand}"
        assert len(snaps) == SNAPSHOTS, options
    phases = {int(s[K.PHASE]) for *_, snaps in runs for s in snaps}
    assert phases == {K.BIDDING, K.DUEL, K.DISCARDING, K.TRUMPING, K.EXCHANGING, K.PLAYING}


# --- hidden information -------------------------------------------------------------------------


def _deal_hidden_again(s, rnd):
    """``s`` with what the seat to act cannot see dealt again: the other seats' hands and discards,
    the kitty (until taken) and the stock, each keeping its size; the stock's drawing order and
    the kitty the bidder took (for another seat) follow."""
    t = s.copy()
    me, n = int(s[K.TO_ACT]), int(s[K.NUM_PLAYERS])
    others = [p for p in range(n) if p != me]
    slots = [K.HANDS + p for p in others] + [K.DISCARDS + p for p in others] + [K.KITTY, K.STOCK]
    pool = [c for slot in slots for c in cards_of(int(s[slot]))]
    rnd.shuffle(pool)
    i = 0
    for slot in slots:
        k = len(cards_of(int(s[slot])))
        t[slot] = mask_of(pool[i:i + k])
        i += k
    stock = cards_of(int(t[K.STOCK]))
    rnd.shuffle(stock)
    start = K.STOCK_ORDER + int(s[K.STOCK_NEXT])
    t[start:start + len(stock)] = stock
    if s[K.KITTY_TAKEN] != 0 and s[K.BIDDER] != me:
        t[K.KITTY_TAKEN] = mask_of(rnd.sample(pool, K.KITTY_SIZE))
    return t


def test_the_agent_acts_alike_in_worlds_its_seat_cannot_tell_apart(runs):
    rnd = random.Random(5)
    changed = 0
    for options, _, _, _, snaps in runs:
        for s in snaps:
            rng = new_rng()
            seed_stream(rng, 1, 2, 3)
            expected = H.act(s, H.DEFAULTS, rng.copy())
            for _ in range(3):
                t = _deal_hidden_again(s, rnd)
                changed += not np.array_equal(t, s)
                got = H.act(t, H.DEFAULTS, rng.copy())
                assert got == expected, (options, A.action_label(expected), A.action_label(got))
    assert changed > 0.9 * 3 * SNAPSHOTS * len(OPTION_SETS)


# --- the batch loop -----------------------------------------------------------------------------


def _play(options, kinds, hands=3000, seed=7, first=100, params=None):
    game = FiftyFive(**options)
    n = game.players
    p = np.tile(H.DEFAULTS, (n, 1)) if params is None else params
    out = np.empty((hands, len(K.RECORD) + len(H.FEATURES)), np.int64)
    play_hands(game, seed, first, np.array(kinds, np.int64), p, out)
    return game, out


@pytest.mark.parametrize("options", [OPTION_SETS[0], OPTION_SETS[2], OPTION_SETS[4]])
def test_random_seats_give_the_rows_of_play_random_hands(options):
    game, out = _play(options, [RANDOM] * options["players"])
    raw = np.empty((len(out), len(K.RECORD)), np.int64)
    play_random_hands(game, 7, 100, raw)
    assert np.array_equal(out[:, :len(K.RECORD)], raw)


def test_features_describe_the_bidders_dealt_hand():
    game, out = _play(dict(players=6), [HEURISTIC, RANDOM] * 3, hands=500)
    s = np.zeros(K.STATE_SIZE, np.int64)
    rng = new_rng()
    col = {name: len(K.RECORD) + i for i, name in enumerate(H.FEATURES)}
    for i in range(len(out)):
        K.deal_random(s, 7, 100 + i, (100 + i) % 6, game.option_array, rng)
        bidder, t = out[i, 1], out[i, 3]
        dealt = set(cards_of(int(s[K.HANDS + bidder])))
        trumps = {c for c in range(52) if K.EFFECTIVE[t, c] == t}
        top = set(parse_cards(["5" + "CDHS"[t], "J" + "CDHS"[t], "AH", "A" + "CDHS"[t]]))
        assert out[i, col["trumps"]] == len(dealt & trumps)
        assert out[i, col["top_trumps"]] == len(dealt & trumps & top)
        assert out[i, col["bidder_best_suit_trumps"]] == max(
            len(dealt & {c for c in range(52) if K.EFFECTIVE[u, c] == u}) for u in range(4))
        assert out[i, col["kitty_trumps"]] == len(set(cards_of(int(s[K.KITTY]))) & trumps)
    # Seats that never bid, and all_pass = redeal: every hand is thrown in, with no bidder: -1.
    params = np.tile(H.DEFAULTS, (6, 1))
    names = [name for name, _, _ in H.PARAMS]
    params[:, names.index("bid_margin")] = params[:, names.index("slam_points")] = 100.0
    _, out = _play(dict(players=6, all_pass="redeal"), [HEURISTIC] * 6, hands=200, params=params)
    assert (out[:, 5] == K.OUTCOME_THROWN_IN).all()
    assert (out[:, len(K.RECORD):] == -1).all()


def test_a_heuristic_seat_beats_random_seats_clearly():
    """Seat k heuristic among random seats minus seat k random among random seats, on the same
    deals, averaged over k. Measured: +13.3 points a hand (standard error 0.05)."""
    players, hands = 5, 6000
    _, base = _play(dict(players=players), [RANDOM] * players, hands=hands, seed=3)
    diff = np.zeros(hands)
    for k in range(players):
        kinds = [RANDOM] * players
        kinds[k] = HEURISTIC
        _, out = _play(dict(players=players), kinds, hands=hands, seed=3)
        diff += (out[:, K.SCORE_COLUMN + k] - base[:, K.SCORE_COLUMN + k]) / players
    mean, se = diff.mean(), diff.std(ddof=1) / np.sqrt(hands)
    assert mean > 6.5, mean
    assert mean > 4 * se, (mean, se)


# --- worked positions ---------------------------------------------------------------------------


def _deal(hands, kitty, dealer=0, **options):
    """A deal of ``hands`` (seat order) with ``kitty``; the stock is every other card, in index order."""
    game = FiftyFive(players=len(hands), **options)
    used = set(" ".join(hands).split()) | set(kitty.split())
    rest = kitty.split() + [c for c in ALL if c not in used]
    return game.deal(hands=hands, rest=" ".join(rest), dealer=dealer)


def _after(hands, kitty, labels):
    """``_deal(hands, kitty)`` after the actions ``labels`` (comma-separated)."""
    state = _deal(hands, kitty)
    for label in labels.split(","):
        state.apply(label.strip())
    return state


def _choice(state, params=H.DEFAULTS):
    """The heuristic's action for the seat to act, as a label."""
    return A.action_label(int(H.act(state.array, params, new_rng())))


def _take(state):
    """Apply the heuristic's action; return its label."""
    label = _choice(state)
    state.apply(label)
    return label


def _to_play(hands, kitty, trump, dealer=0, bid=10, **options):
    """Eldest bids ``bid``, the others pass; he discards the kitty's own cards and names ``trump``."""
    state = _deal(hands, kitty, dealer, **options)
    n = len(hands)
    for k in range(1, n + 1):
        state.apply(f"bid {bid}" if k == 1 else "pass")
    for c in kitty.split():
        state.apply(f"discard {c}")
    state.apply(f"trump {trump}")
    return state


FILLER = ["2C 3D 4S 6C 7D", "8C 9D TS 2S 3C", "4D 6S 7C 8D 9S", "TC 2D 3S 4C 6D"]


def test_eldest_bids_25_with_the_top_three_hearts():
    # Seat 1 (eldest, dealer 0): 5H JH AH 2C 3D. With hearts trumps, 5H JH AH cannot be beaten
    # (chance 1 each: 3 x 0.55 tricks), every trump adds 0.5 (1.5), 2C and 3D are beaten by any
    # of 10+ unseen trumps (~0): 3.15 tricks = 15.75 points, + 5 for the best trump (the 5) =
    # 20.75; + 9 for the kitty = 29.75 covers 25; a 60 needs 28 from the hand alone.
    state = _deal(["KC QC JC 9C 8H", "5H JH AH 2C 3D", "KD QD JD TD 9H", "KS QS JS TS 9S", "4C 5C 6C 7H 6H"],
                  kitty="4H 3H 2H 7S 8S")
    assert _choice(state) == "bid 25"


def test_a_weak_hand_passes_over_a_bid_of_20():
    # Seat 2: 2C 3D 4S 6C 7D. Best suit clubs: 2C and 6C are low trumps (chance ~0.03 and ~0.01
    # that no opponent holds a higher one; 0.5 each as trumps): ~1.02 tricks = 5.1 points, + 0.14
    # for the best trump, + 9 for the kitty = 14.2, short of 25, the lowest bid above 20.
    state = _deal(["KC QC JC 9C 8H", "5H JH AH KD 9H", "2C 3D 4S 6C 7D", "KS QS JS TS 9S", "4C 5C QD 7H 6H"],
                  kitty="4H 3H 2H 7S 8S")
    state.apply("bid 20")
    assert _choice(state) == "pass"


def test_five_top_trumps_bid_60():
    # 5H JH AH KH QH: all five are the top five trumps of hearts, sure tricks: 5 x (0.55 + 0.5)
    # capped at 5 tricks = 25, + 5 for the best trump = 30 >= 28: the 60 (all five tricks).
    state = _deal(["KC QC JC 9C 8H", "5H JH AH KH QH", "KD QD JD TD 9H", "KS QS JS TS 9S", "4C 5C 6C 7H 6H"],
                  kitty="4H 3H 2H 7S 8S")
    assert _choice(state) == "bid 60"


def test_the_dealer_holds_rather_than_raises():
    # Dealer 0: 5D JD 2D KC 3S. Diamonds: 5D and JD sure (2 x 0.55), three trumps (1.5), side
    # king (0.2), 2D and KC beaten by one of many unseen trumps (~0): 2.8 tricks = 14, + 5 best
    # trump = 19, + 9 kitty = 28. Over 25: 60 is not covered (that needs 28 from the hand alone),
    # and 28 + 4 (dealer_hold) >= 25: hold.
    hands = ["5D JD 2D KC 3S", "KH QH JH TH 9H", "4C 5C 6C 7C 8C", "KS QS JS TS 9S", "9C TC 2H 3H 4H"]
    state = _after(hands, "7D 8D 9D AD 6H", "bid 25, pass, pass, pass")
    assert _choice(state) == "hold"
    # Over 15: 20 and 25 are covered by 28, but a hold takes the bid at 15, a step cheaper.
    state = _after(hands, "7D 8D 9D AD 6H", "bid 15, pass, pass, pass")
    assert _choice(state) == "hold"


def test_the_dealer_raises_to_60_with_a_slam():
    # Dealer 0: 5H JH AH KH QH (the hand alone is worth 30 >= slam_points): over 20 it bids 60,
    # which wins the auction at once, rather than hold 20.
    hands = ["5H JH AH KH QH", "KD QD JD TD 9D", "4C 5C 6C 7C 8C", "KS QS JS TS 9S", "9C TC 2D 3D 4D"]
    state = _after(hands, "7D 8D 9H AD 6H", "bid 20, pass, pass, pass")
    assert _choice(state) == "bid 60"


def test_eldest_bids_20_rather_than_a_bid_the_dealer_holds_anyway():
    # Seat 1 (eldest): 2C 3D 4S 6C 7D is worth ~5.2 + 9 (kitty) = 14.2 and covers 10. The dealer
    # holds any bid up to the weakest hand's worth: two low trumps (1 trick, 5 points) + 9 + 4
    # (dealer_hold) = 18, so a 10 or 15 from eldest never stands: eldest bids 20, the lowest
    # value above it (bid_floor).
    state = _deal(["KC QC JC 9C 8H", "2C 3D 4S 6C 7D", "KD QD JD TD 9H", "KS QS JS TS 9S", "4C 5C 8D 7H 6H"],
                  kitty="4H 3H 2H 7S 8S")
    assert H.bid_floor(state.array, H.DEFAULTS) == 20
    assert _choice(state) == "bid 20"
    # With two teams of two the weakest hand is worth more (the partner's share) and the dealer
    # holds every bid below 60: no floor.
    teams = FiftyFive(players=4, teams=2).new_hand(seed=1)
    assert H.bid_floor(teams.array, H.DEFAULTS) == 0


def test_the_bidder_keeps_five_trumps_and_names_their_suit():
    # Seat 1 takes the kitty: 5D JD 2D KC 3S + AH 9D 4C 7H 8S. Diamonds give five trumps with the
    # 5, J and A♥ (worth ~25.9 points); no other suit comes near. Discard the other five (lowest
    # card index first: 4C KC 7H 3S 8S), then name diamonds.
    state = _deal(["5D JD 2D KC 3S", "KH QH JH TH 9H", "2C 5C 6C 7C 8C", "KS QS JS TS 9S", "9C TC 2H 3H 4H"],
                  kitty="AH 9D 4C 7H 8S", dealer=4)
    state.apply("bid 10")
    for _ in range(4):
        state.apply("pass")
    labels = [_take(state) for _ in range(6)]
    assert labels == ["discard 4C", "discard KC", "discard 7H", "discard 3S", "discard 8S", "trump D"]
    assert state.hand(0).labels() == sorted(["5D", "JD", "AH", "9D", "2D"], key=lambda x: ALL.index(x))


def test_an_exchange_of_one_plain_loser_ends_with_done():
    # Exchange 3: seat 2 holds 5H 4H KS 9D KC with hearts trumps: 9D is its only plain card below
    # a king; it drops it and says done (it could drop two more).
    state = _deal(["2H 3H KD QD 2S", "AH 6H 7H 8H JH", "5H 4H KS 9D KC"], kitty="9H TH 2C 3C 4C", exchange=3)
    for label in ("bid 10", "pass", "pass", "discard 2C", "discard 3C", "discard 4C", "discard 9H",
                  "discard TH", "trump H"):
        state.apply(label)
    assert [_take(state), _take(state)] == ["discard 9D", "done"]
    assert state.current_player == 0


def test_the_exchange_drops_plain_losers_and_keeps_trumps_and_kings():
    # Three players, exchange 2, hearts trumps (named by seat 1, who does not exchange). Seat 2
    # holds 5H JS KS 9D KC: it drops the plain cards below the king of their suit, lowest trick
    # power first: 9D (diamonds K Q J T 9 ...), then JS (spades K Q J ...), keeping the trump
    # and both kings; with the limit of two reached it draws. Seat 0 holds 2H 3H KD QD 2S: it
    # drops 2S (spades K Q J A 2 ...), then QD, and keeps its trumps and KD.
    state = _deal(["2H 3H KD QD 2S", "AH 4H 6H 7H 8H", "5H JS KS 9D KC"], kitty="9H TH 2C 3C 4C", exchange=2)
    for label in ("bid 10", "pass", "pass", "discard 2C", "discard 3C", "discard 4C", "discard 9H",
                  "discard TH", "trump H"):
        state.apply(label)
    assert state.current_player == 2
    assert [_take(state), _take(state)] == ["discard 9D", "discard JS"]
    assert state.current_player == 0  # seat 2 drew two and seat 0 exchanges
    assert [_take(state), _take(state)] == ["discard 2S", "discard QD"]
    assert state.phase == "play"


def test_the_bidder_leads_the_five_to_pull_trumps():
    # Seat 1 bid and named spades with 5S JS 2S KC 4D (it discarded 3S 4S 6S 7S 8S): the 5 cannot
    # be beaten and the opponents hold about 6 x 20 / 42 ~ 2.9 of the 6 unseen trumps (more than
    # pull_min = 0.5): lead the top trump; on the 5 nobody may withhold A♥.
    state = _to_play(["6C 7C 8C 9C TC", "5S JS 2S KC 4D", "KD QD JD TD 9D", "KH QH JH TH 9H",
                      "2H 3H 4H 6H 7H"], kitty="3S 4S 6S 7S 8S", trump="S")
    assert _choice(state) == "play 5S"


def test_the_last_seat_wins_with_its_cheapest_winning_card():
    # Spades trumps. Seat 1 leads 9D, seats 2-4 play TD 2D 3D: TD wins so far. Seat 0 (last)
    # holds 5S 4S KD 2C 3H: KD, 4S and 5S all win; the plain KD is the cheapest (keep the
    # trumps, and never waste the 5 on a trick a lower card takes).
    state = _to_play(["5S 4S KD 2C 3H", "9D 6C 7C 8C 9C", "TD KH QH JH TH", "2D 2H 4H 6H 7H",
                      "3D 5C TC QC JC"], kitty="3S 6S 7S 8S 9S", trump="S")
    for c in ("9D", "TD", "2D", "3D"):
        state.apply(f"play {c}")
    assert _choice(state) == "play KD"


def test_second_hand_plays_the_five_for_the_trick_and_the_best_trump():
    # Spades trumps. Seat 1 (the bidder) leads 9D; seat 2 holds 5S 3S 2C 4H 6H (no diamond). 3S
    # would be beaten by one of the six unseen higher trumps (JS AH AS KS QS 2S) among the 15
    # cards the three later seats hold with chance ~0.92; the 5S cannot be beaten. A defender
    # contests the bidder's trick with its cheapest winner at any risk (stop_risk = 1): the 3S,
    # keeping the 5S, which wins whenever it is played. Held to win_risk (0.5) as against any
    # other seat, it plays the 5S for the trick and the best-trump bonus.
    state = _to_play(["KD QD JD TD 8D", "9D 6C 7C 8C 9C", "5S 3S 2C 4H 6H", "2D 3D 4D 6D 7D",
                      "3C 5C TC QC JC"], kitty="KS 6S 7S 8S 9S", trump="S")
    state.apply("play 9D")
    assert _choice(state) == "play 3S"
    params = H.DEFAULTS.copy()
    params[H.STOP_RISK] = params[H.WIN_RISK]
    assert _choice(state, params) == "play 5S"


def test_a_top_trump_is_reneged_on_a_low_lead_it_cannot_win():
    # Hearts trumps. Seat 1 leads 4H, seat 2 plays 5H (the best trump). Seat 3 holds JH 3C 7D 8S
    # 9C: the J ranks above the 4 led and is its only trump, so any card may go; nothing beats
    # the 5: it keeps the J and plays its lowest plain card, 9C (clubs K Q J A 2 .. 8 9 T).
    state = _to_play(["KD QD JD TD 8D", "4H 6C 7C 8C 2D", "5H 3S 2C 4S 6S", "JH 3C 7D 8S 9C",
                      "KS 5C TC QC JC"], kitty="KH 6H 7H 8H 9H", trump="H")
    state.apply("play 4H")
    state.apply("play 5H")
    assert _choice(state) == "play 9C"


def test_a_seat_does_not_overtake_its_partner_but_trumps_an_opponent():
    # Four players, dealer 1, eldest seat 2 bids and names spades and leads 9D. Seat 3 plays KD,
    # seat 0 plays 2D. Seat 1 (last) holds 4S 7D 8C 9C TC. With teams = 2, seat 3 is its partner
    # and KD wins: play the lowest, 7D, not the 4S. Without teams KD is an opponent's: the 4S,
    # the cheapest winner (the last seat cannot be overtaken), takes the trick.
    hands = ["2D 3D 2C 3C 4C", "4S 7D 8C 9C TC", "9D 5C 6C 7C QC", "KD 2H 3H 4H 6H"]
    for teams, expected in ((2, "play 7D"), (0, "play 4S")):
        state = _to_play(hands, kitty="5S 6S 7S 8S 9S", trump="S", dealer=1, teams=teams)
        for c in ("9D", "KD", "2D"):
            state.apply(f"play {c}")
        assert _choice(state) == expected, teams


def test_without_a_safe_card_the_leader_leads_its_lowest_card():
    # Hearts trumps; seat 1 leads with 3H KC 8D 9S TS: the 3H and KC can be beaten by one of many
    # unseen trumps (no safe card): lead the lowest plain card, TS (spades ... 8 9 T), keeping
    # the king and the trump.
    state = _to_play(["KD QD JD TD 7D", "3H KC 8D 9S TS", "5H JH 2C 4S 6S", "AH 3C 7C 8S 9C",
                      "KS 5C TC QC JC"], kitty="KH 6H 7H 8H 9H", trump="H")
    assert _choice(state) == "play TS"


def test_the_estimate_reads_the_exchange_and_the_teams():
    # Seat 1 holds 5H JH 7H 5C 5D. With an exchange the opponents choose among more cards (and
    # keep trumps): AH and the rest are likelier out against it, so the hand is worth less. With
    # teams of two only the other team's seats count against it, and the partner adds its share.
    hand = "5H JH 7H 5C 5D"
    hands = [FILLER[0], hand, FILLER[1], FILLER[2]]

    def estimate(**options):
        return H.hand_estimate(_deal(hands, kitty="KD QD JD TD 2H", dealer=0, **options).array, 1, H.DEFAULTS)

    alone = estimate()
    assert estimate(exchange=3) < alone < estimate(teams=2)


def test_without_a_safe_card_the_leader_tries_its_likeliest_winner():
    # Two players, hearts trumps; seat 1 bid and leads with JH KC 8D 9S TS. Only the 5H beats the
    # JH, and the one opponent holds 5 of the 42 cards seat 1 has not seen: beaten with chance
    # 5/42 ~ 0.12, above lead_risk (0.1), so no card is safe; the plain cards lose to any of
    # many trumps. The JH is the likeliest winner and its chance is within lead_try (0.35): lead
    # it rather than give the trick away with the TS. With lead_try 0 the lowest card, TS, goes.
    state = _to_play(["KD QD JD TD 7D", "JH KC 8D 9S TS"], kitty="KH 6H 7H 8H 9H", trump="H")
    assert _choice(state) == "play JH"
    params = H.DEFAULTS.copy()
    params[H.LEAD_TRY] = 0.0
    assert _choice(state, params) == "play TS"


def test_the_60_threshold_falls_with_one_partner_only():
    # slam_allowance: partner_slam (6) with one partner against two opponents, a third of it
    # against four (6 players, teams of 3: 6 / 3 = 2), nothing alone or with two partners.
    def allowance(players, **options):
        kitty = "KD QD JD TD 2H"
        rest = [c for c in ALL if c not in kitty.split()]
        hands = [" ".join(rest[5 * p:5 * p + 5]) for p in range(players)]
        state = _deal(hands, kitty=kitty, dealer=0, **options)
        return H.slam_allowance(state.array, H.DEFAULTS)

    assert allowance(4, teams=2) == 6.0
    assert allowance(6, teams=3) == 2.0
    assert allowance(6, teams=2) == 0.0
    assert allowance(5) == 0.0


def test_the_dealers_partner_passes_a_bid_the_dealer_holds_whatever_he_holds():
    # Two teams of two, dealer 0 and his partner seat 2. The weakest hand is worth 5 x (1 + 4/3)
    # = 11.7 with the partner's share, + 9 (kitty) + 1 (four players) + 4 (dealer_hold) = 25.7:
    # the dealer holds any bid up to 25. Seat 2's KD QD JD TD 9D covers 25 (it would bid it over
    # 20 with no partner behind), but passes: the dealer takes the 20 for the side.
    hands = ["KC QC JC 9C 8H", "5H JH AH 2C 3D", "5D JD AD KD 9D", "KS QS JS TS 9S"]
    state = _deal(hands, kitty="4H 3H 2H 7S 8S", teams=2)
    assert H.sure_hold(state.array, H.DEFAULTS) == pytest.approx(25.67, abs=0.01)
    state.apply("bid 20")
    assert _choice(state) == "pass"
    alone = _deal(hands, kitty="4H 3H 2H 7S 8S")
    alone.apply("bid 20")
    assert _choice(alone) != "pass"


def test_the_first_seat_to_bid_needs_less_for_a_60():
    # slam_points 28, less open_slam 2 while nobody has bid: a bid before shows strength against it.
    state = _deal(["KC QC JC 9C 8H", "2C 3D 4S 6C 7D", "KD QD JD TD 9H", "KS QS JS TS 9S", "4C 5C 8D 7H 6H"],
                  kitty="4H 3H 2H 7S 8S")
    assert H.slam_line(state.array, H.DEFAULTS) == 26.0
    state.apply("bid 20")
    assert H.slam_line(state.array, H.DEFAULTS) == 28.0


def test_after_eldest_the_exchange_draws_take_draw_margin_more():
    # Four players, exchange=3, dealer 0: each rival draws 3 cards (the stock, 52 - 20 - 5 = 27,
    # serves all), so a seat after eldest counts draw_margin x 3 fewer points than eldest with the
    # same estimate; without an exchange the seats count alike.
    hands = [FILLER[0], FILLER[1], FILLER[2], FILLER[3]]
    state = _deal(hands, kitty="KD QD JD TD 2H", exchange=3)
    assert H.exchange_draws(state.array) == 3
    eldest, later = H.worth(state.array, 1, 15.0, H.DEFAULTS), H.worth(state.array, 2, 15.0, H.DEFAULTS)
    assert H.DEFAULTS[H.DRAW_MARGIN] > 0
    assert eldest - later == pytest.approx(3 * H.DEFAULTS[H.DRAW_MARGIN])
    plain = _deal(hands, kitty="KD QD JD TD 2H")
    assert H.worth(plain.array, 1, 15.0, H.DEFAULTS) == H.worth(plain.array, 2, 15.0, H.DEFAULTS)
