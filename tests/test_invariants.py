"""What always holds (docs/rules.md, All games) for Sheepshead, checked after every step of many random hands.

Two checkers share one small rule oracle written here from docs/rules.md, Sheepshead (trump order, fail
order, card points, trick winner, scoring band and scores), independent of the engine's tables:

* ``check_hands`` is a numba loop that deals with the engine's own ``deal_random``, plays
  uniformly random legal actions through ``legal``/``step`` and checks the raw state array after
  every step. It stops at the first broken invariant and returns ``(code, hand, action number)``;
  the test then names the hand and replays it as ``new_hand`` plus action labels.
* ``test_public_api_invariants`` is a hypothesis test that does the same through the Python
  ``State`` API only (``hand``, ``tricks``, ``observe``, ``result``, ``scores``).

Invariants (docs/rules.md, All games: What always holds, and Sheepshead):

* every one of the 32 cards is in exactly one place: a hand, the blind, the bury, the unknown
  (while set aside) or the cards played, which are exactly the cards in the trick slots; at the
  end of a leaster the blind has gone with the last trick;
* the legal set is never empty while the hand is not over, and empty once it is; every legal
  card is held by the seat to act (or is its unknown);
* seats act in turn: the picking round from eldest, each trick from its leader clockwise, so a
  finished trick has one card from each seat; its winner is the one docs/rules.md gives and leads next;
* picker side + defenders (tricks + bury) = 120; in a leaster the points taken add to 120 with the
  blind; scores add to 0 and equal the scoring band's scores, recomputed here.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tricksim
from tricksim.agents.random import uniform_action
from tricksim.cards import parse_card, parse_cards
from tricksim.sim import actions as A
from tricksim.sim import sheepshead as K
from tricksim.sim.kernels import RNG_SIZE, seed_stream

from oracle_bits import count as _count, bit as _bit

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


# --- the numba checker ----------------------------------------------------------------------------

OK = 0
ERRORS = {
    1: "the deal is not 6 cards a seat and 2 in the blind out of the 32-card deck",
    2: "a card is in two places at once (hands, blind, bury, unknown, played)",
    3: "a card of the deck is in no place",
    4: "a card outside the 32-card deck is in play",
    5: "the cards played (PLAYED) are not exactly the cards in the trick slots",
    6: "the legal set is empty while the hand is not over",
    7: "the legal set is not empty after the hand is over",
    8: "a legal card is not held by the seat to act (nor its unknown)",
    9: "the wrong seat is to act in the picking round (eldest first, clockwise)",
    10: "the wrong seat is to act in a trick (leader first, then clockwise)",
    11: "a finished trick's slots (leader, cards in play order) differ from the plays made",
    12: "a trick's winner differs from docs/rules.md (highest trump, else highest of the suit led; "
        "the unknown never wins)",
    13: "the trick winner does not lead the next trick (or the hand did not end after 6 tricks)",
    14: "picker side + defenders (tricks + bury) is not 120",
    15: "points taken per seat (POINTS_TAKEN / TRICKS_WON) differ from the tricks won",
    16: "picker side points (SIDE_POINTS) differ from the recomputed side points",
    17: "outcome or multiplier differs from the scoring band of docs/rules.md, Sheepshead",
    18: "scores differ from the scores of docs/rules.md, Sheepshead",
    19: "scores do not add up to 0",
    20: "leaster: the points taken (blind included) do not add up to 120",
    21: "the partner is not the seat that held the called card (or the jack of diamonds)",
    22: "no_pick=forced: the dealer may pass, or the hand was not picked",
    23: "a hand was thrown in other than by five passes with no_pick=doubler (or was not)",
    24: "the hand did not end within 64 actions",
    25: "a legal action of the wrong kind for the picking round",
    26: "the hand ended before 6 tricks were played",
}




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
            return 2
        seen |= m
    if seen & ~DECK_MASK:
        return 4
    if seen | blind_taken != DECK_MASK or seen & blind_taken:
        return 3
    in_slots = np.int64(0)
    for t in range(s[K.TRICK_NO] + 1):
        n = PLAYERS if t < s[K.TRICK_NO] else s[K.IN_TRICK]
        for k in range(n):
            c = s[K.TRICKS + t * K.TRICK_SLOTS + 1 + k]
            if c < 0 or c >= 54 or in_slots & _bit(c):
                return 5
            in_slots |= _bit(c)
    if in_slots != s[K.PLAYED]:
        return 5
    return OK


def _make_checker(fingerprint):
    """The checker, cached by numba; ``fingerprint`` ties the cache to the engine's sources
    (conftest.py)."""
    @nb.njit(cache=True)
    def check_hands(seed, first, count, options, doubled_every, acts):
        """Deal and randomly play hands ``first .. first + count - 1`` of ``seed`` (dealer = hand
        mod 5; every ``doubled_every``-th hand a doubled play-off when > 0), checking every step.
        Returns ``(error code, hand, actions taken)``; ``acts`` holds the failing hand's actions."""
        if count < 0:  # never true: makes the engine's fingerprint part of the cache key
            return fingerprint, -1, 0
        s = np.zeros(K.STATE_SIZE, np.int64)
        deal_rng = np.zeros(RNG_SIZE, np.uint64)
        rng = np.zeros(RNG_SIZE, np.uint64)
        tcards = np.empty(PLAYERS, np.int64)
        won_points = np.zeros(PLAYERS, np.int64)
        won_tricks = np.zeros(PLAYERS, np.int64)
        expected = np.zeros(PLAYERS, np.int64)
        no_pick, partner_rule, bump = options[2], options[1], options[3]
        for i in range(count):
            hand = first + i
            dealer = hand % PLAYERS
            doubled = 1 if doubled_every > 0 and hand % doubled_every == 0 else 0
            K.deal_random(s, seed, hand, dealer, options, doubled, deal_rng)
            seed_stream(rng, seed, hand, 7)  # the checker's own agent stream

            union = np.int64(0)
            for p in range(PLAYERS):
                if _count(s[K.HANDS + p]) != 6 or union & s[K.HANDS + p]:
                    return 1, hand, 0
                union |= s[K.HANDS + p]
            blind = s[K.BLIND]
            if _count(blind) != 2 or union & blind or union | blind != DECK_MASK:
                return 1, hand, 0

            eldest = (dealer + 1) % PLAYERS
            picker, called, unknown, bury, partner = -1, -1, -1, np.int64(0), -1
            unknown_played = False
            passes, leader, last_seat, in_trick, tricks_done, last_winner = 0, eldest, -1, 0, 0, -1
            won_points[:] = 0
            won_tricks[:] = 0
            nact = 0
            while True:
                over = s[K.TO_ACT] < 0
                leaster_over = over and picker < 0 and passes == PLAYERS and tricks_done == 6
                code = locate(s, blind if leaster_over else np.int64(0))
                if code != OK:
                    return code, hand, nact
                words, cards, kind = K.legal(s)
                if over:
                    if words != 0 or cards != 0:
                        return 7, hand, nact
                    break
                if words == 0 and cards == 0:
                    return 6, hand, nact
                if nact >= 64:
                    return 24, hand, nact
                seat = s[K.TO_ACT]
                if picker < 0 and tricks_done == 0 and in_trick == 0 and passes < PLAYERS:
                    # the picking round
                    if seat != (eldest + passes) % PLAYERS:
                        return 9, hand, nact
                    if cards != 0 or words & ~(_bit(A.PASS) | _bit(A.PICK)) or not words & _bit(A.PICK):
                        return 25, hand, nact
                    if no_pick == K.NO_PICK_FORCED and passes == PLAYERS - 1 and words & _bit(A.PASS):
                        return 22, hand, nact
                if kind == A.PLAY:
                    allowed = s[K.HANDS + seat]
                    if seat == picker and unknown >= 0 and not unknown_played:
                        allowed |= _bit(unknown)
                    if cards & ~allowed:
                        return 8, hand, nact
                    if in_trick == 0 and seat != leader:
                        return 10, hand, nact
                    if in_trick > 0 and seat != (last_seat + 1) % PLAYERS:
                        return 10, hand, nact
                elif kind == A.BURY or kind == A.UNDER:
                    if cards & ~s[K.HANDS + seat]:
                        return 8, hand, nact

                action = uniform_action(words, cards, kind, rng)
                acts[nact] = action
                nact += 1
                K.step(s, action)

                c = -1
                if action >= A.CARD_BASE:
                    c = (action - A.CARD_BASE) % 54
                if action == A.PASS:
                    passes += 1
                elif action == A.PICK:
                    picker = seat
                elif action == A.ALONE:
                    called = -1
                elif kind == A.BURY:
                    bury |= _bit(c)
                elif kind == A.CALL:
                    called = c
                elif kind == A.UNDER:
                    unknown = c
                elif kind == A.PLAY:
                    if called >= 0 and c == called and partner_rule == K.PARTNER_CALLED_ACE:
                        partner = seat
                    if partner_rule == K.PARTNER_JD and c == JD and seat != picker:
                        partner = seat
                    if seat == picker and c == unknown:
                        unknown_played = True
                    if in_trick == 0:
                        leader = seat
                    tcards[in_trick] = c
                    in_trick += 1
                    last_seat = seat
                    if in_trick == PLAYERS:
                        slot = K.TRICKS + tricks_done * K.TRICK_SLOTS
                        if s[slot] != leader:
                            return 11, hand, nact
                        for k in range(PLAYERS):
                            if s[slot + 1 + k] != tcards[k]:
                                return 11, hand, nact
                        unknown_pos = -1
                        if unknown >= 0:
                            for k in range(PLAYERS):
                                if tcards[k] == unknown and (leader + k) % PLAYERS == picker:
                                    unknown_pos = k
                        called_suit = O_SUIT[called] if called >= 0 else -1
                        winner = oracle_trick_winner(tcards, leader, unknown_pos, called_suit)
                        if winner < 0 or s[slot + 1 + PLAYERS] != winner:
                            return 12, hand, nact
                        for k in range(PLAYERS):
                            won_points[winner] += O_POINTS[tcards[k]]
                        won_tricks[winner] += 1
                        tricks_done += 1
                        in_trick = 0
                        leader = winner
                        last_winner = winner
                        if (tricks_done < 6) != (s[K.TO_ACT] == winner) or (tricks_done == 6) != (s[K.TO_ACT] < 0):
                            return 13, hand, nact

            # --- the hand is over -----------------------------------------------------------------
            score_sum = 0
            for p in range(PLAYERS):
                score_sum += s[K.SCORES + p]
            if score_sum != 0:
                return 19, hand, nact
            thrown = s[K.OUTCOME] == K.OUTCOME_THROWN_IN
            should_throw = passes == PLAYERS and no_pick == K.NO_PICK_DOUBLER
            if thrown != should_throw:
                return 23, hand, nact
            if thrown:
                for p in range(PLAYERS):
                    if s[K.SCORES + p] != 0:
                        return 18, hand, nact
                continue
            if tricks_done != 6:
                return 26, hand, nact
            if no_pick == K.NO_PICK_FORCED and picker < 0:
                return 22, hand, nact
            if picker >= 0:
                for p in range(PLAYERS):
                    if s[K.POINTS_TAKEN + p] != won_points[p] or s[K.TRICKS_WON + p] != won_tricks[p]:
                        return 15, hand, nact
                if s[K.PARTNER] != partner or s[K.PICKER] != picker:
                    return 21, hand, nact
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
                    side += _points_of(bury)
                else:
                    defenders += _points_of(bury)
                if side + defenders != 120:
                    return 14, hand, nact
                if s[K.SIDE_POINTS] != side:
                    return 16, hand, nact
                win, m = oracle_picker_scores(picker, partner, side_tricks, side, bump, doubled, expected)
                outcome = K.OUTCOME_WIN if win else K.OUTCOME_LOSS
                if s[K.OUTCOME] != outcome or s[K.MULTIPLIER] != m:
                    return 17, hand, nact
            else:
                won_points[last_winner] += _points_of(blind)  # the blind goes with the last trick
                taken = 0
                for p in range(PLAYERS):
                    taken += s[K.POINTS_TAKEN + p]
                    if s[K.POINTS_TAKEN + p] != won_points[p] or s[K.TRICKS_WON + p] != won_tricks[p]:
                        return 15, hand, nact
                if taken != 120:
                    return 20, hand, nact
                if s[K.OUTCOME] != K.OUTCOME_LEASTER:
                    return 17, hand, nact
                oracle_leaster_scores(won_points, won_tricks, doubled, expected)
            for p in range(PLAYERS):
                if s[K.SCORES + p] != expected[p]:
                    return 18, hand, nact
        return OK, -1, 0

    return check_hands


