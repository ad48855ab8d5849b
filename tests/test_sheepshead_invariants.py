"""Sheepshead's rule oracle for the shared invariant harness (``invariants.py``), and its own tests.

One small rule oracle written here from docs/rules.md, Sheepshead (trump order, fail order, card points, trick
winner, scoring band and scores), independent of the engine's tables, is checked by the harness's
random hands after every step (the hooks ``on_deal`` .. ``on_end``) and through the State API
(``api_step``, ``api_end``):

* the deal is 6 cards a seat and 2 in the blind; every one of the 32 cards is in exactly one
  place: a hand, the blind, the bury, the unknown (while set aside) or the cards played, which are
  exactly the cards in the trick slots; at the end of a leaster the blind has gone with the last
  trick;
* every legal card is held by the seat to act (or is its unknown); the picking round goes from
  eldest and offers pass or pick (no pass to the dealer with no_pick=forced); eldest leads the first
  trick; a trick's winner is the one docs/rules.md gives; the hand ends after 6 tricks, within 64 actions;
* picker side + defenders (tricks + bury) = 120; in a leaster the points taken add to 120 with the
  blind; the partner is the seat that held the called card (or the jack of diamonds); a hand is
  thrown in exactly after five passes with no_pick=doubler; scores add to 0 and equal the scoring
  band's scores, recomputed here (doubled in a doubler play-off).
"""

from __future__ import annotations

import numba as nb
import numpy as np
import pytest
from hypothesis import strategies as st

import tricksim
from tricksim.cards import parse_card, parse_cards
from tricksim.sim import actions as A
from tricksim.sim import sheepshead as K

from invariants import Case, mask as _mask
from oracle_bits import bit as _bit, count as _count

ORACLE_GAMES = ("sheepshead",)

# --- the rule oracle, from docs/rules.md, Sheepshead -------------------------------------------

PLAYERS = 5
TRUMP = 4  # oracle suit code of the trumps
RULE_TRUMPS = parse_cards("QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D")  # high to low
RULE_FAIL_RANKS = "A T K 9 8 7"  # high to low, in clubs, spades and hearts
RULE_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
DECK_LABELS = [rank + suit for suit in "CDHS" for rank in "789TJQKA"]
DECK_CARDS = np.array(sorted(parse_card(label) for label in DECK_LABELS), dtype=np.int64)
DECK_MASK = sum(1 << int(c) for c in DECK_CARDS)
JD = parse_card("JD")

O_SUIT = np.full(54, -1, dtype=np.int64)  # effective suit: 0..3 natural (fail) suit, 4 trump
O_STRENGTH = np.full(54, -1, dtype=np.int64)  # larger wins; compared only within trumps or a suit
O_POINTS = np.zeros(54, dtype=np.int64)
for _label in DECK_LABELS:
    _c = parse_card(_label)
    O_SUIT[_c] = "CDHS".index(_label[1])
    O_POINTS[_c] = RULE_POINTS[_label[0]]
for _i, _c in enumerate(RULE_TRUMPS):
    O_SUIT[_c] = TRUMP
    O_STRENGTH[_c] = 100 - _i
for _suit in "CSH":
    for _i, _rank in enumerate(RULE_FAIL_RANKS.split()):
        O_STRENGTH[parse_card(_rank + _suit)] = 10 - _i
assert sum(O_POINTS) == 120 and len(DECK_CARDS) == 32 and (O_SUIT[DECK_CARDS] == TRUMP).sum() == 14


