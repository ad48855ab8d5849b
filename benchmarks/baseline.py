"""The heuristic agent of an earlier commit, seated beside today's: how a change to the heuristic
is measured on duplicate deals (BENCHMARKS.md, "The heuristic, before and after").

    tricksim compare sheepshead --a heuristic --b python:benchmarks/baseline.py:Baseline:ref=c979060

``Baseline(ref)`` unpacks the package as it was at ``ref`` (``git archive``) under the name
``tricksim_base`` into ``~/.cache/tricksim-baseline/REF`` and plays that commit's heuristic on the
state of the hand. The earlier heuristic must read the state layout of today's engine: compare
only across commits that leave ``tricksim/sim`` as it is. It reads the whole state, as the
built-in heuristic does, and like it looks only at what its seat may know.
"""

from __future__ import annotations

import importlib
import io
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULES = {"sheepshead": "sheepshead", "fiftyfive": "fiftyfive", "shmear": "smear", "nesmear": "smear",
           "bluke": "bluke"}


def _unpack(ref: str) -> Path:
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=12", ref], check=True,
                            capture_output=True, text=True).stdout.strip()
    home = Path.home() / ".cache" / "tricksim-baseline" / commit
    if not (home / "tricksim_base" / "__init__.py").is_file():
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "tricksim"], check=True,
                                 capture_output=True).stdout
        home.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(home, filter="data")
        (home / "tricksim").rename(home / "tricksim_base")
    return home


class Baseline:
    """The heuristic of commit ``ref`` with its default parameters."""

    def __init__(self, ref: str = "HEAD"):
        home = str(_unpack(str(ref)))
        if home not in sys.path:
            sys.path.insert(0, home)
        self._agents = {}  # game -> (its act, its default parameters)
        self._rng = None  # unread: the heuristics are deterministic

    def act(self, view):
        name = view.game
        if name not in self._agents:
            module = importlib.import_module(f"tricksim_base.agents.{MODULES[name]}")
            self._rng = importlib.import_module("tricksim_base.sim.kernels").new_rng()
            self._agents[name] = (module.act, module.DEFAULTS.copy())
        act, params = self._agents[name]
        return int(act(view._s.copy(), params, self._rng))
