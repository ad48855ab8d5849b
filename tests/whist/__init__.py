"""Four-handed Whist, the sixth game: written here, in the tests, through the game interface
alone (``tricksim.spec``), with no file of the package edited for it. ``tests/test_sixth_game.py``
registers it and plays it through the tools.

Its parts, one module each: ``rules`` (the kernels), ``game`` (the Python side), ``agent`` (the
heuristic), ``search`` (what the world sampler and the solver ask), ``observation`` (what a seat
may see) and ``summary``.
"""

from tricksim.spec import GameSpec

SPEC = GameSpec("whist", f"{__name__}.game:Whist", f"{__name__}.rules", f"{__name__}.agent", f"{__name__}.search",
                f"{__name__}.observation", f"{__name__}.summary", "tricksim/Whist-v0", decision="",
                frame_columns=frozenset({"odd_tricks"}))
