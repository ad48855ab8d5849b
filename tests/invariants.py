"""The invariant harness every game shares: random hands played once, every step checked.

``check_random_hands(case, seed, fingerprint)`` plays a case's hands (``cases(name)``: a game of
``tricksim.games()`` with options) in a numba loop. It deals each with the game's own
``deal`` (``tricksim.spec.Rules``: dealer ``hand % players``; the first deals of every call are
compared with ``new_hand``'s, and hands with further ``new_hand`` arguments are dealt by it), plays
uniformly random legal actions through the game's ``legal`` and ``step`` (the random agent on the
batch loop's stream) and checks after every step what holds in every game (docs/rules.md, All
games), reading the state only through the slots every kernel module names (``HANDS``, ``DEALER``,
``TO_ACT``, ``PHASE``, ``LEADER``, ``TRICK_NO``, ``IN_TRICK``, ``SCORES``, ``TRICKS``,
``TRICK_SLOTS``, ``PHASE_NAMES``) and the facts the game gives (``players``, ``teams``):

* every seat is dealt as many cards as every other, the hand starts fresh (no trick, no score)
  with its dealer and eldest (the seat left of the dealer) to act;
* no card is in two hands, or in a hand and a trick; every card id is a card (0..53);
* the legal set is never empty while the hand is on and empty once it is over; the phase is one of
  ``PHASE_NAMES``, "over" exactly when nobody is to act; a legal card to play is in nobody else's
  hand and not played yet;
* a play moves that card from the player's hand to its trick slot and changes no other hand; the
  cards of a trick come from its leader and then clockwise, one from each seat; a finished trick's
  record (leader, cards in play order) is the plays made and never changes; its winner is a seat
  and leads the next trick; ``TRICK_NO`` and ``IN_TRICK`` count the plays;
* scores are 0 until the hand is over, and 0 in a hand with no trick (thrown in); a hand that was
  played out leaves no card in a hand; seats of one team (``game.teams``) score alike;
* the hand ends within ``MAX_ACTIONS`` actions; each finished hand's ``record`` row equals the batch
  loop's (``play_random_hands``: the same deal and stream, so the loop and ``legal``/``step`` agree).

``play_through_api`` checks the same through the ``State`` API, on hands that the test draws.

What is particular to a game (its rule oracle: places such as the blind or the stock, exact legal
sets, trick winners, points and scores; its cases) comes from its test module
``tests/test_<game>_invariants.py``, the oracle, which gives:

* ``ORACLE_GAMES``: the games it checks; ``cases(name)``: their ``Case`` s;
* ``params(game, case)``: an int64 array its hooks read (its rule switches); ``MEMORY``: the numpy
  dtype of the one-row record they keep a hand's state in; ``STATS``: the names of the counters
  ``on_end`` adds to, which ``check_stats(case, stats)`` reads; ``ERRORS``: its codes (from 100);
* the numba hooks the loop calls, inlined (see ``oracle_deal`` and friends): ``on_deal``,
  ``on_state`` (before each action and at the end), ``on_step`` (after each), ``on_end``;
* ``api_step(state, played)`` and ``api_end(state, played)``, which ``play_through_api`` calls;
  ``API_EXAMPLES`` (hands to draw) and ``API_DEAL_OPTIONS`` (strategies of further ``new_hand``
  arguments).

A game without one gets the shared checks alone, on its default options.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np
from numba import literally, types
from numba.extending import overload

import tricksim
from tricksim.agents.loops import play_random_hands
from tricksim.agents.random import uniform_action
from tricksim.cards import card_label
from tricksim.sim import actions as A
from tricksim.sim.kernels import RNG_SIZE, borrow, borrow_rng, seed_stream
from tricksim.sim.state import State

from oracle_bits import count as _count

MAX_ACTIONS = 512  # no game's hand takes more actions
NO_ORACLE = ""  # the oracle name of a game without one
ORACLE_CODES = 100  # an oracle's error codes start here

ERRORS = {
    1: "the deal is not fresh (TRICK_NO, IN_TRICK or a score not 0 before the first action)",
    2: "the seats are not dealt the same number of cards",
    3: "the first seat to act is not eldest (left of the dealer), or DEALER is not the dealer dealt",
    4: "a card is in two hands at once, or in a hand and in a trick",
    5: "a card id outside 0..53 is in a hand or a trick",
    6: "the legal set is empty while the hand is not over",
    7: "the legal set is not empty once the hand is over",
    8: "a legal card to play is in another seat's hand or was played already",
    9: "the phase is not one of PHASE_NAMES, or is 'over' other than exactly when nobody is to act",
    10: "the wrong seat plays to a trick (its leader, then clockwise), or LEADER is not the trick's leader",
    11: "a play did not move the card from the player's hand to its trick slot, or changed another hand",
    12: "a finished trick's record (leader, cards in play order) differs from the plays made, or changed later",
    13: "a trick's winner is not a seat, or does not lead the next trick",
    14: "a score is not 0 before the hand is over",
    15: "a hand with no trick played (thrown in) has a score that is not 0",
    16: "a hand played out leaves a card in a hand, or ends inside a trick",
    17: "seats of one team score differently",
    18: f"the hand did not end within {MAX_ACTIONS} actions",
    19: "TRICK_NO / IN_TRICK do not count the plays (a play adds one; other actions change neither)",
    20: "the seat to act is not a seat",
}


# --- the kernels and the oracle of a game, by module name (a compile-time constant) ---------------


def _literal_module(name):
    """The module of a literal module-name argument (None for a non-literal, which ``literally``
    then retries as a literal)."""
    if not isinstance(name, types.StringLiteral):
        return None
    return importlib.import_module(name.literal_value)


def layout(kname):
    """The slots every kernel module names: ``(HANDS, DEALER, TO_ACT, PHASE, LEADER, TRICK_NO,
    IN_TRICK, SCORES, TRICKS, TRICK_SLOTS, number of phases, the "over" phase, STATE_SIZE)``."""


def kernel_legal(kname, s):
    """The game's ``legal(s)``."""


