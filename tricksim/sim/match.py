"""Hands strung into a match (DESIGN.md §3): the dealer passes left after every
hand, each hand is dealt from ``(seed, hand number)``, and the game decides
which hands count and when the match is over."""

from __future__ import annotations

from typing import Any

from .state import State


class Match:
    """A match in progress; ``apply`` acts on the current hand and deals the next.

    >>> import tricksim
    >>> m = tricksim.make_game("sheepshead", hands=5).new_match(seed=1)
    >>> while not m.is_over():
    ...     _ = m.apply(m.state.legal_actions()[0])
    >>> m.hands_played, sum(m.totals)
    (5, 0)
    """

    def __init__(self, game: Any, seed: int, dealer: int = 0, totals: list[int] | None = None):
        self.game = game
        self.seed = int(seed)
        self.dealer = int(dealer)
        players = game.players
        self.totals = list(totals) if totals is not None else [0] * players
        if len(self.totals) != players:
            raise ValueError(f"{game.name}: totals needs {players} numbers, got {len(self.totals)}")
        self.hand_number = 0  # deals so far, thrown-in hands included: the deal's stream
        self.hands_played = 0  # hands that count toward the match
        self.pending_doubles = 0
        self.finished: list[State] = []
        self.state = game.match_hand(self)

    def apply(self, action: int | str) -> "Match":
        """Apply ``action`` to the hand in progress; when it ends, score it and deal on."""
        if self.is_over():
            raise ValueError(f"{self.game.name}: the match is over")
        self.state.apply(action)
        if self.state.is_terminal():
            self._end_hand()
        return self

    def _end_hand(self) -> None:
        for seat, score in enumerate(self.state.scores()):
            self.totals[seat] += score
        self.game.match_after_hand(self, self.state)
        self.finished.append(self.state)
        self.hand_number += 1
        self.dealer = self.game.match_next_dealer(self, self.state)
        if not self.is_over():
            self.state = self.game.match_hand(self)

    def is_over(self) -> bool:
        return self.game.match_over(self)

    @property
    def winners(self) -> list[int]:
        """The winning seats once the match is over (ties share); [] before."""
        return self.game.match_winners(self) if self.is_over() else []
