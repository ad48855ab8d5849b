"""The best action of a study's class and position from every paired comparison
(tricksim/experiments/best.py): hand-made frames where a greedy pass over the actions goes wrong,
and a property over random frames."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tricksim.experiments.best import best_action, pairs
from tricksim.experiments.study import summarize_decisions

NAN = np.nan


def frame(**columns) -> pd.DataFrame:
    """A wide frame: an action's score at each decision (NaN: not open there)."""
    return pd.DataFrame({name.replace("_", " "): values for name, values in columns.items()}, dtype=float)


def test_paired_comparison_beats_a_higher_mean_over_other_decisions():
    """A dealer's hold is open only after a bid (three good deals), the raise on all five: the
    hold's mean (4) beats the raise's (2.2), but on the deals both were open the raise took more."""
    wide = frame(hold=[4, 4, 4, NAN, NAN], bid_25=[5, 6, 5, -2, -3], pass_=[0, 0, 0, 0, 0])
    wide.columns = ["hold", "bid 25", "pass"]
    b = best_action(wide, min_paired=3)
    assert (b.best, b.rival, b.paired) == ("bid 25", "hold", 3)  # the raise leads the hold by least
    assert b.margin == pytest.approx(4 / 3) and b.low < b.margin < b.high and b.undecided == ""


def test_an_action_never_open_beside_the_leader_leaves_it_undecided():
    """The hold has the best mean and beats the pass where both were open; the bid, never open
    beside the hold, beats the pass on its own decisions. A greedy pass from the best mean keeps the
    hold (the bid can never replace it); nothing says which of the two is better."""
    wide = frame(hold=[10] * 40 + [NAN] * 40, pass_=[5] * 40 + [0] * 40, bid_20=[NAN] * 40 + [2] * 40)
    wide.columns = ["hold", "pass", "bid 20"]
    b = best_action(wide, min_paired=30)
    assert b.best is None and np.isnan(b.margin)
    assert b.undecided == "hold and bid 20 were never open together"


def test_an_action_open_on_too_few_decisions_beside_the_leader_leaves_it_undecided():
    wide = frame(a=[3.0, 1.0] * 20 + [NAN] * 35, b=[0.0] * 75, c=[NAN] * 35 + [1.0, 2.0] * 20)
    wide.iloc[35:40, 0] = 2.0  # a and c open together on 5 decisions, c ahead there, but not significantly
    wide.iloc[35:40, 2] = [1.0, 4.0, 1.0, 4.0, 1.0]
    b = best_action(wide, min_paired=30)
    assert b.best is None and "a and c were open together on 5 decisions (fewer than 30)" in b.undecided


def test_three_actions_in_a_cycle_are_undecided():
    """pass beats bid 20, bid 20 beats hold, hold beats pass, each on the decisions the two shared."""
    wide = frame(pass_=[2] * 30 + [NAN] * 30 + [0] * 30, bid_20=[1] * 30 + [3] * 30 + [NAN] * 30,
                 hold=[NAN] * 30 + [2] * 30 + [1] * 30)
    wide.columns = ["pass", "bid 20", "hold"]
    b = best_action(wide, min_paired=30)
    assert b.best is None
    assert b.undecided == "every action is beaten: pass by hold, bid 20 by pass, hold by bid 20"


def test_an_action_open_once_is_never_named_best():
    """A bid of 15 open on one decision, where it won 25, is not named over a bid of 20 on 40."""
    wide = frame(bid_15=[25] + [NAN] * 39, bid_20=[1] * 40, pass_=[0] * 40)
    wide.columns = ["bid 15", "bid 20", "pass"]
    b = best_action(wide, min_paired=30)
    assert (b.best, b.rival, b.paired, b.margin) == ("bid 20", "pass", 40, 1.0)
    assert b.low == b.high == 1.0  # every deal the same lead: no spread


def test_too_few_decisions_for_any_action():
    b = best_action(frame(pick=[3.0], pass_=[-1.0]), min_paired=30)
    assert b.best is None
    assert b.undecided == "too few decisions: no action was open on 30 or more (the most, pick, on 1)"
    assert best_action(frame(pick=[3.0], pass_=[-1.0]), min_paired=1).best == "pick"


