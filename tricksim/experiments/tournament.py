"""Round-robin tournaments on duplicate deals.

Every pair of agents plays a duplicate match (as ``compare``: each deal once per seating, the seats
rotated), and every pair plays the same deals. The result is a table of mean score differences per
deal with 95 % intervals, and a Bradley-Terry rating of each agent on the Elo scale: a deal is won
by the agent whose seats took more on it (a tie is half a win each), and 400 rating points mean
ten to one odds of winning a deal. The ratings' 95 % intervals come from resampling the deals (the
same deals for every pair, as they were played).
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd

from ..agents import agent_name
from ..errors import OptionError
from .compare import duplicate_scores
from .report import write_report
from .stats import mean_interval

RESAMPLES = 200  # bootstrap samples of the deals for the ratings' intervals


def bradley_terry(wins: np.ndarray, prior: float = 0.5, tolerance: float = 1e-9) -> np.ndarray:
    """Elo-scale ratings (mean 0) fitted to ``wins[i, j]``, the deals agent ``i`` won against
    agent ``j``, by the Bradley-Terry model (minorise-maximise iterations). ``prior`` adds that many
    wins each way to every pair, so that an agent that never won keeps a finite rating.

    >>> [round(float(r), 1) for r in bradley_terry(np.array([[0, 75], [25, 0]]), prior=0)]
    [95.4, -95.4]
    """
    k = len(wins)
    w = np.asarray(wins, dtype=np.float64) + prior * (1 - np.eye(k))
    played = w + w.T
    strength = np.ones(k)
    for _ in range(10_000):
        fitted = w.sum(axis=1) / (played / (strength[:, None] + strength[None, :])).sum(axis=1)
        fitted /= math.exp(np.log(fitted).mean())
        done = np.abs(fitted - strength).max() < tolerance
        strength = fitted
        if done:
            break
    ratings = 400 * np.log10(strength)
    return ratings - ratings.mean()


def _wins(differences: dict, k: int, deals=slice(None)) -> np.ndarray:
    """``wins[i, j]`` from the per-deal differences of each pair (ties half a win each)."""
    wins = np.zeros((k, k))
    for (i, j), d in differences.items():
        d = d[deals]
        wins[i, j] = (d > 0).sum() + 0.5 * (d == 0).sum()
        wins[j, i] = (d < 0).sum() + 0.5 * (d == 0).sum()
    return wins


def tournament(game, agents, hands: int = 2_000, seed: int = 0, workers: int = 1, out=None, dask=None,
               progress: bool = False) -> dict:
    """A round-robin of ``agents`` (names or specs, at least two, each once) on ``hands`` duplicate
    deals of ``game`` (a Game). With a folder ``out`` every pair's hands stream to
    ``out/hands/pair-I-J/`` (run again to resume); ``dask``: play on a Dask cluster.

    Returns ``agents``, ``hands``, ``differences`` (a DataFrame, a row per ordered pair: the mean
    score difference per deal of ``agent`` over ``opponent`` with its 95 % interval, and the
    deals won) and ``ratings`` (a DataFrame sorted best first: the Elo-scale rating and its 95 %
    interval).
    """
    from ..sim.batch import check_run

    check_run(hands, seed)
    names = [agent_name(a) for a in agents]
    if len(names) < 2:
        raise OptionError("a tournament needs two agents or more")
    if len(set(names)) < len(names):
        raise OptionError(f"agents {names}: each agent once")
    k = len(names)
    differences = {}
    for i, j in itertools.combinations(range(k), 2):
        pair = None if out is None else Path(out) / "hands" / f"pair-{i}-{j}"
        a, b = duplicate_scores(game, agents[i], agents[j], hands, seed, workers, pair, dask, progress)
        differences[i, j] = a - b
    wins = _wins(differences, k)
    rows = []
    for (i, j), d in differences.items():
        mean, low, high = mean_interval(d)
        rows.append((names[i], names[j], mean, low, high, wins[i, j]))
        rows.append((names[j], names[i], -mean, -high, -low, wins[j, i]))
    table = pd.DataFrame(rows, columns=["agent", "opponent", "difference", "low", "high", "deals_won"])
    rng = np.random.default_rng(seed)
    samples = np.array([bradley_terry(_wins(differences, k, rng.integers(0, hands, hands)))
                        for _ in range(RESAMPLES)])
    ratings = pd.DataFrame({"agent": names, "rating": bradley_terry(wins),
                            "low": np.percentile(samples, 2.5, axis=0),
                            "high": np.percentile(samples, 97.5, axis=0)})
    return {
        "game": game.label,
        "agents": names,
        "hands": hands,
        "differences": table,
        "ratings": ratings.sort_values("rating", ascending=False, ignore_index=True),
    }


def _title(result: dict) -> str:
    return f"{result['game']}: agents {', '.join(result['agents'])}; {result['hands']:,} duplicate deals each pair"


def format_tournament(result: dict) -> str:
    """The tournament as Markdown: the ratings, then each agent's mean difference per deal
    against each opponent (row minus column) with its 95 % interval."""
    lines = [f"# Tournament: {_title(result)}", "", "| agent | rating | 95 % interval |", "|---|---:|---|"]
    for r in result["ratings"].itertuples():
        lines.append(f"| {r.agent} | {r.rating:+.0f} | [{r.low:+.0f}, {r.high:+.0f}] |")
    names = list(result["ratings"]["agent"])
    cells = {(r.agent, r.opponent): f"{r.difference:+.3f} [{r.low:+.3f}, {r.high:+.3f}]"
             for r in result["differences"].itertuples()}
    lines += ["", "Mean score difference per deal, row against column, with its 95 % interval:", "",
              "| | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for a in names:
        lines.append(f"| {a} | " + " | ".join(cells.get((a, b), "") for b in names) + " |")
    return "\n".join(lines)


def plot_ratings(result: dict, path) -> None:
    """Save the ratings with their intervals as a PNG at ``path``, labelled with the game, its
    options and the number of deals."""
    from matplotlib.figure import Figure

    ratings = result["ratings"].iloc[::-1]  # best at the top
    fig = Figure(figsize=(7, 1.2 + 0.5 * len(ratings)), layout="constrained")
    ax = fig.subplots()
    errors = [ratings["rating"] - ratings["low"], ratings["high"] - ratings["rating"]]
    ax.errorbar(ratings["rating"], range(len(ratings)), xerr=errors, fmt="o", capsize=4)
    ax.set_yticks(range(len(ratings)), ratings["agent"])
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("Bradley-Terry rating, Elo scale (95 % interval)")
    ax.set_title(_title(result), fontsize=9)
    fig.savefig(path, dpi=120)


def write_tournament(result: dict, out) -> list:
    """Write ``differences.csv``, ``ratings.csv``, ``ratings.png`` and ``tournament.md`` (the
    tables and the figure) into the folder ``out``; the paths written."""
    return write_report(out, {"differences.csv": result["differences"], "ratings.csv": result["ratings"]},
                        {"ratings.png": lambda path: plot_ratings(result, path)}, "tournament.md",
                        format_tournament(result))
