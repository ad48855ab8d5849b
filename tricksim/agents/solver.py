"""The exact solver: the rest of a hand played perfectly with every card visible.

One alpha-beta search for every game, over the generic calls of ``agents.family`` (the game's own
``legal``, ``step`` and scoring, and its search hooks in ``agents.<game>_search``):

* **Sides.** The seats that score with the judged seat (``same_side``) maximise its value, every
  other seat minimises it. With two sides (Sheepshead once the picker's side is formed, NE Smear's
  two teams, Fifty-five with two teams) this is the exact minimax of the hand. Where more sides
  score apart (Fifty-five and Bluke, each player alone; Shmear's three teams; a leaster) it is the
  *paranoid* reduction: the judged side against all the others, who are taken to play against it.
  ``Solution.paranoid`` says which.
* **Objectives.** ``SCORE``: the hand's score of the judged seat (its team's), as the game scores it
  (Sheepshead's thresholds and schwarz, smear's High, Low, Jack, Jick, Joker and Game, a bid made or
  set). ``POINTS``: the tally its side takes from here on (``side_points``: Sheepshead card points,
  Fifty-five trick points, smear Game points, Bluke tricks). A *target* asks only whether the value
  reaches it (a null window: Sheepshead's "does the picker's side take 61?").
* **Bounds.** At a trick start the value can only move so far: the tally within ``points_bounds``,
  the score within ``score_bounds`` (it follows from the tallies: Sheepshead's from the picker's
  side's tricks and card points, the others' from each side's points or tricks and the bid). A
  position whose bounds settle the window is not searched: for the exact score, Sheepshead searches
  half the positions, Fifty-five a quarter, NE Smear a sixteenth.
* **Endgames.** A trick start the game solves by itself (``endgame``: Sheepshead's last three
  tricks, by a search that copies nothing) is not searched here; its value goes into the table as
  a searched node's would. Sheepshead's exact points then take half the time.
* **Transposition table.** Direct-mapped, keyed by ``score_key`` (``SCORE``) or ``play_key``
  (``POINTS``, whose remainders do not depend on the tricks already taken, so more positions meet)
  with the judged seat and the objective. Entries keep a lower and an upper bound and the best
  action; they hold for their position whatever deal it came from, so one table may serve many
  solves (PIMC's worlds).
* **Move order.** The table's action first, then the game's own order where it has one
  (``move_priority``: Sheepshead's cards as a player weighs them, the 61 question then searches a
  quarter of the positions), then the actions by history score: each cutoff adds a weight halving
  with its depth, so a move that refuted a large subtree near the root ranks above any number of
  deep cutoffs (measured on Sheepshead: about 15% fewer positions than counting cutoffs). The
  heuristic agent's action goes first at the root only: asked at every position it saved some
  positions but cost more than they did (measured: Sheepshead's exact points 1.2 times, NE
  Smear's 2 times as fast without it). A heuristic action merged away is simply not first.
* **Equivalent cards.** ``merge`` keeps one card of each run of cards adjacent in power in one
  hand with the same points and no rule of their own; the others cannot change the value.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numba as nb
import numpy as np
from numba import literally, types

from .._numba_split import compile_apart
from ..errors import OptionError
from ..sim import actions as A
from ..sim.kernels import NO_BOUND, RNG_SIZE, _as_pointer, bit, borrow, has, hash_mix, lowest_card
from ..spec import family_part
from .family import (endgame, heuristic, legal, merge, move_priority, play_key, playout, points_bounds, same_side,
                     score, score_bounds, score_key, side_points, step, to_act, trick_start)

SCORE, POINTS = 0, 1
OBJECTIVES = {"score": SCORE, "points": POINTS}
INF = NO_BOUND
MAX_DEPTH = 256  # actions left in a hand, at most (Fifty-five with nine players: under 60)
MAX_MOVES = 128
PRIORITY = MAX_DEPTH + 1  # the row of the move lists that holds the priorities being sorted
HISTORY_SHIFT = 30  # a cutoff at depth d adds 2**(HISTORY_SHIFT - d) (at least 1) to its move's score
TT_BITS = 18  # entries of the transposition table: 2**18, 8 MB
KEY, LOWER, UPPER, MOVE = range(4)
STATS, NODES = 5, 0  # the counts in a workspace, and the count of positions searched
# a search frame (one per depth): the window, the window as entered, the moves, the best so far
ALPHA, BETA, ALPHA0, BETA0, COUNT, NEXT, MAXIMISE, BEST, BEST_MOVE, BASE, KEY_OF, FRAME = range(12)


@nb.njit(cache=True)
def workspace(state_size, hparams, tt_bits=TT_BITS):
    """The solver's memory for one thread, as the tuple the kernels take: the state stack, move
    lists, search frames, history scores, the transposition table (``2**tt_bits`` entries: 0 for
    a workspace no search will use), counts, and the heuristic's parameters (float64) and random
    stream (its action is searched first)."""
    return (np.zeros((MAX_DEPTH + 1, state_size), np.int64), np.zeros((MAX_DEPTH + 2, MAX_MOVES), np.int64),
            np.zeros((MAX_DEPTH + 1, FRAME), np.int64), np.zeros(A.NUM_ACTIONS, np.int64),
            np.zeros((1 << tt_bits, 4), np.int64), np.zeros(4, np.int64), hparams.copy(),
            np.zeros(RNG_SIZE, np.uint64))


@nb.njit(cache=True, inline="always")
def _borrow_rows(a):
    """A view of the 2-d int64 array ``a`` without reference counting (``kernels.borrow``): the
    rows the search takes at every position then cost no atomic counts. Not to outlive ``a``."""
    return nb.carray(_as_pointer(a.ctypes.data), (a.shape[0], a.shape[1]), np.int64)


@nb.njit(cache=True, inline="always")
def _borrowed(ws):
    """The workspace with its int64 arrays borrowed, for the search's loop."""
    stack, moves, frames, history, tt, stats, hparams, rng = ws
    return (_borrow_rows(stack), _borrow_rows(moves), _borrow_rows(frames), borrow(history), _borrow_rows(tt),
            borrow(stats), hparams, rng)


