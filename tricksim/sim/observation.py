"""What a seat may see, as one flat int8 vector: the one definition of each game's hidden
information, from which both the learning agents' observation and the seat's view
(``view.py``, ``State.observe``) are made.

An observation is made of named blocks (``Layout``). Seats are *relative*: entry ``r`` of a
per-seat block is the seat ``r`` places to the observer's left, so entry 0 is always the
observer. Card planes have one entry per card of the game's deck, in the deck's order
(``column``: card index -> entry, -1 off the deck). Each block says how its entries read back
into the seat's view (``Block.read``: one of the readers below, which ``view.py`` applies).

Every game starts with the table blocks of ``table_blocks`` / ``encode_table`` (its hand,
who played which card in which trick and which card led it, the trick in progress, dealer,
leader, the seat to act, phase, tricks won), then adds what its rules show (``obs_<game>.py``),
then ``totals``: the match score per seat, filled in by a match episode and clipped to int8 (0
in a hand episode). Each game's ``observe(s, seat, out)`` is a numba kernel over the same state
array as the rules, so the environments, the vector environment, any search agent and the
Python view see exactly the same. The Gymnasium space of the vector is the environments'
(``envs/observation.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numba as nb
import numpy as np
from numba.extending import overload

from ..cards import LABELS
from ..spec import family_part
from . import actions as A
from .kernels import literal_family, lowest_card

NOT_SPOKEN, HOLD_CODE = -1, -2  # codes of a ``calls`` block beside 0 (pass) and the bid values (``call_code``)

@dataclass(frozen=True)
class Block:
    """``size`` entries of the observation named ``name``, each in ``low..high``; ``read`` turns
    them back into the value of the seat's view under ``key`` (default: the name). A block
    without ``read`` is no key of its own (the table's tricks, the match totals)."""

    name: str
    size: int
    high: int = 1
    low: int = 0
    read: Callable | None = None
    key: str = ""

    @property
    def view_key(self) -> str:
        return self.key or self.name


class Layout:
    """The blocks of an observation, in order, with their offsets.

    >>> layout = Layout([Block("hand", 32), Block("dealer", 5)])
    >>> layout.size, layout.slice("dealer")
    (37, slice(32, 37, None))
    """

    def __init__(self, blocks: list[Block]):
        self.blocks = list(blocks)
        self.offsets: dict[str, int] = {}
        self._slices: dict[str, slice] = {}
        at = 0
        for block in self.blocks:
            self.offsets[block.name] = at
            self._slices[block.name] = slice(at, at + block.size)
            at += block.size
        self.size = at

    def slice(self, name: str) -> slice:
        return self._slices[name]

    def block(self, name: str) -> Block:
        return next(b for b in self.blocks if b.name == name)

    def low(self) -> np.ndarray:
        return np.concatenate([np.full(b.size, b.low, np.int8) for b in self.blocks])

    def high(self) -> np.ndarray:
        return np.concatenate([np.full(b.size, b.high, np.int8) for b in self.blocks])

    def split(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """The observation cut into its named blocks (for reading and tests)."""
        return {name: obs[at] for name, at in self._slices.items()}


# --- how a block reads back into the seat's view ------------------------------------------
# A reader takes the block's entries and the ``Reading`` (whose view, how many seats, which card
# each card-plane entry is) and returns a plain value: an int, a string, a list, None.


@dataclass(frozen=True)
class Reading:
    """What the readers need besides a block's entries: the observer ``seat``, the number of
    ``players`` and ``deck``: the card index of each card-plane entry."""

    seat: int
    players: int
    deck: np.ndarray

    def absolute(self, r: int) -> int:
        """The seat ``r`` places to the observer's left."""
        return (self.seat + r) % self.players


def cards(entries, reading: Reading) -> list[str]:
    """A card plane: the labels of its cards, in card order."""
    return [LABELS[c] for c in sorted(reading.deck[entries.nonzero()[0]].tolist())]  # CardSet's order


def card(entries, reading: Reading) -> str | None:
    """A card plane of at most one card: its label, None for none."""
    found = cards(entries, reading)
    return found[0] if found else None


def private(read: Callable) -> Callable:
    """A block whose first entry says whether the seat sees the rest, read by ``read``; None
    where it does not."""

    def read_private(entries, reading: Reading):
        return read(entries[1:], reading) if entries[0] else None

    return read_private


def one_seat(entries, reading: Reading) -> int | None:
    """A relative seat one-hot: the seat, None for nobody."""
    hot = entries.nonzero()[0]
    return reading.absolute(int(hot[0])) if len(hot) else None


def per_seat(entries, reading: Reading) -> list[int]:
    """One number per relative seat: the numbers in seat order."""
    return [int(entries[(p - reading.seat) % reading.players]) for p in range(reading.players)]


def bids(entries, reading: Reading) -> list[int | None]:
    """One number per relative seat, -1 for none: the numbers in seat order, None for none."""
    return [None if x < 0 else x for x in per_seat(entries, reading)]


def calls(entries, reading: Reading) -> list[str | None]:
    """Each relative seat's ``call_code``: the action labels in seat order, None for no call yet."""
    codes = {NOT_SPOKEN: None, 0: A.action_label(A.PASS), HOLD_CODE: A.action_label(A.HOLD)}
    return [codes[x] if x in codes else A.action_label(A.bid_action(x)) for x in per_seat(entries, reading)]


def number(entries, reading: Reading) -> int:
    return int(entries[0])


def number_or_none(entries, reading: Reading) -> int | None:
    """A number, 0 for none (the bid before anybody bids)."""
    return int(entries[0]) or None


def flag(entries, reading: Reading) -> bool:
    return bool(entries[0])


def one_of(names) -> Callable:
    """A one-hot over ``names``: the name, None where no entry is set (or the name is None)."""

    def read_one_of(entries, reading: Reading):
        hot = entries.nonzero()[0]
        return names[int(hot[0])] if len(hot) else None

    return read_one_of


def observation_layout(game) -> Layout:
    """The layout of ``game``'s observation vector (its observation part's ``blocks``)."""
    return Layout(family_part(game.family, "observation").blocks(game))


def deck_columns(deck: np.ndarray) -> np.ndarray:
    """Card index -> entry of a card plane over ``deck`` (in its order), -1 off the deck."""
    column = np.full(54, -1, dtype=np.int64)
    column[np.asarray(deck, dtype=np.int64)] = np.arange(len(deck))
    return column


def table_blocks(players: int, deck: int, phase_names: tuple, tricks: int, won_key: str = "") -> list[Block]:
    """The blocks ``encode_table`` writes, for ``players`` seats, a ``deck``-card plane, the
    phases ``phase_names`` and at most ``tricks`` tricks a hand. The tricks each seat won read
    into the view under ``won_key`` if given (else only through the tricks)."""
    return [
        Block("hand", deck, read=cards),
        Block("played", players * deck),  # per relative seat: the cards it has played
        Block("trick", players * deck),  # per relative seat: its card in the trick in progress
        Block("played_in", deck, high=tricks),  # per card: 1 + the trick it fell in, 0 unplayed
        Block("led", deck),  # per card: 1 if it led its trick
        Block("dealer", players, read=one_seat),
        Block("leader", players),  # of the trick in progress (one-hot; none before play)
        Block("to_act", players, read=one_seat),  # one-hot; none once the hand is over
        Block("phase", len(phase_names), read=one_of(phase_names)),
        Block("tricks_won", players, high=tricks, read=per_seat if won_key else None, key=won_key),
    ]


def totals_block(players: int) -> Block:
    return Block("totals", players, high=127, low=-128)


@nb.njit(cache=True, inline="always")
def call_code(action):
    """The ``calls`` entry of a seat whose latest auction action id is ``action`` (-1: none):
    ``NOT_SPOKEN``, 0 for a pass, ``HOLD_CODE`` for a hold, N for a bid of N."""
    if action < 0:
        return NOT_SPOKEN
    if action == A.PASS:
        return 0
    if action == A.HOLD:
        return HOLD_CODE
    return A.bid_points(action)


@nb.njit(cache=True, inline="always")
def card_plane(mask, column, out, at):
    """Set ``out[at + column[c]]`` for every card ``c`` of ``mask``."""
    while mask:
        out[at + column[lowest_card(mask)]] = 1
        mask &= mask - 1


@nb.njit(cache=True, inline="always")
def one_hot(value, out, at):
    """Set ``out[at + value]``; nothing for a negative ``value`` (none)."""
    if value >= 0:
        out[at + value] = 1


@nb.njit(cache=True, inline="always")
def relative(seat_of, seat, players):
    """``seat_of`` counted from ``seat`` to the left (0 = ``seat``); -1 stays -1 (nobody)."""
    return -1 if seat_of < 0 else (seat_of - seat + players) % players


@nb.njit(cache=True, inline="always")
def encode_table(s, seat, players, deck, column, phases, playing, hands, phase, dealer, leader,
                 to_act, trick_no, in_trick, tricks, trick_slots, out):
    """Clear ``out`` and write the blocks of ``table_blocks`` for ``seat``. The slot arguments
    name the game's state layout (every game lays these out alike); ``playing`` is its play
    phase, the only one with a leader. Returns the offset after the blocks."""
    out[:] = 0
    card_plane(s[hands + seat], column, out, 0)
    played = deck
    trick = played + players * deck
    played_in = trick + players * deck
    led = played_in + deck
    at = led + deck
    won = at + 3 * players + phases
    for t in range(s[trick_no] + 1):
        slot = tricks + t * trick_slots
        count = players if t < s[trick_no] else s[in_trick]
        first = s[slot] if t < s[trick_no] else s[leader]
        for i in range(count):
            c = column[s[slot + 1 + i]]
            r = relative((first + i) % players, seat, players)
            out[played + r * deck + c] = 1
            out[played_in + c] = t + 1
            if t == s[trick_no]:
                out[trick + r * deck + c] = 1
        if count:
            out[led + column[s[slot + 1]]] = 1
        if t < s[trick_no]:
            out[won + relative(s[slot + trick_slots - 1], seat, players)] += 1
    one_hot(relative(s[dealer], seat, players), out, at)
    if s[phase] == playing:
        one_hot(relative(s[leader], seat, players), out, at + players)
    one_hot(relative(s[to_act], seat, players), out, at + 2 * players)
    one_hot(s[phase], out, at + 3 * players)
    return won + players


def encode(family, s, seat, out):
    """Write what ``seat`` may know into ``out`` (``obs_<game>.observe``)."""


@overload(encode, prefer_literal=True)
def _encode(family, s, seat, out):
    f = family_part(literal_family(family), "observation").observe
    return lambda family, s, seat, out: f(s, seat, out)
