"""Sheepshead's Python side: options, checked deals, records and how a hand reads.

The rules themselves live once, in ``sheepshead.py``; what a seat may see, in ``obs_sheepshead.py``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..cards import card_label, cards_of, parse_card
from ..display import from_tables, played_cards, tricks_text
from ..errors import OptionError
from . import sheepshead as K
from .game import Game, Option, max_hands_option, nullable_column
from .kernels import new_rng
from .state import State


CALLABLE = ["AC", "AS", "AH", "TC", "TS", "TH"]  # the cards a picker may call
CALLABLE_CODE = np.full(55, -1, dtype=np.int64)  # card index (-1: none) -> category code
for _code, _label in enumerate(CALLABLE):
    CALLABLE_CODE[parse_card(_label)] = _code


class Sheepshead(Game):
    """Five-handed call-an-ace Sheepshead (docs/rules.md, Sheepshead)."""

    name = "sheepshead"
    title = "Sheepshead"
    kernels = K
    OPTIONS = {
        "players": Option(5, (5,), "seats at the table (call-an-ace is five-handed)"),
        "no_call": Option("alone", ("alone", "unknown"), "picker with no legal call: alone or the unknown"),
        "partner": Option("called_ace", ("called_ace", "jack_of_diamonds"), "who the partner is"),
        "no_pick": Option("leaster", ("leaster", "doubler", "forced"), "when everybody passes"),
        "double_on_bump": Option(False, (False, True), "every loss is doubled"),
        "hands": Option(10, (), "a whole number of hands in a match, a positive multiple of 5"),
        "max_hands": max_hands_option(500),
    }

    def __init__(self, **options):
        super().__init__(**options)
        hands = self.options["hands"]
        if hands <= 0 or hands % K.PLAYERS:
            raise OptionError(f"sheepshead: hands = {hands} is not allowed; it must be a positive multiple of 5")
        if self.options["max_hands"] < hands:
            raise OptionError(f"sheepshead: max_hands = {self.options['max_hands']} is not allowed with hands = "
                              f"{hands}; the match's deals need max_hands >= hands")
        o = self.options
        self.option_array = np.array(
            [
                ("alone", "unknown").index(o["no_call"]),
                ("called_ace", "jack_of_diamonds").index(o["partner"]),
                ("leaster", "doubler", "forced").index(o["no_pick"]),
                int(o["double_on_bump"]),
            ],
            dtype=np.int64,
        )

    def lowest_score(self) -> int:
        """The picker's loss alone without a trick (doubled on the bump if so played), doubled
        again in a doubler's play-off hand; a leaster costs 1.

        >>> Sheepshead().lowest_score(), Sheepshead(no_pick="doubler", double_on_bump=True).lowest_score()
        (-12, -48)
        """
        bump = self.options["double_on_bump"]
        units = [u for tricks in range(K.NUM_TRICKS + 1) for points in range(121) for alone in (False, True)
                 for u in K.picker_units.py_func(points, tricks, alone, bump)[:3]]
        factor = 2 if self.options["no_pick"] == "doubler" else 1
        return min(-1, min(units)) * factor

    # --- deals ---------------------------------------------------------------

    def new_hand(self, seed: int, dealer: int = 0, hand: int = 0, doubled: bool = False) -> State:
        """A random deal, reproducible from ``(seed, hand)``; ``doubled`` for a doubler play-off."""
        self._check_seat(dealer)
        s = np.empty(K.STATE_SIZE, dtype=np.int64)
        K.deal_random(s, int(seed), int(hand), int(dealer), self.option_array, int(doubled), new_rng())
        return State(self, s)

    DEAL_FLAGS = ("doubled",)

    def rest(self, s: np.ndarray) -> list[int]:
        return cards_of(int(s[K.BLIND]))

    def rest_parts(self, rest: list[str]) -> list[tuple[str, list[str]]]:
        return [("blind", rest)] if rest else []

    def deal_flags(self, s: np.ndarray) -> dict[str, bool]:
        return {"doubled": bool(s[K.DOUBLED])}

    def deal(self, hands, rest, dealer: int = 0, doubled: bool = False) -> State:
        """A hand-made deal: five hands of 6 cards in seat order and the 2-card blind."""
        self._check_seat(dealer)
        parsed, blind = self._check_deal(hands, rest, [K.HAND_SIZE] * K.PLAYERS, 2, K.DECK)
        s = np.empty(K.STATE_SIZE, dtype=np.int64)
        K.reset(s, int(dealer), self.option_array, int(doubled))
        for seat, cards in enumerate(parsed):
            for c in cards:
                s[K.HANDS + seat] |= 1 << c
        for c in blind:
            s[K.BLIND] |= 1 << c
        return State(self, s)

    # --- how a hand reads (tricksim.display) ---------------------------------

    def card_keys(self, trump: int | None) -> dict[int, tuple[int, int]]:
        return from_tables(K.DECK, K.EFFECTIVE, K.POWER)  # the trumps are fixed

    def plays_alone(self, view: dict) -> bool:
        """Whether the seat of ``view`` knows that the picker plays alone: he called no card (said
        ``alone``), or he played the jack of diamonds himself (``partner = jack_of_diamonds``), or
        the hand is over and no partner is shown."""
        if view["phase"] == "over":
            return view["partner"] is None
        if self.options["partner"] == "jack_of_diamonds":
            return "JD" in [c for p, c in played_cards(view, self.players) if p == view["picker"]]
        return view["called"] is None and view["phase"] == "play"

    def known_side(self, view: dict) -> list[int]:
        """The picker and his partner, or the defenders, once the partner is known to the seat (it is
        the partner, the partner's card has been played, or the picker plays alone); else the seat."""
        seat, picker, partner = view["seat"], view["picker"], view["partner"]
        if picker is None or (partner is None and not self.plays_alone(view)):
            return [seat]
        side = [picker] + ([] if partner is None else [partner])
        if seat not in side:
            side = [p for p in range(self.players) if p not in side]
        return [seat] + [p for p in side if p != seat]

    def count_line(self, view: dict, side: list[int], won: int, names: list[str]) -> str:
        text = f"{sum(view['points_taken'][p] for p in side)} card points in {tricks_text(won)}"
        if view["buried"]:
            text += f" (the bury: {sum(int(K.POINTS[parse_card(c)]) for c in view['buried'])} more)"
        return text

    def public_line(self, view: dict, names: list[str]) -> str | None:
        picker, partner = view["picker"], view["partner"]
        if picker is None:
            return "nobody picked" if view["phase"] in ("play", "over") else None
        parts = [f"picker: {names[picker]}"]
        if self.plays_alone(view):
            parts.append("alone")
        elif view["called"]:
            parts.append(f"called {view['called']}")
        if partner is not None:
            parts.append(f"partner: {names[partner]}")
        return ", ".join(parts)

    def result(self, s: np.ndarray) -> dict:
        picker = int(s[K.PICKER])
        partner = int(s[K.PARTNER])
        outcome = K.OUTCOME_NAMES[int(s[K.OUTCOME])]
        called = int(s[K.CALLED])
        if self.options["partner"] == "jack_of_diamonds":
            called = -1  # nobody calls: the jack of diamonds is the partner's card
        return {
            "dealer": int(s[K.DEALER]),
            "picker": None if picker < 0 else picker,
            "partner": None if partner < 0 else partner,
            "called": None if called < 0 else card_label(called),
            "alone": picker >= 0 and partner < 0,
            "leaster": outcome == "leaster",
            "thrown_in": outcome == "thrown_in",
            "picker_points": int(s[K.SIDE_POINTS]) if outcome in ("win", "loss") else None,
            "outcome": outcome,
            "multiplier": int(s[K.MULTIPLIER]),
            "doubled": bool(s[K.DOUBLED]),
            "scores": self.scores(s),
        }

    def frame(self, raw: np.ndarray, seed: int, first: int) -> pd.DataFrame:
        """The batch loop's rows (columns ``kernels.RECORD``) as a DataFrame, one row per hand."""
        col = {name: raw[:, i] for i, name in enumerate(K.RECORD)}
        outcome = pd.Categorical.from_codes(col["outcome"] - 1, ["win", "loss", "leaster", "thrown_in"])
        picked = col["picker"] >= 0
        called = col["called"] if self.options["partner"] == "called_ace" else np.full(len(raw), -1)
        frame = {
            "seed": np.full(len(raw), seed, dtype=np.int64),
            "hand": np.arange(first, first + len(raw), dtype=np.int64),
            "dealer": col["dealer"].astype(np.int8),
            "picker": nullable_column(col["picker"], ~picked, np.int8),
            "partner": nullable_column(col["partner"], col["partner"] < 0, np.int8),
            "called": pd.Categorical.from_codes(CALLABLE_CODE[called], CALLABLE),
            "alone": picked & (col["partner"] < 0),
            "picker_points": nullable_column(col["picker_points"], ~picked, np.int16),
            "outcome": outcome,
            "multiplier": col["multiplier"].astype(np.int8),
        }
        for p in range(K.PLAYERS):
            frame[f"score_{p}"] = col[f"score_{p}"].astype(np.int16)
        return pd.DataFrame(frame)

    # --- matches -----------------------------------------------------------------

    def match_hand(self, match) -> State:
        return self.new_hand(match.seed, match.dealer, match.hand_number, doubled=match.pending_doubles > 0)

    def match_after_hand(self, match, state: State) -> None:
        r = state.result()
        if r["thrown_in"]:
            match.pending_doubles += 1
            return
        match.hands_played += 1
        if r["doubled"]:
            match.pending_doubles -= 1

    def match_over(self, match) -> bool:
        return match.hands_played >= self.options["hands"]
