"""Two agents compared on duplicate deals.

Every deal is played once per seating, with the seats rotated so that each agent sits in every
seat: where every seat plays for itself, agent A takes one seat and B all the others, the seat
going round the table; in a team game A takes one whole team and B the others, team by team.
What luck the cards bring to a seat is then shared by both agents, and the difference of their
mean scores on a deal measures play alone. The deal (not the hand) is the unit of the interval.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..agents import agent_name
from .stats import mean_interval, signed


def seatings(game) -> list[list[int]]:
    """The seats of agent A in each seating of ``game`` (a Game).

    >>> import tricksim
    >>> seatings(tricksim.make_game("nesmear")), seatings(tricksim.make_game("fiftyfive", players=3))
    ([[0, 2], [1, 3]], [[0], [1], [2]])
    """
    if game.teams:
        return [[p for p in range(game.players) if p % game.teams == t] for t in range(game.teams)]
    return [[p] for p in range(game.players)]


def duplicate_scores(game, agent_a, agent_b, hands: int, seed: int = 0, workers: int = 1, out=None, dask=None,
                     progress: bool = False):
    """``(a, b)``: per deal, the mean score a seat of ``agent_a`` took and a seat of ``agent_b``,
    over the seatings of ``game`` (each deal played once per seating, ``seatings``). With a folder
    ``out`` each seating's hands stream to ``seating-K.parquet`` there (run again to resume, as
    ``simulate``); ``dask``: play them on a Dask cluster. The result is the same every way."""
    import pandas as pd

    from ..sim.batch import check_run, simulate
    from ..sim.cluster import check_dask

    check_run(hands, seed)
    check_dask(dask)
    tables = seatings(game)
    a_sum = np.zeros(hands)
    b_sum = np.zeros(hands)
    for k, a_seats in enumerate(tables):
        agents = [agent_a if p in a_seats else agent_b for p in range(game.players)]
        file = None if out is None else Path(out) / f"seating-{k}.parquet"
        if file is not None:
            file.parent.mkdir(parents=True, exist_ok=True)
        df = simulate(game, hands, seed, agents, workers, out=file, progress=progress, dask=dask)
        df = pd.read_parquet(df, columns=[f"score_{p}" for p in range(game.players)]) if file is not None else df
        scores = df[[f"score_{p}" for p in range(game.players)]].to_numpy(dtype=np.float64)
        b_seats = [p for p in range(game.players) if p not in a_seats]
        a_sum += scores[:, a_seats].mean(axis=1)
        b_sum += scores[:, b_seats].mean(axis=1)
    return a_sum / len(tables), b_sum / len(tables)


def compare(game, agent_a, agent_b, hands: int = 10_000, seed: int = 0, workers: int = 1, out=None,
            dask=None, progress: bool = False) -> dict:
    """Agent ``agent_a`` against ``agent_b`` (names or specs, e.g. ``"heuristic:pick_threshold=5"``)
    on ``hands`` duplicate deals of ``game`` (a Game); ``out``, ``dask``: as ``duplicate_scores``
    (a long comparison of search agents streams its hands and resumes).

    Returns ``hands``, ``seatings`` (A's seats in each), ``mean_a`` and ``mean_b`` (mean score a
    seat of each agent takes per hand) and ``difference``: A's minus B's per deal, as
    ``(mean, low, high)`` with a 95 % interval.
    """
    a_mean, b_mean = duplicate_scores(game, agent_a, agent_b, hands, seed, workers, out, dask, progress)
    return {
        "game": game.name,
        "title": game.label,
        "agent_a": agent_name(agent_a),
        "agent_b": agent_name(agent_b),
        "hands": hands,
        "seatings": seatings(game),
        "mean_a": float(a_mean.mean()),
        "mean_b": float(b_mean.mean()),
        "difference": mean_interval(a_mean - b_mean),
    }


def format_compare(result: dict) -> str:
    """The lines the CLI prints for a ``compare`` result."""
    mean, low, high = result["difference"]
    return "\n".join([
        f"{result.get('title', result['game'])}: {result['agent_a']} (A) against {result['agent_b']} (B), "
        f"{result['hands']:,} duplicate deals x {len(result['seatings'])} seatings",
        f"mean score a seat takes per hand: A {signed(result['mean_a'])}   B {signed(result['mean_b'])}",
        f"A - B per deal   {signed(mean)}   95% interval [{signed(low)}, {signed(high)}]",
    ])
