"""What a seat may count of its side's take (``display.format_count``), checked against the
engine's own scoring at the end of random hands and, for Sheepshead's secret partner, at every
step; and ``repr(state)``: the table as the seat to act sees it, no hidden card shown."""

from __future__ import annotations

import re

import numpy as np
import pytest

import tricksim
from tricksim.display import format_count, format_hand, format_scores, seat_names

CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS]|LJ|HJ)\b")
SHEEPSHEAD_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}  # the rule book's card points
GAME_POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10, "L": 1}  # the smears' game points (L: the joker LJ)


def played_out(game, seed: int, steps: int | None = None):
    """A hand of ``game`` from ``seed`` played at random; every state on the way with ``steps=None``."""
    state = game.new_hand(seed=seed, dealer=seed % game.players)
    rng = np.random.default_rng(seed)
    states = [state.clone()]
    while not state.is_terminal():
        state.apply(int(rng.choice(state.legal_actions())))
        states.append(state.clone())
    return states


def points(cards, table) -> int:
    return sum(table.get(c[0], 0) for c in cards)


def side_of_tricks(state, side) -> tuple[int, int]:
    """Tricks and Sheepshead card points ``side`` won in ``state``."""
    won = [cards for _, cards, winner in state.tricks() if winner in side]
    return len(won), sum(points(cards, SHEEPSHEAD_POINTS) for cards in won)


def _who(side, names):
    words = [names[p] for p in side]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


@pytest.mark.parametrize("partner", ["called_ace", "jack_of_diamonds"])
def test_sheepshead_a_seat_counts_the_side_it_knows_and_a_secret_partner_stays_secret(partner):
    game = tricksim.make_game("sheepshead", partner=partner)
    checked = {"secret": 0, "known": 0}
    for seed in range(40):
        states = played_out(game, seed)
        r = states[-1].result()
        picker, mate = r["picker"], r["partner"]
        card = "JD" if partner == "jack_of_diamonds" else r["called"]
        for state in states:
            if not state.tricks():
                assert all(format_count(game, state.observe(p), seat_names(5)) is None for p in range(5))
                continue
            played = {c: p for p, c in _played(state)}
            alone_known = picker is not None and (played.get(card) == picker if partner == "jack_of_diamonds"
                                                  else r["alone"])
            known = picker is not None and (card in played or alone_known or state.is_terminal())
            for p in range(5):
                names = seat_names(5, you=p)
                picker_side = [picker] + ([] if mate is None else [mate])
                if picker is None or not (known or p == mate):
                    side = [p]
                else:
                    side = picker_side if p in picker_side else [q for q in range(5) if q not in picker_side]
                    side = [p] + [q for q in side if q != p]
                checked["secret" if side == [p] and picker is not None else "known"] += 1
                tricks, taken = side_of_tricks(state, side)
                if picker is None and state.is_terminal() and state.tricks()[-1][2] == p:  # leaster: the blind
                    taken += points(_blind(states[0]), SHEEPSHEAD_POINTS)
                text = format_count(game, state.observe(p), names)
                assert text.startswith(f"{_who(side, names)}: {taken} card points in {tricks} trick"), (seed, p, text)
                bury = re.search(r"\(the bury: (\d+) more\)", text)
                assert (bury is not None) == (p == picker and bool(state.observe(p)["buried"]))
                if bury and state.is_terminal() and tricks and side == picker_side:
                    assert taken + int(bury.group(1)) == r["picker_points"]  # the engine's count, bury included
    assert checked["secret"] > 100 and checked["known"] > 100


def _played(state):
    n = state.game.players
    out = []
    for leader, cards, _ in state.tricks():
        out += [((leader + k) % n, c) for k, c in enumerate(cards)]
    current = state.observe(0)["current_trick"]
    leader = (state.current_player - len(current)) % n if current else 0
    return out + [((leader + k) % n, c) for k, c in enumerate(current)]


def _blind(state) -> list[str]:
    return tricksim.cards.CardSet.from_mask(int(state.array[state.game.kernels.BLIND])).labels()