@nb.njit(cache=False)
def oracle_trick_winner(cards, leader, unknown_pos, called_suit):
    """Seat winning the trick ``cards`` (5 cards in play order from ``leader``): the highest
    trump, else the highest card of the suit led. The card at ``unknown_pos`` (-1: none) is the
    unknown: it counts as ``called_suit`` and never wins. -1 if no card can win."""
    led = called_suit if unknown_pos == 0 else O_SUIT[cards[0]]
    best, best_strength = -1, -1
    for i in range(PLAYERS):
        c = cards[i]
        if i == unknown_pos or (O_SUIT[c] != TRUMP and O_SUIT[c] != led):
            continue
        strength = O_STRENGTH[c] + (1000 if O_SUIT[c] == TRUMP else 0)
        if strength > best_strength:
            best, best_strength = i, strength
    return -1 if best < 0 else (leader + best) % PLAYERS


@nb.njit(cache=False)
def oracle_picker_scores(picker, partner, side_tricks, side_points, bump, doubled, out):
    """docs/rules.md, Sheepshead: Result and scores: fills ``out`` with the five scores and returns
    ``(win, m)``. ``partner`` is -1 when the picker is alone."""
    if side_tricks == 6:
        win, m = True, 3
    elif side_tricks == 0:
        win, m = False, 3
    elif side_points >= 91:
        win, m = True, 2
    elif side_points >= 61:
        win, m = True, 1
    elif side_points >= 31:
        win, m = False, 1
    else:
        win, m = False, 2
    loss_factor = 2 if bump else 1
    for p in range(PLAYERS):
        out[p] = 0
    defenders = 4 if partner < 0 else 3
    if side_tricks == 0:  # the picker pays 3 to each defender, the partner nothing
        for p in range(PLAYERS):
            if p != picker and p != partner:
                out[p] = 3 * loss_factor
        out[picker] = -3 * loss_factor * defenders
    else:
        unit = m if win else -m * loss_factor  # what the partner gets
        for p in range(PLAYERS):
            if p != picker and p != partner:
                out[p] = -unit
        if partner >= 0:
            out[partner] = unit
            out[picker] = 2 * unit
        else:
            out[picker] = 4 * unit
    if doubled:
        for p in range(PLAYERS):
            out[p] *= 2
    return win, m


@nb.njit(cache=False)
def oracle_leaster_scores(points, tricks, doubled, out):
    """docs/rules.md, Sheepshead: Nobody picks (leaster): the fewest card points among players with
    a trick wins 1 from each other player; a tie for fewest is a wash."""
    fewest = 1 << 30
    for p in range(PLAYERS):
        if tricks[p] > 0 and points[p] < fewest:
            fewest = points[p]
    holders = 0
    winner = -1
    for p in range(PLAYERS):
        if tricks[p] > 0 and points[p] == fewest:
            holders += 1
            winner = p
    for p in range(PLAYERS):
        out[p] = 0
    if holders == 1:
        for p in range(PLAYERS):
            out[p] = 4 if p == winner else -1
    if doubled:
        for p in range(PLAYERS):
            out[p] *= 2


@nb.njit(cache=False)
def _points_of(mask):
    total = 0
    for c in range(54):
        if (mask >> np.int64(c)) & 1:
            total += O_POINTS[c]
    return total


@nb.njit(cache=False)
def locate(s, blind_taken):
    """Error code of the card-location invariant; ``blind_taken`` is the blind's mask when a
    leaster is over (the blind went with the last trick), else 0."""
    seen = np.int64(0)
    unknown_held = np.int64(0)
    if s[K.UNKNOWN] >= 0 and s[K.UNKNOWN_TRICK] < 0:
        unknown_held = _bit(s[K.UNKNOWN])
    for i in range(PLAYERS + 4):
        if i < PLAYERS:
            m = s[K.HANDS + i]
        elif i == PLAYERS:
            m = s[K.BLIND]
        elif i == PLAYERS + 1:
            m = s[K.BURIED]
        elif i == PLAYERS + 2:
            m = unknown_held
        else:
            m = s[K.PLAYED]
        if seen & m:
            return 102
        seen |= m
    if seen & ~DECK_MASK:
        return 104
    if seen | blind_taken != DECK_MASK or seen & blind_taken:
        return 103
    in_slots = np.int64(0)
    for t in range(s[K.TRICK_NO] + 1):
        n = PLAYERS if t < s[K.TRICK_NO] else s[K.IN_TRICK]
        for k in range(n):
            c = s[K.TRICKS + t * K.TRICK_SLOTS + 1 + k]
            if c < 0 or c >= 54 or in_slots & _bit(c):
                return 105
            in_slots |= _bit(c)
    if in_slots != s[K.PLAYED]:
        return 105
    return 0


