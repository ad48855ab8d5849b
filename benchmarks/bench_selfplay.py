"""Random self-play of complete hands on one core. Sheepshead: the numba engine
against a naive pure-Python implementation of the same play and against a tight
C loop (``tight_loop.c``, a minimal subset of the rules), measured in one run;
Fifty-five with 5 players, Bluke with 4 players (all 25 hand sizes of a match), Shmear
and NE Smear; and the cold and warm start of the ``tricksim`` command.

    python benchmarks/bench_selfplay.py [--hands 2000000] [--naive-hands 20000] [--repeats 5]

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
from tricksim.agents.loops import play_random_hands  # noqa: E402


class Engine:
    """Random self-play of one game's hands through the random batch loop (``agents.loops``)."""

    def __init__(self, name: str, hands: int, **options):
        self.game = tricksim.make_game(name, **options)
        self.out = np.empty((hands, len(self.game.kernels.RECORD)), dtype=np.int64)
        self.out.fill(0)  # fault the pages in now, not in a timed run
        self.rate(1000, 0)  # JIT warm-up (or cache load)

    def rate(self, hands: int, seed: int) -> float:
        start = time.perf_counter()
        play_random_hands(self.game, seed, 0, self.out[:hands])
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


def _row(label: str, figures: list[float]) -> None:
    print(f"  {label:<16} median {statistics.median(figures):>12,.0f} hands/s"
          f"  (min {min(figures):,.0f}, max {max(figures):,.0f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2_000_000)
    parser.add_argument("--naive-hands", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-start", action="store_true", help="skip the cold/warm start timing")
    args = parser.parse_args()

    numba.set_num_threads(1)
    sheepshead = Engine("sheepshead", args.hands)
    build = tempfile.TemporaryDirectory()
    exe = build_tight_loop(build.name)
    engine, naive, tight = [], [], []
    for r in range(args.repeats):
        engine.append(sheepshead.rate(args.hands, r))
        naive.append(naive_rate(args.naive_hands, r))
        if exe:
            tight.append(tight_rate(exe, args.hands))
    build.cleanup()
    e, n = statistics.median(engine), statistics.median(naive)
    print("Sheepshead, one core")
    _row("tricksim engine", engine)
    _row("naive Python", naive)
    if tight:
        _row("tight C loop", tight)
    print(f"  engine / naive Python: {e / n:,.0f}x")
    if tight:
        print(f"  engine / tight C loop: {e / statistics.median(tight):.2f}")

    others = {"Fifty-five, 5 players": Engine("fiftyfive", args.hands, players=5),
              "Bluke, 4 players, all 25 hand sizes": Engine("bluke", args.hands // 4, players=4),
              "Shmear, 6 players": Engine("shmear", args.hands // 2),
              "NE Smear, 4 players": Engine("nesmear", args.hands // 2)}
    rates = {label: [] for label in others}
    for r in range(args.repeats):
        for label, other in others.items():
            rates[label].append(other.rate(len(other.out), r))
    for label, figures in rates.items():
        print(f"{label}, one core")
        _row("tricksim engine", figures)

    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    both = [sheepshead.rate(args.hands, r) for r in range(args.repeats)]
    print(f"Sheepshead, {numba.config.NUMBA_NUM_THREADS} threads")
    _row("tricksim engine", both)

    if not args.no_start:
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            cold = start_time(env)
            warm = statistics.median(start_time(env) for _ in range(3))
        print(f"tricksim simulate sheepshead --hands 1000: cold start {cold:.1f} s (empty numba cache), "
              f"warm start {warm:.1f} s (median of 3)")


if __name__ == "__main__":
    main()
