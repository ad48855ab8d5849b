"""The numeric observation an environment shows a seat, and the parts every game shares.

An observation is one flat int8 vector made of named blocks (``Layout``). Seats are
*relative*: entry ``r`` of a per-seat block is the seat ``r`` places to the observer's
left, so entry 0 is always the observer. Card planes have one entry per card of the
game's deck, in the deck's order (``column``: card index -> entry, -1 off the deck).

Every game starts with the table blocks of ``table_blocks`` / ``encode_table`` (its hand,
who played which card and in which trick, the trick in progress, dealer, leader, the seat to
act, phase, tricks won), then adds what its rules show (``obs_<game>.py``), then ``totals``:
the match score per seat, filled in by a match episode and clipped to int8 (0 in a hand
episode). Each game's ``observe(s, seat, out)`` is a numba kernel over the same state array
as the rules, so the environments, the vector environment and any search agent see exactly
the same.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np
from gymnasium import spaces
from numba.extending import overload

from ..sim import actions as A
from ..sim.kernels import literal_family, lowest_card
from ..spec import family_part


@dataclass(frozen=True)
class Block:
    """``size`` entries of the observation named ``name``, each in ``low..high``."""

    name: str
    size: int
    high: int = 1
    low: int = 0


class Layout:
    """The blocks of an observation, in order, with their offsets.

    >>> layout = Layout([Block("hand", 32), Block("dealer", 5)])
    >>> layout.size, layout.slice("dealer")
    (37, slice(32, 37, None))
    """

    def __init__(self, blocks: list[Block]):
        self.blocks = list(blocks)
        self.offsets: dict[str, int] = {}
        at = 0
        for block in self.blocks:
            self.offsets[block.name] = at
            at += block.size
        self.size = at

    def slice(self, name: str) -> slice:
        at = self.offsets[name]
        return slice(at, at + self.block(name).size)

    def block(self, name: str) -> Block:
        return next(b for b in self.blocks if b.name == name)

    def low(self) -> np.ndarray:
        return np.concatenate([np.full(b.size, b.low, np.int8) for b in self.blocks])

    def high(self) -> np.ndarray:
        return np.concatenate([np.full(b.size, b.high, np.int8) for b in self.blocks])

    def space(self) -> spaces.Box:
        """The Gymnasium space of the observation vector."""
        return spaces.Box(self.low(), self.high(), dtype=np.int8)

    def split(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """The observation cut into its named blocks (for reading and tests)."""
        return {b.name: obs[self.slice(b.name)] for b in self.blocks}


def deck_columns(deck: np.ndarray) -> np.ndarray:
    """Card index -> entry of a card plane over ``deck`` (in its order), -1 off the deck."""
    column = np.full(54, -1, dtype=np.int64)
    column[np.asarray(deck, dtype=np.int64)] = np.arange(len(deck))
    return column


def table_blocks(players: int, deck: int, phases: int, tricks: int) -> list[Block]:
    """The blocks ``encode_table`` writes, for ``players`` seats, a ``deck``-card plane,
    ``phases`` phases and at most ``tricks`` tricks a hand."""
    return [
        Block("hand", deck),
        Block("played", players * deck),  # per relative seat: the cards it has played
        Block("trick", players * deck),  # per relative seat: its card in the trick in progress
        Block("played_in", deck, high=tricks),  # per card: 1 + the trick it fell in, 0 unplayed
        Block("dealer", players),
        Block("leader", players),  # of the trick in progress (one-hot; none before play)
        Block("to_act", players),  # one-hot; none once the hand is over
        Block("phase", phases),
        Block("tricks_won", players, high=tricks),
    ]


def totals_block(players: int) -> Block:
    return Block("totals", players, high=127, low=-128)


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
    at = played_in + deck
    won = at + 3 * players + phases
    for t in range(s[trick_no] + 1):
        slot = tricks + t * trick_slots
        cards = players if t < s[trick_no] else s[in_trick]
        first = s[slot] if t < s[trick_no] else s[leader]
        for i in range(cards):
            c = column[s[slot + 1 + i]]
            r = relative((first + i) % players, seat, players)
            out[played + r * deck + c] = 1
            out[played_in + c] = t + 1
            if t == s[trick_no]:
                out[trick + r * deck + c] = 1
        if t < s[trick_no]:
            out[won + relative(s[slot + trick_slots - 1], seat, players)] += 1
    one_hot(relative(s[dealer], seat, players), out, at)
    if s[phase] == playing:
        one_hot(relative(s[leader], seat, players), out, at + players)
    one_hot(relative(s[to_act], seat, players), out, at + 2 * players)
    one_hot(s[phase], out, at + 3 * players)
    return won + players


@nb.njit(cache=True, inline="always")
def encode_mask(words, cards, kind, out):
    """The action mask of a game's ``legal(state)`` triple over the flat action space."""
    out[:] = 0
    while words:
        out[lowest_card(words)] = 1
        words &= words - 1
    base = A.CARD_BASE + 54 * kind
    while cards:
        out[base + lowest_card(cards)] = 1
        cards &= cards - 1


def observation_layout(game) -> Layout:
    """The layout of ``game``'s observation vector (its observation part's ``blocks``)."""
    return Layout(family_part(game.family, "observation").blocks(game))


def encode(family, s, seat, out):
    """Write what ``seat`` may know into ``out`` (``obs_<game>.observe``)."""


@overload(encode, prefer_literal=True)
def _encode(family, s, seat, out):
    f = family_part(literal_family(family), "observation").observe
    return lambda family, s, seat, out: f(s, seat, out)
