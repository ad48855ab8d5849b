"""The exact solver and PIMC, timed on one core (figures for BENCHMARKS.md, "Search").

Solver: deals bid, picked, buried and called by the heuristic agent, then solved from the first
card of the play for the picker or bidder (the seat to act in Bluke): the exact tally of its side
(``points``), the win-or-lose question (Sheepshead: does the picker's side take 61; the others:
does the side reach its median tally), and the exact hand score (``score``). Each solve starts
with an empty table. PIMC: decisions per second with 100 worlds, over every decision of one seat
through whole hands (the heuristic in the other seats).

    python benchmarks/bench_search.py [--deals 1000] [--solve-games ...] [--games ...] [--pimc-hands 30]
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

import tricksim
from tricksim.agents import agent_module
from tricksim.agents import solver as S
from tricksim.agents.search import Searcher
from tricksim.envs import engine
from tricksim.sim import actions as A
from tricksim.sim.kernels import new_rng, seed_stream

GAMES = {"sheepshead": {}, "fiftyfive": {"players": 4}, "shmear": {}, "nesmear": {}, "bluke": {"players": 4}}


def first_card_positions(game, deals: int):
    """(state array, judged seat) at the first card of ``deals`` heuristic hands."""
    family = game.family
    choose = engine.kernels(family).choose
    defaults = agent_module(game.name).DEFAULTS
    k = game.kernels
    out, hand = [], 0
    rng = new_rng()
    while len(out) < deals:
        s = game.new_hand(seed=hand, dealer=hand % game.players).array
        seed_stream(rng, 0, hand, 1)
        hand += 1
        while s[k.TO_ACT] >= 0:
            words, cards, kind = k.legal(s)
            if words == 0 and kind == A.PLAY:
                break
            k.step(s, choose(family, s, 1, defaults, rng))
        if s[k.TO_ACT] < 0:
            continue  # thrown in, or a leaster in Sheepshead: no side to judge
        if game.name == "sheepshead":
            if s[k.PICKER] < 0:
                continue
            judge = int(s[k.PICKER])
        elif hasattr(k, "BIDDER"):
            judge = int(s[k.BIDDER])
        else:
            judge = int(s[k.TO_ACT])
        out.append((s.copy(), judge))
    return out


def time_solves(game, positions, objective, targets=None):
    family = game.family
    kernels = S.compiled(family)
    ws = S.workspace(game.kernels.STATE_SIZE, agent_module(game.name).DEFAULTS)
    s0, j0 = positions[0]
    kernels.solve_root(family, s0.copy(), j0, objective, -1, ws)  # compile outside the clock
    times, values, nodes = [], [], []
    for i, (s, judge) in enumerate(positions):
        S.clear(ws)
        target = -1 if targets is None else int(targets[i])
        start = time.perf_counter()
        value, _ = kernels.solve_root(family, s.copy(), judge, objective, target, ws)
        times.append(time.perf_counter() - start)
        values.append(value)
        nodes.append(ws[S.STATS][S.NODES])
    return np.array(times) * 1000, np.array(values), np.array(nodes)


def row(label, ms, nodes):
    return (f"| {label} | {len(ms):,} | {np.median(ms):.3f} | {np.percentile(ms, 90):.3f} | {ms.max():.3f} "
            f"| {np.median(nodes):,.0f} |")


def pimc_rate(game, hands: int):
    bot = Searcher(game, "pimc:worlds=100", seed=1)
    choose = engine.kernels(game.family).choose
    defaults = agent_module(game.name).DEFAULTS
    rng = new_rng()
    decisions, spent = 0, 0.0
    for hand in range(hands):
        state = game.new_hand(seed=hand, dealer=hand % game.players)
        seed_stream(rng, 1, hand, 1)
        while not state.is_terminal():
            if state.current_player == 0:
                start = time.perf_counter()
                action = bot.act(state)
                spent += time.perf_counter() - start
                decisions += 1
            else:
                action = int(choose(game.family, state.array, 1, defaults, rng))
            state.apply(action)
    return decisions, spent


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--solve-games", default="sheepshead,nesmear,fiftyfive",
                        help="games whose full deals are solved (Bluke's and Shmear's take minutes a deal)")
    parser.add_argument("--games", default=",".join(GAMES), help="games for the PIMC figures")
    parser.add_argument("--pimc-hands", type=int, default=30)
    args = parser.parse_args()
    numba.set_num_threads(1)
    print("| game, question | deals | median ms | p90 ms | worst ms | median positions |\n|---|---:|---:|---:|---:|---:|")
    for name in args.solve_games.split(","):
        game = tricksim.make_game(name)  # default options: Fifty-five with 5 players
        positions = first_card_positions(game, args.deals)
        points_ms, points, points_nodes = time_solves(game, positions, S.POINTS)
        target = np.full(len(positions), 61) if name == "sheepshead" else np.full(len(positions), np.median(points))
        question = "61" if name == "sheepshead" else f"{np.median(points):g}"
        target_ms, reached, target_nodes = time_solves(game, positions, S.POINTS, target)
        assert ((reached >= target) == (points >= target)).all()  # the question agrees with the exact tally
        score_ms, _, score_nodes = time_solves(game, positions, S.SCORE)
        print(row(f"{name}: exact points", points_ms, points_nodes), flush=True)
        print(row(f"{name}: points >= {question}?", target_ms, target_nodes))
        print(row(f"{name}: exact score", score_ms, score_nodes), flush=True)
    print("\n| game | PIMC decisions | seconds | decisions/s (100 worlds) |\n|---|---:|---:|---:|")
    for name in args.games.split(","):
        game = tricksim.make_game(name, **GAMES[name])
        pimc_rate(game, 1)  # compile outside the clock
        decisions, spent = pimc_rate(game, args.pimc_hands)
        print(f"| {name} | {decisions} | {spent:.1f} | {decisions / spent:.1f} |", flush=True)


if __name__ == "__main__":
    main()
