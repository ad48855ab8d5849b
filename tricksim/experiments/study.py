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
from ..sim.cluster import check_dask
from .best import BEST_COLUMNS, MIN_PAIRED, best_action, best_keys
from .classes import class_columns, resolve_classes
from .decisions import decision_file, decision_frame, join_rows, make_study, read_rows
from .policy import check_policy_run, followed, format_policy, policy_table, policy_value
from .report import write_report
from .stats import mean_interval, wilson
from .summary import position_name


def summarize_decisions(rows: pd.DataFrame, game: str, classes=None,
                        min_paired: int = MIN_PAIRED) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(table, best)`` of a study's rows (see the module docstring); ``min_paired``: the shared
    decisions below which an action is not named best over another (``best.best_action``). With
    the rows' ``own`` column (the action the agent took), ``best`` has the best's lead over the
    agents' own choice on the decisions the best was open at (``over_agent``, with its interval)."""
    classed = class_columns(rows, game, classes)
    keys = list(classed.columns) + ["position"]
    data = pd.concat([classed, _summary_columns(rows)], axis=1)
    data["action"] = data["action"].astype(str)
    table = []
    best = []
    for key, group in data.groupby(keys, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        for action, g in sorted(group.groupby("action"), key=lambda item: action_order(item[0])):
            scores = g["score"].to_numpy(dtype=np.float64)
            mean, low, high = mean_interval(scores)
            rate, rate_low, rate_high = wilson(int((scores > 0).sum()), len(scores))
            table.append(key + (action, len(scores), mean, low, high, rate, rate_low, rate_high))
        wide = group.pivot(index=["hand", "decision"], columns="action", values="score")
        wide = wide[sorted(wide.columns, key=action_order)]
        b = best_action(wide, min_paired)
        over = (np.nan,) * 3
        if b.best is not None and "own" in group.columns:
            own = group[group["own"]].set_index(["hand", "decision"])["score"].reindex(wide.index)
            over = mean_interval((wide[b.best] - own).dropna().to_numpy(dtype=np.float64))
        best.append(key + (len(wide), b.best, b.rival, b.paired, b.margin, b.low, b.high, b.equal, b.undecided)
                    + over)
    table = pd.DataFrame(table, columns=keys + ["action", "decisions", "mean_score", "low", "high",
                                                "ahead", "ahead_low", "ahead_high"])
    best = pd.DataFrame(best, columns=keys + BEST_COLUMNS)
    return table, best


def study(game, hands: int, seed: int = 0, agents="heuristic", classes=None, out=None, dask=None,
          progress: bool = True, policy: int = 0, min_paired: int = MIN_PAIRED, overwrite: bool = False,
          check_agents=None, check_hands: int = 2_000) -> dict:
    """A decision study of ``hands`` deals of ``game`` (a Game): ``rows`` (one per decision and
    action, ``decisions.decision_frame``), ``table`` and ``best`` (``summarize_decisions``).

    With a folder ``out``, the rows are streamed to ``out/rows.parquet`` as they are played (a part
    per chunk in ``out/rows.parts/`` until all are in: run again with the same arguments to resume
    a stopped study; the complete file of this very study is kept and nothing played), ``rows`` is
    that file (a ``RowsFile``), and ``write_study`` writes the other files beside it. ``dask``:
    play on a Dask distributed cluster, ``"local"`` (a worker process per core) or a scheduler's
    address ``tcp://host:port``. The results are the same every way. ``progress``: a bar over the
    deals, in a terminal. ``policy``: deals (fresh ones, of seed + 1) to measure the study's policy
    on against the agents' own rule (``policy.policy_value``; its result under ``policy``).
    ``min_paired``: the shared decisions below which an action is not named best over another.
    ``overwrite``: replace the rows of another study in ``out`` (else an OptionError).
    ``check_agents``: the same study of the first ``check_hands`` deals played by these agents (in
    ``out/check``), and per hand class and position whether its best action agrees (``agreement``;
    under ``check``): where stronger play changes the answer."""
    check_run(hands, seed)
    if not isinstance(min_paired, int) or min_paired < 1:
        raise OptionError(f"min_paired = {min_paired!r}: give a whole number of decisions, 1 or more")
    if policy:
        check_policy_run(game, policy, seed + 1, agents)
    resolve_classes(game.name, classes)  # bad names fail first
    plan = make_study(game, hands, seed, agents)
    check_dask(dask)
    if out is None:
        rows = decision_frame(game, hands, seed, agents, dask=dask, progress=progress)
        table, best = summarize_decisions(rows, game.name, classes, min_paired)
    else:
        rows = RowsFile(decision_file(plan, Path(out) / "rows.parquet", dask=dask, progress=progress,
                                      overwrite=overwrite))
        table, best = _summarize_file(rows.path, game.name, classes, min_paired)
    result = {"game": game.label, "agents": agents, "hands": hands, "rows": rows, "table": table, "best": best,
              "min_paired": min_paired}
    result["policy"] = policy_value(game, result, policy, seed + 1, agents, classes) if policy else None
    result["check"] = None
    if check_agents is not None:
        check = study(game, min(check_hands, hands), seed, check_agents, classes,
                      out=None if out is None else Path(out) / "check", dask=dask, progress=progress,
                      min_paired=min_paired, overwrite=overwrite)
        result["check"] = {"agents": check_agents, "hands": check["hands"], "best": check["best"],
                           "agreement": agreement(best, check["best"])}
    return result


def agreement(best: pd.DataFrame, other: pd.DataFrame) -> pd.DataFrame:
    """Per hand class and position, the best action of two studies (``best`` tables) with their
    margins and intervals, and ``agree``: "yes", "no", or "undecided" where either is."""
    keys = best_keys(best)
    cols = ["best", "margin", "margin_low", "margin_high"]
    both = best[keys + cols].merge(other[keys + cols], on=keys, how="outer", suffixes=("", "_check"))
    decided = both["best"].notna() & both["best_check"].notna()
    both["agree"] = np.where(~decided, "undecided", np.where(both["best"] == both["best_check"], "yes", "no"))
    return both


# what summarize_decisions reads, classes aside (``own``: when the rows have it)
SUMMARY_COLUMNS = ["hand", "decision", "position", "action", "own", "score"]


def _summary_columns(rows: pd.DataFrame) -> pd.DataFrame:
    return rows[[c for c in SUMMARY_COLUMNS if c in rows.columns]]


def _summarize_file(path: Path, game: str, classes=None,
                    min_paired: int = MIN_PAIRED) -> tuple[pd.DataFrame, pd.DataFrame]:
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
        kept.append(pd.concat([_summary_columns(rows), classed], axis=1).copy())  # a copy, not a view of all of rows
    read = {name: (lambda rows, column=column: rows[column].to_numpy()) for name, column in columns.items()}
    return summarize_decisions(join_rows(kept), game, read, min_paired)


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


def class_label(key) -> str:
    """A hand class (one value, or a tuple of several) as a row label: ``3`` or ``3, 1``."""
    return ", ".join(map(str, key)) if isinstance(key, tuple) else str(key)


def study_title(result: dict) -> str:
    """The game, agents and deals of a study, for titles."""
    return f"{result['game']}, agents {result['agents']}, {result['hands']:,} deals"


def _cell(r, follow: bool) -> str:
    """A best table row in a cell: the best action and its margin (``*``: it beats the agents' own
    choice, and the policy takes it), or ``?`` when undecided."""
    if not isinstance(r.best, str):
        return "?"
    return (r.best if r.margin != r.margin else f"{r.best} {r.margin:+.2f}") + ("*" if follow else "")


def _note(r) -> str:
    """Why a row is undecided, or the actions equal to its best."""
    if isinstance(r.undecided, str) and r.undecided:
        return r.undecided
    return f"the same as {r.equal} wherever they met" if isinstance(r.equal, str) and r.equal else ""


SUMMARY_ROWS = 30  # hand classes printed at most in a study's summary


def format_study_summary(result: dict, out=None) -> str:
    """The study in a few lines, for the terminal: the best action per hand class (rows) and
    position from the dealer (columns) with its margin, the policy's value, and where the rest is."""
    best = result["best"]
    keys = best_keys(best)
    classes = keys[:-1]
    cells = best.assign(cell=[_cell(r, f) for r, f in zip(best.itertuples(index=False), followed(best))])
    if classes:
        grid = cells.pivot(index=classes, columns="position", values="cell").fillna("")
        labels = [class_label(k) for k in grid.index]
    else:
        grid, labels = cells.set_index("position")[["cell"]].T, ["all hands"]
    grid = grid.rename(columns=position_name)
    undecided = int(best["best"].isna().sum())
    lines = [f"Decision study: {study_title(result)}, {int(best['decisions'].sum()):,} decisions", "",
             f"The best action per {', '.join(classes) or 'hand'} (rows) and position from the dealer (columns), with "
             f"its margin in mean score over its strongest rival on the decisions both were open at; * where it also "
             f"beats the agents' own choice (the policy takes it); ? undecided:",
             "", "| " + " | ".join([", ".join(classes) or ""] + list(grid.columns)) + " |",
             "|" + "---|" * (grid.shape[1] + 1)]
    for label, (_, row) in list(zip(labels, grid.iterrows()))[:SUMMARY_ROWS]:
        lines.append("| " + " | ".join([label] + list(row)) + " |")
    if len(labels) > SUMMARY_ROWS:
        lines.append(f"… and {len(labels) - SUMMARY_ROWS} more hand classes")
    lines.append("")
    if undecided:
        lines.append(f"{undecided} of {len(best)} undecided (no action beats every other on enough shared decisions; "
                     f"the reasons are in the best table).")
    value = result.get("policy")
    if value is not None:
        mean, low, high = value["gain"]
        lines.append(f"The policy against the agents' own rule on {value['hands']:,} fresh deals: {mean:+.3f} "
                     f"[{low:+.3f}, {high:+.3f}] a deal; by position " + ", ".join(
                         f"{position_name(r.position)} {r.gain:+.3f} [{r.low:+.3f}, {r.high:+.3f}]"
                         for r in value["by_position"].itertuples(index=False)) + ".")
    check = result.get("check")
    if check is not None:
        table = check["agreement"]
        differ = [_cell_name(d, keys) for d in table.to_dict("records") if d["agree"] == "no"]
        decided = int((table["agree"] != "undecided").sum())
        lines.append(f"Checked with {check['agents']} on the first {check['hands']:,} deals: the best action agrees "
                     f"in {int((table['agree'] == 'yes').sum())} of the {decided} cells both decided"
                     + (f"; it differs in {'; '.join(differ[:8])}" + (" …" if len(differ) > 8 else "")
                        if differ else "") + ".")
    lines.append(f"Every action's table, the reasons and the figures: {Path(out) / 'study.md'}" if out else
                 "Run with --out DIR for every action's table, the reasons, the policy and the figures.")
    return "\n".join(lines)


def _cell_name(d: dict, keys: list[str]) -> str:
    """A hand class and position as a short name: ``trumps 3, eldest``."""
    return ", ".join([f"{k} {d[k]}" for k in keys if k != "position"] + [position_name(d["position"])])


def format_study(result: dict) -> str:
    """The study as Markdown: the best action per class and position with its margin over its
    strongest rival (or why it is undecided), every action's mean score and how often the seat came
    out ahead, and the policy."""
    best, table = result["best"], result["table"]
    keys = best_keys(best)
    min_paired = result.get("min_paired", MIN_PAIRED)
    lines = [f"# Decision study: {study_title(result)}", "",
             "The best action per hand class and position from the dealer: the one action that no other beats in "
             "paired comparisons on the decisions where both were open (every action was played out on the same "
             f"deal), named only when it was open on {min_paired} decisions or more. Its margin is its lead in mean "
             "score over its strongest rival on their shared decisions (the paired decisions), with a 95 % "
             "interval. *Over the agent*: its lead over the action the agents took, on the decisions it was "
             "open at (the policy takes it where this interval is above zero). *Undecided*: no single action is "
             "unbeaten, and the note says why.", "",
             "| " + " | ".join(keys) + " | decisions | best | margin | rival | paired | over the agent | note |",
             "|" + "---|" * (len(keys) + 7)]
    for r in best.itertuples(index=False):
        d = r._asdict()
        margin = _interval(d["margin"], d["margin_low"], d["margin_high"])
        over = _interval(d["over_agent"], d["over_agent_low"], d["over_agent_high"])
        top = d["best"] if isinstance(d["best"], str) else "undecided"
        rival = d["rival"] if isinstance(d["rival"], str) else ""
        lines.append("| " + " | ".join(_key_text(k, d[k]) for k in keys)
                     + f" | {d['decisions']:,} | {top} | {margin if rival else ''} | {rival} | "
                       f"{d['paired']:,} | {over if top != 'undecided' else ''} | {_note(r)} |")
    lines += ["", "Every action: the seat's mean score over the decisions it was open at, and how often the seat came "
                  "out ahead (score above 0); means of different actions are over different decisions:", "",
              "| " + " | ".join(keys) + " | action | decisions | mean score | ahead |", "|" + "---|" * (len(keys) + 4)]
    for r in table.itertuples(index=False):
        d = r._asdict()
        lines.append("| " + " | ".join(_key_text(k, d[k]) for k in keys)
                     + f" | {d['action']} | {d['decisions']:,} | {_interval(d['mean_score'], d['low'], d['high'])}"
                       f" | {d['ahead']:.1%} [{d['ahead_low']:.1%}, {d['ahead_high']:.1%}] |")
    lines += ["", format_policy(best, result.get("policy"))]
    check = result.get("check")
    if check is not None:
        lines += ["", f"## Does the answer depend on who plays? The same study with {check['agents']}, "
                      f"{check['hands']:,} deals", "",
                  "| " + " | ".join(keys) + f" | best ({result['agents']}) | best ({check['agents']}) | agree |",
                  "|" + "---|" * (len(keys) + 3)]
        for r in check["agreement"].itertuples(index=False):
            d = r._asdict()
            ours = _best_text(d["best"], d["margin"], d["margin_low"], d["margin_high"])
            theirs = _best_text(d["best_check"], d["margin_check"], d["margin_low_check"], d["margin_high_check"])
            lines.append("| " + " | ".join(_key_text(k, d[k]) for k in keys) + f" | {ours} | {theirs} | {d['agree']} |")
    return "\n".join(lines)


def _best_text(best, margin, low, high) -> str:
    return f"{best} {_interval(margin, low, high)}" if isinstance(best, str) else "undecided"


def _key_text(key: str, value) -> str:
    return position_name(value) if key == "position" else str(value)


def _interval(mean: float, low: float, high: float) -> str:
    """``+0.123 [+0.100, +0.146]``; the mean alone when there is no interval (one decision), a dash
    when there is no mean."""
    if mean != mean:
        return "–"
    return f"{mean:+.3f}" if low != low else f"{mean:+.3f} [{low:+.3f}, {high:+.3f}]"


def write_study(result: dict, out) -> list:
    """Write ``rows.parquet`` (every decision and action; already there when the study streamed its
    rows into ``out``), ``table.csv``, ``best.csv``, ``policy.csv``, the figures ``best.png`` and
    ``values.png``, and ``study.md`` (the tables, the policy and the figures) into the folder
    ``out``; the paths."""
    from .study_figures import plot_best, plot_values

    rows, path = result["rows"], Path(out) / "rows.parquet"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not isinstance(rows, RowsFile):
        rows.to_parquet(path, index=False)
    elif rows.path.resolve() != path.resolve():
        shutil.copyfile(rows.path, path)
    tables = {"table.csv": result["table"], "best.csv": result["best"],
              "policy.csv": policy_table(result["best"]).reset_index()}
    if result.get("check") is not None:
        tables["agreement.csv"] = result["check"]["agreement"]
    figures = {"best.png": lambda p: plot_best(result, p), "values.png": lambda p: plot_values(result, p)}
    return [path] + write_report(out, tables, figures, "study.md", format_study(result))


def action_order(label: str):
    """Actions in the order a player reads them: pass first, then the bids from low to high."""
    word, _, number = label.partition(" ")
    return (word != "pass", word, float(number) if number.isdigit() else 0.0)
