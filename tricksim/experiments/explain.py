"""Why did the bot do this? Every legal action of a decision valued for the seat to act.

``explain(state, worlds=100)`` deals the unseen cards ``worlds`` times consistently with what the
seat knows (the search agents' sampler) and values each legal action in every world as PIMC does
(``agents.pimc.world_values``): from ``solve`` cards in hand on, exactly by the solver; before that
(picks, bids, buries, discards, early cards) by heuristic playouts. Each action gets its mean and a
95 % interval over the worlds. All actions are valued on the same worlds, so the cost of an action
(how much less it takes than the best) is a paired difference with an interval of its own.

With ``exact=True`` (or where the seat knows every card) each action also gets its exact value:
the solver on the true deal, every card visible (the double-dummy value), in the card play.

Each action also gets its *weighted* mean: the worlds weighed by the chance of the other seats'
decisions so far in each, their auction and their cards (``agents.inference``, the heuristic
softened by ``infer``; PIMC's ``infer``), in the card play with the weights tempered as PIMC's are
at its defaults (to at least half the worlds' worth: PIMC draws its worlds from twice as many
candidates). ``worlds_weighted`` is the weights' effective number of worlds (``(sum w)^2 / sum
w^2``). ``infer=0`` leaves the weighted means out, as does a decision where the play so far weighs
every world alike (the first bid).

>>> import tricksim
>>> state = tricksim.make_game("nesmear").new_hand(seed=4, dealer=0)
>>> e = explain(state, worlds=20, seed=1)
>>> e.seat, len(e.actions) == len(state.legal_actions()), e.best in state.legal_labels()
(1, True, True)
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np

from ..agents import SEARCH_PARAMS, agent_module
from ..agents.pimc import compiled_world_table, temper
from ..agents.search import compile_ahead
from ..agents.solver import MAX_MOVES, SCORE, compiled, workspace
from ..errors import IllegalActionError, OptionError
from ..sim import actions as A
from ..sim.kernels import new_rng, seed_stream

Z95 = 1.959964
INFER = 0.5  # the eps of the weighted means (agents.inference), the one PIMC's inference is measured with
_PIMC = {name: default for name, default, _ in SEARCH_PARAMS["pimc"]}
TEMPERED = _PIMC["ess"] / _PIMC["resample"]  # PIMC keeps ess x worlds' worth of resample x worlds candidates


@dataclass(frozen=True)
class ActionValue:
    """One legal action: its mean hand score for the seat over the worlds, with a 95 % interval;
    ``cost``, how much less it takes than the best action (a paired mean over the same worlds,
    with its interval); ``exact``, its double-dummy value (None where not asked or not the play)."""

    action: str
    mean: float
    low: float
    high: float
    cost: float
    cost_low: float
    cost_high: float
    exact: int | None = None
    weighted: float | None = None


@dataclass(frozen=True)
class Explanation:
    """The values of the legal actions of one decision (``explain``). ``taken``: the action the
    agent took, if given; ``best``: the action of highest mean."""

    game: str
    seat: int
    phase: str
    worlds: int
    every_card_known: bool
    actions: list[ActionValue]
    best: str
    taken: str | None = None
    notes: list[str] = field(default_factory=list)
    worlds_weighted: float | None = None

    def value(self, action: str) -> ActionValue:
        return next(a for a in self.actions if a.action == action)

    def to_dict(self) -> dict:
        return asdict(self)


def _interval(x: np.ndarray) -> tuple[float, float, float]:
    mean = float(x.mean())
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else math.inf
    return mean, mean - half, mean + half


class Valuer:
    """PIMC's world-by-world values of the decisions of one game (``table``), its solver's scratch
    kept from one decision to the next (the transposition table's entries hold wherever they were
    found, so the values do not depend on what was solved before)."""

    def __init__(self, game):
        self.game = game
        compile_ahead(game.family)  # on a cold cache the solver compiles on the other core meanwhile
        self.hparams = agent_module(game.name).DEFAULTS
        self.ws = workspace(game.kernels.STATE_SIZE, self.hparams)
        self.actions = np.zeros(MAX_MOVES, np.int64)

    def table(self, state, worlds: int, seed: int = 0, rollouts: int = 1, solve: int = 4, stream=(0, 3),
              infer: float = 0.0):
        """``(labels, values, every_card_known, log_weights)``: the legal actions of the seat to act
        and their values for it in each of ``worlds`` sampled worlds (a worlds x actions float array),
        the worlds drawn from the random stream ``(seed, *stream)``, and each world's log likelihood
        under the other seats' decisions so far (``agents.inference`` with eps ``infer``; zeros for 0)."""
        for name, value, low in (("worlds", worlds, 2), ("rollouts", rollouts, 1), ("solve", solve, 0)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
                raise OptionError(f"explain: {name} = {value!r}; a whole number >= {low}")
        if not 0 <= infer <= 1:
            raise OptionError(f"explain: infer = {infer!r}; an eps between 0 and 1")
        if state.is_terminal():
            raise OptionError("explain: the hand is over; there is no decision to explain")
        family = self.game.family
        rng = new_rng()
        seed_stream(rng, int(seed), *stream)
        out = np.zeros((worlds, MAX_MOVES), np.int64)
        s = np.ascontiguousarray(state.array, dtype=np.int64).copy()
        log_weights = np.zeros(worlds)
        n, known = compiled_world_table(family)(family, s, worlds, solve, rollouts, self.hparams, rng, self.ws,
                                                self.actions, out, float(infer), log_weights)
        values = out[:, :n].astype(float) / (1 if _solving(state, solve) else rollouts)
        return [A.action_label(int(a)) for a in self.actions[:n]], values, bool(known), log_weights


def explain(state, worlds: int = 100, seed: int = 0, rollouts: int = 1, solve: int = 4, exact: bool = False,
            taken: str | int | None = None, valuer: Valuer | None = None, infer: float = INFER) -> Explanation:
    """The value of each legal action of the seat to act at ``state`` (see the module).

    ``worlds``: deals sampled; ``seed``: their random stream; ``rollouts``: heuristic playouts per
    world and action before the solver takes over at ``solve`` cards in hand; ``exact``: also the
    double-dummy values; ``taken``: the action the agent took (a label or an id), to be marked;
    ``valuer``: one to reuse across decisions of the game; ``infer``: the eps of the weighted means
    (module docstring; 0: none). Raises OptionError for a finished hand, a bad count or eps,
    IllegalActionError for a ``taken`` that is not legal here.
    """
    taken_label = None
    if taken is not None and not state.is_terminal():
        taken_id = A.parse_action(taken) if isinstance(taken, str) else int(taken)
        if taken_id not in state.legal_actions():
            raise IllegalActionError(f"explain: {taken!r} is not legal here; legal: {', '.join(state.legal_labels())}")
        taken_label = A.action_label(taken_id)
    valuer = valuer or Valuer(state.game)
    labels, values, known, log_weights = valuer.table(state, worlds, seed, rollouts, solve, infer=infer)
    n = len(labels)
    weighted, effective = [None] * n, None
    if infer > 0 and np.ptp(log_weights) > 0:  # left out where the play so far weighs every world alike
        if state.phase == "play":
            temper(log_weights, worlds, TEMPERED * worlds)
        w = np.exp(log_weights - log_weights.max())
        w /= w.sum()
        weighted = [float(w @ values[:, i]) for i in range(n)]
        effective = float(1.0 / (w @ w))
    best = int(np.argmax(values.mean(axis=0)))
    exact_values, notes = [None] * n, []
    if exact or known:
        if state.phase == "play":
            exact_values = _double_dummy(state, valuer, n)
        else:
            notes.append("no exact values before the card play: the solver plays the cards only")
    out = []
    for i in range(n):
        mean, low, high = _interval(values[:, i])
        cost, cost_low, cost_high = _interval(values[:, best] - values[:, i])
        out.append(ActionValue(labels[i], mean, low, high, cost, cost_low, cost_high, exact_values[i], weighted[i]))
    return Explanation(state.game.name, int(state.current_player), state.phase, int(worlds), known, out,
                       labels[best], taken_label, notes, effective)


def _solving(state, solve: int) -> bool:
    return state.phase == "play" and len(state.hand(state.current_player)) <= solve


def _double_dummy(state, valuer: Valuer, n: int) -> list[int]:
    """The exact value of each of the ``n`` actions in ``valuer.actions`` with every card visible
    (the solver on the true deal)."""
    game = state.game
    values, found = np.zeros(MAX_MOVES, np.int64), np.zeros(MAX_MOVES, np.int64)
    s = np.ascontiguousarray(state.array, dtype=np.int64).copy()
    k = compiled(game.family).action_values(game.family, s, int(state.current_player), SCORE, valuer.ws, found, values)
    by_action = {int(found[i]): int(values[i]) for i in range(k)}
    return [by_action[int(a)] for a in valuer.actions[:n]]


def format_explanation(e: Explanation) -> str:
    """The explanation as a table for a person."""
    head = (f"{e.game}: seat {e.seat} to act in the {e.phase} phase; {e.worlds} worlds"
            + (" (every card known)" if e.every_card_known else ""))
    exact = any(a.exact is not None for a in e.actions)
    weighted = e.worlds_weighted is not None
    lines = [head, "", f"  {'action':<10} {'mean':>8}  {'95% interval':<18} {'cost':>7}  {'cost interval':<18}"
             + ("  exact" if exact else "") + (" weighted" if weighted else "")]
    for a in sorted(e.actions, key=lambda a: -a.mean):
        mark = ("*" if a.action == e.best else " ") + (">" if a.action == e.taken else " ")
        row = (f"{mark}{a.action:<10} {a.mean:+8.2f}  [{a.low:+7.2f}, {a.high:+7.2f}] {a.cost:7.2f}  "
               f"[{a.cost_low:+6.2f}, {a.cost_high:+6.2f}]")
        row += f"  {a.exact:+5d}" if a.exact is not None else ("       " if exact else "")
        lines.append(row + (f" {a.weighted:+8.2f}" if a.weighted is not None else ""))
    lines.append("")
    lines.append("* the best by mean" + ("; > the action taken" if e.taken else ""))
    if weighted:
        lines.append(f"weighted: the mean with each world weighed by the other seats' play so far "
                     f"(about {e.worlds_weighted:.1f} worlds' worth)")
    if e.taken is not None:
        t = e.value(e.taken)
        lines.append(f"taken: {e.taken}, the best by mean" if e.taken == e.best else
                     f"taken: {e.taken}, which costs {t.cost:.2f} [{t.cost_low:+.2f}, {t.cost_high:+.2f}] "
                     f"in mean hand score against {e.best}")
    lines += e.notes
    return "\n".join(line.rstrip() for line in lines)  # a blank last column leaves no trailing spaces
