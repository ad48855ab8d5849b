"""Inference in the world sampler (``tricksim.agents.inference``): each game's ``play_start`` and the
replay from it reproduce a state of the card play slot for slot (the true deal and sampled
worlds), and a world where a seat ducked under a card it held to win weighs less."""

from __future__ import annotations

import random

import numpy as np
import pytest

import tricksim
from tricksim.agents import agent_module
from tricksim.cards import NUM_CARDS, card_label
from tricksim.agents.fiftyfive_search import auction_start
from tricksim.agents.inference import bid_log_chance, replay_equals, world_log_likelihood
from tricksim.sim.kernels import new_rng, seed_stream
from tricksim.spec import family_part

CASES = [
    ("sheepshead", {}),
    ("sheepshead", {"no_call": "unknown"}),
    ("sheepshead", {"partner": "jack_of_diamonds"}),
    ("sheepshead", {"no_pick": "forced", "no_call": "unknown"}),
    ("fiftyfive", {"players": 4, "teams": 2}),
    ("fiftyfive", {"players": 5, "exchange": 3, "first_lead": "bidder"}),
    ("fiftyfive", {"players": 6, "exchange": 2}),
    ("shmear", {}),
    ("shmear", {"teams": 2, "may_trump": True}),
    ("nesmear", {}),
    ("nesmear", {"widow": 2, "high_low": "in_play"}),
    ("bluke", {"players": 3}),
    ("bluke", {"players": 4, "bluke_lead": "next_sets_suit"}),
    ("bluke", {"players": 10, "min_bid": 0}),
]


def _ids(case):
    name, options = case
    return "-".join([name] + [f"{k}={v}" for k, v in options.items()])


def _rng(*key):
    rng = new_rng()
    seed_stream(rng, *key)
    return rng


def _card_play_states(game, hands, heuristic_every=2):
    """Every state of the card play of ``hands`` seeded hands (random play, or heuristic play in
    every ``heuristic_every``-th hand)."""
    agent = agent_module(game.name)
    for hand in range(hands):
        state = game.new_hand(seed=hand, dealer=hand % game.players)
        pick = random.Random(hand)
        rng = _rng(hand, 9, 0)
        while not state.is_terminal():
            if state.phase == "play":
                yield state
            if hand % heuristic_every == 0:
                state.apply(int(agent.act(state.array, agent.DEFAULTS, rng)))
            else:
                state.apply(pick.choice(state.legal_actions()))


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_the_replay_from_the_start_of_the_play_reproduces_every_slot(case):
    name, options = case
    game = tricksim.make_game(name, **options)
    family = game.family
    sample = family_part(family, "search").sample
    seen = 0
    for k, state in enumerate(_card_play_states(game, hands=12)):
        s = state.array.copy()
        scratch = np.full_like(s, -9)
        assert replay_equals(family, s, scratch), (k, np.flatnonzero(scratch != s))
        world = np.zeros_like(s)
        sample(s, int(state.current_player), _rng(k, 3, 0), world)
        assert replay_equals(family, world, scratch), (k, np.flatnonzero(scratch != world))
        assert (state.array == s).all()
        seen += 1
    assert seen > 20


@pytest.mark.parametrize("case", [case for case in CASES if case[0] in ("sheepshead", "bluke")], ids=_ids)
def test_the_auction_replay_ends_at_the_start_of_the_play(case):
    # the hook rebuilds the deal before the auction and steps the auction (Sheepshead's passes,
    # pick, bury, call and unknown; Bluke's bids) through the game's own step: it must land on
    # play_start's state, slot for slot
    game = tricksim.make_game(case[0], **case[1])
    search = family_part(game.family, "search")
    sample, auction_log_chance, play_start = search.sample, search.auction_log_chance, search.play_start
    seen = 0
    for k, state in enumerate(_card_play_states(game, hands=12)):
        s = state.array.copy()
        world = np.zeros_like(s)
        sample(s, int(state.current_player), _rng(k, 3, 0), world)
        for deal in (s, world):
            scratch, start = np.full_like(s, -9), np.full_like(s, -7)
            chance = auction_log_chance(deal, int(state.current_player), 0.5, agent_module(game.name).DEFAULTS,
                                        _rng(k, 4, 0), scratch)
            play_start(deal, start)
            assert (scratch == start).all(), (k, np.flatnonzero(scratch != start))
            assert np.isfinite(chance) and chance <= 0
        seen += 1
    assert seen > 20


