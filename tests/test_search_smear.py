"""The smears' search hooks (``tricksim.agents.smear_search``) on Shmear and NE Smear.

* Sampling: at many decision points of random hands, for every seat, the sampled world shows the
  seat the same observation vector, leaves the state alone, keeps every card in one place, and is
  reachable: its deal, rebuilt with ``game.deal`` and replayed with the hand's actions (hidden
  discards and a hidden NE trump taken from the world), gives the world again. Worlds vary, respect
  shown voids, and the constructive fallback (no rejection tries) meets the same checks.
* Uniformity at the first decision: an unseen card lies in each unseen place with probability
  size / unseen.
* ``merge``: brute-force minimax over the last tricks gives the same value with and without it;
  a worked example where it merges and where it must not.
* ``play_key`` / ``score_key``: transpositions reached by real play share keys; a changed hand,
  seat to act, flag or taken point changes them.
* ``side_points`` ends equal to the game's own Game tallies.
* ``score_bounds`` hold every seat's final score at every position of random hands.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import tricksim
from tricksim.agents import smear as H
from tricksim.agents import smear_search as S
from tricksim.agents.sampler import TRIES
from tricksim.cards import card_label, parse_card
from tricksim.sim.obs_smear import blocks, observe
from tricksim.sim.observation import Layout
from tricksim.sim import actions as A
from tricksim.sim import smear as K
from tricksim.sim.kernels import new_rng, seed_stream

from bounds_check import bounds_hold
from sampling import sample_with

OPTION_SETS = [
    ("shmear", {}),
    ("shmear", {"teams": 2, "may_trump": True}),
    ("shmear", {"may_trump": True}),
    ("nesmear", {}),
    ("nesmear", {"widow": 0}),
    ("nesmear", {"widow": 1, "high_low": "in_play"}),
    ("nesmear", {"widow": 2, "high_low": "in_play"}),
]
IDS = [name + "".join(f"-{k}={v}" for k, v in options.items()) for name, options in OPTION_SETS]


def _rng(seed):
    rng = new_rng()
    seed_stream(rng, seed, 0, 9)
    return rng


def _bits(mask):
    return [c for c in range(54) if int(mask) >> c & 1]


def _choose(state, rng):
    """Half the time the heuristic's action, else a random legal one."""
    if rng.random() < 0.5:
        return int(H.act(state.array, H.DEFAULTS, _rng(rng.randrange(1 << 30))))
    return rng.choice(state.legal_actions())


def _random_states(game, hands, seed):
    """Every decision point (and the end) of ``hands`` hands of mixed heuristic / random play."""
    rng = random.Random(seed)
    for i in range(hands):
        state = game.new_hand(seed=seed * 1000 + i, dealer=i % game.players)
        yield state
        while not state.is_terminal():
            state.apply(_choose(state, rng))
            yield state


# --- what a world must be ----------------------------------------------------------------------


def _played_by(s):
    played = int(s[K.WON] | s[K.WON + 1] | s[K.WON + 2] | s[K.TRICK_MASK])
    out = [0] * int(s[K.NUM_PLAYERS])
    for c in _bits(played):
        out[int(s[K.PLAYED_BY + c])] |= 1 << c
    return out


def _rest_size(s):
    return len(_bits(K.DECK_MASKS[s[K.OPTIONS + K.O_VARIANT]])) - K.HAND_SIZE * int(s[K.NUM_PLAYERS])


def _check_partition(game, w):
    """Every card of the deck in exactly one place: a hand, a discard pile, the stock, played."""
    n = game.players
    masks = [int(w[K.HANDS + p]) for p in range(n)] + [int(w[K.DISCARDS + p]) for p in range(n)]
    masks += [int(w[K.STOCK]), int(w[K.WON] | w[K.WON + 1] | w[K.WON + 2]), int(w[K.TRICK_MASK])]
    total = 0
    for m in masks:
        assert total & m == 0
        total |= m
    assert total == int(K.DECK_MASKS[game.variant])


