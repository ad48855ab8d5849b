"""Fifty-five's search hooks (``tricksim/agents/fiftyfive_search.py``).

* Sampling: along random and heuristic hands of several option sets (2 to 9 players, teams,
  exchange), every seat's sampled world gives it the same observation vector as the real state,
  leaves the state untouched, splits the same deck, keeps the seat's own knowledge, and is
  reachable: its deal rebuilt with ``game.deal`` and the hand's actions replayed (other seats'
  private discards replaced by the world's) give back the world's array slot for slot, every
  action legal (so every shown void is kept). The constructive deal alone passes the same checks.
  Worlds vary with the stream.
* Uniformity: the chance an unseen card lies in a place, at the first decision and after a shown
  void, against the exact value.
* merge: brute-force minimax over the last tricks of random hands gives the same value with and
  without merging at every node, a dropped card is worth what the kept card heading its run is
  worth, and worked positions where a merge must and must not happen.
* play_key / score_key: a transposition reached by real play, and slot changes that must or must
  not change the keys.
* side_points: at the end of random hands, the side's points as the game counts them.
* score_bounds: hold every seat's final score at every position of random hands; a 60 bid by hand.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tricksim.agents import fiftyfive as H
from tricksim.agents import fiftyfive_search as S
from tricksim.cards import card_label, cards_of, mask_of, parse_cards
from tricksim.sim.obs_fiftyfive import blocks, observe
from tricksim.sim.observation import Layout
from tricksim.sim import actions as A
from tricksim.sim import fiftyfive as K
from tricksim.sim.fiftyfive_game import FiftyFive
from tricksim.sim.kernels import new_rng, seed_stream

from bounds_check import bounds_hold
from sampling import sample_with

OPTION_SETS = [
    {"players": 2},
    {"players": 4, "teams": 2},
    {"players": 6, "exchange": 2},
    {"players": 9},
    {"players": 5, "exchange": 3, "first_lead": "bidder"},
    {"players": 4, "exchange": 1, "all_pass": "redeal"},
    {"players": 6, "teams": 3, "exchange": 1},
    {"players": 9, "teams": 3, "exchange": 1},
]
HANDS = 8  # per option set
DISCARD0 = A.card_action(A.DISCARD, 0)
PLAY0 = A.card_action(A.PLAY, 0)


def option_id(o):
    return " ".join(f"{k}={v}" for k, v in o.items())


def stream(*key):
    rng = new_rng()
    seed_stream(rng, *key)
    return rng


def obs_vector(game, s, seat):
    out = np.zeros(Layout(blocks(game)).size, dtype=np.int8)
    observe(s, seat, out)
    return out


def next_action(state, rng, heuristic):
    """A heuristic action, or a random one that passes often in the auction."""
    if heuristic:
        return int(H.act(state.array, H.DEFAULTS, new_rng()))
    if state.phase in ("bidding", "duel") and rng.random() < 0.5:
        return A.PASS
    return rng.choice(state.legal_actions())


def shown_voids(game, s):
    """Per seat, the cards it has shown it does not hold (the heuristic's reading the sampler uses)."""
    return [int(H.shown_void(s, p, s[K.TRUMP])) for p in range(game.players)]


def played_masks(game, s):
    out = np.zeros(K.MAX_PLAYERS, np.int64)
    S.played_by(s, out)
    return [int(x) for x in out[:game.players]]


def stock_size(game):
    return 52 - K.HAND_SIZE * game.players - K.KITTY_SIZE


def drawn_cards(game, s):
    """Seat -> the cards it drew in the exchange, from STOCK_ORDER: exchangers in turn from
    eldest, the bidder skipped, the seat exchanging now not yet drawn."""
    n, bidder = game.players, int(s[K.BIDDER])
    at, out = 0, {}
    for i in range(n):
        p = (int(s[K.DEALER]) + 1 + i) % n
        if p == bidder or (s[K.PHASE] == K.EXCHANGING and p == s[K.TO_ACT]):
            continue
        k = int(s[K.DISCARDS + p]).bit_count()
        out[p] = [int(c) for c in s[K.STOCK_ORDER + at:K.STOCK_ORDER + at + k]]
        at += k
    assert at == s[K.STOCK_NEXT]
    return out


def rebuild(game, w, real, seat):
    """The world ``w`` rebuilt with ``game.deal`` and the real hand's actions replayed (other seats'
    private discards replaced by theirs in ``w``); returns the replayed State."""
    n = game.players
    played = played_masks(game, w)
    drawn = drawn_cards(game, w)
    bidder = int(w[K.BIDDER])
    hands = []
    for p in range(n):
        held = int(w[K.HANDS + p]) | int(w[K.DISCARDS + p]) | played[p]
        held &= ~mask_of(drawn.get(p, []))
        if p == bidder:
            held &= ~int(w[K.KITTY_TAKEN])
        hands.append(" ".join(card_label(c) for c in cards_of(held)))
    kitty = int(w[K.KITTY]) | int(w[K.KITTY_TAKEN])
    stock = [int(c) for c in w[K.STOCK_ORDER:K.STOCK_ORDER + stock_size(game)]]
    rest = " ".join(card_label(c) for c in cards_of(kitty) + stock)
    state = game.deal(hands, rest, dealer=int(w[K.DEALER]))
    private = {p: cards_of(int(w[K.DISCARDS + p])) for p in range(n) if p != seat}
    for a in real.history:
        q = state.current_player
        if DISCARD0 <= a < DISCARD0 + 54 and q != seat:
            a = DISCARD0 + private[q].pop(0)
        state.apply(a)
    return state


def check_world(game, real, seat, w, replay=True):
    """Every check of a sampled world ``w`` of ``seat`` against the real state."""
    s = real.array
    n = game.players
    assert np.array_equal(obs_vector(game, s, seat), obs_vector(game, w, seat))
    # the same deck, split into hands, discards, kitty, stock and cards played
    places = [int(w[K.HANDS + p]) for p in range(n)] + [int(w[K.DISCARDS + p]) for p in range(n)]
    places += [int(w[K.KITTY]), int(w[K.STOCK]), int(w[K.PLAYED])]
    union = 0
    for m in places:
        assert union & m == 0
        union |= m
    assert union == K.DECK_MASK
    # sizes, and what the seat knows
    for slot in range(K.HANDS, K.HANDS + 2 * K.MAX_PLAYERS):
        assert int(w[slot]).bit_count() == int(s[slot]).bit_count()
    assert w[K.HANDS + seat] == s[K.HANDS + seat] and w[K.DISCARDS + seat] == s[K.DISCARDS + seat]
    assert int(w[K.KITTY]).bit_count() == int(s[K.KITTY]).bit_count()
    if seat == s[K.BIDDER]:
        assert w[K.KITTY_TAKEN] == s[K.KITTY_TAKEN]
    if seat in drawn_cards(game, s):
        assert drawn_cards(game, w)[seat] == drawn_cards(game, s)[seat]
    public = np.ones(len(s), bool)
    public[K.HANDS:K.HANDS + 2 * K.MAX_PLAYERS] = False
    public[[K.KITTY, K.KITTY_TAKEN, K.STOCK]] = False
    public[K.STOCK_ORDER:K.STOCK_ORDER + K.MAX_STOCK] = False
    assert np.array_equal(w[public], s[public])
    if replay:
        assert np.array_equal(rebuild(game, w, real, seat).array, w)


def test_sampled_worlds_are_consistent_and_reachable():
    """Random and heuristic hands; at every decision every seat samples (a replay check for a
    share of them). Counts make sure that voids, exchanges and every phase were met."""
    seen = {"void": 0, "exchanged": 0, "replays": 0, "phases": set()}
    for options in OPTION_SETS:
        game = FiftyFive(**options)
        for hand in range(HANDS):
            rng = random.Random(hand)
            state = game.new_hand(seed=100 + hand, dealer=hand % game.players)
            heuristic = hand % 2 == 1
            step = 0
            while True:
                s = state.array
                before = s.copy()
                forbid = shown_voids(game, s)
                for p in range(game.players):  # a shown void never excludes what the seat holds
                    assert int(forbid[p]) & int(s[K.HANDS + p]) == 0
                for seat in range(game.players):
                    w = np.empty_like(s)
                    S.sample(s, seat, stream(hand, step, seat), w)
                    assert np.array_equal(s, before)
                    replay = rng.random() < 0.3 or state.is_terminal()
                    check_world(game, state, seat, w, replay)
                    seen["replays"] += replay
                    unseen = K.DECK_MASK & ~int(s[K.HANDS + seat]) & ~int(s[K.PLAYED])
                    seen["void"] += any(int(forbid[p]) & unseen for p in range(game.players) if p != seat)
                seen["exchanged"] += int(s[K.STOCK_NEXT]) > 0
                seen["phases"].add(state.phase)
                if state.is_terminal():
                    break
                state.apply(next_action(state, rng, heuristic))
                step += 1
    assert seen["void"] > 100 and seen["exchanged"] > 20 and seen["replays"] > 500
    assert {"bidding", "kitty", "trump", "exchange", "play", "over"} <= seen["phases"]


@pytest.mark.parametrize("options", OPTION_SETS[2:4] + OPTION_SETS[6:], ids=option_id)
def test_constructive_deal_is_consistent(options):
    """The fallback alone (no rejection try) passes the same checks, voids included."""
    game = FiftyFive(**options)
    voids = 0
    for hand in range(4):
        rng = random.Random(hand)
        state = game.new_hand(seed=300 + hand, dealer=hand % game.players)
        while not state.is_terminal():
            state.apply(next_action(state, rng, heuristic=True))
            s = state.array
            voids += any(shown_voids(game, s))
            for seat in range(game.players):
                w = np.empty_like(s)
                sample_with(S.__name__, s, seat, stream(hand, seat, 7), w, 0)
                check_world(game, state, seat, w, replay=rng.random() < 0.2)
    assert voids > 0


def test_worlds_vary_and_respect_a_shown_void():
    game, state = void_position()
    s = state.array
    hidden = set()
    for i in range(30):
        w = np.empty_like(s)
        S.sample(s, 2, stream(1, i, 0), w)
        hidden.add(tuple(int(w[K.HANDS + p]) for p in (0, 1, 3)))
        assert w[K.HANDS + 1] & mask_of(parse_cards(CLUBS)) == 0
    assert len(hidden) == 30
    first = game.new_hand(seed=5, dealer=0).array
    kitties = set()
    for i in range(30):
        w = np.empty_like(first)
        S.sample(first, 3, stream(2, i, 0), w)
        kitties.add(int(w[K.KITTY]))
    assert len(kitties) == 30


# --- uniformity ---------------------------------------------------------------------------------

CLUBS = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"


def void_position():
    """4 players, dealer 3: everyone passes, the dealer takes the kitty at the lowest bid, buries
    his dealt hand and names spades; seat 0 leads 2C and seat 1 shows a club void with 7H."""
    game = FiftyFive(players=4)
    deal = ["2C 3C 4C 5H 6H", "7H 8H 9H TH JH", "2D 3D 4D 5D 6D", "7D 8D 9D TD JD"]
    others = [c for c in range(52) if card_label(c) not in " ".join(deal).split()]
    rest = " ".join(card_label(c) for c in others)  # the kitty is its first five
    state = game.deal(deal, rest, dealer=3)
    for a in ["pass"] * 4 + [f"discard {c}" for c in ["7D", "8D", "9D", "TD", "JD"]] + ["trump S", "play 2C", "play 7H"]:
        state.apply(a)
    return game, state


def frequencies(s, seat, slots, count, key):
    """Per slot, how often each card lies in it over ``count`` samples."""
    freq = np.zeros((len(slots), 52))
    w = np.empty_like(s)
    for i in range(count):
        S.sample(s, seat, stream(key, i, 0), w)
        for j, slot in enumerate(slots):
            freq[j] += (np.int64(w[slot]) >> np.arange(52)) & 1
    return freq / count


def assert_chance(freq, cards, p, count):
    """Each card's frequency is ``p`` within five standard errors."""
    se = np.sqrt(p * (1 - p) / count)
    got = freq[cards]
    assert np.all(np.abs(got - p) < 5 * se + 1e-12), (p, got)


def test_first_decision_is_uniform():
    game = FiftyFive(players=4)
    s = game.new_hand(seed=11, dealer=3).array
    count = 3000
    unseen = cards_of(K.DECK_MASK & ~int(s[K.HANDS + 0]))
    freq = frequencies(s, 0, [K.KITTY, K.HANDS + 2, K.STOCK], count, 3)
    assert_chance(freq[0], unseen, 5 / 47, count)
    assert_chance(freq[1], unseen, 5 / 47, count)
    assert_chance(freq[2], unseen, 27 / 47, count)


def test_chances_after_a_void_are_exact():
    """Seat 2's view: 45 unseen cards; seat 1 (4 cards) holds no club. A club lies in another place
    with chance size / 41, a non-club in seat 1 with chance 4 / 33."""
    _, state = void_position()
    s = state.array
    count = 3000
    freq = frequencies(s, 2, [K.HANDS + 1, K.HANDS + 0, K.HANDS + 3, K.DISCARDS + 3, K.STOCK], count, 4)
    seen = int(s[K.HANDS + 2]) | int(s[K.PLAYED])
    clubs = [c for c in parse_cards(CLUBS) if not seen >> c & 1]
    others = [c for c in range(52) if not seen >> c & 1 and c not in clubs]
    assert len(clubs) == 12 and len(others) == 33
    assert freq[0][clubs].max() == 0
    assert_chance(freq[0], others, 4 / 33, count)
    for row, size in zip(freq[1:], (4, 5, 5, 27)):
        assert_chance(row, clubs, size / 41, count)


# --- merge ---------------------------------------------------------------------------------------


def children(s, merged):
    cards = int(K.legal(s)[1])
    if merged:
        cards = int(S.merge(s, cards))
    out = []
    for c in cards_of(cards):
        t = s.copy()
        K.step(t, PLAY0 + c)
        out.append((c, t))
    return out


def minimax(s, seat, objective, merged):
    """Value for ``seat`` of the rest of the hand, ``seat``'s side maximising, the others minimising."""
    if s[K.TO_ACT] < 0:
        return objective(s, seat)
    values = [minimax(t, seat, objective, merged) for _, t in children(s, merged)]
    return max(values) if S.same_side(s, seat, int(s[K.TO_ACT])) else min(values)


def final_score(s, seat):
    return int(s[K.SCORES + seat])


def end_points(s, seat):
    return int(S.side_points(s, seat))


def run_head(s, c, kept):
    """The kept card heading ``c``'s run: the weakest kept card of its effective suit above it."""
    t = int(s[K.TRUMP])
    above = [d for d in cards_of(kept) if K.EFFECTIVE[t, d] == K.EFFECTIVE[t, c] and K.POWER[t, d] > K.POWER[t, c]]
    return min(above, key=lambda d: K.POWER[t, d])


MERGE_CASES = [({"players": 2}, 3), ({"players": 3, "exchange": 2}, 3), ({"players": 4, "teams": 2}, 2),
               ({"players": 5}, 2), ({"players": 9, "teams": 3}, 2)]


@pytest.mark.parametrize("options,tricks", MERGE_CASES, ids=lambda x: option_id(x) if isinstance(x, dict) else str(x))
def test_merge_keeps_the_minimax_value(options, tricks):
    game = FiftyFive(**options)
    merges = 0
    for hand in range(20):
        rng = random.Random(hand)
        state = game.new_hand(seed=500 + hand, dealer=hand % game.players)
        while not (state.phase == "play" and state.array[K.TRICK_NO] >= K.NUM_TRICKS - tricks):
            state.apply(next_action(state, rng, heuristic=hand % 2 == 0))
        for _ in range(rng.randrange(game.players)):  # sometimes into the trick
            state.apply(rng.choice(state.legal_actions()))
        s = state.array
        legal = int(K.legal(s)[1])
        kept = int(S.merge(s, legal))
        assert kept & ~legal == 0 and kept != 0
        merges += kept != legal
        seats = {int(s[K.TO_ACT]), (int(s[K.TO_ACT]) + 1) % game.players}
        for seat in seats:
            for objective in (final_score, end_points):
                full = {c: minimax(t, seat, objective, False) for c, t in children(s, False)}
                for c in cards_of(legal & ~kept):
                    assert full[c] == full[run_head(s, c, kept)]
                assert minimax(s, seat, objective, True) == minimax(s, seat, objective, False)
    assert merges > 0


def merge_position():
    """2 players, dealer 1: both pass, seat 1 takes the kitty at the lowest bid, buries it and names
    spades (5S JS AH AS KS QS 2S 3S ...; plain clubs K Q J A 2 ... T). Seat 0 to lead."""
    game = FiftyFive(players=2)
    deal = ["JC KC QD 5S 2H", "QC AC JS AH 4S"]
    kitty = "2D 3D 4D 5D 6D"
    others = [card_label(c) for c in range(52) if card_label(c) not in " ".join(deal + [kitty]).split()]
    state = game.deal(deal, kitty + " " + " ".join(others), dealer=1)
    for a in ["pass", "pass"] + [f"discard {c}" for c in kitty.split()] + ["trump S"]:
        state.apply(a)
    return state


def merged_labels(state):
    return sorted(card_label(c) for c in cards_of(int(S.merge(state.array, int(K.legal(state.array)[1])))))


def test_merge_worked_positions():
    state = merge_position()
    # KC and JC: QC (seat 1) lies between them, KD alone; so nothing merges
    assert merged_labels(state) == sorted(["JC", "KC", "QD", "5S", "2H"])
    state.apply("play JC")
    # QC and AC: JC in the trick between them; JS and AH (withholdable, adjacent) merge into JS;
    # AH and 4S: AS KS QS 2S 3S are dead, but AH is withholdable and 4S is not
    assert merged_labels(state) == sorted(["QC", "AC", "JS", "4S"])
    s = state.array.copy()
    s[K.HANDS + 1] = mask_of(parse_cards("KS QS 2S 3S 4S"))  # five low trumps in a row: one kept
    assert sorted(card_label(c) for c in cards_of(int(S.merge(s, int(K.legal(s)[1]))))) == ["KS"]
    s[K.HANDS + 0] |= mask_of(parse_cards("2S"))  # a trump of the other hand splits the run
    s[K.HANDS + 1] &= ~mask_of(parse_cards("2S"))
    assert sorted(card_label(c) for c in cards_of(int(S.merge(s, int(K.legal(s)[1]))))) == ["3S", "KS"]
    bidding = FiftyFive(players=2).new_hand(seed=1).array
    assert S.merge(bidding, 12345) == 12345


# --- keys ---------------------------------------------------------------------------------------


def spades_deal(hands, bidding):
    """2 players, dealer 1, ``hands`` dealt: after ``bidding`` the bidder discards the kitty
    (3D to 7D) and names spades."""
    game = FiftyFive(players=2)
    kitty = "3D 4D 5D 6D 7D"
    others = [card_label(c) for c in range(52) if card_label(c) not in " ".join(hands + [kitty]).split()]
    state = game.deal(hands, kitty + " " + " ".join(others), dealer=1)
    for a in bidding + [f"discard {c}" for c in kitty.split()] + ["trump S"]:
        state.apply(a)
    return state


def key_deal():
    """Seat 0 wins KC over 2C and KD over 2D in either order."""
    return spades_deal(["KC KD 2H 3H 4H", "2C 2D 5H 6H 7H"], ["pass", "pass"])


def test_transposed_tricks_share_keys():
    a, b = key_deal(), key_deal()
    for x in ["play KC", "play 2C", "play KD", "play 2D"]:
        a.apply(x)
    for x in ["play KD", "play 2D", "play KC", "play 2C"]:
        b.apply(x)
    assert not np.array_equal(a.array, b.array)  # the trick records differ
    assert S.play_key(a.array) == S.play_key(b.array)
    assert S.score_key(a.array) == S.score_key(b.array)
    a.apply("play 2H")
    assert S.play_key(a.array) != S.play_key(b.array)


SLOT_CHANGES = [  # (slot, new value): each changes the future
    (K.TO_ACT, 1), (K.LEADER, 1), (K.LED_CARD, 0), (K.LED, 2), (K.IN_TRICK, 1), (K.BEST_POWER, 70),
    (K.BEST_SEAT, 1), (K.TRUMP, 0), (K.BID, 60), (K.BIDDER, 0), (K.PHASE, K.OVER),
    (K.OPTIONS + K.O_TEAMS, 2), (K.EXCHANGED, 1),
]
HISTORY_CHANGES = [(K.POINTS, 10), (K.TRICKS_WON + 1, 2), (K.DISCARDS, 5), (K.LAST_CALL, 3),
                   (K.BEST_TRICK, 2), (K.TRICKS, 1), (K.TRICKS + 2, 30), (K.PLAYED, 7), (K.KITTY_TAKEN, 0)]


def test_keys_see_what_decides_the_future_only():
    s = key_deal().apply("play KC").apply("play 2C").array
    key, score = S.play_key(s), S.score_key(s)
    for slot, value in SLOT_CHANGES:
        t = s.copy()
        t[slot] = value
        assert S.play_key(t) != key, slot
    moved = s.copy()  # a card moves from one hand to the other
    moved[K.HANDS + 0] &= ~mask_of(parse_cards("2H"))
    moved[K.HANDS + 1] |= mask_of(parse_cards("2H"))
    assert S.play_key(moved) != key
    for slot, value in HISTORY_CHANGES:
        t = s.copy()
        t[slot] = value
        assert S.play_key(t) == key, slot
    for slot in (K.POINTS, K.POINTS + 1, K.TRICKS_WON + 1):
        t = s.copy()
        t[slot] += 5
        assert S.score_key(t) != score and S.play_key(t) == key


def test_keys_see_the_stock_order_before_the_exchange():
    game = FiftyFive(players=3, exchange=2)
    state = game.new_hand(seed=3, dealer=0)
    while state.phase != "exchange":
        state.apply(int(H.act(state.array, H.DEFAULTS, new_rng())))
    s = state.array
    t = s.copy()
    nxt = K.STOCK_ORDER + int(s[K.STOCK_NEXT])
    t[nxt], t[nxt + 1] = s[nxt + 1], s[nxt]
    assert S.play_key(t) != S.play_key(s)


def test_same_side():
    two_teams = FiftyFive(players=6, teams=2).new_hand(seed=1).array
    alone = FiftyFive(players=6).new_hand(seed=1).array
    assert S.same_side(two_teams, 1, 5) and not S.same_side(two_teams, 1, 2)
    assert S.same_side(alone, 3, 3) and not S.same_side(alone, 1, 5)


# --- side points --------------------------------------------------------------------------------


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_side_points_add_up(options):
    game = FiftyFive(**options)
    for hand in range(30):
        rng = random.Random(hand)
        state = game.new_hand(seed=700 + hand, dealer=hand % game.players)
        while not state.is_terminal():
            state.apply(next_action(state, rng, heuristic=hand % 3 == 0))
        s = state.array
        if state.result()["thrown_in"]:
            assert all(S.side_points(s, p) == 0 for p in range(game.players))
            continue
        t = int(s[K.TRUMP])
        trumps = [(K.POWER[t, c], (leader + i) % game.players)
                  for leader, cards, _ in state.tricks() for i, c in enumerate(parse_cards(cards))
                  if K.POWER[t, c] >= 64]
        best = max(trumps)[1] if trumps else None
        total = 0
        for p in range(game.players):
            side = [q for q in range(game.players) if game.side(q) == game.side(p)]
            won = sum(w in side for _, _, w in state.tricks())
            expected = 5 * won + 5 * (best in side)
            assert S.side_points(s, p) == expected
            if game.side(p) != game.side(int(s[K.BIDDER])) or (s[K.OUTCOME] == K.OUTCOME_MADE and s[K.BID] != 60):
                assert state.scores()[p] == expected
            total += expected if game.side(p) == p else 0
        assert total == 25 + 5 * (best is not None)


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_score_bounds_hold_the_final_scores(options):
    """At every position of random and heuristic hands each seat's final score lies in its
    ``score_bounds``; the bounds meet once the hand is over, and some meet before (a bid set or
    made for sure); 60 bids occur."""
    game = FiftyFive(**options)
    met_early, sixty = 0, 0
    for hand in range(40):
        rng = random.Random(hand)
        state = game.new_hand(seed=900 + hand, dealer=hand % game.players)
        positions = [state.array.copy()]
        while not state.is_terminal():
            state.apply(next_action(state, rng, heuristic=hand % 3 == 0))
            positions.append(state.array.copy())
        final = state.scores()
        sixty += int(state.array[K.BID] == 60)
        met_early += bounds_hold(S.score_bounds, positions, final, lambda arr: arr[K.PHASE] == K.OVER)[1]
        assert all(S.score_bounds(state.array, p) == (final[p], final[p]) for p in range(game.players))
    assert met_early > 0 and sixty > 0


def sixty_bid(bidder_hand):
    """Seat 0 bids 60 on ``bidder_hand``."""
    return spades_deal([bidder_hand, "KD 2C 5H 6H 7H"], ["bid 60", "pass"])


def test_score_bounds_of_a_sixty_bid():
    """A 60 bid stays open (-60 to 60) while the bidder has taken every finished trick, and is
    set (-60) from the first trick he loses; the other seat's bounds are its points to come."""
    state = sixty_bid("5S JS AH AS KS")  # the five top trumps: every trick
    while not state.is_terminal():
        assert tuple(S.score_bounds(state.array, 0)) == (-60, 60)
        state.apply(state.legal_actions()[0])
    assert state.scores()[0] == 60 and tuple(S.score_bounds(state.array, 0)) == (60, 60)
    state = sixty_bid("5S JS AH AS 2D")
    assert tuple(S.score_bounds(state.array, 1)) == (0, 30)  # five tricks and the best trump
    for a in ["play 5S", "play 2C", "play 2D", "play KD"]:  # seat 1 wins the second trick
        state.apply(a)
    assert tuple(S.score_bounds(state.array, 0)) == (-60, -60)
    assert tuple(S.score_bounds(state.array, 1)) == (5, 25)
