"""The games as reinforcement-learning environments.

* PettingZoo AEC environments, one module a game, each with ``env``, ``raw_env`` and
  ``parallel_env``: ``sheepshead_v0``, ``fiftyfive_v0``, ``shmear_v0``, ``bluke_v0``,
  ``nesmear_v0`` (``aec.py``).
* Single-seat Gymnasium environments, registered as ``tricksim/Sheepshead-v0``,
  ``tricksim/FiftyFive-v0``, ``tricksim/Shmear-v0``, ``tricksim/Bluke-v0`` and
  ``tricksim/NESmear-v0`` (``single.py``), with a vector environment stepped in numba behind
  ``gymnasium.make_vec`` (``vector.py``).

Importing ``tricksim`` registers the Gymnasium ids.
"""

from __future__ import annotations

import gymnasium

GYM_IDS = {
    "sheepshead": "tricksim/Sheepshead-v0",
    "fiftyfive": "tricksim/FiftyFive-v0",
    "shmear": "tricksim/Shmear-v0",
    "bluke": "tricksim/Bluke-v0",
    "nesmear": "tricksim/NESmear-v0",
}

for _game, _id in GYM_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point="tricksim.envs.single:SeatEnv",
                           vector_entry_point="tricksim.envs.vector:SeatVectorEnv", kwargs={"game": _game})
