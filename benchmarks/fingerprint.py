"""Fingerprints of what tricksim plays: one sha256 per run, for a restructuring that must leave the
rows exactly as they were. Run it before and after and diff the output.

    python benchmarks/fingerprint.py [--hands 2000] [--search-hands 12] > before.txt

Covered: ``simulate`` rows of every game at its defaults and at other option sets, three seeds,
random and heuristic agents; hands with PIMC and ISMCTS seats beside heuristic and random ones
(the search agents' decisions); the exact solver's values on random positions of every game.
"""

from __future__ import annotations

import argparse
import hashlib

import numpy as np
import pandas as pd

import tricksim

OPTION_SETS = [
    ("sheepshead", {}), ("sheepshead", {"no_pick": "doubler", "partner": "jack_of_diamonds"}),
    ("sheepshead", {"no_call": "unknown", "double_on_bump": True}),
    ("fiftyfive", {}), ("fiftyfive", {"players": 4, "teams": 2, "exchange": 2}),
    ("shmear", {}), ("shmear", {"teams": 2, "may_trump": True}), ("nesmear", {}),
    ("bluke", {}), ("bluke", {"players": 2, "min_bid": 0, "hook": True}),
]
SEARCH_SETS = [OPTION_SETS[i] for i in (0, 2, 3, 5, 7, 8)]  # every game once, two at other options


def digest(df: pd.DataFrame) -> str:
    """The sha256 of a frame's values and column names (attrs aside)."""
    h = hashlib.sha256()
    h.update(",".join(map(str, df.columns)).encode())
    h.update(pd.util.hash_pandas_object(df, index=True).values.tobytes())
    return h.hexdigest()[:16]


def simulate_rows(hands: int) -> None:
    for game, options in OPTION_SETS:
        for agents in ("random", "heuristic"):
            for seed in (1, 2, 3):
                df = tricksim.simulate(game, hands=hands, seed=seed, agents=agents, progress=False, **options)
                print(f"simulate {game} {options} {agents} seed={seed}: {digest(df)}")


def search_rows(hands: int) -> None:
    for game, options in SEARCH_SETS:
        g = tricksim.make_game(game, **options)
        kinds = ["pimc:worlds=8", "ismcts:iters=200", "heuristic", "random"]
        agents = ",".join(kinds[i % len(kinds)] for i in range(g.players))
        df = tricksim.simulate(game, hands=hands, seed=5, agents=agents, progress=False, **options)
        print(f"search {game} {options} {agents}: {digest(df)}")


def cards_left(state) -> int:
    hands = state.array[state.game.kernels.HANDS:state.game.kernels.HANDS + state.game.players]
    return sum(bin(int(h)).count("1") for h in hands)


def solver_values(positions: int) -> None:
    rng = np.random.default_rng(9)
    for game, options in SEARCH_SETS:
        g = tricksim.make_game(game, **options)
        values = []
        for k in range(positions):
            state = g.new_hand(seed=int(rng.integers(1 << 30)), dealer=k % g.players)
            while not state.is_terminal() and (len(state.tricks()) < 1 or cards_left(state) > 20):
                legal = state.legal_actions()  # into the play, to 20 cards in hand or fewer, then solve
                state.apply(legal[int(rng.integers(len(legal)))])
            if not state.is_terminal():
                s = tricksim.solve(state, objective="points")
                values.append((s.value, s.best, s.nodes))
        print(f"solve {game} {options}: {hashlib.sha256(repr(values).encode()).hexdigest()[:16]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--search-hands", type=int, default=12)
    parser.add_argument("--positions", type=int, default=6)
    args = parser.parse_args()
    simulate_rows(args.hands)
    search_rows(args.search_hands)
    solver_values(args.positions)


if __name__ == "__main__":
    main()
