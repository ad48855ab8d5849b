"""What a bot is shown at a decision: the seat's information and nothing more.

A ``View`` is made from the one definition of what a seat may see (``sim.view.seat_view``, the
observation vector read back), so a bot never learns more than a learned agent does. Its cheap
parts (``hand``, ``legal``, ``legal_ids``) are read when asked; the rest once, on the first use.

>>> import tricksim
>>> game = tricksim.make_game("sheepshead")
>>> state = game.new_hand(seed=7, dealer=0)
>>> view = View(game, state.array, 1, hand_number=0, decision=1)
>>> view.legal, view.phase, view.picker
(['pass', 'pick'], 'picking', None)
>>> sorted(view.to_dict())[:6]
['buried', 'called', 'current_trick', 'dealer', 'decision', 'doubled']
"""

from __future__ import annotations

import numpy as np

from ..cards import LABELS, cards_of
from ..sim import actions as A
from ..sim.view import seat_observation, read_view

PROTOCOL = 1  # the version of the messages of docs/bots.md


class View:
    """Seat ``seat``'s view of hand ``s`` of ``game`` at its decision ``decision`` (numbered from 1
    over the hand's decisions, as replay shows them) of the run's hand ``hand_number``; ``totals``
    the match totals, where the hand is part of a match."""

    def __init__(self, game, s: np.ndarray, seat: int, hand_number: int = 0, decision: int = 0, totals=None):
        self._game, self._s = game, s
        self.seat, self.hand_number, self.decision, self.totals = seat, hand_number, decision, totals
        self._legal = self._info = self._vector = None

    @property
    def game(self) -> str:
        return self._game.name

    @property
    def options(self) -> dict:
        """The game's options, as ``make_game`` took them (with their defaults)."""
        return dict(self._game.options)

    @property
    def players(self) -> int:
        return self._game.players

    @property
    def dealer(self) -> int:
        return int(self._s[self._game.kernels.DEALER])

    @property
    def hand(self) -> list[str]:
        """The seat's cards, as labels, lowest index first."""
        return [LABELS[c] for c in cards_of(int(self._s[self._game.kernels.HANDS + self.seat]))]

    @property
    def legal_ids(self) -> list[int]:
        """The legal actions' ids, in increasing order."""
        if self._legal is None:
            words, cards, kind = self._game.kernels.legal(self._s)
            self._legal = cards_of(int(words)) + [A.CARD_BASE + 54 * int(kind) + c for c in cards_of(int(cards))]
        return self._legal

    @property
    def legal(self) -> list[str]:
        """The legal actions as labels, in the order of ``legal_ids``."""
        return [A.action_label(a) for a in self.legal_ids]

    @property
    def observation(self) -> np.ndarray:
        """The seat's encoded observation vector (int8), as the learned agents and the environments see it."""
        if self._vector is None:
            self._vector = seat_observation(self._game, self._s, self.seat)
        return self._vector

    @property
    def info(self) -> dict:
        """The seat's view as plain values (``State.observe``): the phase, the dealer, the tricks so far
        (leader, cards, winner), the trick in progress, the bidding, what it saw of the blind, bury,
        kitty, widow or turned card, the called card, the partner once known, the points taken."""
        if self._info is None:
            self._info = read_view(self._game, self.observation, self.seat)
        return self._info

    def __getattr__(self, key: str):
        if key.startswith("_"):
            raise AttributeError(key)
        info = self.info
        if key in info:
            return info[key]
        raise AttributeError(f"a {self.game} view has no {key!r}; it has {', '.join(sorted(self.to_dict()))}")

    def to_dict(self) -> dict:
        """The whole view as JSON values: what an ``exec:`` bot is sent with each decision."""
        return {"game": self.game, "players": self.players, "options": self.options,
                "hand_number": self.hand_number, "decision": self.decision, **self.info, "hand": self.hand,
                "legal": self.legal, "legal_ids": self.legal_ids, "totals": self.totals}

    def __repr__(self) -> str:
        return f"<View {self.game} seat {self.seat}, hand {self.hand_number} decision {self.decision}: {self.legal}>"
