"""A game's state layout and its phases, each declared once at the top of its module.

A hand's state is one int64 array. A game lists its slots in order as ``(name, size, comment)``;
``state_layout`` numbers them, sets each name in the game's module to its first index (a plain
``int``, which numba compiles into a kernel as a constant, as it would a literal) and
``STATE_SIZE`` to the total. ``phases`` numbers a game's phases the same way and returns their
labels. The declarations stay the game's spec: one line a slot, its comment beside it.

>>> namespace = {}
>>> slots = state_layout(namespace, [("HANDS", 4, "hand masks"), ("PHASE", 1, ""), ("TRICKS", 12, "")])
>>> namespace["PHASE"], namespace["TRICKS"], namespace["STATE_SIZE"]
(4, 5, 17)
>>> slots[0]
Slot(name='HANDS', start=0, size=4, comment='hand masks')
>>> phases(namespace, [("BIDDING", "bidding"), ("OVER", "over")]), namespace["OVER"]
(('bidding', 'over'), 1)
"""

from __future__ import annotations

from typing import MutableMapping, NamedTuple, Sequence


class Slot(NamedTuple):
    """One named piece of a state array: ``s[start:start + size]``."""

    name: str
    start: int
    size: int
    comment: str


def state_layout(namespace: MutableMapping[str, object], slots: Sequence[tuple[str, int, str]]) -> tuple[Slot, ...]:
    """Number ``slots`` (``(name, size, comment)`` in state order) from 0: set each ``name`` in
    ``namespace`` (a game module's ``globals()``) to its first index and ``STATE_SIZE`` to the
    total; return the slots. Raises ``ValueError`` on a repeated name or a size below 1."""
    out = []
    start = 0
    for name, size, comment in slots:
        size = int(size)  # a plain int (numpy ints are folded in too, but as their own type)
        if size < 1 or any(slot.name == name for slot in out):
            raise ValueError(f"state slot {name!r}: a repeated name or a size below 1 ({size})")
        out.append(Slot(name, start, size, comment))
        namespace[name] = start
        start += size
    namespace["STATE_SIZE"] = start
    return tuple(out)


def phases(namespace: MutableMapping[str, object], declared: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """Number the phases ``declared`` (``(NAME, label)`` in the order of a hand) from 0: set each
    ``NAME`` in ``namespace`` to its number; return the labels, the game's ``PHASE_NAMES``."""
    for number, (name, _) in enumerate(declared):
        namespace[name] = number
    return tuple(label for _, label in declared)
