"""The kinds of agent a seat of the numba batch loops can hold (``kinds[seat]``)."""

RANDOM, HEURISTIC = 0, 1
KIND_NAMES = ("random", "heuristic")
