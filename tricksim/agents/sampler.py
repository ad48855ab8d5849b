"""The world sampler of PIMC and ISMCTS, written once for every game.

A *world* is a full deal consistent with all the seat to act knows: its hand, the public play,
the voids shown, the piles it saw, the game's own rules. The cards the seat cannot see lie in
hidden *places* (the other seats' hands and each hidden pile: blind, bury, unknown, kitty, stock,
widow, discards, the undealt rest ...), each with its size (*room*, public) and a mask of the
cards it may hold. ``world`` deals the unseen cards into the places again at random. A game's
search module gives what its seat knows as data, through hooks (njit functions) of its own, and
its ``sample(s, seat, rng, out)`` is one call, ``world(s, seat, rng, out, TRIES, __name__)``:

* ``knowledge(s, seat, h, room, allow, facts) -> (places, hypotheses, unseen)``: the room and
  the allowed cards of each place ``0 .. places - 1`` (room 0: nothing hidden there) under
  hypothesis ``h``, the number of hypotheses, and the mask of the unseen cards; ``facts`` is the
  game's own scratch (up to ``FACTS`` numbers) for the hooks below. A *hypothesis* is a hidden
  choice that changes what the places may hold (NE Smear's trump before the bidder's first lead);
  most games have one.
* ``put(s, seat, h, cards, room, out)``: write ``cards[q]`` into each hidden place of the world
  ``out`` (a copy of ``s``), and hypothesis ``h``.

and, where the game has them:

* ``holds(s, seat, h, facts, out) -> bool``: the game's constraints beyond the masks, on the
  world ``out`` (Sheepshead's hold-card rules and the call, the smears' discard rules);
* ``finish(s, seat, h, facts, rng, out)``: the slots that follow from the deal (who holds the
  called card, a drawing order, which cards were the kitty ...);
* ``variant(s, seat, h, v, salt, free, fixed, facts, extra, quota) -> count``: the constructive
  deal's variant ``v`` of ``count`` (below), as more forbidden cards per place (``extra``) and at
  most one quota (``quota``: place, mask, count: that place holds at least that many cards of the
  mask); ``salt`` is a random number the hook may order its variants by.

**How.** Cards whose placement is forced are placed first: a card with one possible place, or a
place whose free room equals the number of cards that may go there (``_propagate``). This only
drops impossible deals, so what follows stays uniform. Then the free cards are dealt uniformly
into the free room, conditioned exactly on one constraint: the *tightest group* (the free cards
sharing one set of allowed places that a plain deal would most rarely keep inside it, e.g. the
three fail aces after a ten call, or a suit a seat showed void in) is dealt first into the room
of its places, each card to a uniformly random free slot, and the rest uniformly, place after
place, the most constrained places first so that a bad deal stops early (``_deal``). A deal that
breaks a mask or ``holds`` is dealt again, up to ``tries`` times (rejection): every consistent
deal is then equally likely. With several hypotheses each try first draws one in proportion to
the number of deals its conditioned draw ranges over, so that the worlds are uniform over the
consistent pairs of a hypothesis and a deal.

*Approximation*: when every try is rejected, a constructive deal is built (``_construct``): the
most constrained cards first, each to a random allowed place weighted by its free room, moving
earlier cards along an augmenting path when no allowed place has room (bipartite matching, so it
finds a deal whenever one exists). A game's disjunctive facts are turned into variants tried in
turn (Sheepshead: which branch of an unknown call per fail suit; the smears: no trump among the
discards, or six trumps kept), hypotheses in random order; the true deal satisfies one of them,
so a consistent world is always found. Such a world is random and consistent but not uniform.
(If even that failed, the world would be ``s`` itself, the true deal; this cannot happen for a
state reached by legal play.)

*What it leaves out*: how the other seats played. Every consistent deal is equally likely here,
whatever the play says about it; ``agents.inference`` weighs each world by the chance of the other
seats' cards played so far in it, for PIMC and ISMCTS with ``infer`` > 0.
"""

from __future__ import annotations

import math
from importlib import import_module

import numba as nb
import numpy as np
from numba import literally, types
from numba.core.errors import TypingError
from numba.extending import overload

from ..sim.kernels import bit, draw_cards, draw_in_order, has, lowest_card, popcount, rand_below

