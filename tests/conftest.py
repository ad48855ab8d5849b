"""Shared fixtures.

``engine_fingerprint``: numba's on-disk cache (``cache=True``) is keyed on the cached function's
own source file only. A checker in a test file that inlines the engine's kernels would therefore
keep running the engine as it was when the cache was written, after the engine has changed.
Tests that cache such a function make it a closure over this fingerprint of the package's
sources: numba's cache key includes a closure's cell contents, so any change to tricksim
recompiles the checker.

The whole suite (``pytest`` with no paths) first compiles every game's kernels on one worker
process per core (``tricksim warmup``); the tests then load them from numba's cache, on one
pytest-xdist worker per core (``-n auto`` in ``pyproject.toml``), each test file on one worker so
that the kernels a file compiles for itself compile once.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import pytest

import tricksim


def _fingerprint() -> int:
    root = Path(tricksim.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return int(digest.hexdigest()[:15], 16)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Warm the cache before the whole suite runs: in the main process, before pytest-xdist starts
    its workers (not for chosen files, nor in a worker, nor for ``--collect-only``)."""
    config = session.config
    if (config.args != config.getini("testpaths") or hasattr(config, "workerinput")
            or config.getoption("collectonly")):
        return
    from tricksim.warmup import warmup

    reporter = config.pluginmanager.get_plugin("terminalreporter")
    start = time.perf_counter()
    done = warmup()
    if reporter is not None:
        reporter.write_line(f"tricksim warmup: {len(done)} tasks in {time.perf_counter() - start:.0f} s")


@pytest.fixture(scope="session")
def engine_fingerprint() -> int:
    """A hash of tricksim's Python sources, for numba-cached test kernels (see above)."""
    return _fingerprint()
