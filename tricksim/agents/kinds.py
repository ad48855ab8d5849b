"""The kinds of agent a seat of the numba batch loops can hold (``kinds[seat]``)."""

RANDOM, HEURISTIC, PIMC, ISMCTS = 0, 1, 2, 3
KIND_NAMES = ("random", "heuristic", "pimc", "ismcts")
SEARCH_KINDS = (PIMC, ISMCTS)  # played by agents.search.play_hands