@pytest.mark.parametrize("case", [case for case in CASES if "smear" in case[0]], ids=_ids)
def test_the_smears_hands_as_dealt_are_rebuilt_from_the_card_play(case):
    # the draw's discards and drawn cards (Shmear) or the widow (NE Smear) undone: every seat's
    # hand as dealt, from each state of the card play
    from tricksim.agents.smear_search import dealt_hands

    game = tricksim.make_game(case[0], **case[1])
    rules, agent = family_part(game.family, "rules"), agent_module(game.name)
    hands = slice(rules.HANDS, rules.HANDS + game.players)
    seen = 0
    for hand in range(10):
        state = game.new_hand(seed=hand, dealer=hand % game.players)
        dealt = state.array[hands].copy()
        rng, pick = _rng(hand, 9, 0), random.Random(hand)
        while not state.is_terminal():
            if state.phase == "play":
                out = np.zeros_like(state.array)
                dealt_hands(state.array, out)
                assert (out[hands] == dealt).all(), (hand, state.tricks())
                seen += 1
            move = agent.act(state.array, agent.DEFAULTS, rng) if hand % 2 else pick.choice(state.legal_actions())
            state.apply(int(move))
    assert seen > 20


@pytest.mark.parametrize("case", [case for case in CASES if case[0] == "fiftyfive"], ids=_ids)
def test_fiftyfive_auction_start_rebuilds_the_deal_slot_for_slot(case):
    # the kitty taken and the cards drawn in the exchange undone: from every state after the
    # bidding, the state of the deal before the first bid, as the game dealt it
    game = tricksim.make_game(case[0], **case[1])
    agent, seen = agent_module(game.name), 0
    for hand in range(10):
        state = game.new_hand(seed=hand, dealer=hand % game.players)
        dealt = state.array.copy()
        rng, pick = _rng(hand, 9, 0), random.Random(hand)
        while not state.is_terminal():
            out = np.full_like(state.array, -5)
            auction_start(state.array, out)
            assert (out == dealt).all(), (hand, state.phase, np.flatnonzero(out != dealt))
            seen += 1
            move = agent.act(state.array, agent.DEFAULTS, rng) if hand % 2 else pick.choice(state.legal_actions())
            state.apply(int(move))
    assert seen > 100


def test_a_world_where_a_fiftyfive_bidder_held_a_weak_hand_weighs_less():
    # seat 0 passes, seat 1 bids 60: the heuristic bids 60 with the strong hand, 20 with the weak
    # one; to seat 0, the world where seat 1 held the weak hand (seat 2, yet to speak, the strong)
    # weighs less than the other way round, by the bid's chance alone
    game = tricksim.make_game("fiftyfive", players=4)
    agent = agent_module("fiftyfive")
    strong, weak = "5H JH AH AD KH", "2D 3D 9S 9C 6H"
    rest = [label for label in map(card_label, range(NUM_CARDS))
            if label[-1] in "CDHS" and label not in f"{strong} {weak}".split()]  # the 52 cards, no joker
    weights = []
    for second, third in ((strong, weak), (weak, strong)):
        state = game.deal([" ".join(rest[:5]), second, third, " ".join(rest[5:10])], " ".join(rest[10:]), dealer=3)
        state.apply("pass")
        assert state.legal_labels() == ["pass", "bid 10", "bid 15", "bid 20", "bid 25", "bid 60"]
        weights.append(state.action_label(int(agent.act(state.array, agent.DEFAULTS, _rng(0, 0, 0)))))
        state.apply("bid 60")
        weights.append(_log_weight(game, state, seat=0, eps=0.5))
    strong_bid, strong_weight, weak_bid, weak_weight = weights
    assert (strong_bid, weak_bid) == ("bid 60", "bid 20")
    # 60 is the heuristic's with the strong hand (weight 2 of 3: 25 beside it), two steps off its 20
    # with the weak one
    assert strong_weight - weak_weight == pytest.approx(np.log((0.5 * 2 / 3 + 0.5 / 6) / (0.5 / 6)))


