"""Replay the reference playthroughs of tests/golden (copied from the project's
shared golden files) through the public contract, step by step."""

import json
from pathlib import Path

import pytest

import tricksim

GOLDEN = Path(__file__).parent / "golden"
CASES = [
    pytest.param(record, id=f"{game}-{i}")
    for game in tricksim.games()
    for i, line in enumerate((GOLDEN / f"{game}.jsonl").read_text().splitlines())
    for record in [json.loads(line)]
]


@pytest.mark.parametrize("record", CASES)
def test_golden_playthrough(record):
    game = tricksim.make_game(record["game"], players=record["players"], **record["options"])
    state = game.deal(hands=record["hands"], rest=record["rest"], dealer=record["dealer"])
    for i, step in enumerate(record["steps"]):
        assert state.current_player == step["player"], f"step {i}"
        assert sorted(state.legal_labels()) == step["legal"], f"step {i}"
        state.apply(step["action"])
    assert state.is_terminal()
    assert [[leader, cards, winner] for leader, cards, winner in state.tricks()] == record["tricks"]
    assert state.scores() == record["scores"]
