"""Tianshou 2.0's multi-agent DQN (its tic-tac-toe tutorial) over tricksim's PettingZoo environment.

    pip install -e '.[rl,tianshou]'
    python examples/rl/tianshou_dqn.py --game nesmear --epochs 10

One seat (``--learner``) learns with DQN against random players in the other seats, as in
Tianshou's tic-tac-toe tutorial with the environment swapped (``tianshou.env.PettingZooEnv``
over ``tricksim.envs.<game>_v0.env``). Two things differ from tic-tac-toe, where the game ends
on the mover's own turn half of the time:

* Tianshou files a step's rewards with the transition of the agent that moved. With the
  environment's default (``reward_at="hand_end"``) a hand's scores arrive on the step that ends
  it, which is the learner's own only on about one hand in the number of seats, so an n-step
  horizon of 3 (the tutorial's) learns worse than random. This example asks the environment to
  credit each seat on its own last move (``--reward-at last_move``, the default here), so that
  even a one-step horizon sees the learner's score; with ``--reward-at hand_end``, give
  ``--n-step`` a whole hand (16).
* The learner's return is its team's score of the hand (``multi_agent_return_reduction``).
"""

from __future__ import annotations

import argparse
import importlib

import numpy as np
import torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

import tricksim


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="nesmear", choices=tricksim.games())
    parser.add_argument("--learner", type=int, default=0, help="the learner's seat")
    parser.add_argument("--reward-at", default="last_move", choices=["last_move", "hand_end"])
    parser.add_argument("--seed", type=int, default=1626)
    parser.add_argument("--eps-train", type=float, default=0.1)
    parser.add_argument("--eps-test", type=float, default=0.0)
    parser.add_argument("--buffer-size", type=int, default=50_000)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--gamma", type=float, default=1.0, help="a hand is short: no discount")
    parser.add_argument("--n-step", type=int, default=1)
    parser.add_argument("--target-update-freq", type=int, default=320)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--epoch-steps", type=int, default=5_000)
    parser.add_argument("--collect-steps", type=int, default=10, help="environment steps per collection")
    parser.add_argument("--update-per-step", type=float, default=0.1)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--hidden-sizes", type=int, nargs="*", default=[128, 128])
    parser.add_argument("--train-envs", type=int, default=10)
    parser.add_argument("--test-envs", type=int, default=10)
    parser.add_argument("--test-hands", type=int, default=200)
    return parser.parse_args(argv)


def make_env(args) -> PettingZooEnv:
    game = importlib.import_module(f"tricksim.envs.{args.game}_v0")
    return PettingZooEnv(game.env(reward_at=args.reward_at))


def learner_return(args):
    """The learner's column of the episode returns (one per seat)."""
    return lambda returns: returns[:, args.learner]


def agents(args, env: PettingZooEnv) -> MultiAgentOffPolicyAlgorithm:
    """DQN in the learner's seat, random legal moves in the others."""
    observations = env.observation_space["observation"].shape
    net = Net(state_shape=observations, action_shape=env.action_space.n, hidden_sizes=args.hidden_sizes)
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=args.eps_train,
                                     eps_inference=args.eps_test)
    learner = DQN(policy=policy, optim=AdamOptimizerFactory(lr=args.lr), gamma=args.gamma,
                  n_step_return_horizon=args.n_step, target_update_freq=args.target_update_freq)
    seats = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in env.agents]
    seats[args.learner] = learner
    return MultiAgentOffPolicyAlgorithm(algorithms=seats, env=env)


def mean_return(algorithm, args, hands: int) -> float:
    envs = DummyVectorEnv([lambda: make_env(args) for _ in range(args.test_envs)])
    envs.seed(args.seed + 1)
    stats = Collector[CollectStats](algorithm, envs).collect(n_episode=hands, reset_before_collect=True)
    return float(np.mean(stats.returns[:, args.learner]))


def main(argv=None) -> dict:
    args = parse_args(argv)
    torch.set_num_threads(1)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    train_envs = DummyVectorEnv([lambda: make_env(args) for _ in range(args.train_envs)])
    test_envs = DummyVectorEnv([lambda: make_env(args) for _ in range(args.test_envs)])
    train_envs.seed(args.seed)
    test_envs.seed(args.seed + 1)
    algorithm = agents(args, make_env(args))
    before = mean_return(algorithm, args, args.test_hands)
    buffer = VectorReplayBuffer(args.buffer_size, len(train_envs))
    train_collector = Collector[CollectStats](algorithm, train_envs, buffer, exploration_noise=True)
    test_collector = Collector[CollectStats](algorithm, test_envs, exploration_noise=True)
    train_collector.reset()
    train_collector.collect(n_step=args.batch_size * args.train_envs)
    algorithm.run_training(OffPolicyTrainerParams(
        training_collector=train_collector, test_collector=test_collector, max_epochs=args.epochs,
        epoch_num_steps=args.epoch_steps, collection_step_num_env_steps=args.collect_steps,
        test_step_num_episodes=args.test_envs, batch_size=args.batch_size,
        update_step_num_gradient_steps_per_sample=args.update_per_step, test_in_training=False,
        multi_agent_return_reduction=learner_return(args), show_progress=False))
    after = mean_return(algorithm, args, args.test_hands)
    print(f"{args.game}, seat {args.learner} against random players, mean score over {args.test_hands} hands: "
          f"untrained {before:.2f}, trained {after:.2f}")
    return {"untrained": before, "trained": after}


if __name__ == "__main__":
    main()
