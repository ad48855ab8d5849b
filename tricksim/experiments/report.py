"""The files of a study, sweep or tournament: its tables as CSV, its figures as PNG, and one
Markdown page that holds the text and shows the figures."""

from __future__ import annotations

from pathlib import Path

MARKERS = "osD^vPX*<>hp"  # a marker per line of a figure, beside its colour


def write_report(out, tables: dict, figures: dict, page: str, text: str) -> list[Path]:
    """Write into the folder ``out`` each of ``tables`` (file name to DataFrame) as CSV, each of
    ``figures`` (file name to a function saving the PNG at a path) and the page ``page``: ``text``
    and then the figures. Returns the paths written, in that order."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, table in tables.items():
        paths.append(out / name)
        table.to_csv(paths[-1], index=False)
    for name, draw in figures.items():
        paths.append(out / name)
        draw(paths[-1])
    paths.append(out / page)
    paths[-1].write_text(text + "".join(f"\n\n![{Path(name).stem}]({name})" for name in figures) + "\n")
    return paths
