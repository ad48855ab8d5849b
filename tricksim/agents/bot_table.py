"""Tables with a bot of the user's own (``python:``, ``exec:``): the hands played one decision at a
time from Python.

Hand ``i`` is dealt from ``(seed, i)`` and the random and heuristic seats draw from the stream of
``(seed, i)``, as in the batch loops, and play in numba between the bots' decisions (``advance``);
a search seat (PIMC, ISMCTS, a network) is an ``agents.search.Searcher`` with a stream of its own.
Each bot gets a ``View`` of its seat; its answer is checked before it is played. A failed decision
stops the run with a ``BotError`` naming the bot, the hand, the decision, the legal actions and the
answer, or with ``:on_error=random`` is replaced by a random legal action and counted.
"""

from __future__ import annotations

import itertools
import json
import random
from functools import cache

import numba as nb
import numpy as np
from numba import literally, types

from ..errors import BotError, LabelError
from ..sim import actions as A
from ..sim.kernels import new_rng, seed_stream
from ..sim.state import State
from .bot_spec import TIMEOUT
from .exec_bot import Fault, exec_bot
from .bot_view import View
from .family import act, deal, hand, record, step, to_act
from .kinds import BOT, RANDOM, HEURISTIC
from .python_bot import make_python_agent

MAX_SEATS = 16
WINDOW = 256  # hands in progress at once with an exec: bot seated


@nb.njit(cache=True)
def advance(family, s, kinds, params, rng, steps):
    """Play the random and heuristic seats (``kinds``) of ``s`` until a seat of another kind is to
    act (returned) or the hand is over (-1); ``steps[0]`` counts the actions played."""
    literally(family)
    while True:
        seat = to_act(family, s)
        if seat < 0 or (kinds[seat] != RANDOM and kinds[seat] != HEURISTIC):
            return seat
        step(family, s, act(family, s, kinds[seat], params[seat], rng))
        steps[0] += 1


@nb.njit(cache=True)
def deal_hand(family, s, seed, number, players, options, rng, dealt):
    """Deal hand ``number`` of ``seed`` into ``s``; each seat's cards into ``dealt``."""
    literally(family)
    deal(family, s, seed, number, players, options, rng)
    for p in range(players):
        dealt[p] = hand(family, s, p)


@nb.njit(cache=True)
def record_hand(family, s, dealt, out, i):
    """Row ``i`` of ``out``: the finished hand ``s`` (its record and the heuristic's features)."""
    literally(family)
    record(family, s, dealt, out, i)


@cache
def compiled_kernels(family: int):
    """``advance``, ``deal_hand`` and ``record_hand`` compiled for ``family``'s constant."""
    lit, vec, i64, u64 = types.literal(family), types.int64[::1], types.int64, types.uint64[::1]
    table = types.int64[:, ::1]
    return (advance.compile((lit, vec, vec, types.float64[:, ::1], u64, vec)),
            deal_hand.compile((lit, vec, i64, i64, i64, vec, u64, vec)),
            record_hand.compile((lit, vec, vec, table, i64)))


class PythonSeat:
    """A seat of a Python agent (``agents.python_bot``)."""

    def __init__(self, agent):
        self.agent = agent
        self.start = getattr(agent, "start_hand", None)
        self.finish = getattr(agent, "end_hand", None)

    def act(self, view: View) -> int:
        try:
            answer = self.agent.act(view)
        except Exception as error:
            raise Fault(f"raised {type(error).__name__}: {error}") from error
        return action_id(answer, view, answer)

    def start_hand(self, view: View) -> None:
        if self.start is not None:
            self.start(view)

    def end_hand(self, view: View, scores: list[int]) -> None:
        if self.finish is not None:
            self.finish(view, scores)


class ExecSeat:
    """A seat of an ``exec:`` bot (``agents.exec_bot``): its requests and answers."""

    def __init__(self, bot):
        self.bot = bot

    def act(self, view: View) -> int:
        return self.answer(view, self.request(view))

    def request(self, view: View) -> int:
        """Ask for the action at ``view`` without waiting: the process that was asked."""
        self.bot.send({"type": "act", **view.to_dict()})
        return self.bot.starts

    def answer(self, view: View, asked: int) -> int:
        """The answer to the request at ``view`` that process ``asked`` got (answers come in order)."""
        if self.bot.starts != asked or self.bot.process is None:
            raise Fault("was ended before it answered (an earlier fault)")
        line = self.bot.answer()
        try:
            answer = json.loads(line)
        except ValueError:
            raise Fault("wrote something that is not JSON", line) from None
        if not isinstance(answer, dict) or "action" not in answer:
            raise Fault('answered no {"action": ...}', line)
        return action_id(answer["action"], view, line)

    def start_hand(self, view: View) -> None:
        self.bot.send({"type": "start", "game": view.game, "seat": view.seat, "hand_number": view.hand_number,
                       "dealer": view.dealer, "hand": view.hand})

    def end_hand(self, view: View, scores: list[int]) -> None:
        self.bot.send({"type": "end", "game": view.game, "seat": view.seat, "hand_number": view.hand_number,
                       "scores": scores, "tricks": view.info["tricks"], "totals": view.totals})


