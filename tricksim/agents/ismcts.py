"""Single-observer Information Set MCTS (Cowling, Powley and Whitehouse, 2012).

One tree over the deciding seat's information: every iteration samples a new deal consistent with
what the seat knows (the game's ``sample``), walks the tree using only the actions legal in that
deal, adds one node, plays the rest out with the heuristic agent and backs up every seat's score.

* **Selection.** UCB1 with availability counts: a child's exploration term counts the visits of
  its parent in which it was legal, not all of them (an opponent's card is playable only in the
  deals that gave it to him). Each node is scored for the seat that chose its action, so every
  seat plays for itself. Scores are scaled by the range seen so far, so one ``c`` serves every
  game's scale.
* **Budget.** ``iters`` iterations, or ``time`` seconds (0 for none; not reproducible).
* **Choice.** The root's most visited action.

The tree covers the card play only. A decision before it (pick, bid, bury, call, trump, discard)
is made from PIMC's playouts (``pimc.rollout_action``): each action's mean score over heuristic
playouts in sampled deals, ``iters`` playouts in all, the other seats bidding by the heuristic with
their sampled hands; the heuristic's own choice stands unless another action gains ``MARGIN``
standard errors over it in the same deals. (In the tree those seats' bids were nodes chosen by UCB
whatever their hands, so the search met opponents who passed strong hands and bid too boldly
itself; the anchor because the sampled deals ignore the bids made so far.) ``bidding = 0`` leaves
those decisions to the heuristic agent, as in PIMC.

``infer = eps`` (> 0): in the card play each iteration's world is one of ``RESAMPLE`` sampled
worlds, drawn in proportion to their likelihood under the other seats' play so far (the heuristic
softened by ``eps``, ``agents.inference``): sampling importance resampling. 0 (the default): the
world as sampled.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..sim.kernels import rand_below
from . import SEARCH_PARAMS
from .family import heuristic, sample, score, step, to_act
from .inference import log_likelihood
from .pimc import heuristic_index, is_card_play, legal_actions, now, playout, rollout_action

PARAMS = SEARCH_PARAMS["ismcts"]
DEFAULTS = np.array([default for _, default, _ in PARAMS], dtype=np.float64)
ITERS, TIME, C, BIDDING, INFER = range(len(PARAMS))
MAX_NODES = 1 << 17  # a budget in time stops here
MARGIN = 2.0  # standard errors of gain over the heuristic's choice before the card play
RESAMPLE = 4  # worlds sampled per iteration with inference, one kept by weight

# node fields (int64): the action that led to it, the seat that chose it, first child, next sibling,
# visits, availability; its total score (float64) is apart
ACTION, PLAYER, CHILD, SIBLING, VISITS, AVAIL = range(6)


@nb.njit(cache=True, inline="always")
def resample(family, s, seat, eps, hparams, rng, world, candidate, replay):
    """Write into ``world`` one of ``RESAMPLE`` worlds sampled for ``seat`` at ``s`` (in the card
    play), drawn in proportion to their likelihood (``inference.log_likelihood``): each new one
    replaces the kept one with the chance of its share of the weight so far."""
    total = -np.inf  # the log of the weights' sum so far
    for k in range(RESAMPLE):
        sample(family, s, seat, rng, candidate)
        w = log_likelihood(family, candidate, seat, eps, hparams, rng, replay)
        top = max(total, w)
        total = top + np.log(np.exp(total - top) + np.exp(w - top))
        if k == 0 or (rand_below(rng, 1 << 30) + 0.5) / (1 << 30) < np.exp(w - total):
            world[:] = candidate


@nb.njit(cache=True)
def early_action(family, s, n, iters, limit, hparams, rng, world, actions, totals):
    """The seat's choice among ``actions[:n]``, a decision before the card play, by PIMC's
    playouts (``pimc.rollout_action``), ``iters`` in all over sampled deals, anchored at the
    heuristic's choice: another action only on a gain of ``MARGIN`` standard errors. Not by the
    tree: there the other seats' bids would be nodes chosen by UCB blind to their sampled hands, so
    the search would meet opponents who never bid a strong hand and overrate its own bids. The
    anchor because the sampled deals ignore the bids made so far (a partner's bid says he is
    strong): unanchored, the playouts overcalled partners (Fifty-five in teams: -3.5 a deal)."""
    anchor = heuristic_index(family, s, hparams, rng, actions)
    worlds = max(1, iters // n)
    values = np.empty(n, np.int64)  # once a decision, before thousands of playouts
    trial = np.empty_like(s)
    return rollout_action(family, s, worlds, 1, limit, anchor, MARGIN, hparams, rng, world, actions, n, totals, values,
                          trial)


@nb.njit(cache=True)
def act(family, s, params, hparams, rng, world, actions, nodes, totals, path):
    """ISMCTS's action for the seat to act at ``s`` (``nodes``: MAX_NODES x 6 int64, ``totals``:
    MAX_NODES float64, ``path``: int64 scratch as long as a hand)."""
    seat = to_act(family, s)
    n = legal_actions(family, s, actions)
    if n == 1:
        return actions[0]
    iters = np.int64(params[ITERS])
    limit = params[TIME]
    if not is_card_play(family, s):
        if params[BIDDING] == 0:
            return heuristic(family, s, hparams, rng)
        return early_action(family, s, n, iters, limit, hparams, rng, world, actions, totals)
    if limit > 0:
        iters = nodes.shape[0] - 1
    iters = min(iters, nodes.shape[0] - 1)
    start = now() if limit > 0 else 0.0
    c = params[C]
    used = 1
    nodes[0, CHILD] = -1
    nodes[0, VISITS] = 0
    low, high = np.inf, -np.inf
    eps = params[INFER] if is_card_play(family, s) else 0.0
    candidate = np.empty_like(s) if eps > 0 else world  # the inference's scratch
    replay = np.empty_like(s) if eps > 0 else world
    for _ in range(iters):
        if eps > 0:
            resample(family, s, seat, eps, hparams, rng, world, candidate, replay)
        else:
            sample(family, s, seat, rng, world)
        node = 0
        depth = 0
        path[0] = 0
        expanded = False
        while to_act(family, world) >= 0 and not expanded:
            mover = to_act(family, world)
            m = legal_actions(family, world, actions)
            # an action legal here without a child: expand one of them at random
            untried = 0
            for i in range(m):
                child = nodes[node, CHILD]
                while child >= 0 and nodes[child, ACTION] != actions[i]:
                    child = nodes[child, SIBLING]
                if child < 0:
                    actions[untried], actions[i] = actions[i], actions[untried]
                    untried += 1
            if untried > 0 and used < nodes.shape[0]:
                a = actions[rand_below(rng, untried)]
                new = used
                used += 1
                nodes[new, ACTION] = a
                nodes[new, PLAYER] = mover
                nodes[new, CHILD] = -1
                nodes[new, SIBLING] = nodes[node, CHILD]
                nodes[new, VISITS] = 0
                nodes[new, AVAIL] = 0
                totals[new] = 0.0
                nodes[node, CHILD] = new
                step(family, world, a)
                node = new
                depth += 1
                path[depth] = node
                expanded = True
                break
            if untried > 0:  # the tree is full: play on below this node
                break
            # every legal action has a child: UCB among them
            scale = c * (high - low if high > low else 1.0)
            best, best_value = -1, -np.inf
            for i in range(m):
                child = nodes[node, CHILD]
                while nodes[child, ACTION] != actions[i]:
                    child = nodes[child, SIBLING]
                nodes[child, AVAIL] += 1
                v = nodes[child, VISITS]
                if v == 0:
                    value = np.inf
                else:
                    value = totals[child] / v + scale * np.sqrt(np.log(nodes[child, AVAIL]) / v)
                if value > best_value:
                    best, best_value = child, value
            step(family, world, nodes[best, ACTION])
            node = best
            depth += 1
            path[depth] = node
        playout(family, world, hparams, rng)
        for d in range(depth + 1):
            k = path[d]
            nodes[k, VISITS] += 1
            if d > 0:
                r = score(family, world, nodes[k, PLAYER])
                totals[k] += r
                low = min(low, r)
                high = max(high, r)
        if limit > 0 and now() - start > limit:
            break
    best, most = -1, -1
    child = nodes[0, CHILD]
    while child >= 0:
        if nodes[child, VISITS] > most:
            best, most = nodes[child, ACTION], nodes[child, VISITS]
        child = nodes[child, SIBLING]
    return best
