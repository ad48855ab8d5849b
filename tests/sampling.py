"""The one world sampler with a chosen number of rejection tries, for tests (``tries`` 0: the
constructive deal alone), compiled once for each game's hooks."""

from __future__ import annotations

from functools import cache

from numba import types

from tricksim.agents import sampler


@cache
def _entry(hooks: str):
    state, i64 = types.int64[::1], types.int64
    return sampler.sample_with.compile((state, i64, types.uint64[::1], state, i64, types.literal(hooks)))


def sample_with(hooks: str, s, seat: int, rng, out, tries: int) -> None:
    """``sampler.world`` with the hooks of module ``hooks`` and ``tries`` rejection tries."""
    _entry(hooks)(s, seat, rng, out, tries, hooks)
