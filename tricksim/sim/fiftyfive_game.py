"""Fifty-five's Python side: options, checked deals, records, how a hand reads and the match's
first-to-reach rule.

The rules of a hand live once, in ``fiftyfive.py``; what a seat may see, in ``obs_fiftyfive.py``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..cards import SUITS, cards_of, parse_card
from ..display import bidding_line, from_tables, played_cards, tricks_text
from ..errors import OptionError
from . import fiftyfive as K
from .game import Game, Option, max_hands_option, nullable_column
from .kernels import ALWAYS_WINS
from .state import State

BID_VALUES = (10, 15, 20, 25, 60)


def _parse_bid_values(value) -> tuple[int, ...]:
    """``bid_values`` as a tuple of increasing ints; OptionError naming the option otherwise."""
    problem = (
        f"fiftyfive: bid_values = {value!r} is not allowed; it takes increasing bids from 1..30 "
        f"and 60 (at most {K.MAX_BIDS}), as a list or a string such as '10 15 20 25 60'"
    )
    if isinstance(value, str):
        words = value.replace(",", " ").split()
        if not all(w.isdigit() for w in words):
            raise OptionError(problem)
        bids = [int(w) for w in words]
    else:
        try:
            bids = list(value)
        except TypeError:
            raise OptionError(problem) from None
        if not all(isinstance(b, (int, np.integer)) and not isinstance(b, bool) for b in bids):
            raise OptionError(problem)
        bids = [int(b) for b in bids]
    ok = (
        0 < len(bids) <= K.MAX_BIDS
        and all(1 <= b <= 30 or b == 60 for b in bids)
        and all(a < b for a, b in zip(bids, bids[1:]))
    )
    if not ok:
        raise OptionError(problem)
    return tuple(bids)


class FiftyFive(Game):
    """Fifty-five for 2 to 9 players, with a kitty and bidding (docs/rules.md, Fifty-five)."""

    name = "fiftyfive"
    title = "Fifty-five"
    kernels = K
    OPTIONS = {
        "players": Option(5, tuple(range(2, K.MAX_PLAYERS + 1)), "seats at the table (5 cards each, 5 to the kitty)"),
        "bid_values": Option(BID_VALUES, (), "the bids allowed, increasing, e.g. '10 15 20 25 60'"),
        "all_pass": Option("dealer_min", ("dealer_min", "redeal"), "when everybody passes"),
        "exchange": Option(0, (0, 1, 2, 3), "cards each other player may exchange after trump is named"),
        "first_lead": Option("eldest", ("eldest", "bidder"), "who leads the first trick"),
        "teams": Option(0, (0, 2, 3, 4, 5, 6, 7, 8, 9), "0 for every player alone, k teams of seats i, i+k, ..."),
        "target": Option(55, (), "a positive number of points that wins the match", minimum=1),
        "max_hands": max_hands_option(500),
    }

    def __init__(self, **options):
        bids = _parse_bid_values(options.pop("bid_values", BID_VALUES))
        super().__init__(**options)
        self.options["bid_values"] = bids
        o = self.options
        n, k = o["players"], o["teams"]
        if k > 1 and (n % k or k > n):
            raise OptionError(f"fiftyfive: teams = {k} is not allowed with players = {n}; "
                              f"players must be a multiple of teams")
        array = np.zeros(K.OPTION_SIZE, dtype=np.int64)
        array[K.O_PLAYERS] = n
        array[K.O_ALL_PASS] = ("dealer_min", "redeal").index(o["all_pass"])
        array[K.O_EXCHANGE] = o["exchange"]
        array[K.O_FIRST_LEAD] = ("eldest", "bidder").index(o["first_lead"])
        array[K.O_TEAMS] = k
        array[K.O_NUM_BIDS] = len(bids)
        array[K.O_BIDS:K.O_BIDS + len(bids)] = bids
        self.option_array = array

    def side(self, seat: int) -> int:
        """The side (team) of ``seat``: the seat itself, or ``seat % teams``."""
        k = self.options["teams"]
        return seat % k if k > 1 else seat

    def lowest_score(self) -> int:
        """A failed highest bid (a side that did not bid scores its points, never below 0).

        >>> FiftyFive().lowest_score(), FiftyFive(bid_values="10 15 20").lowest_score()
        (-60, -20)
        """
        failed = (K.bidder_score.py_func(0, 0, bid)[0] for bid in self.options["bid_values"])
        return min(0, *failed)

    # --- deals ---------------------------------------------------------------

    def rest(self, s: np.ndarray) -> list[int]:
        """The kitty, then the stock (top first; without an exchange nobody draws, and the kernels
        keep no order)."""
        stock = int(s[K.STOCK])
        order = ([int(c) for c in s[K.STOCK_ORDER:K.STOCK_ORDER + stock.bit_count()]] if self.options["exchange"]
                 else cards_of(stock))
        return cards_of(int(s[K.KITTY])) + order

    def rest_parts(self, rest: list[str]) -> list[tuple[str, list[str]]]:
        parts = [("kitty", rest[:K.KITTY_SIZE]), ("stock, top first", rest[K.KITTY_SIZE:])]
        return [(name, cards) for name, cards in parts if cards]

    def deal(self, hands, rest, dealer: int = 0) -> State:
        """A hand-made deal: ``players`` hands of 5 cards in seat order, and ``rest``: the
        5-card kitty, then the stock in drawing order (all the other cards)."""
        self._check_seat(dealer)
        n = self.players
        parsed, rest_cards = self._check_deal(hands, rest, [K.HAND_SIZE] * n, 52 - K.HAND_SIZE * n, K.DECK)
        s = np.empty(K.STATE_SIZE, dtype=np.int64)
        K.reset(s, int(dealer), self.option_array)
        for seat, cards in enumerate(parsed):
            for c in cards:
                s[K.HANDS + seat] |= 1 << c
        for c in rest_cards[:K.KITTY_SIZE]:
            s[K.KITTY] |= 1 << c
        for i, c in enumerate(rest_cards[K.KITTY_SIZE:]):
            s[K.STOCK] |= 1 << c
            s[K.STOCK_ORDER + i] = c
        return State(self, s)

    # --- how a hand reads (tricksim.display) ---------------------------------

    def card_keys(self, trump: int | None) -> dict[int, tuple[int, int]]:
        if trump is not None:
            return from_tables(K.DECK, K.EFFECTIVE[trump], K.POWER[trump])
        keys = {K.ACE_OF_HEARTS: (0, 0)}  # a trump whatever is named; each suit in its plain order
        for suit, order in enumerate(K.PLAIN_ORDERS):
            keys.update({int(c): (1 + suit, -i) for i, c in enumerate(order) if c != K.ACE_OF_HEARTS})
        return keys

    def count_line(self, view: dict, side: list[int], won: int, names: list[str]) -> str:
        text = f"{sum(view['points_taken'][p] for p in side)} points in {tricks_text(won)}"
        if view["bidder"] in side:
            text += f" (bid {view['bid']})"
        power = K.POWER[SUITS.index(view["trump"])]
        trumps = [(int(power[parse_card(c)]), p, c) for p, c in played_cards(view, self.players)
                  if power[parse_card(c)] >= ALWAYS_WINS]
        if trumps:
            _, p, c = max(trumps)
            text += f"; best trump so far: {c} ({names[p]})"
        return text

    def public_line(self, view: dict, names: list[str]) -> str | None:
        return bidding_line(self, view, names)

    def result(self, s: np.ndarray) -> dict:
        outcome = K.OUTCOME_NAMES[int(s[K.OUTCOME])]
        played = outcome in ("made", "failed")
        bidder = int(s[K.BIDDER])
        trump = int(s[K.TRUMP])
        best = int(s[K.BEST_SEAT])
        return {
            "dealer": int(s[K.DEALER]),
            "bidder": bidder if bidder >= 0 and outcome != "thrown_in" else None,
            "bid": int(s[K.BID]) if bidder >= 0 else None,
            "trump": SUITS[trump] if trump >= 0 else None,
            "bidder_points": int(s[K.BIDDER_POINTS]) if played else None,
            "best_trump_seat": best if best >= 0 else None,
            "outcome": outcome,
            "thrown_in": outcome == "thrown_in",
            "scores": self.scores(s),
        }

    def frame(self, raw: np.ndarray, seed: int, first: int) -> pd.DataFrame:
        """The batch loop's rows (columns ``kernels.RECORD``) as a DataFrame, one row per hand."""
        col = {name: raw[:, i] for i, name in enumerate(K.RECORD)}
        outcome = pd.Categorical.from_codes(col["outcome"] - 1, ["made", "failed", "thrown_in"])
        thrown = col["outcome"] == K.OUTCOME_THROWN_IN
        frame = {
            "seed": np.full(len(raw), seed, dtype=np.int64),
            "hand": np.arange(first, first + len(raw), dtype=np.int64),
            "dealer": col["dealer"].astype(np.int8),
            "bidder": nullable_column(col["bidder"], thrown, np.int8),
            "bid": nullable_column(col["bid"], thrown, np.int8),
            "trump": pd.Categorical.from_codes(np.where(thrown, -1, col["trump"]), list(SUITS)),
            "bidder_points": nullable_column(col["bidder_points"], thrown, np.int8),
            "outcome": outcome,
            "best_trump_seat": nullable_column(col["best_trump_seat"], col["best_trump_seat"] < 0, np.int8),
        }
        for p in range(self.players):
            frame[f"score_{p}"] = col[f"score_{p}"].astype(np.int16)
        return pd.DataFrame(frame)

    # --- matches (docs/rules.md, Fifty-five: Match) ------------------------------

    def first_to_reach(self, before: list[int], state: State) -> list[int]:
        """The sides (lowest seat of each) that reach ``target`` first in the finished hand
        ``state``, from the totals ``before`` it: its tricks replayed in order.

        Every side's points count with the trick that earns them (the best-trump
        bonus with the trick it was played in); the bidding side's count only
        from the trick on which they reach its bid, a 60 only after the last
        trick, and a failed bidder cannot go out. Sides crossing on the same
        trick: the bidding side wins; otherwise the higher total, ties sharing.
        """
        s = state.array
        r = state.result()
        target = self.options["target"]
        if r["thrown_in"]:
            return []
        n = self.players
        bidder_side = self.side(r["bidder"])
        bid = r["bid"]
        made = r["outcome"] == "made"
        best_seat, best_trick = int(s[K.BEST_SEAT]), int(s[K.BEST_TRICK])
        sides = sorted({self.side(p) for p in range(n)})
        running = {q: 0 for q in sides}
        for t, (_, _, winner) in enumerate(state.tricks()):
            running[self.side(winner)] += K.TRICK_POINTS
            if t == best_trick:
                running[self.side(best_seat)] += K.BEST_TRUMP_POINTS
            counted = {}
            for q in sides:
                if q != bidder_side:
                    counted[q] = before[q] + running[q]
                elif made and (bid == 60 and t == K.NUM_TRICKS - 1):
                    counted[q] = before[q] + 60
                elif made and bid != 60 and running[q] >= bid:
                    counted[q] = before[q] + running[q]
            crossing = [q for q, total in counted.items() if total >= target]
            if crossing:
                if bidder_side in crossing:
                    return [bidder_side]
                best = max(counted[q] for q in crossing)
                return [q for q in crossing if counted[q] == best]
        return []

    def match_after_hand(self, match, state: State) -> None:
        match.hands_played += 1
        if getattr(match, "sides_out", None):
            return
        before = [total - score for total, score in zip(match.totals, state.scores())]
        match.sides_out = self.first_to_reach(before, state)

    def match_over(self, match) -> bool:
        return bool(getattr(match, "sides_out", None))

    def match_winners(self, match) -> list[int]:
        """Every seat of the side that reached ``target`` first (sides sharing a tie)."""
        out = set(getattr(match, "sides_out", None) or [])
        return [seat for seat in range(self.players) if self.side(seat) in out]
