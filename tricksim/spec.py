"""The game interface, and the one list of games that every registry is made from.

A game is one ``GameSpec``: its name, and the module that provides each of its parts. Each part
has one interface, written below as a Protocol (what the part's module must define) and checked
for every game by ``missing`` (the conformance test runs it over ``tricksim.games()``):

* ``rules`` (``Rules``): the numba kernels of the hand, over one int64 state array;
* ``game`` (``tricksim.sim.game.Game``, a subclass): options, hand-made deals, frames, how a hand reads;
* ``agent`` (``HeuristicAgent``): the heuristic agent;
* ``search`` (``SearchHooks``): what PIMC, ISMCTS and the solver ask of the game;
* ``observation`` (``Observation``): what a seat may see, as the learning agents' vector and the
  seat's view;
* ``summary`` (``Summary``): the summary of a ``simulate`` frame.

Games that share their rules (the two smears) share the modules of every part but ``game``: one
*family* of kernels, numbered in the order the families first appear in the list, and compiled
once for both. Parts are named by module path and imported only by the layer that uses them, so
this module imports nothing above the errors.

>>> spec("nesmear").family == spec("shmear").family
True
>>> [s.name for s in specs()][:2]
['sheepshead', 'fiftyfive']
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from typing import Protocol

from .errors import OptionError


DECIDERS = {"pick": "picker", "bid": "bidder"}  # a study's decision -> the column of the seat that makes it


@dataclass(frozen=True)
class GameSpec:
    """One game: its ``name`` (as in ``make_game``), each part's module, and what the tools need
    to know of it besides."""

    name: str
    game: str  # "module:Class", the Game subclass
    rules: str
    agent: str
    search: str
    observation: str
    summary: str
    gym_id: str  # the single-seat Gymnasium id
    decision: str  # what its study measures: "pick" or "bid" ("" for no study)
    frame_columns: frozenset = field(default_factory=frozenset)  # columns only this game's frames have

    @property
    def family(self) -> int:
        """The number of this game's kernel family (``family_number``)."""
        return family_number(self.rules)

    @property
    def decider(self) -> str:
        """The column of the seat that makes the ``decision``: ``picker`` or ``bidder``."""
        return DECIDERS.get(self.decision, "")

    def part(self, name: str):
        """The module of part ``name`` (``"rules"``, ``"agent"`` …), or the class of ``"game"``."""
        module, _, attr = getattr(self, name).partition(":")
        loaded = import_module(module)
        return getattr(loaded, attr) if attr else loaded


_GAMES: dict[str, GameSpec] = {}


def register(game: GameSpec) -> GameSpec:
    """Add ``game`` to the games tricksim plays (its modules are imported when first used)."""
    if game.name in _GAMES:
        raise OptionError(f"a game {game.name!r} is already registered")
    _GAMES[game.name] = game
    return game


def specs() -> list[GameSpec]:
    """Every game's spec, in the order registered (the built-in games first)."""
    return list(_GAMES.values())


def names() -> list[str]:
    """The names of the games, sorted."""
    return sorted(_GAMES)


def spec(name: str) -> GameSpec:
    """The spec of game ``name``; OptionError naming the games for any other name."""
    if name not in _GAMES:
        raise OptionError(f"no game {name!r}; the games are {', '.join(names())}")
    return _GAMES[name]


def make_game(name: str, **options):
    """The game ``name`` with ``options`` as named in docs/rules.md (a ``tricksim.sim.game.Game``).

    Raises OptionError (a ValueError) for an unknown game, option or value.

    >>> make_game("sheepshead", no_pick="doubler").options["no_pick"]
    'doubler'
    >>> make_game("euchre")
    Traceback (most recent call last):
    ...
    tricksim.errors.OptionError: no game 'euchre'; the games are bluke, fiftyfive, nesmear, sheepshead, shmear
    """
    return spec(name).part("game")(**options)


_BUILT_IN: list[str] = []  # the rules modules of the games below, in order: families 0, 1, …
REGISTERED_FAMILIES = 1 << 20  # a game registered later has a family number from here on


