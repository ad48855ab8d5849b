"""The small family of errors tricksim raises; all are ValueErrors, and each leaves what it was
given unchanged.

>>> from tricksim.cards import parse_card
>>> parse_card("ZZ")
Traceback (most recent call last):
...
tricksim.errors.LabelError: 'ZZ' is not a card: use rank then suit, e.g. 'QC', 'TH' or '10H', or LJ / HJ
"""


class IllegalActionError(ValueError):
    """An action that is not legal now. The message names the action, the seat,
    the phase and the legal labels; the state is left unchanged."""


class OptionError(ValueError):
    """An unknown game, option or option value; the message names it and what is allowed."""


class LabelError(ValueError):
    """A card or action label (or index) that names no card or action; the message names it and
    how labels are written."""


class DealError(ValueError):
    """A hand-made deal that does not fit the game: a seat's card count, a card dealt twice or not
    in the deck, a dealer that is not a seat."""


class RecordError(ValueError):
    """A hand record that is malformed, or that does not rebuild to what it records; the message
    names the problem (and the file, when read from one)."""


class BotError(ValueError):
    """A seated bot (``python:`` or ``exec:``) that failed a decision: it exited, hung past its
    time limit, wrote something that is not its answer, answered an action that is not legal, or
    (a Python agent) raised. The message names the bot, the hand, the decision, the legal actions
    and what it answered."""
