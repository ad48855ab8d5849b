"""Compile tricksim's kernels into numba's disk cache ahead of use, on worker processes:
``tricksim warmup [GAME ...]``.

A kernel compiles on its first call (tens of seconds to minutes for a batch loop), one after
the other in one process. Here each (game, kernel) is a task, and the tasks are shared out among
worker processes, one core each; every later run, test or process loads them from the cache.
The smears share their kernels (one family), so ``shmear`` warms ``nesmear``'s too.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

from .errors import OptionError
from .spec import make_game, names, spec

# what a task compiles, longest first (the order the tasks are handed out in)
TARGETS = ("heuristic", "study", "solve", "search", "env", "random")
TARGET_HELP = {
    "heuristic": "the heuristic agents' batch loop (simulate, compare, sweep, tournament)",
    "study": "the decision study's loop (study)",
    "solve": "the exact solver (tricksim.solve)",
    "search": "the loop with PIMC, ISMCTS or network seats, and their single decisions",
    "env": "the environments' kernels (tricksim.envs, train)",
    "random": "the random agents' batch loop (simulate's default)",
}


def tasks(games: list[str] | None = None, targets: list[str] | None = None) -> list[tuple[str, str]]:
    """The (game, target) tasks for ``games`` (default: every game) and ``targets`` (default: all),
    one per family (the smears share every kernel); OptionError for an unknown name."""
    games = list(games or names())
    targets = list(targets or TARGETS)
    for name in games:
        spec(name)  # OptionError for a game that is not one
    for target in targets:
        if target not in TARGETS:
            raise OptionError(f"no warm-up target {target!r}; the targets are {', '.join(TARGETS)}")
    todo, families = [], set()
    for target in TARGETS:
        if target not in targets:
            continue
        for name in games:
            if (target, spec(name).family) in families:
                continue
            families.add((target, spec(name).family))
            todo.append((name, target))
    return todo


def warm(game: str, target: str) -> float:
    """Compile (or load from the cache) ``target``'s kernels for ``game``; the seconds it took."""
    start = time.perf_counter()
    g = make_game(game)
    family = g.family
    if target in ("random", "heuristic"):
        from .sim.batch import simulate

        simulate(g, hands=1, agents=target, progress=False)
    elif target == "study":
        from .experiments.decisions import decision_frame

        decision_frame(g, hands=1, progress=False)
    elif target == "solve":
        from .agents.solver import compiled

        kernels = compiled(family)
        for name in ("solve_root", "action_values", "principal_line", "count_sides"):
            getattr(kernels, name)
    elif target == "search":
        from .agents.search import compiled_block, compiled_decide

        compiled_block(family)
        compiled_decide(family)
    else:
        from .envs.engine import kernels

        k = kernels(family)
        for name in ("deal_hand", "observe", "play", "action_mask", "choose", "vector_reset", "vector_step"):
            getattr(k, name)
    return time.perf_counter() - start


def _start_worker() -> None:
    import numba

    numba.set_num_threads(1)


def warmup(games: list[str] | None = None, targets: list[str] | None = None, workers: int | None = None,
           log=None) -> list[tuple[str, str, float]]:
    """Compile the kernels of ``tasks(games, targets)`` on ``workers`` processes (default: one per
    core); ``log(line)`` hears of each task done. Returns (game, target, seconds) per task."""
    todo = tasks(games, targets)
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise OptionError(f"workers = {workers!r} is not allowed; it must be a whole number >= 1")
    done = []
    if workers == 1:
        for game, target in todo:
            done.append((game, target, warm(game, target)))
            if log:
                log(f"{game:<11} {target:<10} {done[-1][2]:6.1f} s")
        return done
    import multiprocessing

    # spawned workers: this process has loaded no kernel to share, and a fork would copy numba's threads
    with ProcessPoolExecutor(min(workers, len(todo)), mp_context=multiprocessing.get_context("spawn"),
                             initializer=_start_worker) as pool:
        futures = {pool.submit(warm, game, target): (game, target) for game, target in todo}
        for future in as_completed(futures):
            game, target = futures[future]
            done.append((game, target, future.result()))
            if log:
                log(f"{game:<11} {target:<10} {done[-1][2]:6.1f} s")
    return done
