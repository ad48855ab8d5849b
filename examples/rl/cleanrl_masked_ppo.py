"""Masked PPO in one file, CleanRL-style, over tricksim's vector environment.

    pip install -e '.[rl]'           # PyTorch (its CPU build is enough)
    python examples/rl/cleanrl_masked_ppo.py --game bluke --total-steps 300000

The learner takes seat 0 of ``--num-envs`` tables of ``gymnasium.make_vec("tricksim/<Game>-v0")``
against random opponents and learns with PPO whose policy is a softmax over the legal actions only
(``info["action_mask"]``). At the end it plays ``--eval-hands`` fresh hands greedily, and a
random learner plays the same deals, and it prints both mean scores: a few minutes on one core
are enough for Bluke's learner to score well above random.

The tables autoreset on the same step by default (``--autoreset-mode SameStep``): a step that
ends a hand returns the next hand's first observation, and the rollout marks it done. With
``NextStep`` (Gymnasium's default), the step after a hand ends is an autoreset step whose action
the table ignores; the loop keeps it out of the loss (its mask allows only action 0).
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import tricksim  # noqa: F401  (registers the tricksim/... ids)
from tricksim.envs import GYM_IDS


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bluke", choices=sorted(GYM_IDS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--total-steps", type=int, default=300_000, help="learner decisions over all tables")
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--num-steps", type=int, default=64, help="steps per table per rollout")
    parser.add_argument("--autoreset-mode", default="SameStep", choices=["SameStep", "NextStep"])
    parser.add_argument("--learning-rate", type=float, default=2.5e-4)
    parser.add_argument("--gamma", type=float, default=1.0, help="a hand is short: no discount")
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--minibatches", type=int, default=4)
    parser.add_argument("--update-epochs", type=int, default=4)
    parser.add_argument("--clip-coef", type=float, default=0.2)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--vf-coef", type=float, default=0.5)
    parser.add_argument("--max-grad-norm", type=float, default=0.5)
    parser.add_argument("--reward-scale", type=float, default=0.1, help="rewards are scores times this")
    parser.add_argument("--eval-hands", type=int, default=4096)
    return parser.parse_args(argv)


class Agent(nn.Module):
    """An actor and a critic, two hidden layers of 64 each."""

    def __init__(self, observations: int, actions: int):
        super().__init__()

        def mlp(out: int, std: float) -> nn.Sequential:
            layers = [nn.Linear(observations, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, out)]
            for layer in layers[::2]:
                nn.init.orthogonal_(layer.weight, np.sqrt(2) if layer is not layers[-1] else std)
                nn.init.zeros_(layer.bias)
            return nn.Sequential(*layers)

        self.critic = mlp(1, 1.0)
        self.actor = mlp(actions, 0.01)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs).squeeze(-1)

    def policy(self, obs: torch.Tensor, mask: torch.Tensor) -> Categorical:
        """The action distribution over the legal actions only (``mask``, booleans)."""
        return Categorical(logits=self.actor(obs).masked_fill(~mask, -1e8))


def evaluate(agent: Agent | None, args, seed: int) -> float:
    """The learner's mean score over ``args.eval_hands`` hands of ``seed``: greedy, or uniformly
    random among the legal actions where ``agent`` is None."""
    envs = gymnasium.make_vec(GYM_IDS[args.game], num_envs=args.num_envs, opponents="random",
                              autoreset_mode="SameStep")
    obs, info = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, hands = 0.0, np.zeros(args.num_envs, dtype=np.int64)
    per_table = -(-args.eval_hands // args.num_envs)
    while (hands < per_table).any():
        mask = info["action_mask"].astype(bool)
        if agent is None:
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        else:
            with torch.no_grad():
                logits = agent.actor(torch.as_tensor(obs, dtype=torch.float32))
                actions = logits.masked_fill(~torch.as_tensor(mask), -1e8).argmax(-1).numpy()
        obs, rewards, terminated, _, info = envs.step(actions)
        counted = terminated & (hands < per_table)
        total += rewards[counted].sum()
        hands += counted
    return total / hands.sum()


def train(args) -> Agent:
    torch.manual_seed(args.seed)
    envs = gymnasium.make_vec(GYM_IDS[args.game], num_envs=args.num_envs, opponents="random",
                              autoreset_mode=args.autoreset_mode)
    n, steps = args.num_envs, args.num_steps
    obs_size, actions = envs.single_observation_space.shape[0], envs.single_action_space.n
    agent = Agent(obs_size, actions)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    buf_obs = torch.zeros((steps, n, obs_size))
    buf_masks = torch.zeros((steps, n, actions), dtype=torch.bool)
    buf_actions, buf_logprobs = torch.zeros((steps, n)), torch.zeros((steps, n))
    buf_rewards, buf_values = torch.zeros((steps, n)), torch.zeros((steps, n))
    buf_dones, buf_live = torch.zeros((steps, n)), torch.ones((steps, n))

    obs, info = envs.reset(seed=args.seed)
    next_obs = torch.as_tensor(obs, dtype=torch.float32)
    next_mask = torch.as_tensor(info["action_mask"].astype(bool))
    next_done = torch.zeros(n)
    autoreset = np.zeros(n, dtype=bool)  # NextStep: the tables whose next step is an autoreset step
    updates = max(1, args.total_steps // (n * steps))
    started, hands, scores = time.time(), 0, 0.0
    for update in range(updates):
        for t in range(steps):
            buf_obs[t], buf_masks[t], buf_dones[t] = next_obs, next_mask, next_done
            buf_live[t] = torch.as_tensor(~autoreset, dtype=torch.float32)
            with torch.no_grad():
                dist = agent.policy(next_obs, next_mask)
                action = dist.sample()
                buf_logprobs[t], buf_values[t] = dist.log_prob(action), agent.value(next_obs)
            buf_actions[t] = action
            obs, rewards, terminated, truncated, info = envs.step(action.numpy())
            done = terminated | truncated
            buf_rewards[t] = torch.as_tensor(rewards * args.reward_scale, dtype=torch.float32)
            hands += int(done.sum())
            scores += float(rewards[done].sum())
            if args.autoreset_mode == "NextStep":
                autoreset = done
            next_obs = torch.as_tensor(obs, dtype=torch.float32)
            next_mask = torch.as_tensor(info["action_mask"].astype(bool))
            next_done = torch.as_tensor(done, dtype=torch.float32)

        with torch.no_grad():  # generalised advantage estimation, cut at each hand's end
            advantages = torch.zeros((steps, n))
            last = torch.zeros(n)
            next_value = agent.value(next_obs)
            for t in reversed(range(steps)):
                not_done = 1.0 - (next_done if t == steps - 1 else buf_dones[t + 1])
                following = next_value if t == steps - 1 else buf_values[t + 1]
                delta = buf_rewards[t] + args.gamma * following * not_done - buf_values[t]
                last = delta + args.gamma * args.gae_lambda * not_done * last
                advantages[t] = last
            returns = advantages + buf_values

        b_obs, b_masks = buf_obs.reshape(-1, obs_size), buf_masks.reshape(-1, actions)
        b_actions, b_logprobs = buf_actions.reshape(-1), buf_logprobs.reshape(-1)
        b_advantages, b_returns, b_live = advantages.reshape(-1), returns.reshape(-1), buf_live.reshape(-1)
        order = np.arange(n * steps)
        size = n * steps // args.minibatches
        for _ in range(args.update_epochs):
            np.random.default_rng(update).shuffle(order)
            for start in range(0, n * steps, size):
                i = torch.as_tensor(order[start:start + size])
                live = b_live[i]
                dist = agent.policy(b_obs[i], b_masks[i])
                ratio = (dist.log_prob(b_actions[i]) - b_logprobs[i]).exp()
                adv = b_advantages[i]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef))
                value_loss = 0.5 * (agent.value(b_obs[i]) - b_returns[i]) ** 2
                entropy = dist.entropy()
                loss = ((policy_loss + args.vf_coef * value_loss - args.ent_coef * entropy) * live).sum() / live.sum()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        if hands:
            print(f"update {update + 1}/{updates}: {(update + 1) * n * steps} steps, {hands} hands, "
                  f"mean score {scores / hands:.2f}, {time.time() - started:.0f} s", flush=True)
        hands, scores = 0, 0.0
    envs.close()
    return agent


def main(argv=None) -> dict:
    args = parse_args(argv)
    torch.set_num_threads(1)
    agent = train(args)
    trained, random = evaluate(agent, args, seed=args.seed + 1000), evaluate(None, args, seed=args.seed + 1000)
    print(f"{args.game}, seat 0 against random opponents over {args.eval_hands} hands: trained {trained:.2f} "
          f"a hand, random {random:.2f}")
    return {"trained": trained, "random": random}


if __name__ == "__main__":
    main()
