"""Hands strung into a match: the dealer passes left after every
hand, each hand is dealt from ``(seed, hand number)``, and the game decides
which hands count and when the match is over.

Every match also ends after the game's ``max_hands`` deals (thrown-in deals
included), so that one between weak agents cannot go on for ever: a match cut
off there is ``truncated``, and its seats with the best total win, ties
sharing (for team games, every seat of the best teams)."""

from __future__ import annotations

from typing import Any

from .game import Game
from .state import State


class Match:
    """A match in progress; ``apply`` acts on the current hand and deals the next.

    >>> import tricksim
    >>> m = tricksim.make_game("sheepshead", hands=5).new_match(seed=1)
    >>> while not m.is_over():
    ...     _ = m.apply(m.state.legal_actions()[0])
    >>> m.hands_played, sum(m.totals), m.truncated
    (5, 0, False)
    """

    def __init__(self, game: Any, seed: int, dealer: int = 0, totals: list[int] | None = None):
        self.game = game
        self.seed = int(seed)
        self.dealer = int(dealer)
        players = game.players
        self.totals = list(totals) if totals is not None else [0] * players
        if len(self.totals) != players:
            raise ValueError(f"{game.name}: totals needs {players} numbers, got {len(self.totals)}")
        self.max_hands = game.options["max_hands"]
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
        """Whether the match has ended: by the game's end rule, or at ``max_hands`` deals."""
        return self.game.match_over(self) or self.hand_number >= self.max_hands

    @property
    def truncated(self) -> bool:
        """Whether the match stopped at ``max_hands`` deals before the game's end rule ended it."""
        return self.hand_number >= self.max_hands and not self.game.match_over(self)

    @property
    def winners(self) -> list[int]:
        """The winning seats once the match is over (ties share); [] before. A truncated match
        is won by the seats with the best total."""
        if self.truncated:
            return Game.match_winners(self.game, self)
        return self.game.match_winners(self) if self.is_over() else []
