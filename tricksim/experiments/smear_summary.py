"""The summary of simulated Shmear and NE Smear hands: the figures the CLI prints.

>>> import tricksim
>>> s = tricksim.summarize(tricksim.simulate("shmear", hands=2000, seed=1, agents="random"))
>>> s["hands"], sorted(s["by_bid"]) == [3, 4, 5, 6], list(s["points"])
(2000, True, ['high', 'low', 'jack', 'jick', 'joker', 'game'])
>>> s["points"]["low"]["nobody"]  # the 2 of trumps is always played in Shmear
0.0
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..sim.smear import POINT_NAMES
from .stats import mean_interval, wilson
from .summary import bid_figures, bid_lines, mean_score_lines, score_means

def summarize(df: pd.DataFrame) -> dict:
    """Rates and means of a Shmear or NE Smear ``simulate`` frame (``SmearGame.frame``).

    Returns a dict: the bidding figures of ``summary.bid_figures`` (``bid_rate``,
    ``thrown_in_rate``, ``made``, ``by_bid``, ``by_position``); ``points``: for
    each point the game scores, ``{"bidding_team", "nobody"}`` over the hands
    played (the Wilson interval of the bidding team winning it, and the share
    won by nobody); ``mean_team_score`` per team (named by its lowest seat);
    ``mean_score`` per seat and ``mean_score_from_dealer``; means as (mean, low, high).
    """
    teams = sum(1 for c in df.columns if c.startswith("game_points_"))
    played = df[df["outcome"].isin(["made", "failed"])]
    n = len(played)
    bidder_team = played["bidder"].astype(int).to_numpy() % max(teams, 1)
    points = {}
    for name in (p for p in POINT_NAMES if p in df.columns):
        winner = played[name].to_numpy(dtype=float, na_value=np.nan)
        points[name] = {
            "bidding_team": wilson(int((winner == bidder_team).sum()), n),
            "nobody": float(np.isnan(winner).mean()) if n else float("nan"),
        }
    by_seat, from_dealer = score_means(df)
    return {
        "hands": len(df),
        **bid_figures(df),
        "points": points,
        "mean_team_score": [mean_interval(df[f"score_{k}"].to_numpy()) for k in range(teams)],
        "mean_score": by_seat,
        "mean_score_from_dealer": from_dealer,
    }


def format_summary(summary: dict) -> str:
    """The summary as the lines the CLI prints under the count of hands."""
    s = summary
    lines = bid_lines(s)
    lines.append("bidding team wins " + "  ".join(
        f"{name}: {p['bidding_team'][0]:.3f}" + (f" (nobody {p['nobody']:.3f})" if p["nobody"] > 0 else "")
        for name, p in s["points"].items()))
    lines.append("mean team score  " + "  ".join(
        f"team {k}: {m:+.3f} [{low:+.3f}, {high:+.3f}]" for k, (m, low, high) in enumerate(s["mean_team_score"])))
    lines += mean_score_lines(s, digits=3)
    return "\n".join(lines)
