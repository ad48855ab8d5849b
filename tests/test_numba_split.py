"""A first compile shared between two cores (tricksim._numba_split): the callee compiled by a
helper process is loaded from the cache, not compiled again; nothing starts where it is cached."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import json, sys
    import numba as nb
    from numba import types
    sys.path.insert(0, sys.argv[1])
    import tricksim  # noqa: F401
    from tricksim._numba_split import compile_apart, is_cached
    import kernels

    sig = (types.int64,)
    before = is_cached(kernels.slow, sig)
    compile_apart(away=[(kernels.slow, sig)], here=[(kernels.other, sig)])
    after = is_cached(kernels.slow, sig)
    compiled_here = len(kernels.slow.overloads)  # 0: not compiled in this process
    print(json.dumps({"before": before, "after": after, "compiled_here": compiled_here,
                      "other_here": len(kernels.other.overloads), "value": kernels.caller(5)}))
""")

KERNELS = textwrap.dedent("""
    import numba as nb

    @nb.njit(cache=True)
    def slow(n):
        return n * 3

    @nb.njit(cache=True)
    def other(n):
        return n + 1

    @nb.njit(cache=True)
    def caller(n):
        return slow(n) + other(n)
""")


def _run(tmp_path, cache):
    (tmp_path / "kernels.py").write_text(KERNELS)
    (tmp_path / "run.py").write_text(SCRIPT)
    env = {"NUMBA_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, str(tmp_path / "run.py"), str(tmp_path)], capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    import json

    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(len(__import__("os").sched_getaffinity(0)) < 2, reason="one core: no helper starts")
def test_the_callee_compiles_in_a_helper_and_loads_from_the_cache(tmp_path):
    first = _run(tmp_path, tmp_path / "cache")
    assert first == {"before": False, "after": True, "compiled_here": 0, "other_here": 1, "value": 21}
    second = _run(tmp_path, tmp_path / "cache")  # cached: nothing to do, the kernels load
    assert second["before"] is True and second["value"] == 21


def test_a_helper_process_starts_no_helper(monkeypatch):
    from tricksim import _numba_split

    monkeypatch.setenv(_numba_split.HELPER, "1")
    assert not _numba_split._core_free()
