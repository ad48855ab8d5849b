"""Self-play through the PettingZoo environment: one seat learns, the others play a frozen copy.

``SelfPlayEnv`` is a Gymnasium environment over the game's PettingZoo AEC environment
(``tricksim.envs``). The learner sits in ``seat``; every other seat acts by sampling from the
snapshot policy set with ``set_opponent`` (a network's weights, ``tricksim.agents.net``), which
the trainer refreshes from the learner as it improves, or by the heuristic agent
(``set_opponent("heuristic")``, for a league). The learner's reward is its seat's reward from the
AEC environment, summed over the other seats' moves until its next turn; at a hand's end the info
says whether the learner ``won`` it (scored more than the other seats' mean).

>>> import numpy as np
>>> from tricksim.sim.actions import NUM_ACTIONS
>>> env = SelfPlayEnv("bluke")
>>> env.set_opponent([np.zeros((env.observation_space.shape[0], NUM_ACTIONS))], [np.zeros(NUM_ACTIONS)])
>>> obs, info = env.reset(seed=3)
>>> obs, reward, terminated, truncated, info = env.step(int(env.action_masks().argmax()))
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from ..agents import seat_agents, seat_arrays
from ..agents.family import compiled_choose
from ..agents.net import logits
from ..envs.aec import constructors
from ..sim.actions import NUM_ACTIONS
from ..sim.kernels import new_rng, seed_stream


class SelfPlayEnv(gymnasium.Env):
    """Seat ``seat`` of ``game`` (a name) with ``options``; the others play ``set_opponent``'s policy."""

    def __init__(self, game: str, seat: int = 0, **options):
        env, _, _ = constructors(game)
        self.aec = env(**options)
        self.learner = f"player_{int(seat)}"
        if self.learner not in self.aec.possible_agents:
            raise ValueError(f"{game}: seat {seat!r} is not a seat (0..{len(self.aec.possible_agents) - 1})")
        space = self.aec.observation_space(self.learner)
        self.observation_space = space["observation"]
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.opponent: tuple[list, list] | str | None = None
        self._rng = np.random.default_rng()
        self._heuristic_rng = new_rng()
        game = self.aec.unwrapped.table.game
        self._heuristic_kinds, self._heuristic_params = seat_arrays(game.name, seat_agents(game.name, "heuristic", 1)[0])
        self._observation: dict = {}

    def set_opponent(self, weights, biases=None) -> None:
        """The policy the other seats play from now on: a network (weights of shape (inputs,
        outputs), biases), or ``"heuristic"``, the heuristic agent."""
        if isinstance(weights, str):
            if weights != "heuristic":
                raise ValueError(f"opponent {weights!r}: a network's weights and biases, or 'heuristic'")
            self.opponent = "heuristic"
            return
        self.opponent = ([np.asarray(w, np.float64) for w in weights], [np.asarray(b, np.float64) for b in biases])

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng([seed, 1])
            seed_stream(self._heuristic_rng, seed, 0, 2)
        self.aec.reset(seed=seed)
        self._play_others()
        return self._observation["observation"], {"action_mask": self.action_masks()}

    def step(self, action):
        self.aec.step(int(action))
        done = self._play_others()
        reward = self.aec.rewards[self.learner] if done else 0  # a hand's scores come when it ends
        # a match cut off at max_hands deals (an illegal action sets both flags: that terminates)
        truncated = bool(self.aec.truncations[self.learner] and not self.aec.terminations[self.learner])
        info = {"action_mask": self.action_masks()}
        if done:
            others = [r for agent, r in self.aec.rewards.items() if agent != self.learner]
            info["won"] = bool(reward > np.mean(others))
        return self._observation["observation"], float(reward), done and not truncated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as booleans (sb3-contrib's MaskablePPO reads them)."""
        return self._observation["action_mask"].astype(bool)

    def _play_others(self) -> bool:
        """The other seats act until the learner's turn or the hand's end; returns whether it ended."""
        if self.opponent is None:
            raise RuntimeError("no opponent policy: call set_opponent first")
        aec = self.aec
        while True:
            done = aec.terminations[self.learner] or aec.truncations[self.learner]
            if done or aec.agent_selection == self.learner:
                self._observation = aec.observe(self.learner)
                return done
            if self.opponent == "heuristic":
                aec.step(self._heuristic())
            else:
                aec.step(self._sample(aec.observe(aec.agent_selection)))

    def _heuristic(self) -> int:
        """The heuristic agent's action for the seat to act."""
        table = self.aec.unwrapped.table
        return int(compiled_choose(table.family)(table.family, table.array, self._heuristic_kinds[0],
                                                 self._heuristic_params[0], self._heuristic_rng))

    def _sample(self, observation: dict) -> int:
        """An action drawn from the opponent policy's distribution over the legal actions."""
        mask = observation["action_mask"].astype(bool)
        z = logits(*self.opponent, observation["observation"])[mask]
        p = np.exp(z - z.max())
        return int(np.flatnonzero(mask)[self._rng.choice(len(p), p=p / p.sum())])
