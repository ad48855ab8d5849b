"""The summary of simulated Fifty-five hands: the figures the CLI prints.

>>> import numpy as np
>>> from tricksim.sim import fiftyfive as K
>>> from tricksim.sim.fiftyfive_game import FiftyFive
>>> game = FiftyFive()
>>> raw = np.zeros((2000, len(K.RECORD)), dtype=np.int64)
>>> K.play_random_hands(1, 0, game.option_array, raw)
>>> s = summarize(game.frame(raw, 1, 0))
>>> s["hands"], 0 < s["bid_rate"] <= 1, set(s["by_bid"]) <= {10, 15, 20, 25, 60}, 60 in s["by_bid"]
(2000, True, True, True)
"""

from __future__ import annotations

import math

import pandas as pd

from .stats import wilson
from .summary import mean_score_lines, position_name, score_means


def summarize(df: pd.DataFrame) -> dict:
    """Rates and means of a Fifty-five ``simulate`` frame (``FiftyFive.frame``).

    Returns a dict: ``hands``; ``bid_rate`` (hands not thrown in) and
    ``thrown_in_rate``; ``made`` as (rate, low, high), a Wilson interval over
    the hands played; ``by_bid``: for each bid value, ``{"share", "made"}`` (the
    share of played hands at that bid, and the Wilson interval of making it);
    ``by_position``: for each seat relative to the dealer (0 the dealer, 1
    eldest …), ``{"bid_rate", "made"}``; ``mean_score`` per seat and
    ``mean_score_from_dealer``, each as (mean, low, high).
    """
    hands = len(df)
    seats = sorted(int(c.split("_")[1]) for c in df.columns if c.startswith("score_"))
    n_seats = len(seats)
    played = df[df["outcome"].isin(["made", "failed"])]
    n = len(played)
    made = played["outcome"] == "made"
    by_bid = {}
    for bid, group in played.groupby(played["bid"].astype(int)):
        by_bid[int(bid)] = {
            "share": len(group) / n,
            "made": wilson(int((group["outcome"] == "made").sum()), len(group)),
        }
    position = (played["bidder"].astype(int).to_numpy() - played["dealer"].to_numpy().astype(int)) % max(n_seats, 1)
    by_position = {}
    for k in range(n_seats):
        at = position == k
        by_position[k] = {
            "bid_rate": float(at.mean()) if n else math.nan,
            "made": wilson(int(made.to_numpy()[at].sum()), int(at.sum())),
        }
    by_seat, from_dealer = score_means(df)
    return {
        "hands": hands,
        "bid_rate": n / hands if hands else math.nan,
        "thrown_in_rate": float((df["outcome"] == "thrown_in").mean()) if hands else math.nan,
        "made": wilson(int(made.sum()), n),
        "by_bid": by_bid,
        "by_position": by_position,
        "mean_score": by_seat,
        "mean_score_from_dealer": from_dealer,
    }


def format_summary(summary: dict) -> str:
    """The summary as the lines the CLI prints under the count of hands."""
    s = summary
    lines = []
    rate, low, high = s["made"]
    lines += [
        f"bid              {s['bid_rate']:.4f}   thrown in {s['thrown_in_rate']:.4f}   (of hands)",
        f"bidder makes     {rate:.4f}   95% Wilson interval [{low:.4f}, {high:.4f}]",
        "  by bid         " + "  ".join(
            f"{bid}: {b['made'][0]:.3f} ({b['share']:.3f} of bids)" for bid, b in s["by_bid"].items()
        ),
        "  by seat        " + "  ".join(
            f"{position_name(k)}: {p['made'][0]:.3f} ({p['bid_rate']:.3f} of bids)" for k, p in s["by_position"].items()
        ),
    ]
    lines += mean_score_lines(s, digits=3)
    return "\n".join(lines)

