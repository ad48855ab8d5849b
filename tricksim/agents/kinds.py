"""The kinds of agent a seat of the numba batch loops can hold (``kinds[seat]``)."""

RANDOM, HEURISTIC, PIMC, ISMCTS, NET = 0, 1, 2, 3, 4
KIND_NAMES = ("random", "heuristic", "pimc", "ismcts", "net")
SEARCH_KINDS = (PIMC, ISMCTS, NET)  # played by agents.search.play_block (a policy network beside the searchers)
BOT = -1  # a python: or exec: seat: the runner plays its tables one decision at a time (agents.bot_table)
