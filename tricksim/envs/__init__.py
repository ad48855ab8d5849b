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

from ..spec import GameSpec, specs

GYM_IDS: dict[str, str] = {}  # game -> its Gymnasium id


def register_env(game: GameSpec) -> None:
    """Register ``game``'s single-seat environment and its vector form under its Gymnasium id."""
    GYM_IDS[game.name] = game.gym_id
    if game.gym_id not in gymnasium.registry:
        gymnasium.register(id=game.gym_id, entry_point="tricksim.envs.single:SeatEnv",
                           vector_entry_point="tricksim.envs.vector:SeatVectorEnv", kwargs={"game": game.name})


for _game in specs():
    register_env(_game)
