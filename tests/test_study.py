"""Decision studies (tricksim/experiments/study.py, classes.py): a made set of rows summarised by
hand; on real deals, the picks every player makes or refuses; the command line and its files."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import tricksim
from tricksim.cards import parse_cards
from tricksim.cli import main
from tricksim.errors import OptionError
from tricksim.experiments.study import study, summarize_decisions


def mask(labels: str) -> int:
    return sum(1 << c for c in parse_cards(labels))


def test_made_rows_summarised_by_hand():
    """Three decisions of eldest hand with three trumps (picks at 2, 2, -4; passes at -1, 0, -2) and
    one with six (a pick at 3 against a pass at -1)."""
    three, six = mask("QC QS QH 7C 8H 9S"), mask("QC QS QH QD JC JS")
    rows = pd.DataFrame({
        "hand": [0, 0, 1, 1, 2, 2, 3, 3], "decision": [0] * 8, "position": [1] * 8,
        "action": ["pick", "pass"] * 4, "cards": [three] * 6 + [six] * 2,
        "score": [2, -1, 2, 0, -4, -2, 3, -1],
    })
    table, best = summarize_decisions(rows, "sheepshead", min_paired=1)
    pick3 = table[(table["trumps"] == 3) & (table["action"] == "pick")].iloc[0]
    assert pick3["decisions"] == 3 and pick3["mean_score"] == 0 and pick3["ahead"] == pytest.approx(2 / 3)
    three_best = best[best["trumps"] == 3].iloc[0]
    assert three_best["best"] == "pick" and three_best["rival"] == "pass" and three_best["paired"] == 3
    assert three_best["margin"] == pytest.approx((3 + 2 - 2) / 3)  # paired: 2-(-1), 2-0, -4-(-2)
    six_best = best[best["trumps"] == 6].iloc[0]
    assert six_best["best"] == "pick" and six_best["margin"] == 4 and np.isnan(six_best["margin_low"])
    queens = {"queens": lambda r: np.bitwise_count(r["cards"] & mask("QC QS QH QD"))}
    custom = summarize_decisions(rows, "sheepshead", queens, min_paired=1)[1]
    assert list(custom["queens"]) == [3, 4]


def test_sheepshead_pick_study_on_real_deals():
    result = study(tricksim.make_game("sheepshead"), 3000, seed=2, classes=["trumps", "fail_aces"])
    best = result["best"]
    assert set(best.columns[:3]) == {"trumps", "fail_aces", "position"}
    table = result["table"]
    strong = table[(table["trumps"] >= 5)].groupby("action")["mean_score"].mean()
    weak = table[(table["trumps"] == 0)].groupby("action")["mean_score"].mean()
    assert strong["pick"] > strong["pass"] and weak["pass"] > weak["pick"]  # everyone picks the one, passes the other
    many = table[table["decisions"] > 1]
    assert (many["low"] <= many["mean_score"]).all() and (table["ahead_low"] <= table["ahead"]).all()
    assert table["decisions"].sum() == len(result["rows"])


def test_bad_arguments_are_errors_before_any_play():
    with pytest.raises(OptionError, match="choose from trumps"):
        study(tricksim.make_game("sheepshead"), 10**9, classes=["spades"])
    with pytest.raises(OptionError, match="one deal or more"):
        study(tricksim.make_game("sheepshead"), 0)
    with pytest.raises(OptionError, match="hands = -3"):
        study(tricksim.make_game("sheepshead"), -3)


def test_study_command(tmp_path, capsys):
    assert main(["study", "pick", "sheepshead", "--hands", "300", "--policy", "200", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "The best action per trumps (rows) and position" in printed and "on 200 fresh deals" in printed
    assert len(printed.splitlines()) <= 40 and str(tmp_path / "study.md") in printed
    assert (tmp_path / "best.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "values.png").read_bytes()[:4] == b"\x89PNG"
    policy = pd.read_csv(tmp_path / "policy.csv", index_col=0)
    assert list(policy.columns) == ["0", "1", "2", "3", "4"]
    assert set(policy.stack().dropna()) <= {"pick", "pass", "(agent)"}
    assert len(pd.read_parquet(tmp_path / "rows.parquet")) > 300
    assert "![best](best.png)" in (tmp_path / "study.md").read_text()
    assert main(["study", "bid", "nesmear", "--hands", "200", "--out", str(tmp_path / "bid")]) == 0
    assert (tmp_path / "bid" / "best.png").exists()
    assert main(["study", "pick", "nesmear", "--hands", "10"]) == 2  # picks are Sheepshead's


