"""Training with sb3-contrib (the ``rl`` extra): tiny runs of both training loops, the exported
policy playing as the trained model does, resuming, and the self-play environment's conformance.
Skipped where the extra is not installed."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("sb3_contrib")

import tricksim  # noqa: E402
from tricksim.agents.search import Searcher  # noqa: E402
from tricksim.cli import main  # noqa: E402
from tricksim.envs.single import SeatEnv  # noqa: E402
from tricksim.errors import OptionError  # noqa: E402
from tricksim.rl.selfplay import SelfPlayEnv  # noqa: E402
from tricksim.rl.train import format_train, network, train, write_train  # noqa: E402
from tricksim.sim.state import State  # noqa: E402

TINY = dict(eval_every=256, eval_hands=50, hands=100, envs=2, n_steps=128, batch_size=64, n_epochs=2)


def test_a_single_seat_run_learns_writes_its_files_and_plays_as_trained(tmp_path):
    game = tricksim.make_game("bluke")
    result = train(game, 512, out=tmp_path, seed=1, **TINY)
    assert result["steps"] == 512
    assert list(result["curve"]["steps"]) == [0, 256, 512]
    assert {p.name for p in tmp_path.iterdir()} >= {"policy.npz", "model.zip", "curve.csv", "train.json"}
    evaluation = result["evaluation"].set_index("opponent")
    assert evaluation.loc["random", "low"] <= evaluation.loc["random", "difference"] <= evaluation.loc["random", "high"]
    # the exported network plays the trained model's deterministic choice at every decision
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(tmp_path / "model.zip", device="cpu")
    bot = Searcher(game, f"net:file={result['policy']}")
    env = SeatEnv("bluke", seat=0, opponents="heuristic")
    decisions = 0
    for episode in range(5):
        obs, info = env.reset(seed=9 if episode == 0 else None)
        done = False
        while not done:
            expected, _ = model.predict(obs, action_masks=info["action_mask"].astype(bool), deterministic=True)
            assert bot.act(State(game, env.table.array)) == int(expected)
            obs, _, done, _, info = env.step(int(expected))
            decisions += 1
    assert decisions >= 5


def test_a_self_play_run_through_pettingzoo(tmp_path):
    result = train(tricksim.make_game("fiftyfive"), 512, mode="selfplay", refresh=128, out=tmp_path, **TINY)
    assert result["settings"].mode == "selfplay" and len(result["curve"]) == 3
    df = tricksim.simulate("fiftyfive", hands=100, agents=f"net:file={result['policy']}", progress=False)
    assert len(df) == 100


def test_a_league_draws_the_heuristic_and_past_snapshots_and_counts_their_hands(tmp_path):
    result = train(tricksim.make_game("bluke"), 768, mode="selfplay", league=2, refresh=128, out=tmp_path, **TINY)
    league = result["league"]
    # a snapshot joins at each refresh (every rollout of 256 steps), the oldest leaving beyond two
    assert league["opponent"].tolist() == ["heuristic", "learner at 256 steps", "learner at 512 steps"]
    assert league["hands"].sum() > 0 and league["learner_won"].dropna().between(0, 1).all()
    assert "a league of 2" in format_train(result)
    assert tmp_path / "league.csv" in write_train(result, tmp_path)


def test_a_heuristic_opponent_plays_as_the_heuristic_does():
    env = SelfPlayEnv("bluke", seat=0)
    totals = {}
    for opponent in ("heuristic", "uniform"):
        if opponent == "heuristic":
            env.set_opponent("heuristic")
        else:
            env.set_opponent(*network(_untrained("bluke")))
        others = []
        for hand in range(60):
            obs, info = env.reset(seed=100 + hand)
            done = False
            while not done:
                obs, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
            assert isinstance(info["won"], bool)
            others.append(np.mean([r for a, r in env.aec.rewards.items() if a != "player_0"]))
        totals[opponent] = np.mean(others)
    assert totals["heuristic"] > totals["uniform"] + 20  # tens of points a hand above an untrained network
    with pytest.raises(ValueError, match="heuristic"):
        env.set_opponent("pimc")


def test_same_seed_same_network(tmp_path):
    game = tricksim.make_game("nesmear")
    runs = [train(game, 256, out=tmp_path / str(k), seed=5, **TINY) for k in range(2)]
    with np.load(runs[0]["policy"]) as a, np.load(runs[1]["policy"]) as b:
        assert all(np.array_equal(a[name], b[name]) for name in a.files)


def test_a_stopped_run_resumes_from_its_checkpoint(tmp_path):
    game = tricksim.make_game("bluke")
    first = train(game, 256, out=tmp_path, **TINY)
    assert first["steps"] == 256
    more = train(game, 512, out=tmp_path, **TINY)  # the same settings, more steps: picks up at 256
    assert more["steps"] == 512 and list(more["curve"]["steps"]) == [0, 256, 512]
    assert pd.read_csv(tmp_path / "curve.csv")["steps"].tolist() == [0, 256, 512]
    again = train(game, 512, out=tmp_path, **TINY)  # finished: nothing more to learn
    assert again["steps"] == 512 and len(again["curve"]) == 3
    with pytest.raises(OptionError, match="another training run"):
        train(game, 512, out=tmp_path, **dict(TINY, eval_hands=60))


def test_fast_settings_keep_the_policy_layers_and_give_the_value_network_its_own(tmp_path):
    from sb3_contrib import MaskablePPO
    from torch.nn import Linear

    from tricksim.agents.net import read_policy

    game = tricksim.make_game("bluke")
    result = train(game, 512, out=tmp_path, fast=True, layers=(32, 32), **dict(TINY, envs=4, batch_size=256))
    settings = result["settings"]
    assert settings.value_layers == (64, 64) and settings.envs == 4  # the caller's tables win
    assert settings.ppo["n_epochs"] == 2 and settings.ppo["learning_rate"] == 1e-4  # FAST where not given
    extractor = MaskablePPO.load(tmp_path / "model.zip", device="cpu").policy.mlp_extractor
    assert [m.out_features for m in extractor.value_net if isinstance(m, Linear)] == [64, 64]
    assert [m.out_features for m in extractor.policy_net if isinstance(m, Linear)] == [32, 32]
    weights, _ = read_policy(result["policy"], game)
    assert [w.shape[1] for w in weights[:-1]] == [32, 32]
    assert json.loads((tmp_path / "train.json").read_text())["value_layers"] == [64, 64]


def test_bad_arguments_fail_before_training(tmp_path):
    game = tricksim.make_game("bluke")
    for kwargs, message in ((dict(mode="league"), "mode"), (dict(opponents="pimc"), "random or heuristic"),
                            (dict(envs=0), "envs"), (dict(layers=()), "layers"), (dict(critic="oracle"), "critic"),
                            (dict(critic="full", mode="selfplay"), "one seat"), (dict(league=3), "self-play"),
                            (dict(league=-1, mode="selfplay"), "league"),
                            (dict(value_layers=(64, 0)), "value_layers")):
        with pytest.raises((OptionError, ValueError), match=message):
            train(game, 100, out=tmp_path / "x", **kwargs)
        assert not (tmp_path / "x").exists()
    with pytest.raises(OptionError, match="steps"):
        train(game, 0)
    with pytest.raises(TypeError, match="learning_rat"):  # a misspelt PPO argument keeps no settings
        train(game, 100, out=tmp_path / "y", learning_rat=0.1)
    assert not (tmp_path / "y" / "train.json").exists()


@pytest.mark.parametrize("name", ["sheepshead", "shmear"])
def test_the_tables_append_every_hand_for_the_full_deal_critic(name):
    from tricksim.rl.critic import CARD_BITS
    from tricksim.rl.tables import TablesVecEnv

    plain, full = (TablesVecEnv(name, 3, seat=1, seed=4, full_deal=deal) for deal in (False, True))
    game = full.tables.game
    assert full.observation_space.shape[0] == plain.observation_space.shape[0] + game.players * CARD_BITS
    for step in range(6):
        seen, obs = (plain.reset(), full.reset()) if step == 0 else (plain.step(a)[0], full.step(a)[0])
        assert np.array_equal(obs[:, :full.seen], seen) and full.observation_space.contains(obs[0])
        for t, state in enumerate(full.tables._states):
            for k in range(game.players):  # the learner's hand first, then the seats after it
                bits = obs[t, full.seen + k * CARD_BITS:full.seen + (k + 1) * CARD_BITS]
                cards = int(state[game.kernels.HANDS + (1 + k) % game.players])
                assert [b for b in range(CARD_BITS) if bits[b]] == [b for b in range(CARD_BITS) if cards >> b & 1]
        a = np.array([np.flatnonzero(m)[0] for m in full.action_masks()])


def test_the_full_deal_critic_values_the_deal_and_the_policy_reads_the_seat(tmp_path):
    import torch

    from tricksim.agents.net import net_inputs, read_policy

    game = tricksim.make_game("bluke")
    result = train(game, 512, critic="full", out=tmp_path, seed=2, **TINY)
    assert result["settings"].critic == "full" and result["steps"] == 512
    weights, _ = read_policy(result["policy"], game)  # a net: agent like any other
    assert weights[0].shape[0] == net_inputs(game)
    from sb3_contrib import MaskablePPO

    policy = MaskablePPO.load(tmp_path / "model.zip", device="cpu").policy
    seen = net_inputs(game)
    obs = torch.zeros((2, policy.observation_space.shape[0]))
    obs[1, seen:seen + 10] = 1  # other hands, the same seat's view
    with torch.no_grad():
        logits = [policy.action_net(policy.mlp_extractor.forward_actor(obs)[i:i + 1]) for i in range(2)]
        values = policy.predict_values(obs)
    assert torch.equal(logits[0], logits[1]) and values[0] != values[1]
    assert len(tricksim.simulate("bluke", hands=20, agents=f"net:file={result['policy']}", progress=False)) == 20


def test_the_self_play_environment_passes_gymnasiums_checker():
    from gymnasium.utils.env_checker import check_env

    env = SelfPlayEnv("shmear", seat=2)
    weights, biases = network(_untrained("shmear"))
    env.set_opponent(weights, biases)
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=1)
    total, done = 0.0, False
    while not done:
        obs, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        total += reward
    table = env.aec.unwrapped.table  # the hand is over: the learner's reward is its team's score
    assert total == env.aec.rewards["player_2"]
    assert table.is_over()


def test_the_train_command(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["train", "nesmear", "--steps", "256", "--eval-every", "256", "--eval-hands", "50", "--hands", "50",
                 "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "against heuristic" in text and f"net:file={out / 'policy.npz'}" in text
    assert {"curve.png", "evaluation.csv", "train.md"} <= {p.name for p in out.iterdir()}
    assert json.loads((out / "train.json").read_text())["game"] == "nesmear"


def _untrained(name: str):
    from sb3_contrib import MaskablePPO

    return MaskablePPO("MlpPolicy", SelfPlayEnv(name), device="cpu", seed=0)


def test_the_lean_policy_values_and_draws_as_sb3_contribs_does():
    import torch
    from sb3_contrib import MaskablePPO

    from tricksim.rl.lean import LeanPolicy
    from tricksim.rl.tables import TablesVecEnv

    torch.manual_seed(3)
    env = TablesVecEnv("bluke", 8)
    lean = MaskablePPO(LeanPolicy, env, n_steps=16, batch_size=64, seed=3, device="cpu").policy
    plain = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=64, seed=4, device="cpu").policy
    plain.load_state_dict(lean.state_dict())  # the same networks under the same names
    obs = torch.as_tensor(env.reset(), dtype=torch.float32)
    masks = env.action_masks()
    actions = torch.as_tensor([np.flatnonzero(m)[-1] for m in masks])
    for mine, theirs in zip(lean.evaluate_actions(obs, actions, masks), plain.evaluate_actions(obs, actions, masks)):
        assert torch.allclose(mine.flatten(), theirs.flatten(), atol=1e-5)
    # draws: only legal actions, as often as their probabilities say (one table, 20,000 draws)
    row = np.repeat(obs[:1].numpy(), 20_000, axis=0)
    mask = np.repeat(masks[:1], 20_000, axis=0)
    with torch.no_grad():
        drawn, _, log_prob = lean(torch.as_tensor(row), action_masks=mask)
        p = plain.get_distribution(obs[:1], action_masks=masks[:1]).distribution.probs[0].numpy()
    counts = np.bincount(drawn.numpy(), minlength=len(p)) / len(drawn)
    assert set(np.flatnonzero(counts)) <= set(np.flatnonzero(masks[0]))
    assert np.abs(counts - p).max() < 0.015 and np.allclose(log_prob.exp().numpy(), p[drawn.numpy()], atol=1e-5)
