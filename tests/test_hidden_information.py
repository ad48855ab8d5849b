"""What a seat may see (docs/rules.md, Sheepshead: Partner):

* the holder of the called card (or of the jack of diamonds) is the secret partner: nobody is
  told, and observations must not reveal it until the card is played;
* the blind is seen by the picker only (and by nobody in a leaster), the bury by the picker only;
* the unknown (``no_call=unknown``) is seen by the picker only until it is played.

The partner tests use twin deals that differ only in which of two defenders holds the partner's
card (swapped with another card between those two seats), play the same public actions in both,
and require every other seat's ``observe()`` to be identical in the twins until the card falls.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import tricksim
from tricksim.sim.obs_sheepshead import blocks, observe
from tricksim.sim.observation import Layout


def _swap(hands, seat_a, card_a, seat_b, card_b):
    """The deal with ``card_a`` (held by ``seat_a``) and ``card_b`` (held by ``seat_b``) swapped."""
    out = [h.split() for h in hands]
    assert card_a in out[seat_a] and card_b in out[seat_b]
    out[seat_a][out[seat_a].index(card_a)] = card_b
    out[seat_b][out[seat_b].index(card_b)] = card_a
    return [" ".join(h) for h in out]


def _apply(state, label):
    assert label in state.legal_labels(), (label, state.current_player, state.legal_labels())
    state.apply(label)


def _strings(value):
    """Every string inside an observation (its values, nested)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def _vector(state, seat):
    """The seat's numeric observation, as the environments show it."""
    out = np.zeros(Layout(blocks(state.game)).size, dtype=np.int8)
    observe(state.array, seat, out)
    return out


def _run_twins(game, deal_a, deal_b, rest, common, observers):
    """Play ``common`` in both deals (dealer 4, blind ``rest``), comparing the observers' views
    before and after every action; returns the two states."""
    a = game.deal(hands=deal_a, rest=rest, dealer=4)
    b = game.deal(hands=deal_b, rest=rest, dealer=4)
    for i, label in enumerate([None] + common):
        if label is not None:
            _apply(a, label)
            _apply(b, label)
        assert a.current_player == b.current_player
        for seat in observers:
            view = a.observe(seat)
            assert view == b.observe(seat), f"seat {seat}'s view differs after {common[:i]}"
            assert (_vector(a, seat) == _vector(b, seat)).all(), f"seat {seat}'s observation differs after {common[:i]}"
            assert view["partner"] is None, f"seat {seat} is told the partner after {common[:i]}"
        if a.current_player in observers:
            assert a.legal_labels() == b.legal_labels()
    return a, b


def _everyone_sees_partner(state, partner):
    for seat in range(5):
        assert state.observe(seat)["partner"] == partner, f"seat {seat} after {state.tricks()}"


# --- called ace ------------------------------------------------------------------------------------
# Dealer 4: seat 0 (eldest) picks, buries 8C 9C and holds 7H as his only heart: he can call only AH.

CALLED_ACE_DEAL = [
    "QC QS QH QD JC 7H",  # 0 picker
    "JS 9D AC TC KC TH",  # 1
    "AH JH 8D AS KS 9H",  # 2 holds AH in deal A
    "7S JD 7D TS 9S KH",  # 3 holds it in deal B (AH and 7S swapped)
    "AD TD KD 7C 8S 8H",  # 4
]
CALLED_ACE_BLIND = "8C 9C"
CALLED_ACE_COMMON = [
    "pick", "bury 8C", "bury 9C", "call AH",
    "play QC", "play 9D", "play 8D", "play 7D", "play KD",  # everyone follows trump
    "play QS", "play JS", "play JH", "play JD", "play TD",
    "play 7H", "play TH",  # hearts led for the first time; the holder of AH is next (A) or after (B)
]


