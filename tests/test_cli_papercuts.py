"""The ``tricksim`` command's rough edges, smoothed: Ctrl-C and a closed pipe end it in one line
or none, counts read as people write them, the speed line keeps compiling apart, a finished file of
another run is not replaced unasked, the summaries name their agents and label positions one way."""

from __future__ import annotations

import argparse
import inspect
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import tricksim
from tricksim import cli, records
from tricksim.cli import count, main
from tricksim.errors import OptionError
from tricksim.experiments import decisions
from tricksim.experiments.study import study
from tricksim.experiments.summary import position_name
from tricksim.experiments.tournament import format_tournament, tournament
from tricksim.sim import batch

STOPPED = "tricksim: stopped\n"
STOPPED_RESUMABLE = "tricksim: stopped; run the same command again to resume\n"


def run(argv) -> int:
    """main's exit code, whether returned or raised by argparse."""
    try:
        return main([str(a) for a in argv])
    except SystemExit as exit_:
        return exit_.code


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


# --- counts ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text, value", [("100000", 100_000), ("100_000", 100_000), ("1e5", 100_000),
                                         ("1E5", 100_000), ("100k", 100_000), ("2M", 2_000_000),
                                         ("2.5k", 2_500), ("1", 1)])
def test_a_count_may_be_written_as_people_write_it(text, value):
    assert count(text) == value and isinstance(count(text), int)


