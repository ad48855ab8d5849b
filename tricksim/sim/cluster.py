"""Chunks of work played here or on a Dask distributed cluster.

A run (hands, a study, a mining run) is cut into chunks whose rows depend on the run and the chunk
alone; ``play_chunks`` plays them one after another here, or side by side on a cluster, each a
task whose rows come back to this process (so the machines share no disk). ``dask_client`` opens
the cluster: ``"local"`` (one single-threaded worker process per core of this machine) or a
scheduler's address ``tcp://host:port``.
"""

from __future__ import annotations

import logging
import os
import re
from contextlib import contextmanager

from ..errors import OptionError

DASK_TIMEOUT = 10  # seconds to wait for a Dask scheduler to answer
DASK_ADDRESS = re.compile(r"(tcp|tls)://\S+")


def play_chunks(play, job, todo: list[tuple[int, int, int]], client=None):
    """Play the chunks ``todo`` (index, first, count) of ``job`` (a study, a mining run) with
    ``play(job, first, count)``: yields (index, rows) of each, one after another here, or as they
    finish on the Dask cluster of ``client``."""
    if client is None:
        for k, first, count in todo:
            yield k, play(job, first, count)
        return
    from distributed import as_completed

    pending = {client.submit(play, job, first, count, pure=False): k for k, first, count in todo}
    try:
        for future in as_completed(list(pending)):
            rows = future.result()  # a chunk that failed raises its error here
            k = pending.pop(future)
            future.release()  # its rows leave the worker
            yield k, rows
    finally:
        if pending:  # after a failure or a stop: no chunk goes on
            client.cancel(list(pending))


def check_dask(address) -> None:
    """OptionError unless ``address`` is None, ``"local"`` or a scheduler address ``tcp://host:port``
    (or ``tls://``), and, when not None, Dask distributed is installed."""
    if address is None:
        return
    if not (address == "local" or isinstance(address, str) and DASK_ADDRESS.fullmatch(address)):
        raise OptionError(f"dask = {address!r}: give a Dask scheduler's address, tcp://host:port (or tls://…), "
                          "or local for a cluster of this machine's cores")
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise OptionError(f"dask = {address!r} needs Dask distributed: pip install 'tricksim[dask]'") from None


@contextmanager
def dask_client(address):
    """A Dask distributed Client for ``address`` (``check_dask``), closed at the end: ``"local"``
    starts a LocalCluster of one single-threaded worker process per core (and stops it); None
    gives None (play here). A scheduler that does not answer within ``DASK_TIMEOUT`` seconds is an
    OptionError."""
    if address is None:
        yield None
        return
    check_dask(address)
    import distributed

    cluster = None
    try:
        if address == "local":
            cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
            cluster = distributed.LocalCluster(n_workers=cores, threads_per_worker=1, processes=True,
                                               dashboard_address=None, silence_logs=logging.ERROR)
            client = distributed.Client(cluster)
        else:
            try:
                client = distributed.Client(address, timeout=DASK_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as error:
                raise OptionError(f"dask = {address!r}: no Dask scheduler answered there within "
                                  f"{DASK_TIMEOUT} s ({error})") from None
        try:
            yield client
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()
