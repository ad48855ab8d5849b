"""The environments of every game: PettingZoo's and Gymnasium's own conformance tests, thousands
of random hands through the AEC API, the single-seat env against the vector env, and bad input."""

from __future__ import annotations

import importlib

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, seed_test

import tricksim
from tricksim.envs import GYM_IDS
from tricksim.sim.actions import NUM_ACTIONS

GAMES = tricksim.games()
MATCH_OPTIONS = {"sheepshead": {"hands": 5}, "fiftyfive": {"target": 20}, "shmear": {"target": 4},
                 "nesmear": {"target": 4}, "bluke": {"players": 3}}

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # PettingZoo's notes on Dict spaces


def module(game):
    return importlib.import_module(f"tricksim.envs.{game}_v0")


def random_action(obs, rng):
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_seed_and_parallel_tests(game):
    api_test(module(game).env(), num_cycles=300)
    seed_test(module(game).env, num_cycles=100)
    parallel_api_test(module(game).parallel_env(), num_cycles=300)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test_on_match_episodes(game):
    api_test(module(game).env(episode="match", **MATCH_OPTIONS[game]), num_cycles=300)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env(game):
    check_env(gymnasium.make(GYM_IDS[game], seat=1, opponents="heuristic").unwrapped, skip_render_check=True)
    check_env(gymnasium.make(GYM_IDS[game], opponents="random", episode="match",
                             **MATCH_OPTIONS[game]).unwrapped, skip_render_check=True)


