"""Where a game's heuristic self-play spends its time, function by function, under ``perf``:

    perf record -e cpu-clock -F 4000 -o perf.data python benchmarks/profile_heuristic.py GAME [--no-inline]
    perf report -i perf.data --no-children --sort sym -n

perf sees numba's compiled code only as addresses; this script plays ``--hands`` hands of heuristic
self-play and then writes ``/tmp/perf-PID.map``, which names them (perf reads the map at report
time). The map needs the compiled module, which a run that loads numba's cache does not have, so
the script compiles afresh into a temporary cache. Functions inlined into their callers
(``inline="always"``, most of the agents' helpers) count as their caller; ``--no-inline`` compiles
a copy of the tree with the agent's module not inlined, to see each helper apart (slower, and the
shares shift a little). The figures to compare are samples on the same number of hands, two trees
in one sitting: the machine is noisy.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tricksim.agents import agent_module
from tricksim.spec import names

ROOT = Path(__file__).resolve().parent.parent
BATCH = 100_000  # hands a call of the batch loop


def _play(game: str, hands: int) -> None:
    import numba

    from bench_heuristic import Loop
    from tricksim.agents import loops

    numba.set_num_threads(1)
    loop = Loop(game, {}, BATCH)
    runs = -(-hands // BATCH)
    for seed in range(runs):
        loop.heuristic(BATCH, seed)
    symbols = []
    for result in loops.heuristic_loop.overloads.values():
        library = result.library
        for function in library._final_module.functions:
            if not function.is_declaration:
                symbols.append((library.get_pointer_to_function(function.name), function.name))
    symbols = sorted(s for s in symbols if s[0])
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out_map:
        for (start, name), (end, _) in zip(symbols, symbols[1:] + [(symbols[-1][0] + 65536, "")]):
            out_map.write(f"{start:x} {end - start:x} {name}\n")
    print(f"{runs * BATCH:,} hands of {game}; {len(symbols)} compiled functions named in /tmp/perf-{os.getpid()}.map")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=names())
    parser.add_argument("--hands", type=int, default=3_000_000)
    parser.add_argument("--no-inline", action="store_true", help="the agent's helpers compiled apart")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        env = dict(os.environ, NUMBA_CACHE_DIR=f"{scratch}/cache")
        tree = ROOT
        if args.no_inline:
            tree = Path(scratch) / "tree"
            shutil.copytree(ROOT / "tricksim", tree / "tricksim", ignore=shutil.ignore_patterns("__pycache__"))
            module = tree / Path(agent_module(args.game).__file__).relative_to(ROOT)
            module.write_text(re.sub(r'@nb\.njit\(cache=True, inline="always"\)', "@nb.njit(cache=True)",
                                     module.read_text()))
        env["PYTHONPATH"] = str(tree)
        # perf follows the child; its pid names the map
        subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT / 'benchmarks')!r}); "
                        f"import profile_heuristic; profile_heuristic._play({args.game!r}, {args.hands})"],
                       env=env, check=True)


if __name__ == "__main__":
    main()
