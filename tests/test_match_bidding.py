"""Bidding by the match's score (Fifty-five and the smears): the bid that keeps another side from
going out on this hand (``match_stop``), worked out by hand, and the heuristic bidding more often
when another side is about to go out than at the start of the match."""

from __future__ import annotations

import pytest

import tricksim
from tricksim.agents import fiftyfive as F
from tricksim.agents import smear as S
from tricksim.sim.kernels import new_rng


def _first_state(name, totals, seed=1, **options):
    """The first hand of a match of ``name`` started at ``totals``."""
    return tricksim.make_game(name, **options).new_match(seed=seed, totals=totals).state


def _first_hand(name, totals, seed=1, **options):
    return _first_state(name, totals, seed, **options).array


@pytest.mark.parametrize("need, stop", [(1, 4), (2, 3), (3, 2), (4, 2), (5, 0)])
def test_ne_smear_stops_the_others_by_leaving_them_fewer_points_than_they_need(need, stop):
    """Four points a hand: a bid of b made leaves the others 4 - b, short of ``need`` when b > 4 - need."""
    s = _first_hand("nesmear", [15 - need, 3, 15 - need, 3])
    assert S.match_stop(s, 1) == stop  # seat 1's team (1, 3) against team (0, 2)
    assert S.match_stop(s, 0) == 0  # the others need 12: nothing to stop


def test_under_go_out_bid_only_any_bid_stops_them():
    s = _first_hand("nesmear", [14, 3, 14, 3], go_out="bid_only")
    assert S.match_stop(s, 1) == 2
    assert S.match_stop(_first_hand("nesmear", [10, 3, 10, 3], go_out="bid_only"), 1) == 0


def test_shmear_reads_the_team_that_needs_fewest():
    s = _first_hand("shmear", [10, 19, 14, 10, 19, 14])  # three teams: (0, 3), (1, 4), (2, 5)
    assert S.match_stop(s, 0) == 5  # team 1 needs 2 of 6 points: a bid of 5 leaves it 1
    assert S.match_stop(s, 1) == 0  # the others need 11 and 7: more than a hand brings


def test_a_hand_on_its_own_has_nothing_to_stop():
    s = tricksim.make_game("nesmear").new_hand(seed=1).array
    assert S.match_stop(s, 1) == 0
    s = tricksim.make_game("fiftyfive").new_hand(seed=1).array
    assert F.match_stop(s, 1) == 0


@pytest.mark.parametrize("need, stop", [(10, 25), (11, 20), (25, 10), (26, 10), (5, 0), (31, 0)])
def test_fifty_five_stops_the_others_with_the_lowest_bid_that_leaves_them_short(need, stop):
    """30 points a hand (five tricks of 5 and the best trump's 5), bids of 10, 15, 20, 25 and 60 (60
    never chosen to stop): the lowest bid b with 30 - b below ``need``; none below 60 when they
    need 5 or less."""
    s = _first_hand("fiftyfive", [55 - need, 0, 0, 0, 0])
    assert F.match_stop(s, 1) == stop
    assert F.match_stop(s, 0) == 0  # the others need 55
    assert F.match_stop(_first_hand("fiftyfive", [55 - need, 0, 0, 0, 0], exchange=2), 1) == 0  # (see match_stop)


def _mean_bid(name, totals, deals=300, **options):
    """The mean bid of the first seat to speak (a pass 0), over ``deals`` first hands of a match at
    ``totals``."""
    module = F if name == "fiftyfive" else S
    rng = new_rng()
    total = 0
    for seed in range(deals):
        state = _first_state(name, totals, seed, **options)
        label = dict(zip(state.legal_actions(), state.legal_labels()))[module.act(state.array.copy(),
                                                                                 module.DEFAULTS, rng)]
        total += int(label.split()[1]) if label.startswith("bid ") else 0
    return total / deals


@pytest.mark.parametrize("name, start, late, options", [
    ("nesmear", [0, 0, 0, 0], [14, 3, 14, 3], {}),  # eldest is seat 1: the others need 1
    ("fiftyfive", [0] * 5, [0, 0, 0, 0, 45], {}),  # seat 4 needs 10
])
def test_the_heuristic_bids_higher_when_another_side_is_about_to_go_out(name, start, late, options):
    assert _mean_bid(name, late, **options) > _mean_bid(name, start, **options) + 0.1


def test_bidding_outside_a_match_is_as_at_its_start():
    for name in ("nesmear", "fiftyfive"):
        module = F if name == "fiftyfive" else S
        game = tricksim.make_game(name)
        for seed in range(50):
            alone, first = game.new_hand(seed=seed).array, game.new_match(seed=seed).state.array
            assert module.act(alone.copy(), module.DEFAULTS, new_rng()) == module.act(first.copy(), module.DEFAULTS,
                                                                                       new_rng())
