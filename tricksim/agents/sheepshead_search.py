"""Sheepshead's search hooks (docs/rules.md, Sheepshead): what a seat knows, for the world sampler, and the
solver's calls.

``family.py`` dispatches the generic ``sample``, ``same_side``, ``play_key``, ``score_key``,
``side_points``, ``points_bounds``, ``score_bounds``, ``merge`` and ``move_priority`` here; the exact
solver, PIMC and ISMCTS are written once over them.

**What a seat knows** (the knowledge ``sample`` keeps). A world keeps, for ``seat``:

* its own hand, and everything public: every card played and by whom (the trick history and the
  current trick), the picker, the passes, the call (``CALLED``, public with a called ace), each
  seat's hand size, the size of the blind, the bury and the unknown;
* what it saw: the picker saw the blind, so he knows his bury and his unknown (``seat ==
  PICKER``: those piles stay as they are); before the pick nobody saw the blind, and in a
  leaster it stays hidden until it goes with the last trick;
* voids shown in play: a seat that did not follow the effective suit led holds none of it. The
  suit led is the lead's effective suit, the unknown counting as the called suit. Sheepshead has
  no trump-at-will or renege rule, so every failure to follow shows a void; the one card that is
  not evidence is the picker's unknown (it is forced when the called suit is led, and on the last
  trick; he is void in the called suit anyway, see below);
* the hold-card rules (called ace / ten only, not the jack of diamonds):

  - the called card ``C`` (of suit ``X``) is held by a seat other than the picker; it is neither
    in the bury nor the unknown (the picker may call only a card he neither holds nor buried);
  - the partner must play ``C`` the first time ``X`` is led and may lead ``X`` only with ``C``:
    while ``C`` is unplayed on that first ``X`` trick, the seats that already played to it do not
    hold ``C``;
  - the picker of a regular call held an ``X`` card at the call and may not shed his last one
    before ``X`` is first led, so he still held one then: unless he has played an ``X`` card since
    that first lead (or ``X`` has not been led yet), his hand (if not empty) holds an ``X`` card;
  - the call itself was legal for the picker's cards at the call (his hand, the cards he has
    played since and the unknown) and his bury: a ten call means he held or buried all three fail
    aces; an unknown call (``no_call = unknown``) means no ace or ten call was legal, and that he
    was void in ``X`` (so his hand and the unknown hold no ``X`` card). This is checked with the
    game's own ``callable_mask``.

The sampler does not read the picks as evidence: to it a pass or a pick says nothing about the
cards, and neither do the bury and call beyond what the rules force (which call was legal); the
inference (``agents.inference``, ``auction_log_chance`` here) weighs the worlds by them. With the jack of
diamonds nothing is known about who holds JD until it falls (the picker knows whether he has it).

**How** (``sample``): the one sampler of ``agents.sampler``, which deals the unseen cards again
uniformly over the deals that keep this knowledge. Its places are the other seats' hands, the
blind, and for a seat other than the picker the bury and an unplayed unknown; ``knowledge`` gives
each the cards it may hold (the masks above), ``holds`` the picker's hold card and the legal call,
and ``variant`` the constructive deal's two disjunctive facts (a regular call's picker holds an
``X`` card: a quota of one; an unknown call's picker owned the ace of, or was void in, each other
fail suit: one variant per choice). After the deal, ``finish`` recomputes the full-information
slots that depend on it: ``PARTNER`` (the holder of the called card, or of JD, whose ``CALLED`` is
then JD); every other slot is public and copied, so ``legal``, ``step`` and the scoring run on a
world as on a real deal.

**Solver hooks.** Sides form with the call (``PHASE >= UNDERING``): the picker and the partner
against the rest; before that, and in a leaster or a thrown-in hand, everyone is alone.
``side_points`` counts the bury for the picker's side once it has taken a trick, else for the
defenders, exactly as the scoring does; so its remainder depends on whether the picker's side has
taken a trick yet, and ``play_key`` folds that one flag in (only when the bury holds points).
``merge`` keeps one card of each run of equal-point cards of one effective suit with no live card
(in a hand, the unknown, or the current trick) between them; buried cards and the leaster's blind
never play, so they do not split a run. The called card, the jack of diamonds (with that option),
the unknown and, while the hold-card rule holds, the picker's called-suit cards are never merged.
``endgame`` solves the last three tricks of a picker hand by a search of its own: a loop a seat,
the state no more than the cards gone and the tallies (the game's own ``hand_play_mask`` for the
cards a seat may play, the scoring's ``picker_units``), far cheaper a position than the solver's.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np
from numba.core import types
from numba.core.errors import TypingError
from numba.extending import overload

from ..cards import CLUBS, HEARTS, SPADES
from ..sim import sheepshead as K
from ..sim import actions as A
from ..sim.kernels import (NO_BOUND, bit, follow_mask, has, hash_mix, highest_bit, lowest_card, mask_points, popcount, suit_orders,
                           trick_power)
from .inference import soft_log_chance
from .sampler import QUOTA_COUNT, QUOTA_MASK, QUOTA_PLACE, TRIES, world
from .sheepshead import act as heuristic_act, picks

P = K.PLAYERS
BLIND_PLACE, BURY_PLACE, UNKNOWN_PLACE = P, P + 1, P + 2  # places 0..4 are the seats' hands
PLACES = P + 3
PICKER_PLAYED, NEED_X = range(2)  # the facts ``knowledge`` keeps for the other hooks
FAIL_ACES = np.array([K.ACES[CLUBS], K.ACES[SPADES], K.ACES[HEARTS]], dtype=np.int64)
FAIL_SUITS = np.array([CLUBS, SPADES, HEARTS], dtype=np.int64)
# the tricks left from which ``endgame`` settles a trick start (measured on 300 deals: from the
# fourth-last trick, the exact points take 1.9 times as long; nothing is kept between its positions)
ENDGAME_TRICKS = 3
TENS = int(sum(1 << int(c) for c in K.TENS))


# the points a card is played for, in the solver's move order: a queen or jack (3 or 2 points) is
# worth more as a trump than as points (measured: counting them costs 1.3 times the positions)
WORTH = np.where(K.POINTS >= 4, K.POINTS, 0)


SUIT_ORDER = suit_orders(K.EFFECTIVE, K.POWER, K.DECK_MASK, 5, 14)  # per effective suit, strongest first

# the slots play_key reads as they are (each changes the legal moves, the tricks or the score)
KEY_SLOTS = np.array([K.BLIND, K.BURIED, K.PHASE, K.DEALER, K.TO_ACT, K.PICKER, K.CALLED, K.PARTNER,
                      K.REVEALED, K.PASSES, K.LEADER, K.TRICK_NO, K.IN_TRICK, K.LED, K.CALLED_SUIT_LED,
                      K.DOUBLED, K.OPT_NO_CALL, K.OPT_PARTNER, K.OPT_NO_PICK, K.OPT_DOUBLE_ON_BUMP],
                     dtype=np.int64)


# --- small readers of the state ------------------------------------------------------


@nb.njit(cache=True)
def _called_ace_rules(s):
    """Whether the hold-card rules apply: a card was called (not the jack of diamonds)."""
    return s[K.CALLED] >= 0 and s[K.OPT_PARTNER] == K.PARTNER_CALLED_ACE


@nb.njit(cache=True)
def _unknown_call(s):
    """Whether the call was an unknown call (public: the picker set a card aside, or is about to)."""
    return _called_ace_rules(s) and (s[K.UNKNOWN] >= 0 or s[K.PHASE] == K.UNDERING)


@nb.njit(cache=True)
def _get_place(s, q):
    """The cards at place ``q`` of ``s``."""
    if q < P:
        return s[K.HANDS + q]
    if q == BLIND_PLACE:
        return s[K.BLIND]
    if q == BURY_PLACE:
        return s[K.BURIED]
    return bit(s[K.UNKNOWN]) if s[K.UNKNOWN] >= 0 and s[K.UNKNOWN_TRICK] < 0 else np.int64(0)


@nb.njit(cache=True)
def _set_place(s, q, cards):
    """Put ``cards`` at place ``q`` of ``s`` (the unknown place holds one card)."""
    if q < P:
        s[K.HANDS + q] = cards
    elif q == BLIND_PLACE:
        s[K.BLIND] = cards
    elif q == BURY_PLACE:
        s[K.BURIED] = cards
    else:
        s[K.UNKNOWN] = lowest_card(cards)


@nb.njit(cache=True)
def _hidden(s, seat, q):
    """The cards at place ``q`` hidden from ``seat`` (0: nothing hidden there)."""
    if q == seat:
        return np.int64(0)
    if (q == BURY_PLACE or q == UNKNOWN_PLACE) and seat == s[K.PICKER]:
        return np.int64(0)  # the picker made them (nobody has seen a blind still lying there)
    return _get_place(s, q)


# --- what the public play shows --------------------------------------------------------


@nb.njit(cache=True)
def _public_play(s, allow):
    """Read the trick history: take out of ``allow[p]`` the suits seat ``p`` showed void in, and
    the called card for the seats that passed over it on its suit's first lead. Returns the
    cards the picker has played, and whether he has played a card of the called suit since it
    was first led."""
    picker = s[K.PICKER]
    called = s[K.CALLED]
    rules = _called_ace_rules(s)
    called_live = rules and not has(s[K.PLAYED], called)
    x = K.EFFECTIVE[called] if rules else -1
    x_led = False
    x_since = False
    picker_played = np.int64(0)
    for t in range(min(s[K.TRICK_NO] + 1, K.NUM_TRICKS)):
        slot = K.TRICKS + t * K.TRICK_SLOTS
        current = t == s[K.TRICK_NO]
        n = s[K.IN_TRICK] if current else P
        if n == 0:
            continue
        leader = s[K.LEADER] if current else s[slot]
        led = K.played_suit(s, s[slot + 1])
        x_led = x_led or led == x
        for i in range(n):
            p = (leader + i) % P
            c = s[slot + 1 + i]
            if p == picker:
                picker_played |= bit(c)
                x_since = x_since or (x_led and K.EFFECTIVE[c] == x)
            if i > 0 and c != s[K.UNKNOWN] and K.EFFECTIVE[c] != led:
                allow[p] &= ~K.SUIT_MASKS[led]
            if current and called_live and led == x:  # C unplayed on X's first lead: its holder must play it
                allow[p] &= ~bit(called)
    return picker_played, x_since


@nb.njit(cache=True, inline="always")
def knowledge(s, seat, h, room, allow, facts):
    """The sampler's ``knowledge`` (``agents.sampler``): the places (five hands, the blind, the bury,
    the unknown), what each hides from ``seat``, and the cards each may hold by public play and
    the call (module docstring). ``facts``: the picker's played cards (``PICKER_PLAYED``), and the
    cards of which his hand must hold one (``NEED_X``, 0: no such rule)."""
    unseen = np.int64(0)
    for q in range(PLACES):
        content = _hidden(s, seat, q)
        room[q] = popcount(content)
        unseen |= content
        allow[q] = K.DECK_MASK
    picker_played, x_since = _public_play(s, allow)
    facts[PICKER_PLAYED], facts[NEED_X] = picker_played, 0
    if not _called_ace_rules(s):
        return PLACES, 1, unseen
    picker = s[K.PICKER]
    called = s[K.CALLED]
    x_cards = K.SUIT_MASKS[K.EFFECTIVE[called]]
    allow[picker] &= ~bit(called)  # the picker neither held nor buried C
    allow[BLIND_PLACE] &= ~bit(called)
    allow[BURY_PLACE] &= ~bit(called)
    allow[UNKNOWN_PLACE] &= ~bit(called)
    if _unknown_call(s):  # he was void in X at the call
        allow[picker] &= ~x_cards
        allow[UNKNOWN_PLACE] &= ~x_cards
    elif s[K.HANDS + picker] != 0 and not x_since:
        facts[NEED_X] = x_cards  # he keeps a hold card until X is first led, and has played none since
    if has(TENS, called):  # a ten call: he held or buried all three fail aces
        for q in range(PLACES):
            if q != picker and q != BURY_PLACE:
                for a in FAIL_ACES:
                    allow[q] &= ~bit(a)
    return PLACES, 1, unseen


@nb.njit(cache=True, inline="always")
def put(s, seat, h, cards, room, out):
    """The sampler's ``put``: each hidden place's cards into the world ``out``."""
    for q in range(PLACES):
        if room[q] > 0:
            _set_place(out, q, cards[q])


@nb.njit(cache=True)
def _call_ok(out, picker_played):
    """Whether the call in ``out`` was legal for the picker's cards at the call in ``out`` (his
    hand, the cards he played since and the unknown) and its bury, by the game's own rule."""
    picker = out[K.PICKER]
    hand = out[K.HANDS + picker]
    at_call = hand | picker_played
    if out[K.UNKNOWN] >= 0:
        at_call |= bit(out[K.UNKNOWN])
    out[K.HANDS + picker] = at_call
    ok = has(K.callable_mask(out), out[K.CALLED])
    out[K.HANDS + picker] = hand
    return ok


