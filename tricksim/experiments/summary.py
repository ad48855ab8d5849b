"""Summaries of ``simulate`` frames, one module per game; this one dispatches.

A frame names its game in ``df.attrs["game"]`` (set by ``simulate``); a frame
read back from Parquet is recognised by its columns.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..spec import names, spec, specs


def game_of(df: pd.DataFrame) -> str:
    """The game a ``simulate`` frame comes from (``df.attrs["game"]``, or for a frame read back
    from Parquet the game whose own columns it has); ValueError if it is not one."""
    game = df.attrs.get("game")
    if game in names():
        return game
    for g in specs():  # in the list's order: a Shmear frame has NE Smear's columns too
        if g.frame_columns and g.frame_columns <= set(df.columns):
            return g.name
    raise ValueError("summarize: not a tricksim simulate frame (no game in df.attrs and no known columns)")


def _module(game: str):
    return spec(game).part("summary")


def summarize(df: pd.DataFrame) -> dict:
    """The game's summary of a ``simulate`` frame, as a dict of named figures."""
    return _module(game_of(df)).summarize(df)


def format_summary(df: pd.DataFrame, summary: dict) -> str:
    """The summary as the lines the CLI prints, the count of hands first."""
    return f"hands            {summary['hands']:,}\n" + _module(game_of(df)).format_summary(summary)


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
            f"seat {p}: {m:+.{digits}f} ±{(high - low) / 2:.{digits}f}"
            for p, (m, low, high) in enumerate(summary["mean_score"])),
        "  from dealer    " + "  ".join(
            f"{position_name(k)}: {m:+.{digits}f} ±{(high - low) / 2:.{digits}f}"
            for k, (m, low, high) in enumerate(summary["mean_score_from_dealer"])),
        "                 (± the half-width of a 95% interval)",
    ]


def bid_figures(df: pd.DataFrame) -> dict:
    """The figures of a bidding game's frame (columns ``outcome``, ``bid``, ``bidder``, ``dealer``).

    ``bid_rate`` (hands not thrown in) and ``thrown_in_rate``; ``made`` as
    (rate, low, high), a Wilson interval over the hands played; ``by_bid``: for
    each bid value, ``{"share", "made"}`` (its share of the hands played, and the
    Wilson interval of making it); ``by_position``: for each bidder's seat
    relative to the dealer (0 the dealer, 1 eldest …), ``{"bid_rate", "made"}``.
    """
    from .stats import wilson

    hands = len(df)
    n_seats = sum(1 for c in df.columns if c.startswith("score_"))
    played = df[df["outcome"].isin(["made", "failed"])]
    n = len(played)
    made = (played["outcome"] == "made").to_numpy()
    by_bid = {}
    for bid, group in played.groupby(played["bid"].astype(int)):
        by_bid[int(bid)] = {"share": len(group) / n, "made": wilson(int((group["outcome"] == "made").sum()), len(group))}
    position = (played["bidder"].astype(int).to_numpy() - played["dealer"].to_numpy().astype(int)) % max(n_seats, 1)
    by_position = {
        k: {"bid_rate": float((position == k).mean()) if n else math.nan,
            "made": wilson(int(made[position == k].sum()), int((position == k).sum()))}
        for k in range(n_seats)
    }
    return {
        "bid_rate": n / hands if hands else math.nan,
        "thrown_in_rate": float((df["outcome"] == "thrown_in").mean()) if hands else math.nan,
        "made": wilson(int(made.sum()), n),
        "by_bid": by_bid,
        "by_position": by_position,
    }


def bid_lines(summary: dict) -> list[str]:
    """The lines of ``bid_figures``: the rates, then a table by bid value and one by seat."""
    s = summary
    rate, low, high = s["made"]
    n_seats = len(s["by_position"])
    lines = [
        f"bid              {s['bid_rate']:.4f}   thrown in {s['thrown_in_rate']:.4f}   (of hands)",
        f"bidder makes     {rate:.4f}   95% Wilson interval [{low:.4f}, {high:.4f}]",
        "  by bid         share of bids   bidder makes",
    ]
    lines += [f"    {bid:<12} {b['share']:.4f}          {interval_text(b['made'])}" for bid, b in s["by_bid"].items()]
    lines.append("  by position    share of bids   bidder makes")
    lines += [f"    {position_name(k):<12} {s['by_position'][k]['bid_rate']:.4f}          "
              f"{interval_text(s['by_position'][k]['made'])}"
              for k in sorted(s["by_position"], key=lambda k: (k - 1) % n_seats)]  # eldest first, the dealer last
    return lines


def interval_text(figure: tuple) -> str:
    rate, low, high = figure
    return f"{rate:.4f} [{low:.4f}, {high:.4f}]"