def test_a_world_where_a_smear_bidder_held_a_stronger_hand_than_his_bid_weighs_less():
    # NE Smear, dealer 3: seat 0 bids 2 (the heuristic bids 2 on the first hand, 4 on the second);
    # to seat 1, the world where seat 0 held the second (the dealer, yet to speak, the first)
    # weighs less than the other way round, by the bid's chance alone
    weak, strong = "8H TH 9D JS TS JH", "AS 7C AC JC 9C KC"
    used = set(f"{weak} {strong}".split())
    rest = [r + s for s in "CDHS" for r in "789TJQKA" if r + s not in used]
    middle, undealt = [" ".join(rest[:6]), " ".join(rest[6:12])], " ".join(rest[12:])
    game = tricksim.make_game("nesmear")
    weights = []
    for first, dealer in ((weak, strong), (strong, weak)):
        state = game.deal([first, *middle, dealer], undealt, dealer=3)
        assert state.legal_labels()[:4] == ["pass", "bid 2", "bid 3", "bid 4"]
        choices = len(state.legal_actions())
        state.apply("bid 2")
        weights.append(_log_weight(game, state, seat=1, eps=0.5))
    # the heuristic's 2 takes weight 2 of 4 (pass and 3 beside it take 1 each) of the share 1 - eps;
    # its 4 is two steps from the 2 bid, which then has only its share of eps
    assert weights[0] - weights[1] == pytest.approx(np.log((0.5 * 2 / 4 + 0.5 / choices) / (0.5 / choices)))


def _chances(words, h, eps):
    return {a: np.exp(bid_log_chance(words, h, a, eps)) for a in range(64) if words >> a & 1}


@pytest.mark.parametrize("bids", [range(0, 11), [0, 11, 12, 13, 14], [9, 10, 12, 13], [9, 10]], ids=str)
@pytest.mark.parametrize("eps", [0.0, 0.1, 0.5, 0.9])
def test_a_bid_next_to_the_heuristics_is_likelier_than_one_further_off(bids, eps):
    # the bids' chances add up to one: 1 - eps shared by the heuristic's bid (weight 2) and the
    # legal bids next to it on either side (a barred bid skipped: the next legal one stands beside
    # it; weight 1 each), eps evenly by every bid
    words = sum(1 << a for a in bids)
    for h in bids:
        chances = _chances(words, h, eps)
        assert sum(chances.values()) == pytest.approx(1.0)
        below, above = [a for a in bids if a < h], [a for a in bids if a > h]
        near = ({max(below)} if below else set()) | ({min(above)} if above else set())
        even, share = eps / len(bids), (1 - eps) / (2 + len(near))
        assert chances[h] == pytest.approx(even + 2 * share)
        assert all(chances[a] == pytest.approx(even + share) for a in near)
        assert all(chances[a] == pytest.approx(even) for a in bids if a != h and a not in near)


def test_the_chance_of_a_bid_by_hand():
    # bids 0 to 10, the heuristic's 3, eps 0.5 (the docstring's example); at the scale's end (0)
    # the heuristic's bid takes 2 of 3 of the share 1 - eps
    chances = _chances(sum(1 << (9 + b) for b in range(11)), 9 + 3, 0.5)
    assert chances[12] == pytest.approx(0.25 + 0.5 / 11) and round(chances[12], 3) == 0.295
    assert chances[11] == chances[13] == pytest.approx(0.125 + 0.5 / 11) and round(chances[11], 3) == 0.170
    assert chances[16] == pytest.approx(0.5 / 11) and round(chances[16], 3) == 0.045
    assert _chances(sum(1 << (9 + b) for b in range(11)), 9, 0.5)[9] == pytest.approx(0.5 * 2 / 3 + 0.5 / 11)
    assert _chances(1 << 9, 9, 0.5) == {9: 1.0}  # a single legal bid says nothing


def _bluke_deal(game, hands):
    """A Bluke deal of ``hands``, a bluke turned (no trump), the other cards undealt."""
    used = set(" ".join(hands).split()) | {"LJ"}
    rest = ["LJ"] + [card_label(c) for c in range(NUM_CARDS) if card_label(c) not in used]
    return game.deal(hands, " ".join(rest), dealer=0)


def _log_weight(game, state, seat, eps=0.1):
    s = np.ascontiguousarray(state.array)
    return world_log_likelihood(game.family, s, seat, eps, agent_module(game.name).DEFAULTS, _rng(0, 1, 0))


def test_a_world_where_a_seat_ducked_with_the_winner_in_hand_weighs_less():
    # Bluke, no trump (a turned bluke), three seats: seat 1 leads KS, seat 2 plays 2S holding AS.
    # The heuristic takes the trick with AS; the world where seat 2 held it weighs less than the
    # world where it did not (the AS with seat 0 instead, who has not played to the trick).
    game = tricksim.make_game("bluke", players=3)
    duck_hands = ["AH KH QH JH", "KS 3C 4C 5C", "2S AS 8D 7D"]
    fair_hands = ["AS KH QH JH", "KS 3C 4C 5C", "2S AH 8D 7D"]
    weights = []
    for hands in (duck_hands, fair_hands):
        state = _bluke_deal(game, hands)
        for _ in range(3):
            state.apply("bid 1")
        assert state.current_player == 1
        state.apply("play KS")
        state.apply("play 2S")
        weights.append(_log_weight(game, state, seat=0))
    assert weights[0] < weights[1]


