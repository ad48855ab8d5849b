"""PPO's learner steps a second in one seat against the heuristic: SB3's ``DummyVecEnv`` of
Gymnasium environments (how ``tricksim train`` stepped before) against the numba tables
(``tricksim.rl.tables``) with few and with many tables (64 x 64 networks, MaskablePPO's defaults of
``tricksim train``), and the two ways of fine-tuning a 256 x 256 policy (``--init``): its gentle
defaults (``FINE_TUNE``) and ``--fast`` (``FAST``, a 64 x 64 value network, ``rl.lean``). One torch thread
unless ``--threads``.

    python benchmarks/bench_learner.py [--game bluke] [--steps 65536] [--repeats 3] [--threads 1]

Each contender learns ``steps`` steps from a fresh model, in turns, repeat after repeat; the
figures are medians of steps per CPU second (the process's) and per wall second (the first learn
of each is run before timing, for the kernels' compile).
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
from tricksim.rl.lean import LeanPolicy
from tricksim.rl.tables import TablesVecEnv
from tricksim.rl.train import FAST, FAST_ENVS, FAST_VALUE_LAYERS, FINE_TUNE, FINE_TUNE_ENVS

DEFAULTS = {"n_steps": 512, "batch_size": 256, "ent_coef": 0.01}
SMALL = {"pi": [64, 64], "vf": [64, 64]}
BIG = {"pi": [256, 256], "vf": [256, 256]}


def contenders(game: str) -> dict:
    def gym(envs):
        return lambda: DummyVecEnv([lambda: gymnasium.make(GYM_IDS[game], opponents="heuristic")] * envs)

    def tables(n):
        return lambda: TablesVecEnv(game, n)

    mlp = "MlpPolicy"
    return {"Gymnasium envs x 4 (DummyVecEnv)": (gym(4), DEFAULTS, SMALL, mlp),
            "numba tables x 4": (tables(4), DEFAULTS, SMALL, mlp),
            "numba tables x 64": (tables(64), DEFAULTS | {"n_steps": 128}, SMALL, mlp),
            "numba tables x 256": (tables(256), DEFAULTS | {"n_steps": 64}, SMALL, mlp),
            "256 x 256, --init (FINE_TUNE)": (tables(FINE_TUNE_ENVS), FINE_TUNE, BIG, mlp),
            "256 x 256, --init --fast (FAST, lean)": (tables(FAST_ENVS), FAST, BIG | {"vf": list(FAST_VALUE_LAYERS)},
                                                      LeanPolicy)}


def rate(make, ppo: dict, arch: dict, policy, steps: int) -> tuple[float, float]:
    """Steps per CPU second and per wall second of one learn."""
    model = MaskablePPO(policy, make(), gamma=1.0, seed=0, device="cpu", policy_kwargs={"net_arch": arch}, **ppo)
    cpu, wall = time.process_time(), time.perf_counter()
    model.learn(steps)
    return model.num_timesteps / (time.process_time() - cpu), model.num_timesteps / (time.perf_counter() - wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bluke")
    parser.add_argument("--steps", type=int, default=65536)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    runs = contenders(args.game)
    for make, ppo, arch, policy in runs.values():
        rate(make, ppo | {"n_steps": min(ppo["n_steps"], 64)}, arch, policy, 1)  # compile
    rates = {name: [] for name in runs}
    for _ in range(args.repeats):
        for name, (make, ppo, arch, policy) in runs.items():
            rates[name].append(rate(make, ppo, arch, policy, args.steps))
    print(f"{args.game}: MaskablePPO learner steps a second, median of {args.repeats} ({args.steps:,} steps each, "
          f"{args.threads} torch thread{'s' if args.threads > 1 else ''})")
    print(f"  {'':<36} {'per CPU s':>10} {'per wall s':>11}")
    for name, values in rates.items():
        cpu, wall = (statistics.median(v[k] for v in values) for k in (0, 1))
        print(f"  {name:<36} {cpu:>10,.0f} {wall:>11,.0f}")


if __name__ == "__main__":
    main()