TRIES = 256  # rejection draws before the constructive deal
MAX_PLACES = 24  # places a game may name (Fifty-five: nine hands and discard piles, kitty, stock), and a quota's
MAX_HYPOTHESES = 4
FACTS = 16  # numbers a game's knowledge keeps for its other hooks
# ``world``'s scratch: tables of a row of places per hypothesis (``_row``), a number per hypothesis,
# the game's facts, a deal, ``_blocks``' scratch
SIZE, ROOM, ALLOW, FIXED, ORDER = (k * MAX_HYPOTHESES * MAX_PLACES for k in range(5))
FREE, GROUP, GROUP_PLACES, POSSIBLE = (5 * MAX_HYPOTHESES * MAX_PLACES + k * MAX_HYPOTHESES for k in range(4))
FACTS_AT = POSSIBLE + MAX_HYPOTHESES
DEALT_AT = FACTS_AT + FACTS
BLOCKS_AT = DEALT_AT + MAX_PLACES
WORK = BLOCKS_AT + 128
QUOTA_PLACE, QUOTA_MASK, QUOTA_COUNT = range(3)


def world(s, seat, rng, out, tries, hooks):
    """Write into ``out`` (an int64 array of ``len(s)``) a world consistent with all ``seat`` knows
    of ``s``, as the hooks of module ``hooks`` (its name, a constant) say: uniform over the
    consistent deals when one of ``tries`` rejection draws is accepted, else a random consistent
    deal (module docstring). ``s`` is not changed; ``rng`` is a random stream (``kernels.new_rng``)."""


@overload(world, prefer_literal=True)
def _world(s, seat, rng, out, tries, hooks):
    """``world`` compiled for one game's hooks, each called where it is (as ``agents.family`` does:
    a hook passed as an argument would keep numba from caching the caller)."""
    if not isinstance(hooks, types.StringLiteral):
        raise TypingError("world: the hooks' module must be a constant")
    game = import_module(hooks.literal_value)
    knowledge, put = game.knowledge, game.put
    holds = getattr(game, "holds", always)
    finish = getattr(game, "finish", nothing_follows)
    variant = getattr(game, "variant", one_variant)

    def impl(s, seat, rng, out, tries, hooks):
        out[:] = s
        work = np.empty(WORK, np.int64)  # every table, in one allocation (``_row``)
        weight = np.empty(MAX_HYPOTHESES)  # the cumulative chance of each hypothesis
        facts, dealt = work[FACTS_AT:FACTS_AT + FACTS], work[DEALT_AT:DEALT_AT + MAX_PLACES]
        cards, where = work[BLOCKS_AT:BLOCKS_AT + 64], work[BLOCKS_AT + 64:BLOCKS_AT + 128]  # _blocks' scratch
        facts[:] = 0
        places, hypotheses, unseen = knowledge(s, seat, 0, _row(work, SIZE, 0), _row(work, ALLOW, 0), facts)
        for h in range(hypotheses):
            size, room = _row(work, SIZE, h), _row(work, ROOM, h)
            allow, fixed = _row(work, ALLOW, h), _row(work, FIXED, h)
            if h > 0:
                knowledge(s, seat, h, size, allow, facts)
            room[:places] = size[:places]
            fixed[:places] = 0
            free, possible, blocks = _propagate(unseen, fixed, room, allow, places, cards, where)
            group, group_places, chance = _tightest_group(room, places, cards, where, blocks)
            _deal_order(free, room, allow, places, _row(work, ORDER, h))
            work[FREE + h], work[GROUP + h], work[GROUP_PLACES + h] = free, group, group_places
            work[POSSIBLE + h] = possible and chance > 0
            counted = hypotheses > 1 and possible and chance > 0
            weight[h] = _log_deals(free, room, places, chance) if counted else -np.inf
        any_possible = False
        for h in range(hypotheses):
            any_possible |= work[POSSIBLE + h] != 0
        if hypotheses > 1 and any_possible:
            _cumulative(weight, hypotheses)
        for _ in range(tries if any_possible else 0):
            h = _draw_hypothesis(weight, hypotheses, rng)
            if _deal(work[FREE + h], _row(work, ROOM, h), _row(work, ALLOW, h), work[GROUP + h], work[GROUP_PLACES + h],
                     _row(work, ORDER, h), places, rng, dealt):
                fixed = _row(work, FIXED, h)
                for q in range(places):
                    dealt[q] |= fixed[q]
                put(s, seat, h, dealt, _row(work, SIZE, h), out)
                if holds(s, seat, h, facts, out):
                    finish(s, seat, h, facts, rng, out)
                    return
        extra = np.zeros(MAX_PLACES, np.int64)
        quota = np.zeros(3, np.int64)
        salt = rand_below(rng, 1 << 30)
        tried = np.zeros(MAX_HYPOTHESES, np.int64)
        draw_in_order((np.int64(1) << hypotheses) - 1, hypotheses, tried, 0, rng)
        for k in range(hypotheses):
            h = tried[k]
            if not work[POSSIBLE + h]:
                continue
            free, fixed = work[FREE + h], _row(work, FIXED, h)
            count = variant(s, seat, h, 0, salt, free, fixed, facts, extra, quota)
            for v in range(count):
                variant(s, seat, h, v, salt, free, fixed, facts, extra, quota)
                if _construct(free, _row(work, ROOM, h), _row(work, ALLOW, h), fixed, extra, quota, places, rng, dealt):
                    for q in range(places):
                        dealt[q] |= fixed[q]
                    put(s, seat, h, dealt, _row(work, SIZE, h), out)
                    if holds(s, seat, h, facts, out):
                        finish(s, seat, h, facts, rng, out)
                        return
        out[:] = s  # unreachable for a state reached by legal play: the true deal is consistent

    return impl


