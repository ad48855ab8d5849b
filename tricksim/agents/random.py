"""The random agent: a uniform choice among the legal actions. Its kernels live with the actions
(``tricksim.sim.actions``), since every game's random loop plays them below the agents."""

from ..sim.actions import random_card, uniform_action

__all__ = ["random_card", "uniform_action"]
