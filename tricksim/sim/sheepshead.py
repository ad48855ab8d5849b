"""Sheepshead, five-handed call-an-ace (docs/rules.md, Sheepshead), as numba functions over one
int64 array per hand.

Defaults: ``no_call = alone``, ``partner = called_ace``, ``no_pick = leaster``,
``double_on_bump = false``; a match is ``hands = 10`` hands.

Decisions where the rule book leaves room (also in the issue note):

* The picker may lead his hold card himself; that is the called suit's first lead.
* ``no_call = unknown`` applies only when no ace (or ten) call is legal; the picker
  then calls the ace of a fail suit he is void in and whose ace he neither holds
  nor buried. The unknown is played as ``play XX`` with its real card, which then
  shows in the trick; it counts as the called suit and never wins.
* With ``partner = jack_of_diamonds`` there is no call step at all.

Actions used (ids from ``actions``): pass, pick, bury XX, call XX, alone, under XX,
play XX.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..cards import CLUBS, HEARTS, SPADES, card, parse_cards
from . import actions as A
from .kernels import (
    ALWAYS_WINS,
    beaten_by,
    bit,
    copy_slots,
    draw_cards,
    follow_mask,
    has,
    mask_points,
    popcount,
    seed_stream,
    trick_winner,
)
from .layout import phases, state_layout

PLAYERS = 5
HAND_SIZE = 6
NUM_TRICKS = 6

# --- tables (docs/rules.md, Sheepshead: Trumps and card points) --------------

TRUMP = 4  # effective suit of the fourteen trumps
TRUMP_ORDER = parse_cards("QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D")  # high to low
FAIL_ORDER = "A T K 9 8 7".split()  # high to low within clubs, spades, hearts
FAIL_SUITS = (CLUBS, SPADES, HEARTS)
RANK_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


def _deck():
    return np.array(sorted(card(r, s) for s in "CDHS" for r in "789TJQKA"), dtype=np.int64)


def _effective():
    eff = np.full(54, -1, dtype=np.int64)
    for c in DECK:
        eff[c] = c // 13
    eff[TRUMP_ORDER] = TRUMP
    return eff


def _power():
    power = np.full(54, -1, dtype=np.int64)
    for i, c in enumerate(TRUMP_ORDER):
        power[c] = ALWAYS_WINS + len(TRUMP_ORDER) - i
    for suit in "CSH":
        for i, r in enumerate(FAIL_ORDER):
            power[card(r, suit)] = len(FAIL_ORDER) - i
    return power


def _points():
    points = np.zeros(54, dtype=np.int64)
    for c in DECK:
        points[c] = RANK_POINTS.get("23456789TJQKA"[c % 13], 0)
    return points


DECK = _deck()
DECK_MASK = sum(1 << int(c) for c in DECK)
EFFECTIVE = _effective()
POWER = _power()
POINTS = _points()
SUIT_MASKS = np.array(
    [sum(1 << int(c) for c in DECK if EFFECTIVE[c] == e) for e in range(5)], dtype=np.int64
)
BEATEN_BY = beaten_by(EFFECTIVE, POWER, DECK_MASK)  # BEATEN_BY[c]: the cards that beat a winning c
ACES = np.array([card("A", "CDHS"[s]) for s in range(4)], dtype=np.int64)
TENS = np.array([card("T", "CDHS"[s]) for s in range(4)], dtype=np.int64)
JACK_OF_DIAMONDS = card("J", "D")

# --- options, as stored in the state ----------------------------------------

NO_CALL_ALONE, NO_CALL_UNKNOWN = 0, 1
PARTNER_CALLED_ACE, PARTNER_JD = 0, 1
NO_PICK_LEASTER, NO_PICK_DOUBLER, NO_PICK_FORCED = 0, 1, 2

# --- state layout: one int64 array ------------------------------------------

TRICK_SLOTS = PLAYERS + 2  # a trick's record: leader, 5 cards in play order, winner
SLOTS = state_layout(globals(), [
    ("HANDS", PLAYERS, "hand masks, seat order"),
    ("BLIND", 1, "mask of the blind (until picked; in a leaster, until the last trick)"),
    ("BURIED", 1, "mask of the bury"),
    ("UNKNOWN", 1, "the card set aside face down, -1 if none"),
    ("UNKNOWN_TRICK", 1, "trick in which the unknown was played, -1 until then"),
    ("PHASE", 1, "the phase, an index into PHASE_NAMES"),
    ("DEALER", 1, "the dealer's seat"),
    ("TO_ACT", 1, "seat to act, -1 once the hand is over"),
    ("PICKER", 1, "-1 until somebody picks"),
    ("CALLED", 1, "called card, -1 if none"),
    ("PARTNER", 1, "seat holding the called card (or JD), -1 if none: full information"),
    ("REVEALED", 1, "1 once the partner's card has been played"),
    ("PASSES", 1, "passes so far in the picking round"),
    ("LEADER", 1, "leader of the current trick"),
    ("TRICK_NO", 1, "tricks completed"),
    ("IN_TRICK", 1, "cards in the current trick"),
    ("LED", 1, "effective suit of the current trick's lead, -1 before it"),
    ("CALLED_SUIT_LED", 1, "1 once the called suit has been led"),
    ("PLAYED", 1, "mask of the cards played so far"),
    ("POINTS_TAKEN", PLAYERS, "card points taken in tricks (leaster: blind included)"),
    ("TRICKS_WON", PLAYERS, "tricks taken by each seat"),
    ("SCORES", PLAYERS, "this hand's units"),
    ("OUTCOME", 1, "OUTCOME_* code"),
    ("MULTIPLIER", 1, "m of the scoring band"),
    ("SIDE_POINTS", 1, "picker side's card points, bury included when it counts"),
    ("DOUBLED", 1, "1 in a doubler play-off hand: scores x2"),
    ("OPT_NO_CALL", 1, "option no_call: NO_CALL_*"),
    ("OPT_PARTNER", 1, "option partner: PARTNER_*"),
    ("OPT_NO_PICK", 1, "option no_pick: NO_PICK_*"),
    ("OPT_DOUBLE_ON_BUMP", 1, "option double_on_bump: 0 or 1"),
    ("TRICKS", NUM_TRICKS * TRICK_SLOTS, "per trick, TRICK_SLOTS"),
])

LEFT = np.array([1, 2, 3, 4, 0], dtype=np.int64)  # the seat left of each seat

PHASE_NAMES = phases(globals(), [
    ("PICKING", "picking"),
    ("BURYING", "bury"),
    ("CALLING", "call"),
    ("UNDERING", "under"),
    ("PLAYING", "play"),
    ("OVER", "over"),
])
CARD_KIND = np.array([-1, A.BURY, A.CALL, A.UNDER, A.PLAY, -1], dtype=np.int64)
OUTCOME_NONE, OUTCOME_WIN, OUTCOME_LOSS, OUTCOME_LEASTER, OUTCOME_THROWN_IN = range(5)
OUTCOME_NAMES = ("", "win", "loss", "leaster", "thrown_in")

# --- deal ---------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def reset(s, dealer, options, doubled):
    """Clear ``s`` for a new hand (hands not yet dealt)."""
    s[:] = 0
    s[UNKNOWN] = s[UNKNOWN_TRICK] = s[PICKER] = s[CALLED] = s[PARTNER] = s[LED] = -1
    s[DEALER] = dealer
    s[OPT_NO_CALL:OPT_DOUBLE_ON_BUMP + 1] = options
    s[DOUBLED] = doubled
    s[PHASE] = PICKING
    s[TO_ACT] = s[LEADER] = LEFT[dealer]


@nb.njit(cache=True, inline="always")
def deal_random(s, seed, hand, dealer, options, doubled, rng):
    """Deal hand number ``hand`` of ``seed``: 6 random cards a seat, the other 2 to the blind.
    ``rng`` is a random stream (``kernels.new_rng``), used as scratch."""
    reset(s, dealer, options, doubled)
    seed_stream(rng, seed, hand, 0)
    remaining = DECK_MASK
    for seat in range(PLAYERS):
        s[HANDS + seat], remaining = draw_cards(remaining, HAND_SIZE, rng)
    s[BLIND] = remaining


@nb.njit(cache=True, inline="always")
def deal(s, seed, hand, players, options, rng):
    """Hand ``hand`` of ``seed``, dealer ``hand % players``, not a doubler play-off: the deal with
    every game's signature (``tricksim.spec.Rules``)."""
    deal_random(s, seed, hand, hand % players, options, 0, rng)


