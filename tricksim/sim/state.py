"""The Python view of one hand: the public contract that tests and users depend on.

A State wraps the game's int64 state array and calls the same numba ``legal``
and ``step`` as the batch simulator. ``apply`` is the checked boundary: it
parses and checks an action before anything changes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..cards import cards_of
from ..errors import IllegalActionError, LabelError
from . import actions as A
from .view import seat_view


class State:
    """One hand in progress.

    >>> import tricksim
    >>> game = tricksim.make_game("sheepshead")
    >>> state = game.deal(hands=["QC QS QH QD JC JS", "JH JD AD TD KD 9D", "8D 7D AC TC KC 9C",
    ...                          "8C 7C AS TS KS 9S", "8S 7S AH TH KH 9H"], rest="8H 7H", dealer=0)
    >>> state.current_player, state.legal_labels()
    (1, ['pass', 'pick'])
    >>> state.apply("pick").legal_labels()[:3]
    ['bury 9D', 'bury TD', 'bury JD']
    >>> for label in ("bury 9D", "bury KD", "alone", "play JH", "play 8D"):
    ...     _ = state.apply(label)
    >>> state                    # the table as seat 3, to act, sees it
    <State sheepshead, play phase, seat 3 to act
     hand: 8C 7C  AS TS KS 9S
     picker: seat 1, alone
     trick 1: seat 1 JH, seat 2 8D>
    """

    def __init__(self, game: Any, array: np.ndarray, history: list[int] | None = None):
        self.game = game
        self.array = array
        self.history: list[int] = history if history is not None else []

    @property
    def _k(self):
        return self.game.kernels

    @property
    def current_player(self) -> int | None:
        """The seat to act, None once the hand is over."""
        seat = int(self.array[self._k.TO_ACT])
        return None if seat < 0 else seat

    @property
    def phase(self) -> str:
        return self._k.PHASE_NAMES[int(self.array[self._k.PHASE])]

    def is_terminal(self) -> bool:
        return self.current_player is None

    def legal_actions(self) -> list[int]:
        """The legal action ids, in increasing order; empty once the hand is over."""
        words, cards, kind = self._k.legal(self.array)
        out = cards_of(int(words))
        out += [A.CARD_BASE + 54 * int(kind) + c for c in cards_of(int(cards))]
        return out

    def legal_labels(self) -> list[str]:
        """The legal actions as labels, in the order of ``legal_actions``."""
        return [A.action_label(a) for a in self.legal_actions()]

    @staticmethod
    def action_label(action: int) -> str:
        return A.action_label(action)

    def apply(self, action: int | str) -> "State":
        """Play ``action`` (a label or an id) for the seat to act and return self.

        Raises LabelError for a label that does not parse, and IllegalActionError
        (a ValueError) for an action not legal now; the state is then unchanged.
        """
        if isinstance(action, str):
            a = A.parse_action(action)
        elif isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            a = int(action)
        else:
            raise LabelError(f"{action!r} is not an action: give a label such as 'play 7C' or an action id")
        legal = self.legal_actions()
        if a not in legal:
            shown = action if isinstance(action, str) else _label_or_id(a)
            seat = self.current_player
            who = "the hand is over" if seat is None else f"seat {seat} to act in the {self.phase} phase"
            raise IllegalActionError(
                f"{shown!r} is not legal: {who}; legal: {', '.join(self.legal_labels()) or 'nothing'}"
            )
        self._k.step(self.array, a)
        self.history.append(a)
        return self

    def scores(self) -> list[int]:
        """This hand's score per seat (0 while the hand is in progress)."""
        return self.game.scores(self.array)

    def tricks(self) -> list[tuple[int, list[str], int]]:
        """The finished tricks in order: ``(leader, [card labels in play order], winner)``."""
        return self.game.tricks(self.array)

    def result(self) -> dict:
        """The hand's outcome as one flat record (the row ``simulate`` writes)."""
        return self.game.result(self.array)

    def hand(self, seat: int):
        """The cards ``seat`` holds now, as a CardSet."""
        return self.game.hand(self.array, seat)

    def observe(self, seat: int) -> dict:
        """What ``seat`` may know now (its hand, the public play, and only what it saw): its
        observation vector read back as plain values (``view.seat_view``)."""
        return seat_view(self.game, self.array, seat)

    def clone(self) -> "State":
        return State(self.game, self.array.copy(), list(self.history))

    def __repr__(self) -> str:
        """The table as the seat to act sees it (``display.format_table``); no hidden card shows."""
        from ..display import format_table, seat_names  # the display sits above the rules

        seat = self.current_player
        view = self.observe(0 if seat is None else seat)  # once over, a view with no hand shown
        lines = format_table(self.game, view, seat_names(self.game.players),
                             self.scores() if seat is None else None)
        return "<State " + "\n ".join(lines) + ">"


def _label_or_id(a: int) -> str:
    try:
        return A.action_label(a)
    except ValueError:
        return str(a)
