"""The policy-network agent (``net:file=...``, tricksim.agents.net): the numba forward pass plays
what the network says in every game and every batch path, and bad files are clear errors."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import tricksim
from tricksim.agents import Agent
from tricksim.agents.net import logits, net_inputs, read_policy, write_policy
from tricksim.agents.search import Searcher
from tricksim.cli import main
from tricksim.envs.aec import constructors
from tricksim.errors import OptionError
from tricksim.sim.actions import NUM_ACTIONS, PASS, PICK
from tricksim.sim.state import State


def random_policy(path, game, hidden=(16, 8), seed=0):
    rng = np.random.default_rng(seed)
    sizes = [net_inputs(game), *hidden, NUM_ACTIONS]
    weights = [rng.normal(size=(a, b)) / np.sqrt(a) for a, b in zip(sizes, sizes[1:])]
    biases = [rng.normal(size=b) * 0.1 for b in sizes[1:]]
    write_policy(path, game, weights, biases)
    return weights, biases


def prefer(path, game, action):
    """A network whose logits rank ``action`` first whatever it sees, then the ids in order."""
    bias = -np.arange(NUM_ACTIONS, dtype=np.float64)
    bias[action] = 1.0
    write_policy(path, game, [np.zeros((net_inputs(game), NUM_ACTIONS))], [bias])


@pytest.mark.parametrize("name", tricksim.games())
def test_the_kernel_plays_the_numpy_networks_choice(name, tmp_path):
    """On every decision of played-out hands, the agent's action is the legal action with the
    highest logit of the network computed in numpy from the environment's observation."""
    game = tricksim.make_game(name)
    path = tmp_path / "policy.npz"
    network = random_policy(path, game, seed=len(name))
    bot = Searcher(game, f"net:file={path}")
    env = constructors(name)[1]()
    decisions = 0
    for episode in range(6):
        env.reset(seed=3) if episode == 0 else env.reset()
        while not env.table.is_over():
            view = env.observe(env.agent_selection)
            mask = view["action_mask"].astype(bool)
            z = logits(*network, view["observation"])
            expected = int(np.flatnonzero(mask)[np.argmax(z[mask])])
            assert bot.act(State(game, env.table.array)) == expected
            env.step(expected)
            decisions += 1
    assert decisions > 30


def test_a_network_that_always_passes_makes_every_hand_a_leaster(tmp_path):
    game = tricksim.make_game("sheepshead")
    prefer(tmp_path / "pass.npz", game, PASS)
    prefer(tmp_path / "pick.npz", game, PICK)
    passing = tricksim.simulate("sheepshead", hands=300, agents=f"net:file={tmp_path / 'pass.npz'}", progress=False)
    assert passing["picker"].isna().all()
    picking = tricksim.simulate("sheepshead", hands=300, agents=f"net:file={tmp_path / 'pick.npz'}", progress=False)
    assert ((picking["picker"] - picking["dealer"] - 1) % 5 == 0).all()  # eldest picks every hand


def test_a_network_plays_in_compare_and_a_study(tmp_path):
    game = tricksim.make_game("sheepshead")
    prefer(tmp_path / "pass.npz", game, PASS)
    spec = f"net:file={tmp_path / 'pass.npz'}"
    result = tricksim.compare("sheepshead", spec, "random", hands=200)
    assert result["hands"] == 200 and np.isfinite(result["difference"][0])
    from tricksim.experiments.study import study

    rows = study(game, 200, agents=spec)["rows"]
    assert set(rows["action"].astype(str)) == {"pass", "pick"}
    assert len(rows) > 200


def test_same_seed_same_rows_whatever_the_threads(tmp_path):
    game = tricksim.make_game("bluke")
    random_policy(tmp_path / "p.npz", game)
    spec = f"net:file={tmp_path / 'p.npz'},heuristic,random,heuristic"
    one = tricksim.simulate("bluke", hands=64, seed=4, agents=spec, progress=False)
    two = tricksim.simulate("bluke", hands=64, seed=4, agents=spec, workers=2, progress=False)
    assert one.equals(two)


