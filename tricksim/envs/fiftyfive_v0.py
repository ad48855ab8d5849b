"""Fifty-five (RULES.md §2) as a PettingZoo AEC environment (see ``tricksim.envs.aec``)."""

from .aec import constructors

env, raw_env, parallel_env = constructors("fiftyfive")
