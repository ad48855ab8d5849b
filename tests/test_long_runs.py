"""Long runs of search agents: compare and tournament stream each seating's hands to Parquet and
resume; simulate, compare and tournament play on a Dask cluster with the same results."""

from __future__ import annotations

import importlib.util
import os

import pandas as pd
import pytest

import tricksim
from tricksim.cli import main
from tricksim.experiments.compare import compare
from tricksim.experiments.tournament import tournament

DASK = importlib.util.find_spec("distributed") is not None
SEARCH = "pimc:worlds=4"


def test_a_streamed_comparison_equals_the_one_in_memory_and_is_not_played_again(tmp_path):
    game = tricksim.make_game("bluke", players=3)
    memory = compare(game, SEARCH, "heuristic", hands=12, seed=2)
    streamed = compare(game, SEARCH, "heuristic", hands=12, seed=2, out=tmp_path)
    assert streamed["difference"] == memory["difference"]
    files = sorted(tmp_path.glob("seating-*.parquet"))
    assert len(files) == len(memory["seatings"])
    stamps = [f.stat().st_mtime_ns for f in files]
    assert compare(game, SEARCH, "heuristic", hands=12, seed=2, out=tmp_path)["difference"] == memory["difference"]
    assert [f.stat().st_mtime_ns for f in files] == stamps  # complete: kept, not played again


def test_a_stopped_comparison_resumes_from_its_finished_seatings(tmp_path):
    game = tricksim.make_game("bluke", players=3)
    whole = compare(game, SEARCH, "heuristic", hands=12, seed=3, out=tmp_path / "whole")
    part = tmp_path / "part"
    compare(game, SEARCH, "heuristic", hands=12, seed=3, out=part)
    (part / "seating-1.parquet").unlink()  # as if stopped before the second seating was written
    kept = (part / "seating-0.parquet").stat().st_mtime_ns
    assert compare(game, SEARCH, "heuristic", hands=12, seed=3, out=part)["difference"] == whole["difference"]
    assert (part / "seating-0.parquet").stat().st_mtime_ns == kept and (part / "seating-1.parquet").exists()


def test_a_tournament_streams_every_pair_and_the_command_resumes_it(tmp_path, capsys):
    game = tricksim.make_game("nesmear")
    agents = ["heuristic", "random", SEARCH]
    memory = tournament(game, agents, hands=6, seed=1)
    streamed = tournament(game, agents, hands=6, seed=1, out=tmp_path)
    pd.testing.assert_frame_equal(streamed["differences"], memory["differences"])
    assert len(list((tmp_path / "hands").glob("pair-*"))) == 3
    assert main(["tournament", "nesmear", "--agents", *agents, "--hands", "6", "--seed", "1", "--out",
                 str(tmp_path)]) == 0
    assert "Tournament" in capsys.readouterr().out


@pytest.mark.skipif(not DASK, reason="Dask distributed is not installed (the dask extra)")
def test_simulate_and_compare_on_a_local_dask_cluster_give_the_same_rows(tmp_path):
    game = tricksim.make_game("shmear")
    here = tricksim.simulate("shmear", hands=300, seed=4, progress=False)
    there = tricksim.simulate("shmear", hands=300, seed=4, progress=False, dask="local")
    pd.testing.assert_frame_equal(here, there)
    assert compare(game, "heuristic", "random", hands=200, dask="local")["difference"] == compare(
        game, "heuristic", "random", hands=200)["difference"]
