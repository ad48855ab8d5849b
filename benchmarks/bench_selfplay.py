"""Random self-play of complete Sheepshead hands on one core: the numba engine
against a naive pure-Python implementation of the same play and against a tight
C loop (``tight_loop.c``, a minimal subset of the rules), measured in one run,
plus the cold and warm start of the ``tricksim`` command.

    python benchmarks/bench_sheepshead.py [--hands 2000000] [--naive-hands 20000] [--repeats 5]

The contenders take turns, repeat after repeat, so that drift of this noisy
machine hits all of them; the figures quoted are medians and ratios of medians.
Every engine hand includes the deal, picking, the bury, the call and six tricks
with every legality rule, the trick history, and scoring.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import naive_sheepshead  # noqa: E402

import tricksim  # noqa: E402
from tricksim.sim import sheepshead as K  # noqa: E402


def engine_rate(hands: int, out: np.ndarray, options: np.ndarray, seed: int) -> float:
    start = time.perf_counter()
    K.play_random_hands(seed, 0, options, out[:hands])
    return hands / (time.perf_counter() - start)


def naive_rate(hands: int, seed: int) -> float:
    start = time.perf_counter()
    naive_sheepshead.play_hands(hands, seed)
    return hands / (time.perf_counter() - start)


def build_tight_loop(folder: str) -> str | None:
    """Compile tight_loop.c with the system C compiler; None when there is none."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return None
    exe = os.path.join(folder, "tight_loop")
    source = Path(__file__).parent / "tight_loop.c"
    subprocess.run([cc, "-O3", "-march=native", "-o", exe, str(source)], check=True)
    return exe


def tight_rate(exe: str, hands: int) -> float:
    out = subprocess.run([exe, str(hands)], check=True, capture_output=True, text=True).stdout
    return float(out.split()[0])


def start_time(env: dict) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "tricksim.cli", "simulate", "sheepshead", "--hands", "1000"],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2_000_000)
    parser.add_argument("--naive-hands", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-start", action="store_true", help="skip the cold/warm start timing")
    args = parser.parse_args()

    numba.set_num_threads(1)
    options = tricksim.make_game("sheepshead").option_array
    out = np.empty((args.hands, len(K.RECORD)), dtype=np.int64)
    out.fill(0)  # fault the pages in now, not in a timed run
    engine_rate(1000, out, options, 0)  # JIT warm-up (or cache load)
    build = tempfile.TemporaryDirectory()
    exe = build_tight_loop(build.name)
    engine, naive, tight = [], [], []
    for r in range(args.repeats):
        engine.append(engine_rate(args.hands, out, options, r))
        naive.append(naive_rate(args.naive_hands, r))
        if exe:
            tight.append(tight_rate(exe, args.hands))
    e, n = statistics.median(engine), statistics.median(naive)
    print(f"engine, 1 thread : median {e:>12,.0f} hands/s  (min {min(engine):,.0f}, max {max(engine):,.0f})")
    print(f"naive Python     : median {n:>12,.0f} hands/s  (min {min(naive):,.0f}, max {max(naive):,.0f})")
    if tight:
        c = statistics.median(tight)
        print(f"tight C loop     : median {c:>12,.0f} hands/s  (min {min(tight):,.0f}, max {max(tight):,.0f})")
    print(f"engine / naive Python: {e / n:,.0f}x")
    if tight:
        print(f"engine / tight C loop: {e / c:.2f}")
    build.cleanup()

    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    all_threads = statistics.median(engine_rate(args.hands, out, options, r) for r in range(args.repeats))
    print(f"engine, {numba.config.NUMBA_NUM_THREADS} threads: median {all_threads:>12,.0f} hands/s")

    if not args.no_start:
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            cold = start_time(env)
            warm = statistics.median(start_time(env) for _ in range(3))
        print(f"tricksim simulate sheepshead --hands 1000: cold start {cold:.1f} s (empty numba cache), "
              f"warm start {warm:.1f} s (median of 3)")


if __name__ == "__main__":
    main()
