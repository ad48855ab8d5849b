"""Runs of a decision study (tricksim/experiments/study.py, decisions.py): the rows streamed to a
folder part by part, resumed after a stop without playing a finished chunk again, kept when
complete, and played on a Dask cluster, each way with the rows and tables of a run in memory."""

from __future__ import annotations

import importlib.util
import sys

import pandas as pd
import pytest

import tricksim
from tricksim.cli import main
from tricksim.errors import OptionError
from tricksim.experiments import decisions
from tricksim.sim import cluster
from tricksim.experiments.study import study, write_study

DASK = importlib.util.find_spec("distributed") is not None  # the dask extra
HANDS = 350
SMALL_CHUNK = 100  # four chunks, the last one short


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(decisions, "CHUNK", SMALL_CHUNK)


@pytest.fixture(scope="module")
def in_memory():
    """The study of HANDS Sheepshead deals from seed 4, played in memory (in one chunk)."""
    return study(tricksim.make_game("sheepshead"), HANDS, seed=4, progress=False)


def assert_same_study(streamed: dict, expected: dict) -> None:
    rows = streamed["rows"].read() if hasattr(streamed["rows"], "read") else streamed["rows"]
    pd.testing.assert_frame_equal(rows, expected["rows"])
    pd.testing.assert_frame_equal(streamed["table"], expected["table"])
    pd.testing.assert_frame_equal(streamed["best"], expected["best"])


_play_chunk = decisions.play_chunk


def counting(played: list, stop_after: int | None = None):
    """A chunk player that notes the first deal of each chunk it plays, and is stopped (as by
    Ctrl-C) when asked for one more chunk than ``stop_after``."""
    def play(plan, first, count):
        if stop_after is not None and len(played) == stop_after:
            raise KeyboardInterrupt
        played.append(first)
        return _play_chunk(plan, first, count)
    return play