@nb.njit(cache=True)
def clear(ws):
    """Forget every table entry, history score and count."""
    stack, moves, frames, history, tt, stats, hparams, rng = ws
    tt[:, KEY] = 0
    history[:] = 0
    stats[:] = 0


@nb.njit(cache=True, inline="always")
def _terminal(family, s, judge, objective):
    if objective == SCORE:
        return score(family, s, judge)
    return side_points(family, s, judge)


@nb.njit(cache=True, inline="always")
def _key(family, s, judge, objective):
    """The table key: the position, the judged seat and the objective (so one table serves any)."""
    k = score_key(family, s) if objective == SCORE else play_key(family, s)
    return hash_mix(k, judge * 2 + objective) | np.int64(1)  # 0 marks an empty entry


@nb.njit(cache=True, inline="always")
def write_actions(words, cards, kind, out):
    """Write the action ids of a ``legal`` triple (words, then cards of ``kind``) into ``out``,
    in increasing order; their count."""
    n = 0
    while words:
        a = lowest_card(words)
        words ^= bit(a)
        out[n] = a
        n += 1
    base = A.CARD_BASE + 54 * kind
    while cards:
        c = lowest_card(cards)
        cards ^= bit(c)
        out[n] = base + c
        n += 1
    return n


@nb.njit(cache=True, inline="always")
def list_moves(family, s, out):
    """Write the actions to search at ``s`` into ``out`` (equivalent cards merged); their count."""
    words, cards, kind = legal(family, s)
    return write_actions(words, merge(family, s, cards), kind, out)


@nb.njit(cache=True, inline="always")
def _order(family, s, moves, n, first, history, priority):
    """Sort ``moves[:n]``: ``first`` (the table's action) ahead, then by the game's priority where
    it has one (``move_priority``), then by history score."""
    for i in range(n):
        if moves[i] == first:
            moves[i], moves[0] = moves[0], moves[i]
            break
    start = 1 if n and moves[0] == first else 0
    if n - start < 2:
        return
    if not move_priority(family, s, moves, n, priority):
        priority[:n] = 0
    for i in range(start + 1, n):  # insertion sort: a handful of moves
        m = moves[i]
        p = priority[i]
        h = history[m]
        j = i - 1
        while j >= start and (priority[j] < p or (priority[j] == p and history[moves[j]] < h)):
            moves[j + 1] = moves[j]
            priority[j + 1] = priority[j]
            j -= 1
        moves[j + 1] = m
        priority[j + 1] = p


