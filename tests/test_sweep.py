"""Parameter sweeps (tricksim/experiments/sweep.py): the base value gains nothing, every position
is measured on every deal, a seat that never picks loses, and bad arguments are errors."""

from __future__ import annotations

import pytest

import tricksim
from tricksim.cli import main
from tricksim.errors import OptionError
from tricksim.experiments.sweep import sweep


def test_sweep_of_the_picking_threshold():
    result = sweep(tricksim.make_game("sheepshead"), "pick_threshold", [8, 100], hands=1500, seed=4)
    table = result["table"].set_index(["value", "position"])
    base = table.loc[8.0]
    assert (base["gain"] == 0).all() and (base["low"] == 0).all() and (base["high"] == 0).all()  # the base agent's own
    never = table.loc[100.0]  # a threshold no hand reaches: the seat never picks
    assert never.loc["all", "high"] < 0
    positions = never.drop(index="all")
    assert list(positions.index) == [0, 1, 2, 3, 4] and (positions["deals"] == 1500).all()
    assert never.loc["all", "gain"] == pytest.approx(positions["gain"].mean())  # every deal has every position once
    best = result["best"].set_index("position")
    assert best.loc["all", "best"] == 8 and best.loc["all", "indistinguishable"] == [8.0]


def test_a_sweep_of_another_parameter_is_deterministic():
    game = tricksim.make_game("fiftyfive", players=4)
    first = sweep(game, "bid_margin", [-3, 3], hands=400, seed=1)
    again = sweep(game, "bid_margin", [-3, 3], hands=400, seed=1)
    assert first["table"].equals(again["table"]) and first["table"]["gain"].abs().sum() > 0


def test_bad_arguments_are_errors():
    game = tricksim.make_game("sheepshead")
    with pytest.raises(OptionError, match="one of pick_threshold"):
        sweep(game, "pick_thresold", [1, 2], hands=10)
    with pytest.raises(OptionError, match="heuristic agent"):
        sweep(game, "worlds", [1, 2], hands=10, agent="pimc")
    with pytest.raises(OptionError, match="each once"):
        sweep(game, "pick_threshold", [8, 8], hands=10)
    with pytest.raises(OptionError, match="one deal or more"):
        sweep(game, "pick_threshold", [8], hands=0)


def test_command_writes_the_curves(tmp_path, capsys):
    assert main(["sweep", "sheepshead", "--param", "pick_threshold", "--values", "8", "10", "--hands", "300",
                 "--out", str(tmp_path)]) == 0
    assert "| all |" in capsys.readouterr().out
    assert {p.name for p in tmp_path.iterdir()} == {"sweep.csv", "best.csv", "sweep.png", "sweep.md"}
    assert (tmp_path / "sweep.png").read_bytes()[:4] == b"\x89PNG"
    assert main(["sweep", "sheepshead", "--param", "nothing", "--values", "1", "--hands", "10"]) == 2
