"""The summary of simulated Sheepshead hands: the figures the CLI prints.

>>> import tricksim
>>> s = tricksim.summarize(tricksim.simulate("sheepshead", hands=2000, seed=1))
>>> s["hands"], 0 < s["pick_rate"] < 1, s["picker_win"][1] < s["picker_win"][0] < s["picker_win"][2]
(2000, True, True)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..sim.sheepshead import PLAYERS
from .stats import wilson
from .summary import interval_text, mean_score_lines, position_name, score_means


def summarize(df: pd.DataFrame) -> dict:
    """Rates and means of a Sheepshead ``simulate`` frame.

    Returns a dict: ``hands``; ``pick_rate`` (of hands) and ``pick_per_decision`` (picks per
    pick-or-pass decision taken, as (rate, low, high)); ``picker_win`` as (rate, low, high),
    a Wilson interval over the hands with a picker; ``alone_rate``,
    ``schneider_rate`` (a side under 31 points but with a trick) and
    ``no_trick_rate`` among those hands; ``leaster_rate`` and ``thrown_in_rate``
    over all hands; ``by_position`` {position from the dealer (0 the dealer, 1
    eldest …): ``pick_rate``, picks per decision taken there, and ``picker_win``,
    each (rate, low, high) with a Wilson interval}; ``mean_score`` per seat and ``mean_score_from_dealer``
    (position 0 is the dealer, 1 eldest …), each as (mean, low, high).
    """
    hands = len(df)
    picked = df[df["outcome"].isin(["win", "loss"])]
    n = len(picked)
    by_seat, from_dealer = score_means(df)
    # the seats decide in turn from eldest (turn 0) to the dealer (turn 4); a seat decides unless
    # somebody before it picked
    dealer = df["dealer"].to_numpy().astype(int)
    picker = df["picker"].to_numpy(dtype=float, na_value=-1).astype(int)
    picker_turn = np.where(picker >= 0, (picker - dealer - 1) % PLAYERS, PLAYERS)
    win = (df["outcome"] == "win").to_numpy()
    by_position = {}
    decisions = int(np.minimum(picker_turn + 1, PLAYERS).sum())
    for turn in range(PLAYERS):
        decided, picks = int((picker_turn >= turn).sum()), picker_turn == turn
        by_position[(turn + 1) % PLAYERS] = {
            "pick_rate": wilson(int(picks.sum()), decided),
            "picker_win": wilson(int(win[picks].sum()), int(picks.sum())),
        }
    return {
        "hands": hands,
        "pick_rate": n / hands if hands else float("nan"),
        "pick_per_decision": wilson(n, decisions),
        "picker_win": wilson(int((picked["outcome"] == "win").sum()), n),
        "alone_rate": float(picked["alone"].mean()) if n else float("nan"),
        "schneider_rate": float((picked["multiplier"] == 2).mean()) if n else float("nan"),
        "no_trick_rate": float((picked["multiplier"] == 3).mean()) if n else float("nan"),
        "leaster_rate": float((df["outcome"] == "leaster").mean()) if hands else float("nan"),
        "thrown_in_rate": float((df["outcome"] == "thrown_in").mean()) if hands else float("nan"),
        "by_position": by_position,
        "mean_score": by_seat,
        "mean_score_from_dealer": from_dealer,
    }


def format_summary(summary: dict) -> str:
    """The summary as the lines the CLI prints under the count of hands."""
    s = summary
    lines = []
    win, low, high = s["picker_win"]
    lines += [
        f"pick rate        {s['pick_rate']:.4f} of hands, {s['pick_per_decision'][0]:.4f} of decisions"
        f"   (alone {s['alone_rate']:.4f} of picks)",
        f"picker side wins {win:.4f}   95% Wilson interval [{low:.4f}, {high:.4f}]",
        f"schneider        {s['schneider_rate']:.4f}   no-trick {s['no_trick_rate']:.4f}   (of picks)",
        f"leaster          {s['leaster_rate']:.4f}   thrown in {s['thrown_in_rate']:.4f}   (of hands)",
    ]
    lines.append("  by position    picks per decision there   picker side wins")
    for k, p in sorted(s["by_position"].items(), key=lambda item: (item[0] - 1) % PLAYERS):
        lines.append(f"    {position_name(k):<12} {interval_text(p['pick_rate'])}   {interval_text(p['picker_win'])}")
    lines += mean_score_lines(s)
    return "\n".join(lines)