def kernel_step(kname, s, action):
    """The game's ``step(s, action)``."""


def kernel_record(kname, s, out, i):
    """The game's ``record(s, out, i)``: the batch loop's row of a finished hand."""


def kernel_deal(kname, s, seed, hand, players, options, rng):
    """The game's ``deal`` of hand number ``hand`` of ``seed``, dealer ``hand % players``."""


def oracle_deal(oname, s, hand, params, mem):
    """The oracle's ``on_deal(s, hand, params, mem)``: its checks of the fresh deal of match hand
    number ``hand``, and its memory ``mem`` (a one-row record array) reset; an error code or 0."""


def oracle_state(oname, s, words, cards, kind, nact, params, mem):
    """``on_state``: its checks of the state before each action and once the hand is over
    (``s``'s TO_ACT < 0), with ``legal(s)`` and the number of actions taken."""


def oracle_step(oname, s, seat, action, kind, params, mem):
    """``on_step``: its checks after ``seat`` took ``action`` (of card kind ``kind``)."""


def oracle_end(oname, s, nact, params, mem, stats):
    """``on_end``: its checks of the finished hand; it counts in ``stats`` the cases it saw."""


@overload(layout, prefer_literal=True, inline="always")
def _layout(kname):
    K = _literal_module(kname)
    if K is None:
        return None
    slots = (K.HANDS, K.DEALER, K.TO_ACT, K.PHASE, K.LEADER, K.TRICK_NO, K.IN_TRICK, K.SCORES, K.TRICKS,
             K.TRICK_SLOTS, len(K.PHASE_NAMES), K.PHASE_NAMES.index("over"), K.STATE_SIZE)
    return lambda kname: slots


@overload(kernel_legal, prefer_literal=True, inline="always")
def _kernel_legal(kname, s):
    K = _literal_module(kname)
    return None if K is None else (lambda kname, s: K.legal(s))


@overload(kernel_step, prefer_literal=True, inline="always")
def _kernel_step(kname, s, action):
    K = _literal_module(kname)
    return None if K is None else (lambda kname, s, action: K.step(s, action))