@nb.njit(cache=True, inline="always")
def _enter(family, s, depth, ws, judge, objective, alpha, beta):
    """Open the node ``s``: its value when it is settled at once (the hand is over, or the table
    knows enough), else None with its frame set up to search its moves."""
    stack, moves, frames, history, tt, stats, hparams, rng = ws
    frame = frames[depth]
    stats[NODES] += 1
    seat = to_act(family, s)
    if seat < 0:
        return True, _terminal(family, s, judge, objective)
    base = np.int64(0)
    key = np.int64(0)
    first = np.int64(-1)
    if trick_start(family, s):  # tallies move, and positions transpose, only between tricks
        if objective == POINTS:  # the tally can only move within known bounds
            base = side_points(family, s, judge)
            low, high = points_bounds(family, s, judge)
            if base + high <= alpha:
                return True, base + high
            if base + low >= beta:
                return True, base + low
        else:  # the score can only move within known bounds
            low, high = score_bounds(family, s, judge)
            if high <= alpha:
                return True, high
            if low >= beta:
                return True, low
        key = _key(family, s, judge, objective)
        slot = key & (tt.shape[0] - 1)
        if tt[slot, KEY] == key:
            lower = tt[slot, LOWER] + base
            upper = tt[slot, UPPER] + base
            if lower >= beta or lower == upper:
                return True, lower
            if upper <= alpha:
                return True, upper
            alpha = max(alpha, lower)
            beta = min(beta, upper)
            first = tt[slot, MOVE]
        settled, value = endgame(family, s, judge, objective == SCORE, alpha, beta)
        if settled:
            _store(tt, key, base, value, alpha, beta, first)
            return True, value
    own = moves[depth]
    n = list_moves(family, s, own)
    if n == 0:  # no rule leaves a seat to act without an action; a state that did would end here
        return True, _terminal(family, s, judge, objective)
    _order(family, s, own, n, first, history, moves[PRIORITY])
    maximise = same_side(family, s, seat, judge)
    frame[ALPHA], frame[BETA], frame[ALPHA0], frame[BETA0] = alpha, beta, alpha, beta
    frame[COUNT], frame[NEXT], frame[MAXIMISE] = n, 0, maximise
    frame[BEST] = -INF if maximise else INF
    frame[BEST_MOVE] = own[0]
    frame[BASE], frame[KEY_OF] = base, key
    return False, np.int64(0)


@nb.njit(cache=True, inline="always")
def _store(tt, key, base, best, alpha, beta, move):
    """Keep in the table what the value ``best`` found in the window ``(alpha, beta)`` says of the
    position ``key`` (exact inside the window, else a bound), with what the table knew."""
    slot = key & (tt.shape[0] - 1)
    lower = best if best > alpha else -INF
    upper = best if best < beta else INF
    if tt[slot, KEY] == key:  # tighten what the table knew
        lower = max(lower, tt[slot, LOWER] + base)
        upper = min(upper, tt[slot, UPPER] + base)
    tt[slot, KEY] = key
    tt[slot, LOWER] = lower - base if lower > -INF else -INF
    tt[slot, UPPER] = upper - base if upper < INF else INF
    tt[slot, MOVE] = move


@nb.njit(cache=True, inline="always")
def _close(frame, tt):
    """Store a searched node's result in the table; its value."""
    if frame[KEY_OF] != 0:  # a trick start: kept
        _store(tt, frame[KEY_OF], frame[BASE], frame[BEST], frame[ALPHA0], frame[BETA0], frame[BEST_MOVE])
    return frame[BEST]


