"""A teacher's decisions, for imitation: every choice the teacher agents make over many deals,
with what the seat saw, kept as Parquet.

A *decision* is a seat to act with more than one legal action (a forced move teaches nothing):
its observation (the environments' int8 vector, ``tricksim.sim.observation``), its legal actions
(the mask over the flat action space, packed eight actions a byte as ``numpy.packbits`` does),
and the action the teacher took. Deal ``k`` is deal ``k`` of ``simulate`` with the same seed, and
the teachers draw from the same streams, so a random or heuristic teacher's decisions are those of
``simulate``'s hands, move for move.

Random and heuristic teachers play in a numba loop (NE Smear: 150,000 decisions a second with
the Parquet parts written, on a loaded machine); a search teacher (``pimc:worlds=20``,
``ismcts``, ``net:file=...``) or a mix (one agent per seat) plays hand by hand through
``Searcher``, its parts ``workers`` at a time in as many processes (the same decisions). A run writes ``decisions/part-NNNNN.parquet`` (``PART_HANDS`` deals each by
default, written whole or not at all) until it has the decisions asked for, and
``teacher.json`` (what made them): started again, it keeps the finished parts and plays the rest.

>>> import tricksim, tempfile
>>> d = teacher_decisions(tricksim.make_game("nesmear"), 1000, tempfile.mkdtemp(), part_hands=100)
>>> d.obs.shape[1] == tricksim.agents.net.net_inputs(tricksim.make_game("nesmear")), bool(d.legal(d.action).all())
(True, True)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numba as nb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from numba import literally, types

from ..agents import seat_agents, seat_arrays
from ..agents.family import act, deal, legal, state_size, step, to_act
from ..errors import OptionError
from ..sim.actions import CARD_BASE, NUM_ACTIONS
from ..sim.kernels import RNG_SIZE, lowest_card, new_rng, popcount, seed_stream
from ..sim.observation import encode

PART_HANDS = 5_000  # deals a part file holds
MAX_PER_HAND = 256  # more decisions than any hand of any game has (54 cards, the bids, the piles)
MASK_BYTES = (NUM_ACTIONS + 7) // 8
BUFFER = 32_768  # decisions the loop writes before Python takes them


FIELDS = ("obs", "mask", "action", "seat", "hand")  # the columns of ``Decisions``, in order


@dataclass
class Decisions:
    """Decisions as arrays, one row each: ``obs`` (int8), ``mask`` (packed legal actions, uint8),
    ``action``, ``seat`` and ``hand`` (the deal's number)."""

    obs: np.ndarray
    mask: np.ndarray
    action: np.ndarray
    seat: np.ndarray
    hand: np.ndarray

    def __len__(self) -> int:
        return len(self.action)

    def legal(self, actions: np.ndarray, rows=slice(None)) -> np.ndarray:
        """Whether each of ``actions`` is legal at its row (``rows`` of the decisions)."""
        bits = self.mask[rows][np.arange(len(actions)), actions >> 3]
        return (bits >> (7 - (actions & 7))) & 1 == 1

    def masks(self, rows) -> np.ndarray:
        """The legal actions of ``rows`` as booleans, one row of ``NUM_ACTIONS`` each."""
        return np.unpackbits(self.mask[rows], axis=1, count=NUM_ACTIONS).astype(bool)


@nb.njit(cache=True, inline="always")
def pack_legal(words, cards, kind, row):
    """The legal-action triple of ``legal`` packed into ``row`` (``numpy.packbits`` order)."""
    row[:] = 0
    while words:
        a = lowest_card(words)
        row[a >> 3] |= np.uint8(1 << (7 - (a & 7)))
        words &= words - 1
    base = CARD_BASE + 54 * kind
    while cards:
        a = base + lowest_card(cards)
        row[a >> 3] |= np.uint8(1 << (7 - (a & 7)))
        cards &= cards - 1


@nb.njit(cache=True)
def teacher_loop(family, seed, first, count, players, options, kinds, params, obs, mask, action, seat, hand):
    """Play deals ``first .. first + count - 1`` of ``seed`` with random or heuristic seats
    (``kinds``, ``params``) and write each decision with more than one legal action; stops before a
    deal that might not fit the rows left. Returns ``(decisions written, deals played)``."""
    literally(family)
    s = np.zeros(state_size(family), np.int64)
    deal_rng = np.zeros(RNG_SIZE, np.uint64)
    rng = np.zeros(RNG_SIZE, np.uint64)
    n = 0
    played = 0
    while played < count and n + MAX_PER_HAND <= obs.shape[0]:
        number = first + played
        deal(family, s, seed, number, players, options, deal_rng)
        seed_stream(rng, seed, number, 1)
        while True:
            p = to_act(family, s)
            if p < 0:
                break
            chosen = act(family, s, kinds[p], params[p], rng)
            words, cards, kind = legal(family, s)
            if popcount(words) + popcount(cards) > 1:
                encode(family, s, p, obs[n])
                pack_legal(words, cards, kind, mask[n])
                action[n], seat[n], hand[n] = chosen, p, number
                n += 1
            step(family, s, chosen)
        played += 1
    return n, played


@cache
def _compiled_loop(family: int):
    i64, vec = types.int64, types.int64[::1]
    return teacher_loop.compile((types.literal(family), i64, i64, i64, i64, vec, vec, types.float64[:, ::1],
                                 types.int8[:, ::1], types.uint8[:, ::1], vec, vec, vec))


def _empty(rows: int, size: int) -> Decisions:
    return Decisions(np.zeros((rows, size), np.int8), np.zeros((rows, MASK_BYTES), np.uint8),
                     *(np.zeros(rows, np.int64) for _ in range(3)))


def _concat(parts: list[Decisions], size: int) -> Decisions:
    if not parts:
        return _empty(0, size)
    return Decisions(*(np.concatenate([getattr(p, f) for p in parts]) for f in FIELDS))


def play_fast(game, seed: int, first: int, count: int, kinds, params) -> Decisions:
    """The decisions of deals ``first ..`` (``count``) by random or heuristic seats, in numba."""
    loop = _compiled_loop(game.family)
    size = _obs_size(game)
    options = game.option_array
    parts = []
    while count > 0:
        buffer = _empty(BUFFER, size)
        n, played = loop(game.family, seed, first, count, game.players, options, kinds, params,
                         buffer.obs, buffer.mask, buffer.action, buffer.seat, buffer.hand)
        parts.append(Decisions(*(getattr(buffer, f)[:n] for f in FIELDS)))
        first, count = first + played, count - played
    return _concat(parts, size)


def play_slow(game, seed: int, first: int, count: int, agents: list[str]) -> Decisions:
    """The same for seats with search agents or networks (``agents``, one spec a seat), hand by hand."""
    from ..agents.family import compiled_choose
    from ..agents.search import Searcher
    from ..envs.engine import kernels
    from ..sim.state import State

    seated, specs = seat_agents(game.name, agents, game.players)
    kinds, params = seat_arrays(game.name, seated)
    searchers = {p: Searcher(game, specs[p], seed=seed) for p, a in enumerate(seated)
                 if a.name not in ("random", "heuristic")}
    k = kernels(game.family)
    choose = compiled_choose(game.family)
    size = _obs_size(game)
    options = game.option_array
    rows: list[tuple] = []
    s = np.zeros(game.kernels.STATE_SIZE, np.int64)
    deal_rng, rng = new_rng(), new_rng()
    mask = np.zeros(NUM_ACTIONS, np.int8)
    for number in range(first, first + count):
        k.deal_hand(game.family, s, seed, number, game.players, options, deal_rng)
        seed_stream(rng, seed, number, 1)
        while (p := int(s[game.kernels.TO_ACT])) >= 0:
            k.action_mask(game.family, s, mask)
            if p in searchers:
                chosen = searchers[p].act(State(game, s))
            else:
                chosen = int(choose(game.family, s, kinds[p], params[p], rng))
            if mask.sum() > 1:
                obs = np.zeros(size, np.int8)
                k.observe(game.family, s, p, obs)
                rows.append((obs, np.packbits(mask.astype(bool)), chosen, p, number))
            k.play(game.family, s, chosen, mask)
    if not rows:
        return _empty(0, size)
    return Decisions(*(np.stack([r[i] for r in rows]) if i < 2 else np.array([r[i] for r in rows], np.int64)
                       for i in range(5)))


def _obs_size(game) -> int:
    from ..agents.net import net_inputs

    return net_inputs(game)


def teacher_decisions(game, decisions: int, out, teacher="heuristic", seed: int = 0, part_hands: int = PART_HANDS,
                      progress: bool = False, workers: int = 1) -> Decisions:
    """At least ``decisions`` decisions of ``teacher`` (an agent for every seat, or one per seat,
    as ``simulate`` takes them): whole parts of ``part_hands`` deals of ``seed``, from deal 0 on,
    kept in ``out/decisions`` (resumed from its finished parts) and returned. A search teacher's
    parts are played ``workers`` at a time in as many processes, with the same decisions (each part
    starts its own searchers). OptionError if ``out`` holds another teacher's decisions or a part
    that cannot be read."""
    seated, specs = seat_agents(game.name, teacher, game.players)
    fast = all(a.name in ("random", "heuristic") for a in seated)
    folder = Path(out) / "decisions"
    _check_folder(folder, {"game": game.name, "options": game.options, "teacher": specs, "seed": int(seed),
                           "part_hands": int(part_hands)})
    parts, made, first = [], 0, 0
    with _SlowParts(game, seed, part_hands, specs, folder, 1 if fast else workers) as slow:
        while made < decisions:
            path = _part_path(folder, first, part_hands)
            if path.exists():
                part = read_part(path, part_hands)
            else:
                if fast:
                    kinds, params = seat_arrays(game.name, seated)
                    part = play_fast(game, seed, first, part_hands, kinds, params)
                else:
                    part = slow.play(first, decisions - made, len(parts[0]) if parts else None)
                write_part(part, path, part_hands)
            parts.append(part)
            made, first = made + len(part), first + part_hands
            if progress:
                print(f"teacher: {made:,} decisions in {first:,} deals", flush=True)
    return _concat(parts, _obs_size(game))


def _part_path(folder: Path, first: int, part_hands: int) -> Path:
    return folder / f"part-{first // part_hands:05d}.parquet"


class _SlowParts:
    """A search teacher's parts, played here (``workers`` 1) or in a pool of ``workers`` processes
    that keeps the next parts in flight while the caller writes the last one."""

    def __init__(self, game, seed, part_hands, specs, folder, workers):
        self.game, self.seed, self.part_hands, self.specs, self.folder = game, seed, part_hands, specs, folder
        self.workers, self.pool, self.flying = workers, None, {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)

    def play(self, first: int, wanted: int, per_part: int | None) -> Decisions:
        """Part ``first``'s decisions; ``wanted``: how many more the run needs, ``per_part``: how
        many a part gave (None before the first), so that no part is started that will not be used."""
        if self.workers <= 1:
            return play_slow(self.game, self.seed, first, self.part_hands, self.specs)
        if self.pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self.pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        ahead = self.workers if per_part is None else max(1, min(self.workers, -(-wanted // max(per_part, 1))))
        for k in range(ahead):
            start = first + k * self.part_hands
            if start not in self.flying and not _part_path(self.folder, start, self.part_hands).exists():
                self.flying[start] = self.pool.submit(play_slow, self.game, self.seed, start, self.part_hands,
                                                      self.specs)
        return self.flying.pop(first).result()


def _check_folder(folder: Path, what: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    saved = folder / "teacher.json"
    if saved.exists():
        try:
            earlier = json.loads(saved.read_text())
        except ValueError as error:
            raise OptionError(f"{saved}: not a teacher's settings ({error})") from None
        if earlier != json.loads(json.dumps(what)):
            raise OptionError(f"{folder} holds another teacher's decisions (game, options, teacher or seed differ)")
    else:
        saved.write_text(json.dumps(what, indent=1) + "\n")


def write_part(d: Decisions, path: Path, hands: int) -> None:
    """Write ``d`` as one Parquet file (the observations and masks as fixed-size binary columns),
    whole or not at all."""
    def binary(a):
        return pa.FixedSizeBinaryArray.from_buffers(pa.binary(a.shape[1]), len(a), [None, pa.py_buffer(a.tobytes())])

    table = pa.table({"hand": d.hand, "seat": d.seat.astype(np.int8), "action": d.action.astype(np.int16),
                      "mask": binary(np.ascontiguousarray(d.mask)), "obs": binary(np.ascontiguousarray(d.obs))},
                     metadata={"hands": str(hands)})
    tmp = path.with_suffix(".tmp")
    pq.write_table(table, tmp)
    tmp.replace(path)


def read_part(path: Path, hands: int) -> Decisions:
    """A part written by ``write_part``; OptionError if it is not one of ``hands`` deals."""
    try:
        table = pq.read_table(path)
        if int(table.schema.metadata[b"hands"]) != hands:
            raise ValueError(f"it holds {int(table.schema.metadata[b'hands'])} deals, not {hands}")
        obs, mask = (_fixed(table.column(name)) for name in ("obs", "mask"))
        return Decisions(obs.view(np.int8), mask, table.column("action").to_numpy().astype(np.int64),
                         table.column("seat").to_numpy().astype(np.int64), table.column("hand").to_numpy())
    except (OSError, KeyError, ValueError, pa.ArrowException) as error:
        raise OptionError(f"{path}: not a part of teacher decisions ({error}); delete it to play it again") from None


def _fixed(column) -> np.ndarray:
    array = column.combine_chunks()
    width = array.type.byte_width
    data = np.frombuffer(array.buffers()[1], np.uint8)[array.offset * width:(array.offset + len(array)) * width]
    return data.reshape(len(array), width).copy()