def test_the_spec_names_the_file():
    agent = Agent.parse("net:file=runs/bluke/policy.npz")
    assert agent.params == {"file": "runs/bluke/policy.npz"}
    assert str(agent) == "net:file=runs/bluke/policy.npz"
    for bad in ("net", "net:worlds=3", "net:file="):
        with pytest.raises(OptionError, match="net:file=PATH"):
            Agent.parse(bad)


def test_bad_policy_files_are_clear_errors(tmp_path):
    game = tricksim.make_game("bluke")
    with pytest.raises(OptionError, match="cannot read"):
        read_policy(tmp_path / "missing.npz", game)
    (tmp_path / "junk.npz").write_bytes(b"not a zip file")
    with pytest.raises(OptionError, match="not a tricksim policy file"):
        read_policy(tmp_path / "junk.npz", game)
    random_policy(tmp_path / "bluke.npz", game)
    with pytest.raises(OptionError, match="trained for bluke"):
        read_policy(tmp_path / "bluke.npz", tricksim.make_game("nesmear"))
    with pytest.raises(OptionError, match="trained for bluke"):
        read_policy(tmp_path / "bluke.npz", tricksim.make_game("bluke", players=5))
    with pytest.raises(OptionError, match="do not map"):
        write_policy(tmp_path / "short.npz", game, [np.zeros((net_inputs(game), 10))], [np.zeros(10)])
    weights, biases = random_policy(tmp_path / "nan.npz", game)
    weights[0][0, 0] = np.nan
    np.savez(tmp_path / "nan.npz", meta=np.load(tmp_path / "bluke.npz")["meta"],
             **{f"weight_{k}": w for k, w in enumerate(weights)}, **{f"bias_{k}": b for k, b in enumerate(biases)})
    with pytest.raises(OptionError, match="not all finite"):
        read_policy(tmp_path / "nan.npz", game)


def test_the_command_names_a_missing_policy(tmp_path, capsys):
    assert main(["compare", "bluke", "--a", f"net:file={tmp_path / 'none.npz'}", "--hands", "10"]) == 2
    assert "none.npz: cannot read it" in capsys.readouterr().err


def test_a_simulated_hand_with_a_network_is_recorded_as_simulate_played_it(tmp_path):
    from tricksim.records import simulated_record

    game = tricksim.make_game("bluke")
    random_policy(tmp_path / "p.npz", game)
    agents = f"net:file={tmp_path / 'p.npz'},random,heuristic,random"
    df = tricksim.simulate("bluke", hands=12, seed=8, agents=agents, progress=False)
    for i in (0, 5, 11):
        record = simulated_record("bluke", 8, i, agents)
        assert record.scores == df.filter(like="score_").iloc[i].tolist()
        assert record.result["bids"] == [int(df.iloc[i][f"bid_{p}"]) for p in range(4)]


def test_a_person_plays_against_a_network(tmp_path):
    from tricksim.play import play

    game = tricksim.make_game("nesmear")
    prefer(tmp_path / "pass.npz", game, PASS)  # the bots pass whenever they may
    answers = iter(["1"] * 60 + ["n"])
    shown = []
    outcome = play(game, seat=0, opponents=f"net:file={tmp_path / 'pass.npz'}", seed=2,
                   ask=lambda prompt: next(answers), say=shown.append)
    record = outcome.records[0]
    assert not outcome.stopped and outcome.scores == record.scores
    state, passes = game.deal(**record.deal), 0
    for label in record.actions:  # every bot passed wherever it could
        if state.current_player != 0 and "pass" in state.legal_labels():
            assert label == "pass"
            passes += 1
        state.apply(label)
    assert passes >= 2


def test_training_without_the_rl_extra_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "sb3_contrib", None)  # as if not installed
    assert main(["train", "bluke", "--steps", "100"]) == 2
    assert "pip install 'tricksim[rl]'" in capsys.readouterr().err
