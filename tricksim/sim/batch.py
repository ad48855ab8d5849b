"""Many hands at once: the numba batch loop of each game, driven in chunks.

Hand ``i`` of a run is dealt from ``(seed, i)`` and its agents draw from their
own stream of ``(seed, i)``, so a row never depends on the thread count or on
how the run is cut into chunks.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..agents import AGENTS
from ..errors import OptionError

CHUNK = 1 << 20  # hands per call of the numba loop: bounds the raw buffer's memory


def check_run(hands: int, seed: int, agents) -> None:
    """OptionError unless ``hands``, ``seed`` and ``agents`` make a run."""
    if isinstance(hands, bool) or not isinstance(hands, (int, np.integer)) or hands < 0:
        raise OptionError(f"hands = {hands!r} is not allowed; it must be a whole number >= 0")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise OptionError(f"seed = {seed!r} is not allowed; it must be a whole number in 0 .. 2**63 - 1")
    names = [agents] if isinstance(agents, str) else list(agents)
    for name in names:
        if name not in AGENTS:
            raise OptionError(f"no agent {name!r}; the agents are {', '.join(AGENTS)}")


def simulate(game, hands: int, seed: int = 0, agents="random", progress=None) -> pd.DataFrame:
    """One row per hand for ``hands`` hands of ``game`` (a Game), from ``seed``.

    ``progress``, if given, is called with the number of hands finished after each chunk.
    """
    check_run(hands, seed, agents)
    frames = []
    for first in range(0, hands, CHUNK):
        count = min(CHUNK, hands - first)
        raw = np.empty((count, len(game.kernels.RECORD)), dtype=np.int64)
        game.kernels.play_random_hands(int(seed), first, game.option_array, raw)
        frames.append(game.frame(raw, seed, first))
        if progress is not None:
            progress(first + count)
    if frames:
        df = pd.concat(frames, ignore_index=True)
    else:
        df = game.frame(np.empty((0, len(game.kernels.RECORD)), dtype=np.int64), seed, 0)
    df.attrs["game"] = game.name
    return df