@overload(kernel_deal, prefer_literal=True, inline="always")
def _kernel_deal(kname, s, seed, hand, players, options, rng):
    K = _literal_module(kname)
    return None if K is None else (lambda kname, s, seed, hand, players, options, rng: K.deal(s, seed, hand, players,
                                                                                              options, rng))


@overload(kernel_record, prefer_literal=True, inline="always")
def _kernel_record(kname, s, out, i):
    K = _literal_module(kname)
    return None if K is None else (lambda kname, s, out, i: K.record(s, out, i))


@cache
def _inlined(module_name: str, attr: str):
    """The oracle's hook ``attr``, compiled again to be inlined where the checker calls it: a call
    would cost more than the hook (numba counts references to every array passed, atomically)."""
    return nb.njit(inline="always", cache=False)(getattr(importlib.import_module(module_name), attr).py_func)


def _oracle_hook(name, attr):
    """``(literal, hook)``: whether ``name`` is a literal yet (``literally`` retries it) and the hook
    ``attr`` of the oracle module it names (None for a game without an oracle)."""
    if not isinstance(name, types.StringLiteral):
        return False, None
    return True, None if name.literal_value == NO_ORACLE else _inlined(name.literal_value, attr)


@overload(oracle_deal, prefer_literal=True, inline="always")
def _oracle_deal(oname, s, hand, params, mem):
    literal, f = _oracle_hook(oname, "on_deal")
    if literal:
        return (lambda oname, s, hand, params, mem: 0) if f is None else \
            (lambda oname, s, hand, params, mem: f(s, hand, params, mem))


@overload(oracle_state, prefer_literal=True, inline="always")
def _oracle_state(oname, s, words, cards, kind, nact, params, mem):
    literal, f = _oracle_hook(oname, "on_state")
    if literal:
        return (lambda oname, s, words, cards, kind, nact, params, mem: 0) if f is None else \
            (lambda oname, s, words, cards, kind, nact, params, mem: f(s, words, cards, kind, nact, params, mem))


@overload(oracle_step, prefer_literal=True, inline="always")
def _oracle_step(oname, s, seat, action, kind, params, mem):
    literal, f = _oracle_hook(oname, "on_step")
    if literal:
        return (lambda oname, s, seat, action, kind, params, mem: 0) if f is None else \
            (lambda oname, s, seat, action, kind, params, mem: f(s, seat, action, kind, params, mem))


@overload(oracle_end, prefer_literal=True, inline="always")
def _oracle_end(oname, s, nact, params, mem, stats):
    literal, f = _oracle_hook(oname, "on_end")
    if literal:
        return (lambda oname, s, nact, params, mem, stats: 0) if f is None else \
            (lambda oname, s, nact, params, mem, stats: f(s, nact, params, mem, stats))


# --- the shared checks, each a small function that a test can feed a broken state ----------------


@nb.njit(cache=False, inline="always")
def places_code(s, hands_slot, n, played):
    """Error code of the places every game shares: the hands and the cards ``played`` (a mask)
    pairwise apart, every card a card."""
    seen = played
    for p in range(n):
        m = s[hands_slot + p]
        if m >> np.int64(54) != 0 or m < 0:
            return 5
        if seen & m:
            return 4
        seen |= m
    return 0


@nb.njit(cache=False, inline="always")
def play_code(before, s, hands_slot, n, seat, c, slot):
    """Error code of a play of card ``c`` by ``seat``: ``before`` the hands before it, ``slot`` the
    trick slot it must be in."""
    for p in range(n):
        expected = before[p] & ~(np.int64(1) << np.int64(c)) if p == seat else before[p]
        if s[hands_slot + p] != expected:
            return 11
    return 0 if s[slot] == c else 11


@nb.njit(cache=False, inline="always")
def end_code(s, hands_slot, scores_slot, n, teams, tricks, in_trick):
    """Error code of a finished hand: ``tricks`` finished, ``in_trick`` cards in an unfinished one."""
    if tricks == 0 and in_trick == 0:
        for p in range(n):
            if s[scores_slot + p] != 0:
                return 15
    else:
        if in_trick != 0:
            return 16
        for p in range(n):
            if s[hands_slot + p] != 0:
                return 16
    if teams > 0:
        for p in range(n):
            if s[scores_slot + p] != s[scores_slot + p % teams]:
                return 17
    return 0