@nb.njit(cache=True, inline="always")
def holds(s, seat, h, facts, out):
    """The sampler's ``holds``: the picker still holds a called-suit card where the hold-card rule
    says so, and the call was legal for his cards (``_call_ok``)."""
    picker = out[K.PICKER]
    if picker < 0 or picker == seat or not _called_ace_rules(out):
        return True  # the picker's cards are no secret to seat
    if facts[NEED_X] != 0 and out[K.HANDS + picker] & facts[NEED_X] == 0:
        return False
    return _call_ok(out, facts[PICKER_PLAYED])


@nb.njit(cache=True, inline="always")
def finish(s, seat, h, facts, rng, out):
    """The sampler's ``finish``: recompute the slots that follow the deal, the partner (and, with
    the jack of diamonds, the called card and ``CALLED_SUIT_LED``, which the kernel then sets on a
    trump lead), from who holds the partner's card. A card already played keeps its (public) slots."""
    if out[K.OPT_PARTNER] == K.PARTNER_CALLED_ACE:
        called = out[K.CALLED]
        if called >= 0 and not has(out[K.PLAYED], called):
            for p in range(P):
                if has(out[K.HANDS + p], called):
                    out[K.PARTNER] = p
        return
    if out[K.PICKER] < 0 or out[K.PHASE] < K.PLAYING or has(out[K.PLAYED], K.JACK_OF_DIAMONDS):
        return  # no partner yet, or JD has fallen (who played it is public)
    out[K.PARTNER] = -1
    out[K.CALLED] = -1
    out[K.CALLED_SUIT_LED] = 0
    for p in range(P):
        if p != out[K.PICKER] and has(out[K.HANDS + p], K.JACK_OF_DIAMONDS):
            out[K.PARTNER] = p
            out[K.CALLED] = K.JACK_OF_DIAMONDS
    if out[K.CALLED] < 0:
        return
    for t in range(min(out[K.TRICK_NO] + 1, K.NUM_TRICKS)):  # the kernel marks JD's suit led too
        if t < out[K.TRICK_NO] or out[K.IN_TRICK] > 0:
            if K.EFFECTIVE[out[K.TRICKS + t * K.TRICK_SLOTS + 1]] == K.TRUMP:
                out[K.CALLED_SUIT_LED] = 1


