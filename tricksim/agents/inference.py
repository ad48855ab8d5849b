"""Inference in the world sampler: each sampled world weighed by how likely the other seats' play
so far (their cards, and where the game has the hook their auction) is in it, under a model of
their play.

The sampler (``agents.sampler``) deals every world consistent with the hard facts (the hands, the
voids shown, the piles seen) as equally likely, although the play says more: a defender who
schmeared an ace on his partner's trick likely had no cheaper card, a seat that ducked under a
winner it could have taken likely did not hold it. Here a world's *likelihood* is the chance of
every card the other seats played in it, under their model:

* **The model**: the heuristic agent (the searcher's own heuristic parameters) softened into a
  policy with ``eps``: the heuristic's card with chance ``1 - eps + eps / n``, each other choice
  ``eps / n``, where the ``n`` choices are the legal cards with equivalent cards counted as one
  (cards that ``merge``, the solver's hook, keeps one of: adjacent in rank with no live card
  between them). A forced card, or a single choice, says nothing.
* **The replay**: the world's state at the start of the card play (the game's ``play_start``
  hook: every card played back in the hand that played it, the tricks cleared), then the tricks'
  cards in order with ``step``, the model asked at each decision of a seat other than the one
  searching. The replay ends at the world itself, slot for slot (tested).
* **The auction**: a game's ``auction_log_chance`` hook (``family.auction_log_chance``) adds the
  chance of the other seats' decisions before the card play, under the same softened heuristic:
  Sheepshead's passes, pick (averaged over the blinds the picker may have found), bury, call and
  unknown; the smears', Bluke's and Fifty-five's bids and passes, each from the seat's hand as
  dealt (Fifty-five's up to a duel, whose calls overwrite the record of the first round). Before
  the card play the auction so far is the evidence. A game without the hook takes its auction as
  no evidence.
* **Bids on a scale** (``bid_log_chance``): the heuristic's bid, and the bids next to it, share
  ``1 - eps``, the heuristic's with half of it at most; so even with ``eps`` 0 a bid says less
  than a card. Bidders who search bid the heuristic's level or one next to it (Bluke: 64 % the
  same, 34 % one off, 2 % further, over 240 bids of ``pimc:worlds=50``); read as cards, their
  bids made PIMC lose (BENCHMARKS.md).

The searching seat's own decisions are never evidence. A game without ``play_start`` takes its card
play as no evidence (``family.play_start`` says whether it has one). PIMC (``agents.pimc``) samples
``resample`` times more worlds than it values and draws the valued ones from them by these weights
(systematic resampling; with ``resample = 1`` it values every world and sums each action's values by
the weights, which pile onto a few worlds), and ISMCTS (``agents.ismcts``) resamples its
determinizations by them, both with the parameter ``infer`` = ``eps`` (0: off, the default).
"""

from __future__ import annotations

import math
from functools import cache

import numba as nb
import numpy as np
from numba import literally, types

from ..sim import actions as A
from ..sim.kernels import bit, has, highest_bit, lowest_card, popcount
from .family import auction_log_chance, heuristic, legal, merge, play_start, step, to_act, trick_card, trick_position

PLAY_0 = A.card_action(A.PLAY, 0)  # the action id of playing card 0
MAX_CARDS = 64  # more than any hand's card play


@nb.njit(cache=True, inline="always")
def same_choice(family, s, cards, a, b):
    """Whether cards ``a`` and ``b`` of the legal ``cards`` at ``s`` are one choice: linked by a
    chain of legal cards each pair of which ``merge`` keeps one of (a run of equivalent cards,
    which a pair's merge alone would split at a card of the run between them)."""
    if a == b:
        return True
    linked, frontier, rest = bit(a), bit(a), cards & ~bit(a)
    while frontier != 0:
        x = lowest_card(frontier)
        frontier &= frontier - 1
        m = rest
        while m != 0:
            y = lowest_card(m)
            m &= m - 1
            if popcount(merge(family, s, bit(x) | bit(y))) == 1:
                if y == b:
                    return True
                linked |= bit(y)
                frontier |= bit(y)
                rest &= ~bit(y)
    return has(linked, b)


@nb.njit(cache=True, inline="always")
def soft_log_chance(n, agrees, eps):
    """The log of the softened heuristic's chance of a choice among ``n``: ``log(1 - eps + eps /
    n)`` when the choice ``agrees`` with the heuristic's, ``log(eps / n)`` when not, 0 when ``n`` <
    2 (a forced choice says nothing). The one softening of a card played here and of Sheepshead's
    auction; bids take ``bid_log_chance``."""
    if n < 2:
        return 0.0
    if agrees:
        return math.log(1.0 - eps + eps / n)
    return math.log(eps / n)


