"""The match's hand limit, ``max_hands``: a match stops after that many deals (thrown-in deals
included) and its best totals win, ties sharing; the environments report that as truncation; the
default limit leaves heuristic matches as they were; bad values are clear errors."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import tricksim
from tricksim.cli import main
from tricksim.experiments import matches
from tricksim.envs import GYM_IDS
from tricksim.envs.aec import constructors

GAMES = tricksim.games()
UNLIMITED = 10**9
OPEN_ENDED = ["fiftyfive", "nesmear", "shmear"]  # matches played to a target: any length


def play_match(game, seed: int, agents: str = "heuristic"):
    """A match of ``game`` from ``seed`` played out by ``agents`` (drawing as ``simulate`` does)."""
    return matches.play_match(game, [agents] * game.players, seed)


def best_seats(totals: list[int]) -> list[int]:
    return [seat for seat, total in enumerate(totals) if total == max(totals)]


@pytest.mark.parametrize("name", GAMES)
def test_the_default_limit_leaves_heuristic_matches_as_they_were(name):
    """Five heuristic matches a game end by the game's rule, exactly as with no limit at all."""
    game = tricksim.make_game(name)
    unlimited = tricksim.make_game(name, max_hands=UNLIMITED)
    for seed in range(5):
        m, u = play_match(game, seed), play_match(unlimited, seed)
        assert not m.truncated and not u.truncated and m.hand_number < m.max_hands
        assert (m.totals, m.winners, m.hand_number) == (u.totals, u.winners, u.hand_number)
        assert m.winners


@pytest.mark.parametrize("name", OPEN_ENDED)
def test_a_random_match_stops_at_the_limit_and_the_best_totals_win(name):
    """Random agents under max_hands = 3: the match stops after exactly 3 deals, truncated, with
    the totals of those deals as a longer match has them, and the best totals win."""
    limited = tricksim.make_game(name, max_hands=3)
    longer = tricksim.make_game(name, max_hands=4)
    checked = 0
    for seed in range(20):
        u = play_match(longer, seed, "random")
        if u.hand_number <= 3:
            continue  # over by the game's rule within the limit
        m = play_match(limited, seed, "random")
        assert m.is_over() and m.truncated and m.hand_number == 3 and len(m.finished) == 3
        first_three = [sum(s.scores()[p] for s in u.finished[:3]) for p in range(limited.players)]
        assert m.totals == first_three
        assert m.winners == best_seats(m.totals)
        checked += 1
    assert checked >= 10
    with pytest.raises(ValueError, match="the match is over"):
        m.apply(0)


def test_team_matches_at_the_limit_are_won_by_every_seat_of_the_best_teams():
    """Fifty-five in two teams of two, and NE Smear: teammates share their total, so the winners
    at the limit are whole teams, and a tie of the teams makes every seat a winner."""
    game = tricksim.make_game("fiftyfive", players=4, teams=2, max_hands=2)
    cut = [m for m in (play_match(game, seed, "random") for seed in range(10)) if m.truncated]
    assert len(cut) >= 5
    for m in cut:
        assert m.totals[0] == m.totals[2] and m.totals[1] == m.totals[3]
        assert m.winners in ([0, 2], [1, 3], [0, 1, 2, 3]) and m.winners == best_seats(m.totals)
    game = tricksim.make_game("nesmear", max_hands=1)
    ties = [m for m in (play_match(game, seed, "random") for seed in range(200)) if len(set(m.totals)) == 1]
    assert ties, "no tied hand in 200 random deals"
    assert all(m.truncated and m.winners == [0, 1, 2, 3] for m in ties)


def test_a_match_ended_by_its_rule_on_the_last_allowed_deal_is_not_truncated():
    """The game's end rule comes first: a match that ends on deal max_hands ended by the rule."""
    for name in OPEN_ENDED:
        u = play_match(tricksim.make_game(name), seed=1)
        m = play_match(tricksim.make_game(name, max_hands=u.hand_number), seed=1)
        assert m.is_over() and not m.truncated
        assert (m.totals, m.winners) == (u.totals, u.winners)


def test_thrown_in_deals_count_toward_the_limit():
    """Sheepshead with doublers: the thrown-in deals count, so a match that needs more deals than
    max_hands = hands is cut off there with fewer hands played."""
    game = tricksim.make_game("sheepshead", hands=5, no_pick="doubler", max_hands=5)
    cut = [m for m in (play_match(game, seed, "random") for seed in range(40)) if m.truncated]
    assert cut, "no thrown-in deal in 40 random matches"
    for m in cut:
        assert m.hand_number == 5 and m.hands_played < 5 and m.winners == best_seats(m.totals)