@nb.njit(cache=True)
def variant(s, seat, h, v, salt, free, fixed, facts, extra, quota):
    """The sampler's ``variant``: the two disjunctive facts of the picker's cards. Regular call: a
    quota of one called-suit card in his hand. Unknown call: bit ``k`` of variant ``v + salt``
    picks, for the ``k``-th other fail suit whose ace is free, whether the picker owned that ace
    (else he was void in that suit). Returns the number of variants."""
    extra[:] = 0
    quota[QUOTA_COUNT] = 0
    picker = s[K.PICKER]
    if picker < 0 or picker == seat or not _called_ace_rules(s):
        return 1
    if facts[NEED_X] != 0:
        quota[QUOTA_PLACE], quota[QUOTA_MASK], quota[QUOTA_COUNT] = picker, facts[NEED_X], 1
        return 1
    if not _unknown_call(s):
        return 1
    picker_played = facts[PICKER_PLAYED]
    own = fixed[picker] | fixed[BURY_PLACE] | fixed[UNKNOWN_PLACE] | picker_played
    x = K.EFFECTIVE[s[K.CALLED]]
    open_suits = 0  # the suits either branch may hold
    for suit in FAIL_SUITS:
        ace = K.ACES[suit]
        if suit != x and not has(own, ace) and has(free, ace) and picker_played & K.SUIT_MASKS[suit] == 0:
            open_suits += 1
    branches = (v + salt) % (1 << open_suits)
    branch = 0
    for suit in FAIL_SUITS:
        ace = K.ACES[suit]
        if suit == x or has(own, ace):
            continue
        void = True
        if has(free, ace) and picker_played & K.SUIT_MASKS[suit] == 0:
            void = (branches >> branch) & 1 == 0
            branch += 1
        elif has(free, ace):
            void = False
        if void:
            extra[picker] |= K.SUIT_MASKS[suit]
            extra[UNKNOWN_PLACE] |= K.SUIT_MASKS[suit]
        else:
            for q in range(PLACES):
                if q != picker and q != BURY_PLACE and q != UNKNOWN_PLACE:
                    extra[q] |= bit(ace)
    return 1 << open_suits


@nb.njit(cache=True)
def sample(s, seat, rng, out):
    """Write into ``out`` (an int64 array of len(s)) a world consistent with all ``seat`` knows in
    ``s``: the one sampler (``agents.sampler.world``) with Sheepshead's knowledge (module
    docstring). ``s`` is not changed; works in every phase and for every
    seat, to act or not. ``rng``: a random stream (``kernels.new_rng``)."""
    world(s, seat, rng, out, TRIES, __name__)  # with this module's knowledge, put, holds, finish, variant