@nb.njit(cache=True, inline="always")
def bid_log_chance(words, h, a, eps):
    """The log of the softened heuristic's chance of the bid ``a`` when it bids ``h`` (action ids,
    bits of the legal ``words``, which order them on a scale: a pass below the lowest bid). The
    share ``1 - eps`` goes to ``h`` (weight 2) and to the legal bids next to it on either side
    (weight 1 each); ``eps`` is spread evenly over every legal bid. With bids 0 to 10 legal, the
    heuristic's 3 and eps 0.5: 3 has 0.295, 2 and 4 0.170 each, every other bid 0.045. 0 with a
    single legal bid."""
    n = popcount(words)
    if n < 2:
        return 0.0
    below, above = words & ((np.int64(1) << h) - 1), words >> (h + 1)
    low = highest_bit(below) if below != 0 else -1
    high = h + 1 + lowest_card(above) if above != 0 else -1
    weight = 2.0 if a == h else 1.0 if a == low or a == high else 0.0
    return math.log((1.0 - eps) * weight / (2.0 + (low >= 0) + (high >= 0)) + eps / n)


@nb.njit(cache=True, inline="always")
def choice_log_chance(family, s, c, eps, hparams, rng):
    """The log of the model's chance that the seat to act at ``s`` (in the card play) plays card
    ``c``: ``log(1 - eps + eps / n)`` when ``c`` is the heuristic's choice (or one with it),
    ``log(eps / n)`` when not, 0 with a single choice (module docstring)."""
    words, cards, kind = legal(family, s)
    if popcount(cards) < 2:
        return 0.0
    n = popcount(merge(family, s, cards))
    if n < 2:
        return 0.0
    h = heuristic(family, s, hparams, rng) - PLAY_0
    return soft_log_chance(n, same_choice(family, s, cards, c, h), eps)


@nb.njit(cache=True, inline="always")
def log_likelihood(family, world, seat, eps, hparams, rng, replay):
    """The log of the chance of every decision the seats other than ``seat`` made so far in
    ``world`` (a full deal): their auction where the game has the hook, and in the card play
    every card they played, under the heuristic softened by ``eps`` (module docstring);
    ``replay`` (an int64 array of ``len(world)``) is scratch and, in the card play of a game
    with ``play_start``, ends equal to ``world``."""
    total = auction_log_chance(family, world, seat, eps, hparams, rng, replay)
    words, _, kind = legal(family, world)
    if words != 0 or kind != A.PLAY or not play_start(family, world, replay):
        return total  # before the card play, or a game without the hook
    trick, played = trick_position(family, world)
    for _ in range(MAX_CARDS):  # a bound, not a count: the loop ends at the world's trick and card
        t, i = trick_position(family, replay)
        if t == trick and i == played:
            break
        c = trick_card(family, world, t, i)
        if to_act(family, replay) != seat:
            total += choice_log_chance(family, replay, c, eps, hparams, rng)
        step(family, replay, PLAY_0 + c)
    return total


@nb.njit(cache=True)
def _replay_equals(family, world, replay):
    literally(family)
    if not play_start(family, world, replay):
        return False
    trick, played = trick_position(family, world)
    for _ in range(MAX_CARDS):
        t, i = trick_position(family, replay)
        if t == trick and i == played:
            break
        step(family, replay, PLAY_0 + trick_card(family, world, t, i))
    return (replay == world).all()


@nb.njit(cache=True)
def _world_log_likelihood(family, world, seat, eps, hparams, rng):
    literally(family)
    replay = world.copy()
    return log_likelihood(family, world, seat, eps, hparams, rng, replay)


# Python callers go through entries compiled for one family's constant: through the dispatcher a
# ``literally`` kernel takes numba's slow path on every call (``agents.family``), 6 to 25 ms here
@cache
def _replay_entry(family: int):
    state = types.int64[::1]
    return _replay_equals.compile((types.literal(family), state, state))


@cache
def _likelihood_entry(family: int):
    return _world_log_likelihood.compile((types.literal(family), types.int64[::1], types.int64, types.float64,
                                          types.float64[::1], types.uint64[::1]))


def replay_equals(family: int, world, replay) -> bool:
    """Whether the replay of ``world``'s card play (``log_likelihood``'s, every seat's play a
    choice) ends at ``world`` slot for slot: the test of each game's ``play_start``."""
    return bool(_replay_entry(family)(family, world, replay))


def world_log_likelihood(family: int, world, seat: int, eps: float, hparams, rng) -> float:
    """``log_likelihood`` for Python callers (tests): it makes its own scratch."""
    return float(_likelihood_entry(family)(family, world, int(seat), float(eps), hparams, rng))
