"""Many hands at once: a game's numba batch loop driven in chunks, on worker processes, streamed to
Parquet.

Hand ``i`` of a run is dealt from ``(seed, i)`` with dealer ``i % players`` and its agents draw
from their own stream of ``(seed, i)``, so a row never depends on the thread count, the worker
count or how the run is cut into chunks.

A run written to a file goes through a folder of parts beside it (``hands.parquet.parts/``): each
chunk of ``CHUNK`` hands is written to its own part file, atomically, as soon as it is played. A
run that stops for any reason (an error, Ctrl-C, ``kill -9``, a power cut) and is started again
with the same arguments keeps the parts it finds and plays only the missing chunks. The parts are
Arrow IPC files (lz4-compressed: quick to write and to read back), joined, in order, into the one
Parquet file while the later chunks are played; the file takes its name when every chunk is in it,
and the folder goes. A finished file, or the parts, of another run are never replaced unless asked
(``overwrite``).
"""

from __future__ import annotations

import json
import mmap
import multiprocessing
import os
import shutil
import signal
import sys
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..agents import agent_module, search_arrays, seat_agents, seat_arrays, uses_bots, uses_search
from ..agents.loops import play_hands, play_random_hands
from ..errors import OptionError
from ..spec import make_game, spec
from .cluster import check_dask, dask_client, play_chunks

CHUNK = 1 << 18  # hands per chunk: one call of the numba loop, one part file, one worker task
SEARCH_CHUNK = 64  # the same with a search agent seated: its hands take milliseconds to seconds each
BOT_CHUNK = 1024  # the same with a bot of the user's own seated: played one decision at a time from Python
RUN_KEY = b"tricksim.run"  # the Parquet metadata entry that describes the run that wrote the file
PART_OPTIONS = pa.ipc.IpcWriteOptions(compression="lz4")


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
        return make_game(self.game, **self.options)

    def __str__(self) -> str:
        """The run in words: ``2,000 hands of Sheepshead, seed 1, agents heuristic``."""
        agents = self.agents[0] if len(set(self.agents)) == 1 else ", ".join(self.agents)
        return f"{self.hands:,} hands of {self.make_game().label}, seed {self.seed}, agents {agents}"


def check_run(hands: int, seed: int) -> None:
    """OptionError unless ``hands`` (one or more) and ``seed`` make a run."""
    if isinstance(hands, bool) or not isinstance(hands, (int, np.integer)) or hands < 1:
        raise OptionError(f"hands = {hands!r} is not allowed; play one deal or more (a whole number >= 1)")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise OptionError(f"seed = {seed!r} is not allowed; it must be a whole number in 0 .. 2**63 - 1")


def make_run(game, hands: int, seed: int = 0, agents="heuristic") -> Run:
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
        raw = _scratch(count, len(record))
        play_random_hands(game, run.seed, first, raw)
        features = ()
    else:
        features = agent_module(run.game).FEATURES
        kinds, params = seat_arrays(run.game, seated)
        raw = _scratch(count, len(record) + len(features))
        if uses_bots(seated):
            from ..agents.bot_table import BotTable

            faults = BotTable(game, seated, kinds, params, run.seed).play(first, raw)
        elif uses_search(seated):
            from ..agents.search import run_hands

            run_hands(game, run.seed, first, kinds, params, search_arrays(seated, game), raw)
        else:
            play_hands(game, run.seed, first, kinds, params, raw)
    df = game.frame(raw[:, :len(record)], run.seed, first)
    for k, name in enumerate(features):
        df[name] = raw[:, len(record) + k].astype(np.int8)
    if any(a.params.get("on_error") == "random" for a in seated):
        df["bot_faults"] = faults  # decisions a random action replaced
    decider = spec(game.name).decider
    if decider in df.columns:  # position from the dealer: 0 the dealer, 1 eldest, …
        df.insert(df.columns.get_loc(decider) + 1, f"{decider}_position",
                  ((df[decider].astype("Int16") - df["dealer"]) % game.players).astype("Int8"))
    return df


_scratch_rows: dict[int, np.ndarray] = {}


def _scratch(count: int, width: int) -> np.ndarray:
    """A ``count`` x ``width`` int64 array for the batch loop to write into, the same memory chunk
    after chunk: a new one (50 MB for a chunk of Sheepshead) would come fresh from the system each
    time and pay a page fault every 4 kB (5 % of a whole simulate). The frame built from it copies
    every column, so nothing refers to it after play_chunk."""
    rows = _scratch_rows.get(width)
    if rows is None or len(rows) < count:
        rows = _scratch_rows[width] = np.empty((count, width), dtype=np.int64)
    return rows[:count]


