"""Cards, tricks and decisions as people read them: one implementation for the hand records
(``records``) and the game in the terminal (``play``).

A seat's cards are shown trumps first, highest first, then the other suits in suit order
(C D H S), highest first. The order comes from each game's own tables (``EFFECTIVE`` and
``POWER`` in ``sim/<game>.py``, read for the trump in force); before trump is known the cards
go by suit (Fifty-five's in their plain order), with the cards that are trumps whatever is named
(Fifty-five's A♥, Shmear's joker) in front.

>>> import tricksim
>>> game = tricksim.make_game("sheepshead")
>>> format_hand(game, "7C AC QH JD 9H TD TH QC")
'QC QH JD TD  AC 7C  TH 9H'
>>> format_hand(tricksim.make_game("fiftyfive"), "2C AC JC 5H KH AH", trump="C")
'JC AH AC 2C  KH 5H'
>>> format_trick(2, 1, ["QC", "7D", "AD", "8D", "TD"], 3, seat_names(5, you=0))
'trick 2: seat 1 QC, seat 2 7D, seat 3 AD, seat 4 8D, you TD; seat 3 wins'
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import SUITS, CardSet, card_label, parse_card
from .sim import bluke, fiftyfive, sheepshead, smear
from .sim.actions import CARD_BASE
from .sim.kernels import ALWAYS_WINS

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
HIDDEN_CARD_VERBS = ("bury", "discard", "under")  # card actions taken face down: others never see the card


def _from_tables(deck: Iterable[int], effective, power) -> dict[int, tuple[int, int]]:
    """Each card's ``(group, strength)`` under one trump's tables: group 0 for the cards that
    beat any lead (trumps; Bluke's blukes above them), else 1 + its effective suit."""
    return {int(c): (0, int(power[c])) if power[c] >= ALWAYS_WINS else (1 + int(effective[c]), int(power[c]))
            for c in deck}


def _keys(game, trump: str | None) -> dict[int, tuple[int, int]]:
    """``(group, strength)`` of every card of ``game``'s deck: shown by group, strongest first."""
    t = None if trump is None else SUITS.index(trump.upper())
    if game.name == "sheepshead":  # trumps are fixed
        return _from_tables(sheepshead.DECK, sheepshead.EFFECTIVE, sheepshead.POWER)
    if game.name == "fiftyfive":
        K = fiftyfive
        if t is not None:
            return _from_tables(K.DECK, K.EFFECTIVE[t], K.POWER[t])
        keys = {K.ACE_OF_HEARTS: (0, 0)}  # a trump whatever is named; each suit in its plain order
        for suit, order in enumerate(K.PLAIN_ORDERS):
            keys.update({int(c): (1 + suit, -i) for i, c in enumerate(order) if c != K.ACE_OF_HEARTS})
        return keys
    if game.name == "bluke":  # None: a turned bluke, no trump
        row = bluke.NO_TRUMP if t is None else t
        return _from_tables(range(bluke.NUM_CARDS), bluke.EFFECTIVE[row], bluke.POWER[row])
    deck = [c for c in range(54) if int(smear.DECK_MASKS[game.variant]) >> c & 1]  # shmear, nesmear
    if t is not None:
        row = game.variant * 4 + t
        return _from_tables(deck, smear.EFFECTIVE[row], smear.POWER[row])
    return {c: (0, 0) if c == smear.JOKER else (1 + c // 13, c % 13) for c in deck}  # the joker: always a trump


def card_order(game, trump: str | None = None) -> list[int]:
    """Every card of ``game``'s deck in display order, for the trump suit ``trump`` (a letter of
    ``C D H S``; None before trump is known, and for Bluke a hand with no trump). Sheepshead's
    trumps are fixed: ``trump`` is ignored."""
    keys = _keys(game, trump)
    return sorted(keys, key=lambda c: (keys[c][0], -keys[c][1]))


def sort_cards(game, cards, trump: str | None = None) -> list[str]:
    """The labels of ``cards`` (labels, a label string, indices or a CardSet) in display order."""
    keys = _keys(game, trump)
    return [card_label(c) for c in sorted(CardSet(cards), key=lambda c: (keys[c][0], -keys[c][1]))]


def sort_actions(game, actions: list[int], trump: str | None = None) -> list[int]:
    """Action ids in menu order: those naming no card first (by id), then the card actions in the
    order the cards are shown."""
    rank = {c: i for i, c in enumerate(card_order(game, trump))}
    return sorted(actions, key=lambda a: (1, rank[(a - CARD_BASE) % 54], a) if a >= CARD_BASE else (0, a, 0))


def format_hand(game, cards, trump: str | None = None) -> str:
    """``cards`` in display order, two spaces between the trumps and each other suit."""
    keys = _keys(game, trump)
    out, last = [], None
    for label in sort_cards(game, cards, trump):
        group = keys[parse_card(label)][0]
        if out and group != last:
            out.append("")
        out.append(label)
        last = group
    return " ".join(out)


def trump_name(trump: str | None) -> str:
    return SUIT_NAMES.get(trump, "no trump") if trump else "no trump"


def seat_names(players: int, you: int | None = None) -> list[str]:
    """``seat 0``, ``seat 1`` … with ``you`` for the person's seat."""
    return ["you" if p == you else f"seat {p}" for p in range(players)]


def trick_seats(leader: int, count: int, players: int) -> list[int]:
    """The seats that played a trick's first ``count`` cards, from ``leader`` clockwise."""
    return [(leader + k) % players for k in range(count)]


def format_trick(number: int, leader: int, cards: list[str], winner: int | None, names: list[str]) -> str:
    """One trick: who played which card, in play order, and who won it (None: still open)."""
    seats = trick_seats(leader, len(cards), len(names))
    played = ", ".join(f"{names[p]} {c}" for p, c in zip(seats, cards))
    end = "" if winner is None else f"; {names[winner]} {'win' if names[winner] == 'you' else 'wins'}"
    return f"trick {number}: {played or names[leader] + ' to lead'}{end}"


def public_label(game, label: str) -> str:
    """What the other seats learn of ``label``: a card buried, discarded or set aside face down
    stays hidden, and so does NE Smear's trump until the bidder's first lead."""
    verb, _, arg = label.partition(" ")
    if verb in HIDDEN_CARD_VERBS:
        return f"{verb} a card"
    if verb == "trump" and game.name == "nesmear":
        return "trump (named in secret: the first lead shows it)"
    return label


def format_decision(name: str, label: str) -> str:
    """One decision: who took it and the action's label."""
    return f"{name}: {label}"


def format_scores(scores: list[int], names: list[str]) -> str:
    """``seat 0 +2, seat 1 -1, seat 2 0`` …"""
    return ", ".join(f"{name} {score:+d}" if score else f"{name} 0" for name, score in zip(names, scores))


_SEAT_KEYS = ("picker", "partner", "bidder", "best_trump_seat")
_TEAM_KEYS = ("high", "low", "jack", "jick", "joker", "game")


def format_result(game, result: dict, names: list[str]) -> str:
    """A finished hand's ``State.result()`` in one line: seats by name, points by team."""
    parts = []
    for key, value in result.items():
        if key in ("dealer", "scores") or value is None or value is False:
            continue
        if key in _SEAT_KEYS:
            text = names[value]
        elif key in _TEAM_KEYS and isinstance(value, int) and not isinstance(value, bool):
            text = team_name(game, value)
        elif key == "trump":
            text = trump_name(value)
        elif value is True:
            text = "yes"
        elif isinstance(value, list):
            text = " ".join("-" if v is None else str(v) for v in value)
        else:
            text = str(value)
        parts.append(f"{key.removesuffix('_seat').replace('_', ' ')}: {text}")
    return ", ".join(parts)


def team_name(game, team: int) -> str:
    """Team ``team`` (its lowest seat) as its seats: ``seats 0+3``."""
    k = game.teams
    return "seats " + "+".join(str(p) for p in range(team, game.players, k))


def teams_line(game) -> str | None:
    """``teams: seats 0+3, seats 1+4, …`` for a game with fixed teams, else None."""
    k = game.teams
    if k <= 1:
        return None
    return "teams: " + ", ".join(team_name(game, team) for team in range(k))
