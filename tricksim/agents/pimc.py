"""Perfect Information Monte Carlo: the action with the best average over sampled deals.

At each decision the seat samples ``worlds`` deals consistent with all it knows (the game's
``sample``: its hand, the cards played, the voids shown, the piles it saw; the bids and the
play say more only with ``infer``, below) and values every legal action in each:

* **Card play, from ``solve`` cards in hand on,** with the exact solver: the action's value is the
  seat's hand score when both sides play on perfectly in that world (``solver.action_values``,
  the two-sided or paranoid minimax of ``solver``). The solver's table is shared by the worlds of
  a decision and by the decisions of a hand: its keys hold every hand, so an entry is exact for
  its position wherever it was found.
* **Every other decision** (pick or pass, bid levels, bury, call, trump, discard, exchange, and
  the first cards of a long hand): the seat's mean hand score over ``rollouts`` heuristic
  playouts of the action in that world (``rollout_action``, which ISMCTS calls for its own early
  decisions). The heuristic agents are deterministic, so the playouts of an action in one world
  are all alike: ``rollouts`` above 1 changes no decision (measured: Sheepshead's picks) and only
  costs; the noise of a bid's value is in the worlds. Solving from the first card costs tens of
  milliseconds a world and action (BENCHMARKS.md); ``solve = 99`` asks for it all the same.

With ``bidding = 0`` the heuristic agent makes the decisions before the card play, so a match of
PIMC against the heuristic measures card play alone. With ``anchor = m`` (> 0) PIMC keeps the
heuristic's choice there unless another action's mean gain over it, paired in the same deals,
exceeds ``m`` standard errors, as ISMCTS does: the sampled deals ignore what the bids so far say,
so the plain best mean overrates bidding over a partner or into a strong bidder.

With ``infer = eps`` (> 0) the worlds are not alike: each counts by the chance of the other seats'
decisions so far in it (their auction, and in the card play their cards), under the heuristic
softened by ``eps`` (``agents.inference``). With ``resample = K`` (> 1, the default 2) the seat
samples ``K * worlds`` candidate worlds, draws ``worlds`` of them in proportion to their weight
(systematic resampling) and values those alike, each distinct one once; with ``resample = 1`` it
values every sampled world and takes each action's weighted mean (the weights then pile onto a few
worlds). With ``ess = r``
(> 0) the candidates' weights are first tempered (``temper``: raised to the largest power up to 1 at
which their effective sample size is at least ``r * worlds``), so that a likelihood sharper than its
model deserves does not pile the draws onto a few worlds. ``infer = 0``
(the default) weighs every world alike, as the sampler draws them. ``time`` (seconds, 0 for none) stops
sampling once spent, after at least one world; a run with it is not reproducible.

The error of PIMC is known ("strategy fusion": in each world it plays as if it could see the
cards, so it overrates lines that need a guess later); ISMCTS (``agents.ismcts``) does not have it.
"""

from __future__ import annotations

import time
from functools import cache

import numba as nb
import numpy as np
from numba import types

from ..sim import actions as A
from ..sim.kernels import popcount, rand_below
from . import SEARCH_PARAMS
from .family import hand, heuristic, legal, playout, sample, score, step, to_act
from .inference import log_likelihood
from .solver import SCORE, WORKSPACE, action_values, write_actions

PARAMS = SEARCH_PARAMS["pimc"]
DEFAULTS = np.array([default for _, default, _ in PARAMS], dtype=np.float64)
WORLDS, TIME, SOLVE, ROLLOUTS, BIDDING, INFER, RESAMPLE, ANCHOR, ESS = range(len(PARAMS))


@nb.njit(cache=True)
def now():
    """Seconds on a monotonic clock."""
    with nb.objmode(t="float64"):
        t = time.perf_counter()
    return t


@nb.njit(cache=True, inline="always")
def legal_actions(family, s, out):
    """Write the legal action ids at ``s`` into ``out``, in increasing order; their count."""
    words, cards, kind = legal(family, s)
    return write_actions(words, cards, kind, out)


@nb.njit(cache=True, inline="always")
def is_card_play(family, s):
    words, cards, kind = legal(family, s)
    return words == 0 and kind == A.PLAY