def test_called_ace_holder_stays_secret_until_the_ace_falls():
    game = tricksim.make_game("sheepshead")
    deal_b = _swap(CALLED_ACE_DEAL, 2, "AH", 3, "7S")
    a, b = _run_twins(game, CALLED_ACE_DEAL, deal_b, CALLED_ACE_BLIND, CALLED_ACE_COMMON, observers=(0, 1, 4))
    assert a.observe(1)["called"] == "AH"  # the call itself is public

    _apply(a, "play AH")  # seat 2 must play the called ace: now everybody knows
    _everyone_sees_partner(a, 2)

    _apply(b, "play 9H")  # seat 2 follows with a small heart: still secret from 0, 1, 2 and 4
    for seat in (0, 1, 2, 4):
        assert b.observe(seat)["partner"] is None
    _apply(b, "play AH")
    _everyone_sees_partner(b, 3)
    for state, partner in ((a, 2), (b, 3)):
        while not state.is_terminal():
            state.apply(state.legal_actions()[0])
            _everyone_sees_partner(state, partner)


# --- jack of diamonds --------------------------------------------------------------------------------

JD_COMMON = [
    "pick", "bury 8C", "bury 9C",  # no call with partner=jack_of_diamonds
    "play QC", "play 9D", "play JH", "play 7D", "play KD",
    "play QS", "play JS",  # seat 2 plays next: its last trump is 8D (deal A) or JD (deal B)
]


def test_jack_of_diamonds_holder_stays_secret_until_it_falls():
    game = tricksim.make_game("sheepshead", partner="jack_of_diamonds")
    deal_b = _swap(CALLED_ACE_DEAL, 3, "JD", 2, "8D")  # JD: seat 3 in deal A, seat 2 in deal B
    a, b = _run_twins(game, CALLED_ACE_DEAL, deal_b, CALLED_ACE_BLIND, JD_COMMON, observers=(0, 1, 4))
    assert a.observe(1)["called"] is None

    _apply(b, "play JD")
    _everyone_sees_partner(b, 2)

    _apply(a, "play 8D")
    for seat in (0, 1, 2, 4):
        assert a.observe(seat)["partner"] is None
    _apply(a, "play JD")
    _everyone_sees_partner(a, 3)


# --- the unknown -------------------------------------------------------------------------------------
# Seat 0 picks AH 7H, buries 7H JS and holds AH and five trumps: void in clubs and spades, no legal
# call; with no_call=unknown he calls AC and sets QD aside. Clubs are never led, so the unknown and
# the ace come out on the last trick.

UNKNOWN_DEAL = [
    "QC QS QH QD JC JS",  # 0 picker
    "JH AD 9C TS KH 8S",  # 1
    "JD TD AC 7C 9S 8H",  # 2 holds AC in deal A
    "KD 9D TC 8C AS TH",  # 3 holds it in deal B (AC and 8C swapped)
    "8D 7D KC 7S KS 9H",  # 4
]
UNKNOWN_BLIND = "AH 7H"
UNKNOWN_COMMON = [
    "pick", "bury 7H", "bury JS", "call AC", "under QD",
    "play QC", "play AD", "play TD", "play 9D", "play 7D",
    "play QS", "play JH", "play JD", "play KD", "play 8D",
    "play QH", "play 8S", "play 9S", "play AS", "play 7S",  # nobody has a trump left
    "play JC", "play TS", "play 8H", "play TH", "play KS",
    "play AH", "play KH", "play 7C", "play TC", "play 9H",
    "play QD", "play 9C",  # the last trick: the picker has only the unknown
]


def test_unknown_and_its_partner_stay_hidden_until_played():
    game = tricksim.make_game("sheepshead", no_call="unknown")
    deal_b = _swap(UNKNOWN_DEAL, 2, "AC", 3, "8C")
    before_unknown = UNKNOWN_COMMON.index("play QD")
    a, b = _run_twins(game, UNKNOWN_DEAL, deal_b, UNKNOWN_BLIND, UNKNOWN_COMMON[:before_unknown],
                      observers=(0, 1, 4))
    for state, holder in ((a, 2), (b, 3)):
        assert state.observe(0)["unknown"] == "QD"  # the picker knows his unknown
        assert "QD" not in state.observe(0)["hand"]
        for seat in range(1, 5):
            view = state.observe(seat)
            assert view["unknown"] is None
            assert "QD" not in set(_strings(view)), f"seat {seat} sees the unknown"
        _apply(state, "play QD")
        _apply(state, "play 9C")
        for seat in range(5):  # now it is on the table for everyone
            assert state.observe(seat)["current_trick"] == ["QD", "9C"]
            if seat != holder:
                assert state.observe(seat)["partner"] is None
    _apply(a, "play AC")
    _everyone_sees_partner(a, 2)
    _apply(b, "play 8C")
    assert all(b.observe(seat)["partner"] is None for seat in (0, 1, 2, 4))
    _apply(b, "play AC")
    _everyone_sees_partner(b, 3)


