"""Decision studies: when does a pick or a bid pay?

``study`` plays the deals of ``decisions.decision_frame`` (every pick or bid decision, each legal
action taken in turn on the same deal) and reports, per hand class and position from the dealer:

* ``table``: for each action, the decisions, the mean score of the seat with its 95 % interval,
  and how often the seat came out ahead (score above 0: the pick won, the bid was made) with its
  Wilson interval;
* ``best``: the best action and its margin over the next best, with a 95 % interval. Every
  action was played on the same deals, so actions are compared, and the margin measured, by the
  differences deal by deal (common random numbers: far narrower than two separate means), on
  the decisions both were open at (``_best_action``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from ..errors import OptionError
from ..sim.batch import check_run
from .classes import class_columns, resolve_classes
from .decisions import check_dask, decision_file, decision_frame, join_rows, make_study, read_rows
from .policy import check_policy_run, format_policy, policy_table, policy_value
from .report import write_report
from .stats import mean_interval, wilson


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
        for action, g in sorted(group.groupby("action"), key=lambda item: _action_order(item[0])):
            scores = g["score"].to_numpy(dtype=np.float64)
            mean, low, high = mean_interval(scores)
            rate, rate_low, rate_high = wilson(int((scores > 0).sum()), len(scores))
            table.append(key + (action, len(scores), mean, low, high, rate, rate_low, rate_high))
            means[action] = mean
        wide = group.pivot(index=["hand", "decision"], columns="action", values="score")
        top, runner, margin = _best_action(wide, means)
        best.append(key + (top, runner, len(wide)) + margin)
    table = pd.DataFrame(table, columns=keys + ["action", "decisions", "mean_score", "low", "high",
                                                "ahead", "ahead_low", "ahead_high"])
    best = pd.DataFrame(best, columns=keys + ["best", "next", "decisions", "margin", "margin_low", "margin_high"])
    return table, best


def _best_action(wide: pd.DataFrame, means: dict) -> tuple:
    """``(best, next, (margin, low, high))`` of one class and position: ``wide`` the score of each
    action (columns) on each decision (rows; NaN where the action was not legal).

    Not every action is legal at every decision (a Fifty-five dealer may hold only a bid), so means
    over different decisions do not compare: the best is found by paired comparisons on the
    decisions both actions were open at, the actions taken in order of their means and each one
    better than the best so far on their shared decisions taking its place. The next is the one
    closest to the best on their shared decisions, and the margin is that paired difference."""
    ranked = sorted(means, key=means.get, reverse=True)
    top = ranked[0]
    for action in ranked[1:]:
        shared = (wide[action] - wide[top]).dropna()
        if len(shared) and shared.mean() > 0:
            top = action
    margins = {a: mean_interval((wide[top] - wide[a]).dropna().to_numpy(dtype=np.float64)) for a in ranked if a != top}
    margins = {a: m for a, m in margins.items() if m[0] == m[0]}  # NaN: never open together
    if not margins:
        return top, None, (np.nan, np.nan, np.nan)
    runner = min(margins, key=lambda a: margins[a][0])
    return top, runner, margins[runner]


def study(game, hands: int, seed: int = 0, agents="heuristic", classes=None, out=None, dask=None,
          progress: bool = True, policy: int = 0) -> dict:
    """A decision study of ``hands`` deals of ``game`` (a Game): ``rows`` (one per decision and
    action, ``decisions.decision_frame``), ``table`` and ``best`` (``summarize_decisions``).

    With a folder ``out``, the rows are streamed to ``out/rows.parquet`` as they are played (a part
    per chunk in ``out/rows.parts/`` until all are in: run again with the same arguments to resume
    a stopped study; the complete file of this very study is kept and nothing played), ``rows`` is
    that file (a ``RowsFile``), and ``write_study`` writes the other files beside it. ``dask``:
    play on a Dask distributed cluster, ``"local"`` (a worker process per core) or a scheduler's
    address ``tcp://host:port``. The results are the same every way. ``progress``: a bar over the
    deals, in a terminal. ``policy``: deals (fresh ones, of seed + 1) to measure the study's policy
    on against the agents' own rule (``policy.policy_value``; its result under ``policy``)."""
    check_run(hands, seed)
    if policy:
        check_policy_run(game, policy, seed + 1, agents)
    if hands == 0:
        raise OptionError("hands = 0: a study needs one deal or more")
    resolve_classes(game.name, classes)  # bad names fail first
    plan = make_study(game, hands, seed, agents)
    check_dask(dask)
    if out is None:
        rows = decision_frame(game, hands, seed, agents, dask=dask, progress=progress)
        table, best = summarize_decisions(rows, game.name, classes)
    else:
        rows = RowsFile(decision_file(plan, Path(out) / "rows.parquet", dask=dask, progress=progress))
        table, best = _summarize_file(rows.path, game.name, classes)
    result = {"game": repr(game), "agents": agents, "hands": hands, "rows": rows, "table": table, "best": best}
    result["policy"] = policy_value(game, result, policy, seed + 1, agents, classes) if policy else None
    return result


