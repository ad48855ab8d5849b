"""The random agent: a uniform choice among the legal actions, as a numba kernel."""

import numba as nb

from ..sim.actions import card_action
from ..sim.kernels import nth_card, popcount, rand_below


@nb.njit(cache=True, inline="always")
def random_card(cards, rng):
    """A uniformly random card of the non-empty mask ``cards``, drawn from the stream ``rng``."""
    return nth_card(cards, rand_below(rng, popcount(cards)))


@nb.njit(cache=True, inline="always")
def uniform_action(words, cards, kind, rng):
    """A uniformly random action among a game's ``legal(state)`` triple
    ``(word_mask, card_mask, card_kind)``, drawn from the stream ``rng``.
    With no word action it is ``random_card`` (a batch loop may call that directly)."""
    if words == 0:  # card play, the common case
        return card_action(kind, random_card(cards, rng))
    n_words = popcount(words)
    r = rand_below(rng, n_words + popcount(cards))
    if r < n_words:
        return nth_card(words, r)
    return card_action(kind, nth_card(cards, r - n_words))