@nb.njit(cache=True)
def search(family, ws, root, judge, objective, alpha, beta):
    """The value for ``judge`` of ``stack[root]`` within the window ``(alpha, beta)``: exact inside
    it, else a bound on the side it fails (fail-soft alpha-beta). Iterative, one frame a depth:
    numba cannot load a recursive function from its cache."""
    ws = _borrowed(ws)
    stack, moves, frames, history, tt, stats, hparams, rng = ws
    depth = root
    done, value = _enter(family, stack[depth], depth, ws, judge, objective, alpha, beta)
    while True:
        if done:  # hand the value to the parent, closing every node it finishes
            while True:
                if depth == root:
                    return value
                depth -= 1
                f = frames[depth]
                i = f[NEXT]
                move = moves[depth, i]
                f[NEXT] = i + 1
                if f[MAXIMISE]:
                    if value > f[BEST]:
                        f[BEST], f[BEST_MOVE] = value, move
                    f[ALPHA] = max(f[ALPHA], value)
                else:
                    if value < f[BEST]:
                        f[BEST], f[BEST_MOVE] = value, move
                    f[BETA] = min(f[BETA], value)
                if f[ALPHA] >= f[BETA]:
                    history[move] += np.int64(1) << max(0, HISTORY_SHIFT - depth)
                elif f[NEXT] < f[COUNT]:
                    break  # search the next move
                value = _close(f, tt)
        f = frames[depth]
        parent, child = stack[depth], stack[depth + 1]
        for k in range(parent.shape[0]):  # a loop: numba's slice assignment costs three times as much
            child[k] = parent[k]
        step(family, child, moves[depth, f[NEXT]])
        depth += 1
        done, value = _enter(family, child, depth, ws, judge, objective, f[ALPHA], f[BETA])


@nb.njit(cache=True)
def _root(family, s, judge, objective, alpha, beta, ws):
    """``(value, best action)`` of ``s`` for ``judge`` in the window ``(alpha, beta)``: the root's
    moves searched in turn, so the best one is known wherever the table stands."""
    stack, moves, frames, history, tt, stats, hparams, rng = ws
    seat = to_act(family, s)
    own = moves[0]
    n = list_moves(family, s, own)
    _order(family, s, own, n, heuristic(family, s, hparams, rng), history, moves[PRIORITY])
    maximise = same_side(family, s, seat, judge)
    best = -INF if maximise else INF
    best_move = own[0]
    for i in range(n):
        stack[1, :] = s
        step(family, stack[1], own[i])
        v = search(family, ws, 1, judge, objective, alpha, beta)
        if (v > best) if maximise else (v < best):
            best, best_move = v, own[i]
        if maximise:
            alpha = max(alpha, v)
        else:
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best, best_move


@nb.njit(cache=True)
def _exact(family, s, judge, objective, ws):
    """``(value, best action)`` of ``s`` (the hand not over) by MTD(f): null-window probes, each
    moving a bound to the value it returns, from a first guess (the heuristic agents' playout)
    until the bounds meet. Probes of one window cost far less than one search of a wide one.

    A probe that fails the way the last one did tests twice as far past its bound (card points
    creep up a few at a time: a dozen probes a Sheepshead deal), and once both bounds are known
    the probe bisects them; about 40% fewer probes, and fewer positions."""
    stack = ws[0]
    trial = stack[stack.shape[0] - 1]
    trial[:] = s
    playout(family, trial, ws[6], ws[7])
    g = _terminal(family, trial, judge, objective)
    maximise = same_side(family, s, to_act(family, s), judge)
    lower, upper = -INF, INF
    best_move = np.int64(-1)
    stride = np.int64(1)
    while lower < upper:
        if lower > -INF and upper < INF:
            beta = (lower + upper + 1) // 2
        elif g == lower:
            beta = g + stride
        else:
            beta = g - stride + 1
        beta = min(max(beta, lower + 1), upper)
        g, move = _root(family, s, judge, objective, beta - 1, beta, ws)
        if g < beta:
            upper = g
            if not maximise:
                best_move = move  # a move holding the value down to g
        else:
            lower = g
            if maximise:
                best_move = move  # a move reaching g
        stride *= 2
    return g, best_move


@nb.njit(cache=True)
def solve_root(family, s, judge, objective, target, ws):
    """``(value, best action)`` of ``s`` for ``judge`` (-1 once the hand is over). With ``target`` >= 0
    only whether the value reaches it is settled: the value is >= target exactly when it does, and
    the action is one that reaches it (if any does)."""
    literally(family)
    if to_act(family, s) < 0:
        return _terminal(family, s, judge, objective), np.int64(-1)
    if target >= 0:
        return _root(family, s, judge, objective, target - 1, target, ws)
    return _exact(family, s, judge, objective, ws)