def family_number(rules: str) -> int:
    """The family number of the games whose rules module is ``rules``: the built-in families are
    numbered in order from 0; a game registered later is numbered by a hash of its kernel
    modules' sources. The generic kernels are compiled (and cached on disk) per family number,
    so a number must never stand for other code: two games registered in another order, or an
    edited game, get other numbers."""
    if rules in _BUILT_IN:
        return _BUILT_IN.index(rules)
    game = next(g for g in _GAMES.values() if g.rules == rules)
    digest = zlib.crc32(b"".join(_source(getattr(game, part)) for part in ("rules", "agent", "search", "observation")))
    return REGISTERED_FAMILIES + digest % REGISTERED_FAMILIES


def _source(module: str) -> bytes:
    """The source text of ``module`` (found, not run; its package is imported)."""
    found = find_spec(module)
    return Path(found.origin).read_bytes() if found and found.origin else module.encode()


def family_part(family: int, name: str):
    """Part ``name`` of the games of kernel family ``family`` (``GameSpec.family``)."""
    return next(g for g in _GAMES.values() if g.family == family).part(name)


# --- the interface of each part -------------------------------------------------------
# A kernel's ``s`` is the game's state array (int64, ``STATE_SIZE`` long). Actions are ints:
# the word actions (pick, pass, bids) below 64, card actions above (``tricksim.sim.actions``).


class Rules(Protocol):
    """The rules of a hand, numba kernels (``cache=True``) over the state array."""

    STATE_SIZE: int
    # slots of the state array every tool reads the same way
    HANDS: int  # first of one card mask a seat
    DEALER: int
    TO_ACT: int  # the seat to act, -1 once the hand is over
    PHASE: int  # an index into PHASE_NAMES; 0 is the first (the picking or the bidding)
    LEADER: int
    TRICK_NO: int  # tricks finished
    IN_TRICK: int  # cards on the table in the current trick
    SCORES: int  # first of the hand's score a seat (team games: its team's)
    TRICKS: int  # first of TRICK_SLOTS a trick: leader, cards in play order, winner last
    TRICK_SLOTS: int
    PHASE_NAMES: tuple
    RECORD: tuple  # the names of the columns ``record`` writes

    def deal(self, s, seed, hand, players, options, rng):
        """Deal hand ``hand`` of ``seed`` into ``s``, dealer ``hand % players`` (``rng`` scratch)."""

    def legal(self, s):
        """``(word_mask, card_mask, card_kind)``: the legal actions of the seat to act."""

    def step(self, s, action):
        """Apply the legal ``action`` of the seat to act."""

    def record(self, s, out, i):
        """Write the finished hand's ``RECORD`` columns into row ``i`` of ``out``."""


class HeuristicAgent(Protocol):
    """The heuristic agent: ``act`` with a parameter array (``PARAMS`` names, ``DEFAULTS``)."""

    PARAMS: tuple  # (name, default, meaning) a parameter
    DEFAULTS: object  # the parameters' default values, a float64 array
    FEATURES: tuple  # the names of the columns record_features writes

    def act(self, s, params, rng):
        """The agent's action for the seat to act."""

    def record_features(self, s, dealt, out, i, column):
        """Write the hand's ``FEATURES`` into row ``i`` of ``out`` from ``column`` on."""


class SearchHooks(Protocol):
    """What the search agents ask of a game (``tricksim.agents.family`` says what each must do).
    Where a game has them, also ``move_priority(s, moves, n, out)`` and ``endgame(s, judge, score,
    alpha, beta)`` for the solver, and ``play_start(s, out)`` (the deal of ``s`` at the start of its
    card play) and ``auction_log_chance(world, seat, eps, hparams, rng, scratch)`` (the chance of
    the other seats' auction) for the inference of the world sampler (``agents.inference``)."""

    def sample(self, s, seat, rng, out):
        """A full deal consistent with all ``seat`` knows of ``s``."""

    def same_side(self, s, a, b):
        """Whether seats ``a`` and ``b`` score together (every card visible)."""

    def play_key(self, s):
        """A hash of all that decides the rest of the play."""

    def score_key(self, s):
        """``play_key`` and what was taken so far that the score reads."""

    def side_points(self, s, seat):
        """The points ``seat``'s side has taken so far."""

    def merge(self, s, cards):
        """The legal cards, one kept of each run of equivalent cards."""

    def points_bounds(self, s, seat):
        """Bounds on what ``side_points`` can still gain."""

    def score_bounds(self, s, seat):
        """Bounds on ``seat``'s hand score from ``s`` on."""


