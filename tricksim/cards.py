"""Cards as small integers and sets of cards as 64-bit masks (docs/rules.md, All games: Card labels).

A card is an index 0..53: ``suit * 13 + rank`` for the 52 suited cards, with
suits ``C D H S`` (0..3) and ranks ``2 3 4 5 6 7 8 9 T J Q K A`` (0..12), then
the jokers ``LJ`` (52) and ``HJ`` (53). A set of cards is a mask with bit
``card`` set for each card in it; masks fit in a signed int64, which is what
the numba kernels use.

>>> parse_card("10H"), card_label(parse_card("QC"))
(34, 'QC')
>>> CardSet("QC JD 7C")
CardSet('7C QC JD')
>>> len(CardSet("AH AS") | CardSet("AS"))
2
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .errors import LabelError

SUITS = "CDHS"
RANKS = "23456789TJQKA"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
LOW_JOKER, HIGH_JOKER = 52, 53
NUM_CARDS = 54

_SUIT_ALIASES = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
_JOKER_LABELS = {"LJ": LOW_JOKER, "JK": LOW_JOKER, "HJ": HIGH_JOKER}


def card(rank: str, suit: str) -> int:
    """The index of the card of ``rank`` (one of RANKS) and ``suit`` (one of SUITS)."""
    return SUITS.index(suit) * 13 + RANKS.index(rank)


def card_suit(c: int) -> int:
    """Natural suit 0..3 of a suited card, 4 for a joker."""
    return c // 13


def card_rank(c: int) -> int:
    """Rank 0..12 (2..A) of a suited card."""
    return c % 13


def card_label(c: int) -> str:
    """The label of card index ``c``: rank then suit, or LJ / HJ."""
    if c == LOW_JOKER:
        return "LJ"
    if c == HIGH_JOKER:
        return "HJ"
    if not 0 <= c < 52:
        raise LabelError(f"no card has index {c!r}; cards are 0..53")
    return RANKS[c % 13] + SUITS[c // 13]


LABELS = tuple(card_label(c) for c in range(NUM_CARDS))  # card_label of each index, for hot readers


def parse_card(label: str) -> int:
    """The index of a card label; also accepts ``10`` for T, suit symbols and ``JK``.

    Raises LabelError (a ValueError) naming the label when it is not a card.

    >>> parse_card("T♥") == parse_card("10H") == parse_card("th")
    True
    """
    text = label.strip().upper() if isinstance(label, str) else ""
    if text in _JOKER_LABELS:
        return _JOKER_LABELS[text]
    if len(text) >= 2:
        rank, suit = text[:-1], _SUIT_ALIASES.get(text[-1], text[-1])
        rank = "T" if rank == "10" else rank
        if len(rank) == 1 and rank in RANKS and suit in SUITS:
            return card(rank, suit)
    raise LabelError(
        f"{label!r} is not a card: use rank then suit, e.g. 'QC', 'TH' or '10H', or LJ / HJ"
    )


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Card indices of a space-separated string (or iterable) of labels, in order."""
    labels = text.split() if isinstance(text, str) else list(text)
    return [parse_card(label) for label in labels]


def mask_of(cards: Iterable[int]) -> int:
    """The mask of an iterable of card indices."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def cards_of(mask: int) -> list[int]:
    """The card indices in ``mask``, lowest first."""
    mask = int(mask)
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def format_cards(cards: Iterable[int]) -> str:
    """Space-separated labels of card indices, in the order given."""
    return " ".join(card_label(int(c)) for c in cards)


class CardSet:
    """A set of cards over a mask, printing as labels.

    Accepts a label string, an iterable of labels or indices, or another CardSet.

    >>> hand = CardSet("QC 7C TH")
    >>> "QC" in hand, hand.mask == (1 << 5) | (1 << 10) | (1 << 34)
    (True, True)
    >>> str(hand - CardSet("7C"))
    'QC TH'
    """

    __slots__ = ("mask",)

    def __init__(self, cards: str | Iterable[int | str] | "CardSet" | None = None):
        if cards is None:
            self.mask = 0
        elif isinstance(cards, CardSet):
            self.mask = cards.mask
        elif isinstance(cards, str):
            self.mask = mask_of(parse_cards(cards))
        else:
            self.mask = mask_of(c if isinstance(c, int) else parse_card(c) for c in cards)

    @classmethod
    def from_mask(cls, mask: int) -> "CardSet":
        s = cls()
        s.mask = int(mask)
        return s

    def __contains__(self, c: int | str) -> bool:
        index = c if isinstance(c, int) else parse_card(c)
        return bool(self.mask >> index & 1)

    def __iter__(self) -> Iterator[int]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return int(self.mask).bit_count()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and self.mask == other.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: "CardSet") -> "CardSet":
        return CardSet.from_mask(self.mask | CardSet(other).mask)

    def __and__(self, other: "CardSet") -> "CardSet":
        return CardSet.from_mask(self.mask & CardSet(other).mask)

    def __sub__(self, other: "CardSet") -> "CardSet":
        return CardSet.from_mask(self.mask & ~CardSet(other).mask)

    def labels(self) -> list[str]:
        return [card_label(c) for c in self]

    def __str__(self) -> str:
        return " ".join(self.labels())

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"
