"""The numba cache's stamp covers the modules kernels are compiled from, and only those."""

from __future__ import annotations

import re

from tricksim import _numba_cache
from tricksim._numba_cache import ROOT, compiled_sources


def _names() -> set[str]:
    return {p.relative_to(ROOT).as_posix() for p in compiled_sources()}


def test_kernel_modules_and_their_imports_are_stamped():
    names = _names()
    for module in ("sim/kernels.py", "sim/sheepshead.py", "agents/solver.py", "sim/obs_smear.py", "cards.py"):
        assert module in names
    for path in ROOT.rglob("*.py"):  # a module defining a kernel, and each tricksim module it imports
        source = path.read_text()
        if re.search(r"\bnjit\b", source) and path.name != "_numba_cache.py":  # (which names njit in its pattern)
            assert path.relative_to(ROOT).as_posix() in names
            for module in re.findall(r"^from \.(\w+) import", source, re.M):
                sibling = path.parent / f"{module}.py"
                if sibling.exists():
                    assert sibling.relative_to(ROOT).as_posix() in names, (path, module)


def test_pure_python_layers_keep_the_cache():
    names = _names()
    for module in ("cli.py", "records.py", "play.py", "experiments/study.py", "experiments/sweep.py"):
        assert module not in names


def test_an_import_inside_a_function_counts(tmp_path, monkeypatch):
    (tmp_path / "a.py").write_text("from numba import njit\n\n\ndef f():\n    from .b import x  # late\n"
                                   "    return x\n\n\n@njit\ndef g():\n    return 1\n")
    (tmp_path / "b.py").write_text("x = 1\n")
    (tmp_path / "c.py").write_text("y = 2\n")
    monkeypatch.setattr(_numba_cache, "ROOT", tmp_path)
    assert [p.name for p in compiled_sources()] == ["a.py", "b.py"]
