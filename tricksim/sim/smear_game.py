"""The Python side of the two smears, Shmear and NE Smear: options, checked
deals, records, how a hand reads and the matches' end rules.

The rules of a hand live once, in ``smear.py`` (what a seat may see, in ``obs_smear.py``); what
the games share here is written once in ``SmearGame``.

>>> import tricksim
>>> game = tricksim.make_game("nesmear", widow=0)
>>> state = game.deal(hands=["AH KH QH JH TH 9H", "AS KS QS JS TS 9S", "AD KD QD JD TD 9D",
...                          "AC KC QC JC TC 9C"], rest="8S 7S 8H 7H 8D 7D 8C 7C", dealer=0)
>>> for label in ["bid 4", "trump S"]:
...     _ = state.apply(label)
>>> state.observe(2)["trump"] is None  # named in private
True
>>> for label in ["play AS", "play AD", "play AC", "play AH"]:
...     _ = state.apply(label)
>>> state.tricks()
[(1, ['AS', 'AD', 'AC', 'AH'], 1)]
>>> state.observe(2)["trump"]  # the first lead has shown it
'S'
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..cards import SUITS, CardSet, parse_card
from ..display import bidding_line, from_tables, played_cards, tricks_text
from . import smear as K
from .game import Game, Option, max_hands_option, nullable_column
from .state import State


class SmearGame(Game):
    """What Shmear and NE Smear share: bids for points, team scores, the deal's ``rest``."""

    kernels = K
    variant = K.SHMEAR
    points: tuple[str, ...] = K.POINT_NAMES  # the points this game scores

    def __init__(self, **options):
        super().__init__(**options)
        o = self.options
        array = np.zeros(K.OPTION_SIZE, dtype=np.int64)
        array[K.O_VARIANT] = self.variant
        array[K.O_PLAYERS] = self.players
        array[K.O_TEAMS] = self.teams
        array[K.O_MAY_TRUMP] = int(o.get("may_trump", True))  # NE Smear: a trump is always playable
        array[K.O_WIDOW] = o.get("widow", 0)
        array[K.O_HIGH_LOW] = ("fixed", "in_play").index(o.get("high_low", "fixed"))
        self.option_array = array

    @property
    def teams(self) -> int:
        return self.options.get("teams", 2)

    def team(self, seat: int) -> int:
        """The team of ``seat``, named by its lowest seat."""
        return seat % self.teams

    def lowest_score(self) -> int:
        """A failed highest bid (a team that did not bid scores its points, never below 0).

        >>> Shmear().lowest_score(), NESmear().lowest_score()
        (-6, -4)
        """
        bids = range(K.MIN_BID[self.variant], K.MAX_BID[self.variant] + 1)
        return min(0, *(K.bidder_score.py_func(0, bid)[0] for bid in bids))

    # --- deals ---------------------------------------------------------------

    def rest(self, s: np.ndarray) -> list[int]:
        undealt = int(K.DECK_MASKS[self.variant]).bit_count() - K.HAND_SIZE * self.players
        return [int(c) for c in s[K.REST_ORDER:K.REST_ORDER + undealt]]

    def deal(self, hands, rest, dealer: int = 0) -> State:
        """A hand-made deal: the hands of 6 cards in seat order, and ``rest``: every other card
        of the deck in order (Shmear: the stock, top first; NE Smear: the widow first)."""
        self._check_seat(dealer)
        deck = np.array([c for c in range(54) if K.DECK_MASKS[self.variant] >> c & 1])
        n = self.players
        parsed, rest_cards = self._check_deal(hands, rest, [K.HAND_SIZE] * n, len(deck) - K.HAND_SIZE * n, deck)
        s = np.empty(K.STATE_SIZE, dtype=np.int64)
        K.reset(s, int(dealer), self.option_array)
        for seat, cards in enumerate(parsed):
            for c in cards:
                s[K.HANDS + seat] |= 1 << c
        for i, c in enumerate(rest_cards):
            s[K.STOCK] |= 1 << c
            s[K.REST_ORDER + i] = c
        return State(self, s)

    # --- reading a state -------------------------------------------------------

    def trump(self, s: np.ndarray) -> str | None:
        t = int(s[K.TRUMP])
        return None if t < 0 else SUITS[t]

    # --- how a hand reads (tricksim.display) ---------------------------------

    def card_keys(self, trump: int | None) -> dict[int, tuple[int, int]]:
        deck = [c for c in range(54) if int(K.DECK_MASKS[self.variant]) >> c & 1]
        if trump is not None:
            row = self.variant * 4 + trump
            return from_tables(deck, K.EFFECTIVE[row], K.POWER[row])
        return {c: (0, 0) if c == K.JOKER else (1 + c // 13, c % 13) for c in deck}  # the joker: always a trump

    def count_line(self, view: dict, side: list[int], won: int, names: list[str]) -> str:
        """The points the side has already won and the game points in its tricks."""
        row = self.variant * 4 + SUITS.index(view["trump"])
        played_by = {parse_card(c): p for p, c in played_cards(view, self.players)}
        won_by = {parse_card(c): winner for _, cards, winner in view["tricks"] for c in cards}
        points = []
        for k, name in enumerate(K.POINT_NAMES[:K.GAME]):
            c = int(K.POINT_CARDS[row, k])
            if k in (K.HIGH, K.LOW):
                holder = None if self.options.get("high_low") == "in_play" else played_by.get(c)
            else:
                holder = won_by.get(c)
            if c >= 0 and holder in side:
                points.append(name)
        taken = int(K.game_points(CardSet(c for c, winner in won_by.items() if winner in side).mask))
        return f"{', '.join(points) or 'no point yet'}; {taken} game points in {tricks_text(won)}"

    def public_line(self, view: dict, names: list[str]) -> str | None:
        return bidding_line(self, view, names)

    def result(self, s: np.ndarray) -> dict:
        outcome = K.OUTCOME_NAMES[int(s[K.OUTCOME])]
        played = outcome in ("made", "failed")
        bidder = int(s[K.BIDDER])
        out = {
            "dealer": int(s[K.DEALER]),
            "bidder": bidder if bidder >= 0 else None,
            "bid": int(s[K.BID]) if bidder >= 0 else None,
            "trump": self.trump(s),
            "outcome": outcome,
            "thrown_in": outcome == "thrown_in",
            "bidder_points": int(s[K.BIDDER_POINTS]) if played else None,
        }
        for name in self.points:
            winner = int(s[K.POINT_WINNER + K.POINT_NAMES.index(name)])
            out[name] = winner if winner >= 0 else None
        out["game_points"] = [int(x) for x in s[K.GAME_POINTS:K.GAME_POINTS + self.teams]]
        out["scores"] = self.scores(s)
        return out

    def frame(self, raw: np.ndarray, seed: int, first: int) -> pd.DataFrame:
        """The batch loop's rows (columns ``kernels.RECORD``) as a DataFrame, one row per hand.
        A point's column holds the team (its lowest seat) that won it, NA for nobody."""
        col = {name: raw[:, i] for i, name in enumerate(K.RECORD)}
        thrown = col["outcome"] == K.OUTCOME_THROWN_IN
        frame = {
            "seed": np.full(len(raw), seed, dtype=np.int64),
            "hand": np.arange(first, first + len(raw), dtype=np.int64),
            "dealer": col["dealer"].astype(np.int8),
            "bidder": nullable_column(col["bidder"], thrown, np.int8),
            "bid": nullable_column(col["bid"], thrown, np.int8),
            "trump": pd.Categorical.from_codes(np.where(thrown, -1, col["trump"]), list(SUITS)),
            "outcome": pd.Categorical.from_codes(col["outcome"] - 1, ["made", "failed", "thrown_in"]),
            "bidder_points": nullable_column(col["bidder_points"], thrown, np.int8),
        }
        for name in self.points:
            frame[name] = nullable_column(col[name], col[name] < 0, np.int8)
        for k in range(self.teams):
            frame[f"game_points_{k}"] = col[f"game_points_{k}"].astype(np.int16)
        for p in range(self.players):
            frame[f"score_{p}"] = col[f"score_{p}"].astype(np.int8)
        return pd.DataFrame(frame)

    # --- matches -----------------------------------------------------------------

    def match_next_dealer(self, match, state: State) -> int:
        """All passed: the same dealer deals again; otherwise the deal passes left."""
        return match.dealer if state.result()["thrown_in"] else (match.dealer + 1) % self.players

    def match_after_hand(self, match, state: State) -> None:
        r = state.result()
        if r["thrown_in"]:
            return
        match.hands_played += 1
        match.winning_team = self.hand_winner(match.totals, r)

    def hand_winner(self, totals: list[int], result: dict) -> int | None:
        """The team that wins the match on a hand with ``result``, given the totals after it."""
        raise NotImplementedError

    def match_over(self, match) -> bool:
        return getattr(match, "winning_team", None) is not None

    def match_winners(self, match) -> list[int]:
        """Every seat of the winning team."""
        return [seat for seat in range(self.players) if self.team(seat) == match.winning_team]


class Shmear(SmearGame):
    """Shmear: 6 players in teams, 53 cards, bids of 3 to 6 points (docs/rules.md, Shmear).

    >>> game = Shmear()
    >>> state = game.new_hand(seed=1, dealer=0)
    >>> state.current_player, state.legal_labels()
    (1, ['pass', 'bid 3', 'bid 4', 'bid 5', 'bid 6'])
    """

    name = "shmear"
    title = "Shmear"
    variant = K.SHMEAR
    OPTIONS = {
        "players": Option(6, (6,), "seats at the table"),
        "teams": Option(3, (3, 2), "3 teams of 2 (seats i, i+3) or 2 teams of 3 (seats i, i+2, i+4)"),
        "may_trump": Option(False, (False, True), "a player may trump even when able to follow suit"),
        "target": Option(21, (), "a positive number of points that wins the match", minimum=1),
        "max_hands": max_hands_option(500),
    }

    JOKERS = "LJ the joker (the lowest trump)"

    def rest_parts(self, rest: list[str]) -> list[tuple[str, list[str]]]:
        return [("stock, top first", rest)] if rest else []

    def hand_winner(self, totals: list[int], result: dict) -> int | None:
        """Teams at the target: the highest total wins; an exact tie goes to the bidding team if
        it is among them, otherwise nobody wins yet and the match goes on."""
        target = self.options["target"]
        reached = [k for k in range(self.teams) if totals[k] >= target]
        if not reached:
            return None
        best = max(totals[k] for k in reached)
        top = [k for k in reached if totals[k] == best]
        if len(top) == 1:
            return top[0]
        bidder_team = self.team(result["bidder"])
        return bidder_team if bidder_team in top else None


class NESmear(SmearGame):
    """Four Point Northeastern Wisconsin Smear: 4 players, 32 cards, bids of 2 to 4 points,
    a widow (docs/rules.md, NE Smear)."""

    name = "nesmear"
    title = "NE Smear"
    variant = K.NESMEAR
    points = ("high", "low", "jack", "game")
    OPTIONS = {
        "players": Option(4, (4,), "seats at the table"),
        "widow": Option(3, (0, 1, 2, 3), "undealt cards the high bidder takes before naming trump"),
        "high_low": Option("fixed", ("fixed", "in_play"), "High and Low: the A and 7 of trumps, or the "
                           "highest and lowest trump played"),
        "target": Option(15, (), "a positive number of points that wins the match", minimum=1),
        "go_out": Option("any", ("any", "bid_only"), "whether a team can win the match on a hand "
                         "where it did not make its own bid"),
        "max_hands": max_hands_option(500),
    }

    def public_label(self, label: str) -> str:
        if label.startswith("trump "):
            return "trump (named in secret: the first lead shows it)"
        return super().public_label(label)

    def count_line(self, view: dict, side: list[int], won: int, names: list[str]) -> str:
        text = super().count_line(view, side, won, names)
        if view["seat"] == view["bidder"] and view["discards"]:  # the bidder counts his own discards
            text += f" and {int(K.game_points(CardSet(view['discards']).mask))} in the discards"
        return text

    def rest_parts(self, rest: list[str]) -> list[tuple[str, list[str]]]:
        widow = self.options["widow"]
        return [(name, cards) for name, cards in (("widow", rest[:widow]), ("undealt", rest[widow:])) if cards]

    def match_after_hand(self, match, state: State) -> None:
        """With ``go_out = bid_only`` the other team's total stops at target - 1 first."""
        r = state.result()
        target = self.options["target"]
        if self.options["go_out"] == "bid_only" and not r["thrown_in"]:
            other = 1 - self.team(r["bidder"])
            if match.totals[other] >= target:
                for seat in range(self.players):
                    if self.team(seat) == other:
                        match.totals[seat] = target - 1
        super().match_after_hand(match, state)

    def hand_winner(self, totals: list[int], result: dict) -> int | None:
        """Teams at the target: one wins; both, the bidding team if it made its bid, else the other."""
        target = self.options["target"]
        reached = [k for k in range(2) if totals[k] >= target]
        if len(reached) == 2:
            bidder_team = self.team(result["bidder"])
            return bidder_team if result["outcome"] == "made" else 1 - bidder_team
        return reached[0] if reached else None
