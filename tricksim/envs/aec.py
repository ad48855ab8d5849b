"""The PettingZoo AEC environment of a game: every seat is an agent.

Agents are ``player_0 … player_{n-1}`` (seat numbers). The action space is the flat
``Discrete(NUM_ACTIONS)`` of every game (``tricksim.sim.actions``: pick, bid, hold, trump,
bury, discard, call and card actions, each game using its subset). An observation is
``{"observation": int8 vector, "action_mask": int8 vector}``: what that seat may know
(``sim/obs_<game>.py``), and the legal actions when it is the seat to act (all zero otherwise);
``infos[agent]["action_mask"]`` holds the same mask.

Rewards are the hand's scores (the team's in team games), by default (``reward_at="hand_end"``)
for every seat at once on the step that ends the hand, PettingZoo's norm: each agent reads its
own at its next ``last()``. A learner that takes its reward from the transition of its own move
(Tianshou's multi-agent policies) then sees it only on the hands that end on its move (about one
in the number of seats) unless its n-step horizon spans a whole hand (``n_step`` at least the
decisions of a hand: 10 or more). ``reward_at="last_move"`` credits each seat instead on the
step of its own last move of the hand, the first one after which the rest of the hand is forced
(every other seat holds one card), so the reward lands in that seat's own transition; each seat
still collects exactly its score per hand.

``episode="hand"`` (the default) plays one hand an episode: ``reset(seed=s)`` deals hand 0 of
``s``, each later ``reset()`` the next hand, as ``simulate`` deals them. ``episode="match"`` plays
a whole match under the game's end rule, with the match totals in the observation; a match the
game's ``max_hands`` option cuts off ends in ``truncations`` rather than ``terminations``.

>>> from tricksim.envs import sheepshead_v0
>>> env = sheepshead_v0.env()
>>> env.reset(seed=7)
>>> env.agent_selection, env.unwrapped.table.game.name
('player_1', 'sheepshead')

Only the turn-based parallel view (``parallel_env()``, PettingZoo's ``turn_based_aec_to_parallel``)
is valid: the seats act one at a time, so ``metadata["is_parallelizable"]`` is False and
PettingZoo's ``aec_to_parallel`` refuses the environment. The wrapped ``env()`` ends the game on
an illegal action with ``illegal_reward`` for its player (default: below every hand's score of the
game under its options, ``table.illegal_reward_of``). ``render_mode="ansi"``: ``render()``
returns the table as the seat to act sees it; ``"human"`` prints it at every reset and step.
An environment pickles and unpickles to one in the same state.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from ..errors import IllegalActionError
from ..sim.actions import NUM_ACTIONS, action_label
from ..spec import make_game
from .observation import observation_space
from .table import RENDER_FPS, RENDER_MODES, Table, action_id, check_render_mode, illegal_reward_of

REWARD_AT = ("hand_end", "last_move")


class TricksimAEC(AECEnv):
    """The raw AEC environment of ``game`` (a name); ``options`` are its options (docs/rules.md)."""

    metadata = {"render_modes": RENDER_MODES, "render_fps": RENDER_FPS, "is_parallelizable": False}

    def __init__(self, game: str, render_mode: str | None = None, episode: str = "hand",
                 reward_at: str = "hand_end", illegal_reward: float | None = None, **options):
        super().__init__()
        check_render_mode(render_mode)
        if reward_at not in REWARD_AT:
            raise ValueError(f"reward_at = {reward_at!r} is not allowed; choose one of {', '.join(REWARD_AT)}")
        self.table = Table(make_game(game, **options), episode)
        self.reward_at = reward_at
        self.illegal_reward = illegal_reward_of(self.table.game, illegal_reward)
        self.metadata = dict(self.metadata, name=f"{game}_v0")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(self.table.game.players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = spaces.Dict({
            "observation": observation_space(self.table.layout),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
        })
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._seed: int | None = None
        self._episode = 0
        self._mask = Table.new_mask()
        self._no_mask = Table.new_mask()
        self._no_mask.flags.writeable = False

    def __setstate__(self, state: dict) -> None:
        vars(self).update(state)
        self._no_mask.flags.writeable = False  # (pickle keeps the values, not the flag)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed, self._episode = int(seed), 0
        elif self._seed is None:
            self._seed, self._episode = int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> 1), 0
        else:
            self._episode += 1
        self.table.start(self._seed, self._episode)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._scored = False  # whether self.rewards holds a hand's scores
        self._credited = [0] * len(self.agents)  # what reward_at="last_move" paid each seat of this hand
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"action_mask": self._no_mask} for a in self.agents}
        self._select(self.table.to_act)
        self._show()

    def _select(self, seat: int) -> None:
        """Make ``seat`` the agent to act, with a fresh mask in its infos."""
        self.agent_selection = self.possible_agents[seat]
        self._mask = self.table.mask.copy()
        self.infos[self.agent_selection] = {"action_mask": self._mask}

    def observe(self, agent: str) -> dict:
        mask = self._mask if agent == self.agent_selection else self._no_mask
        return {"observation": self.table.observe(self._seat[agent], self.table.new_observation()),
                "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a, seat = action_id(action), self._seat[agent]
        if not (0 <= a < NUM_ACTIONS and self._mask[a]):
            legal = ", ".join(action_label(x) for x in np.flatnonzero(self._mask))
            raise IllegalActionError(f"{a!r} is not legal for {agent}; legal: {legal}")
        self._cumulative_rewards[agent] = 0
        self.infos[agent] = {"action_mask": self._no_mask}
        scores = self.table.apply(a)
        settled = self.table.settled_scores(seat) if scores is None and self.reward_at == "last_move" else None
        if scores is not None:  # what the hand owes each seat beyond what it was credited
            self.rewards = {name: x - paid for name, x, paid in zip(self.agents, scores, self._credited)}
            self._credited = [0] * len(self.agents)
        elif self._scored:
            self.rewards = dict.fromkeys(self.agents, 0)
        if settled is not None:
            self.rewards[agent] = self._credited[seat] = settled[seat]
        self._scored = scores is not None or settled is not None
        if self.table.is_over():
            if self.table.truncated:  # cut off at max_hands deals
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                self.terminations = dict.fromkeys(self.agents, True)
            self._mask = self._no_mask
        else:
            self._select(self.table.to_act)
        if self._scored:  # rewards come only with a hand's end (or a seat's last move)
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as the seat to act sees it (``"ansi"``), or printed (``"human"``)."""
        if self.render_mode == "human":
            print(self.table.render())
            return None
        return None if self.render_mode is None else self.table.render()

    def _show(self) -> None:
        if self.render_mode == "human":
            self.render()

    def close(self) -> None:
        pass


def wrap(env: TricksimAEC) -> AECEnv:
    """PettingZoo's classic wrappers: an illegal action ends the game with the environment's
    ``illegal_reward`` for its player, and actions out of range or steps out of order are errors."""
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=env.illegal_reward)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def constructors(game: str):
    """``(env, raw_env, parallel_env)`` of ``game``, as a PettingZoo classic module offers them:
    ``raw_env(**options)`` is the bare environment, ``env`` wraps it, ``parallel_env`` is the
    turn-based parallel view of ``env``."""

    def raw_env(**options) -> TricksimAEC:
        return TricksimAEC(game, **options)

    def env(**options) -> AECEnv:
        return wrap(raw_env(**options))

    def parallel_env(**options):
        return turn_based_aec_to_parallel(env(**options))

    return env, raw_env, parallel_env
