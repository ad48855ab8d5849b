"""Many tables of one game as one Gymnasium ``VectorEnv``, stepped inside numba.

>>> import gymnasium, numpy as np, tricksim
>>> envs = gymnasium.make_vec("tricksim/Bluke-v0", num_envs=64, opponents="random")
>>> obs, info = envs.reset(seed=0)
>>> actions = envs.action_masks().argmax(axis=1)     # each table's first legal action
>>> obs, rewards, terminated, truncated, info = envs.step(actions)
>>> obs.shape[0], envs.action_masks().shape
(64, (64, 334))

Each table is the single-seat environment of ``tricksim.envs.single`` (the learner in ``seat``,
agents in the others, one hand an episode), and table ``i`` plays hands ``i, i + n, i + 2n …``
of the seed, so the results do not depend on how the tables are stepped. A table whose hand
ended is dealt its next hand on the following step, whose action it ignores (gymnasium's
next-step autoreset). ``action_masks()`` gives each table's legal actions.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..sim.actions import NUM_ACTIONS
from ..sim.kernels import new_rng
from ..spec import make_game
from . import engine
from .single import opponent_arrays
from ..sim.observation import observation_layout
from .observation import observation_space
from .table import ILLEGAL_REWARD


class SeatVectorEnv(VectorEnv):
    """``num_envs`` tables of ``game``, the learner in ``seat`` of each, against ``opponents``."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, game: str = "sheepshead", seat: int = 0, opponents="random",
                 illegal_reward: float = ILLEGAL_REWARD, **options):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs = {num_envs!r} is not allowed; it must be a whole number >= 1")
        if options.pop("episode", "hand") != "hand":
            raise ValueError("the vector environment plays one hand an episode (episode='hand')")
        self.game = make_game(game, **options)
        self.family = self.game.family
        self.kernels = engine.kernels(self.family)
        self.seat = int(seat)
        self.kinds, self.params = opponent_arrays(self.game, self.seat, opponents)
        self.illegal_reward = float(illegal_reward)
        self.num_envs = int(num_envs)
        layout = observation_layout(self.game)
        self.single_observation_space = observation_space(layout)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        n = self.num_envs
        self._states = np.zeros((n, self.game.kernels.STATE_SIZE), dtype=np.int64)
        self._obs = np.zeros((n, layout.size), dtype=np.int8)
        self._masks = np.zeros((n, NUM_ACTIONS), dtype=np.int8)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._done = np.zeros(n, dtype=np.bool_)
        self._hands = np.zeros(n, dtype=np.int64)
        self._rngs = np.stack([new_rng() for _ in range(n)])
        self._deal_rng = new_rng()
        self._seed: int | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)  # without a seed, a new one from the generator seeded last time
        self._seed = int(seed) if seed is not None else int(self.np_random.integers(2**63 - 1))
        self.kernels.vector_reset(self.family, self._states, self.seat, self.kinds, self.params,
                                  self.game.players, self.game.option_array, self._seed, self._hands, self._rngs,
                                  self._deal_rng, self._done, self._obs, self._masks)
        return self._obs.copy(), {}

    def step(self, actions):
        if self._seed is None:
            raise RuntimeError("call reset() before step()")
        given = np.asarray(actions)
        if given.shape != (self.num_envs,) or given.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.num_envs} whole numbers, one a table; got {given.dtype} "
                             f"of shape {given.shape}")
        self.kernels.vector_step(self.family, self._states, np.ascontiguousarray(given, dtype=np.int64), self.seat,
                                 self.kinds, self.params, self.game.players, self.game.option_array, self._seed,
                                 self._hands, self._rngs, self._deal_rng, self._done, self.illegal_reward,
                                 self._obs, self._masks, self._rewards, self._terminated)
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return self._obs.copy(), self._rewards.copy(), self._terminated.copy(), truncated, {}

    def action_masks(self) -> np.ndarray:
        """Each table's legal actions now, as booleans (all False on a table about to be dealt)."""
        return self._masks.astype(bool)
