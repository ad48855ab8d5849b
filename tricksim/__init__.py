"""tricksim: a self-play laboratory for five Midwestern trick-taking games.

>>> import tricksim
>>> tricksim.games()
['bluke', 'fiftyfive', 'nesmear', 'sheepshead', 'shmear']
>>> state = tricksim.make_game("sheepshead").new_hand(seed=7, dealer=0)
>>> state.current_player
1
"""

from __future__ import annotations

import os

# The workqueue layer keeps its speed when the other core is busy; OpenMP's does not.
os.environ.setdefault("NUMBA_THREADING_LAYER", "workqueue")

from . import _numba_cache  # noqa: E402,F401  (before any kernel is defined)
from .errors import IllegalActionError, OptionError  # noqa: E402
from .sim.game import Game  # noqa: E402
from .sim.bluke_game import Bluke  # noqa: E402
from .sim.fiftyfive_game import FiftyFive  # noqa: E402
from .sim.sheepshead_game import Sheepshead  # noqa: E402
from .sim.smear_game import NESmear, Shmear  # noqa: E402
from .sim.state import State  # noqa: E402

_GAMES = {game.name: game for game in (Bluke, FiftyFive, NESmear, Sheepshead, Shmear)}


def games() -> list[str]:
    """The names of the games tricksim plays, sorted."""
    return sorted(_GAMES)


def make_game(name: str, **options) -> Game:
    """The game ``name`` with ``options`` as named in RULES.md.

    Raises OptionError (a ValueError) for an unknown game, option or value.

    >>> make_game("sheepshead", no_pick="doubler").options["no_pick"]
    'doubler'
    >>> make_game("euchre")
    Traceback (most recent call last):
    ...
    tricksim.errors.OptionError: no game 'euchre'; the games are bluke, fiftyfive, nesmear, sheepshead, shmear
    """
    if name not in _GAMES:
        raise OptionError(f"no game {name!r}; the games are {', '.join(games())}")
    return _GAMES[name](**options)


def simulate(game: str, hands: int, seed: int = 0, agents: str = "random", **options):
    """Play ``hands`` independent hands and return one row per hand (a DataFrame).

    Hand ``i`` is dealt from ``(seed, i)`` with dealer ``i % players``; results do
    not depend on the number of threads.
    """
    from .sim.batch import simulate as _simulate

    return _simulate(make_game(game, **options), hands=hands, seed=seed, agents=agents)


def summarize(df):
    """The summary of a ``simulate`` result (see ``tricksim.experiments.summary``)."""
    from .experiments.summary import summarize as _summarize

    return _summarize(df)


__all__ = ["Game", "IllegalActionError", "OptionError", "State", "games", "make_game", "simulate", "summarize"]
