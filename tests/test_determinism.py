"""Results depend on (seed, hand number) only (docs/rules.md, All games): not on
the run, the thread count, or how a run is cut into ranges."""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd
import pytest

import tricksim
from tricksim.agents.loops import play_random_hands
from tricksim.sim import sheepshead as K

HANDS = 50_000


@pytest.fixture
def restore_threads():
    before = numba.get_num_threads()
    yield before
    numba.set_num_threads(before)


def _raw(game, seed, first, count):
    out = np.full((count, len(K.RECORD)), -99, dtype=np.int64)
    play_random_hands(game, seed, first, out)
    return out


def test_same_seed_same_dataframe():
    a = tricksim.simulate("sheepshead", hands=HANDS, seed=17, agents="random")
    b = tricksim.simulate("sheepshead", hands=HANDS, seed=17, agents="random")
    assert len(a) == HANDS
    pd.testing.assert_frame_equal(a, b)
    assert a["hand"].tolist() == list(range(HANDS))
    assert (a["dealer"] == a["hand"] % 5).all()


@pytest.mark.parametrize("options", [{}, {"no_call": "unknown", "no_pick": "doubler"},
                                     {"partner": "jack_of_diamonds", "no_pick": "forced"}],
                         ids=["default", "unknown-doubler", "jd-forced"])
def test_thread_count_does_not_change_the_rows(restore_threads, options):
    default_threads = restore_threads
    most = max(default_threads, min(2, numba.config.NUMBA_NUM_THREADS))
    if most < 2:
        pytest.skip("numba has a single thread here")
    numba.set_num_threads(most)
    many = tricksim.simulate("sheepshead", hands=HANDS, seed=5, agents="random", **options)
    numba.set_num_threads(1)
    one = tricksim.simulate("sheepshead", hands=HANDS, seed=5, agents="random", **options)
    pd.testing.assert_frame_equal(one, many)


@pytest.mark.parametrize("cut", [1, 1023, 1024, 12_345, HANDS // 2, HANDS - 1])
def test_a_run_cut_in_two_ranges_gives_the_same_rows(cut):
    game = tricksim.make_game("sheepshead")
    whole = _raw(game, 8, 0, HANDS)
    first = _raw(game, 8, 0, cut)
    second = _raw(game, 8, cut, HANDS - cut)
    assert not (whole == -99).all(axis=1).any()  # every row written
    np.testing.assert_array_equal(np.concatenate([first, second]), whole)


def test_a_range_later_in_the_run_gives_the_rows_of_those_hands():
    game = tricksim.make_game("sheepshead", no_call="unknown")
    whole = _raw(game, 21, 0, 10_000)
    np.testing.assert_array_equal(_raw(game, 21, 7_777, 1_000), whole[7_777:8_777])
    assert (whole[:, K.RECORD.index("dealer")] == np.arange(10_000) % 5).all()


def test_different_seeds_differ():
    a = tricksim.simulate("sheepshead", hands=HANDS, seed=1, agents="random")
    b = tricksim.simulate("sheepshead", hands=HANDS, seed=2, agents="random")
    scores = [f"score_{p}" for p in range(5)]
    differing = (a[scores].to_numpy() != b[scores].to_numpy()).any(axis=1).mean()
    assert differing > 0.5  # most hands score differently, not just a few
    assert not a["picker"].equals(b["picker"])


def test_different_hand_ranges_differ():
    game = tricksim.make_game("sheepshead")
    a = _raw(game, 3, 0, 5_000)
    b = _raw(game, 3, 5_000, 5_000)
    score = K.RECORD.index("score_0")
    assert (a[:, score:] != b[:, score:]).any(axis=1).mean() > 0.5