class Observation(Protocol):
    """What a seat may see, as one vector: the learning agents' observation, read back as the
    seat's view (``State.observe``)."""

    def blocks(self, game):
        """The observation's named blocks for ``game`` (a Game): sizes, bounds, how each reads back."""

    def deck(self, game):
        """The card index of each entry of ``game``'s card planes."""

    def observe(self, s, seat, out):
        """Write what ``seat`` may know of ``s`` into ``out``."""


class Summary(Protocol):
    """The summary of a ``simulate`` frame."""

    def summarize(self, df):
        """The named figures of the frame, a dict."""

    def format_summary(self, summary):
        """The figures as the lines the command line prints."""


PARTS = {"rules": Rules, "agent": HeuristicAgent, "search": SearchHooks, "observation": Observation,
         "summary": Summary}


def missing(game: GameSpec) -> list[str]:
    """What ``game``'s parts lack of the interface, as ``"part.NAME"``; empty when it has all."""
    out = []
    for part, protocol in PARTS.items():
        module = game.part(part)
        wanted = set(protocol.__annotations__) | {n for n in vars(protocol) if not n.startswith("_")}
        out += [f"{part}.{name}" for name in sorted(wanted) if not hasattr(module, name)]
    cls = game.part("game")
    base = next((c for c in cls.__mro__ if f"{c.__module__}.{c.__qualname__}" == "tricksim.sim.game.Game"), None)
    if base is None:  # (found by name: this module imports nothing of the layers)
        return out + ["game: not a Game subclass"]
    return out + [f"game.{name}" for name in GAME_METHODS if getattr(cls, name) is getattr(base, name)]


GAME_METHODS = ("deal", "rest", "lowest_score", "match_over")  # what the Game base class leaves to each game


for _game in (
        GameSpec("sheepshead", "tricksim.sim.sheepshead_game:Sheepshead", "tricksim.sim.sheepshead",
                 "tricksim.agents.sheepshead", "tricksim.agents.sheepshead_search", "tricksim.sim.obs_sheepshead",
                 "tricksim.experiments.sheepshead_summary", "tricksim/Sheepshead-v0", "pick",
                 frozenset({"picker"})),
        GameSpec("fiftyfive", "tricksim.sim.fiftyfive_game:FiftyFive", "tricksim.sim.fiftyfive",
                 "tricksim.agents.fiftyfive", "tricksim.agents.fiftyfive_search", "tricksim.sim.obs_fiftyfive",
                 "tricksim.experiments.fiftyfive_summary", "tricksim/FiftyFive-v0", "bid",
                 frozenset({"best_trump_seat"})),
        # a Shmear frame has every NE Smear column too: Shmear is tried first
        GameSpec("shmear", "tricksim.sim.smear_game:Shmear", "tricksim.sim.smear", "tricksim.agents.smear",
                 "tricksim.agents.smear_search", "tricksim.sim.obs_smear", "tricksim.experiments.smear_summary",
                 "tricksim/Shmear-v0", "bid", frozenset({"jick", "joker"})),
        GameSpec("nesmear", "tricksim.sim.smear_game:NESmear", "tricksim.sim.smear", "tricksim.agents.smear",
                 "tricksim.agents.smear_search", "tricksim.sim.obs_smear", "tricksim.experiments.smear_summary",
                 "tricksim/NESmear-v0", "bid", frozenset({"high", "low", "jack", "game"})),
        GameSpec("bluke", "tricksim.sim.bluke_game:Bluke", "tricksim.sim.bluke", "tricksim.agents.bluke",
                 "tricksim.agents.bluke_search", "tricksim.sim.obs_bluke", "tricksim.experiments.bluke_summary",
                 "tricksim/Bluke-v0", "bid", frozenset({"hand_size"}))):
    register(_game)
    _BUILT_IN += [] if _game.rules in _BUILT_IN else [_game.rules]
