"""The small family of errors tricksim raises; all are ValueErrors."""


class IllegalActionError(ValueError):
    """An action that is not legal now. The message names the action, the seat,
    the phase and the legal labels; the state is left unchanged."""


class OptionError(ValueError):
    """An unknown game, option or option value; the message names it and what is allowed."""
