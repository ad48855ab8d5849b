"""Round-robin tournaments (tricksim/experiments/tournament.py): the Bradley-Terry fit recovers
known strengths; a tournament agrees with ``compare`` pair by pair, ranks the heuristic above the
random agent, and writes its tables and figure; bad arguments are errors."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import tricksim
from tricksim.cli import main
from tricksim.errors import OptionError
from tricksim.experiments.tournament import bradley_terry, tournament


def test_bradley_terry_recovers_known_ratings():
    """Wins in exactly the proportions the model gives (``p_i / (p_i + p_j)`` of 1,000 deals a pair)
    are fitted back to the ratings that made them."""
    truth = np.array([150.0, 20.0, -40.0, -130.0])
    strength = 10 ** (truth / 400)
    wins = np.array([[1000 * si / (si + sj) if i != j else 0 for j, sj in enumerate(strength)]
                     for i, si in enumerate(strength)])
    assert np.allclose(bradley_terry(wins, prior=0), truth - truth.mean(), atol=1e-4)
    # the prior pulls ratings together, and keeps an agent that never won finite
    assert np.isfinite(bradley_terry(np.array([[0, 10], [0, 0]]))).all()
    assert np.ptp(bradley_terry(wins)) < np.ptp(bradley_terry(wins, prior=0))


def test_tournament_agrees_with_compare_and_ranks_the_heuristic_first():
    game = tricksim.make_game("nesmear")
    agents = ["heuristic", "random", "heuristic:bid_margin=4"]
    result = tournament(game, agents, hands=300, seed=5)
    table = result["differences"].set_index(["agent", "opponent"])
    assert len(table) == 6
    for a, b in itertools.permutations(agents, 2):  # each pair both ways, negated
        assert table.loc[(a, b), "difference"] == pytest.approx(-table.loc[(b, a), "difference"])
        assert table.loc[(a, b), "deals_won"] + table.loc[(b, a), "deals_won"] == 300
    pair = tricksim.compare("nesmear", "heuristic", "random", hands=300, seed=5)
    got = table.loc[("heuristic", "random"), ["difference", "low", "high"]].tolist()
    assert got == pytest.approx(pair["difference"])
    ratings = result["ratings"].set_index("agent")
    assert list(result["ratings"]["agent"])[-1] == "random"
    assert ratings.loc["heuristic", "low"] > ratings.loc["random", "high"]
    assert (ratings["low"] <= ratings["rating"]).all() and (ratings["rating"] <= ratings["high"]).all()
    assert ratings["rating"].sum() == pytest.approx(0)
    again = tournament(game, agents, hands=300, seed=5)  # same seed, same result
    assert again["ratings"].equals(result["ratings"]) and again["differences"].equals(result["differences"])


@pytest.mark.parametrize("agents, hands, message", [(["heuristic"], 10, "two agents"),
                                                    (["heuristic", "random", "heuristic"], 10, "each agent once"),
                                                    (["heuristic", "random"], 0, "one deal or more"),
                                                    (["heuristic", "random"], -5, "hands = -5")])
def test_bad_arguments_are_errors(agents, hands, message):
    with pytest.raises(OptionError, match=message):
        tournament(tricksim.make_game("nesmear"), agents, hands=hands)


def test_cli_prints_and_writes_the_tournament(tmp_path, capsys):
    assert main(["tournament", "nesmear", "--agents", "heuristic", "random", "--hands", "200",
                 "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "| heuristic |" in printed and "200 duplicate deals" in printed
    assert (tmp_path / "ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "![ratings](ratings.png)" in (tmp_path / "tournament.md").read_text()
    assert (tmp_path / "differences.csv").read_text().startswith("agent,opponent,difference,low,high,deals_won")
    assert main(["tournament", "nesmear", "--agents", "heuristic"]) == 2  # an error, not a crash
