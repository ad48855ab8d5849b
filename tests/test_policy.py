"""A study's policy (tricksim/experiments/policy.py): read as a table, played exactly as written,
and its value against the heuristic's own rule measured on the same deals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import tricksim
from tricksim.agents import seat_agents, seat_arrays
from tricksim.errors import OptionError
from tricksim.experiments.policy import _play, _values, format_policy, policy_table, policy_value
from tricksim.experiments.study import study
from tricksim.sim import actions as A


def made_study(positions, actions, means, classes=None) -> dict:
    """A study's tables as it makes them: every position, each action with its mean score, the
    best by its mean."""
    rows = [{**(classes or {}), "position": p, "action": a, "mean_score": m}
            for p in positions for a, m in zip(actions, means)]
    table = pd.DataFrame(rows).assign(decisions=10, low=0.0, high=0.0)
    keys = list(table.columns[:list(table.columns).index("action")])
    best = table.loc[table.groupby(keys)["mean_score"].idxmax(), keys + ["action"]].rename(columns={"action": "best"})
    best.insert(len(keys), "decisions", 10)
    return {"table": table, "best": best.reset_index(drop=True)}


def play(game, made, seats):
    """Every deal with ``seats`` following the position-only policy of the study ``made``."""
    kinds, params = seat_arrays(game.name, seat_agents(game.name, "heuristic", game.players)[0])
    values, index = _values(made["table"], made["best"], ["position"])
    groups = np.full((300, game.players), -1, np.int64)
    base, _ = _play(game, 5, kinds, params, groups, values)
    position = (np.arange(game.players)[None, :] - base["dealer"].to_numpy()[:, None]) % game.players
    for seat in seats:
        groups[:, seat] = position[:, seat]  # the made tables list positions 0 .. players - 1 in order
    return _play(game, 5, kinds, params, groups, values)[0], base


def test_policy_table_is_the_best_action_per_class_and_position():
    best = pd.DataFrame({"trumps": [2, 2, 4, 4], "position": [0, 1, 0, 1], "decisions": 40,
                         "best": ["pick", "pass", "pick", "pick"]})
    policy = policy_table(best)
    assert policy.loc[2].tolist() == ["pick", "pass"] and policy.loc[4].tolist() == ["pick", "pick"]
    assert "| 2 | pick | pass |" in format_policy(best) and "| trumps | dealer | eldest |" in format_policy(best)


def test_the_policy_takes_the_best_action_or_leaves_the_decision_to_the_agent():
    """The study's best where it beats the agent's own choice; nothing else (the agent decides):
    another action's mean, over other decisions, says nothing here."""
    made = made_study([0, 1, 2, 3], ["hold", "bid 25", "pass"], [4.0, 2.2, 0.0])
    made["best"]["best"] = ["bid 25", None, "bid 25", "bid 25"]  # position 1 undecided
    made["best"]["over_agent"] = [1.0, np.nan, 0.5, 2.0]
    made["best"]["over_agent_low"] = [0.2, np.nan, -0.1, np.nan]  # 2: not significantly better; 3: one decision
    values, index = _values(made["table"], made["best"], ["position"])
    hold, bid, passing = (A.parse_action(a) for a in ("hold", "bid 25", "pass"))
    assert values[0, bid] == 1.0 and np.isnan(values[0, [hold, passing]]).all()
    assert np.isnan(values[1:]).all()
    assert policy_table(made["best"]).loc["all hands"].tolist() == ["bid 25", "(agent)", "(agent)", "(agent)"]


def test_the_policy_is_played_as_written():
    game = tricksim.make_game("sheepshead")
    passing, base = play(game, made_study(range(5), ["pass", "pick"], [1.0, 0.0]), range(5))
    assert passing["picker"].isna().all() and base["picker"].notna().mean() > 0.8  # nobody picks: a leaster
    picking, _ = play(game, made_study(range(5), ["pass", "pick"], [0.0, 1.0]), range(5))
    assert ((picking["picker"] - picking["dealer"]) % 5).eq(1).all()  # eldest picks every hand
    fiftyfive = tricksim.make_game("fiftyfive")
    slam, _ = play(fiftyfive, made_study(range(5), ["bid 60"], [1.0]), range(5))
    assert (slam["bid"] == 60).all()  # eldest bids 60 and the rest, the policy's only bid illegal, play on


def test_policy_value_on_the_same_deals():
    game = tricksim.make_game("sheepshead")
    made = made_study(range(5), ["pass", "pick"], [0.0, 1.0], {"trumps": 0})  # only hands without a trump pick
    value = policy_value(game, made, 2000, seed=3)
    assert value["gain"][2] < 0 and 0 < value["changed"] < 0.2  # picking with no trump loses
    assert list(value["by_position"]["position"]) == list(range(5))
    assert value["gain"][0] == pytest.approx(value["by_position"]["gain"].mean())  # each deal has every position once
    again = policy_value(game, made, 2000, seed=3)
    assert again["gain"] == value["gain"]
    unseen = made_study(range(5), ["pass", "pick"], [0.0, 1.0], {"trumps": 9})  # no hand has nine trumps
    assert policy_value(game, unseen, 500, seed=3)["changed"] == 0


def test_bluke_policy_by_expected_tricks():
    """Bluke's classes read the deal's columns (the expected tricks with the turned trump)."""
    game = tricksim.make_game("bluke")
    result = study(game, 400, seed=1, progress=False)
    result["best"] = result["best"].drop(columns="over_agent")  # as a hand-made table: every best followed
    value = policy_value(game, result, 400, seed=2)
    assert list(result["best"].columns[:2]) == ["expected_tricks", "position"] and value["changed"] > 0


def test_bad_arguments_are_errors():
    game = tricksim.make_game("sheepshead")
    made = made_study(range(5), ["pass", "pick"], [0.0, 1.0], {"spades": 1})
    with pytest.raises(OptionError, match="choose from trumps"):
        policy_value(game, made, 100, seed=1)
    with pytest.raises(OptionError, match="one deal or more"):
        policy_value(game, made, 0, seed=1)
    with pytest.raises(OptionError, match="random or heuristic"):
        policy_value(game, made_study(range(5), ["pass"], [0.0]), 10, seed=1, agents="pimc")
    with pytest.raises(OptionError, match="random or heuristic"):  # before the study plays
        study(game, 10**9, agents="pimc", policy=100)
