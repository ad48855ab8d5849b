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
>>> legend(tricksim.make_game("bluke"))
'cards: rank then suit (T is the ten; C clubs, D diamonds, H hearts, S spades); HJ the high bluke, LJ the low bluke'
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import SUITS, CardSet, card_label, parse_card
from .sim.actions import CARD_BASE
from .sim.kernels import ALWAYS_WINS

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def from_tables(deck: Iterable[int], effective, power) -> dict[int, tuple[int, int]]:
    """Each card's ``(group, strength)`` under one trump's tables: group 0 for the cards that
    beat any lead (trumps; Bluke's blukes above them), else 1 + its effective suit (a game's
    ``Game.card_keys`` from its ``EFFECTIVE`` and ``POWER``)."""
    return {int(c): (0, int(power[c])) if power[c] >= ALWAYS_WINS else (1 + int(effective[c]), int(power[c]))
            for c in deck}


def _keys(game, trump: str | None) -> dict[int, tuple[int, int]]:
    """``(group, strength)`` of every card of ``game``'s deck: shown by group, strongest first."""
    return game.card_keys(None if trump is None else SUITS.index(trump.upper()))


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


def legend(game) -> str:
    """How the cards are labelled, the jokers of the games that use them included."""
    suits = ", ".join(f"{letter} {name}" for letter, name in SUIT_NAMES.items())
    return f"cards: rank then suit (T is the ten; {suits})" + (f"; {game.JOKERS}" if game.JOKERS else "")


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
    """What the other seats learn of ``label`` (``Game.public_label``): a card buried, discarded or
    set aside face down stays hidden, and so does NE Smear's trump until the bidder's first lead."""
    return game.public_label(label)


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


# --- what a seat may count, and the table as a seat sees it ------------------------------


def played_cards(view: dict, players: int) -> list[tuple[int, str]]:
    """``(seat, card label)`` of every card played so far in ``view`` (``State.observe``), in order."""
    out = [(p, c) for leader, cards, _ in view["tricks"]
           for p, c in zip(trick_seats(leader, len(cards), players), cards)]
    current = view["current_trick"]
    if current:
        leader = (view["to_act"] - len(current)) % players
        out += list(zip(trick_seats(leader, len(current), players), current))
    return out


def known_side(game, view: dict) -> list[int]:
    """The seats that the seat of ``view`` knows to score with it this hand, itself first
    (``Game.known_side``): its team (the smears, Fifty-five with ``teams``); in Sheepshead the
    picker and his partner, or the defenders, once the partner is known to it; otherwise the seat
    alone."""
    return game.known_side(view)


def team_side(game, seat: int) -> list[int]:
    """``seat`` and the other seats of its fixed team, if the game has teams."""
    k = game.teams
    return [seat] + [p for p in range(game.players) if k > 1 and p != seat and p % k == seat % k]


def join_and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def tricks_text(n: int) -> str:
    return f"{n} trick" + ("" if n == 1 else "s")


def format_count(game, view: dict, names: list[str]) -> str | None:
    """What the seat of ``view`` (``State.observe``) may count of its side's take so far, in one
    line; None before the first trick is over. It reads only the seat's view: at the table the
    tricks taken are public and a player may remember the cards of each trick, so each game counts
    what its players count (``Game.count_line``):

    * Sheepshead: the card points of the tricks won by the side as far as the seat knows it
      (``known_side``: until the called card falls, a secret partner's tricks are not counted,
      and a defender counts only his own); to the picker, also the points of his bury (they
      count for his side once it takes a trick).
    * Fifty-five: the side's points as the game counts them (5 a trick, the best-trump bonus once
      the hand is over), its bid if it is the bidder's, and the best trump played so far.
    * Shmear, NE Smear: the points the team has already won (High and Low by who played the card,
      not with ``high_low = in_play``, where they wait for the end; Jack, Jick and the joker by who
      won the trick holding it) and the game points in the tricks it won (NE Smear's bidder adds
      his own discards; Game itself is decided at the end).
    * Bluke: the seat's tricks taken, and its bid.
    """
    tricks = view["tricks"]
    if not tricks:
        return None
    seat, side = view["seat"], known_side(game, view)
    won = sum(winner in side for _, _, winner in tricks)
    if len(side) == 1:
        who = names[seat]
    elif game.teams > 1:
        who = team_name(game, seat % game.teams)
    else:
        who = join_and([names[p] for p in side])
    return f"{who}: {game.count_line(view, side, won, names)}"


def bidding_line(game, view: dict, names: list[str]) -> str | None:
    """Every seat's last call from eldest on, and the trump once the table knows it (the games
    with a bidding round and no turned card)."""
    n = game.players
    order = [(view["dealer"] + 1 + i) % n for i in range(n)]  # from eldest
    calls = [f"{names[p]} {view['calls'][p]}" for p in order if view["calls"][p]]
    parts = ([f"bidding: {', '.join(calls)}"] if calls else []) + ([f"trump: {trump_name(view['trump'])}"]
                                                                  if view["trump"] else [])
    return "; ".join(parts) or None


def format_table(game, view: dict, names: list[str], scores: list[int] | None = None) -> list[str]:
    """The table as the seat of ``view`` (``State.observe``) sees it, in a few lines: the phase and
    the seat to act, its hand when it is to act, what the bidding made public, the tricks won so
    far, the trick in play, and ``scores`` (once the hand is over)."""
    to_act, tricks = view["to_act"], view["tricks"]
    lines = [f"{game.name}, " + ("hand over" if to_act is None else f"{view['phase']} phase, {names[to_act]} to act")]
    if to_act is not None:
        lines.append(f"hand: {format_hand(game, view['hand'], view.get('trump'))}")
    public = game.public_line(view, names)  # what the bidding made public
    if public:
        lines.append(public)
    if tricks:
        won = [sum(winner == p for _, _, winner in tricks) for p in range(game.players)]
        lines.append("tricks won: " + ", ".join(f"{name} {k}" for name, k in zip(names, won)))
    if view["current_trick"]:
        leader = (to_act - len(view["current_trick"])) % game.players
        lines.append(format_trick(len(tricks) + 1, leader, view["current_trick"], None, names))
    if scores is not None:
        lines.append(f"scores: {format_scores(scores, names)}")
    return lines
