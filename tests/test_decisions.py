"""Decision studies' raw rows (tricksim/experiments/decisions.py): every pick or bid decision the
agents' own play reaches, each legal action taken in turn, and the hand played out from it."""

from __future__ import annotations

import pandas as pd
import pytest

import tricksim
from tricksim.errors import OptionError
from tricksim.experiments.decisions import decision_frame


def test_sheepshead_pick_decisions():
    game = tricksim.make_game("sheepshead")
    df = decision_frame(game, 300, seed=3)
    assert set(df["action"]) == {"pick", "pass"}
    for (hand, decision), rows in df.groupby(["hand", "decision"]):
        assert sorted(rows["action"]) == ["pass", "pick"]  # both actions at every decision
        assert rows["seat"].nunique() == 1 and rows["cards"].nunique() == 1
        assert rows["position"].iloc[0] == (decision + 1) % 5  # eldest first, the dealer last
    pick = df[df["action"] == "pick"]
    assert (pick["picker"] == pick["seat"]).all()  # the forced pick is the seat's
    passed = df[(df["action"] == "pass") & (df["position"] == 0)]  # the dealer passes: nobody picked
    assert len(passed) > 0 and passed["picker"].isna().all() and (passed["outcome"] == "leaster").all()
    assert (df["score"] == df.apply(lambda r: r[f"score_{r['seat']}"], axis=1)).all()


def test_the_agents_own_action_is_marked_and_the_hand_goes_on_with_it():
    """At each decision exactly one row is the agent's own action; in Sheepshead a pick ends the
    picking, so the seat's own pick is its hand's last decision, and a pass is followed by the
    next seat's."""
    df = decision_frame(tricksim.make_game("sheepshead"), 300, seed=5)
    own = df[df["own"]]
    assert (df.groupby(["hand", "decision"])["own"].sum() == 1).all()
    last = df.groupby("hand")["decision"].transform("max")
    picker = own["picker"].astype("float").fillna(-1).to_numpy()
    assert ((own["action"] == "pick") == ((own["decision"] == last[own.index]) & (picker == own["seat"]))).all()
    hands = tricksim.simulate("sheepshead", 300, seed=5, agents="heuristic")
    picked = own[own["action"] == "pick"].set_index("hand")["seat"]
    assert (hands.loc[picked.index, "picker"].to_numpy() == picked.to_numpy()).all()  # as the agents play it


def test_bidding_decisions_offer_every_bid():
    game = tricksim.make_game("nesmear")
    df = decision_frame(game, 200, seed=4)
    for _, rows in df.groupby(["hand", "decision"]):
        assert rows["action"].nunique() == len(rows) >= 1
    made = df[df["action"] != "pass"]
    top = made[made["position"] == 0]  # the dealer's bids end the auction: he is the bidder
    assert len(top) > 0 and (top["bidder"] == top["seat"]).all()


def test_many_actions_at_a_decision():
    """Three-player Bluke bids 1 to the cards in hand (13 in the match's first hand): more rows
    than the study first makes room for."""
    df = decision_frame(tricksim.make_game("bluke", players=3), 20, seed=1)
    groups = df.groupby(["hand", "decision"])
    held = groups["cards"].first().map(lambda mask: bin(int(mask)).count("1"))
    assert (groups.size() == held).all() and held.max() == 13


def test_same_seed_same_rows():
    game = tricksim.make_game("fiftyfive", players=4)
    assert decision_frame(game, 50, seed=9).equals(decision_frame(game, 50, seed=9))
    assert not decision_frame(game, 50, seed=9).equals(decision_frame(game, 50, seed=10))


def test_bad_arguments_are_errors():
    game = tricksim.make_game("sheepshead")
    with pytest.raises(OptionError):
        decision_frame(game, -1)
    with pytest.raises(OptionError, match="no agent 'mcts'"):
        decision_frame(game, 10, agents="mcts")


def test_search_agents_play_a_study():
    """PIMC and ISMCTS play the hands out: the first decision of each deal is the same whoever plays
    (eldest, nothing bid yet), what follows is theirs, and the same seed gives the same rows."""
    game = tricksim.make_game("nesmear")
    agents = "pimc:worlds=3,ismcts:iters=40,heuristic,heuristic"
    searched = decision_frame(game, 6, seed=3, agents=agents, progress=False)
    played = decision_frame(game, 6, seed=3, progress=False)
    def first(rows):
        return rows.loc[rows["decision"] == 0, ["hand", "seat", "cards"]].assign(
            action=rows["action"].astype(str)).reset_index(drop=True)

    pd.testing.assert_frame_equal(first(searched), first(played))
    assert not searched["score"].equals(played["score"])
    assert searched.equals(decision_frame(game, 6, seed=3, agents=agents, progress=False))