@nb.njit(cache=True)
def sample_with(s, seat, rng, out, tries, hooks):
    """``world`` for callers that hold the hooks' module name as a value (tests: ``tries`` 0
    builds the constructive deal at once)."""
    literally(hooks)
    world(s, seat, rng, out, tries, hooks)


@nb.njit(cache=True, inline="always")
def _row(work, table, h):
    """Hypothesis ``h``'s row (a number per place) of ``table`` in ``world``'s scratch."""
    at = table + h * MAX_PLACES
    return work[at:at + MAX_PLACES]


# --- what a game without such rules gives ----------------------------------------------------


@nb.njit(cache=True, inline="always")
def always(s, seat, h, facts, out):
    """``holds`` of a game whose constraints are all in the masks."""
    return True


@nb.njit(cache=True, inline="always")
def nothing_follows(s, seat, h, facts, rng, out):
    """``finish`` of a game whose other slots do not depend on the deal."""


@nb.njit(cache=True)
def one_variant(s, seat, h, v, salt, free, fixed, facts, extra, quota):
    """``variant`` of a game without disjunctive facts: the masks alone."""
    extra[:] = 0
    quota[QUOTA_COUNT] = 0
    return 1


# --- the uniform deal ---------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def _blocks(free, room, allow, places, cards, where):
    """Split the ``free`` cards by the set of places with room that may hold them: block ``i`` is
    ``cards[i]``, its places ``where[i]`` (a bit mask over places). Returns the number of blocks."""
    n = 0
    if free != 0:
        cards[0], where[0], n = free, 0, 1
    for q in range(places):
        if room[q] == 0:
            continue
        for i in range(n):  # the blocks made so far: a new one is this place's refusals
            inside, outside = cards[i] & allow[q], cards[i] & ~allow[q]
            if inside != 0 and outside != 0:
                cards[n], where[n] = outside, where[i]
                cards[i] = inside
                n += 1
            if inside != 0:
                where[i] |= bit(q)
    return n


@nb.njit(cache=True, inline="always")
def _propagate(free, fixed, room, allow, places, cards, where):
    """Place the cards whose place is forced: the cards that fit one place only, or every card
    that fits a place whose free room equals their number. Sound (it drops only impossible deals),
    so dealing the rest uniformly stays uniform. Returns the cards left free, and False when no
    deal is possible (a card fits no place, or a place cannot be filled), and the number of blocks
    (``_blocks``) the free cards then fall into, in ``cards`` and ``where``."""
    while free != 0:
        blocks = _blocks(free, room, allow, places, cards, where)
        changed = False
        for i in range(blocks):
            if where[i] == 0:
                return free, False, 0
            if popcount(where[i]) == 1:
                q = lowest_card(where[i])
                if popcount(cards[i]) > room[q]:
                    return free, False, 0
                fixed[q] |= cards[i]
                room[q] -= popcount(cards[i])
                free &= ~cards[i]
                changed = True
        for q in range(places):
            fits = free & allow[q]
            if room[q] > popcount(fits):
                return free, False, 0
            if room[q] > 0 and popcount(fits) == room[q]:
                fixed[q] |= fits
                room[q] = 0
                free &= ~fits
                changed = True
        if not changed:
            return free, True, blocks
    return free, True, 0


