"""The environments' kernels, written once for every game over the generic calls of
``agents.family`` (``deal``, ``step``, ``heuristic`` …) and the observation encoders (``encode``).

Each kernel takes the game's family and is compiled for it as a constant (``literally``), so a
Bluke table never compiles Sheepshead's agent.

Python calls them through ``kernels(family)``: each kernel compiled, or loaded from numba's
cache, for that family's constant. (Called through its dispatcher with a plain int, a
``literally`` kernel takes numba's slow path every time: 10 ms a call.)

Hand ``k`` of an environment is dealt as hand ``k`` of ``simulate`` with the same seed: from
``(seed, k)``, dealer ``k % players`` (Bluke: match hand ``k % 25`` sets the size), and the
opponents draw from their own stream of ``(seed, k)``.
"""

from __future__ import annotations

from functools import cache, cached_property

import numba as nb
from numba import literally, types

from ..agents.family import act, compiled_choose, deal, legal, score, step, to_act
from ..sim.kernels import has, seed_stream
from ..sim.observation import encode
from .observation import encode_mask

__all__ = ["kernels", "AUTORESET_ACTION"]

AUTORESET_ACTION = 0  # the one action a table's mask allows on the step before it is dealt anew


# --- one table ----------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def _is_legal(family, s, action):
    words, cards, kind = legal(family, s)
    if 0 <= action < 64:
        return has(words, action)
    card = action - 64 - 54 * kind
    return 0 <= card < 54 and has(cards, card)


@nb.njit(cache=True, inline="always")
def _advance(family, s, seat, kinds, params, rng):
    """The other seats' agents act until ``seat`` is to act or the hand is over."""
    while True:
        p = to_act(family, s)
        if p < 0 or p == seat:
            return
        step(family, s, act(family, s, kinds[p], params[p], rng))


@nb.njit(cache=True, inline="always")
def _start_hand(family, s, seed, hand, players, options, seat, kinds, params, deal_rng, rng):
    deal(family, s, seed, hand, players, options, deal_rng)
    seed_stream(rng, seed, hand, 1)
    _advance(family, s, seat, kinds, params, rng)


@nb.njit(cache=True)
def deal_hand(family, s, seed, hand, players, options, rng):
    """Deal hand ``hand`` of ``seed`` into ``s``."""
    literally(family)
    deal(family, s, seed, hand, players, options, rng)


@nb.njit(cache=True)
def observe(family, s, seat, out):
    """Write what ``seat`` may know of ``s`` into ``out``."""
    literally(family)
    encode(family, s, seat, out)


@nb.njit(cache=True)
def play(family, s, action, out):
    """Apply the legal ``action`` and write the next seat's legal-action mask into ``out``."""
    literally(family)
    step(family, s, action)
    words, cards, kind = legal(family, s)
    encode_mask(words, cards, kind, out)


@nb.njit(cache=True)
def action_mask(family, s, out):
    """Write the legal-action mask of the seat to act into ``out`` (all zero once over)."""
    literally(family)
    words, cards, kind = legal(family, s)
    encode_mask(words, cards, kind, out)


# --- many tables --------------------------------------------------------------------


@nb.njit(cache=True)
def vector_reset(family, states, seat, kinds, params, players, options, seed, hands, rngs, deal_rng,
                 done, obs, masks):
    """Deal every table ``i`` its first hand (``hands[i] = i``) and play the others up to ``seat``;
    write the observations and masks."""
    literally(family)
    for i in range(states.shape[0]):
        hands[i] = i
        done[i] = False
        _start_hand(family, states[i], seed, i, players, options, seat, kinds, params, deal_rng, rngs[i])
        encode(family, states[i], seat, obs[i])
        words, cards, kind = legal(family, states[i])
        encode_mask(words, cards, kind, masks[i])