@pytest.fixture(scope="module")
def check_hands(engine_fingerprint):
    return _make_checker(engine_fingerprint)


OPTION_SETS = [
    # (id, options, hands, every n-th hand a doubled play-off)
    ("default", {}, 600_000, 0),
    ("no_call-unknown", {"no_call": "unknown"}, 100_000, 0),
    ("partner-jack_of_diamonds", {"partner": "jack_of_diamonds"}, 100_000, 0),
    ("no_pick-doubler", {"no_pick": "doubler"}, 100_000, 3),
    ("no_pick-forced-double_on_bump", {"no_pick": "forced", "double_on_bump": True}, 100_000, 0),
]
assert sum(row[2] for row in OPTION_SETS) >= 100_000


def _replay(game, seed, hand, doubled, acts, nact) -> str:
    labels = [A.action_label(int(a)) for a in acts[:nact]]
    return (f"game.new_hand(seed={seed}, dealer={hand % 5}, hand={hand}, doubled={doubled}); "
            f"actions {labels}")


@pytest.mark.parametrize("name, options, hands, doubled_every", OPTION_SETS,
                         ids=[row[0] for row in OPTION_SETS])
def test_invariants_after_every_step(check_hands, name, options, hands, doubled_every):
    game = tricksim.make_game("sheepshead", **options)
    seed = 20240611
    acts = np.zeros(64, dtype=np.int64)
    code, hand, nact = check_hands(seed, 0, hands, game.option_array, doubled_every, acts)
    if code != OK:
        doubled = doubled_every > 0 and hand % doubled_every == 0
        pytest.fail(f"{name}: hand {hand}: {ERRORS[code]} (error {code}) after action {nact}; "
                    f"replay: {game!r}, {_replay(game, seed, hand, doubled, acts, nact)}")


