"""The exact solver against brute force: on endings of random hands in every game, alpha-beta with
its table, move order and merged cards finds the value a plain minimax over every legal action
finds; the win-or-lose question agrees with the exact value; the principal line is legal and ends
at the value."""

from __future__ import annotations

import numpy as np
import pytest

import tricksim
from tricksim.agents.solver import POINTS, SCORE, solve
from tricksim.errors import OptionError

from brute_force import compiled_brute

GAMES = {
    "sheepshead": [{}, {"partner": "jack_of_diamonds"}, {"no_call": "unknown"}],
    "fiftyfive": [{"players": 3}, {"players": 4, "teams": 2}],
    "shmear": [{}],
    "nesmear": [{}],
    "bluke": [{"players": 3}],
}
CASES = [(game, options) for game, sets in GAMES.items() for options in sets]


def ending(game, seed: int, left: int):
    """A hand of ``game`` played at random until at most ``left`` cards remain in the hands during
    the card play; None if the hand ends before that."""
    rng = np.random.default_rng(seed)
    state = game.new_hand(seed=seed, dealer=seed % game.players)
    while not state.is_terminal():
        if state.phase == "play":
            hands = state.array[:game.players]
            cards_left = sum(bin(int(h)).count("1") for h in hands)
            if cards_left <= left:
                return state
        state.apply(int(rng.choice(state.legal_actions())))
    return None


@pytest.mark.parametrize("game_name, options", CASES)
def test_solver_matches_brute_force_on_endings(game_name, options):
    game = tricksim.make_game(game_name, **options)
    family = game.family
    exact = compiled_brute(family)
    checked = 0
    for seed in range(60):
        state = ending(game, seed, left=2 * game.players + 1)
        if state is None:
            continue
        judge = seed % game.players
        for objective, name in ((SCORE, "score"), (POINTS, "points")):
            want = exact(family, state.array.copy(), judge, objective)
            got = solve(state, seat=judge, objective=name)
            assert got.value == want, (seed, name)
        checked += 1
    assert checked >= 30


@pytest.mark.parametrize("game_name, options", CASES)
def test_the_target_question_and_the_line_agree_with_the_value(game_name, options):
    game = tricksim.make_game(game_name, **options)
    for seed in range(20):
        state = ending(game, 100 + seed, left=3 * game.players)
        if state is None:
            continue
        seat = state.current_player
        exact = solve(state, objective="points")
        for target in (exact.value, exact.value + 1, max(0, exact.value - 3)):
            assert solve(state, objective="points", target=target).value == (exact.value >= target)
        by_score = solve(state)
        assert by_score.scores[seat] == by_score.value  # the line ends at the value
        walk = state.clone()
        for label in by_score.line:
            walk.apply(label)
        assert walk.is_terminal() and walk.scores() == by_score.scores
        assert by_score.best == by_score.line[0]


def test_a_picker_with_every_top_trump_takes_all_120_points():
    game = tricksim.make_game("sheepshead")
    state = game.deal(hands=["QC QS QH QD JC JS", "JH JD AD TD KD 9D", "8D 7D AC TC KC 9C",
                             "8C 7C AS TS KS 9S", "8S 7S AH TH KH 9H"], rest="8H 7H", dealer=0)
    for action in ["pass", "pass", "pass", "pass", "pick", "bury 8H", "bury 7H", "alone"]:
        state.apply(action)
    assert solve(state, seat=0, objective="points").value == 120
    defender = solve(state, seat=3, objective="points")
    assert defender.value == 0 and not defender.paranoid
    assert solve(state, seat=0, objective="points", target=120).value is True
    alone = solve(state, seat=0)
    assert alone.value == alone.scores[0] > 0 and sum(alone.scores) == 0


@pytest.mark.parametrize("game_name, options, paranoid", [
    ("bluke", {"players": 3}, True), ("fiftyfive", {"players": 3}, True), ("shmear", {}, True),
    ("fiftyfive", {"players": 4, "teams": 2}, False), ("nesmear", {}, False), ("sheepshead", {}, False),
])
def test_more_than_two_sides_are_solved_as_the_paranoid_reduction(game_name, options, paranoid):
    game = tricksim.make_game(game_name, **options)
    for seed in range(40):
        state = ending(game, seed, left=game.players + 1)
        picked = game_name != "sheepshead" or (state is not None and state.array[game.kernels.PICKER] >= 0)
        if state is not None and picked:  # (a Sheepshead leaster has five sides)
            assert solve(state).paranoid is paranoid
            return
    pytest.fail("no ending found")


@pytest.mark.parametrize("kwargs, message", [
    ({"objective": "tricks"}, "objective 'tricks'"),
    ({"seat": 7}, "seat 7"),
    ({"target": -1}, "target -1"),
])
def test_bad_solver_arguments_are_errors(kwargs, message):
    state = tricksim.make_game("sheepshead").new_hand(seed=1, dealer=0)
    before = state.array.copy()
    with pytest.raises(OptionError, match=message):
        solve(state, **kwargs)
    assert (state.array == before).all()
