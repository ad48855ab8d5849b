"""Training policies on tricksim's environments with a reinforcement-learning library.

Needs the ``rl`` extra (``pip install 'tricksim[rl]'``: sb3-contrib, Stable-Baselines3, PyTorch
on the CPU). ``train`` runs sb3-contrib's MaskablePPO two ways:

* ``mode="single"``: one seat of the Gymnasium environment (``tricksim/Bluke-v0`` …) against
  fixed opponents (heuristic by default);
* ``mode="selfplay"``: one seat of the PettingZoo environment, the other seats a frozen copy of
  the learner refreshed as it trains (``selfplay.SelfPlayEnv``);

either may start from a policy file (``init``). ``imitate`` learns a network from a teacher's
decisions (``teacher.py``: the heuristic's, a search agent's, kept as Parquet), the start for PPO.

The trained policy is written as ``policy.npz``, the agent ``net:file=policy.npz`` of
``compare``, ``simulate``, ``study`` and ``tournament`` (``tricksim.agents.net``, which needs no
extra). See ``train.py``.
"""

from __future__ import annotations

from ..errors import OptionError


def require() -> None:
    """OptionError unless the ``rl`` extra is installed."""
    try:
        import sb3_contrib  # noqa: F401
        import torch  # noqa: F401
    except ImportError as error:
        raise OptionError(f"training needs the rl extra ({error.name} is missing): "
                          "pip install 'tricksim[rl]'") from None
