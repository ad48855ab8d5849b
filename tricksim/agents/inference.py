"""Inference in the world sampler: each sampled world weighed by how likely the other seats' card
play so far is in it, under a model of their play.

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

Bids, picks, buries and calls are not evidence (yet), and the searching seat's own plays never are.
A game without ``play_start`` gets weight 1 everywhere (``family.play_start`` says whether it has
one). PIMC (``agents.pimc``) samples ``resample`` times more worlds than it values and draws the
valued ones from them by these weights (systematic resampling; with ``resample = 1`` it values every
world and sums each action's values by the weights, which pile onto a few worlds), and ISMCTS
(``agents.ismcts``) resamples its determinizations by them, both with the parameter ``infer`` =
``eps`` (0: off, the default).
"""

from __future__ import annotations

import math

import numba as nb
from numba import literally

from ..sim import actions as A
from ..sim.kernels import bit, has, lowest_card, popcount
from .family import heuristic, legal, merge, play_start, step, to_act, trick_card, trick_position

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
    if same_choice(family, s, cards, c, h):
        return math.log(1.0 - eps + eps / n)
    return math.log(eps / n)


@nb.njit(cache=True, inline="always")
def log_likelihood(family, world, seat, eps, hparams, rng, replay):
    """The log of the chance of every card the seats other than ``seat`` played so far in
    ``world`` (a full deal in the card play), under the heuristic softened by ``eps`` (module
    docstring); ``replay`` (an int64 array of ``len(world)``) is scratch and ends equal to
    ``world``. 0 for a game without ``play_start``."""
    if not play_start(family, world, replay):
        return 0.0
    trick, played = trick_position(family, world)
    total = 0.0
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
def replay_equals(family, world, replay):
    """Whether the replay of ``world``'s card play (``log_likelihood``'s, every seat's play a
    choice) ends at ``world`` slot for slot: the test of each game's ``play_start``."""
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
def world_log_likelihood(family, world, seat, eps, hparams, rng):
    """``log_likelihood`` for Python callers (tests, ``explain``): it makes its own scratch."""
    literally(family)
    replay = world.copy()
    return log_likelihood(family, world, seat, eps, hparams, rng, replay)
