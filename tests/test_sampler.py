"""The one world sampler (``tricksim.agents.sampler``) against brute force, in every game.

On small positions (late in a hand, few cards unseen) every world the seat could be in is
enumerated from the rules alone: each way of putting the cards it cannot see into the places that
hide them (with their sizes) is kept when the deal it implies replays the hand's actions legally
(the game's own ``legal`` and ``step``; other seats' private actions, a bury or a discard, naming
the world's cards) and shows the seat what the real state shows it (its observation vector). The
sampled worlds must all be among them, equally often within a chi-square test (p > 0.001 at a
fixed seed); the constructive deal alone (no rejection try) must give consistent worlds too.

The positions are found by seeded play: the first one of each case whose hidden cards can be
placed in few enough ways, and where the rules rule some of those ways out (a void, a Sheepshead
ten or unknown call, a leaster's blind, the called card's first lead, a Bluke hand under the hook,
NE Smear's widow and discards, Fifty-five's kitty and exchange, the Shmear draw).
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pytest

import tricksim
from tricksim.cards import card_label
from tricksim.envs.observation import Layout
from tricksim.sim import actions as A
from tricksim.sim.kernels import new_rng, seed_stream
from tricksim.spec import spec

from sampling import sample_with

LIMIT = 3000  # most ways to place the hidden cards a position may have (each is replayed)
SIGNIFICANCE = 1e-3


def bits(mask) -> list[int]:
    m, out = int(mask), []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def labels(cards) -> str:
    return " ".join(card_label(c) for c in cards)


def lowest(mask, count: int) -> int:
    """The ``count`` lowest cards of ``mask`` (a choice the rules leave free, made the same way)."""
    return sum(1 << c for c in bits(mask)[:count])


# --- what every game's state shows the same way (spec.Rules slots) ---------------------------


def played_by(game, s) -> list[int]:
    """Per seat, the cards it has played: the finished tricks and the one in progress."""
    K, n = game.kernels, game.players
    out = [0] * n
    for t in range(int(s[K.TRICK_NO]) + 1):
        slot = K.TRICKS + t * K.TRICK_SLOTS
        count = n if t < s[K.TRICK_NO] else int(s[K.IN_TRICK])
        leader = int(s[slot] if t < s[K.TRICK_NO] else s[K.LEADER])
        for i in range(count):
            out[(leader + i) % n] |= 1 << int(s[slot + 1 + i])
    return out


def is_legal(game, s, a: int) -> bool:
    words, cards, kind = game.kernels.legal(s)
    if a < A.CARD_BASE:
        return bool(int(words) >> a & 1)
    c = a - A.card_action(int(kind), 0)
    return 0 <= c < 54 and bool(int(cards) >> c & 1)


def observation(game, s, seat) -> np.ndarray:
    part = spec(game.name).part("observation")
    out = np.zeros(Layout(part.blocks(game)).size, dtype=np.int8)
    part.observe(s, seat, out)
    return out


# --- each game: the places that hide cards, and the deal a world implies ---------------------


@dataclass
class Place:
    """A place that may hide cards from the seat: reads and writes its mask in a state array."""

    get: Callable
    put: Callable


def slot(i: int) -> Place:
    return Place(lambda w: int(w[i]), lambda w, m: w.__setitem__(i, m))


def card_slot(i: int) -> Place:
    """A slot holding one card's index (Sheepshead's unknown)."""
    return Place(lambda w: 1 << int(w[i]), lambda w, m: w.__setitem__(i, bits(m)[0]))


class Sheepshead:
    """Places: the other hands, the blind, and (hidden from all but the picker) the bury and a
    held unknown. The picker's blind is any two of his eight cards."""

    @staticmethod
    def places(game, s, seat):
        K = game.kernels
        out = [slot(K.HANDS + p) for p in range(5) if p != seat] + [slot(K.BLIND)]
        if seat != s[K.PICKER]:
            out.append(slot(K.BURIED))
            if s[K.UNKNOWN] >= 0 and s[K.UNKNOWN_TRICK] < 0:
                out.append(card_slot(K.UNKNOWN))
        return out

    @staticmethod
    def replay(game, state, seat, w):
        K = game.kernels
        seats = [int(w[K.HANDS + p]) | m for p, m in enumerate(played_by(game, w))]
        picker = int(w[K.PICKER])
        if picker >= 0:
            if w[K.UNKNOWN] >= 0 and w[K.UNKNOWN_TRICK] < 0:
                seats[picker] |= 1 << int(w[K.UNKNOWN])
            seats[picker] |= int(w[K.BURIED])
            blind = lowest(seats[picker], 2)
            seats[picker] &= ~blind
        else:
            blind = int(w[K.BLIND]) or (K.DECK_MASK & ~sum(seats))
        new = game.deal(hands=[labels(bits(m)) for m in seats], rest=labels(bits(blind)), dealer=int(w[K.DEALER]),
                        doubled=bool(w[K.DOUBLED])).array
        under = [int(w[K.UNKNOWN])] if w[K.UNKNOWN] >= 0 else []
        private = {A.BURY: {picker: bits(w[K.BURIED])}, A.UNDER: {picker: under}}
        return play_through(game, new, state.history, seat, private)


