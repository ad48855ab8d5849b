"""tricksim mine: every decision of the chosen seats valued, the loss of the action taken against
the best, by kind of decision, role and trick; the worst decisions as hand records; streamed and
resumed like the studies."""

from __future__ import annotations

import pandas as pd
import pytest

import tricksim
from tricksim.cli import main
from tricksim.errors import OptionError
from tricksim.experiments.explain import explain
from tricksim.experiments.mine import decision_kind, make_mining, mine, role, summarize_mine, write_mine
from tricksim.records import decisions, read_record

SHEEPSHEAD = dict(hands=["QC QS QH QD JC JS", "JH JD AD TD KD 9D", "8D 7D AC TC KC 9C", "8C 7C AS TS KS 9S",
                         "8S 7S AH TH KH 9H"], rest="8H 7H", dealer=0)


def test_decisions_are_named_by_kind_and_seats_by_role():
    state = tricksim.make_game("sheepshead").deal(**SHEEPSHEAD)
    seen = []
    # seat 1 passes; seat 2 picks, buries and calls the ace of hearts (seat 4 holds it); seat 1 leads
    for label in ["pass", "pick", "bury 9C", "bury 8D", "call AH", "play 9D", "play 7D"]:
        seen.append((decision_kind(state, label), role(state, state.current_player)))
        state.apply(label)
    assert [k for k, _ in seen] == ["pick", "pick", "bury", "bury", "call", "lead", "follow"]
    assert seen[0][1] == "before the pick" and seen[2][1] == "picker"
    assert role(state, 4) == "partner" and role(state, 1) == "defender" and role(state, 2) == "picker"


def test_bid_games_name_bids_trump_and_discards():
    game = tricksim.make_game("nesmear")
    state = game.new_hand(seed=3, dealer=0)
    kinds = set()
    while not state.is_terminal() and len(state.tricks()) < 1:
        label = state.legal_labels()[-1]
        kinds.add(decision_kind(state, label))
        state.apply(label)
    assert {"bid", "trump", "discard"} <= kinds and kinds <= {"bid", "trump", "discard", "lead", "follow"}


def test_random_play_loses_more_than_the_heuristic_on_the_same_deals():
    game = tricksim.make_game("nesmear")
    losses = {agents: mine(game, hands=12, agents=agents, seats=[1], worlds=16, progress=False)["loss"].sum()
              for agents in ("heuristic", "random")}
    assert losses["random"] > losses["heuristic"] + 1.0


def test_the_rows_repeat_and_follow_the_seats_and_the_sample():
    game = tricksim.make_game("shmear")
    a = mine(game, hands=4, worlds=8, progress=False)
    pd.testing.assert_frame_equal(a, mine(game, hands=4, worlds=8, progress=False))
    one = mine(game, hands=4, worlds=8, seats=[2], progress=False)
    assert set(one["seat"]) == {2} and len(one) == (a["seat"] == 2).sum()
    half = mine(game, hands=4, worlds=8, sample=0.5, progress=False)
    assert 0 < len(half) < len(a) and set(map(tuple, half[["hand", "decision"]].values)) <= set(
        map(tuple, a[["hand", "decision"]].values))
    assert (a["choices"] >= 2).all() and (a["loss_se"] >= 0).all()


def test_a_streamed_run_resumes_and_gives_the_same_rows(tmp_path):
    game = tricksim.make_game("bluke")
    whole = mine(game, hands=10, worlds=8, progress=False)
    out = tmp_path / "rows.parquet"
    mine(game, hands=10, worlds=8, out=out, progress=False)
    pd.testing.assert_frame_equal(pd.read_parquet(out), whole)
    with pytest.raises(OptionError, match="another"):
        mine(game, hands=10, worlds=10, out=out, progress=False)


def test_the_summary_shares_the_losses_and_the_files_open_in_explain(tmp_path):
    game = tricksim.make_game("sheepshead")
    rows = mine(game, hands=8, worlds=16, seats=[0, 1], progress=False)
    tables = summarize_mine(rows, 8)
    by_kind = tables["by_kind"]
    assert by_kind["decisions"].sum() == len(rows)
    assert by_kind["loss_per_deal"].sum() == pytest.approx(rows["loss"].sum() / 8)
    assert by_kind["share"].sum() == pytest.approx(1.0) or (by_kind["loss_per_deal"] <= 0).all()
    mining = make_mining(game, 8, seats=[0, 1], worlds=16)
    paths = write_mine(rows, mining, tmp_path)
    assert {p.name for p in paths} >= {"by_kind.csv", "worst.csv", "loss.png", "mine.md"}
    worst = pd.read_csv(tmp_path / "worst.csv")
    for r in worst.itertuples():
        state, taken = decisions(read_record(tmp_path / r.record))[r.decision - 1]
        assert taken == r.taken and explain(state, worlds=4, taken=taken).taken == r.taken


def test_the_command_writes_its_report_and_refuses_a_seat_not_at_the_table(tmp_path, capsys):
    assert main(["mine", "nesmear", "--hands", "3", "--worlds", "8", "--out", str(tmp_path)]) == 0
    assert "decisions valued" in capsys.readouterr().out and (tmp_path / "mine.md").exists()
    assert main(["mine", "nesmear", "--hands", "3", "--seats", "7"]) == 2
    assert "seats" in capsys.readouterr().err


def test_solve_zero_values_the_late_decisions_by_playouts_and_bad_counts_are_refused():
    game = tricksim.make_game("shmear")
    solved = mine(game, hands=3, worlds=8, progress=False)
    played = mine(game, hands=3, worlds=8, solve=0, progress=False)
    assert solved[["hand", "decision", "taken"]].equals(played[["hand", "decision", "taken"]])
    early = solved["trick"] <= 2  # more than 4 cards in hand: played out either way
    assert solved[early]["taken_value"].equals(played[early]["taken_value"])
    assert not solved[~early]["taken_value"].equals(played[~early]["taken_value"])
    with pytest.raises(OptionError, match="solve"):
        make_mining(game, 3, solve=-1)
