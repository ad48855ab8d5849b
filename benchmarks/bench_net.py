"""A trained policy network as an agent (``net:file=...``) against the heuristic, in ``simulate``:
hands a second with every seat the network, and with every seat the heuristic, in one process
taking turns (medians), for each game.

    python benchmarks/bench_net.py [--hands 20000] [--repeats 5] [--policy runs/bluke/policy.npz]

The network is a policy file of the shape ``tricksim train`` writes (two hidden layers of 64,
tanh), with random weights unless ``--policy`` names one for its game: the time of a forward
pass does not depend on the weights.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

import tricksim
from tricksim.agents.net import net_inputs, read_policy, write_policy
from tricksim.sim.batch import simulate
from tricksim.sim.actions import NUM_ACTIONS


def policy_file(game, folder: Path, given: str | None) -> str:
    if given:
        try:
            read_policy(given, game)
            return given
        except ValueError:
            pass  # another game's policy: a random one of the same shape
    rng = np.random.default_rng(0)
    sizes = [net_inputs(game), 64, 64, NUM_ACTIONS]
    path = folder / f"{game.name}.npz"
    write_policy(path, game, [rng.normal(size=(a, b)) / np.sqrt(a) for a, b in zip(sizes, sizes[1:])],
                 [np.zeros(b) for b in sizes[1:]])
    return str(path)


def rate(game, hands: int, agents: str) -> float:
    start = time.perf_counter()
    simulate(game, hands, seed=1, agents=agents, progress=False)
    return hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--policy", help="a trained policy file, used for its own game")
    args = parser.parse_args()
    print(f"hands a second in simulate, {args.hands:,} hands, median of {args.repeats}:")
    print("| game | network | heuristic | heuristic / network |")
    print("|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in tricksim.games():
            game = tricksim.make_game(name)
            agents = {"network": f"net:file={policy_file(game, Path(tmp), args.policy)}", "heuristic": "heuristic"}
            for spec in agents.values():
                rate(game, 200, spec)  # compile, or load the cache
            rates = {kind: [] for kind in agents}
            for _ in range(args.repeats):
                for kind, spec in agents.items():
                    rates[kind].append(rate(game, args.hands, spec))
            net, heuristic = (statistics.median(rates[kind]) for kind in agents)
            print(f"| {name} | {net:,.0f} | {heuristic:,.0f} | {heuristic / net:.1f} |")


if __name__ == "__main__":
    main()
