"""Shmear (docs/rules.md, Shmear) as a PettingZoo AEC environment (see ``tricksim.envs.aec``)."""

from .aec import constructors

env, raw_env, parallel_env = constructors("shmear")