@nb.njit(cache=True)
def action_values(family, s, judge, objective, ws, actions, values):
    """The exact value for ``judge`` of each legal action at ``s``: ``actions[:n]`` and
    ``values[:n]``; returns ``n``. An action merged away gets its equivalent's value."""
    literally(family)
    stack = ws[0]
    words, cards, kind = legal(family, s)
    kept = merge(family, s, cards)
    base = A.CARD_BASE + 54 * kind
    n = write_actions(words, cards, kind, actions)
    child = stack[stack.shape[0] - 2]
    for i in range(n):
        a = actions[i]
        c = a - base
        if a >= A.CARD_BASE and not has(kept, c):
            continue  # filled from its equivalent below
        child[:] = s
        step(family, child, a)
        if to_act(family, child) < 0:
            values[i] = _terminal(family, child, judge, objective)
        else:
            values[i] = _exact(family, child, judge, objective, ws)[0]
    # a card merged away takes the value of a card it is equivalent to, tested a pair at a time:
    # the pair test may fail where the run is longer (Bluke counts the seat's own cards between
    # them as live: 6 and 8 are not a pair beside a 7 held), so the run is filled link by link
    valued = kept
    filling = True
    while filling:
        filling = False
        for i in range(n):
            c = actions[i] - base
            if actions[i] < A.CARD_BASE or has(valued, c):
                continue
            for j in range(n):
                d = actions[j] - base
                pair = bit(c) | bit(d)
                if actions[j] >= A.CARD_BASE and has(valued, d) and merge(family, s, pair) != pair:
                    values[i] = values[j]
                    valued |= bit(c)
                    filling = True
                    break
    return n


@nb.njit(cache=True)
def principal_line(family, s, judge, objective, ws, line):
    """Play ``s`` out along best play for ``judge``'s side (and against it); write the actions
    into ``line``, return their count. ``s`` ends at the hand's end."""
    literally(family)
    n = 0
    while to_act(family, s) >= 0:
        value, a = _exact(family, s, judge, objective, ws)
        line[n] = a
        n += 1
        step(family, s, a)
    return n


@nb.njit(cache=True)
def count_sides(family, s, players):
    """How many sides score apart in ``s``."""
    literally(family)
    sides = 0
    for a in range(players):
        first = True
        for b in range(a):
            if same_side(family, s, a, b):
                first = False
                break
        if first:
            sides += 1
    return sides


@nb.njit(cache=True)
def sides_agree(family, s, a, b):
    """Whether seats ``a`` and ``b`` score together in ``s`` (the game's ``same_side``), for Python."""
    literally(family)
    return same_side(family, s, a, b)


# --- Python ----------------------------------------------------------------------------------

_I, _STATE, _STACK = types.int64, types.int64[::1], types.int64[:, ::1]
_VEC = types.int64[::1]
WORKSPACE = types.Tuple((_STACK, _STACK, _STACK, _VEC, _STACK, _VEC, types.float64[::1], types.uint64[::1]))


_HEURISTIC = (_STATE, types.float64[::1], types.uint64[::1])  # the heuristic agent's act


def compile_ahead(family: int, away=(), here=()) -> None:
    """On a cold cache, compile the game's endgame search (where it has one) and then ``away`` on
    the other core, while this process compiles the heuristic agent (which the solver's first
    guess plays) and ``here``; see ``tricksim._numba_split``. The endgame goes first so that the
    solver, compiled after it, finds the heuristic in the cache."""
    hooks = family_part(family, "search")
    first = [(hooks.endgame, (_STATE, _I, types.boolean, _I, _I))] if hasattr(hooks, "endgame") else []
    compile_apart(first + list(away), [(family_part(family, "agent").act, _HEURISTIC)] + list(here))


