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
from . import seat_agents, seat_arrays, uses_bots
from .bot_spec import BOT_KINDS
from .bot_table import BotTable
from .bot_view import View
from .family import compiled_choose
from .search import Searcher


class Seats:
    """Every seat's agent from ``agents`` (one for all, or a list or comma-separated string with
    one per seat), reproducible from ``seed``; seat ``person``, if any, is left to a person."""

    def __init__(self, game, agents, seed: int = 0, person: int | None = None):
        self.seated, self.specs = seat_agents(game.name, agents, game.players)
        self.kinds, self.params = seat_arrays(game.name, self.seated)  # a search seat's row goes unused
        self.bots = BotTable(game, self.seated, self.kinds, self.params, seed) if uses_bots(self.seated) else None
        self.searchers = {p: Searcher(game, str(a), seed=seat_seed(seed, p)) for p, a in enumerate(self.seated)
                          if p != person and a.name not in ("random", "heuristic") and a.name not in BOT_KINDS}
        self.hand_number = 0
        self.family = game.family
        self.choose = compiled_choose(self.family)
        self.rng = new_rng()

    def new_hand(self, seed: int, hand: int) -> None:
        """Random and heuristic seats draw from the stream of ``(seed, hand)`` from now on."""
        seed_stream(self.rng, seed, hand, 1)
        self.hand_number = hand

    def act(self, state, totals=None) -> int:
        """The action id of the agent of the seat to act at ``state`` (``totals``: the match's, shown to a bot)."""
        p = state.current_player
        if self.bots is not None and p in self.bots.bots:
            view = View(state.game, state.array, p, self.hand_number, len(state.history) + 1, totals)
            return self.bots.decide(p, view)[0]
        if p in self.searchers:
            return self.searchers[p].act(state)
        return int(self.choose(self.family, state.array, int(self.kinds[p]), self.params[p], self.rng))


def seat_seed(seed: int, seat: int) -> int:
    """An independent seed for ``seat``'s search agent."""
    return int(np.random.SeedSequence([seed % 2**63, seat]).generate_state(1, np.uint64)[0] >> np.uint64(1))