def _voids(s):
    """Per seat, the mask of cards it cannot hold after the play so far (an independent rereading
    of the rule: not following shows a void, except a trump when trumps are always playable)."""
    n, table, trump = int(s[K.NUM_PLAYERS]), int(s[K.TABLE]), int(s[K.TRUMP])
    out = [0] * n
    for t in range(int(s[K.TRICK_NO]) + 1):
        slot = K.TRICKS + t * K.TRICK_SLOTS
        count = n if t < s[K.TRICK_NO] else int(s[K.IN_TRICK])
        leader = int(s[slot] if t < s[K.TRICK_NO] else s[K.LEADER])
        cards = [int(c) for c in s[slot + 1:slot + 1 + count]]
        for i, c in enumerate(cards[1:], 1):
            led, e = K.EFFECTIVE[table, cards[0]], K.EFFECTIVE[table, c]
            if e != led and not (s[K.OPTIONS + K.O_MAY_TRUMP] and e == trump):
                out[(leader + i) % n] |= int(K.SUIT_MASKS[table, led])
    return out


def _initial_hands(game, w):
    """Each seat's dealt hand in world ``w``: all it held, less what came from the stock / widow."""
    n, played = game.players, _played_by(w)
    held = [int(w[K.HANDS + p] | w[K.DISCARDS + p]) | played[p] for p in range(n)]
    rest = [int(c) for c in w[K.REST_ORDER:K.REST_ORDER + _rest_size(w)]]
    if game.variant == K.SHMEAR:
        at, p = 0, (int(w[K.DEALER]) + 1) % n
        while p != w[K.DEALER]:
            for c in rest[at:at + int(w[K.DRAWN + p])]:
                held[p] &= ~(1 << c)
            at += int(w[K.DRAWN + p])
            p = (p + 1) % n
        assert at == w[K.STOCK_NEXT]
        if w[K.STOCK] == 0:
            for c in rest[at:]:
                held[int(w[K.DEALER])] &= ~(1 << c)
    elif w[K.BIDDER] >= 0:
        held[int(w[K.BIDDER])] &= ~int(w[K.WIDOW_TAKEN])
    return held, rest


def _replay(game, state, w, seat):
    """The hand rebuilt from world ``w``'s deal, replayed with ``state``'s actions; hidden choices
    of the others (their discards, a hidden NE trump) are the world's. Raises if any is illegal."""
    held, rest = _initial_hands(game, w)
    assert all(len(_bits(h)) == K.HAND_SIZE for h in held)
    replay = game.deal(hands=[[card_label(c) for c in _bits(h)] for h in held],
                       rest=[card_label(c) for c in rest], dealer=int(w[K.DEALER]))
    trumps = int(K.SUIT_MASKS[w[K.TABLE], w[K.TRUMP]]) if w[K.TRUMP] >= 0 else 0
    queues = {p: sorted(_bits(w[K.DISCARDS + p]), key=lambda c: not trumps >> c & 1) for p in range(game.players)}
    for a in state.history:
        actor = replay.current_player
        if actor != seat and A.CARD_BASE + 54 * A.DISCARD <= a < A.CARD_BASE + 54 * (A.DISCARD + 1):
            a = A.CARD_BASE + 54 * A.DISCARD + queues[actor].pop(0)
        elif actor != seat and A.TRUMP <= a < A.TRUMP + 4:
            a = A.TRUMP + int(w[K.TRUMP])
        replay.apply(int(a))
    return replay.array


