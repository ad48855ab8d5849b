"""PIMC and ISMCTS at the table: their specs, their rows through ``simulate`` (legal, reproducible,
the same on several workers), and their strength against the heuristic agent on duplicate deals."""

from __future__ import annotations

import pandas as pd
import pytest

import tricksim
from tricksim.agents import Agent, search_arrays, seat_agents, uses_search
from tricksim.errors import OptionError

GAMES = tricksim.games()


@pytest.mark.parametrize("text, message", [
    ("pimc:depth=3", "pimc has no parameter 'depth'"),
    ("pimc:worlds=0", "worlds must be a whole number >= 1"),
    ("pimc:worlds=2.5", "worlds must be a whole number >= 1"),
    ("pimc:resample=0", "resample must be a whole number >= 1"),
    ("ismcts:iters=-4", "iters must be a whole number >= 1"),
    ("ismcts:bidding=2", "bidding 0 or 1"),
    ("pimc:time=-1", "time, c and ess must be >= 0"),
    ("pimc:infer=0.5:ess=-1", "time, c and ess must be >= 0"),
    ("pimc:infer=1.5", "infer .* between 0 and 1"),
])
def test_bad_search_agent_specs_are_errors(text, message):
    with pytest.raises(OptionError, match=message):
        Agent.parse(text)


def test_search_parameters_fill_in_their_defaults():
    seated, specs = seat_agents("nesmear", "pimc:worlds=12,ismcts:iters=300:c=1.5,heuristic,random", 4)
    params = search_arrays(seated, tricksim.make_game("nesmear"))
    assert specs == ["pimc:worlds=12", "ismcts:iters=300:c=1.5", "heuristic", "random"]
    assert params[0].tolist() == [12, 0, 4, 1, 1, 0, 2, 0, 1] and params[1].tolist() == [300, 0, 1.5, 1, 0, 0, 0, 0, 0]
    assert (params[2:] == 0).all() and uses_search(seated) and not uses_search(seated[2:])


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("infer", [0, 0.2])
def test_search_agents_play_whole_hands_reproducibly(game, infer):
    players = tricksim.make_game(game).players
    agents = [f"pimc:worlds=4:infer={infer}", f"ismcts:iters=60:infer={infer}"] + ["heuristic"] * (players - 2)
    df = tricksim.simulate(game, hands=6, seed=3, agents=agents, progress=False)
    again = tricksim.simulate(game, hands=6, seed=3, agents=agents, progress=False)
    pd.testing.assert_frame_equal(df, again)
    assert len(df) == 6 and df.filter(like="score_").notna().all().all()


def test_search_rows_do_not_depend_on_workers():
    agents = "pimc:worlds=3,heuristic,ismcts:iters=40,heuristic"
    one = tricksim.simulate("nesmear", hands=130, seed=5, agents=agents, progress=False)
    two = tricksim.simulate("nesmear", hands=130, seed=5, agents=agents, workers=2, progress=False)
    pd.testing.assert_frame_equal(one, two)


def test_a_time_budget_still_plays_legal_hands():
    df = tricksim.simulate("sheepshead", hands=2, seed=1, agents="pimc:time=0.001,ismcts:time=0.001,heuristic,"
                           "heuristic,heuristic", progress=False)
    assert df["score_0"].notna().all()


def test_the_environments_seat_only_numba_policies_as_opponents():
    import gymnasium

    with pytest.raises(ValueError, match="random or heuristic opponents"):
        gymnasium.make("tricksim/NESmear-v0", opponents="pimc")
