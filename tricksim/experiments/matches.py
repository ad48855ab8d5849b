"""Two agents compared over whole matches: how often each wins.

A hand's score is not what a match is won by: near the end a side may bid to go out, or to stop
the others going out, at a cost in points. ``compare_matches`` plays match ``i`` (its deals from
``(seed, i)``, the first dealer seat 0) once with agent B in every seat, then once per seating
(``compare.seatings``: A in one seat, or one team, B in the others). A seating's figure is the share
of the match A's side won (1; 1/k when k sides share a tie; 0) minus what B won from the same seats
on the same deals, and a match's figure the mean over its seatings: until a decision differs, both
play the same hands, so the pair differs only where A's play changed the match. The match is the
unit of the interval.

>>> import tricksim
>>> r = compare_matches(tricksim.make_game("nesmear", target=5), "heuristic", "random", matches=20, progress=False)
>>> r["share_a"] > r["share_b"]
True
"""

from __future__ import annotations

import json
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from ..agents import seat_agents
from ..agents.seats import Seats
from ..envs.table import episode_seed
from ..sim.batch import check_run, collect_chunks
from ..sim.cluster import check_dask, dask_client, play_chunks
from ..spec import make_game
from .compare import seatings
from .stats import mean_interval

CHUNK = 16  # matches per chunk: a part of the rows file, a task of a worker
COLUMNS = ["match", "share_a", "share_b", "hands_a", "hands_b"]


@dataclass(frozen=True)
class MatchRun:
    """Everything a match comparison's rows depend on."""

    game: str
    options: dict
    matches: int
    seed: int
    agent_a: str
    agent_b: str

    def describe(self) -> str:
        return json.dumps({"matches": asdict(self)}, sort_keys=True)


def play_match(game, agents: list[str], seed: int):
    """Match ``seed`` of ``game`` played to its end rule by ``agents`` (one spec per seat): the Match."""
    seats = Seats(game, agents, seed)
    match = game.new_match(seed=seed, dealer=0)
    hand = -1
    while not match.is_over():
        if match.hand_number != hand:  # a new deal: the agents' stream of it
            hand = match.hand_number
            seats.new_hand(seed, hand)
        match.apply(seats.act(match.state, match.totals))
    return match


def won_share(winners: list[int], seats: list[int], sides: list[list[int]]) -> float:
    """The share of a match that the side holding ``seats`` won: 1, 1/k of a tie of k sides, 0."""
    winning = [side for side in sides if set(side) & set(winners)]
    return 1 / len(winning) if any(side == seats for side in winning) else 0.0


def play_chunk(run: MatchRun, first: int, count: int) -> pd.DataFrame:
    """The rows of matches ``first .. first + count - 1`` of ``run``: one per match."""
    game = make_game(run.game, **run.options)
    sides = seatings(game)
    rows = []
    for i in range(first, first + count):
        seed = episode_seed(run.seed, i)  # as the environments' match episodes
        b_match = play_match(game, [run.agent_b] * game.players, seed)
        a_shares, b_shares, a_hands = [], [], []
        for side in sides:
            a_match = play_match(game, [run.agent_a if p in side else run.agent_b for p in range(game.players)], seed)
            a_shares.append(won_share(a_match.winners, side, sides))
            b_shares.append(won_share(b_match.winners, side, sides))
            a_hands.append(a_match.hand_number)
        rows.append({"match": i, "share_a": float(np.mean(a_shares)), "share_b": float(np.mean(b_shares)),
                     "hands_a": float(np.mean(a_hands)), "hands_b": float(b_match.hand_number)})
    return pd.DataFrame(rows, columns=COLUMNS)


def _play(run: MatchRun, todo, client, workers: int):
    """(index, rows) of the chunks ``todo``: on the Dask cluster ``client``, in ``workers`` processes
    here (in order), or in this one."""
    if client is not None or workers <= 1:
        yield from play_chunks(play_chunk, run, todo, client)
        return
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        parts = pool.map(play_chunk, [run] * len(todo), [first for _, first, _ in todo], [n for _, _, n in todo])
        yield from zip([k for k, _, _ in todo], parts)


def compare_matches(game, agent_a, agent_b, matches: int = 2_000, seed: int = 0, workers: int = 1, out=None,
                    dask=None, progress: bool = True, overwrite: bool = False) -> dict:
    """Agent ``agent_a`` against ``agent_b`` over ``matches`` matches of ``game`` (a Game), every
    seating (see the module), in ``workers`` processes. ``out``: a Parquet file the rows stream to
    (run again to resume); ``dask``: play on a Dask cluster. The result is the same every way.
    Returns ``matches``, ``seatings``, ``share_a`` and ``share_b`` (the mean share of a match A's
    side won, and B's from the same seats), their ``difference`` with a 95 % interval, and the
    mean deals a match took (``hands_a``, ``hands_b``)."""
    check_run(matches, seed)
    check_dask(dask)
    _, (a, b) = seat_agents(game.name, [agent_a, agent_b], 2)  # a bad spec is an error before any play
    run = MatchRun(game.name, dict(game.options), int(matches), int(seed), a, b)
    todo = [(k, first, min(CHUNK, matches - first)) for k, first in enumerate(range(0, matches, CHUNK))]
    with dask_client(dask) as client:
        rows = collect_chunks(lambda some: _play(run, some, client, workers), todo, out, run.describe(),
                              what="match comparison", progress=progress, desc=f"{game.name} matches",
                              unit=" matches", overwrite=overwrite)
    rows = pd.read_parquet(rows) if out is not None else rows
    return {"game": game.name, "title": game.label, "agent_a": a, "agent_b": b,
            "matches": matches, "seatings": seatings(game), "share_a": float(rows["share_a"].mean()),
            "share_b": float(rows["share_b"].mean()), "difference": mean_interval(rows["share_a"] - rows["share_b"]),
            "hands_a": float(rows["hands_a"].mean()), "hands_b": float(rows["hands_b"].mean())}


def format_matches(result: dict) -> str:
    """The lines the CLI prints for a ``compare_matches`` result."""
    mean, low, high = result["difference"]
    return "\n".join([
        f"{result.get('title', result['game'])}: {result['agent_a']} (A) against {result['agent_b']} (B), "
        f"{result['matches']:,} matches x {len(result['seatings'])} seatings",
        f"share of the matches won by A's side {result['share_a']:.2%}, by B from the same seats "
        f"{result['share_b']:.2%}; deals a match {result['hands_a']:.1f} (B everywhere {result['hands_b']:.1f})",
        f"A - B per match   {mean:+.2%}   95% interval [{low:+.2%}, {high:+.2%}]",
    ])