def _comparable(game, s):
    """The slots of a state that mean something: all before ``REST_ORDER``, the undealt cards, who
    played each played card, the finished tricks and the trick in progress. (The rest is scratch a
    new hand does not clear.)"""
    played = _bits(s[K.WON] | s[K.WON + 1] | s[K.WON + 2] | s[K.TRICK_MASK])
    out = [int(x) for x in s[:K.REST_ORDER]] + [int(x) for x in s[K.REST_ORDER:K.REST_ORDER + _rest_size(s)]]
    out += [int(s[K.PLAYED_BY + c]) for c in played]
    for t in range(int(s[K.TRICK_NO])):
        slot = K.TRICKS + t * K.TRICK_SLOTS
        out += [int(x) for x in s[slot:slot + 1 + game.players]] + [int(s[slot + 1 + K.MAX_PLAYERS])]
    if s[K.IN_TRICK] > 0:
        slot = K.TRICKS + int(s[K.TRICK_NO]) * K.TRICK_SLOTS
        out += [int(x) for x in s[slot:slot + 1 + int(s[K.IN_TRICK])]]
    return out


def _check_world(game, state, seat, w, obs, replay=True):
    s = state.array
    observe(s, seat, obs[0])
    observe(w, seat, obs[1])
    np.testing.assert_array_equal(obs[0], obs[1], err_msg=f"seat {seat}, history {state.history}")
    _check_partition(game, w)
    for p, void in enumerate(_voids(s)):
        assert int(w[K.HANDS + p]) & void == 0, (seat, p, state.history)
    if replay:
        again = _replay(game, state, w, seat)
        assert _comparable(game, again) == _comparable(game, w), (seat, state.history)


@pytest.mark.parametrize("param", OPTION_SETS, ids=IDS)
def test_worlds_are_consistent_and_reachable(param):
    name, options = param
    game = tricksim.make_game(name, **options)
    layout = Layout(blocks(game))
    obs = np.zeros((2, layout.size), dtype=np.int8)
    rng = _rng(len(options) + 7 * game.variant)
    pick = random.Random(3)
    w = np.empty(K.STATE_SIZE, dtype=np.int64)
    checked = 0
    for state in _random_states(game, hands=14, seed=11 + len(options)):
        before = state.array.copy()
        for seat in range(game.players):
            S.sample(state.array, seat, rng, w)
            _check_world(game, state, seat, w, obs, replay=pick.random() < 0.15)
            checked += 1
            if pick.random() < 0.05:  # the constructive fallback meets the same rules
                sample_with(S.__name__, state.array, seat, rng, w, 0)
                _check_world(game, state, seat, w, obs)
        np.testing.assert_array_equal(state.array, before)
    assert checked > 300


@pytest.mark.parametrize("name", ["shmear", "nesmear"])
def test_worlds_vary(name):
    game = tricksim.make_game(name)
    rng = _rng(5)
    w = np.empty(K.STATE_SIZE, dtype=np.int64)
    for state in _random_states(game, hands=3, seed=2):
        if state.phase == "over":
            continue
        seat = state.current_player
        seen = set()
        for _ in range(8):
            S.sample(state.array, seat, rng, w)
            seen.add(tuple(int(w[K.HANDS + p]) for p in range(game.players)))
        hidden = sum(len(_bits(state.array[K.HANDS + p])) for p in range(game.players) if p != seat)
        assert len(seen) >= (2 if hidden >= 3 else 1), state.history


def _states_with_discards(game, seed):
    """States of the play where the dealer (Shmear) or the bidder (NE Smear) discarded trumps."""
    rng = random.Random(seed)
    for i in range(400):
        state = game.new_hand(seed=seed * 1000 + i, dealer=i % game.players)
        while not state.is_terminal() and state.phase != "play":
            state.apply(_choose(state, rng))
        if state.phase != "play":
            continue
        q = int(state.array[K.DEALER] if game.variant == K.SHMEAR else state.array[K.BIDDER])
        trumps = int(K.SUIT_MASKS[state.array[K.TABLE], state.array[K.TRUMP]])
        if int(state.array[K.DISCARDS + q]) & trumps:
            yield state, q