@nb.njit(cache=True, inline="always")
def world_values(family, world, seat, actions, n, solving, rollouts, hparams, rng, values, ws):
    """The value for ``seat`` of each legal action ``actions[:n]`` in ``world`` (a full deal) into
    ``values[:n]``: with ``solving``, its exact hand score by the solver; else the sum of the seat's
    hand scores over ``rollouts`` heuristic playouts of it."""
    if solving:
        action_values(family, world, seat, SCORE, ws, actions, values)
        return
    trial = ws[0][ws[0].shape[0] - 1]  # the last row is free: the solver never searches that deep
    rollout_values(family, world, seat, actions, n, rollouts, hparams, rng, values, trial)


@nb.njit(cache=True, inline="always")
def rollout_values(family, world, seat, actions, n, rollouts, hparams, rng, values, trial):
    """The sum of ``seat``'s hand scores over ``rollouts`` heuristic playouts of each legal action
    ``actions[:n]`` in ``world`` (a full deal) into ``values[:n]`` (``trial``: scratch as long as a
    state). Every later decision of every seat, bids included, is the heuristic's with its hand in
    ``world``."""
    for i in range(n):
        values[i] = 0
        for _ in range(rollouts):
            trial[:] = world
            step(family, trial, actions[i])
            playout(family, trial, hparams, rng)
            values[i] += score(family, trial, seat)


@nb.njit(cache=True)
def act(family, s, params, hparams, rng, world, actions, totals, values, ws):
    """PIMC's action for the seat to act at ``s`` (``params``: PARAMS; ``hparams``: the heuristic's
    parameters for its playouts and, with ``bidding = 0``, its own early decisions; ``ws``: the
    solver's workspace)."""
    seat = to_act(family, s)
    n = legal_actions(family, s, actions)
    if n == 1:
        return actions[0]
    play = is_card_play(family, s)
    if not play and params[BIDDING] == 0:
        return heuristic(family, s, hparams, rng)
    worlds = max(1, np.int64(params[WORLDS]))
    rollouts = max(1, np.int64(params[ROLLOUTS]))
    limit = params[TIME]
    if not play:
        trial = ws[0][ws[0].shape[0] - 1]  # the last row is free: the solver never searches that deep
        anchor = heuristic_index(family, s, hparams, rng, actions) if params[ANCHOR] > 0 else -1
        return rollout_action(family, s, worlds, rollouts, limit, anchor, params[ANCHOR], hparams, rng, world, actions,
                              n, totals, values, trial, params[INFER], np.int64(params[RESAMPLE]))
    solving = popcount(hand(family, s, seat)) <= params[SOLVE]
    start = now() if limit > 0 else 0.0
    totals[:n] = 0.0
    if params[INFER] > 0:
        inferred_totals(family, s, seat, worlds, max(1, np.int64(params[RESAMPLE])), params[INFER],
                        params[ESS] * worlds, solving, rollouts, limit, start, hparams, rng, actions, n, totals, values, ws)
        return actions[best_total(totals, n)]
    for _ in range(worlds):
        sample(family, s, seat, rng, world)
        world_values(family, world, seat, actions, n, solving, rollouts, hparams, rng, values, ws)
        for i in range(n):
            totals[i] += values[i]
        if limit > 0 and now() - start > limit:
            break
    return actions[best_total(totals, n)]


@nb.njit(cache=True, inline="always")
def best_total(totals, n):
    """The index of the highest of ``totals[:n]``, the first such on a tie."""
    best = 0
    for i in range(1, n):
        if totals[i] > totals[best]:
            best = i
    return best


@nb.njit(cache=True)
def inferred_totals(family, s, seat, worlds, candidates, eps, ess, solving, rollouts, limit, start, hparams, rng, actions,
                    n, totals, values, ws):
    """Each legal action's total value into ``totals[:n]`` over ``candidates * worlds`` sampled
    worlds weighed by their likelihood (``inference.log_likelihood`` with ``eps``). With
    ``candidates`` > 1 the weights are tempered to an effective sample size of at least ``ess``
    (``temper``) and ``worlds`` of the candidates drawn in proportion to them (``systematic``): one
    drawn ``k`` times counts ``k`` times but is valued once, so the valued worlds stay ``worlds``
    many and as diverse as the weights allow. With ``candidates`` = 1 every world is valued and
    counts by its weight, untempered (the weights pile onto a few worlds). ``limit`` stops the
    valuing once spent."""
    m = candidates * worlds
    pool = np.empty((m, s.shape[0]), np.int64)  # the candidates: a decision's scratch, not a hot loop's
    log_weights = np.empty(m)
    replay = np.empty_like(s)
    for k in range(m):
        sample(family, s, seat, rng, pool[k])
        log_weights[k] = log_likelihood(family, pool[k], seat, eps, hparams, rng, replay)
    counts = np.empty(m)
    if candidates > 1:
        temper(log_weights, m, ess)
        drawn = np.empty(m, np.int64)
        systematic(log_weights, m, worlds, rng, drawn)
        counts[:] = drawn
    else:
        counts[:] = np.exp(log_weights - log_weights.max())
    for k in range(m):
        if counts[k] == 0:
            continue
        world_values(family, pool[k], seat, actions, n, solving, rollouts, hparams, rng, values, ws)
        for i in range(n):
            totals[i] += counts[k] * values[i]
        if limit > 0 and now() - start > limit:
            break