def _make_checker(fingerprint):
    """The checker, cached by numba; ``fingerprint`` ties the cache to the engine's and the
    oracles' sources (``harness_fingerprint``)."""

    @nb.njit(cache=True)
    def check_hands(kname, oname, seeds, numbers, preset, given, n, teams, options, params, mem, stats, acts,
                    rows, dealt, scratch, rngs):
        """Deal match hand number ``numbers[i]`` of ``seeds[i]`` (dealer ``numbers[i] % n``) with the
        game's ``deal_random`` (or take ``preset[given[i]]`` where ``given[i] >= 0``) and play it with
        random actions, checking every step. Returns ``(error code, i, actions taken)``, ``(0, -1, 0)``
        when every hand kept the invariants; ``acts`` holds the failing hand's actions, ``rows[i]``
        each finished hand's record and ``dealt`` the first deals; ``scratch`` (STATE_SIZE + n) and
        ``rngs`` (2 * RNG_SIZE) are scratch."""
        literally(kname)
        literally(oname)
        if n < 0:  # never true: makes the fingerprint part of the cache key
            return fingerprint, -1, 0
        HANDS, DEALER, TO_ACT, PHASE, LEADER, TRICK_NO, IN_TRICK, SCORES, TRICKS, TRICK_SLOTS, PHASES, OVER, \
            SIZE = layout(kname)
        # the arrays the hooks and kernels take, without reference counting (``borrow``)
        s = borrow(scratch)[:SIZE]
        before = borrow(scratch)[SIZE:SIZE + n]
        rng = borrow_rng(rngs)[:RNG_SIZE]
        deal_rng = borrow_rng(rngs)[RNG_SIZE:]
        params = borrow(params)
        stats = borrow(stats)
        record = np.zeros((64, n + 1), np.int64)  # per finished trick: leader, cards in play order
        for i in range(seeds.shape[0]):
            hand = numbers[i]
            dealer = hand % n
            if given[i] >= 0:
                s[:] = preset[given[i]]
            else:
                kernel_deal(kname, s, seeds[i], hand, n, options, deal_rng)
            if i < dealt.shape[0]:
                dealt[i] = s
            seed_stream(rng, seeds[i], hand, 1)  # the batch loop's agent stream
            # --- the deal -----------------------------------------------------------------------
            if s[TRICK_NO] != 0 or s[IN_TRICK] != 0:
                return 1, i, 0
            for p in range(n):
                if s[SCORES + p] != 0:
                    return 1, i, 0
                if _count(s[HANDS + p]) != _count(s[HANDS]):
                    return 2, i, 0
            if s[DEALER] != dealer or s[TO_ACT] != (dealer + 1) % n:
                return 3, i, 0
            code = oracle_deal(oname, s, hand, params, mem)
            if code != 0:
                return code, i, 0
            played = np.int64(0)
            leader, in_trick, tricks, nact = -1, 0, 0, 0
            while True:
                seat = s[TO_ACT]
                over = seat < 0
                words, cards, kind = kernel_legal(kname, s)
                code = places_code(s, HANDS, n, played)
                if code != 0:
                    return code, i, nact
                if not 0 <= s[PHASE] < PHASES or (s[PHASE] == OVER) != over:
                    return 9, i, nact
                if s[TRICK_NO] != tricks or s[IN_TRICK] != in_trick:
                    return 19, i, nact
                code = oracle_state(oname, s, words, cards, kind, nact, params, mem)
                if code != 0:
                    return code, i, nact
                if over:
                    if words != 0 or cards != 0:
                        return 7, i, nact
                    break
                if seat >= n:
                    return 20, i, nact
                if words == 0 and cards == 0:
                    return 6, i, nact
                if nact >= MAX_ACTIONS:
                    return 18, i, nact
                for p in range(n):
                    if s[SCORES + p] != 0:
                        return 14, i, nact
                if kind == A.PLAY:
                    for p in range(n):
                        if p != seat and cards & s[HANDS + p]:
                            return 8, i, nact
                    if cards & played:
                        return 8, i, nact
                action = uniform_action(words, cards, kind, rng)
                acts[nact] = action
                nact += 1
                for p in range(n):
                    before[p] = s[HANDS + p]
                kernel_step(kname, s, action)
                if action >= A.CARD_BASE and (action - A.CARD_BASE) // 54 == A.PLAY:
                    c = (action - A.CARD_BASE) % 54
                    if in_trick == 0:
                        leader = seat
                    if seat != (leader + in_trick) % n or (in_trick + 1 < n and s[LEADER] != leader):
                        return 10, i, nact
                    slot = TRICKS + tricks * TRICK_SLOTS
                    code = play_code(before, s, HANDS, n, seat, c, slot + 1 + in_trick)
                    if code != 0:
                        return code, i, nact
                    played |= np.int64(1) << np.int64(c)
                    record[tricks, 1 + in_trick] = c
                    in_trick += 1
                    if in_trick == n:  # the trick is finished
                        record[tricks, 0] = leader
                        if s[slot] != leader:
                            return 12, i, nact
                        winner = s[slot + TRICK_SLOTS - 1]
                        if not 0 <= winner < n or (s[TO_ACT] >= 0 and s[TO_ACT] != winner):
                            return 13, i, nact
                        tricks += 1
                        in_trick = 0
                code = oracle_step(oname, s, seat, action, kind, params, mem)
                if code != 0:
                    return code, i, nact
            # --- the hand is over -------------------------------------------------------------------
            for t in range(tricks):  # the records of the finished tricks did not change
                for k in range(n + 1):
                    if s[TRICKS + t * TRICK_SLOTS + k] != record[t, k]:
                        return 12, i, nact
            code = end_code(s, HANDS, SCORES, n, teams, tricks, in_trick)
            if code != 0:
                return code, i, nact
            kernel_record(kname, s, rows, i)
            code = oracle_end(oname, s, nact, params, mem, stats)
            if code != 0:
                return code, i, nact
        return 0, -1, 0

    return check_hands


