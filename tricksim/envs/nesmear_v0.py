"""Four Point Northeastern Wisconsin Smear (docs/rules.md, NE Smear) as a PettingZoo AEC environment
(see ``tricksim.envs.aec``)."""

from .aec import constructors

env, raw_env, parallel_env = constructors("nesmear")
