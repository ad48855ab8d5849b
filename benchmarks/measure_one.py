"""One speed measurement of the tree on PYTHONPATH, for before/after comparisons taken in turns
(BENCHMARKS.md, "The restructuring side by side"):

    PYTHONPATH=TREE python benchmarks/measure_one.py random|heuristic|selfplay|pimc|solve|aec|vector GAME

prints one rate: hands per CPU second, PIMC decisions per CPU second (at fixed positions), solves
per second, or steps per second. The first call in a tree compiles; a warming round first is
left out of the figures. ``selfplay`` is the heuristic's batch loop alone (no DataFrame), the best
of eight runs of 100,000 fresh hands in wall time: on this noisy machine the steadier figure
(a few per cent from round to round, where ``heuristic`` moves by up to 20 %).
"""
import sys
import time

import numba

import tricksim


def rate(kind: str, game: str) -> float:
    numba.set_num_threads(1)
    sys.path.insert(0, tricksim.__file__.rsplit("/tricksim/", 1)[0] + "/benchmarks")  # this tree's benchmarks
    if kind in ("random", "heuristic"):
        hands = 1_000_000 if kind == "random" else 400_000
        tricksim.simulate(game, hands=2000, agents=kind, progress=False)  # compiled outside the clock
        start = time.process_time()
        tricksim.simulate(game, hands=hands, agents=kind, progress=False)
        return hands / (time.process_time() - start)
    if kind == "selfplay":
        return selfplay_rate(game)
    if kind == "pimc":
        return pimc_rate(tricksim.make_game(game))
    if kind == "solve":
        import bench_search
        import numpy as np
        g = tricksim.make_game(game)
        ms, _, _ = bench_search.time_solves(g, bench_search.first_card_positions(g, 60), 0)
        return 1000 / np.median(ms)
    import bench_envs
    steps = bench_envs.aec_steps if kind == "aec" else lambda g, s, seed: bench_envs.vector_steps(g, s, seed, 1024)
    steps(game, 0.5, 0)
    return steps(game, 2.0, 1)


def selfplay_rate(name: str, hands: int = 100_000, runs: int = 8) -> float:
    """Hands a second of the heuristic batch loop (``bench_heuristic.Loop``): the best of ``runs``
    runs of ``hands`` hands, each on other deals (a run that replays the same deals would let the
    processor learn their branches)."""
    import bench_heuristic

    loop = bench_heuristic.Loop(name, {}, hands)
    return max(loop.heuristic(hands, run + 1) for run in range(runs))


def pimc_rate(game, hands: int = 100) -> float:
    """PIMC's decisions (100 worlds) per CPU second at the positions of ``hands`` hands played at
    random, about a third of their decisions: the same positions in every tree, where the hands
    that PIMC plays itself differ as soon as two trees sample other worlds."""
    import random

    from tricksim.agents.search import Searcher

    bot = Searcher(game, "pimc:worlds=100", seed=1)
    positions = []
    for hand in range(hands):
        state = game.new_hand(seed=hand, dealer=hand % game.players)
        draw = random.Random(hand)
        while not state.is_terminal():
            if draw.random() < 0.3:
                positions.append(state.clone())
            state.apply(draw.choice(state.legal_actions()))
    for position in positions[:3]:  # compiled outside the clock
        bot.act(position.clone())
    start = time.process_time()
    for position in positions:
        bot.act(position.clone())
    return len(positions) / (time.process_time() - start)


if __name__ == "__main__":
    print(rate(sys.argv[1], sys.argv[2]))