# --- phases -------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def _start_play(s):
    s[PHASE] = PLAYING
    s[LEADER] = s[TO_ACT] = LEFT[s[DEALER]]


@nb.njit(cache=True, inline="always")
def _pick(s, seat, action):
    if action == A.PICK:
        s[PICKER] = seat
        s[HANDS + seat] |= s[BLIND]
        s[BLIND] = 0
        s[PHASE] = BURYING
        return
    s[PASSES] += 1
    if s[PASSES] < PLAYERS:
        s[TO_ACT] = LEFT[seat]
    elif s[OPT_NO_PICK] == NO_PICK_DOUBLER:
        s[OUTCOME] = OUTCOME_THROWN_IN
        _end(s)
    else:  # leaster (forced never gets here: the dealer cannot pass)
        _start_play(s)


@nb.njit(cache=True, inline="always")
def _bury(s, seat, c):
    s[HANDS + seat] &= ~bit(c)
    s[BURIED] |= bit(c)
    if popcount(s[BURIED]) < 2:
        return
    if s[OPT_PARTNER] == PARTNER_CALLED_ACE:
        s[PHASE] = CALLING
        return
    for p in range(PLAYERS):  # jack of diamonds: its holder, if not the picker, is the partner
        if p != seat and has(s[HANDS + p], JACK_OF_DIAMONDS):
            s[PARTNER] = p
            s[CALLED] = JACK_OF_DIAMONDS
    _start_play(s)


