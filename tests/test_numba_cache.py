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


def _cache_file(path):
    from numba.core.caching import IndexDataCacheFile
    return IndexDataCacheFile(cache_path=str(path), filename_base="kernels.f-1.py311", source_stamp=_numba_cache.STAMP)


def test_two_processes_saving_at_once_never_swap_their_kernels(tmp_path):
    """Process B read the index before A wrote it, then both save: under numba's numbering both
    choose file 1, the index keeps B's key, and A's code (written last) is loaded for B's key."""
    a, b = _cache_file(tmp_path), _cache_file(tmp_path)
    b_read_early = b._load_index()
    a_save_data = a._save_data

    def a_writes_its_data_last(name, data):
        b._load_index = lambda: dict(b_read_early)
        b.save(("sig B",), "code B")
        del b._load_index
        a_save_data(name, data)

    a._save_data = a_writes_its_data_last
    a.save(("sig A",), "code A")
    assert b.load(("sig B",)) in ("code B", None)  # lost at worst (compiled again), never A's code
    a.save(("sig A",), "code A")
    assert a.load(("sig A",)) == "code A" and b.load(("sig A",)) == "code A"


def test_earlier_sources_cached_code_is_removed(tmp_path, monkeypatch):
    old = _cache_file(tmp_path)
    old.save(("sig",), "old code")
    monkeypatch.setattr(_numba_cache, "STAMP", "another stamp")
    new = _cache_file(tmp_path)
    new._source_stamp = "another stamp"
    new.save(("sig",), "new code")
    assert new.load(("sig",)) == "new code"
    assert len(list(tmp_path.glob("*.nbc"))) == 1
