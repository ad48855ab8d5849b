"""What every game shares on the Python side: declared options, checked deals,
and the hooks that State and Match call.

A game subclass names its kernel module (``kernels``: ``legal``, ``step``, the
state layout) and implements the few methods that read its state array.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..cards import CardSet, card_label, parse_cards
from ..display import team_side, tricks_text
from ..errors import DealError, OptionError
from ..spec import spec
from .kernels import new_rng
from .state import State


@dataclass(frozen=True)
class Option:
    """A game option (docs/rules.md, each game's Options): its default, its allowed values and one line of help."""

    default: Any
    choices: tuple = ()
    help: str = ""
    minimum: int | None = None  # the least value a number may take (None: no least)

    def check(self, game: str, name: str, value: Any) -> Any:
        """The value converted to the option's type; OptionError naming it if it is not allowed."""
        converted = _convert(value, type(self.default))
        if (converted is None or (self.choices and converted not in self.choices)
                or (self.minimum is not None and converted < self.minimum)):
            raise OptionError(f"{game}: {name} = {value!r} is not allowed; {self.allowed()}")
        return converted

    def allowed(self) -> str:
        if self.choices:
            return "choose one of " + ", ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in self.choices)
        return f"it takes {self.help}" if self.help else f"it takes a {type(self.default).__name__}"


MATCH_ONLY = ("max_hands",)  # options that change how a match ends and never how a hand plays


def hand_options(options: dict) -> dict:
    """``options`` without the match-only ones: what a hand's play depends on (a hand record, a
    trained network)."""
    return {k: v for k, v in options.items() if k not in MATCH_ONLY}


def max_hands_option(default: int) -> Option:
    """A game's ``max_hands`` with its ``default``: the deals after which a match stops (``Match``)."""
    return Option(default, (), "a positive whole number of deals, thrown-in deals included, after which a match "
                  "stops and the best totals win", minimum=1)


def _convert(value: Any, kind: type) -> Any:
    if isinstance(value, str):
        text = value.strip().lower()
        if kind is bool:
            return {"true": True, "false": False, "1": True, "0": False}.get(text)
        if kind is int:
            return int(text) if text.lstrip("-").isdigit() else None
        return text
    if kind is bool:
        return value if isinstance(value, bool) else None
    if kind is int:
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    return value if isinstance(value, kind) else None


def nullable_column(values: np.ndarray, missing: np.ndarray, dtype) -> pd.arrays.IntegerArray:
    """A pandas nullable integer column: ``values`` with NA where ``missing``."""
    return pd.arrays.IntegerArray(np.where(missing, 0, values).astype(dtype), missing)


class Game:
    """A game with its options fixed. Made by ``tricksim.make_game``."""

    name: str = ""
    title: str = ""  # the game's name as players write it
    OPTIONS: dict[str, Option] = {}
    kernels: Any = None  # the game's numba module

    def __init__(self, **options: Any):
        unknown = sorted(set(options) - set(self.OPTIONS))
        if unknown:
            known = ", ".join(sorted(self.OPTIONS))
            raise OptionError(f"{self.name} has no option {unknown[0]!r}; its options are {known}")
        self.options = {
            name: opt.check(self.name, name, options.get(name, opt.default))
            for name, opt in self.OPTIONS.items()
        }
        self.players = self.options.get("players", 0)

    @property
    def family(self) -> int:
        """The number of the game's kernel family (``tricksim.spec``), the constant the generic
        kernels of ``agents.family`` are compiled for."""
        return spec(self.name).family

    @property
    def teams(self) -> int:
        """The number of fixed teams, of seats ``seat % teams``; 0 when every seat plays for itself
        (Sheepshead's sides change from hand to hand)."""
        return self.options.get("teams", 0)

    @property
    def label(self) -> str:
        """The game and the options that differ from the defaults, as a person reads them:
        ``Sheepshead``, ``Fifty-five (players=6)``; for titles of tables and figures."""
        changed = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in self.options.items()
                   if v != self.OPTIONS[k].default]
        return self.title + (f" ({', '.join(changed)})" if changed else "")

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != self.OPTIONS[k].default}
        args = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"make_game({self.name!r}{args})"

    # --- deals ---------------------------------------------------------------

    def new_hand(self, seed: int, dealer: int = 0, hand: int = 0):
        """A random deal, reproducible from ``(seed, hand)`` (the kernels' ``deal_random``)."""
        self._check_seat(dealer)
        s = np.empty(self.kernels.STATE_SIZE, dtype=np.int64)
        self.kernels.deal_random(s, int(seed), int(hand), int(dealer), self.option_array, new_rng())
        return State(self, s)

    DEAL_FLAGS: tuple[str, ...] = ()  # what ``deal`` takes besides hands, rest and dealer: flags (true/false)

    def deal(self, hands, rest, dealer: int = 0, **flags):
        """A hand-made deal: every seat's cards in seat order and the ``rest`` (``rest``)."""
        raise NotImplementedError

    def rest(self, s: np.ndarray) -> list[int]:
        """The cards of the deal ``s`` that no seat holds, in the order ``deal`` takes them."""
        raise NotImplementedError

    def rest_parts(self, rest: list[str]) -> list[tuple[str, list[str]]]:
        """A deal's ``rest`` cut into the parts the rules name, e.g. ``[("kitty", …), ("stock", …)]``
        (the empty ones left out)."""
        return [("undealt", rest)] if rest else []

    def deal_flags(self, s: np.ndarray) -> dict[str, bool]:
        """The ``DEAL_FLAGS`` of the deal ``s``."""
        return {}

    def _check_deal(self, hands: list, rest: Any, sizes: list[int], rest_size: int, deck: np.ndarray):
        """Card lists of a hand-made deal, checked against the deck and the sizes."""
        if len(hands) != len(sizes):
            raise DealError(f"{self.name}: deal needs {len(sizes)} hands, got {len(hands)}")
        parsed = [parse_cards(h) for h in hands]
        rest_cards = parse_cards(rest or [])
        for seat, (cards, size) in enumerate(zip(parsed, sizes)):
            if len(cards) != size:
                raise DealError(f"{self.name}: seat {seat} needs {size} cards, got {len(cards)}")
        if len(rest_cards) != rest_size:
            raise DealError(f"{self.name}: rest needs {rest_size} cards, got {len(rest_cards)}")
        everything = [c for cards in parsed for c in cards] + rest_cards
        valid = set(int(c) for c in deck)
        for c in everything:
            if c not in valid:
                raise DealError(f"{self.name}: {card_label(c)} is not in this game's deck")
        seen: set[int] = set()
        for c in everything:
            if c in seen:
                raise DealError(f"{self.name}: {card_label(c)} is dealt twice")
            seen.add(c)
        return parsed, rest_cards

    def _check_seat(self, seat: int) -> None:
        if not 0 <= int(seat) < self.players:
            raise DealError(f"{self.name}: dealer {seat!r} is not a seat (0..{self.players - 1})")

    def lowest_score(self) -> int:
        """The lowest score a seat can take from one hand under these options (each game reads it
        off its own scoring kernels)."""
        raise NotImplementedError(f"{self.name}: lowest_score")

    # --- reading a state array (every game lays out these slots alike) ---------

    def scores(self, s: np.ndarray) -> list[int]:
        return [int(x) for x in s[self.kernels.SCORES:self.kernels.SCORES + self.players]]

    def tricks(self, s: np.ndarray) -> list[tuple[int, list[str], int]]:
        """Each finished trick's record: leader, cards in play order, winner (the last slot)."""
        K = self.kernels
        out = []
        for t in range(int(s[K.TRICK_NO])):
            slot = K.TRICKS + t * K.TRICK_SLOTS
            cards = [card_label(int(c)) for c in s[slot + 1:slot + 1 + self.players]]
            out.append((int(s[slot]), cards, int(s[slot + K.TRICK_SLOTS - 1])))
        return out

    def hand(self, s: np.ndarray, seat: int) -> CardSet:
        return CardSet.from_mask(int(s[self.kernels.HANDS + seat]))

    # --- how a hand reads to a person: hooks read by ``tricksim.display`` --------

    JOKERS = ""  # how the card legend names the game's jokers, if it has any
    HIDDEN_CARD_VERBS = ("bury", "discard", "under")  # card actions taken face down: others never see the card

    def card_keys(self, trump: int | None) -> dict[int, tuple[int, int]]:
        """``(group, strength)`` of every card of the deck with suit ``trump`` trump (an index of
        ``C D H S``; None before trump is known): cards are shown by group, strongest first, group 0
        (the trumps) first. By default by suit, then rank."""
        return {c: (1 + c // 13, c % 13) for c in range(52)}

    def public_label(self, label: str) -> str:
        """What the other seats learn of the action ``label``: a card taken face down stays hidden."""
        verb = label.partition(" ")[0]
        return f"{verb} a card" if verb in self.HIDDEN_CARD_VERBS else label

    def known_side(self, view: dict) -> list[int]:
        """The seats that the seat of ``view`` knows to score with it, itself first: its team."""
        return team_side(self, view["seat"])

    def count_line(self, view: dict, side: list[int], won: int, names: list[str]) -> str:
        """What the seat of ``view`` may count of the take of its ``side`` (``known_side``), which
        won ``won`` tricks so far: by default the tricks."""
        return f"{tricks_text(won)} taken"

    def public_line(self, view: dict, names: list[str]) -> str | None:
        """What the bidding made public, in one line (None: nothing)."""
        return None

    # --- matches: hooks read by Match (a game overrides what its end rule needs) --

    def new_match(self, seed: int, dealer: int = 0, totals=None):
        """A match under the game's end rule (docs/rules.md), hands dealt from ``(seed, hand number)``."""
        from .match import Match

        return Match(self, seed, dealer, totals)

    def match_hand(self, match):
        """The State of the match's next hand, with the match's score in it where the game's state
        has room for it (``MATCH_TOTALS``, ``MATCH_TARGET``: the agents bid by it)."""
        state = self.new_hand(match.seed, match.dealer, match.hand_number)
        k = self.kernels
        if hasattr(k, "MATCH_TARGET"):
            s = state.array
            s[k.MATCH_TOTALS:k.MATCH_TOTALS + self.players] = match.totals
            s[k.MATCH_TARGET] = self.options["target"]
            if hasattr(k, "MATCH_BID_ONLY"):
                s[k.MATCH_BID_ONLY] = self.options.get("go_out") == "bid_only"
        return state

    def match_after_hand(self, match, state) -> None:
        """Book a finished hand (``match.totals`` already include its scores)."""
        match.hands_played += 1

    def match_next_dealer(self, match, state) -> int:
        """The dealer of the hand after ``state``: the seat left of its dealer."""
        return (match.dealer + 1) % self.players

    def match_over(self, match) -> bool:
        raise NotImplementedError

    def match_winners(self, match) -> list[int]:
        """The seats with the best total (ties share)."""
        best = max(match.totals)
        return [seat for seat, total in enumerate(match.totals) if total == best]
