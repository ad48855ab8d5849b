"""A study checked with other agents (``--check-agents``): per hand class and position, whether the
best action agrees when the hands are played by stronger (or other) agents."""

from __future__ import annotations

import pandas as pd

import tricksim
from tricksim.cli import main
from tricksim.experiments.study import study


def test_the_same_agents_on_the_same_deals_agree_everywhere_both_decide():
    game = tricksim.make_game("sheepshead")
    result = study(game, 3000, seed=4, check_agents="heuristic", check_hands=3000, progress=False)
    table = result["check"]["agreement"]
    assert set(table["agree"]) <= {"yes", "undecided"} and (table["agree"] == "yes").any()
    pd.testing.assert_series_equal(table["best"], table["best_check"], check_names=False)


def test_other_agents_give_their_own_best_and_the_cells_say_whether_they_agree():
    game = tricksim.make_game("nesmear")
    result = study(game, 2000, seed=1, check_agents="random", check_hands=500, progress=False)
    check = result["check"]
    assert check["hands"] == 500 and check["agents"] == "random"
    table = check["agreement"]
    decided = table["best"].notna() & table["best_check"].notna()
    assert (table.loc[decided, "agree"] == (table["best"] == table["best_check"])[decided].map(
        {True: "yes", False: "no"})).all()
    assert (table.loc[~decided, "agree"] == "undecided").all()


def test_the_command_prints_the_agreement_and_writes_its_table(tmp_path, capsys):
    assert main(["study", "pick", "sheepshead", "--hands", "1500", "--check-agents", "random", "--check-hands", "300",
                 "--out", str(tmp_path)]) == 0
    assert "Checked with random on the first 300 deals" in capsys.readouterr().out
    assert (tmp_path / "agreement.csv").exists() and (tmp_path / "check" / "rows.parquet").exists()
    assert "Does the answer depend on who plays?" in (tmp_path / "study.md").read_text()
