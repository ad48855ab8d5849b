"""The flat integer action space shared by every game, and its labels (docs/rules.md, All games: Action labels).

Ids below 64 are the actions that name no card; from 64 on, each card action
kind takes a block of 54 ids, one per card index::

    0 pass   1 pick   2 alone   3 hold   4 done   5..8 trump C D H S
    9..39 bid 0..30   40 bid 60
    64 + 54 * kind + card   for kind in bury, call, under, discard, play

A game uses the subset it needs. Kernels and agents pass ints only; labels are
made and parsed here and nowhere else.
"""

from __future__ import annotations

import numba as nb

from ..cards import SUITS, card_label, parse_card
from ..errors import LabelError
from .kernels import nth_card, popcount, rand_below

PASS, PICK, ALONE, HOLD, DONE = 0, 1, 2, 3, 4
TRUMP = 5  # + suit
BID = 9  # + points for 0..30; bid 60 is BID_60
BID_60 = 40
CARD_BASE = 64
BURY, CALL, UNDER, DISCARD, PLAY = range(5)  # card action kinds
CARD_KINDS = ("bury", "call", "under", "discard", "play")
NUM_ACTIONS = CARD_BASE + 54 * len(CARD_KINDS)

_WORDS = {PASS: "pass", PICK: "pick", ALONE: "alone", HOLD: "hold", DONE: "done"}
_WORD_IDS = {word: action for action, word in _WORDS.items()}


@nb.njit(cache=True, inline="always")
def card_action(kind, c):
    """The id of card action ``kind`` (BURY … PLAY) on card ``c``."""
    return CARD_BASE + 54 * kind + c


@nb.njit(cache=True, inline="always")
def bid_action(points):
    return BID_60 if points == 60 else BID + points


@nb.njit(cache=True, inline="always")
def bid_points(action):
    """The points of the bid action ``action`` (``bid_action``'s inverse)."""
    return 60 if action == BID_60 else action - BID


@nb.njit(cache=True, inline="always")
def random_card(cards, rng):
    """A uniformly random card of the non-empty mask ``cards``, drawn from the stream ``rng``."""
    return nth_card(cards, rand_below(rng, popcount(cards)))


@nb.njit(cache=True, inline="always")
def uniform_action(words, cards, kind, rng):
    """A uniformly random action among a game's ``legal(state)`` triple
    ``(word_mask, card_mask, card_kind)``, drawn from the stream ``rng``: the random agent.
    With no word action it is ``random_card`` (a batch loop may call that directly)."""
    if words == 0:  # card play, the common case
        return card_action(kind, random_card(cards, rng))
    n_words = popcount(words)
    r = rand_below(rng, n_words + popcount(cards))
    if r < n_words:
        return nth_card(words, r)
    return card_action(kind, nth_card(cards, r - n_words))


def action_label(action: int) -> str:
    """The label of action id ``action``; ValueError if it is no action."""
    a = int(action)
    if a in _WORDS:
        return _WORDS[a]
    if TRUMP <= a < TRUMP + 4:
        return f"trump {SUITS[a - TRUMP]}"
    if BID <= a <= BID + 30:
        return f"bid {a - BID}"
    if a == BID_60:
        return "bid 60"
    if CARD_BASE <= a < NUM_ACTIONS:
        kind, c = divmod(a - CARD_BASE, 54)
        return f"{CARD_KINDS[kind]} {card_label(c)}"
    raise LabelError(f"{action!r} is not an action id (0..{NUM_ACTIONS - 1})")


def parse_action(label: str) -> int:
    """The action id of a label such as ``'play 10H'``, ``'bid 20'`` or ``'pass'``.

    Raises LabelError (a ValueError) naming the label when it does not parse.
    """
    words = label.split() if isinstance(label, str) else []
    if len(words) == 1 and words[0].lower() in _WORD_IDS:
        return _WORD_IDS[words[0].lower()]
    if len(words) == 2:
        verb, arg = words[0].lower(), words[1]
        if verb == "trump" and arg.upper() in SUITS:
            return TRUMP + SUITS.index(arg.upper())
        if verb == "bid" and arg.isdigit() and (int(arg) <= 30 or int(arg) == 60):
            return int(bid_action(int(arg)))
        if verb in CARD_KINDS:
            try:
                return CARD_BASE + 54 * CARD_KINDS.index(verb) + parse_card(arg)
            except ValueError:
                pass
    raise LabelError(
        f"{label!r} is not an action label: expected pass, pick, alone, hold, done, "
        "'trump S', 'bid N' or one of bury/call/under/discard/play followed by a card"
    )
