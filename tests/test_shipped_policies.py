"""The trained networks shipped in ``policies/`` (README, "Training"): each one, named after its
game, loads as a ``net:`` agent at the options it was trained for and plays far better than random."""

import json
from pathlib import Path

import numpy as np
import pytest

import tricksim
from tricksim.experiments.compare import compare

POLICIES = sorted((Path(__file__).resolve().parent.parent / "policies").glob("*.npz"))


def _meta(path: Path) -> dict:
    with np.load(path, allow_pickle=False) as data:
        return json.loads(str(data["meta"]))


def test_three_games_have_a_network():
    assert len({_meta(path)["game"] for path in POLICIES}) >= 3


@pytest.mark.parametrize("path", POLICIES, ids=lambda path: path.stem)
def test_a_shipped_network_beats_random_at_its_options(path):
    meta = _meta(path)
    assert meta["game"] == path.stem
    game = tricksim.make_game(meta["game"], **meta["options"])  # (the options may hold a "hands")
    result = compare(game, f"net:file={path}", "random", hands=200, seed=11)
    assert result["difference"][1] > 0  # the interval's lower end
