"""The summary of simulated Bluke hands: the figures the CLI prints.

>>> from tricksim.sim.batch import simulate
>>> from tricksim.sim.bluke_game import Bluke
>>> s = summarize(simulate(Bluke(players=4), hands=2000, seed=1))
>>> s["hands"], s["seats"], 0 < s["made"][0] < 1, abs(sum(s["bid_distribution"].values()) - 1) < 1e-9
(2000, 4, True, True)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .stats import wilson
from .summary import mean_score_lines, position_name, score_means


def _seats(df: pd.DataFrame) -> list[int]:
    return sorted(int(c.split("_")[1]) for c in df.columns if c.startswith("score_"))


def _made(bids: np.ndarray, taken: np.ndarray) -> np.ndarray:
    """docs/rules.md, Bluke: Score: a bid is made by taking at least the bid; a zero only by taking none."""
    return np.where(bids == 0, taken == 0, taken >= bids)


def summarize(df: pd.DataFrame) -> dict:
    """Rates and means of a Bluke ``simulate`` frame.

    Returns a dict: ``hands``; ``seats``; ``bid_distribution`` {bid: share of all
    bids}; ``made`` (rate, low, high) over all bids, a Wilson interval;
    ``made_by_bid`` {bid: (rate, low, high)}; ``made_from_dealer`` per position
    (0 the dealer, 1 eldest …); ``exact_rate`` (rate, low, high): bids made with
    no trick to spare; ``no_trump_rate``; ``mean_score`` per seat and
    ``mean_score_from_dealer``, each as (mean, low, high).
    """
    hands = len(df)
    seats = _seats(df)
    n = len(seats)
    bids = df[[f"bid_{p}" for p in seats]].to_numpy().astype(int)
    taken = df[[f"taken_{p}" for p in seats]].to_numpy().astype(int)
    dealer = df["dealer"].to_numpy().astype(int)
    made = _made(bids, taken)
    rows = np.arange(hands)
    position = [(dealer + k) % n for k in range(n)] if n else []
    by_seat, from_dealer = score_means(df)
    values, counts = np.unique(bids, return_counts=True)
    total = bids.size
    return {
        "hands": hands,
        "seats": n,
        "bid_distribution": {int(v): float(c / total) for v, c in zip(values, counts)},
        "made": wilson(int(made.sum()), total),
        "made_by_bid": {int(v): wilson(int(made[bids == v].sum()), int((bids == v).sum())) for v in values},
        "made_from_dealer": [wilson(int(made[rows, pos].sum()), hands) for pos in position],
        "exact_rate": wilson(int((taken == bids).sum()), total),
        "no_trump_rate": float(df["trump"].isna().mean()) if hands else float("nan"),
        "mean_score": by_seat,
        "mean_score_from_dealer": from_dealer,
    }


def format_summary(summary: dict) -> str:
    """The summary as the lines the CLI prints under the count of hands."""
    s = summary
    lines = []
    made, low, high = s["made"]
    exact = s["exact_rate"][0]
    lines += [
        "bids             " + "  ".join(f"{b}: {share:.3f}" for b, share in s["bid_distribution"].items()),
        f"bids made        {made:.4f}   95% Wilson interval [{low:.4f}, {high:.4f}]   exact {exact:.4f}",
        "made by bid      " + "  ".join(f"{b}: {r:.3f}" for b, (r, _, _) in s["made_by_bid"].items()),
        "made from dealer " + "  ".join(
            f"{position_name(k)}: {r:.4f}" for k, (r, _, _) in enumerate(s["made_from_dealer"])
        ),
        f"no trump         {s['no_trump_rate']:.4f}   (of hands)",
    ]
    lines += mean_score_lines(s, digits=3)
    return "\n".join(lines)

