"""One seat as a Gymnasium environment: the learner plays ``seat``, agents play the others.

>>> import gymnasium, tricksim
>>> env = gymnasium.make("tricksim/Sheepshead-v0", seat=0, opponents="heuristic")
>>> obs, info = env.reset(seed=1)
>>> action = int(info["action_mask"].argmax())       # the first legal action
>>> obs, reward, terminated, truncated, info = env.step(action)

The observation is the seat's int8 vector of ``sim/obs_<game>.py``; the action space is the flat
``Discrete(NUM_ACTIONS)``. ``action_masks()`` (and ``info["action_mask"]``) gives the legal
actions, as sb3-contrib's MaskablePPO expects. The reward is the seat's score when a hand ends.
With ``episode="match"``, a match that the game's ``max_hands`` option cuts off ends with
``truncated=True`` (``terminated=False``); a match ended by the game's rule is terminated.
An illegal action changes nothing and ends the episode with ``illegal_reward`` and
``info["illegal_action"] = True``; its default, -100 (Bluke: 10 below its lowest hand score,
-140 with 2 to 4 players), is below every hand's score under the game's options
(``table.illegal_reward_of``).

``render_mode="ansi"``: ``render()`` returns the table as the learner sees it; ``"human"`` prints
it at every reset and step. The environment pickles (for a worker process) and unpickles to one
in the same state.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from ..agents import seat_agents, seat_arrays
from ..sim.actions import NUM_ACTIONS
from ..sim.kernels import new_rng, seed_stream
from ..spec import make_game
from .observation import observation_space
from .table import RENDER_FPS, RENDER_MODES, Table, action_id, check_render_mode, illegal_reward_of


def opponent_arrays(game, seat: int, opponents) -> tuple[np.ndarray, np.ndarray]:
    """``(kinds, params)`` of the agents in every seat but ``seat``: ``opponents`` is one agent
    for all (``"random"``, ``"heuristic"``, ``"heuristic:pick_threshold=5"``) or a list with one
    per seat (the learner's entry is ignored)."""
    if not 0 <= int(seat) < game.players:
        raise ValueError(f"{game.name}: seat {seat!r} is not a seat (0..{game.players - 1})")
    seated, _ = seat_agents(game.name, opponents, game.players)
    for other, a in enumerate(seated):
        if other != int(seat) and a.name not in ("random", "heuristic"):
            raise ValueError(f"{game.name}: opponent {a}: the environments seat random or heuristic opponents")
    return seat_arrays(game.name, seated)


class SeatEnv(gymnasium.Env):
    """``game`` from ``seat``'s chair against ``opponents``; ``options`` are the game's
    options (docs/rules.md); ``episode`` is ``"hand"`` or ``"match"`` (see ``tricksim.envs.aec``)."""

    metadata = {"render_modes": RENDER_MODES, "render_fps": RENDER_FPS}

    def __init__(self, game: str = "sheepshead", seat: int = 0, opponents="heuristic", episode: str = "hand",
                 illegal_reward: float | None = None, render_mode: str | None = None, **options):
        check_render_mode(render_mode)
        self.table = Table(make_game(game, **options), episode)
        self.seat = int(seat)
        self.kinds, self.params = opponent_arrays(self.table.game, self.seat, opponents)
        self.illegal_reward = illegal_reward_of(self.table.game, illegal_reward)
        self.render_mode = render_mode
        self.observation_space = observation_space(self.table.layout)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._seed: int | None = None
        self._episode = 0
        self._rng = new_rng()  # the opponents' stream

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._seed, self._episode = int(seed), 0
        elif self._seed is None:
            self._seed, self._episode = int(self.np_random.integers(2**63 - 1)), 0
        else:
            self._episode += 1
        self.table.start(self._seed, self._episode)
        seed_stream(self._rng, self._seed, self._episode, 1)
        self._play_others()
        self._show()
        return self._observation(), self._info()

    def step(self, action):
        a = action_id(action)
        if self.table.is_over():
            raise RuntimeError("the episode is over: call reset()")
        if not (0 <= a < NUM_ACTIONS and self.table.mask[a]):
            return self._observation(), self.illegal_reward, True, False, dict(self._info(), illegal_action=True)
        reward = self._apply(a) + self._play_others()
        self._show()
        truncated = self.table.truncated  # a match cut off at max_hands deals
        return self._observation(), float(reward), self.table.is_over() and not truncated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans over the action space."""
        return self.table.mask.astype(bool)

    def render(self) -> str | None:
        """The table as the learner sees it (``"ansi"``), or printed (``"human"``)."""
        if self.render_mode == "human":
            print(self.table.render(self.seat))
            return None
        return None if self.render_mode is None else self.table.render(self.seat)

    def _show(self) -> None:
        if self.render_mode == "human":
            self.render()

    def _apply(self, action: int) -> int:
        scores = self.table.apply(action)
        return 0 if scores is None else scores[self.seat]

    def _play_others(self) -> int:
        """The other seats act until the learner's turn; returns the learner's scores meanwhile."""
        table, reward = self.table, 0
        while not table.is_over() and table.to_act != self.seat:
            p = table.to_act
            reward += self._apply(table.kernels.choose(table.family, table.array, self.kinds[p], self.params[p],
                                                       self._rng))
        return reward

    def _observation(self) -> np.ndarray:
        return self.table.observe(self.seat, self.table.new_observation())

    def _info(self) -> dict:
        return {"action_mask": self.table.mask.copy()}