def _ne_trump_discards():
    """NE Smear, widow 3: seat 1 holds eight hearts after the widow and discards AS 8H 9H; states
    before and after his first lead (trump hidden from the others before it)."""
    game = tricksim.make_game("nesmear", widow=3)
    state = game.deal(hands=["KS QS JS TS KC QC", "AH KH QH JH TH 9H", "8S 9S KD QD JD TD",
                             "AC 9C 8C 7C AD 9D"], rest="8H 7H AS 7S JC TC 8D 7D", dealer=0)
    for label in ["bid 4", "trump H", "discard AS", "discard 8H"]:
        state.apply(label)
    yield state.clone(), 1  # mid-discard
    state.apply("discard 9H")
    yield state.clone(), 1
    state.apply("play 7H")
    yield state.clone(), 1


@pytest.mark.parametrize("name", ["shmear", "nesmear"])
def test_discarded_trumps_follow_the_rule_in_every_world(name):
    # The discarder kept 6 trumps whenever his hidden discards hold a trump, in both sampling paths.
    game = tricksim.make_game(name, **({"widow": 3} if name == "nesmear" else {}))
    layout = Layout(blocks(game))
    obs = np.zeros((2, layout.size), dtype=np.int8)
    rng = _rng(8)
    w = np.empty(K.STATE_SIZE, dtype=np.int64)
    found = 0
    cases = _states_with_discards(game, seed=4) if name == "shmear" else _ne_trump_discards()
    for state, q in cases:
        for seat in range(game.players):
            if seat == q:
                continue
            for tries in (TRIES, 0):
                for _ in range(5):
                    sample_with(S.__name__, state.array, seat, rng, w, tries)
                    _check_world(game, state, seat, w, obs)
        found += 1
        if found == 6:
            break
    assert found >= 3


# --- uniformity ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name, seat", [("shmear", 1), ("shmear", 4), ("nesmear", 2)])
def test_first_decision_is_uniform(name, seat):
    game = tricksim.make_game(name)
    state = game.new_hand(seed=21, dealer=0)
    s = state.array
    unseen = [c for c in _bits(K.DECK_MASKS[game.variant]) if not int(s[K.HANDS + seat]) >> c & 1]
    places = [p for p in range(game.players) if p != seat]
    rest = _rest_size(s)
    counts = np.zeros((len(unseen), len(places) + 1))
    first = np.zeros(len(unseen))
    rng = _rng(77)
    w = np.empty(K.STATE_SIZE, dtype=np.int64)
    trials = 3000
    for _ in range(trials):
        S.sample(s, seat, rng, w)
        for i, c in enumerate(unseen):
            for j, p in enumerate(places):
                counts[i, j] += int(w[K.HANDS + p]) >> c & 1
            counts[i, -1] += int(w[K.STOCK]) >> c & 1
        first[unseen.index(int(w[K.REST_ORDER]))] += 1
    expected = np.array([K.HAND_SIZE] * len(places) + [rest]) / len(unseen)
    error = np.sqrt(expected * (1 - expected) / trials)
    assert (np.abs(counts / trials - expected) < 4.5 * error).mean() > 0.99
    assert (np.abs(counts / trials - expected) < 6 * error).all()
    p = 1 / len(unseen)
    assert (np.abs(first / trials - p) < 6 * np.sqrt(p * (1 - p) / trials)).all()


# --- merge ---------------------------------------------------------------------------------------


def _minimax(s, root, value, use_merge, memo):
    """The value for ``root``'s side of the rest of the hand, every other side against it."""
    to_act = int(s[K.TO_ACT])
    if to_act < 0:
        return value(s, root)
    key = (s.tobytes(), use_merge)
    if key in memo:
        return memo[key]
    _, cards, _ = K.legal(s)
    if use_merge:
        kept = S.merge(s, cards)
        for c in _bits(cards & ~kept):  # a merged card is worth what its kept neighbour is
            d = min((x for x in _bits(kept) if K.EFFECTIVE[s[K.TABLE], x] == K.EFFECTIVE[s[K.TABLE], c]
                     and K.POWER[s[K.TABLE], x] > K.POWER[s[K.TABLE], c]), key=lambda x: K.POWER[s[K.TABLE], x])
            values = []
            for card in (c, d):
                child = s.copy()
                K.step(child, K.PLAY_BASE + card)
                values.append(_minimax(child, root, value, False, memo))
            assert values[0] == values[1], (card_label(c), card_label(d))
        cards = kept
    results = []
    for c in _bits(cards):
        child = s.copy()
        K.step(child, K.PLAY_BASE + c)
        results.append(_minimax(child, root, value, use_merge, memo))
    best = max(results) if S.same_side(s, to_act, root) else min(results)
    memo[key] = best
    return best


