"""Bots of the user's own: Python agents (``python:``, objects) and programs over the JSON-lines
protocol (``exec:``), in the commands that seat agents, with every fault they can make."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import tricksim
from tricksim.cli import main
from tricksim.envs import engine
from tricksim.errors import BotError, OptionError
from tricksim.sim.kernels import new_rng
from tricksim.sim.state import State
from test_view import _check_view

ROOT = Path(__file__).parent.parent
FAULTY = Path(__file__).parent / "bots" / "faulty.py"
SIMPLE_PY = ROOT / "examples" / "bots" / "simple.py"
SIMPLE_JS = ROOT / "examples" / "bots" / "simple.js"


def faulty(mode: str, at: int = 0, log=None, **params) -> str:
    extra = "".join(f":{k}={v}" for k, v in params.items())
    return f"exec:{sys.executable} {FAULTY} {mode} {at}" + (f" {log}" if log else "") + extra


class FirstLegal:
    """Plays the first legal action; counts its hands through the hooks."""

    def __init__(self, label: bool = False):
        self.label, self.started, self.ended = label, 0, []

    def start_hand(self, view):
        self.started += 1

    def act(self, view):
        return view.legal[0] if self.label else view.legal_ids[0]

    def end_hand(self, view, scores):
        self.ended.append(scores[view.seat])


class Totals(FirstLegal):
    """Keeps the match totals it is shown."""

    seen: list = []

    def act(self, view):
        Totals.seen.append(view.totals)
        return super().act(view)


def test_a_python_agent_object_plays_in_compare_and_its_hooks_run():
    bot = FirstLegal()
    r = tricksim.compare("nesmear", bot, "heuristic", hands=50)
    assert r["hands"] == 50 and r["difference"][1] < 0
    assert bot.started == len(bot.ended) > 0


def test_a_python_agent_by_file_and_module_with_parameters_replays_the_same_rows():
    spec = f"python:{SIMPLE_PY}:SimpleBot"
    a = tricksim.simulate("sheepshead", hands=40, agents=[spec, "heuristic", "random", "heuristic", "heuristic"],
                          progress=False)
    b = tricksim.simulate("sheepshead", hands=40, agents=[spec, "heuristic", "random", "heuristic", "heuristic"],
                          progress=False, workers=2)
    pd.testing.assert_frame_equal(a, b)
    df = tricksim.simulate("shmear", hands=20, agents="python:test_bots:FirstLegal:label=true", progress=False)
    assert len(df) == 20


@pytest.mark.parametrize("spec, match", [
    ("python:nosuchmodule:Bot", "cannot import nosuchmodule"),
    ("python:test_bots:NoSuchClass", "has no class 'NoSuchClass'"),
    ("python:test_bots:FirstLegal:colour=red", "cannot make FirstLegal"),
    ("python:onlyone", "python:MODULE:CLASS"),
    ("exec:", "give the bot's command"),
    ("exec:bot:timeout=-1", "timeout"),
    ("exec:bot:on_error=retry", "on_error"),
])
def test_a_wrong_bot_spec_is_an_option_error_naming_it(spec, match):
    with pytest.raises(OptionError, match=match):
        tricksim.simulate("nesmear", hands=2, agents=spec, progress=False)


def test_the_python_example_plays_as_an_exec_bot_and_the_same_as_its_python_agent():
    py = tricksim.simulate("nesmear", hands=30, agents=[f"python:{SIMPLE_PY}:SimpleBot", "heuristic"] * 2,
                           progress=False)
    ex = tricksim.simulate("nesmear", hands=30, agents=[f"exec:{sys.executable} {SIMPLE_PY}", "heuristic"] * 2,
                           progress=False)
    pd.testing.assert_frame_equal(py, ex)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed: the JavaScript example needs it")
def test_the_javascript_example_plays_and_matches_the_python_one():
    js = tricksim.simulate("sheepshead", hands=30, agents=f"exec:node {SIMPLE_JS}", progress=False)
    py = tricksim.simulate("sheepshead", hands=30, agents=f"python:{SIMPLE_PY}:SimpleBot", progress=False)
    pd.testing.assert_frame_equal(js, py)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split()[2] != "Z"


@pytest.mark.parametrize("mode, what", [
    ("exit", "exited (status 3)"),
    ("hang", "gave no answer within 0.5 s"),
    ("garbage", "not JSON"),
    ("illegal", "not legal"),
])
def test_a_failing_exec_bot_stops_the_run_with_one_line_and_is_ended(tmp_path, capsys, mode, what):
    log = tmp_path / "log.jsonl"
    agents = ",".join([faulty(mode, 5, log, timeout=0.5)] + ["heuristic"] * 4)
    assert main(["simulate", "sheepshead", "--hands", "20", "--agents", agents]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and what in err[0] and "Traceback" not in err[0]
    assert err[0].startswith(f"tricksim: error: bot {faulty(mode, 5, log, timeout=0.5)} (seat 0)")
    assert "hand " in err[0] and "decision " in err[0] and "legal: " in err[0]
    if mode in ("garbage", "illegal"):
        assert "it answered" in err[0]
    for pid in map(int, (tmp_path / "log.jsonl.pid").read_text().split()):
        assert not _alive(pid)


def test_a_silent_bot_is_ended_when_the_run_stops_and_the_workers_end_theirs(tmp_path):
    log = tmp_path / "log.jsonl"
    with pytest.raises(BotError, match="no answer|no request"):  # it stops reading too
        tricksim.simulate("nesmear", hands=3000, agents=[faulty("silent", 3, log, timeout=0.3)] + ["random"] * 3,
                          workers=2, progress=False)
    pids = list(map(int, (tmp_path / "log.jsonl.pid").read_text().split()))
    assert pids and not any(_alive(pid) for pid in pids)


def test_a_python_agent_that_raises_or_answers_wrong_is_a_bot_error():
    class Raises:
        def act(self, view):
            raise RuntimeError("oops")

    class Wrong:
        def act(self, view):
            return "play 2C"

    with pytest.raises(BotError, match=r"\(seat 0\) raised RuntimeError: oops: hand 0, decision \d+; legal: play "):
        tricksim.simulate("sheepshead", hands=2, agents=[Raises()] + ["heuristic"] * 4, progress=False)
    with pytest.raises(BotError, match="answered an action that is not legal.*it answered 'play 2C'"):
        tricksim.simulate("bluke", hands=2, agents=Wrong(), progress=False)


def test_on_error_random_plays_on_and_counts_the_faults():
    df = tricksim.simulate("sheepshead", hands=30, agents=[faulty("illegal", 0, on_error="random")] + ["heuristic"] * 4,
                           progress=False)
    assert (df["bot_faults"] > 0).all() and len(df) == 30


def test_a_stopped_run_keeps_its_rows_and_resumes(tmp_path, monkeypatch):
    out = tmp_path / "hands.parquet"
    agents = [faulty("exit", 0)] + ["heuristic"] * 3
    monkeypatch.setenv("FAULTY_BOT_FAIL_AT", "6000")  # within the second chunk of 1024 hands
    with pytest.raises(BotError):
        tricksim.simulate("nesmear", hands=2048, agents=agents, out=out, progress=False)
    parts = list((tmp_path / "hands.parquet.parts").glob("*"))
    assert parts and not out.exists()
    monkeypatch.setenv("FAULTY_BOT_FAIL_AT", "1000000")
    tricksim.simulate("nesmear", hands=2048, agents=agents, out=out, progress=False)
    whole = tricksim.simulate("nesmear", hands=2048, agents=agents, progress=False)
    pd.testing.assert_frame_equal(pd.read_parquet(out).reset_index(drop=True), whole, check_like=True)


@pytest.mark.parametrize("name", tricksim.games())
def test_a_bot_is_sent_only_what_its_seat_may_know(tmp_path, name):
    """Every request of random runs, decoded and checked against the hand rebuilt from the bot's
    answers: the seat's hand and no other, the piles to who saw them, the partner once known."""
    game = tricksim.make_game(name)
    log = tmp_path / "log.jsonl"
    tricksim.simulate(name, hands=12, seed=3, agents=faulty("good", 0, log), progress=False)
    requests = [json.loads(line) for line in log.read_text().splitlines()]
    assert requests[0]["message"] == {"type": "hello", "protocol": 1}
    requests = requests[1:]
    by_hand: dict[int, list] = {}
    for r in requests:
        by_hand.setdefault(r["message"]["hand_number"], []).append(r)
    assert sorted(by_hand) == list(range(12))
    extra = ("type", "game", "players", "options", "hand_number", "decision", "legal", "legal_ids", "totals")
    for number, messages in by_hand.items():
        s = np.zeros(game.kernels.STATE_SIZE, np.int64)
        engine.kernels(game.family).deal_hand(game.family, s, 3, number, game.players, game.option_array, new_rng())
        state = State(game, s)
        held = [set(state.hand(p).labels()) for p in range(game.players)]
        kinds = [m["message"]["type"] for m in messages]
        assert kinds[0] == "start" and kinds[-1] == "end"
        for m in messages:
            message = m["message"]
            if message["type"] != "act":
                continue
            seat = message["seat"]
            assert message["legal"] == state.legal_labels() and message["decision"] == len(state.history) + 1
            view = {k: v for k, v in message.items() if k not in extra}
            view["tricks"] = [tuple(t) for t in view["tricks"]]
            _check_view(state, seat, view, held[seat])
            state.apply(m["answer"])
            for p in range(game.players):
                held[p] |= set(state.hand(p).labels())
        assert state.is_terminal()


