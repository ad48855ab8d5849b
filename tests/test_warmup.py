"""tricksim warmup: one task per family and kernel, and what it compiles is in the cache after."""

from __future__ import annotations

import pytest

import tricksim
from tricksim.cli import main
from tricksim.errors import OptionError
from tricksim.sim.batch import simulate
from tricksim.warmup import TARGETS, tasks, warmup


def test_one_task_per_family_and_target():
    assert tasks(["shmear", "nesmear", "bluke"], ["random", "solve"]) == [
        ("shmear", "solve"), ("bluke", "solve"), ("shmear", "random"), ("bluke", "random")]
    assert len(tasks()) == 4 * len(TARGETS)  # five games, four families


@pytest.mark.parametrize("games, targets", [(["chess"], None), (None, ["everything"])])
def test_unknown_names_are_refused(games, targets):
    with pytest.raises(OptionError):
        tasks(games, targets)
    with pytest.raises(OptionError):
        warmup(games, targets)


def test_bad_worker_count_is_refused():
    with pytest.raises(OptionError):
        warmup(["bluke"], ["random"], workers=0)


def test_workers_leave_the_kernels_in_the_cache(capsys):
    from tricksim.agents.loops import random_loop

    assert main(["warmup", "bluke", "--only", "random", "--workers", "2"]) == 0
    assert "bluke" in capsys.readouterr().out
    misses = sum(random_loop.stats.cache_misses.values())
    simulate(tricksim.make_game("bluke"), hands=3, progress=False)  # loads the worker's compile
    assert sum(random_loop.stats.cache_misses.values()) == misses
