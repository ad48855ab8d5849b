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
from .sim import bluke, fiftyfive, sheepshead, smear
from .sim.actions import CARD_BASE
from .sim.kernels import ALWAYS_WINS

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
JOKER_NAMES = {"bluke": "HJ the high bluke, LJ the low bluke", "shmear": "LJ the joker (the lowest trump)"}
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


def legend(game) -> str:
    """How the cards are labelled, the jokers of the games that use them included."""
    suits = ", ".join(f"{letter} {name}" for letter, name in SUIT_NAMES.items())
    jokers = JOKER_NAMES.get(game.name)
    return f"cards: rank then suit (T is the ten; {suits})" + (f"; {jokers}" if jokers else "")


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


def _plays_alone(game, view: dict) -> bool:
    """Whether the seat of ``view`` knows that the Sheepshead picker plays alone: he called no card
    (said ``alone``), or he played the jack of diamonds himself (``partner = jack_of_diamonds``), or
    the hand is over and no partner is shown."""
    if view["phase"] == "over":
        return view["partner"] is None
    if game.options["partner"] == "jack_of_diamonds":
        return "JD" in [c for p, c in played_cards(view, game.players) if p == view["picker"]]
    return view["called"] is None and view["phase"] == "play"


def known_side(game, view: dict) -> list[int]:
    """The seats that the seat of ``view`` knows to score with it this hand, itself first: its team
    (the smears, Fifty-five with ``teams``); in Sheepshead the picker and his partner, or the
    defenders, once the partner is known to it (it is the partner, the partner's card has been
    played, or the picker plays alone); otherwise the seat alone."""
    seat, n = view["seat"], game.players
    if game.name == "sheepshead":
        picker, partner = view["picker"], view["partner"]
        if picker is None or (partner is None and not _plays_alone(game, view)):
            return [seat]
        side = [picker] + ([] if partner is None else [partner])
        if seat not in side:
            side = [p for p in range(n) if p not in side]
        return [seat] + [p for p in side if p != seat]
    k = game.teams
    return [seat] + [p for p in range(n) if k > 1 and p != seat and p % k == seat % k]


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _tricks(n: int) -> str:
    return f"{n} trick" + ("" if n == 1 else "s")


def format_count(game, view: dict, names: list[str]) -> str | None:
    """What the seat of ``view`` (``State.observe``) may count of its side's take so far, in one
    line; None before the first trick is over. It reads only the seat's view: at the table the
    tricks taken are public and a player may remember the cards of each trick, so

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
        who = _and([names[p] for p in side])
    if game.name == "bluke":
        return f"{who}: {_tricks(won)} taken, bid {view['bids'][seat]}"
    if game.name == "sheepshead":
        text = f"{who}: {sum(view['points_taken'][p] for p in side)} card points in {_tricks(won)}"
        if view["buried"]:
            text += f" (the bury: {sum(int(sheepshead.POINTS[parse_card(c)]) for c in view['buried'])} more)"
        return text
    if game.name == "fiftyfive":
        text = f"{who}: {sum(view['points_taken'][p] for p in side)} points in {_tricks(won)}"
        if view["bidder"] in side:
            text += f" (bid {view['bid']})"
        power = fiftyfive.POWER[SUITS.index(view["trump"])]
        trumps = [(int(power[parse_card(c)]), p, c) for p, c in played_cards(view, game.players)
                  if power[parse_card(c)] >= ALWAYS_WINS]
        if trumps:
            _, p, c = max(trumps)
            text += f"; best trump so far: {c} ({names[p]})"
        return text
    return f"{who}: {_smear_count(game, view, side, won)}"


def _smear_count(game, view: dict, side: list[int], won: int) -> str:
    """The smears' points already won by ``side`` and its game points (see ``format_count``)."""
    row = game.variant * 4 + SUITS.index(view["trump"])
    played_by = {parse_card(c): p for p, c in played_cards(view, game.players)}
    won_by = {parse_card(c): winner for _, cards, winner in view["tricks"] for c in cards}
    points = []
    for k, name in enumerate(smear.POINT_NAMES[:smear.GAME]):
        c = int(smear.POINT_CARDS[row, k])
        if k in (smear.HIGH, smear.LOW):
            holder = None if game.options.get("high_low") == "in_play" else played_by.get(c)
        else:
            holder = won_by.get(c)
        if c >= 0 and holder in side:
            points.append(name)
    taken = CardSet(c for c, winner in won_by.items() if winner in side)
    text = f"{', '.join(points) or 'no point yet'}; {int(smear.game_points(taken.mask))} game points in {_tricks(won)}"
    if game.name == "nesmear" and view["seat"] == view["bidder"] and view["discards"]:
        text += f" and {int(smear.game_points(CardSet(view['discards']).mask))} in the discards"
    return text


def _public_line(game, view: dict, names: list[str]) -> str | None:
    """What the bidding made public: the picker and the call; the turned card and the bids; or
    every seat's last call, and the trump once the table knows it."""
    n = game.players
    if game.name == "sheepshead":
        picker, partner = view["picker"], view["partner"]
        if picker is None:
            return "nobody picked" if view["phase"] in ("play", "over") else None
        parts = [f"picker: {names[picker]}"]
        if _plays_alone(game, view):
            parts.append("alone")
        elif view["called"]:
            parts.append(f"called {view['called']}")
        if partner is not None:
            parts.append(f"partner: {names[partner]}")
        return ", ".join(parts)
    if game.name == "bluke":
        bids = [f"{names[p]} {b}" for p, b in enumerate(view["bids"]) if b is not None]
        return f"turned: {view['turned']} ({trump_name(view['trump'])})" + (f"; bids: {', '.join(bids)}" if bids
                                                                              else "")
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
    public = _public_line(game, view, names)
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