def action_id(answer, view: View, shown) -> int:
    """The legal action id of a bot's ``answer`` (a label or an id); Fault otherwise."""
    if isinstance(answer, str):
        try:
            a = A.parse_action(answer)
        except LabelError:
            raise Fault("answered an action that does not parse", shown) from None
    elif isinstance(answer, (int, np.integer)) and not isinstance(answer, bool):
        a = int(answer)
    else:
        raise Fault("answered no action (a label such as 'play QC', or an action id)", shown)
    if a not in view.legal_ids:
        raise Fault("answered an action that is not legal", shown)
    return a


def bot_seat(agent, seat: int):
    """The seat object of the bot ``agent`` (an ``Agent`` named python or exec) at ``seat``."""
    text = str(agent)
    if agent.name == "exec":
        return ExecSeat(exec_bot(agent.params["command"], float(agent.params.get("timeout", TIMEOUT))))
    return PythonSeat(_python_agent(text, seat, agent.params))


_python_agents: dict = {}


def _python_agent(text: str, seat: int, params: dict):
    """A ``python:`` agent of ``text`` for ``seat``: one object per spec and seat in a process (an
    object seated from the API is itself, every seat)."""
    key = (text, seat)
    if key not in _python_agents:
        given = {k: v for k, v in params.items() if k not in ("target", "on_error")}
        _python_agents[key] = make_python_agent(params["target"], given, text)
    return _python_agents[key]


class _Hand:
    """One hand in progress in ``BotTable._play_window``: row ``i``, the run's hand ``number``."""

    def __init__(self, i: int, number: int, size: int):
        self.i, self.number = i, number
        self.s, self.dealt = np.zeros(size, np.int64), np.zeros(MAX_SEATS, np.int64)
        self.rng, self.steps = new_rng(), np.zeros(1, np.int64)
        self.asked = None  # (view, the process asked, a fault met asking) while a bot's answer is awaited


