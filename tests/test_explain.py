"""tricksim explain: every legal action of a decision valued for the seat to act (PIMC's values over
sampled worlds, with intervals), the cost of each against the best, the action taken, and the
double-dummy values, in Python and on the command line."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tricksim
from tricksim.cli import main
from tricksim.errors import IllegalActionError, OptionError
from tricksim.experiments.explain import INFER, Valuer, explain, format_explanation
from tricksim.records import decisions, simulated_record, write_json


def _mid_play(game: str, seed: int, tricks: int = 3):
    """A hand of heuristic play, stopped at the first decision after ``tricks`` tricks."""
    record = simulated_record(game, seed=seed, hand=0, agents="heuristic")
    for state, taken in decisions(record):
        if len(state.tricks()) >= tricks and len(state.legal_actions()) > 1:
            return state, taken
    raise AssertionError("no such decision")


@pytest.mark.parametrize("game", ["sheepshead", "nesmear", "bluke"])
def test_every_legal_action_is_valued_and_the_best_costs_nothing(game):
    state, taken = _mid_play(game, seed=3, tricks=2)
    e = explain(state, worlds=30, seed=2, taken=taken)
    assert sorted(a.action for a in e.actions) == sorted(state.legal_labels())
    best = e.value(e.best)
    assert best.mean == max(a.mean for a in e.actions) and best.cost == 0.0
    assert all(a.cost >= 0 and a.low <= a.mean <= a.high and a.cost_low <= a.cost <= a.cost_high for a in e.actions)
    assert e.taken == taken and e.seat == state.current_player and not e.every_card_known
    assert "taken: " + taken in format_explanation(e)


def test_the_same_seed_gives_the_same_values_and_another_seed_other_worlds():
    state, _ = _mid_play("sheepshead", seed=5)
    a, b, c = (explain(state, worlds=20, seed=s, solve=0) for s in (1, 1, 2))
    assert a == b
    assert [x.mean for x in a.actions] != [x.mean for x in c.actions]  # playouts over other worlds


@pytest.mark.parametrize("game", ["sheepshead", "fiftyfive", "shmear"])
def test_the_double_dummy_value_is_the_solvers_after_each_action(game):
    state, _ = _mid_play(game, seed=7, tricks=3)
    seat = state.current_player
    e = explain(state, worlds=5, exact=True)
    for a in e.actions:
        after = state.clone().apply(a.action)
        expected = after.scores()[seat] if after.is_terminal() else tricksim.solve(after, seat=seat).value
        assert a.exact == expected, a.action


def test_pick_decisions_are_valued_by_playouts_and_have_no_exact_value():
    state = tricksim.make_game("sheepshead").new_hand(seed=11, dealer=0)
    e = explain(state, worlds=10, rollouts=2, exact=True)
    assert {a.action for a in e.actions} == {"pick", "pass"}
    assert all(a.exact is None for a in e.actions) and e.notes


def test_bad_requests_are_refused_and_change_nothing():
    state, _ = _mid_play("nesmear", seed=1)
    before = state.array.copy()
    with pytest.raises(OptionError, match="worlds"):
        explain(state, worlds=1)
    with pytest.raises(IllegalActionError, match="not legal"):
        explain(state, worlds=5, taken="play 2C" if "play 2C" not in state.legal_labels() else "bid 4")
    finished = simulated_record("nesmear", seed=1, hand=0)
    with pytest.raises(OptionError, match="over"):
        explain(decisions(finished)[-1][0].apply(finished.actions[-1]), worlds=5)
    assert np.array_equal(state.array, before)


def test_the_command_explains_a_simulated_hand_as_json(capsys):
    assert main(["explain", "--game", "nesmear", "--seed", "1", "--hand", "2", "--decision", "1", "--worlds", "10",
                 "--json"]) == 0
    (only,) = json.loads(capsys.readouterr().out)
    record = simulated_record("nesmear", seed=1, hand=2)
    assert only["decision"] == 1 and only["taken"] == record.actions[0]
    assert {a["action"] for a in only["actions"]} >= {record.actions[0]}


def test_the_command_explains_every_choice_of_a_recorded_hand_and_one_seat(tmp_path, capsys):
    record = simulated_record("shmear", seed=2, hand=1)
    path = write_json(record, tmp_path / "hand.json")
    assert main(["explain", str(path), "--all", "--seat", "2", "--worlds", "8"]) == 0
    out = capsys.readouterr().out
    chosen = [d for d, (state, _) in enumerate(decisions(record), 1)
              if state.current_player == 2 and len(state.legal_actions()) > 1]
    assert [int(line.split()[1].rstrip(":")) for line in out.splitlines() if line.startswith("decision ")] == chosen
    assert all(line == line.rstrip() for line in out.splitlines())  # blank last columns leave no trailing spaces


@pytest.mark.parametrize("argv, message", [
    (["--decision", "999"], "decisions 1 .."),
    (["--decision", "2", "--all"], "--decision N"),
    ([], "--decision N"),
])
def test_the_command_names_what_is_wrong(argv, message, capsys):
    assert main(["explain", "--game", "bluke", "--seed", "1", "--worlds", "4"] + argv) == 2
    assert message in capsys.readouterr().err


def test_the_card_play_shows_the_means_weighed_by_the_other_seats_play_beside_the_plain_ones():
    state, _ = _mid_play("nesmear", seed=3, tricks=2)
    e = explain(state, worlds=30, seed=2)
    plain = explain(state, worlds=30, seed=2, infer=0)
    assert [a.mean for a in e.actions] == [a.mean for a in plain.actions]  # the same worlds
    assert all(a.weighted is not None and min(a.low, a.mean) - 100 < a.weighted for a in e.actions)
    assert plain.worlds_weighted is None and all(a.weighted is None for a in plain.actions)
    assert "weighted" in format_explanation(e) and "weighted" not in format_explanation(plain)
    # tempered as PIMC's weights: at least half of the worlds' worth (untempered, 8.4 of 30 here)
    *_, log_weights = Valuer(state.game).table(state, 30, 2, infer=INFER)
    w = np.exp(log_weights - log_weights.max())
    assert w.sum() ** 2 / (w @ w) < 15 <= e.worlds_weighted + 1e-9 < 30


def test_the_auction_so_far_weighs_the_worlds_of_a_bid():
    state = tricksim.make_game("nesmear").new_hand(seed=4, dealer=0)
    first = explain(state, worlds=20)
    assert first.worlds_weighted is None and all(a.weighted is None for a in first.actions)  # nothing said yet
    state.apply("pass")
    second = explain(state, worlds=20)
    assert second.phase == "bidding" and second.worlds_weighted < 19  # eldest's pass weighs the worlds
