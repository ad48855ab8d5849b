"""Decision studies: when does a pick or a bid pay?

``study`` plays the deals of ``decisions.decision_frame`` (every pick or bid decision, each legal
action taken in turn on the same deal) and reports, per hand class and position from the dealer:

* ``table``: for each action, the decisions, the mean score of the seat with its 95 % interval,
  and how often the seat came out ahead (score above 0: the pick won, the bid was made) with its
  Wilson interval;
* ``best``: the action with the best mean score and its margin over the next best, with a 95 %
  interval. Both actions were played on the same deals, so the margin is the mean of the
  differences deal by deal (common random numbers: far narrower than two separate means).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import OptionError
from ..sim.batch import check_run
from .classes import CLASSES, DEFAULT_CLASSES
from .decisions import decision_frame
from .stats import mean_interval, wilson


def class_columns(rows: pd.DataFrame, game: str, classes=None) -> pd.DataFrame:
    """The hand classes of each row: ``classes`` is a list of the game's class names
    (``classes.CLASSES``), or a dict of name to function (the hand masks to a class each)."""
    if classes is None:
        classes = DEFAULT_CLASSES.get(game, ())
    if not isinstance(classes, dict):
        known = CLASSES.get(game, {})
        unknown = [name for name in classes if name not in known]
        if unknown:
            raise OptionError(f"hand classes {unknown} of {game}: choose from {', '.join(known) or 'none yet'}")
        classes = {name: known[name] for name in classes}
    cards = rows["cards"].to_numpy(dtype=np.int64)
    return pd.DataFrame({name: np.asarray(f(cards)) for name, f in classes.items()}, index=rows.index)


def summarize_decisions(rows: pd.DataFrame, game: str, classes=None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(table, best)`` of a study's rows (see the module docstring)."""
    classed = class_columns(rows, game, classes)
    keys = list(classed.columns) + ["position"]
    data = pd.concat([classed, rows[["hand", "decision", "position", "action", "score"]]], axis=1)
    data["action"] = data["action"].astype(str)
    table = []
    best = []
    for key, group in data.groupby(keys, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        means = {}
        for action, g in group.groupby("action"):
            scores = g["score"].to_numpy(dtype=np.float64)
            mean, low, high = mean_interval(scores)
            rate, rate_low, rate_high = wilson(int((scores > 0).sum()), len(scores))
            table.append(key + (action, len(scores), mean, low, high, rate, rate_low, rate_high))
            means[action] = mean
        ranked = sorted(means, key=means.get, reverse=True)
        if len(ranked) > 1:
            wide = group.pivot(index=["hand", "decision"], columns="action", values="score")
            paired = (wide[ranked[0]] - wide[ranked[1]]).dropna().to_numpy(dtype=np.float64)
            margin = mean_interval(paired)
        else:
            margin = (np.nan, np.nan, np.nan)
        best.append(key + (ranked[0], ranked[1] if len(ranked) > 1 else None, len(group.groupby(["hand", "decision"])))
                    + tuple(margin))
    table = pd.DataFrame(table, columns=keys + ["action", "decisions", "mean_score", "low", "high",
                                                "ahead", "ahead_low", "ahead_high"])
    best = pd.DataFrame(best, columns=keys + ["best", "next", "decisions", "margin", "margin_low", "margin_high"])
    return table, best


def study(game, hands: int, seed: int = 0, agents="heuristic", classes=None) -> dict:
    """A decision study of ``hands`` deals of ``game`` (a Game): ``rows`` (one per decision and
    action, ``decisions.decision_frame``), ``table`` and ``best`` (``summarize_decisions``)."""
    check_run(hands, seed)
    if hands == 0:
        raise OptionError("hands = 0: a study needs one deal or more")
    class_columns(pd.DataFrame({"cards": np.zeros(0, np.int64)}), game.name, classes)  # bad names fail first
    rows = decision_frame(game, hands, seed, agents)
    table, best = summarize_decisions(rows, game.name, classes)
    return {"game": repr(game), "agents": agents, "hands": hands, "rows": rows, "table": table, "best": best}


def _title(result: dict) -> str:
    return f"{result['game']}, agents {result['agents']}, {result['hands']:,} deals"


def format_study(result: dict) -> str:
    """The study as Markdown: the best action per class and position with its margin over the
    next best, then every action's mean score and how often the seat came out ahead."""
    best, table = result["best"], result["table"]
    keys = list(best.columns[:list(best.columns).index("best")])
    lines = [f"# Decision study: {_title(result)}", "",
             "Best action per hand class and position from the dealer (0 the dealer, 1 eldest), its margin "
             "in mean score over the next best on the same deals, 95 % interval:", "",
             "| " + " | ".join(keys) + " | decisions | best | margin | next |",
             "|" + "---|" * (len(keys) + 4)]
    for r in best.itertuples(index=False):
        d = r._asdict()
        lines.append("| " + " | ".join(str(d[k]) for k in keys)
                     + f" | {d['decisions']:,} | {d['best']} | {d['margin']:+.3f} [{d['margin_low']:+.3f}, "
                       f"{d['margin_high']:+.3f}] | {d['next']} |")
    lines += ["", "Every action: mean score of the seat and how often it came out ahead (score above 0):", "",
              "| " + " | ".join(keys) + " | action | decisions | mean score | ahead |", "|" + "---|" * (len(keys) + 4)]
    for r in table.itertuples(index=False):
        d = r._asdict()
        lines.append("| " + " | ".join(str(d[k]) for k in keys)
                     + f" | {d['action']} | {d['decisions']:,} | {d['mean_score']:+.3f} [{d['low']:+.3f}, "
                       f"{d['high']:+.3f}] | {d['ahead']:.1%} [{d['ahead_low']:.1%}, {d['ahead_high']:.1%}] |")
    return "\n".join(lines)


def plot_best(result: dict, path) -> None:
    """Save a heat map of the best action by the first hand class and position (the colour its
    margin over the next best, the cell its label) as a PNG at ``path``."""
    from matplotlib.figure import Figure

    best = result["best"]
    first = best.columns[0]
    if first == "position":  # no hand classes: one row of every hand
        best, first = best.assign(hands="all"), "hands"
    margin = best.pivot(index=first, columns="position", values="margin")
    label = best.pivot(index=first, columns="position", values="best")
    fig = Figure(figsize=(1.6 + 1.1 * margin.shape[1], 1.4 + 0.45 * margin.shape[0]), layout="constrained")
    ax = fig.subplots()
    image = ax.imshow(margin.to_numpy(dtype=float), cmap="viridis", aspect="auto", origin="lower")
    for i in range(margin.shape[0]):
        for j in range(margin.shape[1]):
            if isinstance(label.iat[i, j], str):
                ax.text(j, i, label.iat[i, j], ha="center", va="center", color="white", fontsize=8)
    ax.set_xticks(range(margin.shape[1]), margin.columns)
    ax.set_yticks(range(margin.shape[0]), margin.index)
    ax.set_xlabel("position from the dealer (0 the dealer, 1 eldest)")
    ax.set_ylabel(first)
    fig.colorbar(image, ax=ax, label="margin of the best action (mean score)")
    ax.set_title(f"Best action: {_title(result)}", fontsize=8)
    fig.savefig(path, dpi=120)


def write_study(result: dict, out) -> list:
    """Write ``rows.parquet`` (every decision and action), ``table.csv``, ``best.csv``,
    ``best.png`` and ``study.md`` (the tables and the figure) into the folder ``out``; the paths."""
    from pathlib import Path

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "rows.parquet", out / "table.csv", out / "best.csv", out / "best.png", out / "study.md"]
    result["rows"].to_parquet(paths[0], index=False)
    result["table"].to_csv(paths[1], index=False)
    result["best"].to_csv(paths[2], index=False)
    plot_best(result, paths[3])
    paths[4].write_text(format_study(result) + "\n\n![best action](best.png)\n")
    return paths