@nb.njit(cache=True, inline="always")
def play_start(s, out):
    """Write into ``out`` the state of ``s``'s deal (``s`` in the card play) at the start of the
    card play, for the inference's replay (``agents.inference``): every card played back in the
    hand that played it (the unknown back aside), the tricks' tallies and what the play showed
    (the called card fallen, the called suit led) cleared, the seat left of the dealer to lead. The
    tricks' slots keep their cards: the replay writes them again."""
    out[:] = s
    for t in range(s[K.TRICK_NO] + 1):
        slot = K.TRICKS + t * K.TRICK_SLOTS
        for i in range(P if t < s[K.TRICK_NO] else s[K.IN_TRICK]):
            c = s[slot + 1 + i]
            if c != s[K.UNKNOWN]:
                out[K.HANDS + (s[slot] + i) % P] |= bit(c)
    out[K.UNKNOWN_TRICK] = -1
    out[K.PLAYED] = 0
    out[K.REVEALED] = 0
    out[K.CALLED_SUIT_LED] = 0
    out[K.TRICK_NO] = 0
    out[K.IN_TRICK] = 0
    out[K.LED] = -1
    out[K.POINTS_TAKEN:K.POINTS_TAKEN + P] = 0
    out[K.TRICKS_WON:K.TRICKS_WON + P] = 0
    out[K.LEADER] = out[K.TO_ACT] = K.LEFT[s[K.DEALER]]


@nb.njit(cache=True, inline="always")
def _choices(s):
    """How many legal actions the seat to act at ``s`` chooses among."""
    words, cards, _ = K.legal(s)
    return popcount(words) + popcount(cards)


@nb.njit(cache=True, inline="always")
def _log_chance(s, action, eps, hparams, rng):
    """The log of the softened heuristic's chance that the seat to act at ``s`` takes ``action``
    (``inference.soft_log_chance`` over the legal actions)."""
    return soft_log_chance(_choices(s), heuristic_act(s, hparams, rng) == action, eps)


@nb.njit(cache=True, inline="always")
def _pass_log_chance(s, eps, hparams):
    """``_log_chance`` of a pass by the seat to act at ``s`` in the picking: by the pick rule alone."""
    return soft_log_chance(_choices(s), not picks(s, s[K.HANDS + s[K.TO_ACT]], hparams), eps)


@nb.njit(cache=True)
def auction_log_chance(world, seat, eps, hparams, rng, r):
    """The log of the chance of the decisions seats other than ``seat`` made before the card play
    of ``world`` (a full deal), under the heuristic softened by ``eps`` (``agents.inference``):
    each pass, the pick, the bury (its two cards in either order), the call and the unknown. The
    pick's chance is the mean over the 28 blinds the picker's eight cards may have held, each as
    likely. Before the card play, the passes so far (the seat to act is the next to speak, or the
    picker). ``r`` (an int64 array of ``len(world)``) is scratch; in the card play it ends as
    ``play_start`` writes it."""
    if world[K.PHASE] != K.PLAYING and world[K.PHASE] != K.OVER:
        r[:] = world  # the seats that passed hold what they were dealt
        r[K.PHASE] = K.PICKING
        r[K.PASSES] = 0
        r[K.TO_ACT] = K.LEFT[r[K.DEALER]]
        total = 0.0
        for _ in range(world[K.PASSES]):
            if r[K.TO_ACT] != seat:
                total += _pass_log_chance(r, eps, hparams)
            K.step(r, A.PASS)
        return total
    play_start(world, r)
    picker = world[K.PICKER]
    unknown = world[K.UNKNOWN]
    eight = np.int64(0)  # the picker's cards after the pick
    if picker >= 0:
        eight = r[K.HANDS + picker] | world[K.BURIED] | (bit(unknown) if unknown >= 0 else 0)
    r[K.PHASE] = K.PICKING
    r[K.PICKER] = r[K.CALLED] = r[K.PARTNER] = r[K.UNKNOWN] = -1
    r[K.PASSES] = r[K.BURIED] = r[K.BLIND] = 0
    r[K.TO_ACT] = K.LEFT[r[K.DEALER]]
    total = 0.0
    while r[K.PHASE] == K.PICKING and r[K.TO_ACT] != picker:
        if r[K.TO_ACT] != seat:
            total += _pass_log_chance(r, eps, hparams)
        K.step(r, A.PASS)
    if picker < 0:  # a leaster: the five passes
        play_start(world, r)
        return total
    n = _choices(r)
    if picker != seat and n > 1:  # the pick's chance, a mean over the 28 blinds: those it picks with
        picked, blinds = 0, 0
        m1 = eight
        while m1 != 0:
            c1 = lowest_card(m1)
            m1 &= m1 - 1
            m2 = m1
            while m2 != 0:
                c2 = lowest_card(m2)
                m2 &= m2 - 1
                picked += picks(r, eight & ~(bit(c1) | bit(c2)), hparams)
                blinds += 1
        total += math.log((picked * math.exp(soft_log_chance(n, True, eps))
                           + (blinds - picked) * math.exp(soft_log_chance(n, False, eps))) / blinds)
    r[K.HANDS + picker] = eight  # the blind already in hand: the pick adds nothing
    K.step(r, A.PICK)
    x, y = lowest_card(world[K.BURIED]), highest_bit(world[K.BURIED])
    if picker != seat:  # the two cards in either order: the first choice is the same state's
        n, h = _choices(r), heuristic_act(r, hparams, rng)
        first = soft_log_chance(n, h == A.card_action(A.BURY, x), eps)
        second = soft_log_chance(n, h == A.card_action(A.BURY, y), eps)
        K.step(r, A.card_action(A.BURY, x))
        first += _log_chance(r, A.card_action(A.BURY, y), eps, hparams, rng)
        r[K.HANDS + picker] |= bit(x)  # take x back: the other order
        r[K.BURIED] = 0
        K.step(r, A.card_action(A.BURY, y))
        second += _log_chance(r, A.card_action(A.BURY, x), eps, hparams, rng)
        total += math.log(math.exp(first) + math.exp(second))
        K.step(r, A.card_action(A.BURY, x))
    else:
        K.step(r, A.card_action(A.BURY, x))
        K.step(r, A.card_action(A.BURY, y))
    if r[K.PHASE] == K.CALLING:
        call = A.ALONE if world[K.CALLED] < 0 else A.card_action(A.CALL, world[K.CALLED])
        if picker != seat:
            total += _log_chance(r, call, eps, hparams, rng)
        K.step(r, call)
    if r[K.PHASE] == K.UNDERING:
        if picker != seat:
            total += _log_chance(r, A.card_action(A.UNDER, unknown), eps, hparams, rng)
        K.step(r, A.card_action(A.UNDER, unknown))
    return total