class BotTable:
    """The seats of ``game`` (a Game) holding ``seated`` (``Agent``s; some of them bots), with
    ``kinds``/``params`` as ``seat_arrays`` gives them."""

    def __init__(self, game, seated, kinds, params, seed: int):
        self.game, self.family, self.seed = game, game.family, seed
        self.specs = [str(a) for a in seated]
        self.kinds = np.where((kinds == RANDOM) | (kinds == HEURISTIC), kinds, BOT).astype(np.int64)
        self.params = np.ascontiguousarray(params)
        self.bots = {p: bot_seat(a, p) for p, a in enumerate(seated) if a.name in ("python", "exec")}
        self.random_on_error = {p for p, a in enumerate(seated) if a.params.get("on_error") == "random"}
        self.searching = {p: str(a) for p, a in enumerate(seated) if p not in self.bots and self.kinds[p] == BOT}
        self._searchers = None  # made on first use

    def play(self, first: int, out: np.ndarray) -> np.ndarray:
        """Play hands ``first .. first + len(out) - 1`` into ``out``; the faults each replaced."""
        if any(isinstance(bot, ExecSeat) for bot in self.bots.values()):
            return self._play_window(first, out)
        game = self.game
        _, deal_into, record_into = compiled_kernels(self.family)
        s = np.zeros(game.kernels.STATE_SIZE, np.int64)
        dealt = np.zeros(MAX_SEATS, np.int64)
        deal_rng, rng = new_rng(), new_rng()
        faults = np.zeros(len(out), np.int64)
        for i in range(len(out)):
            number = first + i
            deal_into(self.family, s, self.seed, number, game.players, game.option_array, deal_rng, dealt)
            seed_stream(rng, self.seed, number, 1)
            for p, bot in self.bots.items():
                self._call(bot.start_hand, p, View(game, s, p, number), number)
            faults[i] = self.play_out(s, number, rng)
            record_into(self.family, s, dealt, out, i)
            scores = game.scores(s)
            for p, bot in self.bots.items():
                self._call(bot.end_hand, p, View(game, s, p, number), number, scores)
        return faults

    def _play_window(self, first: int, out: np.ndarray) -> np.ndarray:
        """``play`` with up to ``WINDOW`` hands in progress at once: each round asks the ``exec:``
        bots for every hand waiting on one, then reads their answers, so that a bot answers many
        requests each time it runs (one switch between the processes for many decisions). Each
        hand keeps its own state and streams: the rows are those of ``play``."""
        game = self.game
        advance, deal_into, record_into = compiled_kernels(self.family)
        faults = np.zeros(len(out), np.int64)
        size = game.kernels.STATE_SIZE
        to_start, hands = iter(range(len(out))), []
        while True:
            for i in itertools.islice(to_start, WINDOW - len(hands)):
                hand = _Hand(i, first + i, size)
                deal_into(self.family, hand.s, self.seed, hand.number, game.players, game.option_array,
                          hand.rng, hand.dealt)  # the deal's stream first, then the agents'
                seed_stream(hand.rng, self.seed, hand.number, 1)
                for p, bot in self.bots.items():
                    self._call(bot.start_hand, p, View(game, hand.s, p, hand.number), hand.number)
                hands.append(hand)
            if not hands:
                return faults
            asked = []
            for hand in hands:
                while True:
                    seat = advance(self.family, hand.s, self.kinds, self.params, hand.rng, hand.steps)
                    if seat < 0:
                        break
                    view = View(game, hand.s, seat, hand.number, int(hand.steps[0]) + 1)
                    bot = self.bots.get(seat)
                    if isinstance(bot, ExecSeat):
                        try:
                            hand.asked = (view, bot.request(view), None)
                        except Fault as fault:
                            hand.asked = (view, 0, fault)
                        asked.append(hand)
                        break
                    a, fault = self.act(hand.s, seat, hand.number, view.decision)
                    faults[hand.i] += fault
                    game.kernels.step(hand.s, a)
                    hand.steps[0] += 1
            for hand in asked:
                view, process, failed = hand.asked
                a, fault = self.decide(view.seat, view, lambda: self.bots[view.seat].answer(view, process), failed)
                faults[hand.i] += fault
                game.kernels.step(hand.s, a)
                hand.steps[0] += 1
            for hand in [h for h in hands if h not in asked]:
                record_into(self.family, hand.s, hand.dealt, out, hand.i)
                scores = game.scores(hand.s)
                for p, bot in self.bots.items():
                    self._call(bot.end_hand, p, View(game, hand.s, p, hand.number), hand.number, scores)
            hands = asked

    def play_out(self, s: np.ndarray, number: int, rng: np.ndarray, done: int = 0) -> int:
        """Play hand ``number``'s state ``s`` (``done`` actions in) to its end, the random and
        heuristic seats drawing from ``rng``; the faults replaced."""
        advance = compiled_kernels(self.family)[0]
        steps, faults = np.array([done], np.int64), 0
        while True:
            seat = advance(self.family, s, self.kinds, self.params, rng, steps)
            if seat < 0:
                return faults
            a, fault = self.act(s, seat, number, int(steps[0]) + 1)
            faults += fault
            self.game.kernels.step(s, a)
            steps[0] += 1

    def act(self, s: np.ndarray, seat: int, number: int, decision: int) -> tuple[int, int]:
        """The action of ``seat``'s bot or search agent at ``s``, and 1 for a fault replaced."""
        if seat in self.bots:
            return self.decide(seat, View(self.game, s, seat, number, decision))
        if self._searchers is None:
            from .search import Searcher
            from .seats import seat_seed

            self._searchers = {p: Searcher(self.game, text, seed=seat_seed(self.seed, p))
                               for p, text in self.searching.items()}
        return self._searchers[seat].act(State(self.game, s)), 0

    def decide(self, seat: int, view: View, answer=None, failed: Fault | None = None) -> tuple[int, int]:
        """The bot of ``seat``'s action at ``view`` (``answer()``'s, if given; ``failed``: the fault
        already met asking), and 1 if it failed and a random one replaced it."""
        try:
            if failed is not None:
                raise failed
            return (answer() if answer else self.bots[seat].act(view)), 0
        except Fault as fault:
            if seat not in self.random_on_error:
                raise self._error(seat, view, fault) from fault.__cause__
            return random.Random(f"{self.seed}/{view.hand_number}/{view.decision}").choice(view.legal_ids), 1

    def _call(self, hook, seat: int, view: View, number: int, *args) -> None:
        """A start or end of hand message; a bot that fails it fails as at a decision."""
        try:
            hook(view, *args)
        except Fault as fault:
            if seat not in self.random_on_error:
                raise self._error(seat, view, fault) from fault.__cause__
        except Exception as error:
            if seat not in self.random_on_error:
                raise self._error(seat, view, Fault(f"raised {type(error).__name__}: {error}")) from error

    def _error(self, seat: int, view: View, fault: Fault) -> BotError:
        what = f"decision {view.decision}" if view.decision else "the hand's start or end"
        answer = "" if fault.answer is None else f"; it answered {_short(fault.answer)}"
        legal = f"; legal: {', '.join(view.legal) or 'nothing'}" if view.decision else ""
        return BotError(f"bot {self.specs[seat]} (seat {seat}) {fault.what}: hand {view.hand_number}, {what}"
                        f"{legal}{answer}")


def _short(answer) -> str:
    text = repr(answer)
    return text if len(text) <= 200 else text[:197] + "..."