@nb.njit(cache=True)
def vector_step(family, states, actions, seat, kinds, params, players, options, seed, hands, rngs,
                deal_rng, done, illegal_reward, same_step, obs, masks, rewards, terminated, final_obs):
    """One step of many tables: each plays ``actions[i]`` and the other seats play up to
    ``seat``'s next decision; an illegal action changes nothing and ends the episode with
    ``illegal_reward``. Writes each table's observation, mask, reward and whether its episode
    ended. A table whose episode ends deals its next hand (``hands[i] += len(states)``):

    * next-step autoreset (``same_step`` false): on the following step, whose action it ignores;
      meanwhile its mask allows only ``AUTORESET_ACTION``;
    * same-step autoreset: at once, the ended episode's last observation in ``final_obs[i]``."""
    literally(family)
    n = states.shape[0]
    for i in range(n):
        s = states[i]
        rewards[i] = 0.0
        if done[i]:
            hands[i] += n
            _start_hand(family, s, seed, hands[i], players, options, seat, kinds, params, deal_rng, rngs[i])
            done[i] = False
        elif not _is_legal(family, s, actions[i]):
            rewards[i] = illegal_reward
            done[i] = True
        else:
            step(family, s, actions[i])
            _advance(family, s, seat, kinds, params, rngs[i])
            if to_act(family, s) < 0:
                rewards[i] = score(family, s, seat)
                done[i] = True
        terminated[i] = done[i]
        if done[i] and same_step:
            encode(family, s, seat, final_obs[i])
            hands[i] += n
            _start_hand(family, s, seed, hands[i], players, options, seat, kinds, params, deal_rng, rngs[i])
            done[i] = False
        encode(family, s, seat, obs[i])
        if done[i]:
            masks[i, :] = 0
            masks[i, AUTORESET_ACTION] = 1
        else:
            words, cards, kind = legal(family, s)
            encode_mask(words, cards, kind, masks[i])


# --- the compiled kernels of one family, for Python ----------------------------------

_STATE, _STATES = types.int64[::1], types.int64[:, ::1]
_OBS, _OBSES = types.int8[::1], types.int8[:, ::1]
_OPTIONS, _RNG, _RNGS = types.int64[::1], types.uint64[::1], types.uint64[:, ::1]
_KINDS, _PARAMS, _ROW = types.int64[::1], types.float64[:, ::1], types.float64[::1]
_FLAGS, _REWARDS = types.boolean[::1], types.float64[::1]


class Kernels:
    """The environment kernels of one family, compiled for its constant (arrays C-contiguous)."""

    def __init__(self, family: int):
        self.family = family

    def _compile(self, kernel, *arg_types):
        return kernel.compile((types.literal(self.family),) + arg_types)

    @cached_property
    def deal_hand(self):
        return self._compile(deal_hand, _STATE, types.int64, types.int64, types.int64, _OPTIONS, _RNG)

    @cached_property
    def observe(self):
        return self._compile(observe, _STATE, types.int64, _OBS)

    @cached_property
    def play(self):
        return self._compile(play, _STATE, types.int64, _OBS)

    @cached_property
    def action_mask(self):
        return self._compile(action_mask, _STATE, _OBS)

    @cached_property
    def choose(self):
        return compiled_choose(self.family)

    @cached_property
    def vector_reset(self):
        return self._compile(vector_reset, _STATES, types.int64, _KINDS, _PARAMS, types.int64, _OPTIONS,
                             types.int64, _KINDS, _RNGS, _RNG, _FLAGS, _OBSES, _OBSES)

    @cached_property
    def vector_step(self):
        return self._compile(vector_step, _STATES, _KINDS, types.int64, _KINDS, _PARAMS, types.int64, _OPTIONS,
                             types.int64, _KINDS, _RNGS, _RNG, _FLAGS, types.float64, types.boolean, _OBSES, _OBSES,
                             _REWARDS, _FLAGS, _OBSES)


@cache
def kernels(family: int) -> Kernels:
    return Kernels(family)
