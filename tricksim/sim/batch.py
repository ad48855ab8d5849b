"""Many hands at once: a game's numba batch loop driven in chunks, on worker processes, streamed to
Parquet.

Hand ``i`` of a run is dealt from ``(seed, i)`` with dealer ``i % players`` and its agents draw
from their own stream of ``(seed, i)``, so a row never depends on the thread count, the worker
count or how the run is cut into chunks.

A run written to a file goes through a folder of parts beside it (``hands.parquet.parts/``): each
chunk of ``CHUNK`` hands is written to its own part file, atomically, as soon as it is played. A
run that stops for any reason (an error, Ctrl-C, ``kill -9``, a power cut) and is started again
with the same arguments keeps the parts it finds and plays only the missing chunks. The parts are
joined, in order, into the one Parquet file while the later chunks are played; the file takes its
name when every chunk is in it, and the folder goes.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import sys
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..agents import agent_module, seat_agents, seat_arrays
from ..errors import OptionError

CHUNK = 1 << 18  # hands per chunk: one call of the numba loop, one part file, one worker task
RUN_KEY = b"tricksim.run"  # the Parquet metadata entry that describes the run that wrote the file


@dataclass(frozen=True)
class Run:
    """Everything a run's rows depend on (and nothing they don't, like workers or threads)."""

    game: str
    options: dict
    hands: int
    seed: int
    agents: tuple[str, ...]

    def describe(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    def make_game(self):
        from .. import make_game

        return make_game(self.game, **self.options)


def check_run(hands: int, seed: int) -> None:
    """OptionError unless ``hands`` and ``seed`` make a run."""
    if isinstance(hands, bool) or not isinstance(hands, (int, np.integer)) or hands < 0:
        raise OptionError(f"hands = {hands!r} is not allowed; it must be a whole number >= 0")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise OptionError(f"seed = {seed!r} is not allowed; it must be a whole number in 0 .. 2**63 - 1")


def make_run(game, hands: int, seed: int = 0, agents="random") -> Run:
    """The Run of ``hands`` hands of ``game`` (a Game) from ``seed`` with ``agents``, checked."""
    check_run(hands, seed)
    _, specs = seat_agents(game.name, agents, game.players)
    return Run(game.name, dict(game.options), int(hands), int(seed), tuple(specs))


# --- one chunk ---------------------------------------------------------------------


def play_chunk(run: Run, first: int, count: int, game=None) -> pd.DataFrame:
    """The rows of hands ``first .. first + count - 1`` of ``run``."""
    game = game or run.make_game()
    seated, _ = seat_agents(run.game, list(run.agents), game.players)
    record = game.kernels.RECORD
    if all(a.name == "random" for a in seated):  # the random loop: the same rows, a little faster
        raw = np.empty((count, len(record)), dtype=np.int64)
        game.kernels.play_random_hands(run.seed, first, game.option_array, raw)
        features = ()
    else:
        module = agent_module(run.game)
        features = module.FEATURES
        kinds, params = seat_arrays(run.game, seated)
        raw = np.empty((count, len(record) + len(features)), dtype=np.int64)
        module.play_hands(run.seed, first, game.option_array, kinds, params, raw)
    df = game.frame(raw[:, :len(record)], run.seed, first)
    for k, name in enumerate(features):
        df[name] = raw[:, len(record) + k].astype(np.int8)
    for decider in ("picker", "bidder"):
        if decider in df.columns:  # position from the dealer: 0 the dealer, 1 eldest, …
            df.insert(df.columns.get_loc(decider) + 1, f"{decider}_position",
                      ((df[decider].astype("Int16") - df["dealer"]) % game.players).astype("Int8"))
    return df


def _chunks(hands: int) -> list[tuple[int, int, int]]:
    """(index, first hand, count) of each chunk of a run of ``hands`` hands."""
    return [(k, first, min(CHUNK, hands - first)) for k, first in enumerate(range(0, hands, CHUNK))]


def _start_worker() -> None:
    import numba

    numba.set_num_threads(1)  # one core per worker: the workers are the parallelism


def _write_part(run: Run, index: int, first: int, count: int, folder: str) -> int:
    """Play one chunk and write it as part ``index`` of ``folder``, atomically."""
    path = Path(folder) / f"part-{index:06d}.parquet"
    table = pa.Table.from_pandas(play_chunk(run, first, count), preserve_index=False)
    tmp = path.with_suffix(".tmp")
    pq.write_table(table, tmp)
    os.replace(tmp, path)
    return index


# --- a whole run ---------------------------------------------------------------------


def _progress(run: Run, done: int):
    from tqdm import tqdm

    # shows only in a terminal, and only once a run has taken a second
    return tqdm(total=run.hands, initial=done, unit=" hands", unit_scale=True, delay=1.0,
                disable=None, desc=run.game, file=sys.stderr)


def _pool(run: Run, workers: int) -> ProcessPoolExecutor:
    play_chunk(run, 0, 0)  # load the kernels here, once: forked workers inherit them
    return ProcessPoolExecutor(workers, mp_context=_start_method(), initializer=_start_worker)


def _start_method():
    """Fork where it is safe: a forked worker starts at once with the kernels this process has
    loaded, where a spawned one imports and loads them again (about a second). Numba's workqueue
    threading layer, tricksim's default, survives a fork; OpenMP, once started, does not."""
    import numba

    try:
        layer = numba.threading_layer()
    except ValueError:  # no parallel kernel has run yet
        layer = numba.config.THREADING_LAYER
    forkable = "fork" in multiprocessing.get_all_start_methods() and layer == "workqueue"
    return multiprocessing.get_context("fork" if forkable else "spawn")


