"""Shmear and NE Smear in the batch simulator, the summary and the ``tricksim simulate`` command:
rows that depend on (seed, hand) only, frames a summary recognises, and the printed figures."""

from __future__ import annotations

import numba
import pandas as pd
import pytest

import tricksim
from tricksim.cli import main
from tricksim.sim.batch import make_run, play_chunk

HANDS = 20_000


@pytest.fixture
def restore_threads():
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)


@pytest.mark.parametrize("name, options", [("shmear", {}), ("shmear", {"teams": 2, "may_trump": True}),
                                           ("nesmear", {}), ("nesmear", {"widow": 0, "high_low": "in_play"})])
def test_rows_do_not_depend_on_threads_or_ranges(restore_threads, name, options):
    game = tricksim.make_game(name, **options)
    numba.set_num_threads(1)
    one = tricksim.simulate(name, hands=HANDS, seed=6, agents="random", **options)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    many = tricksim.simulate(name, hands=HANDS, seed=6, agents="random", **options)
    pd.testing.assert_frame_equal(one, many)
    later = play_chunk(make_run(game, HANDS, seed=6, agents="random"), 12_345, 1000)
    pd.testing.assert_frame_equal(later, one.iloc[12_345:13_345].reset_index(drop=True), check_like=False)
    assert (one["dealer"] == one["hand"] % game.players).all()


def test_a_row_is_the_hand_new_hand_deals_and_random_play_finishes():
    # A row's deal is new_hand(seed, dealer, hand): its bidder held the hand the State shows.
    df = tricksim.simulate("nesmear", hands=50, seed=2, agents="random")
    game = tricksim.make_game("nesmear")
    for row in df.head(20).itertuples():
        state = game.new_hand(seed=2, dealer=row.dealer, hand=row.hand)
        assert [len(state.hand(p)) for p in range(4)] == [6] * 4
        assert state.current_player == (row.dealer + 1) % 4


def test_frames_carry_each_games_points():
    shmear = tricksim.simulate("shmear", hands=3000, seed=1, agents="random")
    ne = tricksim.simulate("nesmear", hands=3000, seed=1, agents="random")
    assert {"jick", "joker", "game_points_2", "score_5"} <= set(shmear.columns)
    assert not {"jick", "joker", "game_points_2", "score_4"} & set(ne.columns)
    played = shmear[shmear["outcome"] != "thrown_in"]
    points = sum(played[p].notna().astype(int) for p in ("high", "low", "jack", "jick", "joker", "game"))
    assert set(points) <= {5, 6} and (points == 5).any()
    thrown = ne[ne["outcome"] == "thrown_in"]
    assert len(thrown) > 0 and thrown["bidder"].isna().all() and (thrown[[f"score_{p}" for p in range(4)]] == 0).all().all()
    assert ne["high"].isna().mean() > 0.05  # the A of trumps is often undealt


@pytest.mark.parametrize("name", ["shmear", "nesmear"])
def test_summary_recognises_a_frame_read_back_without_its_game(tmp_path, name):
    df = tricksim.simulate(name, hands=2000, seed=3, agents="random")
    bare = df.copy()
    bare.attrs = {}
    s = tricksim.summarize(bare)
    assert s == tricksim.summarize(df)
    assert list(s["points"]) == (["high", "low", "jack", "jick", "joker", "game"] if name == "shmear"
                                 else ["high", "low", "jack", "game"])
    made, low, high = s["made"]
    assert low < made < high
    bids = {3, 4, 5, 6} if name == "shmear" else {2, 3, 4}
    assert set(s["by_bid"]) <= bids and max(bids) in s["by_bid"]  # random bidders mostly bid the top
    assert len(s["mean_team_score"]) == (3 if name == "shmear" else 2)


@pytest.mark.parametrize("name, sets", [("shmear", ["teams=2"]), ("nesmear", ["widow=1", "go_out=bid_only"])])
def test_the_command_prints_the_summary_and_writes_the_rows(tmp_path, capsys, name, sets):
    path = tmp_path / "rows.parquet"
    argv = ["simulate", name, "--hands", "3000", "--seed", "4", "--agents", "random", "--out", str(path)]
    for s in sets:
        argv += ["--set", s]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    options = dict(s.split("=") for s in sets)
    expected = tricksim.simulate(name, hands=3000, seed=4, agents="random", **options)
    pd.testing.assert_frame_equal(pd.read_parquet(path), expected)
    s = tricksim.summarize(expected)
    lines = out.splitlines()
    assert err == "" and lines[1].startswith("hands            3,000")
    assert any(line.startswith("bidder makes") and f"{s['made'][0]:.4f}" in line for line in lines)
    assert any(line.startswith("bidding team wins") and f"jack: {s['points']['jack']['bidding_team'][0]:.3f}" in line
               for line in lines)


@pytest.mark.parametrize("argv, text", [
    (["simulate", "shmear", "--set", "teams=4"], "teams"),
    (["simulate", "nesmear", "--set", "widow=5"], "widow"),
    (["simulate", "nesmear", "--set", "high_low=sometimes"], "sometimes"),
    (["simulate", "shmear", "--set", "target=0"], "target"),
])
def test_bad_options_exit_2(capsys, argv, text):
    assert main(argv) == 2
    assert text in capsys.readouterr().err
