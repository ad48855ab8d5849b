"""Summaries of ``simulate`` frames, one module per game; this one dispatches.

A frame names its game in ``df.attrs["game"]`` (set by ``simulate``); a frame
read back from Parquet is recognised by its columns.
"""

from __future__ import annotations

from importlib import import_module

import numpy as np
import pandas as pd

# game -> (module with summarize(df) and format_summary(summary), a column only it has)
_SUMMARIES = {
    "bluke": ("bluke_summary", "hand_size"),
    "fiftyfive": ("fiftyfive_summary", "bidder"),
    "sheepshead": ("sheepshead_summary", "picker"),
}


def game_of(df: pd.DataFrame) -> str:
    """The game a ``simulate`` frame comes from; ValueError if it is not one."""
    game = df.attrs.get("game")
    if game in _SUMMARIES:
        return game
    for name, (_, column) in _SUMMARIES.items():
        if column in df.columns:
            return name
    raise ValueError("summarize: not a tricksim simulate frame (no game in df.attrs and no known columns)")


def _module(game: str):
    return import_module(f"{__package__}.{_SUMMARIES[game][0]}")


def summarize(df: pd.DataFrame) -> dict:
    """The game's summary of a ``simulate`` frame, as a dict of named figures."""
    return _module(game_of(df)).summarize(df)


def format_summary(df: pd.DataFrame, summary: dict, seconds: float | None = None) -> str:
    """The summary as the lines the CLI prints, the count of hands (and their speed) first."""
    head = f"hands            {summary['hands']:,}"
    if seconds:
        head += f" in {seconds:.2f} s = {summary['hands'] / seconds:,.0f} hands/s"
    return head + "\n" + _module(game_of(df)).format_summary(summary)


# --- pieces every game's summary shares ------------------------------------------


def score_means(df: pd.DataFrame) -> tuple[list, list]:
    """Mean score per seat, and per position from the dealer (0 the dealer, 1 eldest …),
    each as (mean, low, high), from a frame's ``score_<seat>`` columns."""
    from .stats import mean_interval

    seats = sorted(int(c.split("_")[1]) for c in df.columns if c.startswith("score_"))
    scores = df[[f"score_{p}" for p in seats]].to_numpy()
    dealer = df["dealer"].to_numpy().astype(int)
    rows = np.arange(len(df))
    by_seat = [mean_interval(scores[:, p]) for p in seats]
    from_dealer = [mean_interval(scores[rows, (dealer + k) % len(seats)]) for k in range(len(seats))]
    return by_seat, from_dealer


def position_name(k: int) -> str:
    """A seat's position from the dealer: dealer, eldest, +2, +3 …"""
    return "dealer" if k == 0 else ("eldest" if k == 1 else f"+{k}")


def mean_score_lines(summary: dict, digits: int = 4) -> list[str]:
    """The two lines of mean scores, by seat and from the dealer."""
    return [
        "mean score       " + "  ".join(
            f"seat {p}: {m:+.{digits}f}" for p, (m, _, _) in enumerate(summary["mean_score"])),
        "  from dealer    " + "  ".join(
            f"{position_name(k)}: {m:+.{digits}f}" for k, (m, _, _) in enumerate(summary["mean_score_from_dealer"])),
    ]
