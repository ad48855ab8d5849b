"""The numba vector environment (``envs.vector``) as a Stable-Baselines3 ``VecEnv``: many tables
stepped in one call, one forward pass of the policy for all of them.

Stable-Baselines3 steps a ``DummyVecEnv`` one Gymnasium environment at a time in Python; here every
table of one seat against random or heuristic opponents steps inside numba (``vector_step``), the
learner's actions for all tables coming from one batched forward pass. Semantics are SB3's: a
table whose hand ends is dealt its next hand at once, the ended hand's last observation in
``info["terminal_observation"]``, its score (before ``reward_scale``) and length in
``info["episode"]`` (as SB3's ``Monitor`` gives them, for the training curve's mean reward).
With ``full_deal`` each observation ends with every seat's hand (``rl.critic``), for a critic
that sees the deal.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnv

from ..envs.vector import SeatVectorEnv
from .critic import CARD_BITS, deal_bits


class TablesVecEnv(VecEnv):
    """``tables`` tables of ``game`` (a name), the learner in ``seat`` against ``opponents``; rewards
    divided by ``reward_scale``; the deals of ``seed``; with ``full_deal``, the hands appended."""

    def __init__(self, game: str, tables: int, opponents="heuristic", seat: int = 0, reward_scale: float = 1.0,
                 seed: int = 0, full_deal: bool = False, **options):
        self.tables = SeatVectorEnv(tables, game, seat=seat, opponents=opponents,
                                    autoreset_mode=AutoresetMode.SAME_STEP, **options)
        self.seen = self.tables.single_observation_space.shape[0]  # the seat's own observation
        self.deal_columns = self.tables.game.players * CARD_BITS if full_deal else 0
        space = self.tables.single_observation_space
        if full_deal:
            zeros = np.zeros(self.deal_columns, space.dtype)
            space = spaces.Box(np.concatenate([space.low, zeros]), np.concatenate([space.high, zeros + 1]),
                               dtype=space.dtype)
        super().__init__(tables, space, self.tables.single_action_space)
        self.reward_scale = float(reward_scale)
        self._seed = int(seed)
        self._returns = np.zeros(tables)
        self._lengths = np.zeros(tables, dtype=np.int64)
        self._actions = np.zeros(tables, dtype=np.int64)

    def seed(self, seed=None) -> list:
        """The deals of the next ``reset`` (SB3 seeds a resumed run's environments this way)."""
        if seed is not None:
            self._seed = int(seed)
        return [self._seed] * self.num_envs

    def reset(self):
        obs, _ = self.tables.reset(seed=self._seed)
        self._seed += 1  # a later reset deals other hands
        self._returns[:] = 0
        self._lengths[:] = 0
        return self._with_deal(obs)

    def step_async(self, actions) -> None:
        self._actions = np.asarray(actions, dtype=np.int64)

    def step_wait(self):
        obs, rewards, terminated, _, info = self.tables.step(self._actions)
        self._returns += rewards
        self._lengths += 1
        infos = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(terminated):
            final = np.zeros(self.seen + self.deal_columns, np.int8)  # the hands are empty at the end
            final[:self.seen] = info["final_obs"][i]
            infos[i] = {"terminal_observation": final, "TimeLimit.truncated": False,
                        "episode": {"r": float(self._returns[i]), "l": int(self._lengths[i]), "t": 0.0}}
            self._returns[i] = 0
            self._lengths[i] = 0
        return self._with_deal(obs), rewards / self.reward_scale, terminated, infos

    def _with_deal(self, obs: np.ndarray) -> np.ndarray:
        """The observations, with every seat's hand after them when the critic sees the deal."""
        if not self.deal_columns:
            return obs
        deal = np.zeros((self.num_envs, self.deal_columns), np.int8)
        t = self.tables
        deal_bits(t._states, t.game.kernels.HANDS, t.seat, t.game.players, deal)
        return np.concatenate([obs, deal], axis=1)

    def action_masks(self) -> np.ndarray:
        return self.tables.action_masks()

    def env_method(self, method_name: str, *args, indices=None, **kwargs) -> list:
        if method_name == "action_masks":
            return list(self.action_masks()[self._indices(indices)])
        value = getattr(self.tables, method_name)(*args, **kwargs)  # the tables share it: called once
        return [value for _ in self._indices(indices)]

    def get_attr(self, attr_name: str, indices=None) -> list:
        return [getattr(self.tables, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        self.tables.set_attr(attr_name, value)

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def close(self) -> None:
        self.tables.close()

    def _indices(self, indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        return [indices] if isinstance(indices, int) else list(indices)
