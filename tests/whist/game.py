"""Whist's Python side: options, hand-made deals, frames and how a hand reads."""

from __future__ import annotations

import numpy as np
import pandas as pd

from tricksim.cards import SUITS, card_label, parse_cards
from tricksim.display import from_tables, trump_name
from tricksim.errors import DealError
from tricksim.sim.game import Game, Option, max_hands_option
from tricksim.sim.state import State

from . import rules as K


class Whist(Game):
    """Four-handed Whist, two partnerships, the dealer's last card turned for trump (played in
    ``tests/test_sixth_game.py`` once registered)."""

    name = "whist"
    title = "Whist"
    kernels = K
    OPTIONS = {
        "players": Option(4, (4,), "four seats, two partnerships"),
        "target": Option(5, (), "a positive number of points that wins the match", minimum=1),
        "max_hands": max_hands_option(200),
    }
    option_array = np.zeros(1, dtype=np.int64)  # the rules read no option

    @property
    def teams(self) -> int:
        return 2

    def rest(self, s: np.ndarray) -> list[int]:
        """The turned card (which is also in the dealer's hand)."""
        return [int(s[K.TURNED])]

    def rest_parts(self, rest: list[str]) -> list[tuple[str, list[str]]]:
        return [("turned", rest)]

    def deal(self, hands, rest, dealer: int = 0) -> State:
        """A hand-made deal: 13 cards a seat in seat order, and ``rest`` the one card of the
        dealer's hand that is turned for trump."""
        self._check_seat(dealer)
        parsed, _ = self._check_deal(hands, [], [K.NUM_TRICKS] * K.PLAYERS, 0, np.arange(52))
        turned = parse_cards(rest or [])
        if len(turned) != 1 or turned[0] not in parsed[dealer]:
            raise DealError(f"whist: the turned card must be one card of the dealer's hand, got {rest!r}")
        s = np.zeros(K.STATE_SIZE, dtype=np.int64)
        for seat, cards in enumerate(parsed):
            s[K.HANDS + seat] = sum(1 << c for c in cards)
        K.start(s, int(dealer), turned[0])
        return State(self, s)

    def card_keys(self, trump: int | None) -> dict[int, tuple[int, int]]:
        row = 0 if trump is None else trump
        return from_tables(range(52), K.EFFECTIVE[row], K.POWER[row])

    def public_line(self, view: dict, names: list[str]) -> str | None:
        return f"turned: {view['turned']} ({trump_name(view['trump'])})"

    def result(self, s: np.ndarray) -> dict:
        return {"dealer": int(s[K.DEALER]), "trump": SUITS[int(s[K.TRUMP])],
                "tricks": [int(s[K.TAKEN]), int(s[K.TAKEN + 1])], "scores": self.scores(s)}

    def frame(self, raw: np.ndarray, seed: int, first: int) -> pd.DataFrame:
        col = {name: raw[:, i] for i, name in enumerate(K.RECORD)}
        frame = {
            "seed": np.full(len(raw), seed, dtype=np.int64),
            "hand": np.arange(first, first + len(raw), dtype=np.int64),
            "dealer": col["dealer"].astype(np.int8),
            "trump": pd.Categorical.from_codes(col["trump"], list(SUITS)),
            "turned": pd.Categorical([card_label(int(c)) for c in col["turned"]]),
            "odd_tricks": (np.abs(col["tricks_0"] - 6.5) - 0.5).astype(np.int8),
        }
        for side in range(2):
            frame[f"tricks_{side}"] = col[f"tricks_{side}"].astype(np.int8)
        for p in range(K.PLAYERS):
            frame[f"score_{p}"] = col[f"score_{p}"].astype(np.int8)
        return pd.DataFrame(frame)

    def lowest_score(self) -> int:
        return K.side_score(0)  # no trick: the other side's seven odd tricks

    def match_over(self, match) -> bool:
        return max(match.totals) >= self.options["target"]

