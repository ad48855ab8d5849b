"""A first compile shared between two cores: the heaviest callee of a kernel compiled by a second
process while this one compiles the rest.

numba compiles one function after the other in one process, so a cold first run of a search
agent leaves the other core idle for a minute. Its disk cache lets another process compile a
callee meanwhile: the caller, compiled here once that process has finished, loads the callee
from the cache instead of compiling it again (``compile_apart``). Where the callee is cached
already, or there is one core, or this process is a helper or a pool's worker, nothing is started
and each function compiles as it is first called, as before.

The helper is a plain ``python -c`` process, not a multiprocessing one, so that it never runs the
caller's script again (a spawned multiprocessing child imports ``__main__``).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import subprocess
import sys
from importlib import import_module

from numba.core import caching

HELPER = "TRICKSIM_COMPILE_HELPER"  # set in the helper's environment: a helper starts no helper


def _caches(dispatcher) -> bool:
    cache = getattr(dispatcher, "_cache", None)
    return isinstance(cache, caching.Cache) and cache._enabled


def is_cached(dispatcher, signature) -> bool:
    """Whether numba's disk cache holds ``dispatcher`` compiled for ``signature`` (a tuple of types)."""
    if not _caches(dispatcher):
        return False
    key = dispatcher._cache._index_key(tuple(signature), dispatcher.targetctx.codegen())
    return key in dispatcher._cache._cache_file._load_index()


def _core_free() -> bool:
    """Whether a helper may start: two cores or more, and this is neither a helper nor a worker of
    a process pool (the workers keep the cores busy already)."""
    return (len(os.sched_getaffinity(0)) >= 2 and not os.environ.get(HELPER)
            and multiprocessing.parent_process() is None)


def _name(dispatcher) -> tuple[str, str]:
    return dispatcher.py_func.__module__, dispatcher.py_func.__name__


def compile_apart(away, here=()) -> None:
    """Compile ``away`` in a helper process while this one compiles ``here``; return when both are
    done (each a list of ``(dispatcher, signature)``, the dispatchers module-level functions, cached).

    The caller then compiles what calls them, loading ``away`` from the cache. Nothing happens
    where every ``away`` is cached already or no second core is free for it (``_core_free``)."""
    todo = [(_name(d), tuple(sig)) for d, sig in away if _caches(d) and not is_cached(d, sig)]
    if not todo or not _core_free():
        return
    env = dict(os.environ, **{HELPER: "1"}, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    helper = subprocess.Popen([sys.executable, "-c", "from tricksim._numba_split import serve; serve()"],
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        helper.stdin.write(pickle.dumps(todo))
        helper.stdin.close()
        for dispatcher, sig in here:
            dispatcher.compile(tuple(sig))
        helper.wait()  # a helper that failed costs only time: the caller compiles what it lacks
    finally:
        if helper.poll() is None:
            helper.kill()
            helper.wait()


def serve() -> None:
    """The helper: compile the ``((module, function), signature)`` list read from standard input."""
    for (module, name), sig in pickle.load(sys.stdin.buffer):
        getattr(import_module(module), name).compile(sig)
