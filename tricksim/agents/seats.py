"""The agents of a table for Python callers, one decision at a time, as the batch loops play them.

Random and heuristic seats act through the environments' kernel (``agents.family.choose``) and
draw from the stream of ``(seed, hand)`` that ``new_hand`` sets, as ``simulate`` does, so they
replay its hands. A policy network draws nothing. A search agent (PIMC, ISMCTS) is an
``agents.search.Searcher`` with a stream of its own from ``seed`` and its seat: the batch loop's
shared stream is not repeated one decision at a time.

>>> import tricksim
>>> game = tricksim.make_game("shmear")
>>> seats = Seats(game, "heuristic")
>>> state = game.new_hand(seed=4, dealer=0)
>>> seats.new_hand(4, 0)
>>> state.apply(seats.act(state)).current_player
2
"""

from __future__ import annotations

import numpy as np

from ..sim.kernels import new_rng, seed_stream
from . import seat_agents, seat_arrays
from .family import compiled_choose
from .search import Searcher


class Seats:
    """Every seat's agent from ``agents`` (one for all, or a list or comma-separated string with
    one per seat), reproducible from ``seed``; seat ``person``, if any, is left to a person."""

    def __init__(self, game, agents, seed: int = 0, person: int | None = None):
        self.seated, self.specs = seat_agents(game.name, agents, game.players)
        self.kinds, self.params = seat_arrays(game.name, self.seated)  # a search seat's row goes unused
        self.searchers = {p: Searcher(game, str(a), seed=_seat_seed(seed, p)) for p, a in enumerate(self.seated)
                          if p != person and a.name not in ("random", "heuristic")}
        self.family = game.family
        self.choose = compiled_choose(self.family)
        self.rng = new_rng()

    def new_hand(self, seed: int, hand: int) -> None:
        """Random and heuristic seats draw from the stream of ``(seed, hand)`` from now on."""
        seed_stream(self.rng, seed, hand, 1)

    def act(self, state) -> int:
        """The action id of the agent of the seat to act at ``state``."""
        p = state.current_player
        if p in self.searchers:
            return self.searchers[p].act(state)
        return int(self.choose(self.family, state.array, int(self.kinds[p]), self.params[p], self.rng))


def _seat_seed(seed: int, seat: int) -> int:
    """An independent seed for ``seat``'s search agent."""
    return int(np.random.SeedSequence([seed % 2**63, seat]).generate_state(1, np.uint64)[0] >> np.uint64(1))
