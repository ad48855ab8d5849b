"""The ``tricksim`` command, run in-process, and the errors of make_game / simulate."""

from __future__ import annotations

import re

import numba
import pandas as pd
import pytest

import tricksim
from tricksim.cli import main
from tricksim.errors import OptionError


@pytest.fixture(autouse=True)
def restore_threads():
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)


def run(argv) -> int:
    """main's exit code, whether returned or raised by argparse."""
    try:
        return main([str(a) for a in argv])
    except SystemExit as exit_:
        return exit_.code


def _line(out: str, start: str) -> str:
    lines = [line for line in out.splitlines() if line.startswith(start)]
    assert len(lines) == 1, f"one line starting {start!r} expected in:\n{out}"
    return lines[0]


def test_simulate_prints_the_summary(capsys):
    assert run(["simulate", "sheepshead", "--hands", 2000, "--seed", 1, "--agents", "random"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    s = tricksim.summarize(tricksim.simulate("sheepshead", hands=2000, seed=1, agents="random"))
    assert out.splitlines()[0] == "2,000 hands of Sheepshead, seed 1, agents random"
    assert re.fullmatch(r"hands\s+2,000", _line(out, "hands"))
    assert re.fullmatch(r"compiled in \d+\.\d s; played 2,000 hands in \d+\.\d\d s, [\d,]+ hands/s",
                        out.splitlines()[-1])
    pick = _line(out, "pick rate")
    assert f"{s['pick_rate']:.4f}" in pick and f"alone {s['alone_rate']:.4f}" in pick
    win, low, high = s["picker_win"]
    picker = _line(out, "picker side wins")
    assert f"{win:.4f}" in picker and "Wilson interval" in picker and f"[{low:.4f}, {high:.4f}]" in picker
    schneider = _line(out, "schneider")
    assert f"{s['schneider_rate']:.4f}" in schneider and f"no-trick {s['no_trick_rate']:.4f}" in schneider
    leaster = _line(out, "leaster")
    assert f"{s['leaster_rate']:.4f}" in leaster and f"thrown in {s['thrown_in_rate']:.4f}" in leaster
    mean = _line(out, "mean score")
    for seat, (m, _, _) in enumerate(s["mean_score"]):
        assert f"seat {seat}: {m:+.4f}" in mean
    assert "dealer:" in _line(out, "  from dealer") and "eldest:" in _line(out, "  from dealer")
    assert 0 < s["pick_rate"] <= 1 and low < win < high  # the figures are real ones


def test_simulate_options_reach_the_game(capsys):
    assert run(["simulate", "sheepshead", "--hands", 3000, "--seed", 4, "--set", "no_pick=doubler",
                "--agents", "random"]) == 0
    out, _ = capsys.readouterr()
    s = tricksim.summarize(tricksim.simulate("sheepshead", hands=3000, seed=4, agents="random", no_pick="doubler"))
    assert s["thrown_in_rate"] > 0
    assert f"thrown in {s['thrown_in_rate']:.4f}" in _line(out, "leaster")
    assert out.splitlines()[0] == "3,000 hands of Sheepshead (no_pick=doubler), seed 4, agents random"


def test_out_writes_the_rows_of_simulate(tmp_path, capsys):
    path = tmp_path / "x.parquet"
    argv = ["simulate", "sheepshead", "--hands", 2000, "--seed", 9, "--set", "no_call=unknown",
            "--set", "double_on_bump=true", "--agents", "random", "--out", path]
    assert run(argv) == 0
    out, _ = capsys.readouterr()
    assert f"wrote 2,000 rows to {path}" in out
    written = pd.read_parquet(path)
    expected = tricksim.simulate("sheepshead", hands=2000, seed=9, agents="random", no_call="unknown",
                                 double_on_bump=True)
    pd.testing.assert_frame_equal(written, expected)


def test_threads_do_not_change_the_output(tmp_path, capsys):
    one, default = tmp_path / "one.parquet", tmp_path / "default.parquet"
    argv = ["simulate", "sheepshead", "--hands", 5000, "--seed", 2, "--agents", "random"]
    assert run([*argv, "--threads", 1, "--out", one]) == 0
    assert run([*argv, "--out", default]) == 0
    pd.testing.assert_frame_equal(pd.read_parquet(one), pd.read_parquet(default))


ERROR_CASES = [
    # (id, arguments after "simulate", text the message must contain)
    ("unknown-game", ["euchre"], ["'euchre'", "sheepshead"]),
    ("unknown-option", ["sheepshead", "--set", "foo=1"], ["'foo'", "no_pick"]),
    ("bad-option-value", ["sheepshead", "--set", "no_pick=sometimes"], ["'sometimes'", "leaster"]),
    ("bad-bool-value", ["sheepshead", "--set", "double_on_bump=maybe"], ["double_on_bump", "maybe"]),
    ("not-option-value", ["sheepshead", "--set", "novalue"], ["novalue"]),
    ("players", ["sheepshead", "--set", "players=4"], ["players", "4"]),
    ("match-hands", ["sheepshead", "--set", "hands=7"], ["hands", "7"]),
    ("negative-seed", ["sheepshead", "--seed", -1], ["seed", "-1"]),
    ("threads", ["sheepshead", "--threads", 0], ["--threads", "0"]),
]


@pytest.mark.parametrize("args, expected", [row[1:] for row in ERROR_CASES], ids=[row[0] for row in ERROR_CASES])
def test_errors_exit_2_with_a_message_and_write_nothing(tmp_path, capsys, args, expected):
    path = tmp_path / "out.parquet"
    threads = numba.get_num_threads()
    hands = [] if "--hands" in args else ["--hands", 100]
    assert run(["simulate", *args, *hands, "--out", path]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("tricksim: error: ") and err.endswith("\n") and err.count("\n") == 1, err
    for text in expected:
        assert text in err, err
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []
    assert numba.get_num_threads() == threads


@pytest.mark.parametrize("name", ["x.csv", "x.parquet.bak", "x"])
def test_out_must_be_a_parquet_file(tmp_path, capsys, name):
    path = tmp_path / name
    assert run(["simulate", "sheepshead", "--hands", 100, "--out", path]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("tricksim: error: ") and repr(str(path)) in err and "parquet" in err.lower()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv", [
    ["simulate", "sheepshead", "--hands", "abc"],
    ["simulate", "sheepshead", "--hands", "-5"],
    ["simulate"],
    ["frobnicate"],
    [],
], ids=["hands-not-a-number", "negative-hands", "no-game", "unknown-command", "nothing"])
def test_usage_errors_exit_2(capsys, argv):
    assert run(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and "usage: tricksim" in err


# --- make_game and simulate -----------------------------------------------------------------------


@pytest.mark.parametrize("name, options, text", [
    ("euchre", {}, "'euchre'"),
    ("Sheepshead", {}, "'Sheepshead'"),
    ("sheepshead", {"foo": 1}, "'foo'"),
    ("sheepshead", {"no_pick": "sometimes"}, "'sometimes'"),
    ("sheepshead", {"no_call": "partner"}, "'partner'"),
    ("sheepshead", {"partner": "jack_of_hearts"}, "'jack_of_hearts'"),
    ("sheepshead", {"double_on_bump": "maybe"}, "maybe"),  # docs/rules.md, All games: Options: name the problem
    ("sheepshead", {"double_on_bump": 2}, "2"),
    ("sheepshead", {"hands": "ten"}, "'ten'"),
    ("sheepshead", {"players": 4}, "players"),
    ("sheepshead", {"hands": 7}, "7"),
    ("sheepshead", {"hands": 0}, "hands"),
])
def test_make_game_errors(name, options, text):
    with pytest.raises(OptionError) as error:
        tricksim.make_game(name, **options)
    assert isinstance(error.value, ValueError)
    assert text in str(error.value)


def test_make_game_accepts_the_options_of_the_rule_book():
    game = tricksim.make_game("sheepshead", no_call="unknown", partner="jack_of_diamonds",
                              no_pick="forced", double_on_bump=True, hands=20)
    assert game.options["no_pick"] == "forced" and game.options["double_on_bump"] is True
    assert tricksim.make_game("sheepshead", double_on_bump="true").options["double_on_bump"] is True
    assert tricksim.games() == sorted(tricksim.games()) and "sheepshead" in tricksim.games()


@pytest.mark.parametrize("kwargs, text", [
    ({"agents": "genius"}, "'genius'"),
    ({"agents": ["random"] * 4 + ["genius"]}, "'genius'"),
    ({"agents": ["random", "random"]}, "2 given for 5 seats"),
    ({"agents": "random:depth=3"}, "takes no parameters"),
    ({"workers": 0}, "workers = 0"),
    ({"hands": -1}, "-1"),
    ({"hands": 0}, "one deal or more"),
    ({"hands": 2.5}, "2.5"),
    ({"hands": True}, "True"),
    ({"seed": -1}, "-1"),
    ({"seed": 2**63}, str(2**63)),
    ({"no_pick": "sometimes"}, "'sometimes'"),
])
def test_simulate_errors(kwargs, text):
    args = {"hands": 10, **kwargs}
    with pytest.raises(OptionError) as error:
        tricksim.simulate("sheepshead", **args)
    assert text in str(error.value)


def test_simulate_unknown_game():
    with pytest.raises(OptionError, match="'euchre'"):
        tricksim.simulate("euchre", hands=10)
