"""Bluke's search hooks (``agents/bluke_search.py``): the world sampler, keys, tallies, bounds and
merging.

The sampler is checked against the seat's own observation vector, the deck, the voids shown in
play (worked out here again from the public tricks, not with the engine's kernel) and by
replaying the hand on the sampled deal; the merge against a brute-force minimax; the score bounds
against the final scores of random hands.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import tricksim
from tricksim.agents import bluke as agent
from tricksim.agents import bluke_search as S
from tricksim.cards import CardSet, card_label, cards_of, parse_card
from tricksim.sim.obs_bluke import blocks, observe
from tricksim.sim.observation import Layout
from tricksim.sim import actions as A
from tricksim.sim import bluke as K
from tricksim.sim.kernels import new_rng, seed_stream

from bounds_check import bounds_hold
from sampling import sample_with

OPTION_SETS = [
    {"players": 2},
    {"players": 3, "min_bid": 0, "hook": True},
    {"players": 4},
    {"players": 4, "bluke_lead": "next_sets_suit"},
    {"players": 6, "hook": True},
    {"players": 10, "min_bid": 0, "bluke_lead": "next_sets_suit"},
]
SUITS = "CDHS"
DECK = (1 << 54) - 1
NOT_COMPARABLE = {K.HAND_NO}  # game.deal records the way-down hand number (bluke.py docstring)


def _ids(o):
    return "-".join(f"{k}={v}" for k, v in o.items())


def _rng(*key):
    rng = new_rng()
    seed_stream(rng, *key)
    return rng


def _unseen(s, seat):
    """The cards ``seat`` cannot see: not its own, not played, not the turned card."""
    return K.DECK_MASK & ~s[K.HANDS + seat] & ~s[K.PLAYED] & ~(np.int64(1) << s[K.TURNED])


def _sample(state, seat, key):
    out = np.full_like(state.array, -7)
    S.sample(state.array, seat, _rng(key, seat, 11), out)
    return out


def _vector(game, s, seat):
    buf = np.zeros(Layout(blocks(game)).size, dtype=np.int8)
    observe(s, seat, buf)
    return buf


def _current_trick(state):
    """``(leader, [cards])`` of the trick in progress, from the observation dict."""
    view = state.observe(0)
    n = state.game.players
    cards = [parse_card(c) for c in view["current_trick"]]
    leader = (view["to_act"] - len(cards)) % n if cards else None
    return leader, cards


def _public_tricks(state):
    """Every trick played so far, finished or not: ``(leader, [cards in play order])``."""
    out = [(leader, [parse_card(c) for c in cards]) for leader, cards, _ in state.tricks()]
    leader, cards = _current_trick(state)
    if cards:
        out.append((leader, cards))
    return out


def _voids(state):
    """Python's reading of docs/rules.md, Bluke: Play: seat -> suits it showed void in (not following a
    suit set by the lead, or with ``next_sets_suit`` by the first non-bluke after a bluke lead)."""
    game = state.game
    sets_suit = game.options["bluke_lead"] == "next_sets_suit"
    voids = {p: set() for p in range(game.players)}
    for leader, cards in _public_tricks(state):
        follow = None if cards[0] >= 52 else cards[0] // 13
        for i, c in enumerate(cards[1:], 1):
            if c >= 52:
                continue
            if follow is None:
                follow = c // 13 if sets_suit else None
            elif c // 13 != follow:
                voids[(leader + i) % game.players].add(follow)
    return voids


def _played_by(state):
    """seat -> mask of the cards it played, from the public tricks."""
    n = state.game.players
    played = [0] * n
    for leader, cards in _public_tricks(state):
        for i, c in enumerate(cards):
            played[(leader + i) % n] |= 1 << c
    return played


def _check_world(state, seat, world, *, exact=True):
    """``world`` is a deal ``seat`` cannot tell from ``state``, and a reachable one."""
    game, s, n = state.game, state.array, state.game.players
    assert (_vector(game, world, seat) == _vector(game, s, seat)).all(), "the seat sees a difference"
    masks = [int(world[K.HANDS + p]) for p in range(n)] + [int(world[K.REST]), int(world[K.PLAYED]),
                                                         1 << int(world[K.TURNED])]
    assert sum(bin(m).count("1") for m in masks) == 54 and np.bitwise_or.reduce(masks) == DECK
    assert (world[K.HANDS + n:K.HANDS + K.MAX_PLAYERS] == 0).all()
    for p in range(n):
        assert bin(masks[p]).count("1") == bin(int(s[K.HANDS + p])).count("1")
        for suit in _voids(state)[p]:
            assert masks[p] & (0x1FFF << 13 * suit) == 0, (p, SUITS[suit], "a shown void holds the suit")
    assert world[K.HANDS + seat] == s[K.HANDS + seat]
    assert bin(int(world[K.REST])).count("1") == bin(int(s[K.REST])).count("1")
    if exact:
        _check_replay(state, world)


def _check_replay(state, world):
    """Deal the world's cards as they were before play and replay the hand's actions on it."""
    game, n = state.game, state.game.players
    played = _played_by(state)
    hands = [str(CardSet.from_mask(int(world[K.HANDS + p]) | played[p])) for p in range(n)]
    rest = [card_label(int(world[K.TURNED]))] + CardSet.from_mask(int(world[K.REST])).labels()
    replay = game.deal(hands, " ".join(rest), dealer=int(state.array[K.DEALER]))
    for action in state.history:
        replay.apply(action)  # raises when the world could not have played it
    same = replay.array == world
    same[list(NOT_COMPARABLE)] = True
    assert same.all(), np.flatnonzero(~same)


def _positions(game, seed, hand, heuristic):
    """The states of one hand at each decision and at the end (random or heuristic play)."""
    state = game.new_hand(seed=seed, dealer=seed % game.players, hand=hand)
    rng = random.Random(seed)
    arng = _rng(seed, hand, 5)
    while True:
        yield state
        if state.is_terminal():
            return
        if heuristic:
            state.apply(int(agent.act(state.array, agent.DEFAULTS, arng)))
        else:
            state.apply(rng.choice(state.legal_actions()))


# --- 1. sampling consistency --------------------------------------------------------------


@pytest.mark.parametrize("options", OPTION_SETS, ids=_ids)
def test_sampled_worlds_look_the_same_to_the_seat_and_replay(options):
    game = tricksim.make_game("bluke", **options)
    n = game.players
    sizes = set()
    for i in range(4):
        hand = (0, game.max_hand // 2, game.max_hand - 1, game.max_hand + 1)[i]  # sizes M, ~M/2, 1, 2
        sizes.add(game.hand_size(hand))
        for k, state in enumerate(_positions(game, 100 + i, hand, heuristic=i % 2 == 1)):
            before = state.array.copy()
            for seat in range(n):
                _check_world(state, seat, _sample(state, seat, 1000 * i + k))
            assert (state.array == before).all(), "sample changed s"
    assert len(sizes) >= 3


@pytest.mark.parametrize("options", OPTION_SETS[:4], ids=_ids)
def test_the_constructive_deal_is_consistent(options):
    """The fallback after failed rejections, called directly on every position."""
    game = tricksim.make_game("bluke", **options)
    for i in range(3):
        for k, state in enumerate(_positions(game, 200 + i, (i * 7) % game.match_hands, heuristic=True)):
            s = state.array
            for seat in range(game.players):
                world = s.copy()
                sample_with(S.__name__, s, seat, _rng(i, k, seat), world, 0)
                _check_world(state, seat, world)


def test_a_position_rejection_cannot_deal_falls_back_and_stays_consistent():
    """Seat 1 showed voids in clubs, diamonds and hearts with 10 cards left: only 11 unseen cards
    (5S..AS and LJ) fit its hand, which rejection almost never deals, so the constructive deal
    runs."""
    game = tricksim.make_game("bluke", players=2)
    hands = ["AC AD AH KC KD KH QC QD QH JC JD JH TC", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]
    state = game.deal(hands, _rest("HJ", *hands), dealer=1)
    for label in ["bid 1", "bid 1", "play AC", "play 2S", "play AD", "play 3S", "play AH", "play 4S"]:
        state.apply(label)
    worlds = [_sample(state, 0, key) for key in range(100)]
    fits = _unseen(state.array, 0) & ~int(0x1FFF * (1 + (1 << 13) + (1 << 26)))
    assert bin(int(fits)).count("1") == 11
    for world in worlds:
        _check_world(state, 0, world)
        assert world[K.HANDS + 1] & ~fits == 0
    assert len({int(w[K.HANDS + 1]) for w in worlds}) >= 6


def test_worlds_vary_and_hide_what_the_seat_cannot_see():
    game = tricksim.make_game("bluke", players=4)
    state = game.new_hand(seed=3, dealer=0, hand=0)
    worlds = [_sample(state, 1, key) for key in range(20)]
    assert len({tuple(w[K.HANDS:K.HANDS + 4]) for w in worlds}) == 20
    assert len({int(w[K.REST]) for w in worlds}) > 1
    for w in worlds:
        assert w[K.HANDS + 1] == state.array[K.HANDS + 1] and w[K.TURNED] == state.array[K.TURNED]


def test_after_the_hand_only_the_undealt_rest_moves():
    game = tricksim.make_game("bluke", players=3)
    for state in _positions(game, 9, 20, heuristic=False):
        pass
    assert state.is_terminal()
    for seat in range(3):
        world = _sample(state, seat, 4)
        _check_world(state, seat, world)
        same = world == state.array
        same[K.REST] = True
        assert same.all()


# --- 2. uniformity ------------------------------------------------------------------------


def _frequencies(state, seat, places, draws):
    """How often each card lands in each place (a seat, or 'rest') over ``draws`` worlds."""
    counts = {q: np.zeros(54) for q in places}
    for key in range(draws):
        world = _sample(state, seat, 50_000 + key)
        for q in places:
            mask = int(world[K.REST] if q == "rest" else world[K.HANDS + q])
            counts[q][cards_of(mask)] += 1
    return {q: c / draws for q, c in counts.items()}


def test_before_play_each_unseen_card_sits_in_a_place_by_its_size():
    game = tricksim.make_game("bluke", players=3)
    state = game.new_hand(seed=5, dealer=0, hand=8)  # 5 cards each, 38 under the turned card
    unseen = cards_of(_unseen(state.array, 0))
    draws = 3000
    freq = _frequencies(state, 0, [1, 2, "rest"], draws)
    for q, size in ((1, 5), (2, 5), ("rest", 38)):
        p = size / len(unseen)
        se = (p * (1 - p) / draws) ** 0.5
        assert np.abs(freq[q][unseen] - p).max() < 4.5 * se, q


def test_with_one_void_seat_its_hand_is_uniform_over_the_other_suits():
    """Seat 1 alone showed a void: its hand is a uniform subset of the unseen cards outside the
    void suit, so each such card is in it with chance size / (their number)."""
    game = tricksim.make_game("bluke", players=2)
    hands = ["AH KH QH 2C 3C", "2D 3D 4D 5D 6D"]
    taken = set(" ".join(hands).split()) | {"9S"}
    rest = "9S " + " ".join(c for c in CardSet.from_mask(DECK).labels() if c not in taken)
    state = game.deal(hands, rest, dealer=1)
    for label in ["bid 1", "bid 1", "play AH", "play 2D"]:  # seat 1 shows a heart void
        state.apply(label)
    s = state.array
    unseen = _unseen(s, 0)
    allowed = [c for c in cards_of(unseen) if c // 13 != 2]
    draws = 4000
    freq = _frequencies(state, 0, [1], draws)[1]
    p = 4 / len(allowed)
    se = (p * (1 - p) / draws) ** 0.5
    assert np.abs(freq[allowed] - p).max() < 4.5 * se
    assert freq[[c for c in cards_of(unseen) if c // 13 == 2]].max() == 0


# --- 3. merge -----------------------------------------------------------------------------


def _minimax(s, me, objective, use_merge):
    """Paranoid minimax over the rest of the hand: ``me`` maximises, every other seat minimises
    ``objective(s, me)``; with ``use_merge`` each node searches only the merged cards."""
    if s[K.TO_ACT] < 0:
        return objective(s, me)
    _, cards, _ = K.legal(s)
    if use_merge:
        cards = S.merge(s, cards)
    values = []
    for c in cards_of(int(cards)):
        child = s.copy()
        K.step(child, A.card_action(A.PLAY, c))
        values.append(_minimax(child, me, objective, use_merge))
    return max(values) if s[K.TO_ACT] == me else min(values)


def _tricks(s, me):
    return int(S.side_points(s, me))


def _score(s, me):
    return int(s[K.SCORES + me])


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 3}, {"players": 3, "bluke_lead": "next_sets_suit"},
                                     {"players": 4}], ids=_ids)
def test_merged_cards_keep_the_minimax_value(options):
    game = tricksim.make_game("bluke", **options)
    n = game.players
    left_tricks = 3 if n <= 3 else 2
    merged_somewhere = 0
    for i in range(25):
        size = game.max_hand - (i % 4)
        hand = game.max_hand - size
        state = game.new_hand(seed=300 + i, dealer=i % n, hand=hand)
        rng = random.Random(i)
        while state.is_terminal() is False and (state.phase == "bidding"
                                               or size - int(state.array[K.TRICK_NO]) > left_tricks
                                               or rng.random() < 0.3):
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        s = state.array
        _, cards, _ = K.legal(s)
        merged_somewhere += S.merge(s, cards) != cards
        me = (int(s[K.TO_ACT]) + i) % n
        for objective in (_tricks, _score):
            assert _minimax(s, me, objective, True) == _minimax(s, me, objective, False), (i, objective)
    assert merged_somewhere >= 3


def _merge_labels(hands, rest, actions, dealer=1, players=2):
    game = tricksim.make_game("bluke", players=players)
    state = game.deal(hands, rest, dealer=dealer)
    for label in actions:
        state.apply(label)
    _, cards, _ = K.legal(state.array)
    return str(CardSet.from_mask(int(S.merge(state.array, cards))))


def _rest(turned, *used):
    taken = set(" ".join(used).split()) | {turned}
    return turned + " " + " ".join(c for c in CardSet.from_mask(DECK).labels() if c not in taken)


def test_merge_by_hand():
    bids = ["bid 1", "bid 1"]
    # KH QH touch: QH goes; QH kept apart from KH by JH elsewhere: all stay
    assert _merge_labels(["KH QH 2C", "AH 3C 4C"], _rest("2S", "KH QH 2C AH 3C 4C"), bids) == "2C KH"
    assert _merge_labels(["KH JH 2C", "QH 3C 4C"], _rest("2S", "KH JH 2C QH 3C 4C"), bids) == "2C JH KH"
    # a card in the undealt rest never comes into play, so it does not separate
    assert _merge_labels(["KH JH 2C", "AH 3C 4C"], _rest("2S", "KH JH 2C AH 3C 4C"), bids) == "2C KH"
    # a card of the current trick does separate: QH led, KH beats it and JH does not
    assert _merge_labels(["QH 3C 4C", "KH JH 2C"], _rest("2S", "KH JH 2C QH 3C 4C"), bids + ["play QH"],
                         dealer=1) == "JH KH"
    # both blukes: one is kept; 2C 3C 4C all touch; trumps too
    assert _merge_labels(["LJ HJ 2C", "AH 3H 4H"], _rest("2S", "LJ HJ 2C AH 3H 4H"), bids) == "2C HJ"
    assert _merge_labels(["2C 3C 4C", "AH 3H 4H"], _rest("2S", "2C 3C 4C AH 3H 4H"), bids) == "4C"
    assert _merge_labels(["2S 3S 5S", "4S 3H 4H"], _rest("2D", "2S 3S 5S 4S 3H 4H"), bids) == "3S 5S"
    # during the bidding nothing is merged
    game = tricksim.make_game("bluke", players=2)
    state = game.deal(["2C 3C 4C", "AH 3H 4H"], _rest("2S", "2C 3C 4C AH 3H 4H"), dealer=1)
    assert S.merge(state.array, np.int64(0b111)) == 0b111


# --- 4. keys ------------------------------------------------------------------------------


def _played(state, labels):
    state = state.clone()
    for label in labels:
        state.apply(label)
    return state


def test_transposed_tricks_share_keys():
    game = tricksim.make_game("bluke", players=3)
    hands = ["AC AD 2H 5S", "KC KD 3H 6S", "QC QD 4H 7S"]
    base = game.deal(hands, _rest("2S", *hands), dealer=2)
    bids = ["bid 1", "bid 2", "bid 1"]
    a = _played(base, bids + ["play AC", "play KC", "play QC", "play AD", "play KD", "play QD"])
    b = _played(base, bids + ["play AD", "play KD", "play QD", "play AC", "play KC", "play QC"])
    assert (a.array != b.array).any()
    assert S.play_key(a.array) == S.play_key(b.array)
    assert S.score_key(a.array) == S.score_key(b.array)
    # two more equal positions, mid-trick
    assert S.play_key(_played(a, ["play 2H"]).array) == S.play_key(_played(b, ["play 2H"]).array)
    assert S.play_key(_played(a, ["play 2H"]).array) != S.play_key(_played(b, ["play 5S"]).array)


def test_keys_tell_apart_what_changes_the_future():
    game = tricksim.make_game("bluke", players=3)
    hands = ["AC AD 2H 5S", "KC KD 3H 6S", "QC QD 4H 7S"]
    base = _played(game.deal(hands, _rest("2S", *hands), dealer=2), ["bid 1", "bid 2", "bid 1", "play AC"])
    s = base.array
    key, skey = S.play_key(s), S.score_key(s)

    def changed(slot, value):
        t = s.copy()
        t[slot] = value
        return t

    swapped = s.copy()
    swapped[K.HANDS + 1] ^= (1 << parse_card("6S")) | (1 << parse_card("7S"))
    swapped[K.HANDS + 2] ^= (1 << parse_card("6S")) | (1 << parse_card("7S"))
    for other in (swapped, changed(K.TO_ACT, 2), changed(K.LED, -1), changed(K.TRUMP, 1),
                  changed(K.OPT_BLUKE_LEAD, 1), changed(K.LEADER, 1)):
        assert S.play_key(other) != key and S.score_key(other) != skey
    for other in (changed(K.TAKEN + 1, 1), changed(K.BIDS, 3)):
        assert S.play_key(other) == key and S.score_key(other) != skey
    assert S.play_key(changed(K.REST, 0)) == key  # the undealt rest is out of play


def _future(s):
    """What the rest of the hand reads, spelled out (for the key's injectivity check)."""
    n = int(s[K.NUM_PLAYERS])
    slot = K.TRICKS + int(s[K.TRICK_NO]) * K.TRICK_SLOTS
    bidding = s[K.PHASE] == K.BIDDING
    return (int(s[K.PHASE]), n, int(s[K.TRUMP]), int(s[K.TO_ACT]), int(s[K.LEADER]), int(s[K.LED]),
            int(s[K.OPT_BLUKE_LEAD]), int(s[K.HAND_SIZE] - s[K.TRICK_NO]),
            tuple(int(x) for x in s[K.HANDS:K.HANDS + n]), tuple(int(x) for x in s[slot + 1:slot + 1 + s[K.IN_TRICK]]),
            (tuple(int(x) for x in s[K.BIDS:K.BIDS + n]), int(s[K.DEALER]), int(s[K.OPT_MIN_BID]), int(s[K.OPT_HOOK]))
            if bidding else ())


def test_play_keys_match_futures_one_to_one():
    seen = {}
    for options in OPTION_SETS[:4]:
        game = tricksim.make_game("bluke", **options)
        for i in range(20):
            for state in _positions(game, 400 + i, i % 3, heuristic=i % 2 == 0):
                future = _future(state.array)
                key = int(S.play_key(state.array))
                assert seen.setdefault(key, future) == future
    assert len(set(seen.values())) == len(seen) > 1000


# --- 5. side points -----------------------------------------------------------------------


@pytest.mark.parametrize("options", OPTION_SETS, ids=_ids)
def test_side_points_add_up_to_the_tricks_taken(options):
    game = tricksim.make_game("bluke", **options)
    n = game.players
    for i in range(6):
        hand = (3 * i) % game.match_hands
        for state in _positions(game, 500 + i, hand, heuristic=i % 2 == 0):
            if state.phase == "bidding":
                assert all(S.side_points(state.array, p) == 0 for p in range(n))
        s = state.array
        points = [int(S.side_points(s, p)) for p in range(n)]
        assert points == game.taken(s) == [sum(w == p for _, _, w in state.tricks()) for p in range(n)]
        assert sum(points) == game.hand_size(hand)
        assert [K.bid_score(int(s[K.BIDS + p]), points[p]) for p in range(n)] == state.scores()
        assert all(S.same_side(s, p, q) == (p == q) for p in range(n) for q in range(n))


@pytest.mark.parametrize("options", OPTION_SETS, ids=_ids)
def test_score_bounds_hold_the_final_scores(options):
    """At every position of random and heuristic hands each seat's final score lies in its
    ``score_bounds``; they meet once the hand is over, and before it once a bid is set."""
    game = tricksim.make_game("bluke", **options)
    met_early = 0
    for seed in range(24):
        positions = [state.array.copy() for state in _positions(game, seed, seed % game.match_hands, seed % 2 == 0)]
        final = positions[-1][K.SCORES:K.SCORES + game.players]
        met_early += bounds_hold(S.score_bounds, positions, final, lambda arr: arr[K.PHASE] == K.OVER)[1]
        for arr in positions:
            if arr[K.PHASE] == K.OVER:
                assert all(S.score_bounds(arr, p)[0] == S.score_bounds(arr, p)[1] for p in range(game.players))
    assert met_early > 0


def test_every_card_of_a_run_gets_the_value_of_the_run():
    """Last to play with 6D 7D 8D on a 9D lead: all three lose alike. The solver values only the 8D
    (the run's kept card); 7D takes its value, and 6D the 7D's (as a pair, 6D and 8D are not
    equivalent: the 7D held lies between them)."""
    from tricksim.agents.solver import MAX_MOVES, compiled
    from tricksim.experiments.explain import Valuer

    game = tricksim.make_game("bluke", players=2)
    hands = ["6D 7D 8D", "9D 3C 4C"]
    state = _played(game.deal(hands, _rest("2S", *hands), dealer=0), ["bid 1", "bid 2", "play 9D"])
    actions, values = np.zeros(MAX_MOVES, np.int64), np.full(MAX_MOVES, 99, np.int64)
    n = compiled(game.family).action_values(game.family, state.array.copy(), 0, 0, Valuer(game).ws, actions, values)
    assert [A.action_label(int(a)) for a in actions[:n]] == ["play 6D", "play 7D", "play 8D"]
    assert len(set(values[:n])) == 1 and values[0] < 0
