"""Summaries of ``simulate`` frames, one module per game; this one dispatches.

A frame names its game in ``df.attrs["game"]`` (set by ``simulate``); a frame
read back from Parquet is recognised by its columns.
"""

from __future__ import annotations

from importlib import import_module

import pandas as pd

# game -> (module with summarize(df) and format_summary(summary, seconds), a column only it has)
_SUMMARIES = {
    "bluke": ("bluke_summary", "hand_size"),
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
    """The summary as the lines the CLI prints."""
    return _module(game_of(df)).format_summary(summary, seconds)
