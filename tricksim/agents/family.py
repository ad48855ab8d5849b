"""The games' kernels behind one numba interface, for code written once for every game.

Such a kernel (the environments, the solver, PIMC, ISMCTS) takes the game's *family* (a small
int; the two smears share their kernels). numba compiles it for each family apart, the family as
a constant (``literally``), and the generic calls below resolve at compile time to that game's own
kernels (its parts in ``tricksim.spec``): the rules, the heuristic agents and the search hooks stay
written once, and a Bluke table never compiles Sheepshead's agent. (A kernel that took a game's
``step`` as an argument would not be cached by numba.)

Python calls such kernels through entry points compiled for one family's constant
(``kernel.compile((types.literal(family), ...))``): called through its dispatcher with a plain
int, a ``literally`` kernel takes numba's slow path every time, 10 ms a call.

The search hooks (``tricksim.spec.SearchHooks``: ``sample``, ``same_side``, ``play_key``,
``score_key``, ``side_points``, ``points_bounds``, ``score_bounds``, ``merge``, and where a game has
them, ``move_priority``, ``endgame``, ``play_start`` and ``auction_log_chance``); their docstrings
there say what each must do. The solver calls them at every position, so they are compiled inline
(``inline="always"``; measured: Sheepshead's solver 1.1 to 1.2 times as fast as with calls).
"""

from __future__ import annotations

from functools import cache

import numba as nb
import numpy as np
from numba import literally, types
from numba.extending import overload

from ..sim.actions import uniform_action
from ..sim.kernels import literal_family
from ..spec import family_part
from .kinds import HEURISTIC


def _rules(family):
    """The rules module of an overload's literal family."""
    return family_part(literal_family(family), "rules")


_IMPLEMENTATIONS = {}  # generic call -> its overload's implementation


def _implement(generic):
    """Overload the generic call ``generic`` with the decorated implementation (per literal family)."""
    def register(impl):
        _IMPLEMENTATIONS[generic] = impl
        overload(generic, prefer_literal=True)(impl)
        return impl
    return register


def inlined(family, *generics):
    """The kernels of the generic calls ``generics`` for ``family`` (a literal, as an overload's
    implementation receives it), taking the generic calls' arguments, for code that numba builds
    per family (an overload's implementation, as the batch loops' blocks): there numba compiles
    them into their caller (``inline="always"``), where a generic call stays a call.

    A call is right for the environments, the solver and the searchers: each generic call compiles
    once a family, however many places call it. The batch loops call each in one place, millions
    of times a second, where a call costs and numba's own inlining of an overload is slow to
    compile."""
    return tuple(_kernel(generic, literal_family(family)) for generic in generics)


@cache
def _kernel(generic, family: int):
    """``generic``'s implementation for ``family``, as a kernel (the implementations read only the family)."""
    implement = _IMPLEMENTATIONS[generic]
    arguments = [None] * (implement.__code__.co_argcount - 1)
    return nb.njit(inline="always")(implement(types.literal(family), *arguments))


# --- generic calls, resolved per family at compile time ----------------------------
# (Python bodies are never run: numba compiles the overload's implementation in their place.)


def deal(family, s, seed, hand, players, options, rng):
    """Deal hand ``hand`` of ``seed`` into ``s`` (``rng`` is scratch)."""


def to_act(family, s):
    """The seat to act, -1 once the hand is over."""


def score(family, s, seat):
    """This hand's score of ``seat`` (team games: its team's)."""


def legal(family, s):
    """The game's ``legal(s)`` triple ``(word_mask, card_mask, card_kind)``."""


def step(family, s, action):
    """Apply a legal ``action`` for the seat to act."""


def heuristic(family, s, params, rng):
    """The heuristic agent's action for the seat to act."""


def heuristic_borrowed(family, s, params, rng):
    """``heuristic`` for ``s`` and ``params`` that count no references (``kernels.borrow``): the
    agent's ``act_borrowed`` where it has one (its ``act`` without the borrowing, inlined into the
    batch loop), else its ``act``."""


def sample(family, s, seat, rng, out):
    """Write into ``out`` a full deal consistent with all ``seat`` knows of ``s``."""


def same_side(family, s, a, b):
    """Whether seats ``a`` and ``b`` score together in ``s`` (every card visible)."""


def play_key(family, s):
    """A hash of all that decides the rest of the hand's play, not what was taken so far."""


def score_key(family, s):
    """``play_key`` and all taken so far that the hand's score reads."""


def side_points(family, s, seat):
    """The points (card points, tricks) ``seat``'s side has taken so far."""


