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
    assert rewards[1] == -140 and terminated[1] and envs.action_masks()[1].sum() == 1  # the autoreset step's action
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
    ({"render_mode": "rgb_array"}, "render_mode"),
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


# --- as tooling written elsewhere uses them --------------------------------------------------

OPTION_SETS = [("sheepshead", {}), ("sheepshead", {"no_pick": "doubler", "double_on_bump": True}),
               ("fiftyfive", {}), ("fiftyfive", {"players": 2, "bid_values": "10 15 20"}), ("shmear", {}),
               ("nesmear", {}), ("bluke", {}), ("bluke", {"players": 2}), ("bluke", {"players": 5}),
               ("bluke", {"players": 8, "min_bid": 0})]


@pytest.mark.parametrize("game, options", OPTION_SETS)
def test_the_illegal_reward_is_below_every_hand_score(game, options):
    """A learner that ignores the masks never prefers an illegal move to a hand's worst score:
    the default lies below the game's lowest hand score, which random hands never pass."""
    lowest = tricksim.make_game(game, **options).lowest_score()
    df = tricksim.simulate(game, hands=3000, agents="random", progress=False, **options)
    worst = df[[c for c in df.columns if c.startswith("score_")]].to_numpy().min()
    assert lowest <= worst
    single = gymnasium.make(GYM_IDS[game], opponents="random", **options).unwrapped
    vector = gymnasium.make_vec(GYM_IDS[game], num_envs=2, **options)
    assert single.illegal_reward < lowest and vector.illegal_reward == single.illegal_reward
    env = module(game).env(**options)
    env.reset(seed=0)
    cheat = env.agent_selection
    env.step(int(np.flatnonzero(env.observe(cheat)["action_mask"] == 0)[0]))
    assert env.rewards[cheat] == single.illegal_reward < lowest
    assert gymnasium.make(GYM_IDS[game], illegal_reward=-7, **options).unwrapped.illegal_reward == -7


def test_random_bluke_hands_score_below_minus_100():
    """Why the default moved: -100 was not below Bluke's worst hands."""
    df = tricksim.simulate("bluke", hands=3000, agents="random", progress=False)
    assert df[[f"score_{p}" for p in range(4)]].to_numpy().min() < -100


@pytest.mark.parametrize("game", ["sheepshead", "bluke"])
def test_only_the_turn_based_parallel_view_is_declared(game):
    from pettingzoo.utils.conversions import aec_to_parallel

    env = module(game).env()
    assert env.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env)
    parallel_api_test(module(game).parallel_env(), num_cycles=50)


@pytest.mark.parametrize("mode", ["NextStep", "SameStep"])
def test_every_vector_step_gives_each_table_a_mask_with_a_legal_action(mode):
    envs = gymnasium.make_vec(GYM_IDS["bluke"], num_envs=8, opponents="random", autoreset_mode=mode)
    assert envs.metadata["autoreset_mode"].value == mode
    obs, info = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(300):
        masks = info["action_mask"]
        assert masks.shape == (8, NUM_ACTIONS) and masks.any(axis=1).all() and info["_action_mask"].all()
        assert (masks.astype(bool) == envs.action_masks()).all()
        logits = np.where(masks.astype(bool), rng.normal(size=masks.shape), -np.inf)
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))  # a masked softmax
        assert np.isfinite(probs / probs.sum(axis=1, keepdims=True)).all()
        obs, rewards, terminated, truncated, info = envs.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        ended += terminated.sum()
        if mode == "SameStep":
            assert ("final_obs" in info) == terminated.any()
    assert ended > 20


def test_same_step_autoreset_steps_as_the_single_seat_env():
    """With same-step autoreset a table's hand ends and the next begins in one step: the reward
    and the last observation of the ended hand come with the next hand's first observation."""
    single = gymnasium.make(GYM_IDS["shmear"], seat=1, opponents="heuristic").unwrapped
    vector = gymnasium.make_vec(GYM_IDS["shmear"], num_envs=1, seat=1, opponents="heuristic",
                                autoreset_mode="SameStep")
    obs, info = single.reset(seed=4)
    vobs, vinfo = vector.reset(seed=4)
    episodes = 0
    while episodes < 20:
        assert (vobs[0] == obs).all() and (vinfo["action_mask"][0] == info["action_mask"]).all()
        action = int(np.flatnonzero(info["action_mask"])[0])
        obs, reward, terminated, _, info = single.step(action)
        vobs, vreward, vterminated, _, vinfo = vector.step([action])
        assert (vreward[0], vterminated[0]) == (reward, terminated)
        if terminated:
            episodes += 1
            assert vinfo["_final_obs"][0] and (vinfo["final_obs"][0] == obs).all()
            obs, info = single.reset()


