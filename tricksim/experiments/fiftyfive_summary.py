"""The summary of simulated Fifty-five hands: the figures the CLI prints.

>>> import numpy as np
>>> from tricksim.agents.loops import play_random_hands
>>> from tricksim.sim import fiftyfive as K
>>> from tricksim.sim.fiftyfive_game import FiftyFive
>>> game = FiftyFive()
>>> raw = np.zeros((2000, len(K.RECORD)), dtype=np.int64)
>>> play_random_hands(game, 1, 0, raw)
>>> s = summarize(game.frame(raw, 1, 0))
>>> s["hands"], 0 < s["bid_rate"] <= 1, set(s["by_bid"]) <= {10, 15, 20, 25, 60}, 60 in s["by_bid"]
(2000, True, True, True)
"""

from __future__ import annotations

import pandas as pd

from .summary import bid_figures, bid_lines, mean_score_lines, score_means


def summarize(df: pd.DataFrame) -> dict:
    """Rates and means of a Fifty-five ``simulate`` frame (``FiftyFive.frame``).

    Returns a dict: the bidding figures of ``summary.bid_figures`` (``bid_rate``,
    ``thrown_in_rate``, ``made``, ``by_bid``, ``by_position``); ``mean_score``
    per seat and ``mean_score_from_dealer``, each as (mean, low, high).
    """
    by_seat, from_dealer = score_means(df)
    return {"hands": len(df), **bid_figures(df), "mean_score": by_seat, "mean_score_from_dealer": from_dealer}


def format_summary(summary: dict) -> str:
    """The summary as the lines the CLI prints under the count of hands."""
    return "\n".join(bid_lines(summary) + mean_score_lines(summary, digits=3))