# --- Python: the oracle of a game, the deals, the driver ------------------------------------------


@cache
def _oracle_modules() -> dict[str, Any]:
    """Each game's oracle: the test modules ``test_*_invariants.py`` beside this file, by the
    games they name in ``ORACLE_GAMES`` (imported when first asked: they import this module)."""
    found = {}
    for path in sorted(Path(__file__).parent.glob("test_*_invariants.py")):
        module = importlib.import_module(path.stem)
        for name in getattr(module, "ORACLE_GAMES", ()):
            found[name] = module
    return found


def oracle_for(name: str):
    """The oracle module of game ``name``, None if it has none."""
    return _oracle_modules().get(name)


def harness_fingerprint(engine_fingerprint: int) -> int:
    """``engine_fingerprint`` (conftest.py) with the sources of the oracles and of their helpers,
    which numba's cache of the checker would not see change."""
    digest = hashlib.sha256(str(engine_fingerprint).encode())
    here = Path(__file__).parent
    for path in sorted({Path(m.__file__) for m in _oracle_modules().values()} | {here / "oracle_bits.py"}):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return int(digest.hexdigest()[:15], 16)


@dataclass
class Case:
    """Random hands of one game and options: ``hands`` of them; ``deal_options(hand)``, if given,
    the further ``new_hand`` arguments of match hand number ``hand`` (a hand with any true is dealt
    by ``new_hand`` and not compared with the batch loop, which deals without them)."""

    name: str
    options: dict
    hands: int
    deal_options: Callable[[int], dict] | None = None
    id: str = ""

    def __post_init__(self):
        if not self.id:
            shown = ",".join(f"{k}={v}" for k, v in self.options.items())
            self.id = self.name + (f"[{shown}]" if shown else "")


DEFAULT_HANDS = 20_000  # hands of a game without an oracle that names its cases


