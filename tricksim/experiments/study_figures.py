"""The figures of a decision study: the best action per hand class and position (``best.png``) and
each action's value against hand strength (``values.png``)."""

from __future__ import annotations

import numpy as np

from .best import best_keys
from .report import MARKERS
from .study import action_order, class_label, study_title
from .summary import position_name


def plot_best(result: dict, path) -> None:
    """Save three heat maps by hand class (rows) and position from the dealer (columns) as a PNG at
    ``path``, each coloured by the number printed in it: the best action with its margin over its
    strongest rival (grey ``?``: undecided), its mean score, and how often the seat came out ahead."""
    from matplotlib import colormaps, patheffects
    from matplotlib.colors import TwoSlopeNorm
    from matplotlib.figure import Figure

    best = result["best"]
    keys = best_keys(best)
    table = result["table"].rename(columns={"action": "best", "decisions": "taken"})
    cells = best.merge(table, how="left", on=keys + ["best"])
    classes = keys[:-1]
    if not classes:  # no hand classes: one row of every hand
        cells, classes = cells.assign(hands="all"), ["hands"]
    decided = cells["best"].notna()
    cells["label"] = [f"{b}\n{m:+.2f}" if d and m == m else (b if d else "?")
                      for b, m, d in zip(cells["best"], cells["margin"], decided)]
    cells["mean_text"] = [f"{m:+.1f}" if d else "" for m, d in zip(cells["mean_score"], decided)]
    cells["ahead_text"] = [f"{a:.0%}" if d else "" for a, d in zip(cells["ahead"], decided)]
    means = cells.loc[decided, "mean_score"]
    spread = float(np.nanmax(np.abs(means))) if len(means) else 1.0
    panels = (("margin", "label", "the best action and its margin over its strongest rival",
               "margin in mean score (paired)", colormaps["Greens"], None),
              ("mean_score", "mean_text", "its mean score", "mean score of the seat", colormaps["RdBu"],
               TwoSlopeNorm(0.0, -spread or -1.0, spread or 1.0)),
              ("ahead", "ahead_text", "how often it came out ahead", "share of decisions with a score above 0",
               colormaps["viridis"], None))
    grid = cells.pivot(index=classes, columns="position", values="margin")
    fig = Figure(figsize=(3.0 + 3.0 * grid.shape[1], max(3.2, 1.8 + 0.45 * grid.shape[0])), layout="constrained")
    axes = fig.subplots(1, len(panels), sharey=True)
    outline = [patheffects.withStroke(linewidth=2, foreground="black")]
    for ax, (column, text, title, label, cmap, norm) in zip(axes, panels):
        values = cells.pivot(index=classes, columns="position", values=column).reindex_like(grid)
        words = cells.pivot(index=classes, columns="position", values=text).reindex_like(grid)
        cmap = cmap.with_extremes(bad="lightgrey")
        image = ax.imshow(values.to_numpy(dtype=float), cmap=cmap, norm=norm, aspect="auto", origin="lower")
        for (i, j), word in np.ndenumerate(words.to_numpy(dtype=object)):
            if isinstance(word, str) and word:
                ax.text(j, i, word, ha="center", va="center", color="white", fontsize=7, path_effects=outline)
        ax.set_xticks(range(grid.shape[1]), [position_name(p) for p in grid.columns])
        ax.set_xlabel("position from the dealer")
        ax.set_title(title, fontsize=9)
        fig.colorbar(image, ax=ax, label=label, shrink=0.9)
    axes[0].set_yticks(range(grid.shape[0]), [class_label(k) for k in grid.index])
    axes[0].set_ylabel(", ".join(classes))
    fig.suptitle(f"Best action: {study_title(result)} (grey ?: undecided)", fontsize=10)
    fig.savefig(path, dpi=120)


def plot_values(result: dict, path) -> None:
    """Save the mean score of each action against the hand strength (the first hand class), one
    panel per position from the dealer, the 95 % interval shaded, as a PNG at ``path``. Each action
    has its own colour and marker."""
    from matplotlib import colormaps
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    table = result["table"]
    strength = table.columns[0]
    if strength == "position":  # no hand classes: the positions side by side in one panel
        table = table.assign(panel="all hands")
        panels = table.groupby("panel", sort=False)
    else:
        panels = table.groupby("position", sort=True)
    actions = sorted(table["action"].unique(), key=action_order)
    palette = colormaps["tab10" if len(actions) <= 10 else "tab20"].colors
    fig = Figure(figsize=(2.4 + 2.8 * panels.ngroups, 3.8), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, panels.ngroups, sharey=True))
    for ax, (panel, group) in zip(axes, panels):
        for k, action in enumerate(actions):
            line = group[group["action"] == action].sort_values(strength)
            x = line[strength] if strength != "position" else [position_name(p) for p in line[strength]]
            colour = palette[k % len(palette)]
            ax.plot(x, line["mean_score"], marker=MARKERS[k % len(MARKERS)], ms=4, color=colour, label=action)
            ax.fill_between(x, line["low"], line["high"], color=colour, alpha=0.15)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xlabel(strength if strength != "position" else "position from the dealer")
        if strength != "position":
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title(panel if strength == "position" else position_name(panel), fontsize=9)
    axes[0].set_ylabel("mean score of the seat")
    axes[-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1), title="action", title_fontsize=7)
    fig.suptitle(f"Each action's mean score by hand: {study_title(result)}", fontsize=10)
    fig.savefig(path, dpi=120)
