"""The summary of simulated Whist hands (``tricksim.spec.Summary``)."""

from __future__ import annotations

import pandas as pd

from tricksim.experiments.stats import wilson
from tricksim.experiments.summary import mean_score_lines, score_means


def summarize(df: pd.DataFrame) -> dict:
    """``hands``; ``odd_tricks`` {n: share}; ``dealer_side_wins`` (rate, low, high), the dealer's
    side taking seven tricks or more; ``mean_score`` and ``mean_score_from_dealer``."""
    dealer_side = df["tricks_0"].where(df["dealer"] % 2 == 0, df["tricks_1"])
    by_seat, from_dealer = score_means(df)
    shares = df["odd_tricks"].value_counts(normalize=True).sort_index()
    return {"hands": len(df), "odd_tricks": {int(k): float(v) for k, v in shares.items()},
            "dealer_side_wins": wilson(int((dealer_side >= 7).sum()), len(df)),
            "mean_score": by_seat, "mean_score_from_dealer": from_dealer}


def format_summary(summary: dict) -> str:
    rate, low, high = summary["dealer_side_wins"]
    lines = ["odd tricks       " + "  ".join(f"{k}: {v:.3f}" for k, v in summary["odd_tricks"].items()),
             f"dealer's side    wins {rate:.4f}   95% Wilson interval [{low:.4f}, {high:.4f}]"]
    return "\n".join(lines + mean_score_lines(summary, digits=3))