def _chunks(run: Run) -> list[tuple[int, int, int]]:
    """(index, first hand, count) of each chunk of ``run``."""
    seated = seat_agents(run.game, list(run.agents), len(run.agents))[0]
    size = BOT_CHUNK if uses_bots(seated) else SEARCH_CHUNK if uses_search(seated) else CHUNK
    return [(k, first, min(size, run.hands - first)) for k, first in enumerate(range(0, run.hands, size))]


_shared_rows = None  # in a forked worker: the _Rows of the run it plays, shared with the parent


def _start_worker(rows=None) -> None:
    import numba

    global _shared_rows
    numba.set_num_threads(1)  # one core per worker: the workers are the parallelism
    _shared_rows = rows
    # Ctrl-C reaches the workers too: they stop at once, quietly (an idle worker would print a
    # traceback), and the parent stops the run; a part being written is left under its .tmp name
    signal.signal(signal.SIGINT, lambda number, frame: os._exit(128 + signal.SIGINT))


def _play_into_shared(run: Run, first: int, count: int) -> None:
    """Play one chunk in a forked worker and write it at its place in the shared rows."""
    _shared_rows.put(first, play_chunk(run, first, count))


def _write_part(run: Run, index: int, first: int, count: int, folder: str) -> int:
    """Play one chunk and write it as part ``index`` of ``folder``, atomically."""
    write_part(play_chunk(run, first, count), Path(folder), index)
    return index


def write_part(rows: pd.DataFrame, folder: Path, index: int) -> None:
    """Write ``rows`` as part ``index`` of the parts folder ``folder``, atomically: under a
    temporary name, renamed when whole."""
    path = _part(folder, index)
    table = pa.Table.from_pandas(rows, preserve_index=False)
    tmp = path.with_suffix(".tmp")
    with pa.ipc.new_file(tmp, table.schema, options=PART_OPTIONS) as writer:
        writer.write_table(table)
    os.replace(tmp, path)


def _part(folder: Path, index: int) -> Path:
    return folder / f"part-{index:06d}.arrow"


def _read_part(path: Path) -> pa.Table:
    with pa.memory_map(str(path)) as source:
        return pa.ipc.open_file(source).read_all()


# --- a whole run ---------------------------------------------------------------------


def progress_bar(total: int, done: int, desc: str, unit: str = " hands", show: bool = True):
    """A tqdm bar over ``total`` hands (or deals, ``unit``), ``done`` of them already played; with
    ``show`` False, one that shows nothing."""
    from tqdm import tqdm

    # shows only in a terminal, and only once a run has taken a second
    return tqdm(total=total, initial=done, unit=unit, unit_scale=True, delay=1.0,
                disable=None if show else True, desc=desc, file=sys.stderr)


@contextmanager
def _pool(workers: int, context, rows=None):
    """A pool of ``workers`` processes started by ``context``, handing ``rows`` to each (only a
    forked worker can take them). After a failure no further chunk is started; after success the
    workers exit in the background."""
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker, initargs=(rows,))
    try:
        yield pool
    except BaseException:
        pool.shutdown(cancel_futures=True)
        raise
    pool.shutdown(wait=False)


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


def run_frame(run: Run, workers: int = 1, progress: bool = True, client=None) -> pd.DataFrame:
    """All rows of ``run`` in memory, in hand order (played on the Dask cluster of ``client``, if any)."""
    chunks = _chunks(run)
    rows = _Rows(play_chunk(run, 0, 0), run.hands)  # also loads the kernels here, once, before any fork
    with progress_bar(run.hands, 0, run.game, show=progress) as bar:  # closed (its line ended) on a stop too
        if client is not None:
            for k, chunk in play_chunks(play_chunk, run, chunks, client):
                rows.put(chunks[k][1], chunk)
                bar.update(chunks[k][2])
        elif workers <= 1 or len(chunks) <= 1:
            game = run.make_game()
            for k, first, count in chunks:
                rows.put(first, play_chunk(run, first, count, game))
                bar.update(count)
        else:
            context = _start_method()
            shared = context.get_start_method() == "fork"  # forked workers write their rows themselves
            with _pool(workers, context, rows if shared else None) as pool:
                task = _play_into_shared if shared else play_chunk
                futures = {pool.submit(task, run, first, count): (first, count) for k, first, count in chunks}
                for future in _as_done(futures):
                    first, count = futures[future]
                    if not shared:
                        rows.put(first, future.result())
                    bar.update(count)
    df = rows.frame()
    df.attrs["game"] = run.game
    return df