def cases(name: str) -> list[Case]:
    """The cases of game ``name``: its oracle's ``cases(name)``, else its default options."""
    oracle = oracle_for(name)
    return oracle.cases(name) if oracle is not None else [Case(name, {}, DEFAULT_HANDS)]


def deal_plan(game, hands: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``(seeds, numbers)`` of ``hands`` deals: match hand numbers 0, 1, ... of ``seed``; for a
    game whose ``new_hand`` takes only the numbers of a match (``match_hands``), every match's
    numbers of ``seed``, ``seed + 1``, ..."""
    i = np.arange(hands, dtype=np.int64)
    length = getattr(game, "match_hands", 0)
    if length:
        return seed + i // length, i % length
    return np.full(hands, seed, dtype=np.int64), i


class InvariantError(AssertionError):
    """A broken invariant, with a replay of the hand that broke it."""


_checkers: dict[int, Any] = {}
_entries: dict[tuple, Any] = {}


def _entry(fingerprint: int, kname: str, oname: str, args: tuple):
    """The checker compiled for the kernel and oracle names (numba's slow path, 10 ms a call,
    would otherwise be taken on every call)."""
    checker = _checkers.get(fingerprint) or _checkers.setdefault(fingerprint, _make_checker(fingerprint))
    sig = (types.literal(kname), types.literal(oname)) + tuple(nb.typeof(a) for a in args)
    key = (fingerprint, sig)
    if key not in _entries:
        _entries[key] = checker.compile(sig)
    return _entries[key]


def same_deal(a, b) -> bool:
    """Whether States ``a`` and ``b`` are the same hand as every seat sees it: hands, seat to act,
    phase, legal actions and each seat's view (not their arrays: a kernel may leave slots it has not
    written yet, such as the seat that played each card, as it found them)."""
    n = a.game.players
    return (all(a.hand(p).mask == b.hand(p).mask for p in range(n)) and a.current_player == b.current_player
            and a.phase == b.phase and a.legal_actions() == b.legal_actions()
            and all(repr(a.observe(p)) == repr(b.observe(p)) for p in range(n)))


def deal(game, seeds, numbers, deal_options=None) -> np.ndarray:
    """The state arrays of ``game.new_hand(seeds[i], numbers[i] % players, numbers[i])`` (with
    ``deal_options(numbers[i])`` as further arguments, if given), one row each."""
    deals = np.empty((len(seeds), game.kernels.STATE_SIZE), dtype=np.int64)
    n = game.players
    for i, (seed, number) in enumerate(zip(seeds.tolist(), numbers.tolist())):
        kwargs = deal_options(number) if deal_options else {}
        deals[i] = game.new_hand(seed, number % n, number, **kwargs).array
    return deals


COMPARED_DEALS = 8  # the checker's first deals of a call that are compared with new_hand's
CHUNK = 1 << 16  # hands per call of the checker


def run_checker(game, oracle, seeds, numbers, fingerprint, preset=None, given=None, params=None, mem=None,
                stats=None):
    """The checker on the deals of ``seeds`` and ``numbers``, taking ``preset[given[i]]`` where
    ``given[i] >= 0`` (all of ``preset``, in order, without ``given``): ``(error code, i, actions,
    records, first deals)``, where ``actions`` are the failing hand's and ``records`` the finished
    hands' ``record`` rows."""
    K = game.kernels
    if oracle is None:
        params, mem, stats = np.zeros(1, np.int64), np.zeros(1, [("unused", np.int64)]), np.zeros(1, np.int64)
    if preset is None:
        preset, given = np.zeros((0, K.STATE_SIZE), np.int64), np.full(len(seeds), -1, np.int64)
    elif given is None:
        given = np.arange(len(seeds), dtype=np.int64)
    acts = np.zeros(MAX_ACTIONS + 1, dtype=np.int64)
    rows = np.zeros((len(seeds), len(K.RECORD)), dtype=np.int64)
    dealt = np.zeros((min(COMPARED_DEALS, len(seeds)), K.STATE_SIZE), dtype=np.int64)
    scratch, rngs = np.zeros(K.STATE_SIZE + game.players, np.int64), np.zeros(2 * RNG_SIZE, np.uint64)
    args = (seeds, numbers, preset, given, game.players, game.teams, game.option_array, params, mem, stats, acts,
            rows, dealt, scratch, rngs)
    oname = oracle.__name__ if oracle is not None else NO_ORACLE
    code, row, nact = _entry(fingerprint, K.__name__, oname, args)(K.__name__, oname, *args)
    return code, row, acts[:nact], rows, dealt