def merge(family, s, cards):
    """The legal cards ``cards`` of the seat to act, one kept of each run of equivalent cards."""


def points_bounds(family, s, seat):
    """``(low, high)``: bounds on what ``side_points`` of ``seat`` can still gain from ``s``."""


def score_bounds(family, s, seat):
    """``(low, high)``: bounds on the hand score of ``seat`` from ``s`` on."""


def trick_start(family, s):
    """Whether no card of a trick is on the table (a trick starts, or the play has not)."""


def move_priority(family, s, moves, n, out):
    """Write the game's move order for the solver into ``out[:n]`` (higher first) for the actions
    ``moves[:n]``; whether the game has one (without it, history scores alone order the moves)."""


def endgame(family, s, judge, score, alpha, beta):
    """``(True, value)``: the value of the trick start ``s`` for ``judge`` (its side's points, or
    with ``score`` its hand score) in the window ``(alpha, beta)``, fail-soft, where the game solves
    such an ending by itself; else (and for games without one) ``(False, 0)``."""


def _delegate(name, part, attr, arity):
    """Overload the generic ``name`` with each family's own function ``attr`` of its ``part``."""
    generic = globals()[name]
    if arity == 1:
        def _impl(family, a):
            f = getattr(family_part(literal_family(family), part), attr)
            return lambda family, a: f(a)
    elif arity == 2:
        def _impl(family, a, b):
            f = getattr(family_part(literal_family(family), part), attr)
            return lambda family, a, b: f(a, b)
    elif arity == 3:
        def _impl(family, a, b, c):
            f = getattr(family_part(literal_family(family), part), attr)
            return lambda family, a, b, c: f(a, b, c)
    else:
        def _impl(family, a, b, c, d):
            f = getattr(family_part(literal_family(family), part), attr)
            return lambda family, a, b, c, d: f(a, b, c, d)
    _implement(generic)(_impl)


for _name, _part, _attr, _arity in (
        ("legal", "rules", "legal", 1), ("step", "rules", "step", 2), ("heuristic", "agent", "act", 3),
        ("sample", "search", "sample", 4), ("same_side", "search", "same_side", 3),
        ("play_key", "search", "play_key", 1), ("score_key", "search", "score_key", 1),
        ("side_points", "search", "side_points", 2), ("merge", "search", "merge", 2),
        ("points_bounds", "search", "points_bounds", 2), ("score_bounds", "search", "score_bounds", 2)):
    _delegate(_name, _part, _attr, _arity)


@_implement(heuristic_borrowed)
def _heuristic_borrowed(family, s, params, rng):
    agent = family_part(literal_family(family), "agent")
    f = getattr(agent, "act_borrowed", agent.act)
    return lambda family, s, params, rng: f(s, params, rng)


@_implement(move_priority)
def _move_priority(family, s, moves, n, out):
    f = getattr(family_part(literal_family(family), "search"), "move_priority", None)
    if f is None:
        return lambda family, s, moves, n, out: False

    def impl(family, s, moves, n, out):
        f(s, moves, n, out)
        return True
    return impl


@_implement(endgame)
def _endgame(family, s, judge, score, alpha, beta):
    f = getattr(family_part(literal_family(family), "search"), "endgame", None)
    if f is None:
        return lambda family, s, judge, score, alpha, beta: (False, np.int64(0))
    return lambda family, s, judge, score, alpha, beta: f(s, judge, score, alpha, beta)


def play_start(family, s, out):
    """Write into ``out`` the state of ``s``'s deal (``s`` in the card play) at the start of its
    card play (every card played back in its hand, the tricks cleared), from which ``step`` replays
    the tricks' cards to ``s`` again; whether the game has the hook (without it, ``out`` is not
    written and the inference of ``agents.inference`` is off)."""


@_implement(play_start)
def _play_start(family, s, out):
    f = getattr(family_part(literal_family(family), "search"), "play_start", None)
    if f is None:
        return lambda family, s, out: False

    def impl(family, s, out):
        f(s, out)
        return True
    return impl


def auction_log_chance(family, world, seat, eps, hparams, rng, scratch):
    """The log of the chance of the decisions seats other than ``seat`` made before the card play
    of ``world`` (a full deal in the card play) under the heuristic softened by ``eps``
    (``agents.inference``); 0 for a game without the hook (its auction is then no evidence).
    ``scratch`` (an int64 array of ``len(world)``) is written."""


@_implement(auction_log_chance)
def _auction_log_chance(family, world, seat, eps, hparams, rng, scratch):
    f = getattr(family_part(literal_family(family), "search"), "auction_log_chance", None)
    if f is None:
        return lambda family, world, seat, eps, hparams, rng, scratch: 0.0
    return lambda family, world, seat, eps, hparams, rng, scratch: f(world, seat, eps, hparams, rng, scratch)