# --- solver hooks ----------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def _sides_formed(s):
    """Whether the sides are settled: somebody picked and the call (or JD's bury) is done."""
    return s[K.PICKER] >= 0 and s[K.PHASE] >= K.UNDERING


@nb.njit(cache=True, inline="always")
def _on_picker_side(s, seat):
    return seat == s[K.PICKER] or seat == s[K.PARTNER]


@nb.njit(cache=True, inline="always")
def same_side(s, a, b):
    """Whether seats ``a`` and ``b`` score together in ``s`` (every card visible): the picker and
    the partner, or two defenders; before the call, in a leaster or a thrown-in hand, only a == b."""
    if a == b:
        return True
    if not _sides_formed(s):
        return False
    return _on_picker_side(s, a) == _on_picker_side(s, b)


@nb.njit(cache=True, inline="always")
def play_key(s):
    """A hash of all that decides the rest of the hand: the hands, blind and bury, the unknown
    while held, the phase, the seat to act, the leader, the current trick, the call, partner,
    options and rule flags. Not what was taken so far, except whether the picker's side has a
    trick when the bury holds points (``side_points``' remainder depends on it)."""
    h = np.int64(0x5EE95EAD)
    for p in range(P):
        h = hash_mix(h, s[K.HANDS + p])
    for slot in KEY_SLOTS:
        h = hash_mix(h, s[slot])
    h = hash_mix(h, s[K.UNKNOWN] if s[K.UNKNOWN_TRICK] < 0 else -1)
    h = hash_mix(h, 1 if s[K.UNKNOWN_TRICK] >= 0 and s[K.UNKNOWN_TRICK] == s[K.TRICK_NO] else 0)  # it cannot win
    if s[K.TRICK_NO] < K.NUM_TRICKS:
        slot = K.TRICKS + s[K.TRICK_NO] * K.TRICK_SLOTS
        for i in range(s[K.IN_TRICK]):
            h = hash_mix(h, s[slot + 1 + i])
    if s[K.PICKER] >= 0 and mask_points(s[K.BURIED], K.POINTS) > 0:
        tricks, _ = K.picker_side_taken(s)
        h = hash_mix(h, 1 if tricks > 0 else 0)
    return h


@nb.njit(cache=True, inline="always")
def score_key(s):
    """``play_key`` folded with what the final score reads of what was taken: the picker's
    side's tricks and card points; in a leaster each seat's card points and whether it has a
    trick. (Equal keys: equal scores for equal continuations.)"""
    h = play_key(s)
    if s[K.PICKER] >= 0:
        tricks, points = K.picker_side_taken(s)
        h = hash_mix(h, tricks)
        return hash_mix(h, points)
    for p in range(P):
        h = hash_mix(h, s[K.POINTS_TAKEN + p])
        h = hash_mix(h, 1 if s[K.TRICKS_WON + p] > 0 else 0)
    return h


@nb.njit(cache=True, inline="always")
def side_points(s, seat):
    """The card points ``seat``'s side has taken so far: the picker's side (picker and partner)
    or the defenders once the sides are formed, else the seat alone (in a leaster the blind counts
    once it goes with the last trick). The bury counts for the picker's side once it has a trick,
    else for the defenders. At the end: the picker's side gets ``SIDE_POINTS``, the defenders
    120 minus it, a leaster seat its ``POINTS_TAKEN``."""
    if not _sides_formed(s):
        return np.int64(s[K.POINTS_TAKEN + seat])
    tricks, points = K.picker_side_taken(s)
    return _side_tally(s, seat, tricks, points, _taken(s))


@nb.njit(cache=True, inline="always")
def _side_tally(s, seat, tricks, points, total):
    """``side_points`` of ``seat`` (sides formed) when the picker's side has taken ``tricks`` tricks
    and ``points`` card points of the ``total`` in finished tricks."""
    ours, theirs = K.bury_shares(s, tricks)
    if _on_picker_side(s, seat):
        return np.int64(points + ours)
    return np.int64(total - points + theirs)


@nb.njit(cache=True, inline="always")
def merge(s, cards):
    """``cards`` (the legal cards of the seat to act) with one card, the highest, kept of each
    run of equivalent cards: one effective suit, equal points, adjacent in trick power among the
    live cards (every hand, the unknown while held, the current trick). Special cards are kept
    apart (module docstring). Outside card play, ``cards`` unchanged."""
    if s[K.PHASE] != K.PLAYING or popcount(cards) < 2:
        return cards
    live = np.int64(0)
    for p in range(P):
        live |= s[K.HANDS + p]
    special = np.int64(0)
    if s[K.UNKNOWN] >= 0:
        live |= bit(s[K.UNKNOWN])
        special |= bit(s[K.UNKNOWN])
    slot = K.TRICKS + s[K.TRICK_NO] * K.TRICK_SLOTS
    for i in range(s[K.IN_TRICK]):
        live |= bit(s[slot + 1 + i])
    if s[K.OPT_PARTNER] == K.PARTNER_JD:
        special |= bit(K.JACK_OF_DIAMONDS)
    elif s[K.CALLED] >= 0:
        special |= bit(s[K.CALLED])
        if s[K.CALLED_SUIT_LED] == 0 and s[K.TO_ACT] == s[K.PICKER]:
            special |= K.SUIT_MASKS[K.EFFECTIVE[s[K.CALLED]]]  # the hold card rule counts them
    kept = cards
    for e in range(5):
        if popcount(cards & K.SUIT_MASKS[e] & ~special) < 2:
            continue  # nothing to merge in this suit: skip its walk (the solver calls this at every node)
        in_run = False
        run_points = -1
        for k in range(14):
            c = SUIT_ORDER[e, k]
            if c < 0:
                break
            if not has(live, c):
                continue  # played before, buried, or the leaster's blind: never in a trick again
            if has(cards, c) and not has(special, c):
                if in_run and K.POINTS[c] == run_points:
                    kept &= ~bit(c)
                else:
                    in_run, run_points = True, K.POINTS[c]
            else:
                in_run = False
    return kept


@nb.njit(cache=True, inline="always")
def _later_cards(s, seat, led, count, seats):
    """The cards the next ``count`` seats after ``seat`` that are in ``seats`` (a mask of seats)
    may play to a trick led in ``led``, following suit (the hold-card rules ignored)."""
    cards = np.int64(0)
    q = seat
    for _ in range(count):
        q = K.LEFT[q]
        if (seats >> q) & 1:
            cards |= follow_mask(s[K.HANDS + q], led, K.SUIT_MASKS)
    return cards