def check_random_hands(case: Case, seed: int, fingerprint: int) -> dict:
    """Play ``case.hands`` random hands of ``seed``, checking every step, and return the oracle's
    counts of the cases it saw, by its ``STATS`` names; InvariantError naming the first broken
    invariant and the hand's replay. Hands with deal options are dealt by ``new_hand`` in Python,
    the others by the checker (its first ones compared with ``new_hand``'s)."""
    game = tricksim.make_game(case.name, **case.options)
    oracle = oracle_for(case.name)
    params = mem = stats = None
    if oracle is not None:
        params, mem, stats = oracle.params(game, case), np.zeros(1, oracle.MEMORY), np.zeros(len(oracle.STATS), np.int64)
    all_seeds, all_numbers = deal_plan(game, case.hands, seed)
    n = game.players
    for start in range(0, case.hands, CHUNK):
        seeds, numbers = all_seeds[start:start + CHUNK], all_numbers[start:start + CHUNK]
        options = [case.deal_options(h) for h in numbers.tolist()] if case.deal_options else [{}] * len(seeds)
        extra = np.array([any(o.values()) for o in options], dtype=bool)
        given = np.where(extra, np.cumsum(extra) - 1, -1).astype(np.int64)
        preset = deal(game, seeds[extra], numbers[extra], case.deal_options)
        code, row, acts, rows, dealt = run_checker(game, oracle, seeds, numbers, fingerprint, preset, given,
                                                   params, mem, stats)
        for i, first in enumerate(dealt):
            state = game.new_hand(int(seeds[i]), int(numbers[i]) % n, int(numbers[i]), **options[i])
            if not same_deal(State(game, first), state):
                raise InvariantError(f"{case.id}: the checker's deal {start + i} differs from new_hand's")
        if code != 0:
            raise InvariantError(describe(game, oracle, code, seeds[row], numbers[row], acts, case.deal_options))
        _compare_with_batch(game, seeds, numbers, rows, extra)
    return dict(zip(oracle.STATS, stats.tolist())) if oracle is not None else {}


def describe(game, oracle, code, seed, number, acts, deal_options=None) -> str:
    """The broken invariant ``code`` and a replay of its hand."""
    message = ERRORS.get(code) if code < ORACLE_CODES else oracle.ERRORS.get(code)
    kwargs = deal_options(int(number)) if deal_options else {}
    n = game.players
    state = game.new_hand(int(seed), int(number) % n, int(number), **kwargs)
    hands = [state.hand(p).labels() for p in range(n)]
    labels = [A.action_label(int(a)) for a in acts]
    args = f"seed={seed}, dealer={number % n}, hand={number}" + "".join(f", {k}={v!r}" for k, v in kwargs.items())
    return (f"{message or 'unknown error'} (error {code}) after action {len(acts)}: {game!r}.new_hand({args}) "
            f"dealt {hands}; actions {labels}")


def _compare_with_batch(game, seeds, numbers, rows, extra) -> None:
    """The batch loop's rows of the same hands (a run of one seed at a time) equal ``rows``."""
    cut = np.flatnonzero((np.diff(seeds) != 0) | (np.diff(numbers) != 1)) + 1
    for lo, hi in zip(np.r_[0, cut], np.r_[cut, len(seeds)]):
        out = np.zeros((hi - lo, rows.shape[1]), dtype=np.int64)
        play_random_hands(game, int(seeds[lo]), int(numbers[lo]), out)
        differ = np.flatnonzero((out != rows[lo:hi]).any(axis=1) & ~extra[lo:hi])
        if differ.size:
            i = lo + differ[0]
            raise InvariantError(
                f"play_random_hands differs from legal/step on {differ.size} hands, first: {game!r}.new_hand("
                f"seed={seeds[i]}, dealer={numbers[i] % game.players}, hand={numbers[i]}): "
                f"{list(out[differ[0]])} vs {list(rows[i])} (columns {game.kernels.RECORD})")


