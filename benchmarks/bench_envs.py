"""Environment speed on one core: PettingZoo AEC steps per second for the five games, beside
OpenSpiel trick-taking games stepped from Python in the same run, and the vector environment's
learner steps per second with random opponents.

    python benchmarks/bench_envs.py [--seconds 3] [--repeats 5] [--num-envs 1024]

An AEC step is one agent's decision through the standard loop (``agent_iter``, ``last``, a
uniformly random legal action read from the mask, ``step``), dealing included. An OpenSpiel step
is one player's decision of ``state.apply_action`` with a random legal action, chance nodes (the
deal) included in the time but not in the count; it is timed bare, and again with the player's
``observation_tensor`` (``information_state_tensor`` where the game has no observation tensor)
fetched before each decision, as an environment hands it over. A vector step counts every
table's learner decision (the opponents' moves happen inside it) and times the environment's
calls, ``action_masks`` and ``step``, not the learner's choice. Contenders take turns, repeat
after repeat; the figures are medians.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time

import tricksim  # noqa: F401  (registers the Gymnasium ids)

import gymnasium
import numpy as np
from tricksim.envs import GYM_IDS

GAMES = tuple(GYM_IDS)  # every game, in the order of tricksim.spec
SPIEL_GAMES = ("oh_hell", "euchre", "hearts", "skat", "spades")  # oh_hell is Bluke's family


def aec_steps(game: str, seconds: float, seed: int) -> float:
    env = importlib.import_module(f"tricksim.envs.{game}_v0").raw_env()
    env.reset(seed=seed)
    choose = random.Random(seed).choice
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset()
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(choose(np.flatnonzero(obs["action_mask"])))
            steps += 1
    return steps / (time.perf_counter() - start)


def spiel_steps(name: str, seconds: float, seed: int, observe: bool) -> float:
    import pyspiel

    game = pyspiel.load_game(name)
    tensor = "observation_tensor" if game.get_type().provides_observation_tensor else "information_state_tensor"
    rng = random.Random(seed)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            if observe:
                getattr(state, tensor)(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (time.perf_counter() - start)


def vector_steps(game: str, seconds: float, seed: int, num_envs: int) -> float:
    """Learner steps per second of the environment's own calls (``action_masks`` and ``step``);
    the learner's random legal choice between them is left out of the time."""
    envs = gymnasium.make_vec(GYM_IDS[game], num_envs=num_envs, opponents="random")
    envs.reset(seed=seed)
    noise = np.random.default_rng(seed).random((16, num_envs, envs.single_action_space.n))
    steps, spent = 0, 0.0
    while spent < seconds:
        start = time.perf_counter()
        masks = envs.action_masks()
        middle = time.perf_counter()
        actions = (masks * noise[steps // num_envs % 16]).argmax(axis=1)  # a random legal action
        restart = time.perf_counter()
        envs.step(actions)
        spent += time.perf_counter() - restart + middle - start
        steps += num_envs
    return steps / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one timed run")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--num-envs", type=int, default=1024)
    args = parser.parse_args()
    contenders = {f"AEC {g}": (lambda g=g, s=0: aec_steps(g, args.seconds, s)) for g in GAMES}
    for name in SPIEL_GAMES:
        contenders[f"OpenSpiel {name}"] = lambda n=name, s=0: spiel_steps(n, args.seconds, s, False)
        contenders[f"OpenSpiel {name} + observation"] = lambda n=name, s=0: spiel_steps(n, args.seconds, s, True)
    for g in GAMES:
        contenders[f"vector {g}"] = lambda g=g, s=0: vector_steps(g, args.seconds, s, args.num_envs)
    for g in GAMES:  # compile, or load the cache
        aec_steps(g, 0.2, 1)
        vector_steps(g, 0.2, 1, args.num_envs)
    figures: dict[str, list[float]] = {name: [] for name in contenders}
    for repeat in range(args.repeats):
        for name, run in contenders.items():
            figures[name].append(run(s=repeat))
        print(f"repeat {repeat + 1}/{args.repeats} done", flush=True)
    print(f"\none core, {args.seconds:g} s a run, {args.repeats} repeats; vector: {args.num_envs} tables")
    for name, values in figures.items():
        unit = "learner steps/s" if name.startswith("vector") else "steps/s"
        print(f"  {name:<36} median {statistics.median(values):>12,.0f} {unit}"
              f"  (min {min(values):,.0f}, max {max(values):,.0f})")


if __name__ == "__main__":
    main()
