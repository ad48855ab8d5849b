"""PPO's learner steps a second in one seat against the heuristic: SB3's ``DummyVecEnv`` of
Gymnasium environments (how ``tricksim train`` stepped before) against the numba tables
(``tricksim.rl.tables``) with few and with many tables, MaskablePPO's defaults of ``tricksim
train`` otherwise (64 x 64 tanh networks, one torch thread).

    python benchmarks/bench_learner.py [--game bluke] [--steps 65536] [--repeats 3]

Each contender learns ``steps`` steps from a fresh model, in turns, repeat after repeat; the
figures are medians (the first learn of each is run before timing, for the kernels' compile).
"""

from __future__ import annotations

import argparse
import statistics
import time

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

import tricksim  # noqa: F401  (registers the environments)
from tricksim.envs import GYM_IDS
from tricksim.rl.tables import TablesVecEnv


def contenders(game: str) -> dict:
    def gym(envs):
        return lambda: DummyVecEnv([lambda: gymnasium.make(GYM_IDS[game], opponents="heuristic")] * envs)

    return {"Gymnasium envs x 4 (DummyVecEnv)": (gym(4), 512), "numba tables x 4": (lambda: TablesVecEnv(game, 4), 512),
            "numba tables x 64": (lambda: TablesVecEnv(game, 64), 128),
            "numba tables x 256": (lambda: TablesVecEnv(game, 256), 64)}


def rate(make, n_steps: int, steps: int) -> float:
    model = MaskablePPO("MlpPolicy", make(), n_steps=n_steps, batch_size=256, ent_coef=0.01, gamma=1.0, seed=0,
                        device="cpu", policy_kwargs={"net_arch": {"pi": [64, 64], "vf": [64, 64]}})
    start = time.perf_counter()
    model.learn(steps)
    return model.num_timesteps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bluke")
    parser.add_argument("--steps", type=int, default=65536)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    runs = contenders(args.game)
    for make, n_steps in runs.values():
        rate(make, n_steps, 2048)  # compile
    rates = {name: [] for name in runs}
    for _ in range(args.repeats):
        for name, (make, n_steps) in runs.items():
            rates[name].append(rate(make, n_steps, args.steps))
    base = statistics.median(rates[next(iter(runs))])
    print(f"{args.game}: MaskablePPO learner steps a second, median of {args.repeats} ({args.steps:,} steps each)")
    for name, values in rates.items():
        median = statistics.median(values)
        print(f"  {name:<36} {median:>9,.0f}  x{median / base:.2f}   ({min(values):,.0f} - {max(values):,.0f})")


if __name__ == "__main__":
    main()
