"""Imitation: the teacher's decisions (what the seat saw, its legal actions, the action taken) and
a network learnt from them. The decisions are checked against the play they come from: replayed,
they give ``simulate``'s scores."""

from __future__ import annotations

import numpy as np
import pytest

import tricksim
from tricksim.agents import seat_agents, seat_arrays
from tricksim.agents.net import read_policy
from tricksim.errors import OptionError
from tricksim.rl.teacher import play_fast, play_slow, teacher_decisions

GAME = "nesmear"


@pytest.fixture(scope="module")
def game():
    return tricksim.make_game(GAME)


def test_the_numba_loop_and_the_hand_by_hand_loop_record_the_same_decisions(game):
    kinds, params = seat_arrays(GAME, seat_agents(GAME, "heuristic", game.players)[0])
    fast = play_fast(game, 3, 10, 40, kinds, params)
    slow = play_slow(game, 3, 10, 40, ["heuristic"] * game.players)
    assert len(fast) > 40 * game.players  # a bid and several plays a seat
    for field in ("obs", "mask", "action", "seat", "hand"):
        assert np.array_equal(getattr(fast, field), getattr(slow, field)), field


def test_replayed_decisions_give_simulates_scores(game):
    seed, hands = 11, 60
    d = play_fast(game, seed, 0, hands, *seat_arrays(GAME, seat_agents(GAME, "heuristic", game.players)[0]))
    assert d.legal(d.action).all() and set(np.unique(d.hand)) == set(range(hands))
    df = tricksim.simulate(GAME, hands=hands, seed=seed, agents="heuristic", progress=False)
    row = 0
    for number in range(hands):
        state = game.new_hand(seed=seed, dealer=number % game.players, hand=number)
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) == 1:  # a forced move is not a decision
                state.apply(legal[0])
                continue
            assert d.hand[row] == number and d.seat[row] == state.current_player
            assert np.array_equal(d.masks([row])[0].nonzero()[0], legal)
            state.apply(int(d.action[row]))
            row += 1
        assert state.scores() == [df[f"score_{p}"].iloc[number] for p in range(game.players)]
    assert row == len(d)


def test_parts_resume_and_bad_folders_are_refused(game, tmp_path):
    whole = teacher_decisions(game, 500, tmp_path, part_hands=10)
    parts = sorted((tmp_path / "decisions").glob("part-*.parquet"))
    assert len(parts) >= 2
    parts[1].unlink()
    again = teacher_decisions(game, 500, tmp_path, part_hands=10)
    assert np.array_equal(again.obs, whole.obs) and np.array_equal(again.action, whole.action)
    with pytest.raises(OptionError, match="another teacher"):
        teacher_decisions(game, 500, tmp_path, teacher="random", part_hands=10)
    parts[0].write_bytes(b"not parquet")
    with pytest.raises(OptionError, match="not a part"):
        teacher_decisions(game, 500, tmp_path, part_hands=10)


def test_a_search_seat_teaches_its_own_choices(game):
    d = play_slow(game, 5, 0, 2, ["pimc:worlds=2", "heuristic", "heuristic", "heuristic"])
    assert (d.seat == 0).any() and (d.seat != 0).any() and d.legal(d.action).all()


def test_a_search_teacher_in_two_processes_makes_the_same_decisions(game, tmp_path):
    teacher = "pimc:worlds=2"
    one = teacher_decisions(game, 300, tmp_path / "one", teacher=teacher, part_hands=4)
    two = teacher_decisions(game, 300, tmp_path / "two", teacher=teacher, part_hands=4, workers=2)
    assert len(one) >= 300 and np.array_equal(one.hand, two.hand) and np.array_equal(one.action, two.action)
    assert np.array_equal(one.obs, two.obs)
    # a lost part is played again in the pool, the same as before
    parts = sorted((tmp_path / "two" / "decisions").glob("part-*.parquet"))
    parts[1].unlink()
    again = teacher_decisions(game, 300, tmp_path / "two", teacher=teacher, part_hands=4, workers=2)
    assert np.array_equal(again.action, one.action) and np.array_equal(again.hand, one.hand)


sb3 = pytest.importorskip("sb3_contrib")


def test_an_imitation_learns_the_teacher_and_starts_ppo(game, tmp_path):
    from tricksim.rl.imitate import HELD_OUT, imitate
    from tricksim.rl.train import _start_from, network

    small = dict(epochs=3, layers=(64,), eval_hands=50, hands=100, part_hands=100, seed=4)
    result = imitate(game, 10000, out=tmp_path / "a", **small)
    curve = result["curve"]
    assert list(curve["epoch"]) == [1, 2, 3] and result["steps"] >= 10000
    # the teacher's action among the legal ones: far more often than a random legal choice hits it
    d = teacher_decisions(game, 10000, tmp_path / "a", part_hands=100, seed=4)
    held = d.hand % HELD_OUT == HELD_OUT - 1
    chance = float(np.mean(1 / d.masks(np.flatnonzero(held)).sum(axis=1)))
    assert curve["agreement"].iloc[-1] > chance + 0.15
    assert curve["held_out_loss"].iloc[-1] < curve["train_loss"].iloc[0]
    again = imitate(game, 10000, out=tmp_path / "b", **small)  # same seed, same network
    for a, b in zip(read_policy(result["policy"], game)[0], read_policy(again["policy"], game)[0]):
        assert np.array_equal(a, b)
    resumed = imitate(game, 10000, out=tmp_path / "a", **small)  # finished: nothing more to learn
    assert resumed["curve"].equals(curve)
    with pytest.raises(OptionError, match="another imitation run"):
        imitate(game, 10000, out=tmp_path / "a", **(small | {"epochs": 4}))

    from sb3_contrib import MaskablePPO

    from tricksim.rl.tables import TablesVecEnv

    model = MaskablePPO("MlpPolicy", TablesVecEnv(GAME, 2), device="cpu",
                        policy_kwargs={"net_arch": {"pi": [64], "vf": [64]}})
    _start_from(model, game, result["policy"])
    weights, biases = network(model)
    for w, want in zip(weights, read_policy(result["policy"], game)[0]):
        assert np.allclose(w, want, atol=1e-6)