def _score_value(s, root):
    return int(s[K.SCORES + root])


def _points_value(s, root):
    return int(S.side_points(s, root))


@pytest.mark.parametrize("param", OPTION_SETS, ids=IDS)
def test_merge_keeps_the_minimax_value(param):
    name, options = param
    game = tricksim.make_game(name, **options)
    tricks_left = 2 if game.variant == K.SHMEAR else 3
    rng = random.Random(5)
    positions = merged = 0
    for i in range(300):
        state = game.new_hand(seed=900 + i, dealer=i % game.players)
        stop = K.NUM_TRICKS - tricks_left
        extra = rng.randrange(game.players)  # also mid-trick
        while not state.is_terminal() and not (
                state.phase == "play" and state.array[K.TRICK_NO] == stop and state.array[K.IN_TRICK] == extra):
            state.apply(_choose(state, rng))
        if state.is_terminal():
            continue
        s = state.array
        root = int(s[K.TO_ACT])
        for value in (_score_value, _points_value):
            assert _minimax(s, root, value, False, {}) == _minimax(s, root, value, True, {}), state.history
        positions += 1
        memo = {}
        _minimax(s, root, _points_value, True, memo)
        merged += any(S.merge(np.frombuffer(k, np.int64), K.legal(np.frombuffer(k, np.int64))[1])
                      != K.legal(np.frombuffer(k, np.int64))[1] for k, _ in memo)
        if positions == 25:
            break
    assert positions == 25
    assert merged >= 1


def _ne_worked_deal():
    game = tricksim.make_game("nesmear", widow=0)
    state = game.deal(hands=["KS QS JS TS KC QC", "AH 9H 8H 9S 7S 7C", "8S AS KH QH JH TH", "AC KD QD JD TD 9D"],
                      rest="JC TC 9C 8C AD 8D 7D 7H", dealer=0)
    for label in ["bid 4", "trump H"]:
        state.apply(label)
    return state


def _labels(mask):
    return sorted(card_label(c) for c in _bits(mask))


def test_merge_worked_example():
    state = _ne_worked_deal()
    s = state.array
    _, cards, _ = K.legal(s)
    # 8H and 9H are neighbours worth nothing: one is kept; AH is High
    assert _labels(cards) == ["8H", "9H", "AH"]
    assert _labels(S.merge(s, cards)) == ["9H", "AH"]
    for label in ["play AH", "play KH", "play AC", "play TS"]:
        state.apply(label)
    _, cards, _ = K.legal(s)
    # seat 1 leads again: 9S / 7S must stay apart (8S is in seat 2's hand)
    assert _labels(S.merge(s, cards)) == ["7C", "7S", "9H", "9S"]
    # with 8S in the trick in progress they stay apart too; once it is gone they merge
    state.apply("play 7C")
    s2 = s.copy()
    s2[K.HANDS + 2] &= ~(1 << parse_card("8S"))
    s2[K.HANDS + 3] |= 1 << parse_card("8S")  # now in another hand: still between
    assert _labels(S.merge(s2, int(s2[K.HANDS + 1]))) == ["7S", "9H", "9S"]
    s2[K.HANDS + 3] &= ~(1 << parse_card("8S"))
    s2[K.TRICK_MASK] |= 1 << parse_card("8S")  # on the table: still between
    assert _labels(S.merge(s2, int(s2[K.HANDS + 1]))) == ["7S", "9H", "9S"]
    s2[K.TRICK_MASK] &= ~(1 << parse_card("8S"))
    s2[K.WON] |= 1 << parse_card("8S")  # played in a finished trick: no longer between
    assert _labels(S.merge(s2, int(s2[K.HANDS + 1]))) == ["9H", "9S"]
    # outside card play nothing is merged
    fresh = tricksim.make_game("nesmear").new_hand(seed=1, dealer=0).array
    assert S.merge(fresh, 0b1111) == 0b1111


