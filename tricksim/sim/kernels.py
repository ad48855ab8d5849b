"""Game-independent numba kernels: bit tricks, the counter-based random stream,
the follow-suit mask, the trick winner and the table of the cards that beat a card.

Every kernel works on plain int64 masks and small per-game tables; a game plugs
in its tables (docs/rules.md, All games: effective suit, trick power, card points) and adds
its own exceptions around these kernels instead of copying them. Kernels assume
legal input: the checked boundary is ``State.apply``.

Table conventions, per game and trump:

* ``suit_masks[e]``: mask of the cards whose effective suit is ``e``.
* ``effective[c]``: effective suit of card ``c``.
* ``power[c]``: a card's strength in a trick. Values of 64 and above (trumps,
  and in Bluke the blukes above them) win whatever was led; a value below 64
  counts only when the card is of the effective suit led.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from llvmlite import ir
from numba import types
from numba.core.errors import TypingError
from numba.extending import intrinsic

ALWAYS_WINS = 64  # power from which a card beats any lead (trumps, blukes)


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _as_pointer(typingctx, address):
    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], ir.IntType(8).as_pointer())

    return types.voidptr(types.intp), codegen


@intrinsic
def _pdep(typingctx, source, mask):
    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=ir.FunctionType(i64, [i64, i64]))
        return builder.call(fn, args)

    return types.int64(types.int64, types.int64), codegen


def _host_has_pdep() -> bool:
    """True on x86-64 processors with BMI2, whose PDEP selects a set bit in one instruction."""
    import llvmlite.binding as llvm

    triple = llvm.get_process_triple()
    return triple.startswith("x86_64") and "+bmi2" in llvm.get_host_cpu_features().flatten()


HAS_PDEP = _host_has_pdep()


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), codegen


@nb.njit(cache=True, inline="always")
def borrow(a):
    """A view of the int64 array ``a`` without reference counting, for hot loops:
    numba otherwise counts references to an array on every use, with atomic
    instructions. The view must not outlive ``a``."""
    return nb.carray(_as_pointer(a.ctypes.data), a.shape[0], np.int64)


@nb.njit(cache=True, inline="always")
def borrow_rng(a):
    """``borrow`` for random streams (a uint64 array)."""
    return nb.carray(_as_pointer(a.ctypes.data), a.shape[0], np.uint64)


@nb.njit(cache=True, inline="always")
def popcount(mask):
    """Number of cards in ``mask``."""
    return _ctpop(np.int64(mask))


@nb.njit(cache=True, inline="always")
def nth_card_pdep(mask, n):
    """``nth_card`` in one PDEP instruction (x86-64 with BMI2 only)."""
    return _cttz(_pdep(np.int64(1) << np.int64(n), np.int64(mask)))


@nb.njit(cache=True, inline="always")
def nth_card_search(mask, n):
    """``nth_card`` anywhere: a branch-free binary search on popcounts (random play
    asks for a random ``n``, and a loop of ``n`` steps would mispredict its exit)."""
    m = np.int64(mask)
    pos = np.int64(0)
    for width in (32, 16, 8, 4, 2, 1):
        count = _ctpop(m & ((np.int64(1) << width) - 1))
        upper = np.int64(n >= count)  # 1 when the card is in the upper half
        n -= count * upper
        pos += width * upper
        m >>= width * upper
    return pos


@nb.njit(cache=True, inline="always")
def lowest_card(mask):
    """Index of the lowest card in a non-empty ``mask``."""
    return _cttz(np.int64(mask))


@intrinsic
def _ctlz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), codegen


@nb.njit(cache=True, inline="always")
def highest_bit(mask):
    """Index of the highest set bit of a non-zero ``mask``."""
    return 63 - _ctlz(np.int64(mask))


# Index of the ``n``-th lowest card (from 0) in ``mask``, for ``n < popcount(mask)``.
nth_card = nth_card_pdep if HAS_PDEP else nth_card_search


@nb.njit(cache=True, inline="always")
def bit(c):
    return np.int64(1) << np.int64(c)


@nb.njit(cache=True, inline="always")
def has(mask, c):
    return (mask >> np.int64(c)) & 1 != 0


# --- random stream ----------------------------------------------------------
# wyrand (the generator of Go's runtime and Zig's standard library: one 128-bit
# multiply a word) on a counter that splitmix64 starts from (seed, hand, stream):
# draw i of a stream depends on those numbers alone, so results never depend on
# threads, workers or chunks.

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_WY_STEP = np.uint64(0xA0761D6478BD642F)
_WY_MIX = np.uint64(0xE7037ED1A0B428DB)


@intrinsic
def _mul_fold(typingctx, a, b):
    """The 128-bit product of two uint64s, its high and low halves xor-ed."""

    def codegen(context, builder, signature, args):
        i128, i64 = ir.IntType(128), ir.IntType(64)
        p = builder.mul(builder.zext(args[0], i128), builder.zext(args[1], i128))
        return builder.xor(builder.trunc(builder.lshr(p, ir.Constant(i128, 64)), i64), builder.trunc(p, i64))

    return types.uint64(types.uint64, types.uint64), codegen


@nb.njit(cache=True, inline="always")
def _mix64(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True, inline="always")
def _wyrand(counter):
    """The word of a stream at ``counter``."""
    return _mul_fold(counter, counter ^ _WY_MIX)


@nb.njit(cache=True, inline="always")
def hash_mix(h, x):
    """Fold the integer ``x`` into the 64-bit hash ``h`` (search keys); returns an int64.

    ``h`` rotated, plus a full mix of ``x`` alone: the mix does not wait for ``h``, so the CPU
    mixes the words of a key side by side rather than one after another (the solver's keys fold
    10 to 40 words; it runs 1.15 to 1.5 times as fast as with ``h`` mixed in). The rotation tells
    the same word in two places apart."""
    u = np.uint64(h)
    mixed = _mix64(np.uint64(x) * _GOLDEN + np.uint64(0x632BE59BD9B4E019))
    return np.int64(((u << np.uint64(5)) | (u >> np.uint64(59))) + mixed)


NO_BOUND = np.int64(1) << np.int64(40)  # a search bound wider than any score or tally: none

RNG_SIZE = 2  # a stream: its counter, and the word at that counter, computed ahead


def new_rng() -> np.ndarray:
    """An empty random stream, for ``seed_stream``."""
    return np.zeros(RNG_SIZE, dtype=np.uint64)


@nb.njit(cache=True, inline="always")
def seed_stream(rng, seed, hand, stream):
    """Start ``rng`` (RNG_SIZE uint64s) at the stream of ``(seed, hand, stream)``."""
    z = _mix64(np.uint64(seed) ^ np.uint64(0x5DEECE66D))
    z = _mix64(z ^ (np.uint64(hand) * _GOLDEN))
    rng[0] = _mix64(z ^ (np.uint64(stream) * np.uint64(0xD1B54A32D192ED03)))
    rng[1] = _wyrand(rng[0])


@nb.njit(cache=True, inline="always")
def rand_word(rng):
    """64 random bits from the stream ``rng``.

    Each call also computes the next word, so that its latency is hidden behind
    the caller's work instead of delaying the caller's next decision."""
    z = rng[1]
    rng[0] += _WY_STEP
    rng[1] = _wyrand(rng[0])
    return z


@nb.njit(cache=True, inline="always")
def _below(bits32, n):
    """A uniform integer in ``[0, n)`` from 32 random bits (multiply-shift, bias < 2**-31)."""
    return np.int64((bits32 * np.uint64(n)) >> np.uint64(32))


@nb.njit(cache=True, inline="always")
def rand_below(rng, n):
    """A uniform integer in ``[0, n)`` for ``0 < n < 2**31``, from the top half of a word."""
    return _below(rand_word(rng) >> np.uint64(32), n)


@nb.njit(cache=True, inline="always")
def _half_word(rng, z, i):
    """32 random bits for draw ``i`` of a run of draws, and the current word: a new word's top
    half when ``i`` is even, else the bottom half of ``z`` (one word serves two draws)."""
    if i & 1 == 0:
        z = rand_word(rng)
        return z >> np.uint64(32), z
    return z & np.uint64(0xFFFFFFFF), z


@nb.njit(cache=True, inline="always")
def draw_cards(remaining, count, rng):
    """Draw ``count`` cards uniformly without replacement from the mask ``remaining``.

    Returns ``(drawn, remaining)``. Dealing hand after hand this way gives every
    hand a uniformly random subset of the deck (docs/rules.md, All games), with no deck array.
    """
    drawn = np.int64(0)
    left = popcount(remaining)
    z = np.uint64(0)
    for i in range(count):
        half, z = _half_word(rng, z, i)
        c = bit(nth_card(remaining, _below(half, left - i)))
        remaining ^= c
        drawn |= c
    return drawn, remaining


@nb.njit(cache=True, inline="always")
def draw_in_order(remaining, count, out, start, rng):
    """Draw ``count`` cards like ``draw_cards``, writing them in the order drawn to
    ``out[start:start + count]`` (a stock, a widow); returns the cards left."""
    left = popcount(remaining)
    z = np.uint64(0)
    for i in range(count):
        half, z = _half_word(rng, z, i)
        c = nth_card(remaining, _below(half, left - i))
        remaining ^= bit(c)
        out[start + i] = c
    return remaining


@nb.njit(cache=True, inline="always")
def copy_slots(out, i, column, s, slot, count):
    """``out[i, column:column + count] = s[slot:slot + count]`` element by element, for the batch
    loops' records: a row view would count references and a slice assignment copies through a
    temporary array."""
    for k in range(count):
        out[i, column + k] = s[slot + k]


# --- play kernels -----------------------------------------------------------


@nb.njit(cache=True, inline="always")
def follow_mask(hand, led, suit_masks):
    """Cards of ``hand`` that may be played to a trick led in effective suit ``led``
    under follow-if-you-can (docs/rules.md, All games): the cards of that suit, else any card."""
    same = hand & suit_masks[led]
    return same if same != 0 else hand


@nb.njit(cache=True, inline="always")
def trick_power(c, led, effective, power):
    """The power card ``c`` has in a trick led in effective suit ``led`` (docs/rules.md, All games:
    Seats, deals and tricks): ``power[c]`` when it is ALWAYS_WINS or more or ``c`` is of the suit
    led, else -1 (it cannot win)."""
    p = power[c]
    counts = (p >= ALWAYS_WINS) | (effective[c] == led)  # selects rather than branches
    return p if counts else -1


@nb.njit(cache=True, inline="always")
def trick_winner(cards, start, n, led, effective, power, cannot_win):
    """Position (0 = leader) of the winning card among ``cards[start:start + n]``
    (a game's state array and the slot of its trick, so that nothing is sliced).

    The highest ``trick_power`` wins. ``cannot_win`` is the position of a card
    that may not win (Sheepshead's unknown), or -1.
    """
    best, best_power = -1, -1
    for i in range(n):
        p = trick_power(cards[start + i], led, effective, power)
        p = p if i != cannot_win else -1
        better = p > best_power  # selects rather than branches: a random trick mispredicts
        best = i if better else best
        best_power = p if better else best_power
    return best


def beaten_by(effective, power, deck) -> np.ndarray:
    """``BEATEN_BY[c]``: the cards that beat card ``c`` once it is winning a trick (docs/rules.md,
    All games: Seats, deals and tricks), for one trump's ``effective`` and ``power`` rows: the
    cards of its effective suit above it, and every card of ALWAYS_WINS power above it (the trumps
    above a trump; every trump, and in Bluke the blukes, above a plain card). Only the cards of
    the mask ``deck`` count; a card outside it gets 0."""
    cards = [c for c in range(len(power)) if int(deck) >> c & 1]
    out = np.zeros(len(power), dtype=np.int64)
    for c in cards:
        for d in cards:
            if power[d] > power[c] and (power[d] >= ALWAYS_WINS or effective[d] == effective[c]):
                out[c] |= np.int64(1) << np.int64(d)
    return out


def suit_orders(effective, power, deck, suits, width) -> np.ndarray:
    """``out[e, i]``: the ``i``-th strongest card (by ``power``) of effective suit ``e`` among the
    cards of the mask ``deck``, for ``e < suits``; -1 past its last card (``width`` columns)."""
    out = np.full((suits, width), -1, dtype=np.int64)
    for e in range(suits):
        cards = sorted((c for c in range(len(power)) if int(deck) >> c & 1 and effective[c] == e),
                       key=lambda c: -power[c])
        out[e, :len(cards)] = cards
    return out


@nb.njit(cache=True, inline="always")
def mask_points(mask, points):
    """Sum of ``points[c]`` over the cards of ``mask``."""
    total = 0
    m = np.int64(mask)
    while m != 0:
        total += points[_cttz(m)]
        m &= m - 1
    return total


def literal_family(family) -> int:
    """The game family (``tricksim.spec``) of an overload's literal argument; a typing error for
    anything else."""
    if not isinstance(family, types.IntegerLiteral):
        raise TypingError("the game family must be a compile-time constant (numba.literally)")
    return family.literal_value
