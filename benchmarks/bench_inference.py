"""Inference in PIMC's world sampler (BENCHMARKS.md, "Inference in the world sampler"):

    python benchmarks/bench_inference.py evidence GAME [--others AGENT] [--hands 30] [--eps 0.5]
    python benchmarks/bench_inference.py speed GAME AGENT [AGENT ...]

``evidence``: hands played by ``--others`` in every seat; at each card play decision with a
choice, the true deal's log-likelihood (``agents.inference``, under the heuristic softened by
``eps``) ranked among worlds sampled from the acting seat's view (its mean percentile: 0.5 says
nothing, 1 names the true deal), and the effective sample size ``(sum w) ** 2 / sum w ** 2`` of
200 candidates' weights, the pool PIMC's ``resample=4`` draws 50 worlds from.

``speed``: decisions a CPU second of each agent on the same card play states (every decision with
a choice in 30 heuristic hands), the agents in turns over four rounds; medians, and each agent's
ratio to the first.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import tricksim
from tricksim.agents import agent_module
from tricksim.agents.inference import world_log_likelihood
from tricksim.agents.pimc import effective_size
from tricksim.agents.search import Searcher
from tricksim.sim.kernels import new_rng, seed_stream
from tricksim.spec import family_part


def _rng(*key):
    rng = new_rng()
    seed_stream(rng, *key)
    return rng


def _is_choice_of_card(state) -> bool:
    return state.phase == "play" and len(state.legal_actions()) > 1


def evidence(name: str, others: str, hands: int, eps: float) -> None:
    game = tricksim.make_game(name)
    sample = family_part(game.family, "search").sample
    agent = agent_module(name)
    hparams = agent.DEFAULTS
    bots = [Searcher(game, others, seed=100 + p) for p in range(game.players)] if others != "heuristic" else None
    play_rng, sample_rng, model_rng = _rng(9, 0, 0), _rng(1, 2, 3), _rng(4, 5, 6)
    percentiles, sizes = [], []
    for hand in range(hands):
        state = game.new_hand(seed=5000 + hand, dealer=hand % game.players)
        while not state.is_terminal():
            seat = state.current_player
            if _is_choice_of_card(state):
                s = np.ascontiguousarray(state.array)
                true = world_log_likelihood(game.family, s, seat, eps, hparams, model_rng)
                world, logs = np.zeros_like(s), np.empty(200)
                for k in range(200):
                    sample(s, seat, sample_rng, world)
                    logs[k] = world_log_likelihood(game.family, world, seat, eps, hparams, model_rng)
                ranked = logs[:60]
                percentiles.append(((ranked < true - 1e-9).sum() + 0.5 * (abs(ranked - true) <= 1e-9).sum()) / 60)
                sizes.append(effective_size(logs, 200, 1.0))
            move = bots[seat].act(state) if bots else int(agent.act(state.array, hparams, play_rng))
            state.apply(move)
    sizes = np.array(sizes)
    print(f"{name}, others {others}, eps {eps}: {len(sizes)} decisions; the true deal's mean percentile "
          f"{np.mean(percentiles):.3f} ± {np.std(percentiles) / np.sqrt(len(percentiles)):.3f}; effective size of "
          f"200: median {np.median(sizes):.1f}, 10th percentile {np.percentile(sizes, 10):.1f}")


def speed(name: str, agents: list[str]) -> None:
    game = tricksim.make_game(name)
    agent, rng = agent_module(name), _rng(9, 9, 9)
    states = []
    for hand in range(30):
        state = game.new_hand(seed=8000 + hand, dealer=hand % game.players)
        while not state.is_terminal():
            if _is_choice_of_card(state):
                states.append(state.clone())
            state.apply(int(agent.act(state.array, agent.DEFAULTS, rng)))
    bots = [Searcher(game, a, seed=1) for a in agents]
    for bot in bots:
        bot.act(states[0])  # compiled before the clock
    rates = np.zeros((4, len(agents)))
    for r in range(4):
        for i, bot in enumerate(bots):
            start = time.process_time()
            for state in states:
                bot.act(state)
            rates[r, i] = len(states) / (time.process_time() - start)
    for i, a in enumerate(agents):
        print(f"{a:50s} {np.median(rates[:, i]):8.0f} decisions a CPU second, "
              f"{np.median(rates[:, i] / rates[:, 0]):.2f} of the first")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    e = sub.add_parser("evidence")
    e.add_argument("game")
    e.add_argument("--others", default="pimc:worlds=20")
    e.add_argument("--hands", type=int, default=30)
    e.add_argument("--eps", type=float, default=0.5)
    s = sub.add_parser("speed")
    s.add_argument("game")
    s.add_argument("agents", nargs="+")
    args = parser.parse_args()
    if args.command == "evidence":
        evidence(args.game, args.others, args.hands, args.eps)
    else:
        speed(args.game, args.agents)


if __name__ == "__main__":
    main()