@nb.njit(cache=True, inline="always")
def callable_mask(s):
    """Cards the picker may call (docs/rules.md, Sheepshead: Partner); the empty mask means alone only."""
    seat = s[PICKER]
    hand = s[HANDS + seat]
    own = hand | s[BURIED]
    targets = ACES
    if has(own, ACES[CLUBS]) and has(own, ACES[SPADES]) and has(own, ACES[HEARTS]):
        targets = TENS
    calls = np.int64(0)
    for suit in FAIL_SUITS:
        t = targets[suit]
        if not has(own, t) and hand & SUIT_MASKS[suit] != 0:
            calls |= bit(t)
    if calls == 0 and s[OPT_NO_CALL] == NO_CALL_UNKNOWN:
        for suit in FAIL_SUITS:
            if not has(own, ACES[suit]) and hand & SUIT_MASKS[suit] == 0:
                calls |= bit(ACES[suit])
    return calls


@nb.njit(cache=True, inline="always")
def _call(s, seat, action, c):
    if action != A.ALONE:
        s[CALLED] = c
        for p in range(PLAYERS):
            if has(s[HANDS + p], c):
                s[PARTNER] = p
        if s[HANDS + seat] & SUIT_MASKS[EFFECTIVE[c]] == 0:  # a void suit: the unknown
            s[PHASE] = UNDERING
            return
    _start_play(s)


@nb.njit(cache=True, inline="always")
def partner_shown(s, seat):
    """Whether ``seat`` may know who the partner is: the partner himself, and everyone once the
    called card (or JD) has fallen or the hand is over (docs/rules.md, Sheepshead: Partner)."""
    return s[REVEALED] != 0 or seat == s[PARTNER] or s[PHASE] == OVER


