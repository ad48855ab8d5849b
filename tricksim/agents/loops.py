"""The batch loops of random and heuristic seats, written once for every game over ``agents.family``.

``play_random_hands`` plays every seat at random (simulate's default agents); ``play_hands`` seats a
random or a heuristic agent in each seat. Hand ``first + i`` is dealt from ``(seed, first + i)``
with dealer ``(first + i) % players`` (the game's ``deal``), and its agents draw from their own
stream of ``(seed, first + i)``, so a row depends neither on the threads nor on how a run is cut.

Each loop is compiled per family, the family a numba constant (``literally``), and Python calls it
through an entry point compiled for that constant (``compiled_random``, ``compiled_heuristic``).
What keeps them fast:

* a parallel loop over blocks of ``BLOCK`` hands, each a call of a non-parallel block function (a
  dispatcher per family): numba's parallel passes then skip the rules and agents inlined in the
  block (they took more than half of the compile); the block index goes in as ``np.int64`` (else
  the block compiles twice);
* the scratch (the state, the hands as dealt, the random streams) made once a block and borrowed
  (``borrow``, ``borrow_rng``, the parameter table through its pointer), so that the code inlined
  below counts no references;
* the game's rules and agent compiled into the block (``family.inlined``), not called.
"""

from __future__ import annotations

from functools import cache

import numba as nb
import numpy as np
from numba import literally, types
from numba.extending import overload

from ..sim.kernels import RNG_SIZE, _as_pointer, borrow, borrow_rng, seed_stream
from . import family as generic
from .kinds import HEURISTIC

BLOCK = 1024  # hands per parallel task: the scratch is made once a block
MAX_SEATS = 16  # room for the hands as dealt