@pytest.mark.parametrize("options", [{}, {"players": 4, "teams": 2}])
def test_fiftyfive_a_side_counts_its_points_as_the_game_scores_them(options):
    game = tricksim.make_game("fiftyfive", **options)
    k = game.teams
    for seed in range(30):
        states = played_out(game, seed)
        end, r = states[-1], states[-1].result()
        if r["thrown_in"]:
            continue
        for p in range(game.players):
            names = seat_names(game.players, you=p)
            side = [q for q in range(game.players) if (q % k == p % k if k else q == p)]
            text = format_count(game, end.observe(p), names)
            won = sum(winner in side for _, _, winner in end.tricks())
            taken = int(text.split(": ")[1].split()[0])
            assert taken == 5 * won + 5 * (r["best_trump_seat"] in side)
            if r["bidder"] in side:
                assert taken == r["bidder_points"] and f"(bid {r['bid']})" in text
            else:
                assert taken == end.scores()[p] and "(bid" not in text
            best = r["best_trump_seat"]
            assert (best is None) == ("best trump" not in text)
            if best is not None:
                assert text.endswith(f"({names[best]})")


@pytest.mark.parametrize("name, options", [("shmear", {}), ("shmear", {"teams": 2}), ("nesmear", {}),
                                           ("nesmear", {"high_low": "in_play", "widow": 2})])
def test_smears_a_team_counts_the_points_it_has_won_and_its_game_points(name, options):
    game = tricksim.make_game(name, **options)
    k = game.teams
    for seed in range(30):
        states = played_out(game, seed)
        end, r = states[-1], states[-1].result()
        if r["thrown_in"]:
            assert format_count(game, end.observe(0), seat_names(game.players)) is None
            continue
        for p in range(game.players):
            text = format_count(game, end.observe(p), seat_names(game.players, you=p))
            team = p % k
            decided = [point for point in ("high", "low", "jack", "jick", "joker") if r.get(point) == team
                       and not (point in ("high", "low") and options.get("high_low") == "in_play")]
            head, _, rest = text.partition("; ")
            assert head == f"seats {'+'.join(str(q) for q in range(team, game.players, k))}: " + (
                ", ".join(decided) or "no point yet")
            game_points = int(rest.split()[0])
            discarded = re.search(r"and (\d+) in the discards$", text)
            if name == "nesmear" and p == r["bidder"]:
                assert game_points + int(discarded.group(1) if discarded else 0) == r["game_points"][team]
                assert int(discarded.group(1) if discarded else 0) == points(end.observe(p)["discards"], GAME_POINTS)
            else:
                assert discarded is None
                won = [c for _, cards, winner in end.tricks() if winner % k == team for c in cards]
                assert game_points == points(won, GAME_POINTS)
                if name == "shmear" or team != r["bidder"] % k:
                    assert game_points == r["game_points"][team]  # the engine's count


def test_bluke_a_seat_counts_its_tricks_against_its_bid():
    game = tricksim.make_game("bluke")
    for seed in range(10):
        for state in played_out(game, seed)[::7]:
            r = state.result()
            for p in range(game.players):
                text = format_count(game, state.observe(p), seat_names(4, you=p))
                if not state.tricks():
                    assert text is None
                    continue
                taken = r["taken"][p]
                assert text == f"you: {taken} trick{'' if taken == 1 else 's'} taken, bid {r['bids'][p]}"


# --- repr(state) ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", tricksim.games())
def test_repr_shows_the_table_as_the_seat_to_act_sees_it(name):
    game = tricksim.make_game(name)
    names = seat_names(game.players)
    for seed in range(3):
        for state in played_out(game, seed):
            text = repr(state)
            assert text.startswith(f"<State {name}, ") and text.endswith(">")
            lines = text[len("<State "):-1].split("\n ")
            assert len(lines) <= 6
            seat = state.current_player
            view = state.observe(0 if seat is None else seat)
            if seat is None:
                assert lines[0] == f"{name}, hand over"
                assert lines[-1] == f"scores: {format_scores(state.scores(), names)}"
            else:
                assert lines[0] == f"{name}, {state.phase} phase, seat {seat} to act"
                assert lines[1] == f"hand: {format_hand(game, view['hand'], view.get('trump'))}"
            if state.tricks():
                won = [sum(w == p for _, _, w in state.tricks()) for p in range(game.players)]
                assert "tricks won: " + ", ".join(f"seat {p} {k}" for p, k in enumerate(won)) in lines
            if view["current_trick"]:
                assert lines[-1].startswith(f"trick {len(state.tricks()) + 1}: ")
            public = set(view["hand"] if seat is not None else []) | {c for _, c in _played(state)}
            public |= {view[key] for key in ("turned", "called") if view.get(key)}
            assert set(CARD.findall(text)) <= public, (seed, text)
            if name in ("fiftyfive", "shmear", "nesmear"):  # NE Smear's trump: not before the bidder's first lead
                assert ("trump: " in text) == (view["trump"] is not None)
                assert ("bidding: " in text) == any(view["calls"])