# --- the hooks of the shared harness ------------------------------------------------------------

ERRORS = {
    101: "the deal is not 6 cards a seat and 2 in the blind out of the 32-card deck",
    102: "a card is in two places at once (hands, blind, bury, unknown, played)",
    103: "a card of the deck is in no place",
    104: "a card outside the 32-card deck is in play",
    105: "the cards played (PLAYED) are not exactly the cards in the trick slots",
    108: "a legal card is not held by the seat to act (nor its unknown)",
    109: "the wrong seat is to act in the picking round (eldest first, clockwise)",
    110: "eldest does not lead the first trick",
    112: "a trick's winner differs from docs/rules.md (highest trump, else highest of the suit led; "
         "the unknown never wins)",
    113: "the hand did not end after 6 tricks",
    114: "picker side + defenders (tricks + bury) is not 120",
    115: "points taken per seat (POINTS_TAKEN / TRICKS_WON) differ from the tricks won",
    116: "picker side points (SIDE_POINTS) differ from the recomputed side points",
    117: "outcome or multiplier differs from the scoring band of docs/rules.md, Sheepshead",
    118: "scores differ from the scores of docs/rules.md, Sheepshead",
    119: "scores do not add up to 0",
    120: "leaster: the points taken (blind included) do not add up to 120",
    121: "the partner is not the seat that held the called card (or the jack of diamonds)",
    122: "no_pick=forced: the dealer may pass, or the hand was not picked",
    123: "a hand was thrown in other than by five passes with no_pick=doubler (or was not)",
    124: "the hand did not end within 64 actions",
    125: "a legal action of the wrong kind for the picking round",
    126: "the hand ended before 6 tricks were played",
}
P_NO_CALL, P_PARTNER, P_NO_PICK, P_BUMP, P_DOUBLED_EVERY = range(5)  # params: option array, play-off period
MEMORY = np.dtype([(f, np.int64) for f in ("doubled", "eldest", "picker", "called", "unknown", "unknown_played",
                                            "bury", "partner", "passes", "leader", "in_trick", "tricks_done",
                                            "last_winner", "blind")]
                  + [(f, np.int64, (PLAYERS,)) for f in ("tcards", "won_points", "won_tricks", "expected")])
STATS = ()


def cases(name):
    deal_options = {3: lambda hand: {"doubled": hand % 3 == 0}}
    return [Case(name, options, hands, deal_options.get(every), id=f"{name}[{case_id}]")
            for case_id, options, hands, every in OPTION_SETS]


def params(game, case):
    every = next(every for case_id, options, hands, every in OPTION_SETS if options == case.options)
    return np.append(game.option_array, every).astype(np.int64)


def check_stats(case, stats):
    """Nothing to count: the scores are checked hand by hand."""


OPTION_SETS = [
    # (id, options, hands, every n-th hand a doubled play-off)
    ("default", {}, 600_000, 0),
    ("no_call-unknown", {"no_call": "unknown"}, 100_000, 0),
    ("partner-jack_of_diamonds", {"partner": "jack_of_diamonds"}, 100_000, 0),
    ("no_pick-doubler", {"no_pick": "doubler"}, 100_000, 3),
    ("no_pick-forced-double_on_bump", {"no_pick": "forced", "double_on_bump": True}, 100_000, 0),
]
assert sum(row[2] for row in OPTION_SETS) >= 100_000