# --- blind and bury: twin deals and a random sweep ----------------------------------------------------


def test_non_pickers_cannot_tell_two_blinds_apart():
    # Deal B gives the picker 8C 9C in hand and JC 7H in the blind instead: after the pick the
    # two deals are the same, so no seat but the picker may see a difference at any step.
    game = tricksim.make_game("sheepshead")
    deal_b = list(CALLED_ACE_DEAL)
    deal_b[0] = "QC QS QH QD 8C 9C"
    a = game.deal(hands=CALLED_ACE_DEAL, rest=CALLED_ACE_BLIND, dealer=4)
    b = game.deal(hands=deal_b, rest="JC 7H", dealer=4)
    for i, label in enumerate([None] + CALLED_ACE_COMMON):
        if label is not None:
            _apply(a, label)
            _apply(b, label)
        for seat in (1, 2, 3, 4):
            assert a.observe(seat) == b.observe(seat), f"seat {seat} after {CALLED_ACE_COMMON[:i]}"
            assert (_vector(a, seat) == _vector(b, seat)).all(), f"seat {seat} after {CALLED_ACE_COMMON[:i]}"
    assert a.observe(0)["hand"] == b.observe(0)["hand"]
    fresh = [game.deal(hands=hands, rest=blind, dealer=4)
             for hands, blind in ((CALLED_ACE_DEAL, CALLED_ACE_BLIND), (deal_b, "JC 7H"))]
    assert (_vector(fresh[0], 0) != _vector(fresh[1], 0)).any()  # the picker's own hand differs


def _check_views(state, picker, blind, bury, unknown, played, partner_card):
    """The seen-by-whom rules for one (non-terminal) state."""
    views = [state.observe(seat) for seat in range(5)]
    for seat, view in enumerate(views):
        seen = set(_strings(view))
        if seat != picker:
            hidden = set(blind) if picker is None else set(bury)
            if unknown is not None and unknown not in played:
                hidden.add(unknown)
            assert not (seen & hidden), f"seat {seat} sees {seen & hidden} (picker {picker})"
            assert view["buried"] is None and view["unknown"] is None
        else:
            assert sorted(view["buried"]) == sorted(bury)
            assert view["unknown"] == unknown
    if partner_card is not None and partner_card not in played:
        holder = [seat for seat in range(5) if partner_card in state.hand(seat)]
        for seat, view in enumerate(views):
            if seat not in holder:
                assert view["partner"] is None, f"seat {seat} is told the partner before {partner_card} fell"


OPTION_SETS = [{}, {"no_call": "unknown"}, {"partner": "jack_of_diamonds"}, {"no_pick": "forced"},
               {"no_call": "unknown", "no_pick": "forced"}]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_random_hands_reveal_nothing_early(options):
    game = tricksim.make_game("sheepshead", **options)
    rng = random.Random(2024)
    unknowns = 0
    for hand in range(120):
        state = game.new_hand(seed=99, dealer=hand % 5, hand=hand)
        dealt = set().union(*(state.hand(seat).labels() for seat in range(5)))
        blind = sorted({r + s for s in "CDHS" for r in "789TJQKA"} - dealt)
        picker, bury, unknown, called, played = None, [], None, None, set()
        while not state.is_terminal():
            _check_views(state, picker, blind, bury, unknown, played,
                         "JD" if options.get("partner") == "jack_of_diamonds" and picker is not None else called)
            seat = state.current_player
            label = state.action_label(rng.choice(state.legal_actions()))
            state.apply(label)
            verb, _, card = label.partition(" ")
            if verb == "pick":
                picker = seat
            elif verb == "bury":
                bury.append(card)
            elif verb == "call":
                called = card
            elif verb == "under":
                unknown = card
                unknowns += 1
            elif verb == "play":
                played.add(card)
    if options.get("no_call") == "unknown":
        assert unknowns > 0  # the sweep did meet the unknown
