"""Hand classes for decision studies: data, a function from a study's rows (a DataFrame: the
seat's hand mask ``cards`` at the decision, its ``seat`` and ``position``, and the deal's columns
such as Bluke's ``trump``) to a class per row, named as players name them.

``CLASSES[game]`` maps each name to its function; a study groups its rows by the classes it is
given (the game's ``DEFAULT_CLASSES`` unless told) and by position. A user's own class is any
function of the same shape, e.g. ``lambda rows: rows["cards"] & 1``. The classes of the hand alone
take an array of hand masks as well:

>>> import numpy as np
>>> from tricksim.cards import parse_cards
>>> hand = np.array([sum(1 << c for c in parse_cards("QC QS JD AC 7H 8H"))])
>>> [int(CLASSES["sheepshead"][name](hand)[0]) for name in ("trumps", "queens", "jacks", "fail_aces", "voids")]
[3, 2, 1, 1, 1]

The hand is the one dealt, at the pick or bid. In Fifty-five and the smears the trump is not
known yet (it is named after the auction), so their classes measure the hand in its **best
candidate suit**: the suit with the
largest first measure, then the second, then the third (the measures of the classes listed for
the game, in that order), as a bidder would name it. A tie left after that is a tie of every
class value, so no class depends on which of the tied suits is meant.

* Fifty-five (docs/rules.md, Fifty-five: Trumps): ``top_trumps`` the 5, J and A of the suit and A♥ (a trump in every
  suit; three cards with hearts trumps), ``trump_length`` the cards that would be trump (A♥ too),
  ``best_suit_five`` 1 if the hand holds the 5 of that suit (the highest trump).
* Shmear (§3), NE Smear (§5): ``point_cards`` the cards of a point the hand holds with the suit
  trump: its A (High), its Low card (the 2; NE Smear the 7, as with ``high_low = fixed``), its J
  (Jack), and in Shmear the Jick (the J of the same colour) and the joker, which count in every
  suit; ``trump_length`` its trumps (Shmear: Jick and joker too); ``high`` 1 if it holds the A.
* Bluke (§4): ``expected_tricks`` the tricks the heuristic agent expects the hand to take with
  the trump turned (``hand_strength`` at its defaults, to the nearest trick: the deal's
  ``sure_tricks_x10_<seat>`` column), ``trumps`` the trumps dealt (the deal's ``trumps_<seat>``);
  ``sure_tricks`` the tricks the hand takes whatever the turned card (so whatever
  the trump) and the other hands: HJ; LJ when HJ is held too; and with both blukes held (no
  bluke can beat a trump, and there is a trump), the trumps at the top of the trump suit: the
  fewest cards held in an unbroken run down from the A of any suit (0 unless all four aces are
  held). That is the heuristic agent's ``sure_tricks`` at its worst over every possible turned
  card. A side ace is never sure (a bluke or a trump beats it). ``hand_size`` the cards dealt
  (13 down to 1 and back: one study mixes every size).

In the examples the Fifty-five hand is best in diamonds (5♦ and A♥ among three trumps), the
Shmear hand in spades (A, 2, the Jick J♣ and the joker), the NE Smear hand in spades (A and 7: two
points) rather than in its longer hearts, and the first Bluke hand takes HJ, LJ and one trump.

>>> def value(game, name, labels):
...     return int(CLASSES[game][name](np.array([sum(1 << c for c in parse_cards(labels))]))[0])
>>> [value("fiftyfive", name, "5D AH 2D 7S KS") for name in ("top_trumps", "trump_length", "best_suit_five")]
[2, 3, 1]
>>> [value("shmear", name, "AS JC 2S LJ 9H 4D") for name in ("point_cards", "trump_length", "high")]
[4, 4, 1]
>>> [value("nesmear", name, "AS 7S JH QH 9H 8C") for name in ("point_cards", "trump_length", "high")]
[2, 2, 1]
>>> value("bluke", "sure_tricks", "HJ LJ AC AD AH AS KS QS KC 2D"), value("bluke", "sure_tricks", "LJ AS KS")
(3, 0)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..agents import bluke as bluke_agent
from ..agents import fiftyfive as fiftyfive_agent
from ..agents import sheepshead as sheepshead_agent
from ..agents import smear as smear_agent
from ..errors import OptionError
from ..sim import bluke as bluke_kernels
from ..sim import sheepshead as sheepshead_kernels
from ..sim import smear as smear_kernels

PACK = 32  # every measure of a best-suit key is below this (a hand holds 13 cards at most)


def _masks(cards) -> np.ndarray:
    """The hand masks of a study's rows, or of an array of masks."""
    if isinstance(cards, pd.DataFrame):
        cards = cards["cards"]
    return np.asarray(cards, dtype=np.int64)


