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
from . import _numba_inline  # noqa: E402

_numba_inline.install()
from .errors import IllegalActionError, OptionError  # noqa: E402
from .sim.game import Game  # noqa: E402
from .sim.state import State  # noqa: E402
from .spec import GameSpec, make_game  # noqa: E402
from . import envs  # noqa: E402  (registers the Gymnasium environments)
from . import spec as _spec  # noqa: E402


def games() -> list[str]:
    """The names of the games tricksim plays, sorted."""
    return _spec.names()


def register(game: GameSpec) -> None:
    """Add a game (its ``GameSpec``: the modules of its parts, ``tricksim.spec``) to every
    command, agent, environment and tool of tricksim, as the built-in games are."""
    envs.register_env(_spec.register(game))


def simulate(game: str, hands: int, seed: int = 0, agents="heuristic", workers: int = 1, out=None,
             progress: bool = True, overwrite: bool = False, dask=None, **options):
    """Play ``hands`` independent hands of ``game`` and return one row per hand (a DataFrame).

    Hand ``i`` is dealt from ``(seed, i)`` with dealer ``i % players``. ``agents``: one agent for
    every seat (``"heuristic"``, the default, ``"random"``, ``"heuristic:pick_threshold=5"``) or a
    list, or a comma-separated string, with one per seat. ``workers`` processes share the hands;
    the rows do not depend on it or on the number of threads. With ``out`` (a path) the rows stream
    to that Parquet file, a run stopped at any point resumes from its finished chunks, and the path
    is returned; a file there of another run is an OptionError, unless ``overwrite``. ``dask``:
    play on a Dask cluster ("local", or a scheduler's address tcp://host:port), with the same rows.
    ``progress`` shows a bar on long runs in a terminal.

    >>> df = simulate("shmear", hands=1000, agents="heuristic")
    >>> len(df), df.attrs["game"]
    (1000, 'shmear')
    """
    from .sim.batch import simulate as _simulate

    return _simulate(make_game(game, **options), hands=hands, seed=seed, agents=agents, workers=workers,
                     out=out, progress=progress, overwrite=overwrite, dask=dask)


def compare(game: str, agent_a, agent_b, hands: int = 10_000, seed: int = 0, workers: int = 1, out=None,
            dask=None, **options):
    """Agent ``agent_a`` against ``agent_b`` on ``hands`` duplicate deals of ``game``, the seats
    rotated so that each agent sits in every seat: the mean score difference per deal with a 95 %
    interval (see ``tricksim.experiments.compare``). ``out``: a folder the hands of each seating
    stream to (resumable); ``dask``: play on a Dask cluster.

    >>> r = compare("nesmear", "heuristic", "random", hands=2000)
    >>> r["difference"][1] > 0    # the heuristic wins clearly
    True
    """
    from .experiments.compare import compare as _compare

    return _compare(make_game(game, **options), agent_a, agent_b, hands=hands, seed=seed, workers=workers, out=out,
                    dask=dask)


def compare_matches(game: str, agent_a, agent_b, matches: int = 2_000, seed: int = 0, workers: int = 1, out=None,
                    dask=None, **options):
    """Agent ``agent_a`` against ``agent_b`` over whole matches of ``game`` (to its target, or its
    number of hands), every seating on the same deals: the share of the matches each side wins and
    A's minus B's per match with a 95 % interval (see ``tricksim.experiments.matches``).

    >>> r = compare_matches("nesmear", "heuristic", "random", matches=10, target=5)
    >>> r["share_a"] > r["share_b"]
    True
    """
    from .experiments.matches import compare_matches as _compare_matches

    return _compare_matches(make_game(game, **options), agent_a, agent_b, matches=matches, seed=seed,
                            workers=workers, out=out, dask=dask, progress=False)


def tournament(game: str, agents, hands: int = 2_000, seed: int = 0, workers: int = 1, out=None, dask=None,
               **options):
    """A round-robin of ``agents`` on ``hands`` duplicate deals of ``game``: every pair's mean
    score difference per deal and each agent's Bradley-Terry rating (Elo scale), with 95 %
    intervals (see ``tricksim.experiments.tournament``). ``out``: a folder every pair's hands
    stream to (resumable); ``dask``: play on a Dask cluster.

    >>> r = tournament("nesmear", ["heuristic", "random"], hands=500)
    >>> list(r["ratings"]["agent"])    # best first
    ['heuristic', 'random']
    """
    from .experiments.tournament import tournament as _tournament

    return _tournament(make_game(game, **options), agents, hands=hands, seed=seed, workers=workers, out=out,
                       dask=dask)


def solve(state, seat=None, objective: str = "score", target=None):
    """Play the rest of ``state``'s hand perfectly with every card visible (see
    ``tricksim.agents.solver.solve``): the value for ``seat``, the best action, every seat's score
    at the end of the best line, and whether the search was the paranoid reduction."""
    from .agents.solver import solve as _solve

    return _solve(state, seat=seat, objective=objective, target=target)


def explain(state, worlds: int = 100, seed: int = 0, rollouts: int = 1, solve: int = 4, exact: bool = False,
            taken=None):
    """Every legal action of the seat to act at ``state`` valued for it over ``worlds`` deals
    consistent with what it knows, with intervals, the cost of each against the best and, with
    ``exact``, the double-dummy value (see ``tricksim.experiments.explain``)."""
    from .experiments.explain import explain as _explain

    return _explain(state, worlds=worlds, seed=seed, rollouts=rollouts, solve=solve, exact=exact, taken=taken)


def mine(game: str, hands: int = 200, seed: int = 0, agents="heuristic", seats=None, sample: float = 1.0,
         worlds: int = 40, rollouts: int = 1, out=None, dask=None, progress: bool = True, overwrite: bool = False,
         **options):
    """Where the agents lose: every decision of ``seats`` in ``hands`` deals played by ``agents``
    valued as ``explain`` values it, one row each with the loss of the action taken against the
    best (see ``tricksim.experiments.mine``)."""
    from .experiments.mine import mine as _mine

    return _mine(make_game(game, **options), hands, seed=seed, agents=agents, seats=seats, sample=sample,
                 worlds=worlds, rollouts=rollouts, out=out, dask=dask, progress=progress, overwrite=overwrite)


def summarize(df):
    """The summary of a ``simulate`` result (see ``tricksim.experiments.summary``)."""
    from .experiments.summary import summarize as _summarize

    return _summarize(df)


__all__ = ["Game", "GameSpec", "IllegalActionError", "OptionError", "State", "compare", "compare_matches", "explain",
           "games", "make_game", "mine", "register", "simulate", "solve", "summarize", "tournament"]