def test_streamed_study_equals_the_one_in_memory(small_chunks, in_memory, tmp_path):
    result = study(tricksim.make_game("sheepshead"), HANDS, seed=4, out=tmp_path, progress=False)
    assert_same_study(result, in_memory)
    assert len(result["rows"]) == len(in_memory["rows"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rows.parquet"]  # the parts are joined and gone
    assert '"chunk": 100' in tricksim.sim.batch.file_run(tmp_path / "rows.parquet")
    paths = write_study(result, tmp_path)  # the other files beside the rows, which stay as they are
    assert [p.name for p in paths] == ["rows.parquet", "table.csv", "best.csv", "policy.csv", "best.png", "values.png",
                                      "study.md"]
    write_study(result, tmp_path / "copy")
    assert (tmp_path / "copy" / "rows.parquet").read_bytes() == (tmp_path / "rows.parquet").read_bytes()


def test_streamed_bid_study_with_classes_of_the_deal(small_chunks, tmp_path):
    # Bluke's default classes read the deal's columns at the seat: worked out row group by row group
    game = tricksim.make_game("bluke", players=3)
    expected = study(game, 120, seed=2, progress=False)
    assert_same_study(study(game, 120, seed=2, out=tmp_path, progress=False), expected)


def test_a_stopped_study_resumes_from_its_finished_parts(small_chunks, in_memory, tmp_path, monkeypatch):
    game = tricksim.make_game("sheepshead")
    whole = tmp_path / "whole"
    study(game, HANDS, seed=4, out=whole, progress=False)
    out = tmp_path / "stopped"
    monkeypatch.setattr(decisions, "play_chunk", counting([], stop_after=3))
    with pytest.raises(KeyboardInterrupt):
        study(game, HANDS, seed=4, out=out, progress=False)
    parts = out / "rows.parts"
    assert sorted(p.name for p in parts.iterdir()) == ["part-000000.arrow", "part-000001.arrow",
                                                       "part-000002.arrow", "run.json"]
    assert not (out / "rows.parquet").exists()
    (parts / "part-000001.arrow").write_bytes(b"ARROW1 half a file")  # as if cut off mid-write
    (parts / "part-000002.arrow").unlink()
    played = []
    monkeypatch.setattr(decisions, "play_chunk", counting(played))
    result = study(game, HANDS, seed=4, out=out, progress=False)
    assert played == [100, 200, 300]  # chunk 0 was kept
    assert_same_study(result, in_memory)
    assert (out / "rows.parquet").read_bytes() == (whole / "rows.parquet").read_bytes() and not parts.exists()


def test_parts_of_another_study_are_an_error_and_stay(small_chunks, tmp_path, monkeypatch):
    game = tricksim.make_game("sheepshead")
    monkeypatch.setattr(decisions, "play_chunk", counting([], stop_after=2))
    with pytest.raises(KeyboardInterrupt):
        study(game, HANDS, seed=4, out=tmp_path, progress=False)
    parts = tmp_path / "rows.parts"
    before = {p.name: p.read_bytes() for p in parts.iterdir()}
    with pytest.raises(OptionError, match=f"{parts} holds the parts of another study"):
        study(game, HANDS, seed=5, out=tmp_path, progress=False)
    assert {p.name: p.read_bytes() for p in parts.iterdir()} == before


def test_a_complete_study_plays_nothing(small_chunks, in_memory, tmp_path, monkeypatch):
    game = tricksim.make_game("sheepshead")
    study(game, HANDS, seed=4, out=tmp_path, progress=False)
    stamp = (tmp_path / "rows.parquet").stat().st_mtime_ns
    played = []
    monkeypatch.setattr(decisions, "play_chunk", counting(played))
    assert_same_study(study(game, HANDS, seed=4, out=tmp_path, progress=False), in_memory)
    assert played == [] and (tmp_path / "rows.parquet").stat().st_mtime_ns == stamp
    with pytest.raises(OptionError, match="holds another study"):  # another study: refused, the file kept
        study(game, 150, seed=4, out=tmp_path, progress=False)
    assert played == [] and (tmp_path / "rows.parquet").stat().st_mtime_ns == stamp
    study(game, 150, seed=4, out=tmp_path, progress=False, overwrite=True)  # asked: played, the file replaced
    assert played == [0, 100] and (tmp_path / "rows.parquet").stat().st_mtime_ns != stamp


@pytest.mark.skipif(not DASK, reason="needs the dask extra")
def test_a_study_on_a_local_dask_cluster_is_the_same(small_chunks, in_memory, tmp_path):
    # a LocalCluster of a worker per core, started and stopped: a few seconds
    game = tricksim.make_game("sheepshead")
    assert_same_study(study(game, HANDS, seed=4, out=tmp_path, dask="local", progress=False), in_memory)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rows.parquet"]


def test_bad_dask_addresses_are_clear_errors_that_change_nothing(tmp_path, monkeypatch, capsys):
    game = tricksim.make_game("sheepshead")
    out = tmp_path / "study"
    with pytest.raises(OptionError, match="tcp://host:port"):
        study(game, 100, dask="bogus", out=out)
    assert main(["study", "pick", "sheepshead", "--hands", "100", "--dask", "127.0.0.1:8786", "--out", str(out)]) == 2
    assert "tricksim: error: dask = '127.0.0.1:8786': give a Dask scheduler's address" in capsys.readouterr().err
    if DASK:
        monkeypatch.setattr(cluster, "DASK_TIMEOUT", 1)
        with pytest.raises(OptionError, match="no Dask scheduler answered there within 1 s"):
            study(game, 100, dask="tcp://127.0.0.1:1", out=out)
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    with pytest.raises(OptionError, match=r"pip install 'tricksim\[dask\]'"):
        study(game, 100, dask="local", out=out)
    assert not out.exists()


def test_study_command_streams_and_then_reuses_its_rows(tmp_path, monkeypatch, capsys):
    command = ["study", "pick", "sheepshead", "--hands", "300", "--out", str(tmp_path)]
    assert main(command) == 0
    first = capsys.readouterr().out
    assert f"wrote {tmp_path / 'rows.parquet'}" in first and f"wrote {tmp_path / 'best.png'}" in first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["best.csv", "best.png", "policy.csv", "rows.parquet",
                                                          "study.md", "table.csv", "values.png"]
    played = []
    monkeypatch.setattr(decisions, "play_chunk", counting(played))
    assert main(command) == 0
    assert played == [] and capsys.readouterr().out == first