@nb.njit(cache=True, inline="always")
def _takes(c, led, later):
    """Whether card ``c`` (played to a trick led in ``led``) beats every card of ``later``."""
    return trick_power(c, led, K.EFFECTIVE, K.POWER) >= 0 and later & K.BEATEN_BY[c] == 0


@nb.njit(cache=True, inline="always")
def _mate_takes(s, seat, led, count, mates, beat, foes):
    """Whether one of the next ``count`` seats of ``mates`` may play a card that is in ``beat`` (the
    cards beating the trick's best so far) and beats every card of ``foes``."""
    cards = _later_cards(s, seat, led, count, mates) & beat
    while cards:
        m = lowest_card(cards)
        cards ^= bit(m)
        if _takes(m, led, foes):
            return True
    return False


@nb.njit(cache=True, inline="always")
def move_priority(s, moves, n, out):
    """The solver's move order in the play, as a player weighs the cards with every card visible:
    ``out[i]`` for the card of ``moves[i]``, higher first (the solver breaks ties by history).

    1. A card that takes the trick for sure (nothing the opponents still to play may play beats
       it), or any card once the trick is the side's for sure: the most ``WORTH`` first, then the
       lowest in power.
    2. If a later seat of the side can take the trick for sure: the leader's fewest points, or
       the follower's most ``WORTH`` (a schmear), then the lowest in power.
    3. The rest: fewest points, then the lowest in power; the picker's side leads a trump before
       a fail card.

    The hold-card rules are left out of "may play": an order need not be exact. Measured on 1,000
    deals (``benchmarks/bench_search.py``): the 61 question searches a quarter of the positions
    that history alone did, the exact points less than half. Outside the play: all 0."""
    if s[K.PHASE] != K.PLAYING:
        out[:n] = 0
        return
    seat = s[K.TO_ACT]
    in_trick = s[K.IN_TRICK]
    base = A.CARD_BASE + 54 * A.PLAY
    unknown = s[K.UNKNOWN] if seat == s[K.PICKER] else -1  # it never takes a trick
    mates = 1 << seat
    picker_side = 0
    if _sides_formed(s):
        picker_side = (1 << s[K.PICKER]) | ((1 << s[K.PARTNER]) if s[K.PARTNER] >= 0 else 0)
        mates = picker_side if (picker_side >> seat) & 1 else ((1 << P) - 1) & ~picker_side
    others = ((1 << P) - 1) & ~mates
    if in_trick == 0:
        for e in range(5):  # the leads of one effective suit meet the same replies
            foes = np.int64(-1)
            for i in range(n):
                c = moves[i] - base
                if K.played_suit(s, c) != e:
                    continue
                if foes == -1:
                    foes = _later_cards(s, seat, e, P - 1, others)
                if c != unknown and _takes(c, e, foes):
                    out[i] = 4096 + 64 * WORTH[c] - K.POWER[c]
                elif c != unknown and _mate_takes(s, seat, e, P - 1, mates, K.BEATEN_BY[c], foes):
                    out[i] = 3072 - 64 * K.POINTS[c] - K.POWER[c]
                else:
                    out[i] = 2048 - 64 * K.POINTS[c] - K.POWER[c]
                    if e == K.TRUMP and (picker_side >> seat) & 1:
                        out[i] += 160  # the picker's side draws trumps before it leads a fail card
        return
    led = s[K.LED]
    slot = K.TRICKS + s[K.TRICK_NO] * K.TRICK_SLOTS
    leader = s[slot]
    first = K.winning_position(s, in_trick)
    best = s[slot + 1 + first]
    later = P - 1 - in_trick
    foes = _later_cards(s, seat, led, later, others)
    ours = (mates >> ((leader + first) % P)) & 1 and foes & K.BEATEN_BY[best] == 0
    mate = not ours and _mate_takes(s, seat, led, later, mates, K.BEATEN_BY[best], foes)
    for i in range(n):
        c = moves[i] - base
        if ours or (c != unknown and has(K.BEATEN_BY[best], c) and _takes(c, led, foes)):
            out[i] = 4096 + 64 * WORTH[c] - K.POWER[c]
        elif mate:
            out[i] = 3072 + 64 * WORTH[c] - K.POWER[c]
        else:
            out[i] = 2048 - 64 * K.POINTS[c] - K.POWER[c]


@nb.njit(cache=True, inline="always")
def _units(points, tricks, role, alone, bump):
    """``K.picker_units`` of one role: 0 the picker, 1 the partner, 2 a defender."""
    picker, partner, defender, _, _ = K.picker_units(points, tricks, alone, bump)
    return picker if role == 0 else (partner if role == 1 else defender)


@nb.njit(cache=True, inline="always")
def score_bounds(s, seat):
    """``(low, high)`` bounds on the hand score of ``seat`` from ``s`` on (``_score_range``).
    Before the sides form and in a leaster: ``NO_BOUND``."""
    if not _sides_formed(s):
        return -NO_BOUND, NO_BOUND
    tricks, points = K.picker_side_taken(s)
    return _score_range(s, seat, tricks, points, _taken(s), K.NUM_TRICKS - s[K.TRICK_NO])


@nb.njit(cache=True, inline="always")
def _score_range(s, seat, tricks, points, total, left):
    """``(low, high)`` bounds on the final hand score of ``seat`` (sides formed) when the picker's
    side has ``tricks`` tricks and ``points`` card points of the ``total`` in tricks, ``left``
    tricks to play. The score follows from the tricks and card points the picker's side ends with
    (``K.picker_units``), and those lie between what it has and what it may still take
    (``_points_range``). With some tricks but not all, every seat's score moves one way with the
    points, so the ends of that range bound it; no trick and every trick have scores of their own
    (the partner's is 0 with no trick, above his score with a trick and under 31 points)."""
    picker, partner = s[K.PICKER], s[K.PARTNER]
    most = tricks + left
    taken = _side_tally(s, picker, tricks, points, total)
    gain_low, gain_high = _points_range(s, picker, tricks, total)
    role = 0 if seat == picker else (1 if seat == partner else 2)
    alone, bump = partner < 0, s[K.OPT_DOUBLE_ON_BUMP]
    low, high = NO_BOUND, -NO_BOUND
    if tricks == 0:
        v = _units(0, 0, role, alone, bump)
        low, high = min(low, v), max(high, v)
    if most == K.NUM_TRICKS:
        v = _units(0, K.NUM_TRICKS, role, alone, bump)
        low, high = min(low, v), max(high, v)
    some = max(tricks, 1)
    if some <= min(most, K.NUM_TRICKS - 1):  # it may end with some tricks but not all
        for pts in (taken + gain_low, taken + gain_high):
            v = _units(pts, some, role, alone, bump)
            low, high = min(low, v), max(high, v)
    doubled = K.hand_factor(s)
    return np.int64(low * doubled), np.int64(high * doubled)


