"""Make numba's ``inline="always"`` compile in time linear in the code inlined.

tricksim's batch loops inline the rules and the agents (a call per decision costs about 15 % of
the loop), and numba's inliner spends most of a first run's compile time on two known
inefficiencies (numba issues 8989 and 9204, numba-cuda 688):

- every call site re-runs the untyped pipeline on its callee, which inlines the callee's own
  inlinable calls again, so a tree of nested helpers is rebuilt once per path from the root;
- the callee's IR, made fresh for the call, is then deep-copied twice, block by block, and each
  block's copy copies the whole variable scope again.

``install()`` replaces ``InlineWorker.inline_function`` with one that keeps the canonical IR of
each callee (per function and compile flags) and hands every call site one deep copy of it made in
a single pass. The inlined IR, and so the machine code, is the same; only the work to build it
changes (the first heuristic Sheepshead run went from 69 s to 27 s).
"""

from __future__ import annotations

import copy

from numba.core import inline_closurecall

_original = inline_closurecall.InlineWorker.inline_function
_canonical: dict = {}  # (function, flags) -> its IR after the untyped passes, never mutated
_NO_COPY = type("NoCopy", (), {"deepcopy": staticmethod(lambda x, memo=None: x)})


def _fresh_ir(worker, function):
    """A private copy of ``function``'s IR after the untyped passes, built once per flags."""
    worker.flags.enable_ssa = False  # what run_untyped_passes leaves in the caller's flags, run or not
    key = (function, repr(worker.flags), repr(worker.locals))
    if key not in _canonical:
        _canonical[key] = worker.run_untyped_passes(function)
    canonical = _canonical[key]
    fresh = canonical.copy()
    fresh.blocks = copy.deepcopy(canonical.blocks)  # one pass: the scope shared by every block is copied once
    return fresh


def _inline_function(self, caller_ir, block, i, function, arg_typs=None):
    """``InlineWorker.inline_function`` over a cached IR, without ``inline_ir``'s defensive copies."""
    callee_ir = _fresh_ir(self, function)
    inline_closurecall.copy = _NO_COPY  # the IR is already private to this call site
    try:
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars, arg_typs=arg_typs)
    finally:
        inline_closurecall.copy = copy


def install() -> None:
    """Use the linear-time inliner for every numba compile in this process (idempotent)."""
    inline_closurecall.InlineWorker.inline_function = _inline_function


def uninstall() -> None:
    """Restore numba's own inliner (for tests that compare the two)."""
    inline_closurecall.InlineWorker.inline_function = _original