@nb.njit(cache=False)
def on_deal(s, hand, params, mem):
    m = mem[0]
    union = np.int64(0)
    for p in range(PLAYERS):
        if _count(s[K.HANDS + p]) != 6 or union & s[K.HANDS + p]:
            return 101
        union |= s[K.HANDS + p]
    m.blind = s[K.BLIND]
    if _count(m.blind) != 2 or union & m.blind or union | m.blind != DECK_MASK:
        return 101
    every = params[P_DOUBLED_EVERY]
    m.doubled = 1 if every > 0 and hand % every == 0 else 0
    m.eldest = (hand + 1) % PLAYERS  # the harness deals hand number ``hand`` with dealer hand % 5
    m.picker, m.called, m.unknown, m.bury, m.partner, m.unknown_played = -1, -1, -1, 0, -1, 0
    m.passes, m.leader, m.in_trick, m.tricks_done, m.last_winner = 0, m.eldest, 0, 0, -1
    m.won_points[:] = 0
    m.won_tricks[:] = 0
    return 0


@nb.njit(cache=False)
def on_state(s, words, cards, kind, nact, params, mem):
    m = mem[0]
    over = s[K.TO_ACT] < 0
    leaster_over = over and m.picker < 0 and m.passes == PLAYERS and m.tricks_done == 6
    code = locate(s, m.blind if leaster_over else np.int64(0))
    if code != 0 or over:
        return code
    if nact >= 64:
        return 124
    seat = s[K.TO_ACT]
    if m.picker < 0 and m.tricks_done == 0 and m.in_trick == 0 and m.passes < PLAYERS:  # the picking round
        if seat != (m.eldest + m.passes) % PLAYERS:
            return 109
        if cards != 0 or words & ~(_bit(A.PASS) | _bit(A.PICK)) or not words & _bit(A.PICK):
            return 125
        if params[P_NO_PICK] == K.NO_PICK_FORCED and m.passes == PLAYERS - 1 and words & _bit(A.PASS):
            return 122
    if kind == A.PLAY:
        allowed = s[K.HANDS + seat]
        if seat == m.picker and m.unknown >= 0 and not m.unknown_played:
            allowed |= _bit(m.unknown)
        if cards & ~allowed:
            return 108
        if m.tricks_done == 0 and m.in_trick == 0 and seat != m.eldest:
            return 110
    elif kind == A.BURY or kind == A.UNDER:
        if cards & ~s[K.HANDS + seat]:
            return 108
    return 0


@nb.njit(cache=False)
def on_step(s, seat, action, kind, params, mem):
    m = mem[0]
    partner_rule = params[P_PARTNER]
    c = (action - A.CARD_BASE) % 54 if action >= A.CARD_BASE else -1
    if action == A.PASS:
        m.passes += 1
    elif action == A.PICK:
        m.picker = seat
    elif action == A.ALONE:
        m.called = -1
    elif kind == A.BURY:
        m.bury |= _bit(c)
    elif kind == A.CALL:
        m.called = c
    elif kind == A.UNDER:
        m.unknown = c
    elif kind == A.PLAY:
        if m.called >= 0 and c == m.called and partner_rule == K.PARTNER_CALLED_ACE:
            m.partner = seat
        if partner_rule == K.PARTNER_JD and c == JD and seat != m.picker:
            m.partner = seat
        if seat == m.picker and c == m.unknown:
            m.unknown_played = 1
        m.tcards[m.in_trick] = c
        m.in_trick += 1
        if m.in_trick == PLAYERS:
            leader = m.leader
            unknown_pos = -1
            if m.unknown >= 0:
                for k in range(PLAYERS):
                    if m.tcards[k] == m.unknown and (leader + k) % PLAYERS == m.picker:
                        unknown_pos = k
            called_suit = O_SUIT[m.called] if m.called >= 0 else -1
            winner = oracle_trick_winner(m.tcards, leader, unknown_pos, called_suit)
            if winner < 0 or s[K.TRICKS + m.tricks_done * K.TRICK_SLOTS + 1 + PLAYERS] != winner:
                return 112
            for k in range(PLAYERS):
                m.won_points[winner] += O_POINTS[m.tcards[k]]
            m.won_tricks[winner] += 1
            m.tricks_done += 1
            m.in_trick = 0
            m.leader = winner
            m.last_winner = winner
            if (m.tricks_done == 6) != (s[K.TO_ACT] < 0):
                return 113
    return 0