def _sheepshead_world(hands, blind, bury, call):
    """A Sheepshead deal (dealer 4: seat 0 speaks first) where seat 0 passes, seat 1 picks, buries
    ``bury`` and calls ``call``: the start of its card play."""
    state = tricksim.make_game("sheepshead").deal(hands, blind, dealer=4)
    for action in ["pass", "pick", f"bury {bury[0]}", f"bury {bury[1]}", call]:
        state.apply(action)
    return state


def test_a_world_where_a_passer_held_a_picking_hand_weighs_less():
    # seat 0 passed: the world where it held six trumps (the heuristic picks them) weighs less than
    # the one where those trumps are with seat 3, who never spoke, by the pass's chance alone
    weak, strong = "7C 8C 9S 8S 7H 8H", "QH QD JS JH 9D 8D"
    others = ["QC QS JC AD TD KD", "9C KC 7S 9H KH 7D"]
    fail = "AC TC AS TS AH TH"
    states = [_sheepshead_world([first, *others, third, fail], "JD KS", ["KS", "KD"], "alone")
              for first, third in ((weak, strong), (strong, weak))]
    game = states[0].game
    fair, odd = (_log_weight(game, state, seat=2, eps=0.5) for state in states)
    assert fair - odd == pytest.approx(np.log(0.75 / 0.25))


def test_before_the_pick_a_world_where_a_passer_held_a_picking_hand_weighs_less():
    # seat 1 decides whether to pick after seat 0 passed: the same evidence, in the auction
    weak, strong = "7C 8C 9S 8S 7H 8H", "QH QD JS JH 9D 8D"
    others = ["QC QS JC AD TD KD", "9C KC 7S 9H KH 7D"]
    game = tricksim.make_game("sheepshead")
    weights = []
    for first, third in ((weak, strong), (strong, weak)):
        state = game.deal([first, *others, third, "AC TC AS TS AH TH"], "JD KS", dealer=4)
        state.apply("pass")
        weights.append(_log_weight(game, state, seat=1, eps=0.5))
    assert weights[0] - weights[1] == pytest.approx(np.log(0.75 / 0.25))


def test_a_world_where_the_picker_held_a_weak_hand_weighs_less():
    # the same bury and call from eight strong cards or from eight weak ones (the five cards that
    # differ are with seat 3, who never spoke): no blind among the weak eight makes the heuristic pick
    strong, weak = "QC QS QH QD JC", "9S 8S 7H 8H 9H"
    states = [_sheepshead_world(["AC TC KC 9C AS TS", f"{picker} 7C", "JH JD AD TD KD 9D", f"{other} 7S",
                                 "8D 7D KS AH TH KH"], "JS 8C", ["7C", "8C"], "alone")
              for picker, other in ((strong, weak), (weak, strong))]
    game = states[0].game
    strong_weight, weak_weight = (_log_weight(game, state, seat=2, eps=0.5) for state in states)
    assert strong_weight > weak_weight


def test_the_searching_seats_own_plays_and_forced_cards_say_nothing():
    game = tricksim.make_game("bluke", players=3)
    state = _bluke_deal(game, ["AH KH QH JH", "KS 3C 4C 5C", "2S 9D 8D 7D"])
    for _ in range(3):
        state.apply("bid 1")
    bids = _log_weight(game, state, seat=1)  # the other seats' bids, nothing played yet
    assert bids < 0.0
    state.apply("play KS")
    assert _log_weight(game, state, seat=1) == bids  # its own lead adds nothing


@pytest.mark.parametrize("case", CASES[::2], ids=_ids)
def test_in_a_hand_of_heuristic_play_the_true_deal_agrees_with_every_replayed_card(case):
    # the model is the heuristic itself: replayed on the true deal, it plays every card as played
    # (the card play's chance is 1) and makes every call as made
    name, options = case
    game = tricksim.make_game(name, **options)
    auction_log_chance = family_part(game.family, "search").auction_log_chance
    hparams, seen = agent_module(name).DEFAULTS, 0
    for state in _card_play_states(game, hands=8, heuristic_every=1):
        picker = state.array[family_part(game.family, "rules").PICKER] if name == "sheepshead" else -1
        for seat in range(game.players):
            s = np.ascontiguousarray(state.array)
            auction = auction_log_chance(s, seat, 1e-9, hparams, _rng(0, 1, 0), np.empty_like(s))
            assert _log_weight(game, state, seat, eps=1e-9) - auction == pytest.approx(0.0, abs=1e-6)
            if name == "sheepshead":
                # a pick is averaged over the blinds the picker may have found: the true one is one
                # of 28, so the chance of the pick is at least 1/28 of the heuristic's
                bound = -np.log(28) if picker >= 0 and seat != picker else 0.0
            else:
                # a bid the heuristic makes keeps at least half of the share 1 - eps (its neighbours
                # on the scale the rest): each other seat's first call, at least 1/2
                bound = (game.players - 1) * np.log(0.5)
            assert auction > bound - 1e-6, (state.tricks(), seat)
        seen += 1
    assert seen > 20


