"""The raw rows of a decision study: at every pick or bid decision of many deals, each legal
action taken in turn.

Each deal is played by the agents. At every decision of the hand's first phase (Sheepshead's
picking round; the bidding of the other games), the seat to act is made to take each legal action
in turn, and the hand is played out from there by the agents, every action with the same random
stream (common random numbers: the outcomes differ by the action and what follows from it alone).
The hand then goes on with the action the seat's own agent takes, to the next decision. So every
seat the auction reaches under the agents' own play is studied, in the position it holds.

The deals are played in chunks of ``CHUNK``; a chunk's rows depend on the study and the chunk's
deals alone, so the rows are the same played in memory, streamed to a Parquet file (``decision_file``:
a part per chunk in a folder beside it, as ``simulate`` writes its hands, resumed after a stop), or
played on a Dask distributed cluster (``dask``: each chunk a task whose rows come back to this
process, so the machines share no disk).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numba as nb
import numpy as np
import pandas as pd
from numba import literally, types
from numba.core.errors import TypingError
from numba.extending import overload

from ..agents import agent_module, search_arrays, seat_agents, seat_arrays, uses_bots, uses_search
from ..agents.bot_table import MAX_SEATS, BotTable
from ..agents.bot_table import compiled_kernels as bot_kernels
from ..agents.family import compiled_choose
from ..cards import cards_of
from ..sim.kernels import new_rng
from ..agents.family import choose, deal, hand, legal, phase, record, score, state_size, step, to_act
from ..agents.kinds import ISMCTS, NET, PIMC
from ..agents.search import compile_ahead, decide
from ..agents.solver import MAX_MOVES, workspace, write_actions
from ..errors import OptionError
from ..sim import actions as A
from ..sim.batch import (SEARCH_CHUNK, Run, check_out, file_run, make_run, progress_bar, stream_file,
                         write_part)
from ..sim.cluster import check_dask, dask_client, play_chunks
from ..sim.kernels import RNG_SIZE, seed_stream

# the columns a decision writes before the game's record: the hand, the decision's index in it,
# the seat, the action, whether it is the one the seat's agent took, the seat's cards, the seat's
# score at the end
HAND, DECISION, SEAT, ACTION, OWN, CARDS, SCORE, COLUMNS = range(8)
ROWS_VERSION = 2  # the layout of the rows (2: with ``own``); a study's parts and file name it
CHUNK = 50_000  # deals played at a time (their rows in memory at once)
ROWS_PER_DECISION = 8  # the first guess of rows a seat's decision takes (more are made room for)


@nb.njit(cache=True)
def decision_rows(family, searching, seed, first, count, players, options, kinds, params, search, hparams, out,
                  records):
    """Write the rows of hands ``first .. first + count - 1``: ``out`` the decision's columns,
    ``records`` the finished hand's (the game's RECORD and the agent's FEATURES). Each seat's agent
    is ``kinds[seat]`` with ``params[seat]`` (the heuristic's) and ``search[seat]`` (PIMC's or
    ISMCTS's); ``hparams`` the heuristic's defaults, that order the search. ``searching`` (a
    constant: each value compiles apart) whether any seat searches; without, the search is compiled
    out and the loop runs twice as fast. Returns the number of rows, or -1 if ``out`` has too few."""
    literally(family)
    literally(searching)
    size = state_size(family)
    ws = workspace(size, hparams)
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
            # the agent's own action (its own random stream: the playouts do not touch it)
            own = _move(searching, family, s, kinds[seat], params[seat], search[seat], hparams, rng, ws)
            for j in range(k):
                fork[:] = s
                step(family, fork, actions[j])
                seed_stream(fork_rng, seed, number, 2 + d)  # the same stream for every action
                while to_act(family, fork) >= 0:
                    p = to_act(family, fork)
                    step(family, fork, _move(searching, family, fork, kinds[p], params[p], search[p], hparams,
                                             fork_rng, ws))
                out[n, HAND], out[n, DECISION], out[n, SEAT] = number, d, seat
                out[n, ACTION], out[n, OWN], out[n, CARDS] = actions[j], actions[j] == own, hand(family, s, seat)
                out[n, SCORE] = score(family, fork, seat)
                record(family, fork, dealt, records, n)
                n += 1
            step(family, s, own)
            d += 1
    return n


def _move(searching, family, s, kind, params, search, hparams, rng, ws):
    """The action of the seat to act at ``s`` (``_act``); ``searching`` a constant: when False only
    the random and heuristic agents are compiled in (a plain ``if`` would still type the search)."""


@overload(_move, prefer_literal=True)
def _move_overload(searching, family, s, kind, params, search, hparams, rng, ws):
    if not isinstance(searching, types.BooleanLiteral):
        raise TypingError("searching must be a compile-time constant (numba.literally)")
    if searching.literal_value:
        return lambda searching, family, s, kind, params, search, hparams, rng, ws: _act(
            family, s, kind, params, search, hparams, rng, ws)
    return lambda searching, family, s, kind, params, search, hparams, rng, ws: choose(family, s, kind, params, rng)


@nb.njit(cache=True, inline="always")
def _act(family, s, kind, params, search, hparams, rng, ws):
    """The action of the seat to act at ``s``: its agent is ``kind``, a search agent (PIMC, ISMCTS),
    a policy network, or random or heuristic."""
    if kind == PIMC or kind == ISMCTS or kind == NET:
        return decide(family, s, kind, search, hparams, rng, ws)
    return choose(family, s, kind, params, rng)


@dataclass(frozen=True)
class Study:
    """Everything a study's rows depend on (the run: game, options, deals, seed, agents) and the
    chunks they are played in, which its parts follow."""

    run: Run
    chunk: int

    def describe(self) -> str:
        return json.dumps({"decisions": asdict(self.run), "chunk": self.chunk, "rows": ROWS_VERSION}, sort_keys=True)


def make_study(game, hands: int, seed: int = 0, agents="heuristic") -> Study:
    """The Study of ``hands`` deals of ``game`` (a Game) from ``seed``, the hands played out by
    ``agents`` (any: a search agent's deals are played in chunks of ``SEARCH_CHUNK``), checked:
    OptionError before any play."""
    run = make_run(game, hands, seed, agents)
    return Study(run, SEARCH_CHUNK if uses_search(seat_agents(game.name, list(run.agents), game.players)[0]) else CHUNK)


def chunks(study: Study) -> list[tuple[int, int, int]]:
    """(index, first deal, count) of each chunk of ``study`` (one deal or more: ``check_run``)."""
    hands, size = study.run.hands, study.chunk
    return [(k, first, min(size, hands - first)) for k, first in enumerate(range(0, hands, size))]


def decision_frame(game, hands: int, seed: int = 0, agents="heuristic", dask=None,
                   progress: bool = True) -> pd.DataFrame:
    """The rows of a decision study of ``hands`` deals of ``game`` (a Game) from ``seed``, the
    rest of each hand played by ``agents`` (as in ``simulate``, search agents too): one row per
    decision and legal action, with ``hand``, ``decision`` (its index in the hand), ``seat``,
    ``position`` (from the dealer: 0 the dealer, 1 eldest, …), ``action`` (its label), ``own`` (True
    for the action the seat's agent took, with which the hand went on), ``cards``
    (the seat's hand mask at the decision) and ``score`` (the seat's score at the end), then the
    finished hand's columns as ``simulate`` gives them. ``dask``: play the chunks on a Dask
    cluster (``dask_client``); ``progress``: a progress bar in a terminal."""
    study = make_study(game, hands, seed, agents)
    check_dask(dask)
    todo = chunks(study)
    counts = {k: count for k, _, count in todo}
    frames = {}
    bar = progress_bar(hands, 0, f"{game.name} study", " deals") if progress else None
    with dask_client(dask) as client:
        for k, rows in play_chunks(play_chunk, study, todo, client):
            frames[k] = rows
            if bar is not None:
                bar.update(counts[k])
    if bar is not None:
        bar.close()
    return join_rows([frames[k] for k in sorted(frames)])


def join_rows(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """The rows of chunks (or of a file's row groups) joined, in order: the labels of ``action``
    one category, sorted."""
    df = pd.concat(frames, ignore_index=True)
    if "action" in df.columns:
        action = df["action"]
        if isinstance(action.dtype, pd.CategoricalDtype):
            df["action"] = action.cat.set_categories(sorted(action.cat.categories))
        else:
            df["action"] = action.astype("category")
    return df


def read_rows(path, columns=None) -> pd.DataFrame:
    """The rows of a study from its Parquet file (``decision_file``), or only ``columns``: the
    same frame as ``decision_frame`` gives."""
    return join_rows([pd.read_parquet(path, columns=columns)])


def decision_file(study: Study, out, dask=None, progress: bool = True, overwrite: bool = False) -> Path:
    """Write the rows of ``study`` to the Parquet file ``out`` chunk by chunk, each chunk's rows
    as a part in the folder beside it (``rows.parquet`` → ``rows.parts/``, with the study in its
    ``run.json``) as soon as they are played, then joined into ``out``. Run again with the same
    study, it keeps the parts it finds and plays only the missing ones; a complete ``out`` of this
    study plays nothing; a file or the parts of another study are an OptionError, unless
    ``overwrite`` (``batch.check_out``). Returns ``out``."""
    out = Path(out)
    description = study.describe()
    parts = out.with_suffix(".parts")
    check_dask(dask)
    if file_run(out) == description:
        return out  # this very study is complete: no cluster to start
    check_out(out, parts, description, "study", overwrite)  # before a cluster is started
    with dask_client(dask) as client:

        def play(missing, folder: Path):
            for k, rows in play_chunks(play_chunk, study, missing, client):
                write_part(rows, folder, k)
                yield k

        return stream_file(out, parts, description, chunks(study), play, what="study", progress=progress,
                           desc=f"{study.run.game} study", unit=" deals", overwrite=overwrite)


# --- playing the chunks: here or on a Dask cluster -------------------------------------


_players: dict[tuple, tuple] = {}


def play_chunk(study: Study, first: int, count: int) -> pd.DataFrame:
    """The rows of deals ``first .. first + count - 1`` of ``study``, ``action`` a category (this
    process compiles, or loads from numba's disk cache, the study's kernel once)."""
    run = study.run
    key = (run.game, json.dumps(run.options, sort_keys=True), run.agents)
    if key not in _players and uses_bots(seat_agents(run.game, list(run.agents), len(run.agents))[0]):
        game = run.make_game()
        seated, _ = seat_agents(game.name, list(run.agents), game.players)
        table = BotTable(game, seated, *seat_arrays(game.name, seated), run.seed)
        rows = _chunk(game, _bot_rows, (table,), run.seed, first, count, (), agent_module(game.name).FEATURES)
        rows["action"] = rows["action"].astype("category")
        return rows
    if key not in _players:
        game = run.make_game()
        seated, _ = seat_agents(game.name, list(run.agents), game.players)
        module = agent_module(game.name)
        agents = (*seat_arrays(game.name, seated), search_arrays(seated, game), module.DEFAULTS)
        family = game.family
        table, matrix = types.int64[:, ::1], types.float64[:, ::1]
        searching = uses_search(seated)
        if searching:  # the search agents first, their solver compiled on the other core meanwhile
            state = types.int64[::1]
            compile_ahead(family, here=[(choose, (types.literal(family), state, types.int64, types.float64[::1],
                                                  types.uint64[::1]))])
        kernel = decision_rows.compile((types.literal(family), types.literal(searching), types.int64, types.int64,
                                        types.int64, types.int64, types.int64[::1], types.int64[::1], matrix, matrix,
                                        types.float64[::1], table, table))
        _players[key] = (game, kernel, (family, searching), agents, module.FEATURES)
    game, kernel, literals, agents, features = _players[key]
    rows = _chunk(game, kernel, literals, run.seed, first, count, agents, features)
    rows["action"] = rows["action"].astype("category")
    return rows


def _bot_rows(table, seed, first, count, players, options, out, records) -> int:
    """``decision_rows`` for a table with a bot of the user's own (``agents.bot_table``), played
    from Python: the same deals, streams and rows."""
    game, family = table.game, table.family
    choose_now = compiled_choose(family)
    _, deal_into, record_into = bot_kernels(family)
    s, dealt = np.zeros(game.kernels.STATE_SIZE, np.int64), np.zeros(MAX_SEATS, np.int64)
    rng, fork_rng, deal_rng = new_rng(), new_rng(), new_rng()
    n = 0
    for i in range(count):
        number = first + i
        deal_into(family, s, seed, number, players, options, deal_rng, dealt)
        seed_stream(rng, seed, number, 1)
        d = 0
        while s[game.kernels.TO_ACT] >= 0 and s[game.kernels.PHASE] == 0:
            seat = int(s[game.kernels.TO_ACT])
            words, cards, kind = game.kernels.legal(s)
            actions = cards_of(int(words)) + [A.CARD_BASE + 54 * int(kind) + c for c in cards_of(int(cards))]
            if n + len(actions) > out.shape[0]:
                return -1
            if seat in table.bots or seat in table.searching:
                own = table.act(s, seat, number, d + 1)[0]
            else:
                own = int(choose_now(family, s, int(table.kinds[seat]), table.params[seat], rng))
            for a in actions:
                fork = s.copy()
                game.kernels.step(fork, a)
                seed_stream(fork_rng, seed, number, 2 + d)  # the same stream for every action
                table.play_out(fork, number, fork_rng, d + 1)
                out[n, HAND], out[n, DECISION], out[n, SEAT] = number, d, seat
                out[n, ACTION], out[n, OWN], out[n, CARDS] = a, a == own, s[game.kernels.HANDS + seat]
                out[n, SCORE] = fork[game.kernels.SCORES + seat]
                record_into(family, fork, dealt, records, n)
                n += 1
            game.kernels.step(s, own)
            d += 1
    return n


def _labels(actions: np.ndarray) -> np.ndarray:
    """The labels of the action ids ``actions`` (each distinct id labelled once)."""
    ids, inverse = np.unique(actions, return_inverse=True)
    return np.array([A.action_label(int(a)) for a in ids], dtype=object)[inverse]


def _chunk(game, kernel, literals, seed, first, count, agents, features) -> pd.DataFrame:
    """The rows of hands ``first .. first + count - 1``, played by ``agents`` (the kernel's kinds,
    params, search and hparams); ``literals`` the kernel's constants (family, searching)."""
    record_names = game.kernels.RECORD
    room = max(1, count * game.players * ROWS_PER_DECISION)
    while True:  # play again with twice the room when the rows do not fit
        out = np.empty((room, COLUMNS), np.int64)
        records = np.empty((room, len(record_names) + len(features)), np.int64)
        n = kernel(*literals, seed, first, count, game.players, game.option_array, *agents, out, records)
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
        "own": rows[:, OWN].astype(bool),
        "cards": rows[:, CARDS],
        "score": rows[:, SCORE].astype(np.int16),
    })
    at = df.columns.get_loc("hand") + 1
    return pd.concat([df.iloc[:, :at], study, df.iloc[:, at:]], axis=1)