def test_blukes_fixed_match_is_unchanged():
    """Bluke's match is its fixed number of deals (25 for 2 to 4 players), well inside the
    default limit; a limit below that number is refused."""
    for players in (3, 4, 10):
        game = tricksim.make_game("bluke", players=players)
        m = play_match(game, seed=2, agents="random")
        assert m.hand_number == game.match_hands and not m.truncated
        assert m.winners == best_seats(m.totals)
        exact = play_match(tricksim.make_game("bluke", players=players, max_hands=game.match_hands), 2, "random")
        assert (exact.totals, exact.truncated) == (m.totals, False)
    assert tricksim.make_game("bluke").match_hands == 25
    with pytest.raises(tricksim.OptionError, match="bluke: max_hands = 24 is not allowed with players = 4"):
        tricksim.make_game("bluke", max_hands=24)


def test_a_sheepshead_limit_below_its_hands_is_refused():
    with pytest.raises(tricksim.OptionError, match="sheepshead: max_hands = 10 is not allowed with hands = 20"):
        tricksim.make_game("sheepshead", hands=20, max_hands=10)
    assert tricksim.make_game("sheepshead", hands=20, max_hands=20).options["max_hands"] == 20


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("value", [0, -1, 1.5, "ten", "2.5", True, None])
def test_bad_limits_are_option_errors_that_name_it(name, value):
    with pytest.raises(tricksim.OptionError, match=f"{name}: max_hands = .* is not allowed; it takes a positive"):
        tricksim.make_game(name, max_hands=value)


def test_the_limit_is_set_as_text_from_the_command_line(capsys):
    assert tricksim.make_game("nesmear", max_hands="40").options["max_hands"] == 40
    assert repr(tricksim.make_game("nesmear", max_hands=40)) == "make_game('nesmear', max_hands=40)"
    assert main(["simulate", "nesmear", "--hands", "10", "--set", "max_hands=0"]) == 2
    assert "max_hands = '0' is not allowed" in capsys.readouterr().err


def _aec_match(name: str, seed: int, **options):
    """An AEC match episode played out with random actions; the last ``env.last()`` of each agent."""
    env, _, _ = constructors(name)
    aec = env(episode="match", **options)
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ends = {}
    for agent in aec.agent_iter():
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            ends[agent] = (terminated, truncated)
            aec.step(None)
        else:
            aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return aec.unwrapped.table.match, ends


@pytest.mark.parametrize("name", OPEN_ENDED)
def test_the_aec_env_truncates_at_the_limit_and_terminates_at_the_rule(name):
    match, ends = _aec_match(name, seed=3, max_hands=2)
    assert match.truncated and match.hand_number == 2
    assert set(ends.values()) == {(False, True)} and len(ends) == match.game.players
    match, ends = _aec_match(name, seed=3, target=1)
    assert match.is_over() and not match.truncated
    assert set(ends.values()) == {(True, False)} and len(ends) == match.game.players


def _seat_match(name: str, seed: int, **options):
    """A single-seat match episode (seat 0 and its opponents random); the last step's flags."""
    env = gymnasium.make(GYM_IDS[name], seat=0, opponents="random", episode="match", **options).unwrapped
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    terminated = truncated = False
    while not (terminated or truncated):
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    return env.table.match, terminated, truncated


@pytest.mark.parametrize("name", OPEN_ENDED)
def test_the_single_seat_env_truncates_at_the_limit_and_terminates_at_the_rule(name):
    match, terminated, truncated = _seat_match(name, seed=5, max_hands=2)
    assert (terminated, truncated) == (False, True) and match.truncated and match.hand_number == 2
    match, terminated, truncated = _seat_match(name, seed=5, target=1)
    assert (terminated, truncated) == (True, False) and not match.truncated


def test_the_self_play_env_truncates_at_the_limit_and_terminates_at_the_rule():
    from tricksim.rl.selfplay import SelfPlayEnv
    from tricksim.sim.actions import NUM_ACTIONS

    for options, ends in [({"max_hands": 2}, (False, True)), ({"target": 1}, (True, False))]:
        env = SelfPlayEnv("nesmear", episode="match", **options)
        env.set_opponent([np.zeros((env.observation_space.shape[0], NUM_ACTIONS))], [np.zeros(NUM_ACTIONS)])
        _, info = env.reset(seed=3)
        terminated = truncated = False
        while not (terminated or truncated):
            _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        match = env.aec.unwrapped.table.match
        assert (terminated, truncated) == ends and match.truncated == ends[1]


def test_a_hand_record_or_network_from_before_the_limit_still_loads(tmp_path):
    """A hand plays the same whatever the match's limit: a record that does not name it loads."""
    from tricksim.records import HandRecord, simulated_record
    from tricksim.sim.game import hand_options

    record = simulated_record("nesmear", 0, 3, "random")
    data = record.to_dict()
    del data["options"]["max_hands"]
    assert HandRecord.from_dict(data).make_game().options["max_hands"] == 500
    assert "max_hands" not in hand_options(tricksim.make_game("bluke").options)