class Bluke:
    """Places: the other hands and the undealt rest (under the turned card)."""

    @staticmethod
    def places(game, s, seat):
        K = game.kernels
        return [slot(K.HANDS + p) for p in range(game.players) if p != seat] + [slot(K.REST)]

    @staticmethod
    def replay(game, state, seat, w):
        K = game.kernels
        hands = [labels(bits(int(w[K.HANDS + p]) | m)) for p, m in enumerate(played_by(game, w))]
        rest = [int(w[K.TURNED])] + bits(w[K.REST])
        new = game.deal(hands, labels(rest), dealer=int(w[K.DEALER])).array
        return play_through(game, new, state.history)


class FiftyFive:
    """Places: the other hands and discard piles, the untaken kitty, the stock. The kitty another
    seat took is any five of its ten cards, the cards another seat drew any of its own."""

    @staticmethod
    def places(game, s, seat):
        K = game.kernels
        out = [slot(K.HANDS + p) for p in range(game.players) if p != seat]
        out += [slot(K.DISCARDS + p) for p in range(game.players) if p != seat]
        return out + [slot(K.KITTY), slot(K.STOCK)]

    @staticmethod
    def replay(game, state, seat, w):
        K, n, s = game.kernels, game.players, state.array
        played = played_by(game, w)
        bidder = int(w[K.BIDDER])
        taken = int(s[K.KITTY_TAKEN])
        if taken and bidder != seat:
            taken = lowest(int(w[K.HANDS + bidder] | w[K.DISCARDS + bidder]) | played[bidder], 5)
        drawn, order = [0] * n, []
        for i in range(n):  # exchangers in turn from eldest, the bidder skipped, each as many as it threw
            p = (int(w[K.DEALER]) + 1 + i) % n
            if p == bidder or (s[K.PHASE] == K.EXCHANGING and p == s[K.TO_ACT]):
                continue
            k = int(w[K.DISCARDS + p]).bit_count()
            at = len(order)
            cards = ([int(c) for c in s[K.STOCK_ORDER + at:K.STOCK_ORDER + at + k]] if p == seat
                     else bits(lowest(int(w[K.HANDS + p]) | played[p], k)))
            drawn[p] = sum(1 << c for c in cards)
            order += cards
        hands = []
        for p in range(n):
            held = int(w[K.HANDS + p] | w[K.DISCARDS + p]) | played[p]
            hands.append(labels(bits(held & ~drawn[p] & ~(taken if p == bidder else 0))))
        rest = bits(int(w[K.KITTY]) | taken) + order + bits(w[K.STOCK])
        new = game.deal(hands, labels(rest), dealer=int(w[K.DEALER])).array
        discards = {p: bits(w[K.DISCARDS + p]) for p in range(n)}
        return play_through(game, new, state.history, seat, {A.DISCARD: discards})


