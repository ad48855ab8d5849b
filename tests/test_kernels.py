"""The game-independent kernels against plain Python."""

import random

import numba as nb
import numpy as np
import pytest

from tricksim.cards import cards_of
from tricksim.sim import bluke, fiftyfive, kernels, sheepshead, smear


def _random_masks(count, seed=5):
    rng = random.Random(seed)
    return [rng.getrandbits(54) | (1 << rng.randrange(54)) for _ in range(count)]


SELECTORS = [kernels.nth_card_search] + ([kernels.nth_card_pdep] if kernels.HAS_PDEP else [])


@pytest.mark.parametrize("select", SELECTORS, ids=lambda f: f.__name__)
def test_nth_card_picks_the_nth_lowest_card(select):
    @nb.njit
    def all_nth(mask, out):
        for i in range(out.shape[0]):
            out[i] = select(mask, i)

    for mask in _random_masks(300):
        expected = cards_of(mask)
        out = np.empty(len(expected), np.int64)
        all_nth(mask, out)
        assert list(out) == expected


def test_popcount_and_bit_helpers():
    @nb.njit
    def counts(mask, c):
        return kernels.popcount(mask), kernels.has(mask, c), kernels.bit(c)

    for mask in _random_masks(100):
        c = cards_of(mask)[0]
        assert counts(mask, c) == (bin(mask).count("1"), True, 1 << c)
        assert not counts(mask & ~(1 << c), c)[1]


def test_draw_cards_deals_disjoint_uniform_subsets():
    @nb.njit
    def draws(n, deck, out):
        rng = np.zeros(kernels.RNG_SIZE, np.uint64)
        for h in range(n):
            kernels.seed_stream(rng, 3, h, 0)
            first, rest = kernels.draw_cards(deck, 3, rng)
            second, rest = kernels.draw_cards(rest, 2, rng)
            out[h, 0], out[h, 1], out[h, 2] = first, second, rest

    deck = 0b1111111  # seven cards: 3 to one hand, 2 to another, 2 left
    out = np.empty((70_000, 3), np.int64)
    draws(len(out), deck, out)
    assert np.all((out[:, 0] & out[:, 1]) == 0)
    assert np.all((out[:, 0] | out[:, 1] | out[:, 2]) == deck)
    assert {bin(int(m)).count("1") for m in out[:, 0]} == {3}
    # every card lands in the first hand with probability 3/7
    share = np.array([((out[:, 0] >> c) & 1).mean() for c in range(7)])
    sigma = np.sqrt(3 / 7 * 4 / 7 / len(out))
    assert np.all(np.abs(share - 3 / 7) < 5 * sigma)


def test_rand_below_is_uniform_and_reproducible():
    @nb.njit
    def draws(seed, n, k):
        rng = np.zeros(kernels.RNG_SIZE, np.uint64)
        kernels.seed_stream(rng, seed, 0, 1)
        out = np.empty(n, np.int64)
        for i in range(n):
            out[i] = kernels.rand_below(rng, k)
        return out

    a = draws(9, 60_000, 6)
    assert np.array_equal(a, draws(9, 60_000, 6))
    assert not np.array_equal(a, draws(10, 60_000, 6))
    counts = np.bincount(a, minlength=6)
    assert a.min() == 0 and a.max() == 5
    assert np.all(np.abs(counts / len(a) - 1 / 6) < 5 * np.sqrt(1 / 6 * 5 / 6 / len(a)))


def test_highest_bit_and_lowest_card_are_the_ends_of_a_mask():
    for mask in _random_masks(2000) + [1, 1 << 53, (1 << 53) | 1]:
        assert kernels.highest_bit(mask) == mask.bit_length() - 1
        assert kernels.lowest_card(mask) == cards_of(mask)[0]


def _rule_rows():
    """Every game's (effective, power, deck mask, BEATEN_BY) row, one per trump row."""
    yield "sheepshead", sheepshead.EFFECTIVE, sheepshead.POWER, sheepshead.DECK_MASK, sheepshead.BEATEN_BY
    for t in range(4):
        yield f"fiftyfive {t}", fiftyfive.EFFECTIVE[t], fiftyfive.POWER[t], fiftyfive.DECK_MASK, fiftyfive.BEATEN_BY[t]
    for t in range(5):
        yield f"bluke {t}", bluke.EFFECTIVE[t], bluke.POWER[t], bluke.DECK_MASK, bluke.BEATEN_BY[t]
    for row in range(8):
        yield (f"smear {row}", smear.EFFECTIVE[row], smear.POWER[row], smear.DECK_MASKS[row // 4],
               smear.BEATEN_BY[row])


RULE_ROWS = list(_rule_rows())


@pytest.mark.parametrize("name, effective, power, deck, beaten_by", RULE_ROWS, ids=[row[0] for row in RULE_ROWS])
def test_beaten_by_is_what_takes_a_trick_from_its_lead(name, effective, power, deck, beaten_by):
    """A card d is in BEATEN_BY[c] exactly when d, played after c leads, wins the trick."""
    cards = cards_of(int(deck))
    trick = np.zeros(2, np.int64)
    for c in cards:
        for d in cards:
            if c != d:
                trick[:] = c, d
                wins = kernels.trick_winner(trick, 0, 2, effective[c], effective, power, -1) == 1
                assert wins == bool(int(beaten_by[c]) >> d & 1), (name, c, d)