def test_cli_commands_take_bots(tmp_path, capsys):
    bot = f"python:{SIMPLE_PY}:SimpleBot"
    assert main(["tournament", "nesmear", "--agents", "heuristic", bot, f"exec:{sys.executable} {SIMPLE_PY}",
                 "--hands", "40"]) == 0
    assert bot in capsys.readouterr().out
    assert main(["replay", "--game", "shmear", "--hand", "2", "--agents", bot, "--out", str(tmp_path / "h.json")]) == 0
    assert main(["replay", str(tmp_path / "h.json")]) == 0


@pytest.mark.parametrize("name", ["sheepshead", "nesmear"])
def test_the_bot_loops_play_the_batch_loops_hands_and_study_rows(name):
    """With no bot seated, the Python loops of a bot table give the numba loops' rows exactly:
    the same deals, streams and records (hand play and the study's forks)."""
    from tricksim.agents import agent_module, seat_agents, seat_arrays
    from tricksim.agents.bot_table import BotTable
    from tricksim.experiments import decisions as D

    game = tricksim.make_game(name)
    agents = ["heuristic", "random"] + ["heuristic:bid_margin=1" if name == "nesmear" else "heuristic"] * (
        game.players - 2)
    seated, _ = seat_agents(name, agents, game.players)
    table = BotTable(game, seated, *seat_arrays(name, seated), 5)
    features = agent_module(name).FEATURES
    raw = np.zeros((60, len(game.kernels.RECORD) + len(features)), np.int64)
    table.play(0, raw)
    batch = tricksim.simulate(name, hands=60, seed=5, agents=agents, progress=False)
    rows = game.frame(raw[:, :len(game.kernels.RECORD)], 5, 0)
    pd.testing.assert_frame_equal(rows, batch[rows.columns], check_like=True)
    np.testing.assert_array_equal(raw[:, len(game.kernels.RECORD):], batch[list(features)].to_numpy(np.int64))
    study = D.make_study(game, 30, 5, agents)
    numba_rows = D.play_chunk(study, 0, 30)
    python_rows = D._chunk(game, D._bot_rows, (table,), 5, 0, 30, (), features)
    python_rows["action"] = python_rows["action"].astype("category")
    pd.testing.assert_frame_equal(python_rows, numba_rows)


