"""A seat's view: what it may know of a hand, as plain values (ints, strings, lists, None), read
back from its observation vector (``observation.py``), so the vector and the view are one
definition. ``State.observe``, the hand records, the table in the terminal and the environments'
text all show this view.

Every block with a reader becomes one key, seats absolute and cards as labels; the table blocks
give ``tricks`` (each finished trick's leader, cards in play order and winner) and
``current_trick``. The match totals are the environment's and stay out.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

import numpy as np

from ..cards import LABELS
from ..spec import family_part
from .observation import Reading, observation_layout, per_seat

FIRST = ("seat", "dealer", "phase", "to_act", "hand")  # the keys a view starts with, then the tricks


def seat_view(game, s: np.ndarray, seat: int) -> dict:
    """What ``seat`` may know of the hand ``s`` of ``game``: its observation vector, read back.

    >>> import tricksim
    >>> game = tricksim.make_game("sheepshead")
    >>> state = game.deal(hands=["QC QS QH QD JC JS", "JH JD AD TD KD 9D", "8D 7D AC TC KC 9C",
    ...                          "8C 7C AS TS KS 9S", "8S 7S AH TH KH 9H"], rest="8H 7H", dealer=0)
    >>> for label in ("pick", "bury 9D", "bury KD", "call AH", "play JH", "play 8D"):
    ...     _ = state.apply(label)
    >>> view = seat_view(game, state.array, 3)
    >>> view["hand"], view["picker"], view["called"], view["partner"], view["buried"]
    (['7C', '8C', '9S', 'TS', 'KS', 'AS'], 1, 'AH', None, None)
    >>> view["current_trick"], seat_view(game, state.array, 1)["buried"]  # the bury: the picker's
    (['JH', '8D'], ['9D', 'KD'])
    """
    return read_view(game, seat_observation(game, s, seat), seat)


def seat_observation(game, s: np.ndarray, seat: int) -> np.ndarray:
    """``seat``'s observation vector (int8) of the hand ``s`` of ``game``."""
    plan = _plan(game)
    out = np.zeros(plan.layout.size, dtype=np.int8)
    plan.observe(s, seat, out)
    return out


def read_view(game, vector: np.ndarray, seat: int) -> dict:
    """The view of ``seat`` whose observation vector (``obs_<game>.observe``) is ``vector``."""
    plan = _plan(game)
    reading = Reading(seat, game.players, plan.deck)
    values = {key: read(vector[at], reading) for key, read, at in plan.readers}
    view = {"seat": seat} | {key: values.pop(key) for key in FIRST[1:]}
    view["tricks"], view["current_trick"] = _tricks(plan.layout.split(vector), reading)
    return view | values


class _Plan:
    """What reading ``game``'s views takes, made once per game: its layout, the blocks with a
    reader and where they lie, its deck and its observation kernel."""

    def __init__(self, game):
        part = family_part(game.family, "observation")
        self.layout = observation_layout(game)
        self.readers = [(b.view_key, b.read, self.layout.slice(b.name)) for b in self.layout.blocks
                        if b.read is not None]
        self.deck = np.asarray(part.deck(game))
        self.observe = part.observe


_PLANS: WeakKeyDictionary = WeakKeyDictionary()


def _plan(game) -> _Plan:
    if game not in _PLANS:
        _PLANS[game] = _Plan(game)
    return _PLANS[game]


def _tricks(part: dict, reading: Reading) -> tuple[list, list[str]]:
    """The finished tricks, ``(leader, [cards in play order], winner)``, and the cards of the
    trick in progress, from the table blocks: who played each card, the trick it fell in, the
    card that led it, and the tricks each seat won (which name the last trick's winner)."""
    n = reading.players
    in_trick: dict[int, dict[int, int]] = {}  # trick -> seat -> card
    leaders: dict[int, int] = {}
    played_in, led, deck = part["played_in"].tolist(), part["led"].tolist(), reading.deck.tolist()
    rows, entries = np.nonzero(part["played"].reshape(n, -1))
    for r, entry in zip(rows.tolist(), entries.tolist()):  # plain ints: numpy scalars cost here
        t, p = played_in[entry] - 1, (reading.seat + r) % n
        in_trick.setdefault(t, {})[p] = deck[entry]
        if led[entry]:
            leaders[t] = p

    def in_order(t: int) -> list[str]:
        by_seat = in_trick.get(t, {})
        return [LABELS[by_seat[(leaders[t] + i) % n]] for i in range(len(by_seat))]

    won = per_seat(part["tricks_won"], reading)
    finished = sum(won)
    winners = [leaders[t + 1] for t in range(finished - 1)]
    if finished:  # the last trick's winner: the seat with one trick more than the others' leads show
        winners.append(next(p for p in range(n) if won[p] > winners.count(p)))
    tricks = [(leaders[t], in_order(t), winners[t]) for t in range(finished)]
    return tricks, in_order(finished)
