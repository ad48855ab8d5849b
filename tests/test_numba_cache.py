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


CLOSURES = '''
import numba as nb


def make(k):
    @nb.njit(cache=True)
    def f(a, n):  # too long for LLVM to inline into its callers: they call it by name
        t = 0
        for i in range(n):
            t += (a[i % a.shape[0]] * (i + k)) ^ (t >> 3)
            t = (t * 1103515245 + 12345) % 2147483648
            if t & 7 == k:
                t += a[(t + i) % a.shape[0]] * k
        return t + k
    return f


add1, add2 = make(1), make(2)  # one qualified name, the same argument types


@nb.njit(cache=True)
def use1(a, n):
    return add1(a, n) + add1(a, n + 1)


@nb.njit(cache=True)
def use2(a, n):
    return add2(a, n) + add2(a, n + 1)
'''


def test_functions_of_one_name_compiled_in_two_processes_keep_their_own_code(tmp_path):
    """Each process compiles one closure first (under numba's counted ids both get the same id, so
    the same machine-code name); a third loads both callers from the cache and must run each
    one's own closure (with counted ids, ``use2`` ran ``add1``'s code)."""
    import subprocess
    import sys

    (tmp_path / "closures.py").write_text(CLOSURES)

    def run(*calls):
        script = ("import sys, numpy as np; sys.path.insert(0, '.'); import tricksim, closures; "
                  f"a = np.arange(5); print(*[getattr(closures, f)(a, 10) for f in {calls!r}])")
        out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True)
        return [int(x) for x in out.stdout.split()]

    first, second = run("use1"), run("use2")
    assert first != second
    assert run("use1", "use2") == first + second
    assert run("use2", "use1") == second + first