SUMMARY_COLUMNS = ["hand", "decision", "position", "action", "score"]  # what summarize_decisions reads, classes aside


def _summarize_file(path: Path, game: str, classes=None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``summarize_decisions`` of the rows in the Parquet file ``path``, in less memory: the file is
    read a row group (a chunk) at a time, the hand classes of its rows worked out from it (a class
    is a function of the row alone), and only the classes and the columns the summary reads kept."""
    functions = resolve_classes(game, classes)
    columns = {name: f"class {i}" for i, name in enumerate(functions)}
    source = pq.ParquetFile(path)
    kept = []
    for group in range(source.num_row_groups):
        rows = source.read_row_group(group).to_pandas()
        classed = class_columns(rows, game, functions).set_axis(list(columns.values()), axis=1)
        kept.append(pd.concat([rows[SUMMARY_COLUMNS], classed], axis=1).copy())  # not a view keeping all of rows
    read = {name: (lambda rows, column=column: rows[column].to_numpy()) for name, column in columns.items()}
    return summarize_decisions(join_rows(kept), game, read)


class RowsFile(os.PathLike):
    """The rows of a study streamed to its Parquet file (``study`` with ``out``), left there:
    ``read()`` gives them, or some ``columns``, as ``decisions.decision_frame`` does."""

    def __init__(self, path):
        self.path = Path(path)

    def __fspath__(self) -> str:
        return str(self.path)

    def __len__(self) -> int:
        return pq.ParquetFile(self.path).metadata.num_rows

    def __repr__(self) -> str:
        return f"RowsFile({str(self.path)!r})"

    def read(self, columns=None) -> pd.DataFrame:
        return read_rows(self.path, columns)


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
        margin = _interval(d["margin"], d["margin_low"], d["margin_high"])
        lines.append("| " + " | ".join(str(d[k]) for k in keys)
                     + f" | {d['decisions']:,} | {d['best']} | {margin} | {d['next'] or ''} |")
    lines += ["", "Every action: mean score of the seat and how often it came out ahead (score above 0):", "",
              "| " + " | ".join(keys) + " | action | decisions | mean score | ahead |", "|" + "---|" * (len(keys) + 4)]
    for r in table.itertuples(index=False):
        d = r._asdict()
        lines.append("| " + " | ".join(str(d[k]) for k in keys)
                     + f" | {d['action']} | {d['decisions']:,} | {_interval(d['mean_score'], d['low'], d['high'])}"
                       f" | {d['ahead']:.1%} [{d['ahead_low']:.1%}, {d['ahead_high']:.1%}] |")
    lines += ["", format_policy(best, result.get("policy"))]
    return "\n".join(lines)


def _interval(mean: float, low: float, high: float) -> str:
    """``+0.123 [+0.100, +0.146]``; the mean alone when there is no interval (one decision), a dash
    when there is no mean."""
    if mean != mean:
        return "–"
    return f"{mean:+.3f}" if low != low else f"{mean:+.3f} [{low:+.3f}, {high:+.3f}]"


def plot_best(result: dict, path) -> None:
    """Save two heat maps by hand class (rows) and position (columns) as a PNG at ``path``: the
    best action and its margin over the next best, coloured by its expected value (mean score),
    and how often the seat came out ahead with it (its win rate)."""
    from matplotlib import patheffects
    from matplotlib.figure import Figure

    best = result["best"]
    keys = list(best.columns[:list(best.columns).index("best")])
    cells = best.merge(result["table"].rename(columns={"action": "best", "decisions": "taken"}), on=keys + ["best"])
    classes = keys[:-1]
    if not classes:  # no hand classes: one row of every hand
        cells, classes = cells.assign(hands="all"), ["hands"]
    panels = (("mean_score", "expected value (mean score)", "the best action, its margin over the next",
               lambda c: c.best if c.margin != c.margin else f"{c.best}\n{c.margin:+.2f}"),
              ("ahead", "win rate (score above 0)", "how often it came out ahead", lambda c: f"{c.ahead:.0%}"))
    grid = cells.pivot(index=classes, columns="position", values="mean_score")
    fig = Figure(figsize=(2.4 + 2.2 * grid.shape[1], max(3.0, 1.6 + 0.5 * grid.shape[0])), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    outline = [patheffects.withStroke(linewidth=2, foreground="black")]
    for ax, (column, label, title, text) in zip(axes, panels):
        grid = cells.pivot(index=classes, columns="position", values=column)
        image = ax.imshow(grid.to_numpy(dtype=float), cmap="viridis", aspect="auto", origin="lower")
        for c in cells.itertuples(index=False):
            key = tuple(getattr(c, k) for k in classes)
            row = grid.index.get_loc(key if len(key) > 1 else key[0])
            ax.text(grid.columns.get_loc(c.position), row, text(c), ha="center", va="center", color="white",
                    fontsize=7, path_effects=outline)
        ax.set_xticks(range(grid.shape[1]), grid.columns)
        ax.set_xlabel("position from the dealer (0 the dealer, 1 eldest)")
        ax.set_title(title, fontsize=8)
        fig.colorbar(image, ax=ax, label=label, shrink=0.9)
    axes[0].set_yticks(range(grid.shape[0]), [", ".join(map(str, k)) if isinstance(k, tuple) else str(k)
                                              for k in grid.index])
    axes[0].set_ylabel(", ".join(classes))
    fig.suptitle(f"Best action: {_title(result)}", fontsize=9)
    fig.savefig(path, dpi=120)


def write_study(result: dict, out) -> list:
    """Write ``rows.parquet`` (every decision and action; already there when the study streamed its
    rows into ``out``), ``table.csv``, ``best.csv``, ``policy.csv``, the figures ``best.png`` and
    ``values.png``, and ``study.md`` (the tables, the policy and the figures) into the folder
    ``out``; the paths."""
    rows, path = result["rows"], Path(out) / "rows.parquet"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not isinstance(rows, RowsFile):
        rows.to_parquet(path, index=False)
    elif rows.path.resolve() != path.resolve():
        shutil.copyfile(rows.path, path)
    tables = {"table.csv": result["table"], "best.csv": result["best"],
              "policy.csv": policy_table(result["best"]).reset_index()}
    figures = {"best.png": lambda p: plot_best(result, p), "values.png": lambda p: plot_values(result, p)}
    return [path] + write_report(out, tables, figures, "study.md", format_study(result))


def plot_values(result: dict, path) -> None:
    """Save the expected value of each action against the hand strength (the first hand class),
    one panel per position from the dealer, the 95 % interval shaded, as a PNG at ``path``."""
    from matplotlib import colormaps
    from matplotlib.figure import Figure

    table = result["table"]
    strength = table.columns[0]
    if strength == "position":  # no hand classes: the positions side by side in one panel
        table, strength = table.assign(panel="all hands"), "position"
        panels = table.groupby("panel", sort=False)
    else:
        panels = table.groupby("position", sort=True)
    actions = sorted(table["action"].unique(), key=_action_order)
    colours = colormaps["viridis"](np.linspace(0, 0.9, len(actions)))
    fig = Figure(figsize=(2.2 + 2.6 * panels.ngroups, 3.6), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, panels.ngroups, sharey=True))
    for ax, (panel, group) in zip(axes, panels):
        for action, colour in zip(actions, colours):
            line = group[group["action"] == action].sort_values(strength)
            ax.plot(line[strength], line["mean_score"], marker=".", color=colour, label=action)
            ax.fill_between(line[strength], line["low"], line["high"], color=colour, alpha=0.2)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xlabel(strength)
        ax.set_title(panel if strength == "position" else f"position {panel}", fontsize=9)
    axes[0].set_ylabel("mean score of the seat")
    axes[-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1))
    fig.suptitle(f"Each action's value by hand: {_title(result)} (position 0 the dealer)", fontsize=9)
    fig.savefig(path, dpi=120)


def _action_order(label: str):
    """Actions in the order a player reads them: pass first, then the bids from low to high."""
    word, _, number = label.partition(" ")
    return (word != "pass", word, float(number) if number.isdigit() else 0.0)