@nb.njit(cache=True, inline="always")
def _tightest_group(room, places, cards, where, blocks):
    """The group of free cards sharing one set of allowed places (not every place), of the
    ``blocks`` in ``cards`` and ``where``, that a uniform deal puts all inside their places least
    often: ``(cards, places, chance)``; chance 1 and no cards when every free card may go anywhere."""
    everywhere = np.int64(0)
    total = 0
    for q in range(places):
        if room[q] > 0:
            everywhere |= bit(q)
            total += room[q]
    best, best_places, best_chance = np.int64(0), np.int64(0), 1.0
    for i in range(blocks):
        if where[i] == everywhere:
            continue
        slots = 0
        for q in range(places):
            if has(where[i], q):
                slots += room[q]
        chance = 1.0
        for k in range(popcount(cards[i])):
            chance *= (slots - k) / (total - k)
        if chance < best_chance:
            best, best_places, best_chance = cards[i], where[i], chance
    return best, best_places, best_chance


@nb.njit(cache=True, inline="always")
def _deal_order(free, room, allow, places, order):
    """The places with free room into ``order``, those refusing the most free cards first (a bad
    deal then stops early; the order changes nothing in the distribution)."""
    n = 0
    for q in range(places):
        if room[q] == 0:
            continue
        refused = popcount(free & ~allow[q])
        i = n
        while i > 0 and popcount(free & ~allow[order[i - 1]]) < refused:
            order[i] = order[i - 1]
            i -= 1
        order[i] = q
        n += 1
    for i in range(n, places):
        order[i] = -1


@nb.njit(cache=True)
def _log_deals(free, room, places, chance):
    """The log of the number of deals the conditioned draw ranges over: the deals of the free
    cards into the free room (a multinomial) times the chance that one keeps the group in place."""
    out = math.lgamma(popcount(free) + 1.0) + math.log(chance)
    for q in range(places):
        out -= math.lgamma(room[q] + 1.0)
    return out


@nb.njit(cache=True)
def _cumulative(weight, n):
    """Log counts into cumulative chances, in place."""
    top = weight[0]
    for h in range(1, n):
        top = max(top, weight[h])
    total = 0.0
    for h in range(n):
        total += math.exp(weight[h] - top)
        weight[h] = total
    for h in range(n):
        weight[h] /= total


@nb.njit(cache=True, inline="always")
def _draw_hypothesis(weight, n, rng):
    """A hypothesis drawn by the cumulative chances ``weight`` (the only one when ``n`` is 1)."""
    if n == 1:
        return 0
    u = (rand_below(rng, 1 << 30) + 0.5) / (1 << 30)
    for h in range(n - 1):
        if u < weight[h]:
            return h
    return n - 1


@nb.njit(cache=True, inline="always")
def _deal(free, room, allow, group, group_places, order, places, rng, dealt):
    """Deal the ``free`` cards uniformly into ``room`` given that the cards of ``group`` all lie in
    ``group_places``: each group card to a uniformly random slot left in those places' room, then
    the other cards uniformly into the room left, place by place in ``order``. Every deal meeting
    the condition is equally likely. False as soon as a place gets a card it may not hold."""
    slots = 0
    for q in range(places):
        dealt[q] = 0
        if has(group_places, q):
            slots += room[q]
    m = group
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        r = rand_below(rng, slots)
        for q in range(places):
            if has(group_places, q):
                r -= room[q] - popcount(dealt[q])
                if r < 0:
                    dealt[q] |= bit(c)
                    break
        slots -= 1
    left = free & ~group
    for i in range(places):
        q = order[i]
        if q < 0:
            break
        d, left = draw_cards(left, room[q] - popcount(dealt[q]), rng)
        dealt[q] |= d
        if dealt[q] & ~allow[q] != 0:
            return False
    return True