class _Rows:
    """The columns of a run's rows, allocated once for all its hands and filled chunk by chunk at
    their place: no join at the end. The memory is shared, so that forked workers write their
    chunks into it themselves rather than send them to this process through a pipe."""

    def __init__(self, empty: pd.DataFrame, hands: int):
        self.dtypes = empty.dtypes
        layout = [(name, part.dtype) for name in empty.columns for part in _column_parts(empty[name])]
        sizes = [-(-hands * dtype.itemsize // 64) * 64 for _, dtype in layout]  # each part 64-byte aligned
        self.memory = mmap.mmap(-1, max(sum(sizes), 1))  # anonymous and shared: seen by forked children
        self.parts: dict[str, list[np.ndarray]] = {name: [] for name in empty.columns}
        offset = 0
        for (name, dtype), size in zip(layout, sizes):
            self.parts[name].append(np.frombuffer(self.memory, dtype, hands, offset))
            offset += size

    def put(self, first: int, chunk: pd.DataFrame) -> None:
        """Write the rows of ``chunk`` as rows ``first …``."""
        for name, targets in self.parts.items():
            for target, part in zip(targets, _column_parts(chunk[name])):
                target[first:first + len(chunk)] = part

    def frame(self) -> pd.DataFrame:
        """The rows as a DataFrame over this memory (no copy)."""
        return pd.DataFrame({name: _column(self.dtypes[name], parts) for name, parts in self.parts.items()},
                            copy=False)


def _column_parts(column: pd.Series) -> list[np.ndarray]:
    """The numpy arrays that hold ``column``: a category's codes, a nullable integer's values and
    missing mask, or the array itself."""
    dtype = column.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        return [column.cat.codes.to_numpy()]
    if isinstance(dtype, pd.api.extensions.ExtensionDtype):
        return [column.to_numpy(dtype.numpy_dtype, na_value=0), column.isna().to_numpy()]
    return [column.to_numpy()]


def _column(dtype, parts: list[np.ndarray]):
    """The column of ``dtype`` held by ``parts`` (what _column_parts gave)."""
    if isinstance(dtype, pd.CategoricalDtype):
        return pd.Categorical.from_codes(parts[0], dtype=dtype, validate=False)
    if isinstance(dtype, pd.api.extensions.ExtensionDtype):
        return dtype.construct_array_type()(*parts)
    return parts[0]


def _as_done(futures):
    """The futures as they finish; the first failure is raised at once."""
    pending = set(futures)
    while pending:
        done, pending = wait(pending, return_when=FIRST_COMPLETED)
        for future in done:
            future.result()  # a forked worker's failure too: its rows are never asked for
            yield future


def run_file(run: Run, out: str | os.PathLike, workers: int = 1, progress: bool = True,
             overwrite: bool = False, client=None) -> Path:
    """Write the rows of ``run`` to the Parquet file ``out`` chunk by chunk, resuming a stopped run
    with the same arguments from its finished parts; returns the path of the file. A file or parts
    of another run there are an OptionError, unless ``overwrite`` (``stream_file``). With a Dask
    ``client`` the chunks are played on its cluster and written here."""
    out = Path(out)

    def play(missing, parts: Path) -> Iterator[int]:
        if client is not None:
            for k, rows in play_chunks(play_chunk, run, missing, client):
                write_part(rows, parts, k)
                yield k
        elif workers <= 1 or len(missing) <= 1:
            for k, first, count in missing:
                yield _write_part(run, k, first, count, str(parts))
        else:
            play_chunk(run, 0, 0)  # load the kernels here, once: forked workers inherit them
            with _pool(workers, _start_method()) as pool:
                futures = [pool.submit(_write_part, run, k, first, count, str(parts)) for k, first, count in missing]
                for future in _as_done(futures):
                    yield future.result()  # joined with the parts done so far while the workers play on

    return stream_file(out, _parts_of(out), run.describe(), _chunks(run), play, progress=progress, desc=run.game,
                       overwrite=overwrite)


def _parts_of(out: Path) -> Path:
    """The parts folder of a run written to ``out``: ``hands.parquet`` → ``hands.parquet.parts``."""
    return out.with_name(out.name + ".parts")


def hands_written(run: Run, out: str | os.PathLike, overwrite: bool = False) -> int:
    """How many of the hands of ``run`` the Parquet file ``out`` already holds: all of them when it
    is this run's complete file, else those in the finished parts of this run stopped before.
    Changes nothing; OptionError as ``check_out`` (another run there, unless ``overwrite``)."""
    out = Path(out)
    description = run.describe()
    if file_run(out) == description:
        return run.hands
    parts = _parts_of(out)
    check_out(out, parts, description, overwrite=overwrite)
    if _started(parts) != description:
        return 0  # none, or another run's parts, to be replaced
    chunks = _chunks(run)
    return sum(c[2] for c in chunks) - sum(c[2] for c in _missing(parts, chunks))


def _started(parts: Path) -> str | None:
    """The description in the manifest of the parts folder ``parts``; None if it has none."""
    manifest = parts / "run.json"
    return manifest.read_text() if manifest.exists() else None


def check_parts(parts: Path, description: str, what: str = "run") -> None:
    """OptionError if the folder ``parts`` holds the parts of another ``what`` than the one
    ``description`` describes (its ``run.json``); an absent folder is fine."""
    if parts.exists():
        started = _started(parts)
        if started != description:
            raise OptionError(
                f"{parts} holds the parts of another {what} ({_run_text(started) if started else 'no run.json'}); "
                f"delete that folder, choose another output, or overwrite it (--overwrite, or overwrite=True)")


def check_out(out: Path, parts: Path, description: str, what: str = "run", overwrite: bool = False) -> None:
    """OptionError, unless ``overwrite``, if the file ``out`` exists and is not the complete file of
    the ``what`` that ``description`` describes, or the folder ``parts`` holds another's parts
    (``check_parts``): a finished file is never replaced by another run unless asked."""
    if overwrite:
        return
    held = file_run(out)
    if out.exists() and held != description:
        there = f"holds another {what} ({_run_text(held)})" if held else f"is there and holds no tricksim {what}"
        raise OptionError(f"{out} {there}; choose another output, or overwrite it (--overwrite, or overwrite=True)")
    check_parts(parts, description, what)


def _run_text(description: str) -> str:
    """The run ``description`` describes (``Run.describe``; a study's holds one a level down), in
    words (``Run.__str__``); the description itself when it is not one."""
    try:
        fields = json.loads(description)
        fields = next(v for v in (fields, *fields.values()) if isinstance(v, dict) and "agents" in v)
        return str(Run(**{**fields, "agents": tuple(fields["agents"])}))
    except (ValueError, TypeError, AttributeError, StopIteration):  # OptionError is a ValueError
        return description


def collect_chunks(chunks: Callable[[list], Iterable[tuple[int, pd.DataFrame]]], todo: list[tuple[int, int, int]],
                   out=None, description: str = "", what: str = "run", progress: bool = True, desc: str = "",
                   unit: str = " hands", overwrite: bool = False):
    """The rows of the chunks ``todo`` (index, first, count), which ``chunks(some)`` plays and yields
    as (index, rows): with ``out``, streamed to that Parquet file through its parts folder,
    resuming a stopped run (``stream_file``), and its path returned; else joined in chunk order
    in memory."""
    if out is not None:
        out = Path(out)

        def play(missing, folder: Path):
            for k, rows in chunks(missing):
                write_part(rows, folder, k)
                yield k

        return stream_file(out, out.with_suffix(".parts"), description, todo, play, what=what, progress=progress,
                           desc=desc, unit=unit, overwrite=overwrite)
    frames = {}
    counts = {k: count for k, _, count in todo}
    with progress_bar(sum(counts.values()), 0, desc, unit, show=progress) as bar:
        for k, rows in chunks(todo):
            frames[k] = rows
            bar.update(counts[k])
    return pd.concat([frames[k] for k in sorted(frames)], ignore_index=True)


def stream_file(out: Path, parts: Path, description: str, chunks: list[tuple[int, int, int]],
                play: Callable[[list, Path], Iterable[int]], what: str = "run", progress: bool = True,
                desc: str = "", unit: str = " hands", overwrite: bool = False) -> Path:
    """Write the rows of the run ``description`` describes to the Parquet file ``out``, through the
    parts folder ``parts`` (``run.json`` the description, a part per chunk), resuming from the
    parts a stopped run left: ``play(missing, parts)`` plays the ``missing`` chunks (index, first,
    count) of ``chunks``, writes each as its part (``write_part``) and yields its index once
    written. The parts are joined into
    ``out`` as they come, then removed. Nothing is played when ``out`` is already this run's
    (``file_run``). A file ``out`` or parts in ``parts`` of another ``what`` are an OptionError
    (``check_out``), unless ``overwrite``: then the parts go at once, the file when this one is
    complete."""
    if file_run(out) == description:
        return out  # this very run is already complete
    check_out(out, parts, description, what, overwrite)
    if parts.exists() and _started(parts) != description:  # another run's, to overwrite
        shutil.rmtree(parts)
    if not parts.exists():
        parts.mkdir(parents=True)
        manifest = parts / "run.json"
        tmp = manifest.with_suffix(".tmp")
        tmp.write_text(description)
        os.replace(tmp, manifest)
    for stale in parts.glob("*.tmp"):  # a part being written when the run stopped
        stale.unlink()
    missing = _missing(parts, chunks)
    counts = {k: count for k, _, count in chunks}
    done = sum(counts.values()) - sum(count for _, _, count in missing)
    with progress_bar(sum(counts.values()), done, desc, unit, show=progress) as bar:  # closed on a stop too
        joined = _Joiner(description, parts, out, set(counts) - {c[0] for c in missing})
        for k in play(missing, parts):
            joined.ready(k)
            bar.update(counts[k])
        joined.close()
    shutil.rmtree(parts)
    return out


def _missing(parts: Path, chunks: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The chunks (index, first, count) whose part is not yet complete in the folder ``parts``."""
    return [c for c in chunks if not _part_ok(_part(parts, c[0]))]


def _part_ok(path: Path) -> bool:
    """True when ``path`` is a complete part (it reads back whole)."""
    try:
        _read_part(path)
        return True
    except (OSError, pa.ArrowException):
        return False


class _Joiner:
    """The parts of ``parts``, in order, into one Parquet file (a row group each) with the run in
    its metadata: each part is appended as soon as it and every part before it are written, so the
    joining goes on beside the playing. The file is written under a temporary name and takes its
    own only when complete."""

    def __init__(self, description: str, parts: Path, out: Path, written: set[int]):
        self.description, self.parts, self.out, self.written = description, parts, out, set(written)
        self.tmp = out.with_name(out.name + ".tmp")
        self.writer, self.schema, self.next = None, None, 0
        self._append()

    def ready(self, k: int) -> None:
        """Part ``k`` is written."""
        self.written.add(k)
        self._append()

    def _append(self) -> None:
        while self.next in self.written:
            table = _read_part(_part(self.parts, self.next))
            if self.writer is None:
                self.schema = table.schema.with_metadata({**table.schema.metadata, RUN_KEY: self.description})
                self.writer = pq.ParquetWriter(self.tmp, self.schema)
            self.writer.write_table(table.cast(self.schema))
            self.next += 1

    def close(self) -> None:
        self.writer.close()  # a run has one chunk or more (check_run)
        os.replace(self.tmp, self.out)


def file_run(path: str | os.PathLike) -> str | None:
    """The description of the run that wrote the Parquet file ``path``; None if there is none."""
    try:
        metadata = pq.read_schema(path).metadata or {}
    except (OSError, pa.ArrowException):
        return None
    value = metadata.get(RUN_KEY)
    return value.decode() if value else None


def simulate(game, hands: int, seed: int = 0, agents="heuristic", workers: int = 1, out=None,
             progress: bool = True, overwrite: bool = False, dask=None):
    """Play ``hands`` hands of ``game`` (a Game) from ``seed`` with ``agents`` on ``workers``
    processes, or on a Dask cluster (``dask``: "local" or a scheduler's address): the rows as a
    DataFrame, or with ``out`` written to that Parquet file (streamed, resumable; a file of another
    run there is replaced only with ``overwrite``), whose path is returned. The rows are the same
    every way."""
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1:
        raise OptionError(f"workers = {workers!r} is not allowed; it must be a whole number >= 1")
    run = make_run(game, hands, seed, agents)
    check_dask(dask)
    if out is not None and file_run(out) == run.describe():
        return Path(out)  # this very run is complete: no cluster to start
    with dask_client(dask) as client, _bots_ended():
        if out is not None:
            return run_file(run, out, int(workers), progress, overwrite, client)
        return run_frame(run, int(workers), progress, client)


@contextmanager
def _bots_ended():
    """End the ``exec:`` bots this process started when the run ends, however it ends (a worker's
    end when the worker exits)."""
    try:
        yield
    finally:
        from ..agents.exec_bot import close_bots

        close_bots()
