"""Many tables of one game as one Gymnasium ``VectorEnv``, stepped inside numba.

>>> import gymnasium, numpy as np, tricksim
>>> envs = gymnasium.make_vec("tricksim/Bluke-v0", num_envs=64, opponents="random")
>>> obs, info = envs.reset(seed=0)
>>> actions = info["action_mask"].argmax(axis=1)     # each table's first legal action
>>> obs, rewards, terminated, truncated, info = envs.step(actions)
>>> obs.shape[0], info["action_mask"].shape, envs.unwrapped.action_masks().dtype
(64, (64, 334), dtype('bool'))

Each table is the single-seat environment of ``tricksim.envs.single`` (the learner in ``seat``,
agents in the others, one hand an episode), and table ``i`` plays hands ``i, i + n, i + 2n …``
of the seed, so the results do not depend on how the tables are stepped. Every ``reset`` and
``step`` gives each table's legal actions as ``info["action_mask"]`` (int8, one row a table;
``action_masks()`` gives them as booleans), and every row allows at least one action, so a
masked softmax never divides by zero. A table whose hand ends is dealt its next one, as chosen
by ``autoreset_mode`` (``gymnasium.vector.AutoresetMode`` or its value):

* ``"NextStep"`` (the default, Gymnasium's): the step that ends the hand returns its last
  observation, its reward and ``terminated``; the table's mask then allows only action 0, and the
  next step deals the next hand, ignores the table's action and returns reward 0, not terminated.
  A learner should drop that autoreset step's transition (or let the one-action mask make it
  a choice it learns nothing from).
* ``"SameStep"``: the step that ends the hand returns its reward and ``terminated`` with the
  next hand's first observation and mask; the ended hand's last observation is in
  ``info["final_obs"]`` (rows where ``info["_final_obs"]``).

``call``, ``get_attr`` and ``set_attr`` answer as ``SyncVectorEnv``'s, a tuple with one entry a
table: ``call("action_masks")`` each table's mask; the other attributes (``seat``,
``illegal_reward`` …) are shared by every table. Gymnasium's vector wrappers forward neither
methods nor attributes: through them, read ``info["action_mask"]`` (or call
``envs.unwrapped.action_masks()``). ``render()`` shows table 0 as its learner sees
it (``render_mode="ansi"``; ``"human"`` prints it at every reset and step). The environment
pickles and unpickles to one in the same state.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..sim.actions import NUM_ACTIONS
from ..sim.kernels import new_rng
from ..sim.observation import observation_layout
from ..spec import make_game
from . import engine
from .observation import observation_space
from .single import opponent_arrays
from .table import RENDER_FPS, RENDER_MODES, check_render_mode, illegal_reward_of, table_text

AUTORESET_MODES = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)


def autoreset_mode_of(mode) -> AutoresetMode:
    """``mode`` (an ``AutoresetMode`` or its value) as an ``AutoresetMode`` the tables support."""
    for supported in AUTORESET_MODES:
        if mode is supported or mode == supported.value:
            return supported
    raise ValueError(f"autoreset_mode = {mode!r} is not allowed; choose "
                     + " or ".join(repr(m.value) for m in AUTORESET_MODES))


class SeatVectorEnv(VectorEnv):
    """``num_envs`` tables of ``game``, the learner in ``seat`` of each, against ``opponents``."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": RENDER_MODES, "render_fps": RENDER_FPS}

    def __init__(self, num_envs: int = 1, game: str = "sheepshead", seat: int = 0, opponents="random",
                 illegal_reward: float | None = None, render_mode: str | None = None,
                 autoreset_mode=AutoresetMode.NEXT_STEP, **options):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs = {num_envs!r} is not allowed; it must be a whole number >= 1")
        if options.pop("episode", "hand") != "hand":
            raise ValueError("the vector environment plays one hand an episode (episode='hand')")
        check_render_mode(render_mode)
        self.autoreset_mode = autoreset_mode_of(autoreset_mode)
        self.metadata = dict(self.metadata, autoreset_mode=self.autoreset_mode)
        self.render_mode = render_mode
        self.game = make_game(game, **options)
        self.family = self.game.family
        self.kernels = engine.kernels(self.family)
        self.seat = int(seat)
        self.kinds, self.params = opponent_arrays(self.game, self.seat, opponents)
        self.illegal_reward = illegal_reward_of(self.game, illegal_reward)
        self.num_envs = int(num_envs)
        self._layout = observation_layout(self.game)
        self.single_observation_space = observation_space(self._layout)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        n = self.num_envs
        self._states = np.zeros((n, self.game.kernels.STATE_SIZE), dtype=np.int64)
        self._masks = np.zeros((n, NUM_ACTIONS), dtype=np.int8)  # the last step's, handed out as they are
        self._done = np.zeros(n, dtype=np.bool_)
        self._hands = np.zeros(n, dtype=np.int64)
        self._rngs = np.stack([new_rng() for _ in range(n)])
        self._deal_rng = new_rng()
        self._seed: int | None = None

    def __getstate__(self) -> dict:
        # compiled code and the layout's readers do not pickle: rebuilt from the game
        return {k: v for k, v in vars(self).items() if k not in ("kernels", "_layout")}

    def __setstate__(self, state: dict) -> None:
        vars(self).update(state)
        self.kernels = engine.kernels(self.family)
        self._layout = observation_layout(self.game)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)  # without a seed, a new one from the generator seeded last time
        self._seed = int(seed) if seed is not None else int(self.np_random.integers(2**63 - 1))
        obs, self._masks = self._new_obs(), self._new_masks()
        self.kernels.vector_reset(self.family, self._states, self.seat, self.kinds, self.params,
                                  self.game.players, self.game.option_array, self._seed, self._hands, self._rngs,
                                  self._deal_rng, self._done, obs, self._masks)
        self._show()
        return obs, self._info()

    def step(self, actions):
        if self._seed is None:
            raise RuntimeError("call reset() before step()")
        given = np.asarray(actions)
        if given.shape != (self.num_envs,) or given.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.num_envs} whole numbers, one a table; got {given.dtype} "
                             f"of shape {given.shape}")
        same_step = self.autoreset_mode is AutoresetMode.SAME_STEP
        # fresh arrays each step, handed to the caller without a copy
        obs, self._masks = self._new_obs(), self._new_masks()
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=np.bool_)
        final_obs = self._new_obs() if same_step else obs[:0]
        self.kernels.vector_step(self.family, self._states, np.ascontiguousarray(given, dtype=np.int64), self.seat,
                                 self.kinds, self.params, self.game.players, self.game.option_array, self._seed,
                                 self._hands, self._rngs, self._deal_rng, self._done, self.illegal_reward, same_step,
                                 obs, self._masks, rewards, terminated, final_obs)
        info = self._info()
        if same_step and terminated.any():
            info.update(final_obs=final_obs, _final_obs=terminated.copy(), final_info={}, _final_info=terminated.copy())
        self._show()
        return obs, rewards, terminated, np.zeros(self.num_envs, dtype=np.bool_), info

    def action_masks(self) -> np.ndarray:
        """Each table's legal actions now, as booleans (only action 0 on a table about to be dealt
        anew by a next-step autoreset)."""
        return self._masks.astype(bool)

    def call(self, name: str, *args, **kwargs) -> tuple:
        """Attribute or method ``name`` of every table, one entry a table: each table's own mask for
        ``"action_masks"``; any other is shared by the tables (called once where it is a method)."""
        if name == "action_masks":
            return tuple(self.action_masks())
        value = getattr(self, name)
        return (value(*args, **kwargs) if callable(value) else value,) * self.num_envs

    def get_attr(self, name: str) -> tuple:
        """Attribute ``name`` of every table (``call``)."""
        return self.call(name)

    def set_attr(self, name: str, values) -> None:
        """Set attribute ``name`` of every table: one value, or a list or tuple of one a table. The
        tables share their attributes, so the values must be equal; ValueError otherwise."""
        if not isinstance(values, (list, tuple)):
            values = [values] * self.num_envs
        if len(values) != self.num_envs or any(v != values[0] for v in values):
            raise ValueError(f"set_attr({name!r}): give one value, or {self.num_envs} equal values (the tables "
                             "share their attributes)")
        if not hasattr(self, name):
            raise AttributeError(f"the vector environment has no attribute {name!r}")
        setattr(self, name, float(values[0]) if name == "illegal_reward" else values[0])

    def render(self) -> str | None:
        """Table 0 as its learner sees it (``"ansi"``), or printed (``"human"``)."""
        if self.render_mode is None or self._seed is None:
            return None
        text = table_text(self.game, self._states[0], self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _show(self) -> None:
        if self.render_mode == "human":
            self.render()

    def _info(self) -> dict:
        return {"action_mask": self._masks, "_action_mask": np.ones(self.num_envs, dtype=np.bool_)}

    def _new_obs(self) -> np.ndarray:
        return np.empty((self.num_envs, self._layout.size), dtype=np.int8)

    def _new_masks(self) -> np.ndarray:
        return np.empty((self.num_envs, NUM_ACTIONS), dtype=np.int8)
