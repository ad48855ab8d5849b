"""Agents: numba policies that the batch loops seat at the table.

``random`` takes a uniformly random legal action; ``heuristic`` plays as a sound
club player (one module per game: ``agents.sheepshead``, ``agents.fiftyfive``,
``agents.smear`` for both smears, ``agents.bluke``), with named parameters;
``pimc`` (``agents.pimc``: sampled deals, each solved exactly by ``agents.solver``)
and ``ismcts`` (``agents.ismcts``) search, for every game; ``net:file=policy.npz`` plays a
trained policy network (``agents.net``, trained by ``tricksim.rl``). A bot of the user's own sits
down as ``python:MODULE:CLASS`` or ``exec:COMMAND`` (``agents.bot_spec``), or as an object with an
``act(view)`` method in the Python API (``agents.python_bot``); the batch runner plays its tables
one decision at a time (``agents.bot_table``).

An agent is written ``name`` or ``name:param=value:param=value``; a table is one
agent for every seat or a comma-separated list, one per seat:

>>> seat_agents("sheepshead", "heuristic,heuristic,heuristic:pick_threshold=9,heuristic,heuristic", 5)[1]
['heuristic', 'heuristic', 'heuristic:pick_threshold=9', 'heuristic', 'heuristic']
>>> seat_agents("bluke", "pimc:worlds=20,ismcts:iters=500,heuristic", 3)[1]
['pimc:worlds=20', 'ismcts:iters=500', 'heuristic']
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import OptionError
from ..spec import spec
from .python_bot import is_agent_object, object_spec
from .bot_spec import BOT_KINDS, bot_text, parse_bot
from .kinds import BOT, KIND_NAMES, SEARCH_KINDS

AGENTS = KIND_NAMES + BOT_KINDS
# the search agents' parameters (name, default, meaning), as in agents.pimc and agents.ismcts (which
# import numba kernels; these stay light for parsing)
SEARCH_PARAMS = {
    "pimc": (("worlds", 50.0, "deals sampled per decision"),
             ("time", 0.0, "seconds per decision at most (0: no limit); not reproducible"),
             ("solve", 4.0, "cards in the seat's hand from which each world is solved exactly (before: playouts)"),
             ("rollouts", 1.0, "heuristic playouts per world and action where it does not solve"),
             ("bidding", 1.0, "1: PIMC makes every decision; 0: the heuristic makes those before the card play"),
             ("infer", 0.0, "weigh each world by the other seats' decisions so far (auction and card play) under "
                            "the heuristic softened by this eps (agents.inference); 0: every world alike"),
             ("resample", 2.0, "with infer: candidate worlds sampled per valued world, the valued ones drawn from "
                               "them by weight (systematic resampling); 1: every sampled world valued by its weight"),
             ("anchor", 0.0, "before the card play, keep the heuristic's choice unless another action gains more "
                             "than this many standard errors over it in the same deals; 0: the best mean"),
             ("ess", 1.0, "with infer and resample, in the card play: the weights tempered (raised to a power "
                          "below 1) so that their effective sample size is at least this many times the worlds "
                          "valued; 0: untempered")),
    "ismcts": (("iters", 2000.0, "iterations per decision"),
               ("time", 0.0, "seconds per decision at most (0: no limit); not reproducible"),
               ("c", 0.7, "UCB exploration constant, in units of the range of scores seen"),
               ("bidding", 1.0, "1: ISMCTS makes every decision; 0: the heuristic makes those before the card play"),
               ("infer", 0.0, "in the card play, draw each iteration's world from a few by their weight under the "
                              "other seats' play so far (agents.inference, this eps); 0: as sampled")),
}

def agent_module(game: str):
    """The module with ``game``'s heuristic agent (``tricksim.spec.HeuristicAgent``)."""
    return spec(game).part("agent")