class Smear:
    """Places: the other hands and discard piles, the stock (Shmear: still to draw or take; NE
    Smear: the undealt cards). A Shmear seat's drawn cards are any of its own, the dealer's taken
    stock any of his cards, the NE widow any of the bidder's."""

    @staticmethod
    def places(game, s, seat):
        K = game.kernels
        out = [slot(K.HANDS + p) for p in range(game.players) if p != seat]
        out += [slot(K.DISCARDS + p) for p in range(game.players) if p != seat]
        return out + [slot(K.STOCK)]

    @staticmethod
    def replay(game, state, seat, w):
        K, n, s = game.kernels, game.players, state.array
        played = played_by(game, w)
        held = [int(w[K.HANDS + p] | w[K.DISCARDS + p]) | played[p] for p in range(n)]
        size = int(K.DECK_MASKS[game.variant]).bit_count() - K.HAND_SIZE * n
        known = [int(c) for c in s[K.REST_ORDER:K.REST_ORDER + size]]
        order = []
        if game.variant == K.SHMEAR:
            dealer, p = int(w[K.DEALER]), (int(w[K.DEALER]) + 1) % n
            while p != dealer:  # the draw, from eldest
                d = int(w[K.DRAWN + p])
                kept = held[p] & ~int(w[K.DISCARDS + p])  # a seat draws after it throws
                cards = known[len(order):len(order) + d] if p == seat else bits(lowest(kept, d))
                held[p] &= ~sum(1 << c for c in cards)
                order += cards
                p = (p + 1) % n
            if w[K.STOCK] == 0:  # the dealer took the stock
                cards = known[len(order):] if seat == dealer else bits(lowest(held[dealer], size - len(order)))
                held[dealer] &= ~sum(1 << c for c in cards)
                order += cards
        elif w[K.BIDDER] >= 0 and w[K.PHASE] != K.BIDDING:
            bidder, widow = int(w[K.BIDDER]), game.options["widow"]
            cards = bits(w[K.WIDOW_TAKEN]) if seat == bidder else bits(lowest(held[bidder], widow))
            held[bidder] &= ~sum(1 << c for c in cards)
            order += cards
        rest = order + bits(int(K.DECK_MASKS[game.variant]) & ~sum(held) & ~sum(1 << c for c in order))
        new = game.deal(hands=[labels(bits(m)) for m in held], rest=labels(rest), dealer=int(w[K.DEALER])).array
        discards = {p: bits(w[K.DISCARDS + p]) for p in range(n)}
        return play_through(game, new, state.history, seat, {A.DISCARD: discards})


def play_through(game, new, history, seat=-1, private=None):
    """Replay ``history`` on the deal ``new``, each private card action of a seat other than
    ``seat`` naming the next of its cards in ``private[kind][seat]``; None at an illegal action."""
    K = game.kernels
    queues = {kind: {p: list(cards) for p, cards in by_seat.items()} for kind, by_seat in (private or {}).items()}
    for a in history:
        actor = int(new[K.TO_ACT])
        kind = (a - A.CARD_BASE) // 54 if a >= A.CARD_BASE else -1
        if actor != seat and kind in queues:
            if not queues[kind].get(actor):
                return None
            a = A.card_action(kind, queues[kind][actor].pop(0))
        if not is_legal(game, new, a):
            return None
        K.step(new, a)
    return new


ADAPTERS = {"sheepshead": Sheepshead, "bluke": Bluke, "fiftyfive": FiftyFive, "shmear": Smear, "nesmear": Smear}


# --- brute force ----------------------------------------------------------------------------------


def placings(cards: list[int], sizes: list[int]):
    """Every way to put ``cards`` into places of ``sizes`` (masks per place)."""
    if not sizes:
        yield ()
        return
    for combo in itertools.combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in combo]
        for tail in placings(rest, sizes[1:]):
            yield (sum(1 << c for c in combo),) + tail


def ways(sizes: list[int]) -> int:
    return math.factorial(sum(sizes)) // math.prod(math.factorial(k) for k in sizes)


