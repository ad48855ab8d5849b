"""The table blocks of an observation (``tricksim.sim.observation.table_blocks``) rebuilt in
plain Python from a seat's ``observe()`` dict, for the per-game observation tests."""

from __future__ import annotations

import numpy as np

from tricksim.cards import parse_card


def expected_table(view: dict, players: int, column, phase_names, first_leader: int) -> dict[str, np.ndarray]:
    """Each table block that ``view`` (the dict of seat ``view["seat"]``) calls for. ``column``
    maps a card index to its plane entry; ``first_leader`` leads the first trick."""
    seat, deck = view["seat"], int(max(column)) + 1

    def rel(p):
        return (p - seat) % players

    def seats(of):
        out = np.zeros(players, dtype=np.int64)
        if of is not None:
            out[rel(of)] = 1
        return out

    hand = np.zeros(deck, dtype=np.int64)
    hand[[column[parse_card(c)] for c in view["hand"]]] = 1
    played = np.zeros((players, deck), dtype=np.int64)
    trick = np.zeros_like(played)
    played_in = np.zeros(deck, dtype=np.int64)
    led = np.zeros(deck, dtype=np.int64)
    won = np.zeros(players, dtype=np.int64)
    for t, (leader, cards, winner) in enumerate(view["tricks"]):
        for i, label in enumerate(cards):
            played[rel(leader + i), column[parse_card(label)]] = 1
            played_in[column[parse_card(label)]] = t + 1
        led[column[parse_card(cards[0])]] = 1
        won[rel(winner)] += 1
    leader = view["tricks"][-1][2] if view["tricks"] else first_leader
    for i, label in enumerate(view["current_trick"]):
        c = column[parse_card(label)]
        played[rel(leader + i), c] = trick[rel(leader + i), c] = 1
        played_in[c] = len(view["tricks"]) + 1
        led[c] |= i == 0
    phase = np.zeros(len(phase_names), dtype=np.int64)
    phase[list(phase_names).index(view["phase"])] = 1
    return {
        "hand": hand,
        "played": played.ravel(),
        "trick": trick.ravel(),
        "played_in": played_in,
        "led": led,
        "dealer": seats(view["dealer"]),
        "leader": seats(leader if view["phase"] == "play" else None),
        "to_act": seats(view["to_act"]),
        "phase": phase,
        "tricks_won": won,
    }