@dataclass(frozen=True)
class Agent:
    """One seat's agent: its kind and the parameters that differ from the defaults.

    >>> Agent.parse("heuristic:pick_threshold=4.5")
    Agent(name='heuristic', params={'pick_threshold': 4.5})
    >>> str(Agent("heuristic", {"pick_threshold": 4.5}))
    'heuristic:pick_threshold=4.5'
    """

    name: str
    params: dict = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> Agent:
        name, *pairs = text.strip().split(":")
        if name not in AGENTS:
            raise OptionError(f"no agent {name!r} in {text!r}; the agents are {', '.join(AGENTS)}")
        if name == "net":  # its one parameter is a path
            key, sep, path = ":".join(pairs).partition("=")
            if key.strip() != "file" or not path.strip():
                raise OptionError(f"agent {text!r}: a policy network is written net:file=PATH")
            return cls(name, {"file": path.strip()})
        if name in BOT_KINDS:
            return cls(name, parse_bot(name, text.strip()[len(name) + 1:]))
        params = {}
        for pair in pairs:
            key, sep, value = pair.partition("=")
            try:
                params[key.strip()] = float(value)
            except ValueError:
                sep = ""
            if not sep or not key.strip():
                raise OptionError(f"agent {text!r}: {pair!r} is not parameter=number")
        if params and name == "random":
            raise OptionError(f"agent {text!r}: the random agent takes no parameters")
        if name in SEARCH_PARAMS:
            names = [key for key, _, _ in SEARCH_PARAMS[name]]
            for key in params:
                if key not in names:
                    raise OptionError(f"agent {text!r}: {name} has no parameter {key!r}; it has {', '.join(names)}")
            for key in ("worlds", "iters", "rollouts", "solve", "resample"):
                if key in params and not (params[key] >= 1 and params[key] == int(params[key])):
                    raise OptionError(f"agent {text!r}: {key} must be a whole number >= 1")
            if (min(params.get("time", 0), params.get("c", 0), params.get("ess", 0)) < 0
                    or params.get("bidding", 1) not in (0, 1)):
                raise OptionError(f"agent {text!r}: time, c and ess must be >= 0, bidding 0 or 1")
            if not 0 <= params.get("infer", 0) <= 1:
                raise OptionError(f"agent {text!r}: infer (an eps) must be between 0 and 1")
        return cls(name, params)

    def __str__(self) -> str:
        if self.name in BOT_KINDS:
            return bot_text(self.name, self.params)
        return ":".join([self.name] + [f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                                       for k, v in self.params.items()])


def seat_agents(game: str, agents, players: int) -> tuple[list[Agent], list[str]]:
    """The agent of each of ``players`` seats from ``agents``: a name or spec for every seat, a
    comma-separated string or a list with one per seat (names, specs, ``Agent``s or Python agent
    objects, ``agents.python_bot``).

    Returns the agents and their specs as text; OptionError for a wrong count, an unknown agent or
    parameter.
    """
    if isinstance(agents, (str, Agent)):
        items = str(agents).split(",")
    elif is_agent_object(agents):
        items = [object_spec(agents)]
    else:
        items = [object_spec(a) if is_agent_object(a) else str(a) for a in agents]
    if len(items) == 1:
        items = items * players
    if len(items) != players:
        raise OptionError(f"agents: {len(items)} given for {players} seats; give one for every seat, or one for all")
    seated = [Agent.parse(item) for item in items]
    if any(a.name == "heuristic" for a in seated):
        names = [name for name, _, _ in agent_module(game).PARAMS]
        for a in seated:
            for key in a.params if a.name == "heuristic" else ():
                if key not in names:
                    raise OptionError(f"the {game} heuristic has no parameter {key!r}; it has {', '.join(names)}")
    return seated, [str(a) for a in seated]


def seat_arrays(game: str, seated: list[Agent]) -> tuple[np.ndarray, np.ndarray]:
    """``(kinds, params)`` for a batch loop: each seat's kind, and its parameter array (the
    heuristic's defaults with the seat's own values; a search agent's playouts use them)."""
    module = agent_module(game)
    names = [name for name, _, _ in module.PARAMS]
    kinds = np.array([BOT if a.name in BOT_KINDS else KIND_NAMES.index(a.name) for a in seated], dtype=np.int64)
    params = np.tile(module.DEFAULTS, (len(seated), 1))
    for seat, a in enumerate(seated):
        if a.name == "heuristic":
            for key, value in a.params.items():
                params[seat, names.index(key)] = value
    return kinds, params


def search_arrays(seated: list[Agent], game) -> np.ndarray:
    """Each seat's PIMC or ISMCTS parameters (``agents.pimc.PARAMS``, ``agents.ismcts.PARAMS``),
    defaults filled in, or its policy network (``agents.net.net_row``, checked against ``game``,
    a Game); zeros for other seats."""
    from .net import net_row

    nets = {seat: net_row(a.params["file"], game) for seat, a in enumerate(seated) if a.name == "net"}
    width = max([len(p) for p in SEARCH_PARAMS.values()] + [len(row) for row in nets.values()])
    out = np.zeros((len(seated), width), dtype=np.float64)
    for seat, row in nets.items():
        out[seat, :len(row)] = row
    for seat, a in enumerate(seated):
        if a.name in SEARCH_PARAMS:
            table = SEARCH_PARAMS[a.name]
            for k, (key, default, _) in enumerate(table):
                out[seat, k] = a.params.get(key, default)
    return out


def uses_search(seated: list[Agent]) -> bool:
    """Whether any seat holds a search agent (played by ``agents.search``)."""
    return any(a.name in KIND_NAMES and KIND_NAMES.index(a.name) in SEARCH_KINDS for a in seated)


def uses_bots(seated: list[Agent]) -> bool:
    """Whether any seat holds a bot of the user's own (``python:``, ``exec:``; ``agents.bot_table``)."""
    return any(a.name in BOT_KINDS for a in seated)


def agent_name(agent) -> str:
    """How ``agent`` (a spec, an ``Agent`` or a Python agent object) is written and shown."""
    return object_spec(agent) if is_agent_object(agent) else str(agent)
