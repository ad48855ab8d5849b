"""Bluke (docs/rules.md, Bluke) as a PettingZoo AEC environment (see ``tricksim.envs.aec``)."""

from .aec import constructors

env, raw_env, parallel_env = constructors("bluke")
