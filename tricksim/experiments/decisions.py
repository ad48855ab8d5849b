"""The raw rows of a decision study: at every pick or bid decision of many deals, each legal
action taken in turn.

Each deal is played by the agents. At every decision of the hand's first phase (Sheepshead's
picking round; the bidding of the other games), the seat to act is made to take each legal action
in turn, and the hand is played out from there by the agents, every action with the same random
stream (common random numbers: the outcomes differ by the action and what follows from it alone).
The hand then goes on with the action the seat's own agent takes, to the next decision. So every
seat the auction reaches under the agents' own play is studied, in the position it holds.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import pandas as pd
from numba import literally, types

from ..agents import agent_module, seat_agents, seat_arrays, uses_search
from ..agents.family import FAMILY, deal, hand, legal, phase, record, score, state_size, step, to_act
from ..agents.solver import MAX_MOVES, write_actions
from ..errors import OptionError
from ..envs.engine import choose
from ..sim import actions as A
from ..sim.kernels import RNG_SIZE, seed_stream

# the columns a decision writes before the game's record: the hand, the decision's index in it,
# the seat, the action, the seat's cards, the seat's score at the end
HAND, DECISION, SEAT, ACTION, CARDS, SCORE, COLUMNS = range(7)
CHUNK = 50_000  # deals played at a time (their rows in memory at once)
ROWS_PER_DECISION = 8  # the first guess of rows a seat's decision takes (more are made room for)


@nb.njit(cache=True)
def decision_rows(family, seed, first, count, players, options, kinds, params, out, records):
    """Write the rows of hands ``first .. first + count - 1``: ``out`` the decision's columns,
    ``records`` the finished hand's (the game's RECORD and the agent's FEATURES). Returns the
    number of rows, or -1 if ``out`` has too few."""
    literally(family)
    size = state_size(family)
    s, fork, dealt = np.empty(size, np.int64), np.empty(size, np.int64), np.empty(size, np.int64)
    rng = np.zeros(RNG_SIZE, np.uint64)  # the hand's own play
    fork_rng = np.zeros(RNG_SIZE, np.uint64)  # each action's playout
    deal_rng = np.zeros(RNG_SIZE, np.uint64)
    actions = np.empty(MAX_MOVES, np.int64)
    n = 0
    for i in range(count):
        number = first + i
        deal(family, s, seed, number, players, options, deal_rng)
        dealt[:] = s
        seed_stream(rng, seed, number, 1)
        d = 0
        while to_act(family, s) >= 0 and phase(family, s) == 0:
            seat = to_act(family, s)
            words, cards, kind = legal(family, s)
            k = write_actions(words, cards, kind, actions)
            if n + k > out.shape[0]:
                return -1
            for j in range(k):
                fork[:] = s
                step(family, fork, actions[j])
                seed_stream(fork_rng, seed, number, 2 + d)  # the same stream for every action
                while to_act(family, fork) >= 0:
                    p = to_act(family, fork)
                    step(family, fork, choose(family, fork, kinds[p], params[p], fork_rng))
                out[n, HAND], out[n, DECISION], out[n, SEAT] = number, d, seat
                out[n, ACTION], out[n, CARDS] = actions[j], hand(family, s, seat)
                out[n, SCORE] = score(family, fork, seat)
                record(family, fork, dealt, records, n)
                n += 1
            step(family, s, choose(family, s, kinds[seat], params[seat], rng))
            d += 1
    return n


def decision_frame(game, hands: int, seed: int = 0, agents="heuristic") -> pd.DataFrame:
    """The rows of a decision study of ``hands`` deals of ``game`` (a Game) from ``seed``, the
    rest of each hand played by ``agents`` (random or heuristic, as in ``simulate``): one row per
    decision and legal action, with ``hand``, ``decision`` (its index in the hand), ``seat``,
    ``position`` (from the dealer: 0 the dealer, 1 eldest, …), ``action`` (its label), ``cards``
    (the seat's hand mask at the decision) and ``score`` (the seat's score at the end), then the
    finished hand's columns as ``simulate`` gives them."""
    from ..sim.batch import check_run

    check_run(hands, seed)
    seated, _ = seat_agents(game.name, agents, game.players)
    if uses_search(seated):
        raise OptionError("a decision study plays the rest of each hand with random or heuristic agents")
    kinds, params = seat_arrays(game.name, seated)
    family = FAMILY[game.name]
    features = agent_module(game.name).FEATURES
    kernel = decision_rows.compile((types.literal(family), types.int64, types.int64, types.int64, types.int64,
                                    types.int64[::1], types.int64[::1], types.float64[:, ::1],
                                    types.int64[:, ::1], types.int64[:, ::1]))
    firsts = list(range(0, hands, CHUNK)) or [0]  # no deals: one empty chunk gives the columns
    df = pd.concat([_chunk(game, kernel, family, seed, first, min(CHUNK, hands - first), kinds, params, features)
                    for first in firsts], ignore_index=True)
    df["action"] = df["action"].astype("category")
    return df


def _labels(actions: np.ndarray) -> np.ndarray:
    """The labels of the action ids ``actions`` (each distinct id labelled once)."""
    ids, inverse = np.unique(actions, return_inverse=True)
    return np.array([A.action_label(int(a)) for a in ids], dtype=object)[inverse]


def _chunk(game, kernel, family, seed, first, count, kinds, params, features) -> pd.DataFrame:
    """The rows of hands ``first .. first + count - 1``."""
    record_names = game.kernels.RECORD
    room = max(1, count * game.players * ROWS_PER_DECISION)
    while True:  # play again with twice the room when the rows do not fit
        out = np.empty((room, COLUMNS), np.int64)
        records = np.empty((room, len(record_names) + len(features)), np.int64)
        n = kernel(family, seed, first, count, game.players, game.option_array, kinds, params, out, records)
        if n >= 0:
            break
        room *= 2
    rows = out[:n]
    df = game.frame(records[:n, :len(record_names)], seed, 0)
    df["hand"] = rows[:, HAND]
    for k, name in enumerate(features):
        df[name] = records[:n, len(record_names) + k].astype(np.int8)
    study = pd.DataFrame({
        "decision": rows[:, DECISION].astype(np.int8),
        "seat": rows[:, SEAT].astype(np.int8),
        "position": ((rows[:, SEAT] - df["dealer"].to_numpy()) % game.players).astype(np.int8),
        "action": _labels(rows[:, ACTION]),
        "cards": rows[:, CARDS],
        "score": rows[:, SCORE].astype(np.int16),
    })
    at = df.columns.get_loc("hand") + 1
    return pd.concat([df.iloc[:, :at], study, df.iloc[:, at:]], axis=1)
