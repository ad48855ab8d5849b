"""tricksim tune: an agent's parameters searched with Optuna on duplicate deals (common random
numbers), the agent's own parameters tried first, resumable from its SQLite file, the same on a
Dask cluster, and the best measured on fresh deals."""

from __future__ import annotations

import pandas as pd
import pytest

import tricksim
from tricksim.cli import main
from tricksim.errors import OptionError
from tricksim.experiments.tune import tune


def test_the_search_starts_from_the_agent_and_finds_a_better_setting_than_the_worst():
    game = tricksim.make_game("sheepshead")
    result = tune(game, {"pick_threshold": (2.0, 30.0)}, trials=8, hands=1500, final_hands=1500, progress=False)
    trials = result["trials"]
    default = dict((n, d) for n, d, _ in tricksim.agents.agent_module("sheepshead").PARAMS)["pick_threshold"]
    assert trials["pick_threshold"][0] == default and trials["value"][0] == 0.0  # itself against itself
    assert result["best"]["pick_threshold"] == trials.loc[trials["value"].idxmax(), "pick_threshold"]
    assert trials["value"].max() > trials["value"].min()
    mean, low, high = result["final"]["best_vs_defaults"]
    assert low <= mean <= high and result["final"]["hands"] == 1500


def test_a_stopped_search_resumes_with_the_trials_it_finished(tmp_path):
    game = tricksim.make_game("nesmear")
    first = tune(game, {"bid_margin": (-3.0, 3.0)}, trials=4, hands=300, final_hands=300, out=tmp_path,
                 progress=False)["trials"]
    more = tune(game, {"bid_margin": (-3.0, 3.0)}, trials=8, hands=300, final_hands=300, out=tmp_path,
                progress=False)["trials"]
    assert len(more) == 8
    pd.testing.assert_frame_equal(more.iloc[:4].reset_index(drop=True), first)


def test_whole_number_parameters_are_searched_over_whole_numbers():
    game = tricksim.make_game("bluke", players=3)
    result = tune(game, {"worlds": (2, 6)}, kind="pimc", opponents="heuristic", trials=2, hands=4, final_hands=4,
                  progress=False)
    assert all(float(w).is_integer() for w in result["trials"]["worlds"])


@pytest.mark.parametrize("space, kind, message", [
    ({"no_such": (0, 1)}, "heuristic", "no parameter"),
    ({"bid_margin": (2, 1)}, "heuristic", "low bound"),
    ({}, "heuristic", "one parameter"),
    ({"bid_margin": (0, 1)}, "random", "no parameters"),
])
def test_a_bad_space_is_refused(space, kind, message):
    with pytest.raises(OptionError, match=message):
        tune(tricksim.make_game("shmear"), space, kind=kind, trials=2, hands=10, progress=False)


def test_the_command_tunes_and_writes_its_report(tmp_path, capsys):
    assert main(["tune", "shmear", "--param", "bid_margin=-2:2", "--trials", "2", "--hands", "200",
                 "--final-hands", "200", "--out", str(tmp_path)]) == 0
    assert "fresh deals" in capsys.readouterr().out and (tmp_path / "trials.csv").exists()
    assert main(["tune", "shmear", "--param", "bid_margin=2"]) == 2
    assert "name=low:high" in capsys.readouterr().err