def test_the_vector_env_answers_call_get_attr_and_set_attr():
    envs = gymnasium.make_vec(GYM_IDS["fiftyfive"], num_envs=3, seat=1, opponents="random")
    envs.reset(seed=2)
    masks = envs.call("action_masks")
    assert len(masks) == 3 and all((m == row).all() for m, row in zip(masks, envs.action_masks()))
    assert envs.get_attr("seat") == (1, 1, 1)
    envs.set_attr("illegal_reward", -500)
    envs.set_attr("illegal_reward", [-500, -500, -500])
    assert envs.get_attr("illegal_reward") == (-500.0,) * 3
    with pytest.raises(ValueError, match="equal values"):
        envs.set_attr("illegal_reward", [-1, -2, -3])
    with pytest.raises(AttributeError, match="no attribute"):
        envs.set_attr("temperature", 2)
    actions = envs.action_masks().argmax(axis=1)
    actions[0] = np.flatnonzero(~envs.action_masks()[0])[0]
    assert envs.step(actions)[1][0] == -500


def test_the_mask_reaches_a_learner_through_gymnasiums_vector_wrappers():
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(gymnasium.make_vec(GYM_IDS["nesmear"], num_envs=4, opponents="random"))
    _, info = envs.reset(seed=0)
    for _ in range(60):
        _, _, _, _, info = envs.step(info["action_mask"].argmax(axis=1))
        assert (info["action_mask"].astype(bool) == envs.unwrapped.action_masks()).all()
    assert "episode" in info or envs.episode_count > 0


@pytest.mark.parametrize("mode", ["ansi", "human"])
def test_the_vector_env_renders_a_table(mode, capsys):
    envs = gymnasium.make_vec(GYM_IDS["sheepshead"], num_envs=2, render_mode=mode)
    envs.reset(seed=3)
    text = envs.render()
    seat0 = " ".join(envs.unwrapped.game.hand(envs.unwrapped._states[0], 0).labels())
    if mode == "human":
        assert text is None
        text = capsys.readouterr().out
    assert "sheepshead, as player_0 sees it" in text and seat0 in text


def _same_after_steps(a, b, step):
    """Step ``a`` and ``b`` alike ``step`` times; whether their outputs stayed equal."""
    for _ in range(40):
        out_a, out_b = step(a), step(b)
        if not all(np.array_equal(x, y) for x, y in zip(out_a, out_b)):
            return False
    return True


@pytest.mark.parametrize("game", ["sheepshead", "bluke"])
def test_every_environment_pickles_to_one_in_the_same_state(game):
    import pickle

    single = gymnasium.make(GYM_IDS[game], opponents="heuristic")
    single.reset(seed=5)
    single.step(int(single.unwrapped.action_masks().argmax()))

    def single_step(env):
        obs, reward, terminated, truncated, _ = env.step(int(env.unwrapped.action_masks().argmax()))
        if terminated:
            env.reset()
        return obs, np.array([reward, terminated])

    assert _same_after_steps(single, pickle.loads(pickle.dumps(single)), single_step)
    for mode in ("NextStep", "SameStep"):
        vector = gymnasium.make_vec(GYM_IDS[game], num_envs=3, autoreset_mode=mode)
        vector.reset(seed=5)
        assert _same_after_steps(vector, pickle.loads(pickle.dumps(vector)),
                                 lambda env: env.step(env.action_masks().argmax(axis=1))[:3])
    for make in (module(game).env, module(game).raw_env):
        aec = make(episode="match", **MATCH_OPTIONS.get(game, {}))
        aec.reset(seed=5)

        def aec_step(env):
            obs, reward, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else int(obs["action_mask"].argmax()))
            return obs["observation"], obs["action_mask"], np.array([reward])

        assert _same_after_steps(aec, pickle.loads(pickle.dumps(aec)), aec_step)
    parallel = module(game).parallel_env()
    observations, _ = parallel.reset(seed=5)
    copy = pickle.loads(pickle.dumps(parallel))
    actions = {a: int(o["action_mask"].argmax()) for a, o in observations.items() if o["action_mask"].any()}
    assert all(np.array_equal(x["observation"], y["observation"])
               for x, y in zip(parallel.step(actions)[0].values(), copy.step(actions)[0].values()))


@pytest.mark.parametrize("game", GAMES)
def test_human_render_mode_passes_pettingzoos_render_test(game, capsys):
    from pettingzoo.test import render_test

    render_test(module(game).env)
    assert module(game).env().metadata["render_fps"] > 0
    env = gymnasium.make(GYM_IDS[game], render_mode="human")
    check_env(env.unwrapped)  # the render check included
    env.reset(seed=0)
    assert env.render() is None
    assert f"{game}, as player_0 sees it" in capsys.readouterr().out


@pytest.mark.parametrize("game", GAMES)
def test_reward_at_last_move_credits_each_seat_on_its_own_move(game):
    """Each seat's reward arrives on the step of its own last move of the hand, never on
    another seat's; each seat still collects exactly its hand's score."""
    env = module(game).raw_env(reward_at="last_move")
    api_test(module(game).env(reward_at="last_move"), num_cycles=100)
    rng = np.random.default_rng(2)
    env.reset(seed=8)
    table = env.unwrapped.table
    own = 0
    for hand in range(200):
        if hand:
            env.reset()
        totals = dict.fromkeys(env.agents, 0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            paid = [a for a, r in env.rewards.items() if r]
            assert paid in ([], [agent])
            own += paid == [agent]
        assert list(totals.values()) == table.game.scores(table.array)
    assert own > 200


def test_reward_at_must_be_a_known_choice():
    with pytest.raises(ValueError, match="reward_at"):
        module("bluke").env(reward_at="trick_end")