@nb.njit(cache=True, inline="always")
def _under(s, seat, c):
    s[HANDS + seat] &= ~bit(c)
    s[UNKNOWN] = c
    _start_play(s)


@nb.njit(cache=True, inline="always")
def play_mask(s, seat):
    """Cards ``seat`` may play now (docs/rules.md, Sheepshead: Partner, Play); the unknown as its card."""
    hand = s[HANDS + seat]
    leading = s[IN_TRICK] == 0
    if seat == s[PICKER] and s[UNKNOWN] >= 0 and s[UNKNOWN_TRICK] < 0:
        if hand == 0 or (not leading and s[LED] == EFFECTIVE[s[CALLED]]):
            return bit(s[UNKNOWN])  # the called suit's first lead, or the last trick
    return hand_play_mask(s, seat, hand, -1 if leading else s[LED], s[TRICK_NO] == NUM_TRICKS - 1,
                          s[CALLED_SUIT_LED])


@nb.njit(cache=True, inline="always")
def hand_play_mask(s, seat, hand, led, last_trick, called_suit_led):
    """The cards of ``hand`` that ``seat`` may play to a trick led in ``led`` (-1: he leads), in
    the last trick or not, the called suit led before or not: following suit and the hold-card
    rules (the unknown aside). The call, the picker and the options are read from ``s``."""
    legal = hand if led < 0 else follow_mask(hand, led, SUIT_MASKS)
    called = s[CALLED]
    if called < 0 or s[OPT_PARTNER] == PARTNER_JD or last_trick:
        return legal
    called_suit = EFFECTIVE[called]
    if has(hand, called):  # the partner, before the called card falls
        if led < 0:
            return legal & ~(SUIT_MASKS[called_suit] & ~bit(called))
        if led == called_suit:
            return bit(called)
        return legal & ~bit(called)
    if seat == s[PICKER] and called_suit_led == 0 and led >= 0 and led != called_suit:
        hold = hand & SUIT_MASKS[called_suit]
        if popcount(hold) == 1:  # his last card of the called suit is the hold card
            return legal & ~hold
    return legal


@nb.njit(cache=True, inline="always")
def played_suit(s, c):
    """The effective suit card ``c`` is played as: its own, but the unknown counts as the called
    suit (docs/rules.md, Sheepshead: The unknown)."""
    return EFFECTIVE[s[CALLED]] if c == s[UNKNOWN] else EFFECTIVE[c]


@nb.njit(cache=True, inline="always")
def _play(s, seat, c):
    slot = TRICKS + s[TRICK_NO] * TRICK_SLOTS
    n = s[IN_TRICK]
    if n == 0:
        s[slot] = seat
    s[slot + 1 + n] = c
    if c == s[UNKNOWN]:  # only the picker holds it
        s[UNKNOWN_TRICK] = s[TRICK_NO]
    else:
        s[HANDS + seat] &= ~bit(c)
    led_suit = played_suit(s, c)
    s[PLAYED] |= bit(c)
    if c == s[CALLED]:
        s[REVEALED] = 1
    if n == 0:
        s[LED] = led_suit
        if is_called_suit(s, led_suit):
            s[CALLED_SUIT_LED] = 1
    s[IN_TRICK] = n + 1
    if n + 1 < PLAYERS:
        s[TO_ACT] = LEFT[seat]
    else:
        _end_trick(s, slot)


@nb.njit(cache=True, inline="always")
def is_called_suit(s, suit):
    """Whether ``suit`` is the called card's effective suit (a lead of it is the called suit's)."""
    return s[CALLED] >= 0 and suit == EFFECTIVE[s[CALLED]]