def test_actions_that_score_the_same_wherever_they_meet_count_as_one():
    """A bid of 15 that is always overbid is a pass: the pass (open more often) is named, with
    the bid of 15 listed as equal, and the margin is over the next other rival (not a tie of 0)."""
    scores = np.arange(60) % 7 - 3.0
    wide = frame(pass_=scores, bid_15=np.where(np.arange(60) < 35, scores, NAN), bid_25=scores - 2)
    wide.columns = ["pass", "bid 15", "bid 25"]
    b = best_action(wide, min_paired=30)
    assert (b.best, b.equal, b.rival, b.paired, b.margin) == ("pass", "bid 15", "bid 25", 60, 2.0)


def test_a_tie_on_average_is_undecided():
    wide = frame(pick=[1, -1] * 20, pass_=[0, 0] * 20)
    wide.columns = ["pick", "pass"]
    b = best_action(wide, min_paired=30)
    assert b.best is None and b.undecided == "pick and pass tie on average over their 40 shared decisions"


def test_a_significant_lead_on_few_shared_decisions_counts():
    """The call is open beside the pass on only 10 decisions but loses every one of them by 5: it
    is beaten, though a lead on so few decisions would not count without its interval."""
    wide = frame(call=[-5] * 10 + [4] * 30, pass_=[0] * 10 + [NAN] * 30, bid=[NAN] * 10 + [1] * 30)
    wide.columns = ["call", "pass", "bid"]
    b = best_action(wide, min_paired=30)
    assert b.best is None  # the bid is open on 30 but the call beats it; the call is beaten by the pass
    assert "call by pass" in b.undecided


def test_the_best_table_of_made_rows_has_its_paired_count_and_the_lead_over_the_agent():
    """Eldest with three trumps on 40 deals: the agent passes on the first 10 and picks on the rest;
    picking scores 2 and passing -1 on every deal."""
    n = 40
    rows = pd.DataFrame({
        "hand": np.repeat(np.arange(n), 2), "decision": 0, "position": 1, "action": ["pick", "pass"] * n,
        "own": np.ravel([[i >= 10, i < 10] for i in range(n)]), "cards": 0b111 << 8, "score": [2, -1] * n})
    rows["cards"] = sum(1 << c for c in (8, 9, 10))
    _, best = summarize_decisions(rows, "sheepshead", {"all": lambda r: np.zeros(len(r), int)})
    row = best.iloc[0]
    assert (row["best"], row["rival"], row["paired"], row["decisions"], row["margin"]) == ("pick", "pass", n, n, 3.0)
    assert row["over_agent"] == pytest.approx(10 * 3 / n)  # the agent's passes cost 3 each


MIN = 5


@st.composite
def frames(draw):
    """A wide frame of 2-5 actions over 1-60 decisions, each action open at random, small scores."""
    k = draw(st.integers(2, 5))
    n = draw(st.integers(1, 60))
    opened = np.array(draw(st.lists(st.lists(st.booleans(), min_size=k, max_size=k), min_size=n, max_size=n)))
    scores = np.array(draw(st.lists(st.lists(st.integers(-4, 4), min_size=k, max_size=k), min_size=n, max_size=n)))
    return pd.DataFrame(np.where(opened, scores, np.nan), columns=[f"bid {10 + 5 * i}" for i in range(k)])


@settings(max_examples=300, deadline=None)
@given(frames())
def test_the_named_best_never_loses_a_paired_comparison_by_more_than_its_interval(wide):
    b = best_action(wide, min_paired=MIN)
    if b.best is None:
        assert b.undecided
        return
    assert wide[b.best].notna().sum() >= MIN and b.undecided == ""
    for (a, other), p in pairs(wide).items():
        if a != b.best:
            continue
        if p.shared >= 2 and not np.isnan(p.high):
            assert p.high >= -1e-9, (other, p)  # never significantly behind
        if p.shared >= MIN:
            assert p.mean >= -1e-9, (other, p)  # never behind on average over enough decisions
    if b.rival is not None:
        assert b.margin >= 0 and b.paired >= MIN
        assert b.margin == pytest.approx(min(p.mean for (a, o), p in pairs(wide).items()
                                             if a == b.best and p.shared >= MIN and not p.same()))