@nb.njit(cache=False)
def on_end(s, nact, params, mem, stats):
    m = mem[0]
    no_pick, bump = params[P_NO_PICK], params[P_BUMP]
    picker, partner = m.picker, m.partner
    won_points, won_tricks, expected = m.won_points, m.won_tricks, m.expected
    score_sum = 0
    for p in range(PLAYERS):
        score_sum += s[K.SCORES + p]
    if score_sum != 0:
        return 119
    thrown = s[K.OUTCOME] == K.OUTCOME_THROWN_IN
    should_throw = m.passes == PLAYERS and no_pick == K.NO_PICK_DOUBLER
    if thrown != should_throw:
        return 123
    if thrown:
        for p in range(PLAYERS):
            if s[K.SCORES + p] != 0:
                return 118
        return 0
    if m.tricks_done != 6:
        return 126
    if no_pick == K.NO_PICK_FORCED and picker < 0:
        return 122
    if picker >= 0:
        for p in range(PLAYERS):
            if s[K.POINTS_TAKEN + p] != won_points[p] or s[K.TRICKS_WON + p] != won_tricks[p]:
                return 115
        if s[K.PARTNER] != partner or s[K.PICKER] != picker:
            return 121
        side_tricks = won_tricks[picker]
        side = won_points[picker]
        if partner >= 0:
            side_tricks += won_tricks[partner]
            side += won_points[partner]
        defenders = 0
        for p in range(PLAYERS):
            if p != picker and p != partner:
                defenders += won_points[p]
        if side_tricks > 0:
            side += _points_of(m.bury)
        else:
            defenders += _points_of(m.bury)
        if side + defenders != 120:
            return 114
        if s[K.SIDE_POINTS] != side:
            return 116
        win, mult = oracle_picker_scores(picker, partner, side_tricks, side, bump, m.doubled, expected)
        outcome = K.OUTCOME_WIN if win else K.OUTCOME_LOSS
        if s[K.OUTCOME] != outcome or s[K.MULTIPLIER] != mult:
            return 117
    else:
        won_points[m.last_winner] += _points_of(m.blind)  # the blind goes with the last trick
        taken = 0
        for p in range(PLAYERS):
            taken += s[K.POINTS_TAKEN + p]
            if s[K.POINTS_TAKEN + p] != won_points[p] or s[K.TRICKS_WON + p] != won_tricks[p]:
                return 115
        if taken != 120:
            return 120
        if s[K.OUTCOME] != K.OUTCOME_LEASTER:
            return 117
        oracle_leaster_scores(won_points, won_tricks, m.doubled, expected)
    for p in range(PLAYERS):
        if s[K.SCORES + p] != expected[p]:
            return 118
    return 0


# --- the checks themselves must catch broken states ----------------------------------------------


def test_locate_catches_a_card_in_two_places_or_missing():
    state = tricksim.make_game("sheepshead").new_hand(seed=1, dealer=0)
    s = state.array
    assert locate(s, np.int64(0)) == 0
    a_card = int(s[K.HANDS + 0]) & -int(s[K.HANDS + 0])
    broken = s.copy()
    broken[K.HANDS + 1] |= a_card  # the same card in seats 0 and 1
    assert locate(broken, np.int64(0)) == 102
    broken = s.copy()
    broken[K.HANDS + 0] &= ~a_card  # a card gone
    assert locate(broken, np.int64(0)) == 103