@pytest.mark.parametrize("text", ["0", "-5", "1.5", "abc", "1e", "2G", "1__0", "", "0k", "1e-3", "nan", "1e30"])
def test_a_bad_count_is_an_argparse_error(capsys, text):
    assert run(["simulate", "sheepshead", "--hands", text]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "usage: tricksim simulate" in err
    assert f"argument --hands: {text!r}: give a count, a whole number >= 1" in err


COUNT_OPTIONS = {"hands", "policy", "steps", "eval_every", "eval_hands", "min_paired"}


def test_every_count_option_reads_counts():
    seen = set()
    for name, parser in _subparsers().items():
        for action in parser._actions:
            if action.dest in COUNT_OPTIONS:
                assert action.type is count, (name, action.dest)
                seen.add(action.dest)
    assert seen == COUNT_OPTIONS


@pytest.mark.parametrize("argv", [
    ["simulate", "sheepshead"], ["compare", "nesmear"], ["tournament", "nesmear", "--agents", "random", "heuristic"],
    ["sweep", "sheepshead", "--param", "pick_threshold", "--values", "8"], ["study", "pick", "sheepshead"],
], ids=lambda argv: argv[0])
def test_no_hands_is_refused_by_every_command_with_one_message(capsys, argv):
    assert run([*argv, "--hands", "0"]) == 2
    assert "argument --hands: '0': give a count, a whole number >= 1" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--steps", "--eval-every", "--eval-hands", "--hands"])
def test_train_refuses_no_steps_before_looking_for_the_rl_extra(capsys, option):
    assert run(["train", "bluke", option, "0"]) == 2
    assert f"argument {option}: '0': give a count" in capsys.readouterr().err


def test_no_hands_is_refused_in_python_too():
    game = tricksim.make_game("nesmear")
    for call in (lambda: tricksim.simulate("nesmear", hands=0), lambda: tricksim.compare("nesmear", "heuristic",
                                                                                          "random", hands=0),
                 lambda: tournament(game, ["heuristic", "random"], hands=0)):
        with pytest.raises(OptionError, match=r"hands = 0 is not allowed; play one deal or more"):
            call()


# --- default agents, said in the first line --------------------------------------------------


def test_the_agents_default_to_the_heuristic_everywhere_a_summary_is_made():
    assert _subparsers()["simulate"].get_default("agents") == "heuristic"
    for function in (tricksim.simulate, batch.simulate, batch.make_run, records.simulated_record):
        assert inspect.signature(function).parameters["agents"].default == "heuristic", function
    for name in ("simulate", "replay"):
        agents = next(a for a in _subparsers()[name]._actions if a.dest == "agents")
        assert agents.help.endswith("(default heuristic)"), name


def test_simulate_and_replay_play_the_heuristic_by_default(capsys):
    assert run(["simulate", "nesmear", "--hands", 200, "--seed", 3]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "200 hands of NE Smear, seed 3, agents heuristic"
    expected = tricksim.summarize(tricksim.simulate("nesmear", hands=200, seed=3, agents="heuristic"))
    assert f"bidder makes     {expected['made'][0]:.4f}" in out
    assert run(["replay", "--game", "nesmear", "--seed", 3, "--hand", 5]) == 0
    assert "agents: heuristic" in capsys.readouterr().out
    assert records.simulated_record("nesmear", 3, 5).agents == ["heuristic"] * 4


def test_a_tournament_names_its_agents_first():
    result = tournament(tricksim.make_game("nesmear"), ["heuristic", "random"], hands=20)
    assert format_tournament(result).splitlines()[0] == (
        "# Tournament: NE Smear: agents heuristic, random; 20 duplicate deals each pair")


# --- positions -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", tricksim.games())
def test_every_position_simulate_prints_is_named_by_position_name(capsys, game):
    assert run(["simulate", game, "--hands", 300, "--agents", "random"]) == 0
    lines = capsys.readouterr().out.splitlines()
    players = tricksim.make_game(game).players
    names = [position_name(k) for k in range(players)]
    from_dealer = next(line for line in lines if line.startswith("  from dealer"))
    assert re.findall(r"(\S+): [+-]\d", from_dealer) == names  # the dealer first, then round the table
    if "  by position" in "\n".join(lines):
        start = next(i for i, line in enumerate(lines) if line.startswith("  by position")) + 1
        block = [line.split()[0] for line in lines[start:start + players]]
        assert block == names[1:] + names[:1]  # in the order of the auction: eldest first, the dealer last
    assert not any("by seat" in line or "position 0" in line for line in lines)


# --- the speed line and the overwrite check --------------------------------------------------


def test_a_complete_file_is_said_to_be_complete_and_nothing_is_played(tmp_path, capsys):
    out = tmp_path / "hands.parquet"
    argv = ["simulate", "bluke", "--hands", 500, "--agents", "random", "--out", out]
    assert run(argv) == 0
    first = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"compiled in \d+\.\d s; played 500 hands in \d+\.\d\d s, [\d,.]+ hands/s", first[-2])
    assert first[-1] == f"wrote 500 rows to {out}"
    stamp = out.stat().st_mtime_ns
    assert run(argv) == 0
    again = capsys.readouterr().out.splitlines()
    assert again[-1] == f"{out} already holds this run's 500 hands; nothing played"
    assert again[:-1] == first[:-2] and out.stat().st_mtime_ns == stamp  # the same summary, read back


def test_a_file_of_another_run_is_kept_unless_overwrite_is_asked(tmp_path, capsys):
    out = tmp_path / "hands.parquet"
    assert run(["simulate", "bluke", "--hands", 500, "--agents", "random", "--out", out]) == 0
    capsys.readouterr()
    kept = out.read_bytes()
    other = ["simulate", "bluke", "--hands", 100, "--agents", "random", "--seed", 1, "--out", out]
    assert run(other) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == (
        f"tricksim: error: {out} holds another run (500 hands of Bluke, seed 0, agents random); "
        "choose another output, or overwrite it (--overwrite, or overwrite=True)\n")
    assert out.read_bytes() == kept and sorted(p.name for p in tmp_path.iterdir()) == ["hands.parquet"]
    assert run([*other, "--overwrite"]) == 0
    assert f"wrote 100 rows to {out}" in capsys.readouterr().out
    pd.testing.assert_frame_equal(pd.read_parquet(out), tricksim.simulate("bluke", 100, seed=1, agents="random"))
    assert run(["simulate", "bluke", "--hands", 100, "--overwrite"]) == 2
    assert "--overwrite goes with --out" in capsys.readouterr().err


def test_a_file_tricksim_did_not_write_is_kept_too(tmp_path, capsys):
    out = tmp_path / "mine.parquet"
    pq.write_table(pa.table({"x": [1, 2, 3]}), out)
    with pytest.raises(OptionError, match=f"{re.escape(str(out))} is there and holds no tricksim run"):
        tricksim.simulate("bluke", 10, agents="random", out=out)
    assert pq.read_table(out).column("x").to_pylist() == [1, 2, 3]


def _rows_file(path: Path, description: str) -> None:
    """A Parquet file that says it holds the run ``description`` describes."""
    table = pa.table({"hand": [0]})
    pq.write_table(table.replace_schema_metadata({batch.RUN_KEY: description}), path)


def test_a_study_folder_with_another_studys_rows_is_kept_unless_overwrite(tmp_path, capsys, monkeypatch):
    game = tricksim.make_game("sheepshead")
    other = decisions.make_study(game, 50, seed=7)
    rows = tmp_path / "rows.parquet"
    _rows_file(rows, other.describe())
    kept = rows.read_bytes()
    assert run(["study", "pick", "sheepshead", "--hands", 40, "--out", tmp_path]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tricksim: error: {rows} holds another study (50 hands of Sheepshead, "
                          "seed 7, agents heuristic); ") and "--overwrite" in err
    assert rows.read_bytes() == kept and not (tmp_path / "rows.parts").exists()
    # with overwrite the file is replaced by this study's rows (here played by a stand-in, no compile)
    monkeypatch.setattr(decisions, "play_chunk", lambda study, first, count: pd.DataFrame({"hand": range(count)}))
    mine = decisions.make_study(game, 40)
    with pytest.raises(OptionError, match="holds another study"):
        decisions.decision_file(mine, rows, progress=False)
    decisions.decision_file(mine, rows, progress=False, overwrite=True)
    assert batch.file_run(rows) == mine.describe() and len(pd.read_parquet(rows)) == 40
    assert "overwrite" in inspect.signature(study).parameters


def test_overwrite_replaces_the_parts_of_another_run(tmp_path):
    out = tmp_path / "hands.parquet"
    parts = tmp_path / "hands.parquet.parts"
    parts.mkdir()
    (parts / "run.json").write_text(batch.make_run(tricksim.make_game("bluke"), 99, agents="random").describe())
    with pytest.raises(OptionError, match=r"holds the parts of another run \(99 hands of Bluke"):
        tricksim.simulate("bluke", 30, agents="random", out=out)
    tricksim.simulate("bluke", 30, agents="random", out=out, overwrite=True)
    assert len(pd.read_parquet(out)) == 30 and not parts.exists()


# --- Ctrl-C and a closed pipe ----------------------------------------------------------------


SLOW_CLI = textwrap.dedent("""
    import signal, sys, time
    from pathlib import Path
    # Ctrl-C as at a terminal, also when the suite runs where SIGINT is ignored (a background job, nohup)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from tricksim.sim import batch
    batch.CHUNK = 1_000
    play = batch.play_chunk
    def slow(run, first, count, *args):
        Path(sys.argv[1]).touch()  # playing has begun
        time.sleep(float(sys.argv[2]) * count / 1_000)  # time for the test to stop it between chunks
        return play(run, first, count, *args)
    batch.play_chunk = slow
    from tricksim.cli import main
    sys.exit(main(sys.argv[3:]))
""")


def _start(tmp_path, argv, seconds, group=False):
    """Run ``tricksim argv`` in a process of its own, each chunk taking ``seconds`` more per 1,000 hands."""
    script, started = tmp_path / "slow_cli.py", tmp_path / "started"
    script.write_text(SLOW_CLI)
    return subprocess.Popen([sys.executable, str(script), str(started), str(seconds), *map(str, argv)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=group), started


def _wait_for(condition, seconds=600):  # the first run in a process may compile for minutes
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_ctrl_c_stops_simulate_in_one_line_and_the_same_command_resumes(tmp_path):
    out = tmp_path / "hands.parquet"
    parts = tmp_path / "hands.parquet.parts"
    argv = ["simulate", "sheepshead", "--hands", 20_000, "--seed", 3, "--agents", "random", "--out", out]
    process, _ = _start(tmp_path, argv, 0.25)
    _wait_for(lambda: len(list(parts.glob("part-*.arrow"))) >= 3)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130 and stderr == STOPPED_RESUMABLE, stderr
    assert not out.exists()
    again, _ = _start(tmp_path, argv, 0.25)
    stdout, stderr = again.communicate(timeout=600)
    assert again.returncode == 0 and stderr == ""
    line = next(line for line in stdout.splitlines() if line.startswith("compiled in"))
    done = int(re.search(r"resumed after ([\d,]+) hands: ", line)[1].replace(",", ""))
    assert 3_000 <= done < 20_000 and done % 1_000 == 0
    assert f"played {20_000 - done:,} hands in " in line
    pd.testing.assert_frame_equal(pd.read_parquet(out), tricksim.simulate("sheepshead", 20_000, seed=3,
                                                                          agents="random"))


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_stops_a_command_without_an_output_in_one_line(tmp_path, workers):
    # The terminal sends Ctrl-C to the whole process group: the workers stop too, quietly, also one
    # that waits for work (it would print a traceback). The chunks of 1,000 and 100 hands take 4 s
    # and 0.4 s: Ctrl-C comes while one worker plays and the other waits.
    argv = ["compare", "nesmear", "--hands", 1_100, "--a", "random", "--workers", workers]
    process, started = _start(tmp_path, argv, 4, group=True)
    _wait_for(started.exists)
    time.sleep(1.5)
    os.killpg(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130 and stderr == STOPPED and stdout == ""


def test_a_closed_pipe_ends_the_command_quietly(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "tricksim.cli", "simulate", "bluke", "--hands", "100",
                                "--agents", "random"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # as `| head` does once it has its lines
    stderr = process.stderr.read()
    assert process.wait(timeout=600) == 1 and stderr == b""


# --- help ------------------------------------------------------------------------------------


def test_every_set_option_points_at_the_rules_page():
    with_set = {name: parser for name, parser in _subparsers().items() if name != "warmup"}  # warmup takes no options
    for name, parser in with_set.items():
        action = next(a for a in parser._actions if a.dest == "set")
        assert action.help.endswith(cli.SET_HELP), name
    assert cli.SET_HELP == "a game option (see docs/rules.md), e.g. --set no_pick=doubler (repeatable)"
    assert "RULES.md" not in Path(cli.__file__).read_text()
