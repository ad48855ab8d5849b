"""The sixth game: four-handed Whist (``tests/whist``), registered through the game interface
alone, plays through the tools as the five built-in games do: its rules by a worked hand and
over random hands, ``simulate`` and its summary, PettingZoo's and Gymnasium's conformance
tests, PIMC and its worlds, and a hand record written, read back and replayed."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test

import tricksim
import whist
from tricksim import spec
from tricksim.envs import GYM_IDS
from tricksim.envs.aec import constructors
from tricksim.errors import DealError
from tricksim.records import read_record, rebuild, simulated_record, write_json
from tricksim.sim.kernels import new_rng
from whist import rules as K
from whist.search import sample

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # PettingZoo's notes on Dict spaces


@pytest.fixture(scope="module")
def game():
    tricksim.register(whist.SPEC)
    yield tricksim.make_game("whist")
    del spec._GAMES["whist"]  # leave the list as the other tests expect it
    del GYM_IDS["whist"]
    gymnasium.registry.pop(whist.SPEC.gym_id, None)


def test_whist_provides_the_whole_interface(game):
    assert spec.missing(whist.SPEC) == []
    assert "whist" in tricksim.games()
    assert game.family >= spec.REGISTERED_FAMILIES  # numbered by its sources, apart from the built-in games


SUITS_DEAL = ["2C 3C 4C 5C 6C 7C 8C 9C AD KD QD JD TD",  # the dealer; 2C turned: clubs are trump
              "TC JC QC KC AC 9D 8D 7D 6D 5D 4D 3D 2D",
              "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
              "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]


def test_a_worked_hand(game):
    state = game.deal(SUITS_DEAL, "2C", dealer=0)
    assert state.current_player == 1 and state.observe(1)["trump"] == "C"
    assert len(state.legal_labels()) == 13
    state.apply("play 9D")
    assert len(state.legal_labels()) == 13  # seat 2 has no diamond: any card
    state.apply("play AH")
    state.apply("play AS")
    assert state.legal_labels() == ["play TD", "play JD", "play QD", "play KD", "play AD"]  # follow, not trump
    state.apply("play TD")
    assert game.tricks(state.array)[0] == (1, ["9D", "AH", "AS", "TD"], 0)  # the ten of the suit led wins
    state.apply("play 2C")  # the dealer leads the turned card
    assert state.legal_labels() == ["play TC", "play JC", "play QC", "play KC", "play AC"]
    for label in ["play TC", "play 2H", "play 2S"]:
        state.apply(label)
    assert game.tricks(state.array)[1][2] == 1  # the ten of trumps over the two
    while not state.is_terminal():
        state.apply(state.legal_labels()[0])
    tricks = game.result(state.array)["tricks"]
    assert sum(tricks) == 13
    side_0 = tricks[0] - 6 if tricks[0] >= 7 else tricks[0] - 7
    assert game.scores(state.array) == [side_0, -side_0, side_0, -side_0]


def test_a_bad_deal_changes_nothing_and_says_why(game):
    with pytest.raises(DealError, match="turned card"):
        game.deal(SUITS_DEAL, "2H", dealer=0)
    with pytest.raises(DealError, match="needs 13 cards"):
        game.deal([SUITS_DEAL[0]] + [h[3:] for h in SUITS_DEAL[1:]], "2C")


def test_random_hands_keep_the_invariants(game):
    df = tricksim.simulate("whist", hands=3000, seed=5, agents="random", progress=False)
    assert len(df) == 3000 and (df["tricks_0"] + df["tricks_1"] == 13).all()
    side = np.where(df["tricks_0"] >= 7, df["tricks_0"] - 6, df["tricks_0"] - 7)
    assert (df["score_0"] == side).all() and (df["score_2"] == side).all() and (df["score_1"] == -side).all()
    assert (df["dealer"] == df["hand"] % 4).all()
    counts = df["trump"].value_counts().to_numpy()
    assert counts.min() > 3000 / 4 - 4 * np.sqrt(3000 * 3 / 16)  # every suit turned alike (4 sd)
    summary = tricksim.summarize(df)
    assert summary["hands"] == 3000 and sum(summary["odd_tricks"].values()) == pytest.approx(1)
    again = tricksim.simulate("whist", hands=3000, seed=5, agents="random", progress=False, workers=2)
    assert df.equals(again)


def test_the_heuristic_beats_random_play(game):
    mean, low, high = tricksim.compare("whist", "heuristic", "random", hands=400, seed=2)["difference"]
    assert low > 0


def test_pettingzoo_and_gymnasium_conformance(game):
    env, _, parallel_env = constructors("whist")
    api_test(env(), num_cycles=200)
    parallel_api_test(parallel_env(), num_cycles=200)
    check_env(gymnasium.make("tricksim/Whist-v0", seat=1, opponents="heuristic").unwrapped, skip_render_check=True)


def test_pimc_plays_on_worlds_that_keep_what_the_seat_knows(game):
    df = tricksim.simulate("whist", hands=4, seed=1, agents=["pimc:worlds=8", "heuristic"] * 2, progress=False)
    assert (df["tricks_0"] + df["tricks_1"] == 13).all()
    state = game.deal(SUITS_DEAL, "2C", dealer=0)
    state.apply("play 9D")
    state.apply("play AH")  # seat 2 shows it has no diamond
    world, rng = np.empty_like(state.array), new_rng()
    for _ in range(50):
        sample(state.array, 3, rng, world)
        assert world[K.HANDS] >> 0 & 1  # the turned 2C stays with the dealer
        assert world[K.HANDS + 2] & K.SUIT_MASKS[0, 1] == 0
        assert world[K.HANDS + 3] == state.array[K.HANDS + 3]
        others = [int(world[K.HANDS + p]) for p in (0, 1, 2)]
        unseen = [int(state.array[K.HANDS + p]) for p in (0, 1, 2)]
        assert [h.bit_count() for h in others] == [h.bit_count() for h in unseen]
        assert others[0] | others[1] | others[2] == unseen[0] | unseen[1] | unseen[2]

def test_a_hand_record_is_written_read_and_replayed(game, tmp_path):
    record = simulated_record(game, seed=3, hand=7, agents="heuristic")
    path = write_json([record], tmp_path / "hand.json")
    again = read_record(path)
    assert again.to_dict() == record.to_dict()
    state = rebuild(again)
    assert state.is_terminal() and state.scores() == record.scores and state.tricks() == [tuple(t) for t in record.tricks]