def test_oracle_scores_follow_the_rule_table():
    out = np.zeros(5, dtype=np.int64)
    # picker 0, partner 2: 61 points is a plain win, 60 a loss, 91 schneider, 30 schneidered
    assert oracle_picker_scores(0, 2, 3, 61, False, False, out) == (True, 1) and list(out) == [2, -1, 1, -1, -1]
    assert oracle_picker_scores(0, 2, 3, 60, False, False, out) == (False, 1) and list(out) == [-2, 1, -1, 1, 1]
    assert oracle_picker_scores(0, 2, 3, 91, False, False, out) == (True, 2) and list(out) == [4, -2, 2, -2, -2]
    assert oracle_picker_scores(0, 2, 1, 30, True, False, out) == (False, 2) and list(out) == [-8, 4, -4, 4, 4]
    assert oracle_picker_scores(0, -1, 0, 0, False, False, out) == (False, 3) and list(out) == [-12, 3, 3, 3, 3]
    assert oracle_picker_scores(0, 2, 0, 0, True, False, out) == (False, 3) and list(out) == [-18, 6, 0, 6, 6]
    assert oracle_picker_scores(4, -1, 6, 120, False, True, out) == (True, 3) and list(out) == [-6, -6, -6, -6, 24]
    oracle_leaster_scores(np.array([0, 6, 50, 25, 39]), np.array([0, 1, 2, 1, 2]), False, out)
    assert list(out) == [-1, 4, -1, -1, -1]  # seat 0 took no trick: seat 1 has the fewest
    oracle_leaster_scores(np.array([0, 14, 14, 39, 53]), np.array([0, 1, 1, 2, 2]), False, out)
    assert list(out) == [0] * 5  # a tie for fewest is a wash


@pytest.mark.parametrize("leader, cards, unknown_pos, called, winner", [
    (0, "QC QS QH QD JC", -1, None, 0),
    (2, "7D JD AD TD JC", -1, None, 1),  # JC is the highest trump: the fifth card, seat 1
    (0, "TC AC 9C KC 7C", -1, None, 1),  # fail lead: A beats T
    (3, "AH 7D TH KH 9H", -1, None, 4),  # the lowest trump beats the ace led
    (0, "AS QD JD 7H 8H", -1, None, 1),  # QD above JD
    (1, "KC AH AS 8C 7C", -1, None, 1),  # off-suit aces win nothing
    (1, "7C AC 8C 9C QD", 4, "AC", 2),  # the unknown QD counts as a club and never wins
    (1, "7C 8C 9C KC QD", 4, "AC", 4),  # ... even as the only trump in the trick
    (4, "TD 9C AC 8C KC", 0, "AC", 1),  # the unknown led: clubs are led, AC wins
])
def test_oracle_trick_winner(leader, cards, unknown_pos, called, winner):
    ids = np.array(parse_cards(cards), dtype=np.int64)
    called_suit = O_SUIT[parse_card(called)] if called else -1
    assert oracle_trick_winner(ids, leader, unknown_pos, called_suit) == winner


# --- the State API (play_through_api calls these) ------------------------------------------------

API_EXAMPLES = 200
API_DEAL_OPTIONS = {"doubled": st.booleans()}


def _picking(played):
    """The picker (None before a pick), the passes and the mask of the bury, from the actions."""
    picker = next((seat for seat, label in played.actions if label == "pick"), None)
    passes = sum(label == "pass" for _, label in played.actions)
    bury = _mask(label[5:] for _, label in played.actions if label.startswith("bury "))
    return picker, passes, bury