@nb.njit(cache=True)
def effective_size(log_weights, m, power):
    """The effective sample size ``(sum w) ** 2 / sum w ** 2`` of the weights ``exp(power *
    log_weights[:m])``."""
    top = log_weights[0]
    for k in range(1, m):
        top = max(top, log_weights[k])
    total, squares = 0.0, 0.0
    for k in range(m):
        w = np.exp(power * (log_weights[k] - top))
        total += w
        squares += w * w
    return total * total / squares


@nb.njit(cache=True)
def temper(log_weights, m, target):
    """Raise the weights ``exp(log_weights[:m])`` to the largest power in (0, 1] (in place, on the
    logs) at which their effective sample size is at least ``target``: a likelihood sharper than
    the model deserves would leave a few distinct worlds to value (adaptive tempering, as in
    sequential Monte Carlo). ``target`` 0 changes nothing."""
    if target <= 0 or effective_size(log_weights, m, 1.0) >= target:
        return
    low, high = 0.0, 1.0  # the size falls as the power grows: at 0 it is m
    for _ in range(30):
        mid = 0.5 * (low + high)
        if effective_size(log_weights, m, mid) >= target:
            low = mid
        else:
            high = mid
    for k in range(m):
        log_weights[k] *= low


@nb.njit(cache=True)
def systematic(log_weights, m, draws, rng, counts):
    """Systematic resampling: how many of ``draws`` draws fall on each of ``m`` items into
    ``counts[:m]``, in proportion to ``exp(log_weights[:m])``: one uniform offset, then ``draws``
    evenly spaced points along the weights' running sum, so each item gets the floor or the
    ceiling of its expected count (less noise than independent draws)."""
    top = log_weights[0]
    for k in range(1, m):
        top = max(top, log_weights[k])
    total = 0.0
    for k in range(m):
        total += np.exp(log_weights[k] - top)
    spacing = total / draws
    point = spacing * (rand_below(rng, 1 << 30) + 0.5) / (1 << 30)
    running, drawn, last = 0.0, 0, 0
    for k in range(m):
        weight = np.exp(log_weights[k] - top)
        running += weight
        counts[k] = 0
        if weight > 0:
            last = k
        while drawn < draws and point < running:
            counts[k] += 1
            drawn += 1
            point += spacing
    counts[last] += draws - drawn  # rounding in the running sum may leave the last point past its end


@nb.njit(cache=True, inline="always")
def heuristic_index(family, s, hparams, rng, actions):
    """The index in ``actions`` of the heuristic's choice at ``s`` (the heuristic agents do not draw
    from ``rng``)."""
    h = heuristic(family, s, hparams, rng)
    i = 0
    while actions[i] != h:
        i += 1
    return i