def test_merge_never_merges_point_cards():
    # Shmear, trump spades: 3S and 2S (Low) are neighbours worth nothing, but Low is special;
    # the joker (below 2S) likewise.
    game = tricksim.make_game("shmear")
    state = game.new_hand(seed=3, dealer=0)
    s = state.array.copy()
    s[K.PHASE] = K.PLAYING
    s[K.TRUMP] = 3
    s[K.TABLE] = K.SHMEAR * 4 + 3
    for p in range(6):
        s[K.HANDS + p] = 0
    s[K.HANDS + 0] = sum(1 << parse_card(c) for c in ["3S", "2S", "LJ", "4S", "9C", "8C"])
    s[K.TO_ACT] = 0
    assert _labels(S.merge(s, s[K.HANDS])) == ["2S", "4S", "9C", "LJ"]


# --- keys ---------------------------------------------------------------------------------------


def test_transposed_tricks_share_keys():
    # NE, trump H: seat 1 leads AH then KH, or KH then AH; the others, without trumps, throw the
    # same cards to each trick. Same future and same points taken: equal keys, different histories.
    hands = ["KS QS JS TS KC QC", "AH KH 8H 9S 7S 7C", "8S AS 9C JD AD 8D", "AC KD QD TD 9D 7D"]
    game = tricksim.make_game("nesmear", widow=0)
    first = ["play AH", "play 8S", "play AC", "play KS", "play KH", "play AS", "play KD", "play QS"]
    second = first[4:] + first[:4]
    ends = []
    for order in (first, second):
        state = game.deal(hands=hands, rest="JC TC 8C QH JH TH 9H 7H", dealer=0)
        for label in ["bid 4", "trump H"] + order:
            state.apply(label)
        ends.append(state.array)
    a, b = ends
    assert not np.array_equal(a[K.TRICKS:K.TRICKS + 2 * K.TRICK_SLOTS], b[K.TRICKS:K.TRICKS + 2 * K.TRICK_SLOTS])
    assert S.play_key(a) == S.play_key(b)
    assert S.score_key(a) == S.score_key(b)


@pytest.mark.parametrize("name", ["shmear", "nesmear"])
def test_transpositions_from_random_play(name):
    # Two consecutive tricks led and won by the same seat, replayed in the other order.
    game = tricksim.make_game(name)
    rng = random.Random(1)
    found = 0
    for i in range(300):
        state = game.new_hand(seed=i, dealer=i % game.players)
        while not state.is_terminal():
            state.apply(_choose(state, rng))
        if state.result()["thrown_in"]:
            continue
        tricks = state.tricks()
        start = next(j for j, a in enumerate(state.history) if A.action_label(a).startswith("play"))
        n = game.players
        for k in range(len(tricks) - 1):
            (l1, c1, w1), (l2, c2, w2) = tricks[k], tricks[k + 1]
            if not (l1 == w1 == l2 == w2):
                continue
            prefix = state.history[:start + k * n]
            keys = []
            for order in (c1 + c2, c2 + c1):
                other = game.new_hand(seed=i, dealer=i % game.players)
                try:
                    for a in prefix:
                        other.apply(a)
                    for c in order:
                        other.apply("play " + c)
                except tricksim.IllegalActionError:
                    break
                keys.append((S.play_key(other.array), S.score_key(other.array)))
            if len(keys) == 2:
                assert keys[0] == keys[1], (i, k)
                found += 1
    assert found >= 5


