"""The reinforcement-learning examples of ``examples/rl/`` run, each a few hundred steps, where
their library is installed (the ``rl`` extra; the ``tianshou`` extra)."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "rl"


def example(name: str):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("mode", ["SameStep", "NextStep"])
def test_the_cleanrl_masked_ppo_example_runs(mode, capsys):
    pytest.importorskip("torch")
    result = example("cleanrl_masked_ppo").main(["--total-steps", "512", "--num-envs", "8", "--num-steps", "32",
                                                  "--eval-hands", "32", "--autoreset-mode", mode])
    assert all(math.isfinite(v) for v in result.values())
    assert "against random opponents over 32 hands" in capsys.readouterr().out


def test_the_tianshou_dqn_example_runs(capsys):
    pytest.importorskip("tianshou")
    result = example("tianshou_dqn").main(["--epochs", "1", "--epoch-steps", "300", "--test-hands", "10",
                                            "--train-envs", "2", "--test-envs", "2", "--buffer-size", "2000"])
    assert all(math.isfinite(v) for v in result.values())
    assert "mean score over 10 hands" in capsys.readouterr().out