@nb.njit(cache=True, parallel=True)
def random_loop(family, seed, first, players, options, out):
    """Play hands ``first .. first + len(out) - 1`` of ``seed`` with random seats, a row each
    (the game's ``RECORD``)."""
    literally(family)
    count = out.shape[0]
    for b in nb.prange((count + BLOCK - 1) // BLOCK):
        random_block(family, np.int64(b), seed, first, players, options, out)


def random_block(family, b, seed, first, players, options, out):
    """Block ``b`` of ``random_loop``."""


@overload(random_block, prefer_literal=True)
def _random_block(family, b, seed, first, players, options, out):
    block = _random_block_of(generic.literal_family(family))
    return lambda family, b, seed, first, players, options, out: block(family, b, seed, first, players, options, out)


@cache
def _random_block_of(family_number):
    """``random_block`` for ``family_number``, a dispatcher of its own: numba compiles an overload's
    implementation once for each caller's compile flags (the loop and its parallel worker: twice,
    the first run's compile doubled), a dispatcher once."""
    family = types.literal(family_number)
    state_size, deal, to_act, random_step, record_rules = generic.inlined(
        family, generic.state_size, generic.deal, generic.to_act, generic.random_step, generic.record_rules)

    def impl(family, b, seed, first, players, options, out):
        count = out.shape[0]
        scratch = np.empty(state_size(family), np.int64)
        rngs = np.empty(2 * RNG_SIZE, np.uint64)
        s = borrow(scratch)
        deal_rng = borrow_rng(rngs)[:RNG_SIZE]
        agent_rng = borrow_rng(rngs)[RNG_SIZE:]
        for i in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            number = first + i
            deal(family, s, seed, number, players, options, deal_rng)
            seed_stream(agent_rng, seed, number, 1)
            while to_act(family, s) >= 0:
                random_step(family, s, agent_rng)
            record_rules(family, s, out, i)

    return nb.njit(impl)


@nb.njit(cache=True, parallel=True)
def heuristic_loop(family, seed, first, players, options, kinds, params, out):
    """``random_loop`` with an agent per seat: ``kinds[seat]`` is ``kinds.RANDOM`` or ``HEURISTIC``,
    ``params[seat]`` that seat's parameter array; a row is the game's ``RECORD``, then its agent's
    ``FEATURES``."""
    literally(family)
    count = out.shape[0]
    for b in nb.prange((count + BLOCK - 1) // BLOCK):
        heuristic_block(family, np.int64(b), seed, first, players, options, kinds, params, out)


def heuristic_block(family, b, seed, first, players, options, kinds, params, out):
    """Block ``b`` of ``heuristic_loop``."""


@overload(heuristic_block, prefer_literal=True)
def _heuristic_block(family, b, seed, first, players, options, kinds, params, out):
    block = _heuristic_block_of(generic.literal_family(family))

    def impl(family, b, seed, first, players, options, kinds, params, out):
        block(family, b, seed, first, players, options, kinds, params, out)

    return impl


@cache
def _heuristic_block_of(family_number):
    """``heuristic_block`` for ``family_number``, a dispatcher of its own (see ``_random_block_of``)."""
    family = types.literal(family_number)
    state_size, deal, hand, to_act, heuristic, step, random_step, record = generic.inlined(
        family, generic.state_size, generic.deal, generic.hand, generic.to_act, generic.heuristic_borrowed,
        generic.step, generic.random_step, generic.record)

    def impl(family, b, seed, first, players, options, kinds, params, out):
        count = out.shape[0]
        size = state_size(family)
        scratch = np.zeros(size + MAX_SEATS, np.int64)  # the seats past ``players`` stay empty
        rngs = np.empty(2 * RNG_SIZE, np.uint64)
        # borrowed, without a reshape (whose error message compiles numba's string formatting)
        table = nb.carray(_as_pointer(params.ctypes.data), (params.shape[0], params.shape[1]), np.float64)
        s = borrow(scratch)[:size]
        dealt = borrow(scratch)[size:]  # the hands as dealt
        deal_rng = borrow_rng(rngs)[:RNG_SIZE]
        agent_rng = borrow_rng(rngs)[RNG_SIZE:]
        for i in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            number = first + i
            deal(family, s, seed, number, players, options, deal_rng)
            for p in range(players):
                dealt[p] = hand(family, s, p)
            seed_stream(agent_rng, seed, number, 1)
            while to_act(family, s) >= 0:
                seat = to_act(family, s)
                if kinds[seat] == HEURISTIC:
                    step(family, s, heuristic(family, s, table[seat], agent_rng))  # a row of the borrowed table
                else:
                    random_step(family, s, agent_rng)
            record(family, s, dealt, out, i)

    return nb.njit(impl)


_VECTOR, _TABLE = types.int64[::1], types.int64[:, ::1]


@cache
def compiled_random(family: int):
    """``random_loop`` compiled for ``family``'s constant."""
    return random_loop.compile((types.literal(family), types.int64, types.int64, types.int64, _VECTOR, _TABLE))


@cache
def compiled_heuristic(family: int):
    """``heuristic_loop`` compiled for ``family``'s constant."""
    return heuristic_loop.compile((types.literal(family), types.int64, types.int64, types.int64, _VECTOR, _VECTOR,
                                   types.float64[:, ::1], _TABLE))


def play_random_hands(game, seed: int, first: int, out: np.ndarray) -> None:
    """Play hands ``first .. first + len(out) - 1`` of ``game`` (a Game) from ``seed`` with every
    seat random, a row each into ``out`` (C-contiguous int64, the game's ``RECORD`` columns)."""
    compiled_random(game.family)(game.family, seed, first, game.players, game.option_array, out)


def play_hands(game, seed: int, first: int, kinds: np.ndarray, params: np.ndarray, out: np.ndarray) -> None:
    """``play_random_hands`` with ``kinds[seat]`` (``kinds.RANDOM`` or ``HEURISTIC``, int64) in each
    seat, ``params[seat]`` its heuristic's parameters (float64, a C-contiguous row a seat); ``out``'s
    columns the game's ``RECORD``, then its agent's ``FEATURES``."""
    compiled_heuristic(game.family)(game.family, seed, first, game.players, game.option_array, kinds, params, out)