def _seat_column(prefix: str):
    """The class function reading the deal's per-seat column ``<prefix><seat>`` at each row's seat."""
    def column(rows):
        seats = rows["seat"].to_numpy(np.int64)
        per_seat = rows[[f"{prefix}{p}" for p in range(int(seats.max()) + 1 if len(seats) else 0)]].to_numpy()
        return per_seat[np.arange(len(rows)), seats]
    return column


def _bluke_expected_tricks(rows):
    """The agent's expected tricks of the hand (tenths in the deal's column), to the nearest trick."""
    return ((_seat_column("sure_tricks_x10_")(rows).astype(np.int16) + 5) // 10).astype(np.int8)


def _holds(cards: np.ndarray, c: int) -> np.ndarray:
    """1 where the hand holds card ``c``, else 0."""
    return (cards >> np.int64(c)) & 1


def _count(mask: int):
    """The class function counting a hand's cards in ``mask``."""
    mask = np.int64(mask)
    return lambda cards: np.bitwise_count(_masks(cards) & mask).astype(np.int8)


def _sheepshead_voids(cards):
    """Fail suits (clubs, spades, hearts) the hand holds no card of."""
    cards = _masks(cards)
    fail = (sheepshead_agent.CLUB_MASK, sheepshead_agent.SPADE_MASK, sheepshead_agent.HEART_MASK)
    return sum(((cards & np.int64(m)) == 0).astype(np.int8) for m in fail)


def _best_suit(measures, index: int):
    """The class function giving measure ``index`` of the hand's best candidate suit.

    ``measures(cards, t)`` is the per-row measures (int arrays, each 0 .. PACK - 1) of the hand
    with suit ``t`` trump; the best suit has the largest first measure, then second, and so on
    (one key per suit, the measures packed in base PACK, the largest key kept)."""
    def best(cards):
        cards = _masks(cards)
        key = np.zeros(cards.shape, dtype=np.int32)
        for t in range(4):
            values = measures(cards, t)
            packed = np.zeros(cards.shape, dtype=np.int32)
            for m in values:
                packed = packed * PACK + m.astype(np.int32)
            key = np.maximum(key, packed)
        return (key // PACK ** (len(values) - 1 - index) % PACK).astype(np.int8)
    return best


# --- Fifty-five (docs/rules.md, Fifty-five: Trumps): the 5, J, A of trumps and A♥ are the top trumps -----

def _fiftyfive_measures(cards, t):
    """Top trumps, trumps and the 5 (the highest trump) held with suit ``t`` trump."""
    return (np.bitwise_count(cards & fiftyfive_agent.TOP_TRUMPS[t]),
            np.bitwise_count(cards & fiftyfive_agent.TRUMPS[t]),
            _holds(cards, fiftyfive_agent.TRUMP_ORDER[t, 0]))


# --- Shmear, NE Smear (docs/rules.md, Shmear and NE Smear): tables per row ``variant * 4 + trump`` --

def _smear_measures(variant: int):
    """Point cards, trumps and the A (High) held with suit ``t`` trump, in ``variant``."""
    def measures(cards, t):
        row = variant * 4 + t
        return (np.bitwise_count(cards & smear_agent.POINT_MASK[row]),
                np.bitwise_count(cards & smear_kernels.SUIT_MASKS[row, t]),
                _holds(cards, smear_kernels.POINT_CARDS[row, smear_kernels.HIGH]))
    return measures


# --- Bluke (docs/rules.md, Bluke) ------------------------------------------------------------------

def _bluke_sure_tricks(cards):
    """Tricks the hand takes whatever the turned card and the other hands (module docstring): the
    agent's ``sure_tricks`` at its worst over the turned card. LJ is sure only behind a held HJ
    (else HJ may be in play); trumps only with both blukes held, when the turned card is a suited
    card of any suit, and a trump is sure when every card above it is held: with both blukes in a
    hand of 13 cards at most, two cards or more of every suit are out of it, so a turned card above
    the trump can always be a lower one instead."""
    cards = _masks(cards)
    hj = _holds(cards, bluke_agent.HJ)
    both = hj & _holds(cards, bluke_agent.LJ)
    fewest = None
    for suit in range(4):
        top = np.zeros(cards.shape, dtype=np.int64)  # held cards of the suit with every higher one held
        for c in range(13 * suit, 13 * suit + 13):
            higher = np.int64(bluke_agent.HIGHER[c])
            top += _holds(cards, c) & ((cards & higher) == higher)
        fewest = top if fewest is None else np.minimum(fewest, top)
    return (hj + both + both * fewest).astype(np.int8)


CLASSES = {
    "sheepshead": {
        "trumps": _count(sheepshead_kernels.SUIT_MASKS[sheepshead_kernels.TRUMP]),
        "queens": _count(sheepshead_agent.QUEENS),
        "jacks": _count(sheepshead_agent.JACKS),
        "fail_aces": _count(sheepshead_agent.FAIL_ACES),
        "voids": _sheepshead_voids,
    },
    "fiftyfive": {
        "top_trumps": _best_suit(_fiftyfive_measures, 0),
        "trump_length": _best_suit(_fiftyfive_measures, 1),
        "best_suit_five": _best_suit(_fiftyfive_measures, 2),
    },
    "shmear": {
        "point_cards": _best_suit(_smear_measures(smear_kernels.SHMEAR), 0),
        "trump_length": _best_suit(_smear_measures(smear_kernels.SHMEAR), 1),
        "high": _best_suit(_smear_measures(smear_kernels.SHMEAR), 2),
    },
    "nesmear": {
        "point_cards": _best_suit(_smear_measures(smear_kernels.NESMEAR), 0),
        "trump_length": _best_suit(_smear_measures(smear_kernels.NESMEAR), 1),
        "high": _best_suit(_smear_measures(smear_kernels.NESMEAR), 2),
    },
    "bluke": {
        "expected_tricks": _bluke_expected_tricks,
        "trumps": lambda rows: _seat_column("trumps_")(rows).astype(np.int8),
        "sure_tricks": _bluke_sure_tricks,
        "hand_size": _count(bluke_kernels.DECK_MASK),
    },
}
# What a player looks at first: Sheepshead trumps; Fifty-five the top trumps (the 5, J, A♥ win
# tricks and the best-trump bonus); the smears the point cards, as a smear bid counts points and
# each point card held is a point the hand goes after (High and Low are the player's own); Bluke
# the tricks it expects to take.
DEFAULT_CLASSES = {
    "sheepshead": ("trumps",),
    "fiftyfive": ("top_trumps",),
    "shmear": ("point_cards",),
    "nesmear": ("point_cards",),
    "bluke": ("expected_tricks",),
}


def resolve_classes(game: str, classes=None) -> dict:
    """The class functions by name: ``classes`` a list of the game's class names
    (``classes.CLASSES``; None for its ``DEFAULT_CLASSES``), or already a dict of name to function."""
    if classes is None:
        classes = DEFAULT_CLASSES.get(game, ())
    if isinstance(classes, dict):
        return classes
    known = CLASSES.get(game, {})
    unknown = [name for name in classes if name not in known]
    if unknown:
        raise OptionError(f"hand classes {unknown} of {game}: choose from {', '.join(known) or 'none yet'}")
    return {name: known[name] for name in classes}


def class_columns(rows: pd.DataFrame, game: str, classes=None) -> pd.DataFrame:
    """The hand classes of each row (``resolve_classes``; each function takes the rows, see
    ``classes``)."""
    return pd.DataFrame({name: np.asarray(f(rows)) for name, f in resolve_classes(game, classes).items()},
                        index=rows.index)