@pytest.mark.parametrize("name", ["shmear", "nesmear"])
def test_keys_tell_positions_apart(name):
    game = tricksim.make_game(name)
    rng = random.Random(2)
    for i in range(20):
        state = game.new_hand(seed=i, dealer=0)
        while not state.is_terminal() and not (state.phase == "play" and state.array[K.TRICK_NO] == 2
                                               and state.array[K.IN_TRICK] == 1):
            state.apply(_choose(state, rng))
        if state.is_terminal():
            continue
        s = state.array
        key, score = S.play_key(s), S.score_key(s)
        a, b = 0, 1
        ca, cb = _bits(s[K.HANDS + a])[0], _bits(s[K.HANDS + b])[0]
        swapped = s.copy()  # a card of seat 0 trades places with one of seat 1
        swapped[K.HANDS + a] ^= (1 << ca) | (1 << cb)
        swapped[K.HANDS + b] ^= (1 << ca) | (1 << cb)
        other_seat = s.copy()
        other_seat[K.TO_ACT] = (s[K.TO_ACT] + 1) % game.players
        flag = s.copy()
        flag[K.OPTIONS + K.O_MAY_TRUMP] ^= 1
        first_lead = s.copy()  # the NE "first lead is a trump" rule reads the trick number
        first_lead[K.TRICK_NO] = 0
        on_table = s.copy()  # another card led to the trick in progress (the same hands)
        at = K.TRICKS + int(s[K.TRICK_NO]) * K.TRICK_SLOTS + 1
        on_table[at] = next(c for c in _bits(K.DECK_MASKS[game.variant]) if c != s[at])
        for changed in (swapped, other_seat, flag, first_lead, on_table):
            assert S.play_key(changed) != key
            assert S.score_key(changed) != score
        taken = s.copy()  # the first two teams' tricks trade places: the future is the same
        taken[K.WON], taken[K.WON + 1] = s[K.WON + 1], s[K.WON]
        assert S.play_key(taken) == key
        if S.side_points(taken, 0) != S.side_points(s, 0):  # equal when the tricks' tallies are (NE: the discards stay)
            assert S.score_key(taken) != score


# --- side points ---------------------------------------------------------------------------------


@pytest.mark.parametrize("param", OPTION_SETS, ids=IDS)
def test_side_points_end_as_the_game_tallies(param):
    name, options = param
    game = tricksim.make_game(name, **options)
    rng = random.Random(4)
    ended = 0
    for i in range(60):
        state = game.new_hand(seed=300 + i, dealer=i % game.players)
        last = None
        while not state.is_terminal():
            state.apply(_choose(state, rng))
            if state.phase in ("play", "over"):
                now = [S.side_points(state.array, p) for p in range(game.players)]
                assert last is None or all(x >= y for x, y in zip(now, last))
                last = now
        if state.result()["thrown_in"]:
            continue
        s = state.array
        for seat in range(game.players):
            assert S.side_points(s, seat) == s[K.GAME_POINTS + game.team(seat)]
            assert S.side_points(s, seat) == state.result()["game_points"][game.team(seat)]
            for other in range(game.players):
                assert S.same_side(s, seat, other) == (game.team(seat) == game.team(other))
        ended += 1
    assert ended >= 30


@pytest.mark.parametrize("param", OPTION_SETS, ids=IDS)
def test_score_bounds_hold_the_final_scores(param):
    """At every position of mixed heuristic and random hands each seat's final score lies in its
    ``score_bounds``; they meet once the hand is over, and often before it (a point settled)."""
    name, options = param
    game = tricksim.make_game(name, **options)
    rng = random.Random(7)
    met_early = 0
    for i in range(60):
        state = game.new_hand(seed=500 + i, dealer=i % game.players)
        positions = [state.array.copy()]
        while not state.is_terminal():
            state.apply(_choose(state, rng))
            positions.append(state.array.copy())
        final = state.scores()
        met_early += bounds_hold(S.score_bounds, positions, final, lambda arr: arr[K.PHASE] == K.OVER)[1]
        assert all(S.score_bounds(state.array, p) == (final[p], final[p]) for p in range(game.players))
    assert met_early > 0