# --- the checker itself must catch broken states ----------------------------------------------


def test_locate_catches_a_card_in_two_places_or_missing():
    state = tricksim.make_game("sheepshead").new_hand(seed=1, dealer=0)
    s = state.array
    assert locate(s, np.int64(0)) == OK
    a_card = int(s[K.HANDS + 0]) & -int(s[K.HANDS + 0])
    broken = s.copy()
    broken[K.HANDS + 1] |= a_card  # the same card in seats 0 and 1
    assert locate(broken, np.int64(0)) == 2
    broken = s.copy()
    broken[K.HANDS + 0] &= ~a_card  # a card gone
    assert locate(broken, np.int64(0)) == 3


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


# --- the same invariants through the public State API (hypothesis) -----------------------------

OPTIONS = st.fixed_dictionaries({
    "no_call": st.sampled_from(["alone", "unknown"]),
    "partner": st.sampled_from(["called_ace", "jack_of_diamonds"]),
    "no_pick": st.sampled_from(["leaster", "doubler", "forced"]),
    "double_on_bump": st.booleans(),
})


def _mask(labels) -> int:
    return sum(1 << parse_card(label) for label in labels)


def _check_places(state, picker, blind, blind_out):
    """Every card in exactly one place, from the public API; the blind is what nobody sees
    until it is picked (``blind_out``: the blind is still out of every hand)."""
    places = [state.hand(seat).mask for seat in range(5)]
    places += [_mask(cards) for _, cards, _ in state.tricks()]
    observed = state.observe(0)
    places.append(_mask(observed["current_trick"]))
    if picker is not None:
        view = state.observe(picker)
        places.append(_mask(view["buried"]))
        unknown = view["unknown"]
        played = {c for _, cards, _ in state.tricks() for c in cards} | set(observed["current_trick"])
        if unknown is not None and unknown not in played:
            places.append(_mask([unknown]))
    seen = 0
    for m in places:
        assert seen & m == 0, f"a card is in two places: {places}"
        seen |= m
    assert seen | (blind if blind_out else 0) == DECK_MASK and not (blind_out and seen & blind)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTIONS, seed=st.integers(0, 2**63 - 1), dealer=st.integers(0, 4),
       hand=st.integers(0, 2**31), doubled=st.booleans(), data=st.data())
