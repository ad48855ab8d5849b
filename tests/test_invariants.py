"""What always holds (docs/rules.md, All games), for every game ``tricksim.games()`` names, after
every step of many random hands and through the State API: the checks are the harness's
(``invariants.py``) and, where a game has one, its rule oracle's (``test_<game>_invariants.py``).
"""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tricksim
from tricksim.agents.loops import play_random_hands

import invariants as I

SEED = 20240611
CASES = [case for name in tricksim.games() for case in I.cases(name)]


@pytest.fixture(scope="module")
def fingerprint(engine_fingerprint):
    return I.harness_fingerprint(engine_fingerprint)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_invariants_after_every_step(fingerprint, case):
    stats = I.check_random_hands(case, SEED, fingerprint)
    oracle = I.oracle_for(case.name)
    if oracle is not None:
        oracle.check_stats(case, stats)


@pytest.mark.parametrize("name", tricksim.games())
def test_public_api_invariants(name):
    oracle = I.oracle_for(name)
    choices = I.option_choices(name)
    extra = oracle.API_DEAL_OPTIONS if oracle is not None else {}

    @settings(max_examples=oracle.API_EXAMPLES if oracle is not None else 100, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(options=st.fixed_dictionaries({k: st.sampled_from(v) for k, v in choices.items()}),
           deal_options=st.fixed_dictionaries(extra), seed=st.integers(0, 2**63 - 1), data=st.data(),
           rnd=st.randoms(use_true_random=True))
    def play(options, deal_options, seed, data, rnd):
        game = I.make_valid_game(name, options)
        dealer = data.draw(st.integers(0, game.players - 1), label="dealer")
        hand = data.draw(st.integers(0, (getattr(game, "match_hands", 0) or 2**31) - 1), label="hand")
        I.play_through_api(game, seed, dealer, hand, deal_options, rnd)

    play()


@pytest.mark.parametrize("name", tricksim.games())
def test_batch_rows_do_not_depend_on_threads_or_chunks(name):
    for case in I.cases(name):
        game = tricksim.make_game(name, **case.options)
        K = game.kernels
        whole = np.empty((3000, len(K.RECORD)), dtype=np.int64)
        play_random_hands(game, 8, 0, whole)
        threads = numba.get_num_threads()
        numba.set_num_threads(1)
        try:
            parts = np.empty_like(whole)
            play_random_hands(game, 8, 0, parts[:1234])
            play_random_hands(game, 8, 1234, parts[1234:])
        finally:
            numba.set_num_threads(threads)
        assert np.array_equal(whole, parts), case.id


# --- the checks themselves must catch broken states -------------------------------------------------


def _deals(game, count=50):
    seeds, numbers = I.deal_plan(game, count, SEED)
    return I.deal(game, seeds, numbers), seeds, numbers


@pytest.mark.parametrize("name", tricksim.games())
def test_the_checks_catch_a_broken_deal(fingerprint, name):
    game = tricksim.make_game(name)
    K = game.kernels
    deals, seeds, numbers = _deals(game)
    oracle = I.oracle_for(name)
    assert I.run_checker(game, None, seeds, numbers, fingerprint, deals)[0] == 0
    hand0, hand1 = int(deals[7, K.HANDS]), int(deals[7, K.HANDS + 1])
    twice = deals.copy()  # seat 1 holds one of seat 0's cards instead of its own lowest
    twice[7, K.HANDS + 1] = (hand1 & (hand1 - 1)) | (hand0 & -hand0)
    assert I.run_checker(game, None, seeds, numbers, fingerprint, twice)[:2] == (4, 7)
    broken = deals.copy()
    broken[9, K.SCORES + 1] = 3
    assert I.run_checker(game, None, seeds, numbers, fingerprint, broken)[:2] == (1, 9)
    broken = deals.copy()
    broken[3, K.TO_ACT] = numbers[3] % game.players  # the dealer to act first
    assert I.run_checker(game, None, seeds, numbers, fingerprint, broken)[:2] == (3, 3)
    if oracle is not None:  # with the oracle's hooks too
        case = I.cases(name)[0]
        arrays = oracle.params(game, case), np.zeros(1, oracle.MEMORY), np.zeros(len(oracle.STATS), np.int64)
        assert I.run_checker(game, oracle, seeds, numbers, fingerprint, deals, None, *arrays)[0] == 0
        code, row = I.run_checker(game, oracle, seeds, numbers, fingerprint, twice, None, *arrays)[:2]
        assert row == 7 and code != 0


def test_places_play_and_end_checks_catch_broken_states():
    state = tricksim.make_game("fiftyfive").new_hand(seed=1, dealer=0)
    K = state.game.kernels
    s = state.array
    assert I.places_code(s, K.HANDS, 5, np.int64(0)) == 0
    card = int(s[K.HANDS]) & -int(s[K.HANDS])
    assert I.places_code(s, K.HANDS, 5, np.int64(card)) == 4  # a card held and played
    broken = s.copy()
    broken[K.HANDS + 2] |= 1 << 60  # no such card
    assert I.places_code(broken, K.HANDS, 5, np.int64(0)) == 5
    before = s[K.HANDS:K.HANDS + 5].copy()
    c = card.bit_length() - 1
    moved = s.copy()
    moved[K.HANDS] &= ~card
    moved[K.TRICKS + 1] = c
    assert I.play_code(before, moved, K.HANDS, 5, 0, c, K.TRICKS + 1) == 0
    assert I.play_code(before, moved, K.HANDS, 5, 0, c, K.TRICKS + 2) == 11  # not in its slot
    assert I.play_code(before, s, K.HANDS, 5, 0, c, K.TRICKS + 1) == 11  # still in the hand
    over = s.copy()
    assert I.end_code(over, K.HANDS, K.SCORES, 5, 0, 0, 0) == 0
    over[K.SCORES + 4] = 10
    assert I.end_code(over, K.HANDS, K.SCORES, 5, 0, 0, 0) == 15  # thrown in, yet a score
    assert I.end_code(over, K.HANDS, K.SCORES, 5, 0, 5, 0) == 16  # played out, yet cards in hands
    over[K.HANDS:K.HANDS + 5] = 0
    assert I.end_code(over, K.HANDS, K.SCORES, 5, 0, 5, 0) == 0
    assert I.end_code(over, K.HANDS, K.SCORES, 5, 5, 5, 0) == 0
    assert I.end_code(over, K.HANDS, K.SCORES, 4, 2, 5, 0) == 0
    over[K.SCORES + 2] = 7  # seat 2 and seat 0 are one team of two
    assert I.end_code(over, K.HANDS, K.SCORES, 4, 2, 5, 0) == 17