def _check_places(state, picker, blind, blind_out):
    """Every card in exactly one place, from the public API; the blind is what nobody sees
    until it is picked (``blind_out``: the blind is still out of every hand)."""
    tricks = state.tricks()
    observed = state.observe(0)
    played = [c for _, cards, _ in tricks for c in cards] + list(observed["current_trick"])
    assert len(set(played)) == len(played), f"a card is played twice: {played}"
    places = [state.hand(seat).mask for seat in range(5)] + [_mask(played)]
    if picker is not None:
        view = state.observe(picker)
        places.append(_mask(view["buried"]))
        unknown = view["unknown"]
        if unknown is not None and unknown not in played:
            places.append(_mask([unknown]))
    seen = 0
    for m in places:
        assert seen & m == 0, f"a card is in two places: {places}"
        seen |= m
    assert seen | (blind if blind_out else 0) == DECK_MASK and not (blind_out and seen & blind)


def _blind(played):
    dealt = 0
    for seat in range(5):
        dealt |= played.start.hand(seat).mask
    return DECK_MASK & ~dealt


def api_step(state, played):
    picker, _, _ = _picking(played)
    _check_places(state, picker, _blind(played), picker is None)


def api_end(state, played):
    """The deal, then the result recomputed: picker, partner, points, outcome and scores."""
    options = played.game.options
    doubled = played.deal_options.get("doubled", False)
    assert [len(played.start.hand(seat)) for seat in range(5)] == [6] * 5
    blind = _blind(played)
    assert bin(blind).count("1") == 2
    _check_places(played.start, None, blind, True)
    picker, passes, bury = _picking(played)
    result = state.result()
    scores = state.scores()
    assert sum(scores) == 0
    assert result["picker"] == picker
    tricks = state.tricks()
    if result["thrown_in"]:
        assert options["no_pick"] == "doubler" and passes == 5 and tricks == []
        return
    assert len(tricks) == 6
    assert options["no_pick"] != "forced" or picker is not None

    unknown = state.observe(picker)["unknown"] if picker is not None else None
    called = result["called"]
    called_suit = O_SUIT[parse_card(called)] if called is not None else -1
    points = np.zeros(5, dtype=np.int64)
    won = np.zeros(5, dtype=np.int64)
    for leader, cards, winner in tricks:
        ids = np.array(parse_cards(cards), dtype=np.int64)
        unknown_pos = -1
        if unknown is not None and unknown in cards and (leader + cards.index(unknown)) % 5 == picker:
            unknown_pos = cards.index(unknown)
        assert winner == oracle_trick_winner(ids, leader, unknown_pos, called_suit), (leader, cards)
        points[winner] += sum(O_POINTS[ids])
        won[winner] += 1

    expected = np.zeros(5, dtype=np.int64)
    if picker is None:
        assert result["leaster"] and result["outcome"] == "leaster"
        points[tricks[-1][2]] += sum(O_POINTS[c] for c in range(54) if blind >> c & 1)
        assert list(state.observe(0)["points_taken"]) == list(points)
        assert points.sum() == 120
        oracle_leaster_scores(points, won, doubled, expected)
        assert scores == list(expected)
        return

    partner_card = parse_card(called) if called is not None else (JD if options["partner"] == "jack_of_diamonds" else -1)
    holders = [p for p, c in played.plays if partner_card >= 0 and parse_card(c) == partner_card and p != picker]
    partner = holders[0] if holders else None
    assert result["partner"] == partner
    assert result["alone"] == (partner is None)
    side = [picker] + ([partner] if partner is not None else [])
    side_tricks = int(won[side].sum())
    side_points = int(points[side].sum())
    defender_points = int(points.sum()) - side_points
    bury_points = sum(O_POINTS[c] for c in range(54) if bury >> c & 1)
    assert bury == _mask(state.observe(picker)["buried"])
    if side_tricks:
        side_points += bury_points
    else:
        defender_points += bury_points
    assert side_points + defender_points == 120
    assert result["picker_points"] == side_points
    win, m = oracle_picker_scores(picker, -1 if partner is None else partner, side_tricks, side_points,
                                  options["double_on_bump"], doubled, expected)
    assert result["outcome"] == ("win" if win else "loss")
    assert result["multiplier"] == m
    assert scores == list(expected)
