"""Sheepshead (docs/rules.md, Sheepshead) as a PettingZoo AEC environment (see ``tricksim.envs.aec``)."""

from .aec import constructors

env, raw_env, parallel_env = constructors("sheepshead")