@nb.njit(cache=True, inline="always")
def _taken(s):
    """The card points in finished tricks (a leaster's blind too, once it went with the last)."""
    total = np.int64(0)  # not the literal 0: search_tricks would compile for it apart
    for p in range(P):
        total += s[K.POINTS_TAKEN + p]
    return total


@nb.njit(cache=True, inline="always")
def points_bounds(s, seat):
    """``(low, high)`` bounds on what ``side_points`` of ``seat`` can still gain from ``s`` to the
    end (``_points_range``); before the sides form, only the ``-bury .. 120 - taken`` bound of every
    seat. Tight bounds let the solver settle a trick start from its tally alone."""
    if not _sides_formed(s):
        return -mask_points(s[K.BURIED], K.POINTS), np.int64(120 - _taken(s))
    tricks, _ = K.picker_side_taken(s)
    return _points_range(s, seat, tricks, _taken(s))


@nb.njit(cache=True, inline="always")
def _points_range(s, seat, tricks, total):
    """``(low, high)`` bounds on what ``seat``'s side (sides formed) can still gain when the
    picker's side has ``tricks`` tricks and ``total`` card points are in tricks. At most every card
    point not yet in a finished trick, less the bury where it cannot move to ``seat``'s side (the
    defenders', or the picker's once it has a trick). At least nothing, except that the defenders
    lose the bury if the picker's side takes its first trick."""
    bury = mask_points(s[K.BURIED], K.POINTS)
    if tricks == 0:  # the bury still goes with the picker's side's first trick
        if _on_picker_side(s, seat):
            return np.int64(0), np.int64(120 - total)
        return -bury, np.int64(120 - total - bury)
    return np.int64(0), np.int64(120 - total - bury)


@nb.njit(cache=True, inline="always")
def _plain_ending(s):
    """Whether ``endgame`` settles ``s``: a trick start in the last ``ENDGAME_TRICKS`` tricks of
    a picker hand, with no unknown held (it plays by rules of its own)."""
    return (s[K.PHASE] == K.PLAYING and s[K.IN_TRICK] == 0 and s[K.TRICK_NO] >= K.NUM_TRICKS - ENDGAME_TRICKS
            and s[K.PICKER] >= 0 and not (s[K.UNKNOWN] >= 0 and s[K.UNKNOWN_TRICK] < 0))


@nb.njit(cache=True, inline="always")
def _final_value(s, judge, score, tricks, points, total):
    """The value for ``judge`` once the hand is over with the picker's side at ``tricks`` tricks
    and ``points`` card points of the ``total``: its side's card points, or with ``score`` its hand
    score (as the game scores it)."""
    if not score:
        return _side_tally(s, judge, tricks, points, total)
    picker, partner = s[K.PICKER], s[K.PARTNER]
    role = 0 if judge == picker else (1 if judge == partner else 2)
    side = _side_tally(s, picker, tricks, points, total)
    doubled = K.hand_factor(s)
    return np.int64(_units(side, tricks, role, partner < 0, s[K.OPT_DOUBLE_ON_BUMP]) * doubled)


@nb.njit(cache=True, inline="always")
def _value_range(s, judge, score, tricks, points, total, left):
    """``(low, high)`` bounds on the final value for ``judge`` with ``left`` tricks to play."""
    if score:
        return _score_range(s, judge, tricks, points, total, left)
    now = _side_tally(s, judge, tricks, points, total)
    low, high = _points_range(s, judge, tricks, total)
    return now + low, now + high


@nb.njit(cache=True, inline="always")
def _last_trick(s, judge, score, leader, gone, tricks, points, total):
    """The final value for ``judge`` when ``leader`` leads the last trick and every seat plays
    the one card it has left (its hand less the ``gone`` cards)."""
    best = lowest_card(s[K.HANDS + leader] & ~gone)
    winner = leader
    gained = K.POINTS[best]
    seat = leader
    for _ in range(P - 1):
        seat = K.LEFT[seat]
        c = lowest_card(s[K.HANDS + seat] & ~gone)
        gained += K.POINTS[c]
        if has(K.BEATEN_BY[best], c):
            best, winner = c, seat
    if _on_picker_side(s, winner):
        tricks, points = tricks + 1, points + gained
    return _final_value(s, judge, score, tricks, points, total + gained)


@nb.njit(cache=True, inline="always")
def _better(v, best, up):
    return max(v, best) if up else min(v, best)


@nb.njit(cache=True, inline="always")
def _worst(up):
    """The best value so far of a node before any move: none."""
    return -NO_BOUND if up else NO_BOUND


@nb.njit(cache=True, inline="always")
def _window(alpha, beta, best, up):
    """The window of a child of a node with window ``(alpha, beta)`` and best value so far."""
    return (max(alpha, best), beta) if up else (alpha, min(beta, best))


@nb.njit(cache=True, inline="always")
def _cut(best, alpha, beta, up):
    """Whether a node's best value so far settles it (alpha-beta)."""
    return best >= beta if up else best <= alpha


def search_tricks(s, judge, score, leader, gone, tricks, points, total, called_led, alpha, beta, more):
    """The final value for ``judge`` (as ``endgame``) of the trick that ``leader`` leads, the
    ``gone`` cards played and the picker's side at ``tricks`` tricks and ``points`` card points of
    the ``total`` in tricks, within ``(alpha, beta)``; ``called_led``: whether the called suit was
    led. ``more`` (a constant): the tricks searched after this one before the last, which is played
    out at once."""