@nb.njit(cache=True, inline="always")
def winning_position(s, n):
    """Position (0 = leader) of the card winning the current trick after its first ``n`` cards:
    the highest trick power, the unknown never winning (docs/rules.md, Sheepshead: Play, The unknown)."""
    slot = TRICKS + s[TRICK_NO] * TRICK_SLOTS
    cannot_win = (s[PICKER] - s[slot] + PLAYERS) % PLAYERS if s[UNKNOWN_TRICK] == s[TRICK_NO] else -1
    return trick_winner(s, slot + 1, n, s[LED], EFFECTIVE, POWER, cannot_win)


@nb.njit(cache=True, inline="always")
def _end_trick(s, slot):
    leader = s[slot]
    winner = leader + winning_position(s, PLAYERS)
    if winner >= PLAYERS:
        winner -= PLAYERS
    s[slot + 1 + PLAYERS] = winner
    points = 0
    for i in range(PLAYERS):
        points += POINTS[s[slot + 1 + i]]
    s[POINTS_TAKEN + winner] += points
    s[TRICKS_WON + winner] += 1
    s[TRICK_NO] += 1
    s[IN_TRICK] = 0
    s[LED] = -1
    s[LEADER] = s[TO_ACT] = winner
    if s[TRICK_NO] == NUM_TRICKS:
        if s[PICKER] < 0:  # leaster: the blind goes with the last trick
            s[POINTS_TAKEN + winner] += mask_points(s[BLIND], POINTS)
            s[BLIND] = 0
            _score_leaster(s)
        else:
            _score_picker(s)
        _end(s)


@nb.njit(cache=True, inline="always")
def _end(s):
    s[PHASE] = OVER
    s[TO_ACT] = -1
    factor = hand_factor(s)
    for p in range(PLAYERS):
        s[SCORES + p] *= factor


@nb.njit(cache=True, inline="always")
def hand_factor(s):
    """What every unit of this hand's scores counts: 2 in a doubler play-off hand, else 1
    (docs/rules.md, Sheepshead: Result and scores)."""
    return 2 if s[DOUBLED] else 1


# --- scoring (docs/rules.md, Sheepshead: Result and scores, Nobody picks) -------


@nb.njit(cache=True, inline="always")
def _score_leaster(s):
    s[OUTCOME] = OUTCOME_LEASTER
    best, fewest, tied = -1, 1 << 30, False
    for p in range(PLAYERS):
        if s[TRICKS_WON + p] > 0:
            pts = s[POINTS_TAKEN + p]
            if pts < fewest:
                best, fewest, tied = p, pts, False
            elif pts == fewest:
                tied = True
    if not tied:
        for p in range(PLAYERS):
            s[SCORES + p] = PLAYERS - 1 if p == best else -1


@nb.njit(cache=True, inline="always")
def picker_units(points, tricks, alone, double_on_bump):
    """``(picker, partner, defender)`` units of a picker hand whose side took ``tricks`` tricks and
    ``points`` card points (bury included), the multiplier and whether the side won; before any
    doubling of the hand (docs/rules.md, Sheepshead: Result and scores)."""
    if tricks == NUM_TRICKS:
        m, win = 3, True
    elif tricks == 0:
        m, win = 3, False
    elif points >= 91:
        m, win = 2, True
    elif points >= 61:
        m, win = 1, True
    elif points >= 31:
        m, win = 1, False
    else:
        m, win = 2, False
    sign = 1 if win else -(2 if double_on_bump else 1)
    if tricks == 0:  # the partner pays nothing, the picker 3 to each defender
        return sign * 3 * (PLAYERS - 1 if alone else PLAYERS - 2), 0, -sign * 3, m, win
    return sign * (4 * m if alone else 2 * m), sign * m, -sign * m, m, win


@nb.njit(cache=True, inline="always")
def picker_side_taken(s):
    """``(tricks, card points in tricks)`` the picker and his partner have taken so far (the bury
    not counted)."""
    picker, partner = s[PICKER], s[PARTNER]
    tricks = s[TRICKS_WON + picker]
    points = s[POINTS_TAKEN + picker]
    if partner >= 0:
        tricks += s[TRICKS_WON + partner]
        points += s[POINTS_TAKEN + partner]
    return tricks, points