def trick_position(family, s):
    """``(tricks finished, cards in the trick in progress)`` in the card play."""


@_implement(trick_position)
def _trick_position(family, s):
    rules = _rules(family)
    done, cards = rules.TRICK_NO, rules.IN_TRICK
    return lambda family, s: (s[done], s[cards])


def trick_card(family, s, t, i):
    """The ``i``-th card played to trick ``t`` (finished, or in progress with more than ``i`` cards)."""


@_implement(trick_card)
def _trick_card(family, s, t, i):
    rules = _rules(family)
    first, size = rules.TRICKS + 1, rules.TRICK_SLOTS
    return lambda family, s, t, i: s[first + t * size + i]


@_implement(deal)
def _deal(family, s, seed, hand, players, options, rng):
    f = family_part(literal_family(family), "rules").deal
    return lambda family, s, seed, hand, players, options, rng: f(s, seed, hand, players, options, rng)


@_implement(to_act)
def _to_act(family, s):
    slot = _rules(family).TO_ACT
    return lambda family, s: s[slot]


def phase(family, s):
    """The phase of the hand (0: the first, picking or bidding)."""


@_implement(phase)
def _phase(family, s):
    slot = _rules(family).PHASE
    return lambda family, s: s[slot]


def hand(family, s, seat):
    """The hand mask of ``seat``."""


@_implement(hand)
def _hand(family, s, seat):
    slot = _rules(family).HANDS
    return lambda family, s, seat: s[slot + seat]


@_implement(trick_start)
def _trick_start(family, s):
    slot = _rules(family).IN_TRICK
    return lambda family, s: s[slot] == 0


@_implement(score)
def _score(family, s, seat):
    slot = _rules(family).SCORES
    return lambda family, s, seat: s[slot + seat]


def state_size(family):
    """The length of the family's state array."""


def record(family, s, dealt, out, i):
    """Write the finished hand ``s``'s row ``i`` (the game's RECORD, then its agent's FEATURES)."""


def record_rules(family, s, out, i):
    """Write the finished hand ``s``'s row ``i``, the game's RECORD columns only (the random loop's rows)."""


def random_step(family, s, rng):
    """Play a uniformly random legal action for the seat to act (``uniform_action``): through the
    rules' own ``random_step`` where they have one (the same draw with one dispatch on the phase)."""


@_implement(state_size)
def _state_size(family):
    size = _rules(family).STATE_SIZE
    return lambda family: size


@_implement(record)
def _record(family, s, dealt, out, i):
    rules, agent = _rules(family), family_part(literal_family(family), "agent")
    write, features, column = rules.record, agent.record_features, len(rules.RECORD)

    def impl(family, s, dealt, out, i):
        write(s, out, i)
        features(s, dealt, out, i, column)

    return impl


@_implement(record_rules)
def _record_rules(family, s, out, i):
    write = _rules(family).record
    return lambda family, s, out, i: write(s, out, i)


@_implement(random_step)
def _random_step(family, s, rng):
    rules = _rules(family)
    own = getattr(rules, "random_step", None)
    if own is not None:
        return lambda family, s, rng: own(s, rng)
    rules_legal, rules_step = rules.legal, rules.step

    def impl(family, s, rng):
        words, cards, card_kind = rules_legal(s)
        rules_step(s, uniform_action(words, cards, card_kind, rng))

    return impl


@nb.njit(cache=True, inline="always")
def act(family, s, kind, params, rng):
    """The action of a random or heuristic seat (``kind``, with ``params``) for the seat to act."""
    if kind == HEURISTIC:
        return heuristic(family, s, params, rng)
    words, cards, card_kind = legal(family, s)
    return uniform_action(words, cards, card_kind, rng)


@nb.njit(cache=True)
def choose(family, s, kind, params, rng):
    """The action agent ``kind`` (random or heuristic, with ``params``) takes for the seat to act."""
    literally(family)
    return act(family, s, kind, params, rng)


@cache
def compiled_choose(family: int):
    """``choose`` compiled for ``family``'s constant, for Python callers (``choose(family, s, kind,
    params, rng)``)."""
    vector = types.int64[::1]
    return choose.compile((types.literal(family), vector, types.int64, types.float64[::1], types.uint64[::1]))


@nb.njit(cache=True, inline="always")
def playout(family, s, hparams, rng):
    """Every seat plays ``s`` out with the heuristic agent."""
    while to_act(family, s) >= 0:
        step(family, s, heuristic(family, s, hparams, rng))