def test_study_takes_a_bot(capsys):
    bot = f"python:{SIMPLE_PY}:SimpleBot"
    assert main(["study", "pick", "sheepshead", "--hands", "60", "--agents", f"{bot},heuristic,heuristic,heuristic,"
                 "heuristic"]) == 0
    assert "trumps" in capsys.readouterr().out


def test_play_seats_bots_with_the_match_totals_and_its_record_replays(tmp_path):
    from tricksim.play import play

    record = tmp_path / "hand.json"
    bots = f"heuristic,exec:{sys.executable} {SIMPLE_PY},python:test_bots:Totals,python:test_bots:Totals"
    outcome = play(tricksim.make_game("nesmear"), seat=0, opponents=bots, seed=2, record=record,
                   ask=lambda prompt: "1", say=lambda text: None)
    assert outcome.records[0].result is not None and outcome.records[0].agents[1].startswith("exec:")
    assert Totals.seen and all(t == [0, 0, 0, 0] for t in Totals.seen)  # the match totals at its start
    assert main(["replay", str(record)]) == 0


def test_sweep_against_a_bot(capsys):
    bot = f"python:{SIMPLE_PY}:SimpleBot"
    assert main(["sweep", "nesmear", "--param", "bid_margin", "--values", "0", "2", "--hands", "200",
                 "--opponents", bot]) == 0
    assert f"against {bot}" in capsys.readouterr().out
