"""The batch loop for tables with a search agent (PIMC, ISMCTS) or a policy network (``agents.net``)
in some seat.

Written once for every game over ``agents.family``, and compiled per family. Each hand draws the
agents' randomness from the stream of ``(seed, hand)``, as the heuristic loops do, so its row does
not depend on threads, workers or chunks (a ``time`` budget aside). A search agent's playouts use
its seat's heuristic parameters.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from functools import cache

import numba as nb
import numpy as np
from numba import literally, types

from ..errors import OptionError
from ..sim.actions import uniform_action
from ..sim.kernels import RNG_SIZE, new_rng, seed_stream
from ..spec import family_part
from . import Agent, agent_module, ismcts, net, pimc, search_arrays, solver
from .family import deal, hand, heuristic, legal, record, state_size, step, to_act
from .kinds import HEURISTIC, ISMCTS, KIND_NAMES, NET, PIMC
from .solver import MAX_DEPTH, MAX_MOVES, SCORE, TT_BITS, WORKSPACE, action_values, workspace

BLOCK = 4  # hands per task: the scratch (an 8 MB table) is made once a block
MAX_SEATS = 16


@nb.njit(cache=True, nogil=True)
def play_block(family, b, seed, first, players, options, kinds, params, search, hparams, out, nodes_size, tt_bits):
    """Play block ``b`` (``BLOCK`` hands) of hands ``first ..`` into ``out`` (one row each):
    ``kinds[seat]`` an agent kind, ``params[seat]`` the heuristic's parameters, ``search[seat]``
    PIMC's or ISMCTS's or the network; ``hparams``: the heuristic's defaults, that order the
    solver's search; ``nodes_size`` ISMCTS's tree (1 without it), ``tt_bits`` the solver's table
    (0 without PIMC)."""
    literally(family)
    count = out.shape[0]
    size = state_size(family)
    s = np.zeros(size, np.int64)
    world = np.zeros(size, np.int64)
    dealt = np.zeros(MAX_SEATS, np.int64)
    deal_rng = np.zeros(RNG_SIZE, np.uint64)
    rng = np.zeros(RNG_SIZE, np.uint64)
    actions = np.zeros(MAX_MOVES, np.int64)
    values = np.zeros(MAX_MOVES, np.int64)
    totals = np.zeros(MAX_MOVES, np.float64)
    ws = workspace(size, hparams, tt_bits)
    nodes = np.zeros((nodes_size, 6), np.int64)
    node_totals = np.zeros(nodes_size, np.float64)
    path = np.zeros(MAX_DEPTH + 1, np.int64)
    for i in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
        number = first + i
        deal(family, s, seed, number, players, options, deal_rng)
        for p in range(players):
            dealt[p] = hand(family, s, p)
        seed_stream(rng, seed, number, 1)
        while to_act(family, s) >= 0:
            seat = to_act(family, s)
            kind = kinds[seat]
            if kind == HEURISTIC:
                a = heuristic(family, s, params[seat], rng)
            elif kind == NET:
                a = net.act(family, s, search[seat])
            elif kind == PIMC:
                a = pimc.act(family, s, search[seat], params[seat], rng, world, actions, totals, values, ws)
            elif kind == ISMCTS:
                a = ismcts.act(family, s, search[seat], params[seat], rng, world, actions, nodes, node_totals,
                               path)
            else:
                words, cards, card_kind = legal(family, s)
                a = uniform_action(words, cards, card_kind, rng)
            step(family, s, a)
        record(family, s, dealt, out, i)


def compile_ahead(family: int, here=()) -> None:
    """On a cold cache, compile PIMC's solver on the other core while this process compiles the
    rest of what the search agents call, and ``here`` (a first Sheepshead run: 57 s to about 41)."""
    lit, state, i64 = types.literal(family), types.int64[::1], types.int64
    f64, u64, table = types.float64[::1], types.uint64[::1], types.int64[:, ::1]
    values = (lit, state, i64, types.literal(SCORE), WORKSPACE, state, state)  # as PIMC calls the solver
    solver.compile_ahead(family, away=[(action_values, values)],
                         here=[(family_part(family, "search").sample, (state, i64, u64, state)),
                               (net.act, (lit, state, f64)),
                               (ismcts.act, (lit, state, f64, f64, u64, state, state, table, f64, state)), *here])


@cache
def compiled_block(family: int):
    """``play_block`` compiled for ``family``'s constant."""
    compile_ahead(family)
    vec, table, f64, i64 = types.int64[::1], types.int64[:, ::1], types.float64[:, ::1], types.int64
    return play_block.compile((types.literal(family), i64, i64, i64, i64, vec, vec, f64, f64, types.float64[::1],
                               table, i64, i64))


