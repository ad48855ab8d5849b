"""Matches: the agents see the score (each seat's total and the target in the hand's state), and
``compare_matches`` measures two agents by the share of matches they win."""

from __future__ import annotations

import pandas as pd
import pytest

import tricksim
from tricksim.errors import OptionError
from tricksim.experiments.matches import MatchRun, compare_matches, play_match, won_share
from tricksim.sim.batch import write_part
from tricksim.sim.kernels import new_rng

TARGET_GAMES = ["fiftyfive", "shmear", "nesmear"]  # played to a target


@pytest.mark.parametrize("name", TARGET_GAMES)
def test_every_hand_of_a_match_carries_the_totals_before_it(name):
    game = tricksim.make_game(name)
    k = game.kernels
    match = play_match(game, ["heuristic"] * game.players, seed=3)
    totals = [0] * game.players
    for state in match.finished:
        s = state.array
        assert list(s[k.MATCH_TOTALS:k.MATCH_TOTALS + game.players]) == totals
        assert s[k.MATCH_TARGET] == game.options["target"]
        totals = [t + score for t, score in zip(totals, state.scores())]
    assert len(match.finished) > 1


@pytest.mark.parametrize("name", TARGET_GAMES)
def test_a_hand_on_its_own_has_no_match(name):
    game = tricksim.make_game(name)
    k = game.kernels
    s = game.new_hand(seed=5).array
    assert not s[k.MATCH_TOTALS:k.MATCH_TARGET + 1].any()
    s[k.MATCH_TOTALS:] = 7  # a state reused for the next deal, as the batch loops do, is cleared
    k.deal_random(s, 5, 1, 0, game.option_array, new_rng())
    assert not s[k.MATCH_TOTALS:].any()


def test_ne_smear_tells_the_agents_when_only_a_bid_made_goes_out():
    for go_out, flag in (("any", 0), ("bid_only", 1)):
        game = tricksim.make_game("nesmear", go_out=go_out)
        assert game.new_match(seed=1).state.array[game.kernels.MATCH_BID_ONLY] == flag


def test_a_match_started_from_given_totals_shows_them():
    game = tricksim.make_game("nesmear")
    s = game.new_match(seed=2, totals=[12, 9, 12, 9]).state.array
    assert list(s[game.kernels.MATCH_TOTALS:game.kernels.MATCH_TOTALS + 4]) == [12, 9, 12, 9]


def test_won_share_counts_a_tie_shared():
    sides = [[0, 2], [1, 3]]
    assert won_share([0, 2], [0, 2], sides) == 1 and won_share([0, 2], [1, 3], sides) == 0
    single = [[0], [1], [2]]
    assert won_share([0, 2], [2], single) == 0.5 and won_share([0, 2], [1], single) == 0


def test_an_agent_against_itself_wins_its_share_exactly():
    r = compare_matches(tricksim.make_game("shmear"), "heuristic", "heuristic", matches=12, seed=4, progress=False)
    assert r["difference"] == (0.0, 0.0, 0.0)
    assert r["share_a"] == pytest.approx(r["share_b"]) and 0 < r["share_b"] < 1


def test_the_heuristic_wins_more_matches_than_random_play():
    r = compare_matches(tricksim.make_game("nesmear", target=5), "heuristic", "random", matches=30, progress=False)
    assert r["difference"][1] > 0.3  # its lower bound


def test_workers_and_a_resumed_file_give_the_same_result(tmp_path):
    game = tricksim.make_game("nesmear", target=7)
    one = compare_matches(game, "heuristic", "heuristic:bid_margin=0", matches=40, seed=9, progress=False)
    two = compare_matches(game, "heuristic", "heuristic:bid_margin=0", matches=40, seed=9, workers=2, progress=False)
    assert one == two
    out = tmp_path / "m.parquet"
    compare_matches(game, "heuristic", "heuristic:bid_margin=0", matches=40, seed=9, out=out, progress=False)
    rows = pd.read_parquet(out)
    parts = out.with_suffix(".parts")  # a stopped run: its first chunk's part written, the file not yet
    out.unlink()
    parts.mkdir()
    run = MatchRun("nesmear", dict(game.options), 40, 9, "heuristic", "heuristic:bid_margin=0")
    (parts / "run.json").write_text(run.describe())
    write_part(rows[rows["match"] < 16], parts, 0)
    assert compare_matches(game, "heuristic", "heuristic:bid_margin=0", matches=40, seed=9, out=out,
                           progress=False) == one


def test_bad_input_is_a_clear_error():
    game = tricksim.make_game("shmear")
    with pytest.raises(OptionError):
        compare_matches(game, "heuristic", "heuristic", matches=0, progress=False)
    with pytest.raises(OptionError):
        compare_matches(game, "heuristic:no_such=1", "heuristic", matches=5, progress=False)