def test_systematic_resampling_draws_in_proportion_to_weight():
    from tricksim.agents.pimc import systematic

    weights = np.array([0.5, 0.0, 0.25, 0.125, 0.125])
    log_weights = np.log(np.where(weights > 0, weights, 1e-300))
    log_weights[1] = -np.inf
    counts = np.empty(5, np.int64)
    seen = np.zeros(5)
    for trial in range(200):
        systematic(log_weights + 3.0, 5, 8, _rng(trial, 2, 0), counts)  # a shift of every log weight changes nothing
        assert counts.sum() == 8
        assert counts[1] == 0  # no weight, never drawn
        assert np.all(np.abs(counts - 8 * weights) < 1)  # the floor or the ceiling of its expected count
        seen += counts
    assert np.allclose(seen / (200 * 8), weights, atol=0.02)


def test_tempering_keeps_the_effective_sample_size_at_the_target_and_the_order():
    from tricksim.agents.pimc import effective_size, temper

    rng = np.random.default_rng(4)
    log_weights = rng.normal(0.0, 6.0, 200)  # a sharp likelihood: a few worlds carry the weight
    assert effective_size(log_weights, 200, 1.0) < 10
    for target in (20.0, 50.0, 150.0):
        tempered = log_weights.copy()
        temper(tempered, 200, target)
        size = effective_size(tempered, 200, 1.0)
        assert target <= size < target * 1.01  # the largest power that reaches the target
        power = tempered[0] / log_weights[0]
        assert 0 < power < 1 and np.allclose(tempered, power * log_weights)  # one power: the order kept
    for target in (0.0, effective_size(log_weights, 200, 1.0)):  # none, or one the weights reach: unchanged
        same = log_weights.copy()
        temper(same, 200, target)
        assert (same == log_weights).all()


def test_systematic_resampling_is_deterministic_given_the_rng():
    from tricksim.agents.pimc import systematic

    log_weights = np.log(np.array([0.3, 0.1, 0.2, 0.4]))
    a, b = np.empty(4, np.int64), np.empty(4, np.int64)
    systematic(log_weights, 4, 7, _rng(5, 2, 0), a)
    systematic(log_weights, 4, 7, _rng(5, 2, 0), b)
    assert (a == b).all()


@pytest.mark.parametrize("agent", ["pimc:worlds=6:bidding=0:infer=0.3", "pimc:worlds=6:bidding=0:infer=0.3:resample=1"])
def test_pimc_with_inference_is_deterministic_given_the_seed(agent):
    from tricksim.agents.search import Searcher

    game = tricksim.make_game("bluke", players=4)
    states = [s.clone() for s in _card_play_states(game, 2)][::3]
    runs = []
    for _ in range(2):
        bot = Searcher(game, agent, seed=3)
        runs.append([bot.act(s) for s in states])
    assert runs[0] == runs[1]
    assert all(a in s.legal_actions() for a, s in zip(runs[0], states))


@pytest.mark.parametrize("name", ["bluke", "nesmear", "sheepshead"])
def test_pimc_with_inference_off_ignores_resample(name):
    # with infer = 0 every world counts alike and PIMC values the worlds it samples, as before
    # resampling (checked against c26cc04's decisions when resampling came in); resampling from 8x
    # the worlds would value other worlds and change some of these decisions
    from tricksim.agents.search import Searcher

    game = tricksim.make_game(name)
    agent = agent_module(name)
    runs = {}
    for spec in ("pimc:worlds=6:bidding=0", "pimc:worlds=6:bidding=0:resample=8"):
        decisions = runs[spec] = []
        for hand in range(2):
            state = game.new_hand(seed=100 + hand, dealer=hand % game.players)
            rng = _rng(hand, 9, 0)
            bot = Searcher(game, spec, seed=hand)
            while not state.is_terminal():
                if len(state.legal_actions()) > 1 and state.phase == "play":
                    decisions.append(bot.act(state))
                state.apply(int(agent.act(state.array, agent.DEFAULTS, rng)))
    first, second = runs.values()
    assert len(first) > 20 and first == second
