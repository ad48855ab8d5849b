"""The search agents' decisions before the card play (``bidding = 1``).

ISMCTS makes them from PIMC's playouts (``pimc.rollout_action``: each action's mean heuristic
playout over sampled deals), not in its tree, anchored at the heuristic's choice: its action is the
heuristic's or PIMC's with ``iters / actions`` worlds from the same random stream, the same again
for the same seed. PIMC with ``anchor`` does the same with its own worlds: the heuristic's choice or
PIMC's unanchored one, and the heuristic's alone when no gain can clear the margin. On hand-made
deals both agents make the bid that plainly wins (a sure four in NE Smear, the top trumps in
Sheepshead) and the pass that plainly wins (a Sheepshead hand of low plain cards; not in NE Smear,
where a bid of 2 on such a hand, the heuristic's, is overcalled anyway).
"""

from __future__ import annotations

import pytest

import tricksim
from tricksim.agents.search import Searcher


def nesmear(first: str):
    """NE Smear, dealer 3: seat 0 (eldest) holds ``first`` and bids first."""
    game = tricksim.make_game("nesmear")
    others, rest = {
        "AS KS QS JS TS 7S": (["7H 8H 9H 7D 8D 9D", "TD JD 7C 8C 9C TC", "JC QC KC AC 8S 9S"], "AH KH QH JH TH AD KD QD"),
        "8C 9C 8D 9D 8H 9H": (["7C TC JC 7D TD JD", "QC KC AC QD KD AD", "7H TH JH QH KH AH"], "7S 8S 9S TS JS QS KS AS"),
    }[first]
    return game.deal(hands=[first, *others], rest=rest, dealer=3)


def sheepshead(first: str):
    """Sheepshead, dealer 4: seat 0 (eldest) holds ``first`` and is first to pick or pass."""
    game = tricksim.make_game("sheepshead")
    hands = {
        "QC QS QH QD JC JS": ["JH JD AD TD KD 9D", "AC KC 9C 8C 7C AS", "KS 9S 8S 7S AH TH", "KH 9H 8H 7H 8D 7D"],
        "7C 8C 7S 8S 7H 8H": ["QC QS QH QD JC JS", "JH JD AD TD KD 9D", "AC KC 9C AS KS 9S", "AH TH KH 9H 8D 7D"],
    }[first]
    return game.deal(hands=[first, *hands], rest="TC TS", dealer=4)


def choice(state, agent: str, seed: int = 1) -> str:
    return state.action_label(Searcher(state.game, agent, seed=seed).act(state))


@pytest.mark.parametrize("make, first", [(nesmear, "AS KS QS JS TS 7S"), (sheepshead, "7C 8C 7S 8S 7H 8H")])
def test_ismcts_bids_from_pimcs_playouts_anchored_at_the_heuristic(make, first):
    state = make(first)
    n = len(state.legal_actions())
    heuristic = choice(state, "ismcts:bidding=0")
    for seed in (1, 2, 3):
        ismcts = choice(state, "ismcts:iters=600", seed)
        assert ismcts in (heuristic, choice(state, f"pimc:worlds={600 // n}", seed))
        assert ismcts == choice(state, "ismcts:iters=600", seed)


@pytest.mark.parametrize("make, first", [(nesmear, "8C 9C 8D 9D 8H 9H"), (sheepshead, "7C 8C 7S 8S 7H 8H")])
def test_pimc_anchored_keeps_the_heuristics_choice_but_for_a_clear_gain(make, first):
    state = make(first)
    heuristic = choice(state, "pimc:bidding=0")
    for seed in (1, 2, 3):
        anchored = choice(state, "pimc:worlds=40:anchor=2", seed)
        assert anchored in (heuristic, choice(state, "pimc:worlds=40", seed))
        assert choice(state, "pimc:worlds=40:anchor=1000000", seed) == heuristic


@pytest.mark.parametrize("agent", ["ismcts:iters=600", "pimc:worlds=40", "pimc:worlds=40:anchor=2"])
@pytest.mark.parametrize("make, first, wins", [
    (nesmear, "AS KS QS JS TS 7S", "bid 4"),  # High, Low, Jack and Game all but sure
    (sheepshead, "QC QS QH QD JC JS", "pick"),  # the six top trumps
    (sheepshead, "7C 8C 7S 8S 7H 8H", "pass"),  # no trump, no point
])
def test_the_search_agents_make_the_bid_that_plainly_wins(agent, make, first, wins):
    state = make(first)
    assert wins in state.legal_labels()
    assert choice(state, agent) == wins


def test_bidding_0_leaves_the_bid_to_the_heuristic():
    state = nesmear("8C 9C 8D 9D 8H 9H")
    heuristic = choice(state, "ismcts:iters=600:bidding=0")
    assert heuristic == choice(state, "pimc:worlds=40:bidding=0") == choice(state, "ismcts:iters=60:bidding=0")
