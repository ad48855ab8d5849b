"""Hand records: a played or simulated hand written as JSON (the machine form) and as text (for
people), rebuilt exactly with ``game.deal`` and its action list, and shown trick by
trick by ``tricksim replay``.

>>> import tricksim
>>> state = tricksim.make_game("nesmear").new_hand(seed=3, dealer=0)
>>> record = HandRecord.start(state, seed=3, hand=0)     # the deal, before any action
>>> while not state.is_terminal():
...     _ = state.apply(state.legal_actions()[0])
>>> record = record.with_play(state)                     # the actions, tricks and scores
>>> rebuild(record).scores() == state.scores()
True

A record's JSON form (``write_json``, ``read_record``)::

    {"format": "tricksim hand record", "version": 1,
     "game": "sheepshead", "options": {every option of the game},
     "deal": {"hands": ["7C 8C QC ...", ...], "rest": "AH 8H", "dealer": 4, "doubled": false},
     "actions": ["pass", "pick", "bury 9D", ...],
     "tricks": [[1, ["QC", "7D", "AD", "8D", "TD"], 3], ...], "scores": [2, 1, -1, -1, -1],
     "result": {the State.result() row},
     "seed": 7, "hand": 3, "agents": ["heuristic", ...], "source": "tricksim play"}

``deal`` is exactly ``game.deal``'s keyword arguments: the hands as dealt in seat order and
``rest`` in the order the rules use it (Sheepshead the blind; Fifty-five the kitty, then the stock;
Shmear the stock in drawing order; Bluke the turned card first; NE Smear the undealt cards, the
widow first), and for Sheepshead whether the hand is a doubler play-off. ``tricks``, ``scores``
and ``result`` are checked against the rebuilt hand. ``seed``, ``hand``, ``agents`` (one per
seat) and ``source`` say where the hand came from, when known. A file holds one record, or a
JSON list of them (the hands of a match).

Decisions:

* The deal is read from the state before its first action (``HandRecord.start``): the hands
  change during play. Cards whose order no rule reads (the blind, the kitty, Bluke's undealt
  cards, Fifty-five's stock without an exchange) are listed in card order.
* Bluke: ``game.deal`` takes the hand size from the hands, so the deal of any match hand
  rebuilds. The match hand number is kept only as provenance (``hand``: for ``simulate``, hand
  ``i`` deals match hand ``i % 25``); the rebuilt state numbers the hand as on the way down
  (``M - size``), a slot no rule reads.
* A record names every option of its game, so that a change of a default cannot change it.
* ``simulated_record`` re-plays hand ``i`` of ``simulate`` one step at a time, for random and
  heuristic agents and policy networks (``net:``, which draw nothing random) only. A PIMC or
  ISMCTS seat is refused: the batch loop shares one random stream between the seats and hands
  its search the seat's heuristic parameters, which the per-state ``agents.search.Searcher``
  (its own stream, the default parameters) does not repeat.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .cards import CardSet, format_cards
from .display import (
    format_decision,
    format_hand,
    format_result,
    format_scores,
    format_trick,
    seat_names,
    team_name,
    teams_line,
)
from .errors import OptionError, RecordError
from .sim import actions as A
from .sim.game import hand_options
from .sim.state import State
from .spec import make_game, names, spec

FORMAT = "tricksim hand record"
VERSION = 1
_PROVENANCE = ("seed", "hand", "agents", "source")
_FIELDS = ("format", "version", "game", "options", "deal", "actions", "tricks", "scores", "result") + _PROVENANCE
_REQUIRED = ("game", "options", "deal", "actions", "tricks", "scores")


@dataclass
class HandRecord:
    """One hand: its game and options, the deal (``game.deal``'s keyword arguments), the actions
    as labels, and the tricks, scores and result they led to; ``seed``, ``hand``, ``agents`` and
    ``source`` when known."""

    game: str
    options: dict
    deal: dict
    actions: list[str] = field(default_factory=list)
    tricks: list = field(default_factory=list)  # [leader, [card labels in play order], winner] per trick
    scores: list[int] = field(default_factory=list)
    result: dict | None = None
    seed: int | None = None
    hand: int | None = None
    agents: list[str] | None = None
    source: str | None = None

    @classmethod
    def start(cls, state: State, *, seed: int | None = None, hand: int | None = None, agents=None,
              source: str | None = None) -> "HandRecord":
        """The record of ``state``'s deal, taken before its first action; ValueError after it."""
        if state.history:
            raise RecordError("a record's deal is taken before the first action; this state has "
                              f"{len(state.history)} actions")
        game = state.game
        deal = {"hands": [str(game.hand(state.array, p)) for p in range(game.players)],
                "rest": format_cards(game.rest(state.array)),
                "dealer": int(state.array[game.kernels.DEALER]), **game.deal_flags(state.array)}
        record = cls(game.name, _json(game.options), deal, seed=seed, hand=hand,
                     agents=None if agents is None else [str(a) for a in agents], source=source)
        return record.with_play(state)

    def with_play(self, state: State) -> "HandRecord":
        """This record with ``state``'s actions (its ``history``, from the deal on), tricks,
        scores and result: ``state`` is the recorded deal played on."""
        if state.game.name != self.game:
            raise RecordError(f"a {state.game.name} state does not continue a {self.game} record")
        return HandRecord(self.game, self.options, self.deal, [A.action_label(a) for a in state.history],
                          _json(state.tricks()), state.scores(), _json(state.result()), self.seed, self.hand,
                          self.agents, self.source)

    def to_dict(self) -> dict:
        data = {"format": FORMAT, "version": VERSION, "game": self.game, "options": self.options,
                "deal": self.deal, "actions": self.actions, "tricks": self.tricks, "scores": self.scores,
                "result": self.result}
        data.update({key: getattr(self, key) for key in _PROVENANCE if getattr(self, key) is not None})
        return data

    @classmethod
    def from_dict(cls, data: Any) -> "HandRecord":
        """The record of a parsed JSON object; RecordError naming what is missing or malformed."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not a tricksim hand record (it has no \"format\": \"{FORMAT}\")")
        if data.get("version") != VERSION:
            raise RecordError(f"record version {data.get('version')!r} is not supported; this tricksim reads "
                              f"version {VERSION}")
        for key in _REQUIRED:
            if key not in data:
                raise RecordError(f"the record has no {key!r} field")
        _check(isinstance(data["game"], str), "'game' must be a game's name")
        _check_game(data["game"])  # first: which fields the deal has depends on the game
        unknown = sorted(set(data) - set(_FIELDS))
        if unknown:
            raise RecordError(f"the record has an unknown field {unknown[0]!r}")
        _check(isinstance(data["options"], dict), "'options' must be an object of option: value")
        _check_deal(data["game"], data["deal"])
        _check(_is_list(data["actions"], str), "'actions' must be a list of action labels")
        _check(isinstance(data["tricks"], list) and all(_is_trick(t) for t in data["tricks"]),
               "'tricks' must be a list of [leader, [cards], winner]")
        _check(_is_list(data["scores"], int), "'scores' must be a list of whole numbers")
        _check(data.get("result") is None or isinstance(data["result"], dict), "'result' must be an object")
        for key in ("seed", "hand"):
            _check(data.get(key) is None or _is_int(data[key]), f"{key!r} must be a whole number")
        _check(data.get("agents") is None or _is_list(data["agents"], str), "'agents' must be a list of agents")
        _check(data.get("source") is None or isinstance(data["source"], str), "'source' must be text")
        return cls(**{key: data.get(key) for key in _FIELDS[2:]})

    def make_game(self):
        """The record's game with its options; RecordError for an unknown game or option, or one
        the record leaves out."""
        _check_game(self.game)
        try:
            game = make_game(self.game, **self.options)
        except OptionError as error:
            raise RecordError(f"{error}") from None
        missing = sorted(set(hand_options(game.OPTIONS)) - set(self.options))  # a match-only option may be absent
        if missing:
            raise RecordError(f"options: {missing[0]!r} is missing; a record names every option of its game")
        return game


# --- rebuilding --------------------------------------------------------------------------


def rebuild(record: HandRecord) -> State:
    """The record's hand: ``game.deal`` of its deal, then every action in order. Checks that the
    tricks, scores and result come out as recorded; RecordError naming the problem otherwise."""
    return _replay(record)[0]


def _replay(record: HandRecord) -> tuple[State, list[int]]:
    """The rebuilt state and the seat that took each action."""
    game = record.make_game()
    try:
        state = game.deal(**record.deal)
    except (ValueError, TypeError) as error:
        raise RecordError(f"the deal: {error}") from None
    actors = []
    for number, label in enumerate(record.actions, 1):
        actors.append(state.current_player)
        try:
            state.apply(label)
        except ValueError as error:
            raise RecordError(f"action {number} ({label!r}): {error}") from None
    problem = _difference(record, state)
    if problem:
        raise RecordError(problem)
    return state, actors


def decisions(record: HandRecord) -> list[tuple[State, str]]:
    """Each decision of the record's hand in order, numbered from 1 as ``replay`` shows them: the
    state just before it (its own copy) and the action taken. RecordError as ``rebuild``."""
    rebuild(record)  # checked whole first: a damaged record says so before any decision is shown
    state = record.make_game().deal(**record.deal)
    out = []
    for label in record.actions:
        out.append((state.clone(), label))
        state.apply(label)
    return out


def _difference(record: HandRecord, state: State) -> str | None:
    """The first place where the record's tricks, scores or result differ from the rebuilt
    hand's, or that its actions stop before the hand the record describes is over; None if
    they agree."""
    tricks, result = _json(state.tricks()), _json(state.result())
    problem = (_trick_difference(record.tricks, tricks)
               or _list_difference(record.scores, state.scores(), "scores", lambda p: f"seat {p}'s score")
               or (None if record.result is None else _result_difference(state.game, record.result, result)))
    if problem and not state.is_terminal() and record.tricks[:len(tricks)] == tricks:
        return (f"the actions stop after {len(record.actions)} of the hand's decisions; the hand is not over: "
                f"seat {state.current_player} is to act")
    return problem


def _differs(what: str, recorded, rebuilt) -> str:
    return f"{what} differs: the record says {_text(recorded)}, the rules give {_text(rebuilt)}"


def _trick_difference(recorded: list, rebuilt: list) -> str | None:
    for number, ((leader, cards, winner), (leader_, cards_, winner_)) in enumerate(zip(recorded, rebuilt), 1):
        if leader != leader_:
            return _differs(f"trick {number}", f"leader {leader}", f"leader {leader_}")
        for k, (card, card_) in enumerate(zip(cards, cards_), 1):
            if card != card_:
                return _differs(f"trick {number}, card {k}", card, card_)
        if len(cards) != len(cards_):
            return _differs(f"trick {number}", f"{len(cards)} cards", f"{len(cards_)}")
        if winner != winner_:
            return _differs(f"trick {number}", f"winner {winner}", f"winner {winner_}")
    if len(recorded) != len(rebuilt):
        return _differs("the number of tricks", len(recorded), len(rebuilt))
    return None


def _list_difference(recorded: list, rebuilt: list, name: str, entry) -> str | None:
    """The first entry where two lists (``name``) differ, named by ``entry(index)``."""
    for i, (value, value_) in enumerate(zip(recorded, rebuilt)):
        if value != value_:
            return _differs(entry(i), value, value_)
    if len(recorded) != len(rebuilt):
        return _differs(f"the number of {name}", len(recorded), len(rebuilt))
    return None


def _result_difference(game, recorded: dict, rebuilt: dict) -> str | None:
    for key, value in rebuilt.items():
        if key not in recorded:
            return f"the result has no {key!r}; the rules give {_text(value)}"
        if recorded[key] == value:
            continue
        if isinstance(value, list) and isinstance(recorded[key], list):
            whose = (lambda k: team_name(game, k)) if key == "game_points" else (lambda p: f"seat {p}")
            return _list_difference(recorded[key], value, f"the result's {key}",
                                    lambda i: f"the result's {key} of {whose(i)}")
        return _differs(f"the result's {key}", recorded[key], value)
    extra = sorted(set(recorded) - set(rebuilt))
    return f"the result has an unknown entry {extra[0]!r}" if extra else None


# --- files ---------------------------------------------------------------------------------


def write_json(records, path) -> Path:
    """Write one record, or a list of them, to ``path`` as JSON (replacing the file at once)."""
    data = records.to_dict() if isinstance(records, HandRecord) else [r.to_dict() for r in records]
    return _write(path, json.dumps(data, indent=1) + "\n")


def read_records(path) -> list[HandRecord]:
    """The records in the JSON file ``path`` (one record or a list), each rebuilt and checked.

    RecordError (a ValueError) names the file and the problem; OSError when it cannot be read."""
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path}: not a JSON hand record ({error})") from None
    items = data if isinstance(data, list) else [data]
    if not items:
        raise RecordError(f"{path}: holds an empty list, no hand record")
    records = []
    for i, item in enumerate(items):
        where = f"{path}" if not isinstance(data, list) else f"{path}, record {i + 1}"
        try:
            record = HandRecord.from_dict(item)
            rebuild(record)
        except RecordError as error:
            raise RecordError(f"{where}: {error}") from None
        records.append(record)
    return records


def read_record(path) -> HandRecord:
    """The one record in the JSON file ``path`` (see ``read_records``)."""
    records = read_records(path)
    if len(records) != 1:
        raise RecordError(f"{path}: holds {len(records)} records; read them with read_records")
    return records[0]


def write_text(records, path) -> Path:
    """Write the text form of one record, or of a list of them, to ``path``."""
    records = [records] if isinstance(records, HandRecord) else list(records)
    return _write(path, "\n".join(format_record(r) for r in records))


def _write(path, text: str) -> Path:
    """Write ``text`` beside ``path`` first, then put it in place: a failure leaves ``path`` as it was."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return path


# --- the text form -------------------------------------------------------------------------


def format_record(record: HandRecord, names: list[str] | None = None) -> str:
    """The hand for people: the header, every hand as dealt (trumps first), each decision and
    trick in order with who played what, and the scores."""
    state, actors = _replay(record)
    game = state.game
    names = names or seat_names(game.players)
    lines = [_header(record, game, names)]
    lines += format_deal(record, game, names)
    lines.append("play:")
    lines += ["  " + line for line in _events(record, state, actors, names)]
    if state.is_terminal():
        lines.append(f"result: {format_result(game, state.result(), names) or '-'}")
        lines.append(f"scores: {format_scores(state.scores(), names)}")
    else:
        lines.append(f"in progress: {names[state.current_player]} to act")
    return "\n".join(lines) + "\n"


def _header(record: HandRecord, game, names: list[str]) -> str:
    changed = [f"{k}={_option_text(v)}" for k, v in record.options.items()
               if k in game.OPTIONS and _json(game.OPTIONS[k].default) != v]
    parts = [f"{game.name} hand", f"options: {' '.join(changed) if changed else 'defaults'}",
             f"dealer: {names[record.deal['dealer']]}"]
    if record.deal.get("doubled"):
        parts.append("doubled (a doubler play-off)")
    if record.seed is not None:
        parts.append(f"seed {record.seed}" + (f", hand {record.hand}" if record.hand is not None else ""))
    if record.agents:
        agents = record.agents
        parts.append("agents: " + (agents[0] if len(set(agents)) == 1 else ", ".join(agents)))
    if record.source:
        parts.append(f"from {record.source}")
    lines = ["; ".join(parts)]
    teams = teams_line(game)
    return "\n".join(lines + ([teams] if teams else []))


def format_deal(record: HandRecord, game, names: list[str], trump: str | None = None) -> list[str]:
    """Every seat's hand as dealt, trumps first (``trump``: default the hand's trump once known),
    and the rest of the deal by the names the rules give its parts."""
    if trump is None and record.result:
        trump = record.result.get("trump")
    width = max(len(n) for n in names)
    lines = ["hands as dealt:"]
    for name, cards in zip(names, record.deal["hands"]):
        lines.append(f"  {name + ':':<{width + 1}} {format_hand(game, cards, trump)}")
    for part, cards in game.rest_parts(record.deal["rest"].split()):
        shown = " ".join(cards) if part.startswith("stock") else format_hand(game, cards, trump)
        lines.append(f"  {part}: {shown}")
    return lines


def _events(record: HandRecord, state: State, actors: list[int], names: list[str]) -> list[str]:
    """The decisions and the finished tricks in the order they happened."""
    tricks = state.tricks()
    out, played, done = [], 0, 0
    for seat, label in zip(actors, record.actions):
        if label.startswith("play "):
            played += 1
            if done < len(tricks) and played == len(tricks[done][1]):
                leader, cards, winner = tricks[done]
                out.append(format_trick(done + 1, leader, cards, winner, names))
                done, played = done + 1, 0
        else:
            out.append(format_decision(names[seat], label))
    if played:
        current = state.observe(0)["current_trick"]
        leader = (state.current_player - len(current)) % state.game.players
        out.append(format_trick(done + 1, leader, current, None, names) + " (unfinished)")
    return out


# --- simulated hands -------------------------------------------------------------------------


def simulated_record(game, seed: int, hand: int, agents="heuristic", **options) -> HandRecord:
    """The record of hand ``hand`` of ``tricksim.simulate(game, hands=…, seed=seed, agents=agents)``:
    dealt from ``(seed, hand)`` with dealer ``hand % players``, the agents drawing from the stream
    of ``(seed, hand)``, played one step at a time as the batch loop plays it. ``game`` is a name
    (with ``options``) or a Game. Random, heuristic and net agents, and bots of the user's own
    (``python:``, ``exec:``; the same hand if the bot plays the same), only (see the module's notes).

    >>> r = simulated_record("shmear", seed=4, hand=2, agents="heuristic")
    >>> import tricksim
    >>> r.scores == tricksim.simulate("shmear", hands=3, seed=4, agents="heuristic", progress=False).filter(
    ...     like="score_").iloc[2].tolist()
    True
    """
    from .agents import seat_agents
    from .agents.seats import Seats
    from .envs import engine
    from .sim.kernels import new_rng

    if isinstance(game, str):
        game = make_game(game, **options)
    elif options:
        raise OptionError("simulated_record: give the options with the game's name, or a Game without them")
    if not (_is_int(seed) and _is_int(hand) and hand >= 0):
        raise ValueError(f"simulated_record: seed and hand must be whole numbers, hand >= 0 (got {seed!r}, {hand!r})")
    searching = [str(a) for a in seat_agents(game.name, agents, game.players)[0]
                 if a.name not in ("random", "heuristic", "net", "python", "exec")]
    if searching:
        raise OptionError(f"simulated_record: agent {searching[0]} is not supported; a simulated hand is re-played "
                          "for random, heuristic, net and python: or exec: agents only (a search agent's randomness in the batch loop "
                          "is not repeated one decision at a time)")
    seats = Seats(game, agents, seed)
    s = np.zeros(game.kernels.STATE_SIZE, dtype=np.int64)
    deal_hand = engine.kernels(game.family).deal_hand
    deal_hand(game.family, s, int(seed), int(hand), game.players, game.option_array, new_rng())
    state = State(game, s)
    record = HandRecord.start(state, seed=int(seed), hand=int(hand), agents=seats.specs, source="tricksim.simulate")
    seats.new_hand(int(seed), int(hand))
    while not state.is_terminal():
        state.apply(seats.act(state))
    return record.with_play(state)


# --- small helpers ---------------------------------------------------------------------------


def _json(value):
    """``value`` as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def _option_text(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)


def _text(value) -> str:
    """A recorded value as the messages show it: JSON's spelling, text without quotes."""
    return value if isinstance(value, str) else json.dumps(value)


def _check_game(name: str) -> None:
    if name not in names():
        raise RecordError(f"unknown game {name!r} (tricksim plays: {', '.join(names())})")


def _check(ok: bool, problem: str) -> None:
    if not ok:
        raise RecordError(problem)


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def _is_list(x, kind) -> bool:
    return isinstance(x, list) and all((_is_int(v) if kind is int else isinstance(v, kind)) for v in x)


def _is_trick(t) -> bool:
    return (isinstance(t, list) and len(t) == 3 and _is_int(t[0]) and _is_list(t[1], str) and _is_int(t[2]))


def _check_deal(game: str, deal) -> None:
    _check(isinstance(deal, dict), "'deal' must be an object with hands, rest and dealer")
    flags = spec(game).part("game").DEAL_FLAGS
    allowed = {"hands", "rest", "dealer", *flags}
    for key in ("hands", "rest", "dealer"):
        _check(key in deal, f"the deal has no {key!r}")
    unknown = sorted(set(deal) - allowed)
    _check(not unknown, f"the deal has an unknown field {unknown[0]!r}" if unknown else "")
    _check(_is_list(deal["hands"], str), "the deal's 'hands' must be a list of card strings, one per seat")
    _check(isinstance(deal["rest"], str), "the deal's 'rest' must be a string of cards")
    _check(_is_int(deal["dealer"]), "the deal's 'dealer' must be a seat number")
    for flag in flags:
        _check(isinstance(deal.get(flag, False), bool), f"the deal's {flag!r} must be true or false")
    for cards in deal["hands"] + [deal["rest"]]:
        try:
            CardSet(cards)
        except ValueError as error:
            raise RecordError(f"the deal: {error}") from None
