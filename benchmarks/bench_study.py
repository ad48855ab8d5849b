"""The Sheepshead pick study a user runs: ``tricksim study pick sheepshead`` over a million deals
with heuristic play, as a new process each time, timed from the shell (wall time and peak memory
of the process, by ``/usr/bin/time``):

* in memory (no ``--out``),
* streamed to ``--out DIR`` (a part per chunk, joined into rows.parquet),
* streamed and played on ``--dask local`` (a worker process per core).

    python benchmarks/bench_study.py [--hands 1000000] [--repeats 3]

The kernels are compiled (or loaded from numba's cache) by a small study first. The three take
turns, repeat after repeat, so that drift of this noisy machine hits all of them; the figures are
medians. The Dask run's peak memory is its client's (its workers are processes of their own).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

MODES = {"in memory": [], "streamed (--out)": ["--out", "{out}"],
         "streamed, --dask local": ["--out", "{out}", "--dask", "local"]}


def run(hands: int, extra: list[str], folder: Path) -> tuple[float, float]:
    """Wall seconds and peak memory (GB) of one study as a new process."""
    shutil.rmtree(folder, ignore_errors=True)  # a new study each time, not the finished one reused
    extra = [a.format(out=folder) for a in extra]
    command = ["/usr/bin/time", "-f", "%e %M", sys.executable, "-m", "tricksim.cli", "study", "pick", "sheepshead",
               "--hands", str(hands), "--classes", "trumps", *extra]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    seconds, kilobytes = done.stderr.strip().splitlines()[-1].split()
    return float(seconds), int(kilobytes) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "study"
        for extra in MODES.values():
            run(2_000, extra, folder)  # compile, or load the cache, in every kind of process
        times = {mode: [] for mode in MODES}
        for _ in range(args.repeats):
            for mode, extra in MODES.items():
                times[mode].append(run(args.hands, extra, folder))
    print(f"Sheepshead pick study, {args.hands:,} deals, heuristic play, median of {args.repeats}:")
    print("| run | wall seconds | peak memory (GB) |")
    print("|---|---:|---:|")
    for mode, figures in times.items():
        print(f"| {mode} | {statistics.median(s for s, _ in figures):.1f} | "
              f"{statistics.median(m for _, m in figures):.2f} |")


if __name__ == "__main__":
    main()
