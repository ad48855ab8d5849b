"""The check every game's ``score_bounds`` test shares: the final scores lie within the bounds."""

from __future__ import annotations


def bounds_hold(score_bounds, positions, final, over) -> tuple[int, int]:
    """Assert that at each state array of ``positions`` every seat's final score (``final[seat]``)
    lies within ``score_bounds(arr, seat)``. Returns how many bounds met (low == high): at all,
    and at positions before the hand was over (``over(arr)`` false)."""
    met, met_early = 0, 0
    for i, arr in enumerate(positions):
        for seat, score in enumerate(final):
            low, high = score_bounds(arr, seat)
            assert low <= score <= high, (i, seat, low, high, score)
            met += bool(low == high)
            met_early += bool(low == high and not over(arr))
    return met, met_early