# --- the State API ----------------------------------------------------------------------------------


_BITS = {card_label(c): 1 << c for c in range(54)}


def mask(labels) -> int:
    """The mask of card labels (as ``State`` writes them), each counted once."""
    out = 0
    for label in labels:
        out |= _BITS[label]
    return out


@dataclass
class Played:
    """What ``play_through_api`` saw of a hand, for an oracle's ``api_step`` / ``api_end``: the
    game, the State as dealt and the ``new_hand`` arguments, the actions as ``(seat, label)`` and
    the plays as ``(seat, card label)``, in order, and the mask of the cards played."""

    game: Any
    start: Any
    seed: int
    dealer: int
    hand: int
    deal_options: dict
    actions: list = field(default_factory=list)
    plays: list = field(default_factory=list)
    mask: int = 0  # of the cards played


def play_through_api(game, seed: int, dealer: int, hand: int, deal_options: dict, rnd) -> Played:
    """Play one hand through the State API with actions chosen by ``rnd`` (a ``random.Random``),
    checking the shared invariants and the oracle's ``api_step`` / ``api_end``."""
    oracle = oracle_for(game.name)
    n = game.players
    state = game.new_hand(seed, dealer, hand, **deal_options)
    again = game.new_hand(seed, dealer, hand, **deal_options)
    assert same_deal(state, again), "a deal is not reproducible from (seed, hand)"
    sizes = [len(state.hand(p)) for p in range(n)]
    assert len(set(sizes)) == 1, f"the seats are dealt different numbers of cards: {sizes}"
    assert state.current_player == (dealer + 1) % n, "eldest (left of the dealer) does not act first"
    played = Played(game, again, seed, dealer, hand, deal_options)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal and legal == sorted(legal), f"legal actions empty or out of order: {legal}"
        seat = state.current_player
        action = rnd.choice(legal)
        label = state.action_label(action)
        state.apply(action)
        played.actions.append((seat, label))
        if label.startswith("play "):
            played.plays.append((seat, label[5:]))
            played.mask |= _BITS[label[5:]]
            if len(played.plays) % n == 0:
                tricks = state.tricks()
                assert len(tricks) == len(played.plays) // n
                leader, cards, winner = tricks[-1]
                trick = played.plays[-n:]
                assert [p for p, _ in trick] == [(leader + k) % n for k in range(n)], \
                    "a trick needs one card from each seat, clockwise from its leader"
                assert cards == [c for _, c in trick]
                assert state.is_terminal() or state.current_player == winner, "the winner does not lead next"
        held = 0
        for p in range(n):
            h = state.hand(p).mask
            assert held & h == 0, "a card is in two hands"
            held |= h
        assert held & played.mask == 0, "a played card is in a hand"
        if oracle is not None:
            oracle.api_step(state, played)
    assert state.legal_actions() == [] and state.phase == "over"
    scores = state.scores()
    assert state.result()["scores"] == scores
    if not played.plays:
        assert scores == [0] * n, "a hand thrown in scores"
    else:
        assert len(played.plays) % n == 0 and all(len(state.hand(p)) == 0 for p in range(n))
    if game.teams:
        assert all(scores[p] == scores[p % game.teams] for p in range(n)), "seats of one team score differently"
    if oracle is not None:
        oracle.api_end(state, played)
    return played


def option_choices(name: str) -> dict:
    """Each option of game ``name`` that offers a choice, with its choices (``Option.choices``)."""
    return {k: o.choices for k, o in tricksim.make_game(name).OPTIONS.items() if len(o.choices) > 1}


def make_valid_game(name: str, options: dict):
    """The game ``name`` with ``options``; where they do not go together (OptionError), the last
    drawn of them back at their defaults, one at a time, until they do."""
    options = dict(options)
    while True:
        try:
            return tricksim.make_game(name, **options)
        except tricksim.OptionError:
            options.popitem()