@nb.njit(cache=True)
def rollout_action(family, s, worlds, rollouts, limit, anchor, margin, hparams, rng, world, actions, n, totals, values,
                   trial, eps=0.0, candidates=1):
    """PIMC's choice among the legal actions ``actions[:n]`` of a decision before the card play
    (pick, bid, bury, call, trump, discard) for the seat to act at ``s``, from ``worlds`` sampled
    deals and ``rollout_values`` (``rollouts`` playouts each) in each. In each playout the other
    seats decide by the heuristic with their hands in that deal, so a strong sampled hand bids as it
    would at the table.

    * ``anchor = -1``: the action of the highest total, the first such in ``actions`` on a tie.
    * ``anchor = i``: the choice stays with ``actions[i]`` unless another action's mean gain over it
      (paired: both valued in the same deals) exceeds ``margin`` standard errors; then the best
      such. ``totals`` must then hold ``2 n``: the gains' squares go in its second half.

    With ``eps`` > 0 and ``candidates`` > 1 the deals are drawn from ``candidates * worlds`` sampled
    ones by their likelihood under the other seats' decisions so far (``inference.log_likelihood``,
    ``systematic``), as for the card play.

    ``limit`` (seconds, 0 for none) stops after the first world once spent; ``world``, ``totals``,
    ``values`` and ``trial`` are scratch."""
    seat = to_act(family, s)
    start = now() if limit > 0 else 0.0
    totals[:n] = 0.0
    squares = totals[n:2 * n]
    if anchor >= 0:
        squares[:] = 0.0
    m = candidates * worlds if eps > 0 and candidates > 1 else 0
    pool = np.empty((m, s.shape[0]), np.int64)  # the candidates: a decision's scratch, not a hot loop's
    counts = np.ones(max(m, worlds), np.int64)
    if m > 0:
        log_weights = np.empty(m)
        for k in range(m):
            sample(family, s, seat, rng, pool[k])
            log_weights[k] = log_likelihood(family, pool[k], seat, eps, hparams, rng, trial)
        systematic(log_weights, m, worlds, rng, counts)
    done = 0
    for k in range(max(m, worlds)):
        if counts[k] == 0:
            continue
        if m > 0:
            world[:] = pool[k]
        else:
            sample(family, s, seat, rng, world)
        rollout_values(family, world, seat, actions, n, rollouts, hparams, rng, values, trial)
        done += counts[k]
        for i in range(n):
            if anchor >= 0:
                gain = values[i] - values[anchor]
                totals[i] += counts[k] * gain
                squares[i] += counts[k] * gain * gain
            else:
                totals[i] += counts[k] * values[i]
        if limit > 0 and now() - start > limit:
            break
    if anchor >= 0:
        return actions[clear_gain(totals, squares, n, done, anchor, margin)]
    best = 0
    for i in range(1, n):
        if totals[i] > totals[best]:
            best = i
    return actions[best]


@nb.njit(cache=True, inline="always")
def clear_gain(totals, squares, n, done, anchor, margin):
    """The index of the action of the highest mean gain over ``anchor`` among those whose gain
    exceeds ``margin`` standard errors (``totals`` and ``squares``: the sums of the gains and of
    their squares over ``done`` deals); ``anchor`` if none does."""
    best, best_gain = anchor, 0.0
    for i in range(n):
        gain = totals[i] / done
        error = np.sqrt(max(0.0, squares[i] / done - gain * gain) / max(1, done - 1))
        if gain > margin * error and gain > best_gain:
            best, best_gain = i, gain
    return best


@nb.njit(cache=True)
def world_table(family, s, worlds, solve, rollouts, hparams, rng, ws, actions, out, eps, log_weights):
    """PIMC's values, world by world, of each legal action of the seat to act at ``s``: the actions
    into ``actions[:n]``, row ``w`` of ``out`` their values in sampled world ``w`` (``world_values``,
    solved from ``solve`` cards in hand on, else summed over ``rollouts`` playouts), and
    ``log_weights[w]`` its log likelihood under the other seats' play with ``eps``
    (``agents.inference``; 0 with ``eps`` 0). Returns ``(n, whether every
    world sampled was ``s`` itself)``: then the seat knows every card."""
    seat = to_act(family, s)
    n = legal_actions(family, s, actions)
    play = is_card_play(family, s)
    solving = play and popcount(hand(family, s, seat)) <= solve
    world = np.empty_like(s)
    replay = np.empty_like(s)
    every_card_known = True
    for w in range(worlds):
        sample(family, s, seat, rng, world)
        every_card_known = every_card_known and (world == s).all()
        log_weights[w] = log_likelihood(family, world, seat, eps, hparams, rng, replay) if eps > 0 else 0.0
        world_values(family, world, seat, actions, n, solving, rollouts, hparams, rng, out[w], ws)
    return n, every_card_known


@cache
def compiled_world_table(family: int):
    """``world_table`` compiled for ``family``'s constant, for Python callers."""
    state, matrix, i64 = types.int64[::1], types.int64[:, ::1], types.int64
    f64 = types.float64
    return world_table.compile((types.literal(family), state, i64, i64, i64, f64[::1], types.uint64[::1],
                                WORKSPACE, state, matrix, f64, f64[::1]))
