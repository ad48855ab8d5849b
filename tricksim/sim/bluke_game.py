"""Bluke's Python side: options, checked deals, records and how a hand reads.

The rules themselves live once, in ``bluke.py``; what a seat may see, in ``obs_bluke.py``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..cards import CardSet, cards_of
from ..display import from_tables, trump_name, tricks_text
from ..errors import DealError, OptionError
from . import bluke as K
from .game import Game, Option, max_hands_option
from .kernels import new_rng
from .state import State

TRUMP_NAMES = ["C", "D", "H", "S"]  # the trump column's categories; no trump is NA


class Bluke(Game):
    """Bluke, 2 to 10 players, 54 cards, a match of 25 hands (docs/rules.md, Bluke).

    >>> game = Bluke(players=3)
    >>> state = game.deal(hands=["AH KH", "5H LJ", "3H 4S"], rest="2S " + " ".join(
    ...     c for c in "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD "
    ...     "2H 4H 6H 7H 8H 9H TH JH QH 3S 5S 6S 7S 8S 9S TS JS QS KS AS HJ".split()), dealer=2)
    >>> state.current_player, state.legal_labels(), state.result()["trump"]
    (0, ['bid 1', 'bid 2'], 'S')
    >>> for label in ["bid 1", "bid 1", "bid 1", "play AH"]:
    ...     _ = state.apply(label)
    >>> state.legal_labels()
    ['play 5H', 'play LJ']
    """

    name = "bluke"
    title = "Bluke"
    kernels = K
    OPTIONS = {
        "players": Option(4, tuple(range(K.MIN_PLAYERS, K.MAX_PLAYERS + 1)), "seats at the table"),
        "min_bid": Option(1, (1, 0), "the lowest bid: 1, or 0 to allow bidding no trick"),
        "hook": Option(False, (False, True), "the dealer may not make the bids total the hand size"),
        "bluke_lead": Option("free", ("free", "next_sets_suit"), "after a bluke lead: play anything, "
                             "or follow the first non-bluke card played"),
        "max_hands": max_hands_option(500),
    }

    def __init__(self, **options):
        super().__init__(**options)
        o = self.options
        self.option_array = np.array(
            [o["players"], o["min_bid"], int(o["hook"]), ("free", "next_sets_suit").index(o["bluke_lead"])],
            dtype=np.int64,
        )
        self.max_hand = K.max_hand(self.players)
        self.match_hands = int(K.MATCH_HANDS[self.players])  # 2 * max_hand - 1: 25 for 2-4 players
        if o["max_hands"] < self.match_hands:
            raise OptionError(f"bluke: max_hands = {o['max_hands']} is not allowed with players = {self.players}; "
                              f"the match's {self.match_hands} deals need max_hands >= {self.match_hands}")

    def hand_size(self, hand: int) -> int:
        """Cards a seat in match hand number ``hand`` (0 .. match_hands - 1)."""
        return int(K.HAND_SIZES[self.players, hand])

    def lowest_score(self) -> int:
        """A failed bid of the largest hand: -130 with 2 to 4 players.

        >>> Bluke(players=4).lowest_score(), Bluke(players=8).lowest_score()
        (-130, -60)
        """
        sizes = range(self.max_hand + 1)
        return min(K.bid_score.py_func(bid, took) for bid in sizes for took in sizes)

    # --- deals ---------------------------------------------------------------

    def new_hand(self, seed: int, dealer: int = 0, hand: int = 0) -> State:
        """A random deal of match hand number ``hand`` (which sets the hand size),
        reproducible from ``(seed, hand)``."""
        self._check_seat(dealer)
        if not 0 <= int(hand) < self.match_hands:
            raise ValueError(f"bluke: hand {hand!r} is not a match hand number (0..{self.match_hands - 1})")
        s = np.empty(K.STATE_SIZE, dtype=np.int64)
        K.deal_random(s, int(seed), int(hand), int(hand), int(dealer), self.option_array, new_rng())
        return State(self, s)

    def rest(self, s: np.ndarray) -> list[int]:
        return [int(s[K.TURNED])] + cards_of(int(s[K.REST]))

    def rest_parts(self, rest: list[str]) -> list[tuple[str, list[str]]]:
        return [(name, cards) for name, cards in (("turned", rest[:1]), ("undealt", rest[1:])) if cards]

    def deal(self, hands, rest, dealer: int = 0) -> State:
        """A hand-made deal: the hands in seat order (all of one size, the hand size)
        and ``rest`` = the turned card first, then the other undealt cards."""
        self._check_seat(dealer)
        size = len(CardSet(hands[0])) if len(hands) else 0
        if not 1 <= size <= self.max_hand:
            raise DealError(f"bluke: hands of {size} cards; {self.players} players hold 1..{self.max_hand}")
        undealt = K.NUM_CARDS - self.players * size
        parsed, rest_cards = self._check_deal(hands, rest, [size] * self.players, undealt, np.arange(K.NUM_CARDS))
        s = np.empty(K.STATE_SIZE, dtype=np.int64)
        K.reset(s, int(dealer), self.max_hand - size, size, self.option_array)
        for seat, cards in enumerate(parsed):
            for c in cards:
                s[K.HANDS + seat] |= 1 << c
        others = 0
        for c in rest_cards[1:]:
            others |= 1 << c
        K.set_turned(s, rest_cards[0], others)
        return State(self, s)

    # --- reading a state -------------------------------------------------------

    def trump(self, s: np.ndarray) -> str | None:
        t = int(s[K.TRUMP])
        return None if t == K.NO_TRUMP else TRUMP_NAMES[t]

    def bids(self, s: np.ndarray) -> list[int | None]:
        return [None if b < 0 else int(b) for b in s[K.BIDS:K.BIDS + self.players]]

    def taken(self, s: np.ndarray) -> list[int]:
        return [int(x) for x in s[K.TAKEN:K.TAKEN + self.players]]

    # --- how a hand reads (tricksim.display) ---------------------------------

    JOKERS = "HJ the high bluke, LJ the low bluke"

    def card_keys(self, trump: int | None) -> dict[int, tuple[int, int]]:
        row = K.NO_TRUMP if trump is None else trump  # None: a turned bluke, no trump
        return from_tables(range(K.NUM_CARDS), K.EFFECTIVE[row], K.POWER[row])

    def count_line(self, view: dict, side: list[int], won: int, names: list[str]) -> str:
        return f"{tricks_text(won)} taken, bid {view['bids'][view['seat']]}"

    def public_line(self, view: dict, names: list[str]) -> str | None:
        bids = [f"{names[p]} {b}" for p, b in enumerate(view["bids"]) if b is not None]
        return f"turned: {view['turned']} ({trump_name(view['trump'])})" + (f"; bids: {', '.join(bids)}" if bids
                                                                              else "")

    def result(self, s: np.ndarray) -> dict:
        return {
            "dealer": int(s[K.DEALER]),
            "hand_size": int(s[K.HAND_SIZE]),
            "trump": self.trump(s),
            "bids": self.bids(s),
            "taken": self.taken(s),
            "scores": self.scores(s),
        }

    def frame(self, raw: np.ndarray, seed: int, first: int) -> pd.DataFrame:
        """The batch loop's rows (columns ``kernels.RECORD``) as a DataFrame, one row
        per hand; seats past ``players`` are left out."""
        col = {name: raw[:, i] for i, name in enumerate(K.RECORD)}
        frame = {
            "seed": np.full(len(raw), seed, dtype=np.int64),
            "hand": np.arange(first, first + len(raw), dtype=np.int64),
            "dealer": col["dealer"].astype(np.int8),
            "match_hand": col["match_hand"].astype(np.int8),
            "hand_size": col["hand_size"].astype(np.int8),
            "trump": pd.Categorical.from_codes(col["trump"], TRUMP_NAMES),
        }
        for kind in ("bid", "taken"):
            for p in range(self.players):
                frame[f"{kind}_{p}"] = col[f"{kind}_{p}"].astype(np.int8)
        for p in range(self.players):
            frame[f"score_{p}"] = col[f"score_{p}"].astype(np.int16)
        return pd.DataFrame(frame)

    # --- matches -----------------------------------------------------------------

    def match_hand(self, match) -> State:
        return self.new_hand(match.seed, match.dealer, match.hands_played)

    def match_over(self, match) -> bool:
        return match.hands_played >= self.match_hands