@nb.njit(cache=True, inline="always")
def bury_shares(s, tricks):
    """``(picker's side, defenders)``: the bury's card points each side counts when the picker's
    side has taken ``tricks`` tricks: all to the picker's side once it has one, else all to the
    defenders (docs/rules.md, Sheepshead: Result and scores)."""
    bury = mask_points(s[BURIED], POINTS)
    return (bury, 0) if tricks > 0 else (0, bury)


@nb.njit(cache=True, inline="always")
def _score_picker(s):
    picker, partner = s[PICKER], s[PARTNER]
    tricks, points = picker_side_taken(s)
    points += bury_shares(s, tricks)[0]
    s[SIDE_POINTS] = points
    picker_score, partner_score, defender_score, m, win = picker_units(points, tricks, partner < 0,
                                                                       s[OPT_DOUBLE_ON_BUMP])
    s[MULTIPLIER] = m
    s[OUTCOME] = OUTCOME_WIN if win else OUTCOME_LOSS
    for p in range(PLAYERS):
        s[SCORES + p] = defender_score
    if partner >= 0:
        s[SCORES + partner] = partner_score
    s[SCORES + picker] = picker_score


# --- legal moves and step -----------------------------------------------------


@nb.njit(cache=True, inline="always")
def legal(s):
    """The legal actions now as ``(word_mask, card_mask, card_kind)``.

    ``word_mask`` has bit ``a`` set for each legal action id ``a < 64`` (pass,
    pick, alone); ``card_mask`` holds the cards of the legal card actions, of
    kind ``card_kind``. Both are empty once the hand is over.
    """
    phase = s[PHASE]
    seat = s[TO_ACT]
    if phase == PLAYING:  # first: nearly every decision of a hand is a card to play
        return np.int64(0), play_mask(s, seat), np.int64(A.PLAY)
    words = np.int64(0)
    cards = np.int64(0)
    if phase == PICKING:
        words = bit(A.PICK)
        forced = s[OPT_NO_PICK] == NO_PICK_FORCED and s[PASSES] == PLAYERS - 1
        if not forced:
            words |= bit(A.PASS)
    elif phase == BURYING:
        cards = s[HANDS + seat]
    elif phase == CALLING:
        words = bit(A.ALONE)
        cards = callable_mask(s)
    elif phase == UNDERING:
        cards = s[HANDS + seat]
    return words, cards, CARD_KIND[phase]


@nb.njit(cache=True, inline="always")
def step(s, action):
    """Apply ``action`` (an action id) for the seat to act; it must be legal (unchecked)."""
    seat = s[TO_ACT]
    phase = s[PHASE]
    if phase == PLAYING:
        _play(s, seat, action - A.card_action(A.PLAY, 0))
        return
    c = action - A.card_action(CARD_KIND[phase], 0)  # the card of a card action
    if phase == PICKING:
        _pick(s, seat, action)
    elif phase == BURYING:
        _bury(s, seat, c)
    elif phase == CALLING:
        _call(s, seat, action, c)
    else:
        _under(s, seat, c)


# --- the hand's row (the batch loops', agents/loops.py) ---------------------------

RECORD = ("dealer", "picker", "partner", "called", "picker_points", "outcome", "multiplier",
          "score_0", "score_1", "score_2", "score_3", "score_4")


@nb.njit(cache=True, inline="always")
def record(s, out, i):
    """Write the finished hand ``s`` into row ``i`` of ``out`` (columns RECORD)."""
    out[i, 0] = s[DEALER]
    out[i, 1] = s[PICKER]
    out[i, 2] = s[PARTNER]
    out[i, 3] = s[CALLED]
    out[i, 4] = s[SIDE_POINTS]
    out[i, 5] = s[OUTCOME]
    out[i, 6] = s[MULTIPLIER]
    copy_slots(out, i, 7, s, SCORES, PLAYERS)
