"""The linear-time inliner (tricksim/_numba_inline.py): the same results as numba's own, with
each inlined function's untyped passes run once instead of once per call site."""

from __future__ import annotations

import numba as nb
import numpy as np
import pytest
from numba.core import inline_closurecall

import tricksim  # noqa: F401  (installs the inliner)
from tricksim import _numba_inline


def _tree():
    """A fresh tree of nested inline="always" helpers (fresh, so nothing comes from a cache):
    ``leaf`` reached through ``middle`` from four call sites, the names of its locals the same
    as its callers' so that a renaming slip would show in the result."""

    @nb.njit(inline="always")
    def leaf(x, k):
        total = 0
        for i in range(k):
            total += (x >> i) & 1
        return total

    @nb.njit(inline="always")
    def middle(x, k):
        total = leaf(x, k)
        i = leaf(x >> 1, k)
        return total * 3 + i

    @nb.njit
    def root(a):
        total = 0
        for i in range(a.shape[0]):
            total += middle(a[i], 8) - middle(a[i] >> 2, 4)
            if a[i] & 1:
                total += middle(a[i] ^ 5, 6)
            else:
                total -= middle(~a[i], 3)
        return total

    return leaf, middle, root


def _python(a):
    def leaf(x, k):
        return sum((int(x) >> i) & 1 for i in range(k))

    def middle(x, k):
        return leaf(x, k) * 3 + leaf(int(x) >> 1, k)

    total = 0
    for x in map(int, a):
        total += middle(x, 8) - middle(x >> 2, 4)
        total += middle(x ^ 5, 6) if x & 1 else -middle(~x, 3)
    return total


@pytest.fixture
def untyped_runs(monkeypatch):
    """Count the untyped-pipeline runs of each inlined Python function."""
    runs: dict[str, int] = {}
    original = inline_closurecall.InlineWorker.run_untyped_passes

    def counting(self, func, enable_ssa=False):
        runs[func.__name__] = runs.get(func.__name__, 0) + 1
        return original(self, func, enable_ssa)

    monkeypatch.setattr(inline_closurecall.InlineWorker, "run_untyped_passes", counting)
    return runs


def test_installed_with_the_package():
    assert inline_closurecall.InlineWorker.inline_function is _numba_inline._inline_function


def test_each_inlined_function_is_prepared_once(untyped_runs):
    a = np.random.default_rng(5).integers(0, 1 << 20, 200)
    _, _, root = _tree()
    assert root(a) == _python(a)
    assert untyped_runs == {"middle": 1, "leaf": 1}


def test_numba_alone_prepares_per_call_site(untyped_runs):
    a = np.random.default_rng(6).integers(0, 1 << 20, 200)
    _numba_inline.uninstall()
    try:
        _, _, root = _tree()
        assert root(a) == _python(a)
    finally:
        _numba_inline.install()
    assert untyped_runs["middle"] == 4 and untyped_runs["leaf"] > 2  # what the cache saves


def test_same_machine_results_as_numba_alone():
    a = np.random.default_rng(7).integers(-(1 << 40), 1 << 40, 1000)
    _, _, patched = _tree()
    _numba_inline.uninstall()
    try:
        _, _, plain = _tree()
        expected = plain(a)
    finally:
        _numba_inline.install()
    assert patched(a) == expected == _python(a)