def run_frame(run: Run, workers: int = 1, progress: bool = True) -> pd.DataFrame:
    """All rows of ``run`` in memory, in hand order."""
    chunks = _chunks(run.hands)
    bar = _progress(run, 0) if progress else None
    frames: dict[int, pd.DataFrame] = {}
    if workers <= 1 or len(chunks) <= 1:
        game = run.make_game()
        for k, first, count in chunks:
            frames[k] = play_chunk(run, first, count, game)
            if bar is not None:
                bar.update(count)
    else:
        with _pool(run, workers) as pool:
            futures = {pool.submit(play_chunk, run, first, count): k for k, first, count in chunks}
            for future in _as_done(futures):
                frames[futures[future]] = future.result()
                if bar is not None:
                    bar.update(len(frames[futures[future]]))
    if bar is not None:
        bar.close()
    if frames:
        df = pd.concat([frames[k] for k in sorted(frames)], ignore_index=True)
    else:
        df = play_chunk(run, 0, 0)
    df.attrs["game"] = run.game
    return df


def _as_done(futures):
    """The futures as they finish; the first failure is raised at once."""
    pending = set(futures)
    while pending:
        done, pending = wait(pending, return_when=FIRST_COMPLETED)
        yield from done


def run_file(run: Run, out: str | os.PathLike, workers: int = 1, progress: bool = True) -> Path:
    """Write the rows of ``run`` to the Parquet file ``out`` chunk by chunk, resuming a stopped run
    with the same arguments from its finished parts; returns the path of the file."""
    out = Path(out)
    if file_run(out) == run.describe():
        return out  # this very run is already complete
    parts = out.with_name(out.name + ".parts")
    manifest = parts / "run.json"
    if parts.exists():
        started = manifest.read_text() if manifest.exists() else None
        if started != run.describe():
            raise OptionError(
                f"{parts} holds the parts of another run ({started or 'no run.json'}); "
                f"delete that folder or choose another output file")
    else:
        parts.mkdir(parents=True)
        tmp = manifest.with_suffix(".tmp")
        tmp.write_text(run.describe())
        os.replace(tmp, manifest)
    for stale in parts.glob("*.tmp"):  # a part being written when the run stopped
        stale.unlink()
    chunks = _chunks(run.hands)
    missing = [c for c in chunks if not _part_ok(parts / f"part-{c[0]:06d}.parquet")]
    done = run.hands - sum(count for _, _, count in missing)
    bar = _progress(run, done) if progress else None
    joined = _Joiner(run, parts, len(chunks), out, {c[0] for c in chunks} - {c[0] for c in missing})
    if workers <= 1 or len(missing) <= 1:
        for k, first, count in missing:
            joined.ready(_write_part(run, k, first, count, str(parts)))
            if bar is not None:
                bar.update(count)
    else:
        with _pool(run, workers) as pool:
            futures = [pool.submit(_write_part, run, k, first, count, str(parts)) for k, first, count in missing]
            for future in _as_done(futures):
                k = future.result()
                joined.ready(k)  # joining the parts done so far while the workers play on
                if bar is not None:
                    bar.update(chunks[k][2])
    joined.close()
    if bar is not None:
        bar.close()
    shutil.rmtree(parts)
    return out


def _part_ok(path: Path) -> bool:
    """True when ``path`` is a complete Parquet file (its footer reads back)."""
    try:
        pq.read_metadata(path)
        return True
    except (OSError, pa.ArrowException):
        return False


class _Joiner:
    """The parts of ``parts``, in order, into one Parquet file (a row group each) with the run in
    its metadata: each part is appended as soon as it and every part before it are written, so the
    joining goes on beside the playing. The file is written under a temporary name and takes its
    own only when complete."""

    def __init__(self, run: Run, parts: Path, count: int, out: Path, written: set[int]):
        self.run, self.parts, self.count, self.out, self.written = run, parts, count, out, set(written)
        self.tmp = out.with_name(out.name + ".tmp")
        self.writer, self.schema, self.next = None, None, 0
        self._append()

    def ready(self, k: int) -> None:
        """Part ``k`` is written."""
        self.written.add(k)
        self._append()

    def _append(self) -> None:
        while self.next in self.written:
            table = pq.read_table(self.parts / f"part-{self.next:06d}.parquet")
            if self.writer is None:
                self.schema = table.schema.with_metadata({**table.schema.metadata, RUN_KEY: self.run.describe()})
                self.writer = pq.ParquetWriter(self.tmp, self.schema)
            self.writer.write_table(table.cast(self.schema))
            self.next += 1

    def close(self) -> None:
        if self.count == 0:
            table = pa.Table.from_pandas(play_chunk(self.run, 0, 0), preserve_index=False)
            pq.write_table(table.replace_schema_metadata({**table.schema.metadata, RUN_KEY: self.run.describe()}),
                           self.tmp)
        else:
            self.writer.close()
        os.replace(self.tmp, self.out)


def file_run(path: str | os.PathLike) -> str | None:
    """The description of the run that wrote the Parquet file ``path``; None if there is none."""
    try:
        metadata = pq.read_schema(path).metadata or {}
    except (OSError, pa.ArrowException):
        return None
    value = metadata.get(RUN_KEY)
    return value.decode() if value else None


def simulate(game, hands: int, seed: int = 0, agents="random", workers: int = 1, out=None,
             progress: bool = True):
    """Play ``hands`` hands of ``game`` (a Game) from ``seed`` with ``agents`` on ``workers``
    processes: the rows as a DataFrame, or with ``out`` written to that Parquet file (streamed,
    resumable), whose path is returned."""
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1:
        raise OptionError(f"workers = {workers!r} is not allowed; it must be a whole number >= 1")
    run = make_run(game, hands, seed, agents)
    if out is not None:
        return run_file(run, out, int(workers), progress)
    return run_frame(run, int(workers), progress)