# --- the constructive deal -----------------------------------------------------------------


@nb.njit(cache=True)
def _construct(free, room, allow, fixed, extra, quota, places, rng, dealt):
    """Deal the ``free`` cards into ``room`` (per place), none where ``allow & ~extra`` says not,
    the ``quota`` met (its count less the cards ``fixed`` there already, as a place of its own
    carved from its place's room), most constrained first; the cards per place go to ``dealt``.
    False if impossible."""
    n_places = places
    limit = np.empty(MAX_PLACES, np.int64)
    ok = np.empty(MAX_PLACES, np.int64)
    for q in range(places):
        limit[q] = room[q]
        ok[q] = allow[q] & ~extra[q]
    home = quota[QUOTA_PLACE]
    need = quota[QUOTA_COUNT] - popcount(fixed[home] & quota[QUOTA_MASK]) if quota[QUOTA_COUNT] > 0 else 0
    if need > 0:
        if need > limit[home]:
            return False
        limit[home] -= need
        limit[places], ok[places] = need, ok[home] & quota[QUOTA_MASK]
        n_places += 1
    if not _match(free, limit, ok, n_places, rng, dealt):
        return False
    if need > 0:
        dealt[home] |= dealt[places]
        dealt[places] = 0
    return True


@nb.njit(cache=True)
def _match(free, room, allow, places, rng, dealt):
    """``_construct``'s deal: the cards with the fewest allowed places first (random order within),
    each placed by ``_place_card``."""
    cards = np.empty(64, np.int64)
    where = np.empty(64, np.int64)
    block_cards = np.empty(64, np.int64)
    block_where = np.empty(64, np.int64)
    assign = np.full(64, -1, np.int64)
    load = np.zeros(MAX_PLACES, np.int64)
    queue = np.empty(MAX_PLACES, np.int64)
    prev_card = np.empty(MAX_PLACES, np.int64)
    prev_place = np.empty(MAX_PLACES, np.int64)
    blocks = _blocks(free, room, allow, places, block_cards, block_where)
    for b in range(blocks):
        if block_where[b] == 0:
            return False
    n = 0
    for width in range(1, places + 1):
        start = n
        for b in range(blocks):
            if popcount(block_where[b]) == width:
                m = block_cards[b]
                while m != 0:
                    cards[n], where[n] = lowest_card(m), block_where[b]
                    m &= m - 1
                    n += 1
        for k in range(n - 1, start, -1):
            j = start + rand_below(rng, k - start + 1)
            cards[k], cards[j] = cards[j], cards[k]
            where[k], where[j] = where[j], where[k]
    for i in range(n):
        if not _place_card(i, n, where, assign, load, room, places, rng, queue, prev_card, prev_place):
            return False
    for q in range(places):
        dealt[q] = 0
    for i in range(n):
        dealt[assign[i]] |= bit(cards[i])
    return True


@nb.njit(cache=True)
def _place_card(i, n, where, assign, load, room, places, rng, queue, prev_card, prev_place):
    """Place card ``i`` (of ``n``) at a random allowed place, weighted by free room; when none has
    room, along an augmenting path (BFS over places). False if no complete deal exists."""
    total = 0
    for q in range(places):
        if has(where[i], q):
            total += room[q] - load[q]
    if total > 0:
        r = rand_below(rng, total)
        for q in range(places):
            if has(where[i], q):
                r -= room[q] - load[q]
                if r < 0:
                    assign[i] = q
                    load[q] += 1
                    return True
    visited, head, tail = np.int64(0), 0, 0
    for q in range(places):
        if has(where[i], q):
            visited |= bit(q)
            prev_card[q], prev_place[q] = i, -1
            queue[tail] = q
            tail += 1
    while head < tail:
        q = queue[head]
        head += 1
        if load[q] < room[q]:  # room here: shift each card of the path one place on
            load[q] += 1
            cur = q
            while cur >= 0:
                assign[prev_card[cur]] = cur
                cur = prev_place[cur]
            return True
        for k in range(n):
            if assign[k] == q:
                for q2 in range(places):
                    if has(where[k], q2) and not has(visited, q2):
                        visited |= bit(q2)
                        prev_card[q2], prev_place[q2] = k, q
                        queue[tail] = q2
                        tail += 1
    return False