@pytest.mark.parametrize("game", GAMES)
def test_random_hands_through_the_aec_api(game):
    """2,000 hands of random play: one agent acts at a time with a non-empty mask that matches
    the rules' legal actions, the rewards are the hand's scores, and the observation is the
    seat's own view."""
    env = module(game).raw_env()
    rng = np.random.default_rng(0)
    env.reset(seed=5)
    table = env.unwrapped.table
    for hand in range(2000):
        if hand:
            env.reset()
        totals = dict.fromkeys(env.agents, 0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            seat = int(agent.split("_")[1])
            assert seat == table.to_act
            legal = np.flatnonzero(obs["action_mask"])
            assert list(legal) == tricksim.State(table.game, table.array).legal_actions()
            assert (info["action_mask"] == obs["action_mask"]).all()
            env.step(int(rng.choice(legal)))
        assert list(totals.values()) == table.game.scores(table.array)


@pytest.mark.parametrize("game", GAMES)
def test_a_hand_episode_is_the_hand_simulate_plays(game):
    env = module(game).raw_env()
    env.reset(seed=11)
    env.reset()  # episode 1: hand 1 of seed 11, dealer 1
    table = env.unwrapped.table
    dealt = table.game.new_hand(seed=11, dealer=1, hand=1)
    for seat in range(table.game.players):
        assert tricksim.State(table.game, table.array).observe(seat) == dealt.observe(seat)


def test_match_episodes_add_up_to_the_match_totals():
    env = module("sheepshead").raw_env(episode="match", hands=5)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    rewards = dict.fromkeys(env.agents, 0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        env.step(None if terminated else random_action(obs, rng))
    match = env.unwrapped.table.match
    assert match.is_over() and match.hands_played == 5
    assert list(rewards.values()) == match.totals


def test_aec_illegal_actions():
    raw = module("sheepshead").raw_env()
    raw.reset(seed=1)
    before = raw.unwrapped.table.array.copy()
    with pytest.raises(tricksim.IllegalActionError, match="legal: pass, pick"):
        raw.step(NUM_ACTIONS - 1)
    assert (raw.unwrapped.table.array == before).all()
    env = module("sheepshead").env()
    env.reset(seed=1)
    cheat = env.agent_selection
    env.step(NUM_ACTIONS - 1)  # PettingZoo's wrapper logs the illegal move and ends the game
    assert env.rewards[cheat] == -100 and all(env.terminations.values())


def test_render_shows_the_table_as_the_seat_to_act_sees_it():
    env = module("sheepshead").raw_env(render_mode="ansi")
    env.reset(seed=7)
    text = env.render()
    seat = env.unwrapped.table.to_act
    hand = env.unwrapped.table.game.hand(env.unwrapped.table.array, seat).labels()
    assert f"as player_{seat} sees it" in text and " ".join(hand) in text
    other = env.unwrapped.table.game.hand(env.unwrapped.table.array, (seat + 1) % 5).labels()
    assert " ".join(other) not in text


@pytest.mark.parametrize("game", GAMES)
def test_the_vector_env_steps_as_the_single_seat_env(game):
    """One table of the vector env and the single-seat env, same seed and learner policy, play the
    same hands: same observations, masks, rewards and episode ends, through autoresets."""
    single = gymnasium.make(GYM_IDS[game], seat=2, opponents="heuristic").unwrapped
    vector = gymnasium.make_vec(GYM_IDS[game], num_envs=1, seat=2, opponents="heuristic")
    obs, info = single.reset(seed=4)
    vobs, _ = vector.reset(seed=4)
    episodes = 0
    while episodes < 30:
        assert (vobs[0] == obs).all()
        assert (vector.action_masks()[0] == single.action_masks()).all()
        action = int(np.flatnonzero(single.action_masks())[-1])
        obs, reward, terminated, _, _ = single.step(action)
        vobs, vreward, vterminated, _, _ = vector.step([action])
        assert (vreward[0], vterminated[0]) == (reward, terminated)
        if terminated:
            episodes += 1
            assert (vobs[0] == obs).all()
            obs, _ = single.reset()
            vobs, _, _, _, _ = vector.step([0])  # next-step autoreset: the action is ignored


def test_vector_env_illegal_action_ends_only_that_table():
    envs = gymnasium.make_vec(GYM_IDS["bluke"], num_envs=3, opponents="random")
    envs.reset(seed=0)
    masks = envs.action_masks()
    actions = masks.argmax(axis=1)
    actions[1] = np.flatnonzero(~masks[1])[0]
    _, rewards, terminated, _, _ = envs.step(actions)
    assert rewards[1] == -100 and terminated[1] and not envs.action_masks()[1].any()
    assert envs.action_masks()[[0, 2]].any(axis=1).all() or terminated[[0, 2]].any()


def test_single_seat_illegal_action_changes_nothing_and_ends_the_episode():
    env = gymnasium.make(GYM_IDS["fiftyfive"], seat=0, opponents="heuristic").unwrapped
    obs, _ = env.reset(seed=2)
    before = env.table.array.copy()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    obs2, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-100.0, True, False, True)
    assert (env.table.array == before).all() and (obs2 == obs).all()


@pytest.mark.parametrize("kwargs, message", [
    ({"seat": 5}, "not a seat"),
    ({"opponents": "clever"}, "no agent"),
    ({"episode": "set"}, "episode"),
    ({"render_mode": "human"}, "render_mode"),
    ({"no_pick": "sometimes"}, "no_pick"),
])
def test_bad_arguments_are_clear_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        gymnasium.make(GYM_IDS["sheepshead"], **kwargs)


def test_an_action_must_be_a_whole_number():
    env = gymnasium.make(GYM_IDS["sheepshead"]).unwrapped
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not an action id"):
        env.step("pick")
    raw = module("sheepshead").raw_env()
    raw.reset(seed=0)
    with pytest.raises(ValueError, match="not an action id"):
        raw.step(1.5)


def test_bad_vector_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="num_envs"):
        gymnasium.make_vec(GYM_IDS["bluke"], num_envs=0)
    with pytest.raises(ValueError, match="one hand an episode"):
        gymnasium.make_vec(GYM_IDS["bluke"], num_envs=2, episode="match")
    envs = gymnasium.make_vec(GYM_IDS["bluke"], num_envs=2)
    envs.reset(seed=0)
    for bad in ([0, 1, 2], [0.5, 1.0]):
        with pytest.raises(ValueError, match="whole numbers, one a table"):
            envs.step(bad)
