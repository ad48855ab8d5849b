"""Runs of the batch simulator: the same rows for any worker count, Parquet output streamed in parts,
and a stopped run (an exception, or ``kill -9``) that resumes into the very file an uninterrupted
run writes."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time

import pandas as pd
import pytest

import tricksim
from tricksim.errors import OptionError
from tricksim.sim import batch

HANDS = 5_500
SMALL_CHUNK = 1_000  # six chunks, the last one short


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(batch, "CHUNK", SMALL_CHUNK)


@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_rows_do_not_depend_on_workers_or_chunks(small_chunks, monkeypatch, start):
    # forked workers write their rows into memory shared with the parent, spawned ones send them
    monkeypatch.setattr(batch, "_start_method", lambda: multiprocessing.get_context(start))
    one = tricksim.simulate("sheepshead", hands=HANDS, seed=3, agents="random")
    two = tricksim.simulate("sheepshead", hands=HANDS, seed=3, workers=2, agents="random")
    pd.testing.assert_frame_equal(one, two)
    run = batch.make_run(tricksim.make_game("sheepshead"), HANDS, 3, agents="random")
    pd.testing.assert_frame_equal(one, batch.play_chunk(run, 0, HANDS))  # one call of the loop
    assert one["hand"].tolist() == list(range(HANDS))
    assert one["picker"].isna().any() and one["picker"].notna().any()  # leasters: missing values survive


@pytest.mark.parametrize("game", tricksim.games())
@pytest.mark.parametrize("agents", ["random", "heuristic"])
def test_a_chunk_keeps_its_rows_when_the_next_is_played(game, agents):
    # the batch loop writes into the same scratch memory chunk after chunk
    run = batch.make_run(tricksim.make_game(game), 400, 5, agents)
    first = batch.play_chunk(run, 0, 200)
    kept = first.copy(deep=True)
    second = batch.play_chunk(run, 200, 200)
    pd.testing.assert_frame_equal(first, kept)
    assert second["hand"].tolist() == list(range(200, 400))


def test_out_file_holds_the_rows_and_the_run(small_chunks, tmp_path):
    out = tmp_path / "hands.parquet"
    path = tricksim.simulate("shmear", hands=HANDS, seed=2, out=out, teams=2, agents="random")
    assert path == out and not (tmp_path / "hands.parquet.parts").exists()
    expected = tricksim.simulate("shmear", hands=HANDS, seed=2, teams=2, agents="random")
    pd.testing.assert_frame_equal(pd.read_parquet(out), expected)
    run = batch.file_run(out)
    assert '"teams": 2' in run and '"hands": 5500' in run
    stamp = out.stat().st_mtime_ns
    tricksim.simulate("shmear", hands=HANDS, seed=2, out=out, teams=2, agents="random")  # complete: untouched
    assert out.stat().st_mtime_ns == stamp
    with pytest.raises(OptionError, match="holds another run"):  # another run: refused, the file kept
        tricksim.simulate("shmear", hands=100, seed=2, out=out, teams=2, agents="random")
    assert out.stat().st_mtime_ns == stamp and not (tmp_path / "hands.parquet.parts").exists()
    tricksim.simulate("shmear", hands=100, seed=2, out=out, teams=2, agents="random", overwrite=True)  # replaced
    assert len(pd.read_parquet(out)) == 100


def test_a_run_stopped_by_an_error_resumes_into_the_same_file(small_chunks, tmp_path, monkeypatch):
    whole = tmp_path / "whole.parquet"
    tricksim.simulate("sheepshead", hands=HANDS, seed=5, out=whole, agents="random")
    out = tmp_path / "stopped.parquet"
    write_part = batch._write_part
    written = []

    def failing(run, index, first, count, folder):
        if len(written) == 3:
            raise KeyboardInterrupt  # as if stopped by Ctrl-C during the fourth chunk
        written.append(index)
        return write_part(run, index, first, count, folder)

    monkeypatch.setattr(batch, "_write_part", failing)
    with pytest.raises(KeyboardInterrupt):
        tricksim.simulate("sheepshead", hands=HANDS, seed=5, out=out, agents="random")
    parts = sorted(p.name for p in (tmp_path / "stopped.parquet.parts").iterdir())
    assert parts == ["part-000000.arrow", "part-000001.arrow", "part-000002.arrow", "run.json"]
    assert not out.exists()
    monkeypatch.setattr(batch, "_write_part", write_part)
    played = []
    monkeypatch.setattr(batch, "play_chunk", lambda run, first, count, game=None: _record_play(played, run, first, count, game))
    tricksim.simulate("sheepshead", hands=HANDS, seed=5, out=out, agents="random")
    assert played == [3000, 4000, 5000]  # only the missing chunks are played again
    assert out.read_bytes() == whole.read_bytes()


_play_chunk = batch.play_chunk


def _record_play(played, run, first, count, game):
    played.append(first)
    return _play_chunk(run, first, count, game)


def test_a_broken_part_is_played_again(small_chunks, tmp_path):
    whole = tmp_path / "whole.parquet"
    tricksim.simulate("nesmear", hands=HANDS, seed=1, out=whole, agents="random")
    out = tmp_path / "broken.parquet"
    parts = tmp_path / "broken.parquet.parts"
    parts.mkdir()
    run = batch.make_run(tricksim.make_game("nesmear"), HANDS, 1, agents="random")
    (parts / "run.json").write_text(run.describe())
    (parts / "part-000001.arrow").write_bytes(b"ARROW1 half a file")  # cut off mid-write
    (parts / "part-000002.tmp").write_bytes(b"junk")
    tricksim.simulate("nesmear", hands=HANDS, seed=1, out=out, agents="random")
    assert out.read_bytes() == whole.read_bytes() and not parts.exists()


def test_parts_of_another_run_are_an_error_and_stay(small_chunks, tmp_path):
    out = tmp_path / "hands.parquet"
    parts = tmp_path / "hands.parquet.parts"
    parts.mkdir()
    (parts / "run.json").write_text("{}")
    with pytest.raises(OptionError, match="another run"):
        tricksim.simulate("sheepshead", hands=HANDS, seed=5, out=out, agents="random")
    assert (parts / "run.json").read_text() == "{}" and not out.exists()


KILLED_RUN = textwrap.dedent("""
    import sys, time
    import tricksim
    from tricksim.sim import batch
    batch.CHUNK = 20_000
    play = batch.play_chunk
    def slow(*args, **kwargs):
        time.sleep(0.3)  # time for the test to kill it between parts
        return play(*args, **kwargs)
    batch.play_chunk = slow
    tricksim.simulate("sheepshead", hands=200_000, seed=8, out=sys.argv[1], agents=sys.argv[2], progress=False)
""")


@pytest.mark.parametrize("agents", ["random"])
def test_a_killed_run_resumes_into_the_same_file(tmp_path, agents):
    whole, out = tmp_path / "whole.parquet", tmp_path / "killed.parquet"
    parts = tmp_path / "killed.parquet.parts"
    script = tmp_path / "run.py"
    script.write_text(KILLED_RUN)
    subprocess.run([sys.executable, str(script), str(whole), agents], check=True)
    process = subprocess.Popen([sys.executable, str(script), str(out), agents])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list(parts.glob("part-*.arrow"))) < 3:
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    finished = len(list(parts.glob("part-*.arrow")))
    assert 3 <= finished < 10 and not out.exists()
    subprocess.run([sys.executable, str(script), str(out), agents], check=True)
    assert out.read_bytes() == whole.read_bytes() and not parts.exists()
