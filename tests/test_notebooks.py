"""The notebooks (notebooks/*.ipynb) run from top to bottom at a tiny size and show their figures.

Each notebook's cell tagged ``parameters`` is replaced by a small study; the notebook then runs in
a fresh ``python3`` kernel (this interpreter's, so the installed tricksim), in a temporary folder.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nbclient
import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
TINY = "HANDS = 300\nSEED = 1"
CHECK = "import sys\nprint(sys.prefix)"  # appended: the kernel runs in this interpreter's environment


def test_a_notebook_per_game():
    assert len(NOTEBOOKS) >= 5, [p.name for p in NOTEBOOKS]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    tagged = [c for c in nb.cells if c.cell_type == "code" and "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1, f"{path.name}: needs one code cell tagged 'parameters' (found {len(tagged)})"
    tagged[0].source = TINY
    nb.cells.append(nbformat.v4.new_code_cell(CHECK))

    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as error:
        pytest.fail(f"{path.name} failed:\n{error}")

    code = [c for c in nb.cells if c.cell_type == "code"]
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert not errors, f"{path.name}: {[e.ename + ': ' + e.evalue for e in errors]}"
    assert all(c.execution_count is not None for c in code), f"{path.name}: a code cell did not run"
    images = [o for c in code for o in c.outputs if "image/png" in o.get("data", {})]
    assert images, f"{path.name}: shows no figure"
    prefix = "".join(o.get("text", "") for o in code[-1].outputs).strip()
    assert os.path.realpath(prefix) == os.path.realpath(sys.prefix), f"kernel ran in {prefix}, not {sys.prefix}"
    assert not list(path.parent.glob("*.png")), "a notebook wrote a figure into the repository"