def run_hands(game, seed: int, first: int, kinds, params, search, out) -> None:
    """Play hands ``first .. first + len(out) - 1`` of ``game`` (a Game) into ``out``, the blocks
    shared among numba's threads.

    The blocks run on Python threads (``play_block`` releases the GIL), not in a numba parallel
    loop, whose compile lowered the whole search below it once more (9.4 s of a first PIMC run in
    Sheepshead). A block of search hands takes milliseconds or more, so the threads' dispatch costs
    nothing measurable."""
    family = game.family
    play = compiled_block(family)
    seats = kinds[:game.players]
    nodes_size = ismcts.MAX_NODES if (seats == ISMCTS).any() else 1
    tt_bits = TT_BITS if (seats == PIMC).any() else 0  # only PIMC's solver uses the table (8 MB a block)
    hparams = agent_module(game.name).DEFAULTS

    def block(b):
        play(family, b, seed, first, game.players, game.option_array, kinds, params, search, hparams, out,
             nodes_size, tt_bits)

    blocks = range((len(out) + BLOCK - 1) // BLOCK)
    threads = min(nb.get_num_threads(), len(blocks))
    if threads <= 1:
        for b in blocks:
            block(b)
        return
    pool = ThreadPoolExecutor(threads)
    try:
        list(pool.map(block, blocks))
    finally:
        pool.shutdown(cancel_futures=True)  # after Ctrl-C, the blocks not begun are dropped


@nb.njit(cache=True, inline="always")  # inlined in the study's loop: one compile level less
def decide(family, s, kind, search_params, hparams, rng, ws):
    """The action of a PIMC or ISMCTS agent or a policy network (``kind``) for the seat to act at ``s``
    (``family`` a literal: ``compiled_decide``, or the caller's)."""
    if kind == NET:
        return net.act(family, s, search_params)
    size = state_size(family)
    world = np.zeros(size, np.int64)
    actions = np.zeros(MAX_MOVES, np.int64)
    if kind == PIMC:
        return pimc.act(family, s, search_params, hparams, rng, world, actions, np.zeros(MAX_MOVES, np.float64),
                        np.zeros(MAX_MOVES, np.int64), ws)
    nodes = np.zeros((ismcts.MAX_NODES, 6), np.int64)
    return ismcts.act(family, s, search_params, hparams, rng, world, actions, nodes,
                      np.zeros(ismcts.MAX_NODES, np.float64), np.zeros(MAX_DEPTH + 1, np.int64))


@cache
def compiled_decide(family: int):
    """``decide`` compiled for ``family``'s constant (the search agents' single decisions)."""
    compile_ahead(family)
    return decide.compile((types.literal(family), types.int64[::1], types.int64, types.float64[::1],
                           types.float64[::1], types.uint64[::1], WORKSPACE))


class Searcher:
    """One search agent of ``game`` (a Game) for Python callers: ``agent`` is ``"pimc..."`` or
    ``"ismcts..."`` with its parameters, or a policy network ``"net:file=..."``; ``act(state)``
    returns its action id for the seat to act.

    >>> import tricksim
    >>> state = tricksim.make_game("nesmear").new_hand(seed=2, dealer=0)
    >>> bot = Searcher(state.game, "ismcts:iters=50", seed=1)
    >>> bot.act(state) in state.legal_actions()
    True
    """

    def __init__(self, game, agent: str = "pimc", seed: int = 0):
        parsed = Agent.parse(agent)
        if parsed.name not in ("pimc", "ismcts", "net"):
            raise OptionError(f"agent {agent!r}: a search agent is pimc or ismcts (or a network, net:file=...)")
        self.game, self.agent = game, parsed
        self.family = game.family
        self.kind = KIND_NAMES.index(parsed.name)
        self.params = search_arrays([parsed], game)[0]
        self.hparams = agent_module(game.name).DEFAULTS
        self.rng = new_rng()
        seed_stream(self.rng, seed, 0, 2)
        self.ws = workspace(game.kernels.STATE_SIZE, self.hparams)

    def act(self, state) -> int:
        if state.is_terminal():
            raise ValueError("the hand is over: no action to choose")
        decide_now = compiled_decide(self.family)
        return int(decide_now(self.family, state.array, self.kind, self.params, self.hparams, self.rng, self.ws))