# numba keys an overload's implementation on the caller's compile flags, and an overload's own
# body compiles without a CPython wrapper: with the default, ``more`` 0 compiled twice (once for
# ``endgame``, once for ``more`` 1), 7 s of the solver's first compile.
@overload(search_tricks, prefer_literal=True, jit_options={"no_cpython_wrapper": False})
def _search_tricks(s, judge, score, leader, gone, tricks, points, total, called_led, alpha, beta, more):
    """One loop a seat over the cards it may play, alpha-beta from the first: every value held in
    a register, nothing copied. Each ``more`` compiles apart, calling the one below it."""
    if not isinstance(more, types.IntegerLiteral):
        raise TypingError("search_tricks: the number of tricks must be a constant")
    below = more.literal_value - 1

    def impl(s, judge, score, leader, gone, tricks, points, total, called_led, alpha, beta, more):
        low, high = _value_range(s, judge, score, tricks, points, total, below + 3)
        if high <= alpha:
            return high
        if low >= beta:
            return low
        q0 = leader
        q1, q2, q3, q4 = (q0 + 1) % P, (q0 + 2) % P, (q0 + 3) % P, (q0 + 4) % P  # the seats in turn
        up0, up1, up2 = same_side(s, q0, judge), same_side(s, q1, judge), same_side(s, q2, judge)
        up3, up4 = same_side(s, q3, judge), same_side(s, q4, judge)
        v0 = _worst(up0)
        x0 = K.hand_play_mask(s, q0, s[K.HANDS + q0] & ~gone, -1, False, called_led)
        while x0:
            c0 = lowest_card(x0)
            x0 &= x0 - 1
            led = K.EFFECTIVE[c0]
            g0 = K.POINTS[c0]  # g1 .. g3: the card points in the trick so far
            f1 = K.hand_play_mask(s, q1, s[K.HANDS + q1] & ~gone, led, False, called_led)
            f2 = K.hand_play_mask(s, q2, s[K.HANDS + q2] & ~gone, led, False, called_led)
            f3 = K.hand_play_mask(s, q3, s[K.HANDS + q3] & ~gone, led, False, called_led)
            f4 = K.hand_play_mask(s, q4, s[K.HANDS + q4] & ~gone, led, False, called_led)
            next_led = called_led | K.is_called_suit(s, led)
            a1, b1 = _window(alpha, beta, v0, up0)
            v1 = _worst(up1)
            x1 = f1
            while x1:
                c1 = lowest_card(x1)
                x1 &= x1 - 1
                w1, k1 = (c1, q1) if has(K.BEATEN_BY[c0], c1) else (c0, q0)
                g1 = g0 + K.POINTS[c1]
                a2, b2 = _window(a1, b1, v1, up1)
                v2 = _worst(up2)
                x2 = f2
                while x2:
                    c2 = lowest_card(x2)
                    x2 &= x2 - 1
                    w2, k2 = (c2, q2) if has(K.BEATEN_BY[w1], c2) else (w1, k1)
                    g2 = g1 + K.POINTS[c2]
                    a3, b3 = _window(a2, b2, v2, up2)
                    v3 = _worst(up3)
                    x3 = f3
                    while x3:
                        c3 = lowest_card(x3)
                        x3 &= x3 - 1
                        w3, k3 = (c3, q3) if has(K.BEATEN_BY[w2], c3) else (w2, k2)
                        g3 = g2 + K.POINTS[c3]
                        a4, b4 = _window(a3, b3, v3, up3)
                        v4 = _worst(up4)
                        x4 = f4
                        while x4:
                            c4 = lowest_card(x4)
                            x4 &= x4 - 1
                            winner = q4 if has(K.BEATEN_BY[w3], c4) else k3
                            trick = bit(c0) | bit(c1) | bit(c2) | bit(c3) | bit(c4)
                            gained = g3 + K.POINTS[c4]
                            won = _on_picker_side(s, winner)
                            t, p = (tricks + 1, points + gained) if won else (tricks, points)
                            if below >= 0:
                                v = search_tricks(s, judge, score, winner, gone | trick, t, p, total + gained, next_led,
                                                  a4, b4, below)
                            else:
                                v = _last_trick(s, judge, score, winner, gone | trick, t, p, total + gained)
                            v4 = _better(v, v4, up4)
                            if _cut(v4, a4, b4, up4):
                                break
                        v3 = _better(v4, v3, up3)
                        if _cut(v3, a3, b3, up3):
                            break
                    v2 = _better(v3, v2, up2)
                    if _cut(v2, a2, b2, up2):
                        break
                v1 = _better(v2, v1, up1)
                if _cut(v1, a1, b1, up1):
                    break
            v0 = _better(v1, v0, up0)
            if _cut(v0, alpha, beta, up0):
                break
        return v0
    return impl


@nb.njit(cache=True)
def endgame(s, judge, score, alpha, beta):
    """``(True, value)`` of ``s`` for ``judge`` within the window ``(alpha, beta)`` when it starts
    one of the last ``ENDGAME_TRICKS`` tricks of a picker hand (``_plain_ending``), else
    ``(False, 0)``. The value is ``judge``'s side's card points at the end, or with ``score`` its
    hand score; exact inside the window, else a bound on the side it fails (fail-soft, as the
    solver's search).

    A search of its own (``search_tricks``): alpha-beta over the cards of each trick, the state no
    more than the cards gone and the tallies, so nothing is copied and no table kept; the trick
    starts settled by their bounds as in the solver, the last trick played out at once."""
    if not _plain_ending(s):
        return False, np.int64(0)
    tricks, points = K.picker_side_taken(s)
    total, leader, called_led = _taken(s), s[K.LEADER], s[K.CALLED_SUIT_LED]
    left = K.NUM_TRICKS - s[K.TRICK_NO]
    if left == 1:
        return True, _last_trick(s, judge, score, leader, np.int64(0), tricks, points, total)
    gone = np.int64(0)
    if left == 2:
        return True, search_tricks(s, judge, score, leader, gone, tricks, points, total, called_led, alpha, beta, 0)
    # three tricks left (ENDGAME_TRICKS): one searched before the two
    return True, search_tricks(s, judge, score, leader, gone, tricks, points, total, called_led, alpha, beta, 1)