def consistent_worlds(game, state, seat) -> tuple[list, set]:
    """The places hidden from ``seat`` and every placing of their cards that the rules allow."""
    adapter, s = ADAPTERS[game.name], state.array
    places = adapter.places(game, s, seat)
    sizes = [bin(p.get(s)).count("1") for p in places]
    cards = sorted(c for p in places for c in bits(p.get(s)))
    seen = observation(game, s, seat)
    out = set()
    for placing in placings(cards, sizes):
        w = s.copy()
        for place, mask in zip(places, placing):
            if mask:
                place.put(w, mask)
        new = adapter.replay(game, state, seat, w)
        if (new is not None and all(p.get(new) == m for p, m in zip(places, placing) if m)
                and (observation(game, new, seat) == seen).all()):
            out.add(placing)
    return places, out


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for X chi-square with ``df`` degrees of freedom (the regularized upper gamma)."""
    a, z = df / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    scale = math.exp(-z + a * math.log(z) - math.lgamma(a))
    if z < a + 1:  # the lower gamma's series
        term = total = 1.0 / a
        k = a
        while abs(term) > abs(total) * 1e-15:
            k += 1
            term *= z / k
            total += term
        return max(0.0, 1.0 - scale * total)
    b, c, d = z + 1 - a, 1e300, 1 / (z + 1 - a)  # the upper gamma's continued fraction
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = d if abs(d) > 1e-300 else 1e-300
        c = b + an / c
        c = c if abs(c) > 1e-300 else 1e-300
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return scale * h


def test_chi2_sf_matches_known_values():
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(124.3421134, 100) == pytest.approx(0.05, rel=1e-6)
    assert chi2_sf(2.0, 2) == pytest.approx(math.exp(-1), rel=1e-12)


# --- the cases ------------------------------------------------------------------------------------


def _called(game, seed, picker, blind, buries):
    """A made deal where seat 0 (dealer seat 4) picks ``blind`` onto ``picker``, buries ``buries``
    and makes a random call other than alone; the other hands dealt at random from ``seed``."""
    from tricksim.cards import parse_cards
    r = random.Random(seed)
    rest = sorted(set(game.kernels.DECK.tolist()) - set(parse_cards(picker + " " + blind)))
    r.shuffle(rest)
    hands = [picker] + [labels(rest[6 * i:6 * i + 6]) for i in range(4)]
    state = game.deal(hands=hands, rest=blind, dealer=4)
    for label in ["pick"] + [f"bury {c}" for c in buries.split()]:
        state.apply(label)
    state.apply(r.choice([a for a in state.legal_actions() if state.action_label(a) != "alone"]))
    return state, r


def ten_call(game, seed):
    """A made deal where seat 0 picks, holds all three fail aces and calls a ten."""
    return _called(game, seed, "QC QS AC AS AH 7C", "QH 8S", "QH 8S")


def unknown_call(game, seed):
    """A made deal where seat 0 picks, owns no fail card but AC (buried) and calls an unknown."""
    state, r = _called(game, seed, "QC QS QH QD JC AC", "JS JH", "JH AC")
    state.apply(r.choice(state.legal_actions()))  # the unknown set aside
    return state, r


def random_hand(game, seed):
    state = game.new_hand(seed=seed, dealer=seed % game.players)
    return state, random.Random(seed)


@dataclass
class Case:
    name: str
    game: str
    options: dict
    start: Callable  # (game, seed) -> (state, random.Random), the hand to play on
    wanted: Callable  # (game, s, seat) -> bool: the position shows what the case is about


def hidden(game, s, seat) -> int:
    """The cards hidden from ``seat``."""
    return sum(p.get(s) for p in ADAPTERS[game.name].places(game, s, seat))


def picker_view(game, s, seat):
    return s[game.kernels.PICKER] == seat


CASES = [
    Case("sheepshead voids, the picker's view", "sheepshead", {}, random_hand, picker_view),
    Case("sheepshead ten call", "sheepshead", {}, ten_call,
         lambda g, s, seat: seat != s[g.kernels.PICKER] and s[g.kernels.CALLED] in g.kernels.TENS
         and hidden(g, s, seat) & sum(1 << int(g.kernels.ACES[suit]) for suit in g.kernels.FAIL_SUITS) != 0),
    Case("sheepshead unknown call", "sheepshead", {"no_call": "unknown"}, unknown_call,
         lambda g, s, seat: seat != s[g.kernels.PICKER] and s[g.kernels.UNKNOWN_TRICK] < 0),
    Case("sheepshead leaster blind", "sheepshead", {}, random_hand,
         lambda g, s, seat: s[g.kernels.PICKER] < 0 and s[g.kernels.BLIND] != 0 and s[g.kernels.PHASE] > 0),
    Case("sheepshead jack of diamonds", "sheepshead", {"partner": "jack_of_diamonds"}, random_hand,
         lambda g, s, seat: s[g.kernels.PICKER] >= 0 and seat != s[g.kernels.PICKER]),
    Case("bluke voids under the hook", "bluke", {"players": 4, "hook": True}, random_hand, lambda g, s, seat: True),
    Case("bluke, next card sets the suit", "bluke", {"players": 3, "bluke_lead": "next_sets_suit"}, random_hand,
         lambda g, s, seat: True),
    Case("fiftyfive kitty", "fiftyfive", {"players": 9}, random_hand,
         lambda g, s, seat: seat != s[g.kernels.BIDDER] and s[g.kernels.KITTY_TAKEN] != 0),
    Case("fiftyfive exchange", "fiftyfive", {"players": 9, "exchange": 1}, random_hand,
         lambda g, s, seat: int(s[g.kernels.STOCK_NEXT]) > 0),
    Case("nesmear widow", "nesmear", {}, random_hand,
         lambda g, s, seat: seat != s[g.kernels.BIDDER] and s[g.kernels.DISCARDS + s[g.kernels.BIDDER]] != 0),
    Case("shmear draw", "shmear", {"teams": 2, "may_trump": True}, random_hand,
         lambda g, s, seat: seat == s[g.kernels.DEALER]),
]


def find_position(case):
    """The first position of seeded random play (every seat, every decision) that the case wants,
    whose hidden cards can be placed in at most ``LIMIT`` ways, and where the rules rule out some
    of them. Returns the game, the state, the seat, its hidden places and consistent placings."""
    game = tricksim.make_game(case.game, **case.options)
    for seed in range(200):
        state, r = case.start(game, seed)
        while True:
            s = state.array
            for seat in range(game.players):
                places = ADAPTERS[game.name].places(game, s, seat)
                sizes = [bin(p.get(s)).count("1") for p in places]
                if 2 <= ways(sizes) <= LIMIT and case.wanted(game, s, seat):
                    found_places, worlds = consistent_worlds(game, state, seat)
                    if 2 <= len(worlds) < ways(sizes):
                        return game, state, seat, found_places, worlds
            if state.is_terminal():
                break
            state.apply(r.choice(state.legal_actions()))
    raise AssertionError(f"no position for {case.name}")


@pytest.fixture(scope="module", params=CASES, ids=lambda case: case.name)
def position(request):
    return find_position(request.param)


def test_worlds_are_uniform_over_the_consistent_deals(position):
    game, state, seat, places, worlds = position
    s = state.array
    before = s.copy()
    draws = min(max(40 * len(worlds), 4000), 40_000)
    rng = new_rng()
    seed_stream(rng, 17, len(worlds), seat)
    out = np.empty_like(s)
    sample = spec(game.name).part("search").sample
    counts = dict.fromkeys(worlds, 0)
    for _ in range(draws):
        sample(s, seat, rng, out)
        key = tuple(p.get(out) for p in places)
        assert key in counts, "a world the rules rule out"
        counts[key] += 1
    assert (s == before).all(), "sample changed s"
    expected = draws / len(worlds)
    stat = sum((k - expected) ** 2 / expected for k in counts.values())
    assert chi2_sf(stat, len(worlds) - 1) > SIGNIFICANCE, (len(worlds), stat)


def test_the_constructive_deal_gives_consistent_worlds(position):
    game, state, seat, places, worlds = position
    s = state.array
    rng = new_rng()
    seed_stream(rng, 18, len(worlds), seat)
    out = np.empty_like(s)
    hooks = spec(game.name).part("search").__name__
    seen = set()
    for _ in range(200):
        sample_with(hooks, s, seat, rng, out, 0)
        key = tuple(p.get(out) for p in places)
        assert key in worlds, "a world the rules rule out"
        seen.add(key)
    assert len(seen) > 1