class Compiled:
    """The solver's kernels compiled for one family's constant (the first compile shared between two
    cores: Sheepshead's first ``solve()`` about 3 s sooner)."""

    def __init__(self, family: int):
        self.family = family
        compile_ahead(family)

    def _compile(self, kernel, *arg_types):
        return kernel.compile((types.literal(self.family),) + arg_types)

    @cached_property
    def solve_root(self):
        return self._compile(solve_root, _STATE, _I, _I, _I, WORKSPACE)

    @cached_property
    def action_values(self):
        return self._compile(action_values, _STATE, _I, _I, WORKSPACE, _VEC, _VEC)

    @cached_property
    def principal_line(self):
        return self._compile(principal_line, _STATE, _I, _I, WORKSPACE, _VEC)

    @cached_property
    def count_sides(self):
        return self._compile(count_sides, _STATE, _I)

    @cached_property
    def sides_agree(self):
        return self._compile(sides_agree, _STATE, _I, _I)


@cache
def compiled(family: int) -> Compiled:
    return Compiled(family)


@dataclass(frozen=True)
class Solution:
    """What ``solve`` found.

    ``value``: the judged seat's value (its hand score, its side's points, or with a target
    whether they reach it). ``best``: the best action's label at the root (None once over).
    ``scores``: every seat's hand score at the end of the principal line, the hand played best
    for the judged side and against it. ``line``: that line's action labels. ``paranoid``: True
    when more than two sides score apart, so the others were taken to play against the judged
    side. ``nodes``: positions searched.
    """

    seat: int
    objective: str
    value: int | bool
    best: str | None
    scores: list
    line: list
    paranoid: bool
    nodes: int


def solve(state, seat: int | None = None, objective: str = "score", target: int | None = None) -> Solution:
    """Play the rest of ``state``'s hand perfectly with every card visible.

    ``seat``: the seat judged (default: the seat to act). ``objective``: ``"score"`` (the hand's
    score) or ``"points"`` (the tally its side takes: card points, trick points, Game points,
    tricks). ``target``: ask only whether the value reaches it (much faster).

    >>> import tricksim
    >>> game = tricksim.make_game("sheepshead")
    >>> state = game.deal(hands=["QC QS QH QD JC JS", "JH JD AD TD KD 9D", "8D 7D AC TC KC 9C",
    ...                          "8C 7C AS TS KS 9S", "8S 7S AH TH KH 9H"], rest="8H 7H", dealer=0)
    >>> for action in ["pass", "pass", "pass", "pass", "pick", "bury 8H", "bury 7H", "alone"]:
    ...     state = state.apply(action)
    >>> solution = tricksim.solve(state, seat=0, objective="points")
    >>> solution.value, solution.paranoid  # the picker holds the six top trumps: all 120 points
    (120, False)
    >>> tricksim.solve(state, objective="points").value  # for seat 1, to lead: the defenders' points
    0
    """
    from . import agent_module

    if objective not in OBJECTIVES:
        raise OptionError(f"objective {objective!r}: choose one of {', '.join(OBJECTIVES)}")
    game = state.game
    players = game.players
    if seat is None:
        seat = state.current_player if state.current_player is not None else 0
    if not (isinstance(seat, (int, np.integer)) and 0 <= seat < players):
        raise OptionError(f"seat {seat!r}: the seats are 0..{players - 1}")
    if target is not None and not (isinstance(target, (int, np.integer)) and target >= 0):
        raise OptionError(f"target {target!r}: a whole number >= 0")
    family = game.family
    kernels = compiled(family)
    s = np.ascontiguousarray(state.array, dtype=np.int64).copy()
    ws = workspace(s.size, agent_module(game.name).DEFAULTS)
    obj = OBJECTIVES[objective]
    value, best = kernels.solve_root(family, s, seat, obj, -1 if target is None else int(target), ws)
    nodes = int(ws[STATS][NODES])
    walk, labels = state.clone(), []
    line = np.zeros(MAX_DEPTH, dtype=np.int64)
    if best >= 0:  # the line starts with the best action found, then plays on
        labels.append(walk.action_label(int(best)))
        walk.apply(int(best))
        n = kernels.principal_line(family, walk.array.copy(), seat, obj, ws, line)
        for a in line[:n]:
            labels.append(walk.action_label(int(a)))
            walk.apply(int(a))
    return Solution(
        seat=int(seat),
        objective=objective,
        value=bool(value >= target) if target is not None else int(value),
        best=None if best < 0 else state.action_label(int(best)),
        scores=[int(x) for x in walk.scores()],
        line=labels,
        paranoid=bool(kernels.count_sides(family, s, players) > 2),
        nodes=nodes,
    )