def test_public_api_invariants(options, seed, dealer, hand, doubled, data):
    game = tricksim.make_game("sheepshead", **options)
    state = game.new_hand(seed, dealer, hand, doubled=doubled)
    assert [len(state.hand(seat)) for seat in range(5)] == [6] * 5
    dealt = 0
    for seat in range(5):
        dealt |= state.hand(seat).mask
    blind = DECK_MASK & ~dealt
    assert bin(blind).count("1") == 2

    picker = None
    bury = 0
    passes = 0
    plays: list[tuple[int, str]] = []  # (seat, card) in play order
    _check_places(state, picker, blind, True)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "no legal action while the hand is not over"
        seat = state.current_player
        action = data.draw(st.sampled_from(legal))
        label = state.action_label(action)
        state.apply(action)
        if label == "pick":
            picker = seat
        elif label == "pass":
            passes += 1
        elif label.startswith("bury "):
            bury |= _mask([label[5:]])
        elif label.startswith("play "):
            plays.append((seat, label[5:]))
            if len(plays) % 5 == 0:
                leader, cards, winner = state.tricks()[len(plays) // 5 - 1]
                trick = plays[-5:]
                assert [p for p, _ in trick] == [(leader + k) % 5 for k in range(5)], \
                    "a trick needs one card from each seat, clockwise from its leader"
                assert cards == [c for _, c in trick]
        _check_places(state, picker, blind, picker is None)
    assert state.legal_actions() == []

    result = state.result()
    scores = state.scores()
    assert sum(scores) == 0
    assert result["scores"] == scores
    assert result["picker"] == picker
    tricks = state.tricks()
    if result["thrown_in"]:
        assert options["no_pick"] == "doubler" and passes == 5 and tricks == []
        assert scores == [0] * 5
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
    holders = [p for p, c in plays if partner_card >= 0 and parse_card(c) == partner_card and p != picker]
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
