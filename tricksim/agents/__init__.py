"""Agents: numba policies that the batch loops seat at the table.

``random`` takes a uniformly random legal action; ``heuristic`` plays as a sound
club player (one module per game: ``agents.sheepshead``, ``agents.fiftyfive``,
``agents.smear`` for both smears, ``agents.bluke``), with named parameters.

An agent is written ``name`` or ``name:param=value:param=value``; a table is one
agent for every seat or a comma-separated list, one per seat:

>>> seat_agents("sheepshead", "heuristic,heuristic,heuristic:pick_threshold=9,heuristic,heuristic", 5)[1]
['heuristic', 'heuristic', 'heuristic:pick_threshold=9', 'heuristic', 'heuristic']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module

import numpy as np

from ..errors import OptionError
from .kinds import HEURISTIC, KIND_NAMES, RANDOM

AGENTS = KIND_NAMES

# game -> the module (under tricksim.agents) of its heuristic agent and its batch loop
_MODULES = {"bluke": "bluke", "fiftyfive": "fiftyfive", "nesmear": "smear", "sheepshead": "sheepshead", "shmear": "smear"}


def agent_module(game: str):
    """The module with ``game``'s heuristic agent (``PARAMS``, ``act``, ``play_hands``, ``FEATURES``)."""
    return import_module(f"{__package__}.{_MODULES[game]}")


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
        params = {}
        for pair in pairs:
            key, sep, value = pair.partition("=")
            try:
                params[key.strip()] = float(value)
            except ValueError:
                sep = ""
            if not sep or not key.strip():
                raise OptionError(f"agent {text!r}: {pair!r} is not parameter=number")
        if params and name != "heuristic":
            raise OptionError(f"agent {text!r}: the {name} agent takes no parameters")
        return cls(name, params)

    def __str__(self) -> str:
        return ":".join([self.name] + [f"{k}={v:g}" for k, v in self.params.items()])


def seat_agents(game: str, agents, players: int) -> tuple[list[Agent], list[str]]:
    """The agent of each of ``players`` seats from ``agents``: a name or spec for every seat, a
    comma-separated string or a list with one per seat (names, specs or ``Agent``s).

    Returns the agents and their specs as text; OptionError for a wrong count, an unknown agent or
    parameter.
    """
    if isinstance(agents, (str, Agent)):
        items = str(agents).split(",")
    else:
        items = [str(a) for a in agents]
    if len(items) == 1:
        items = items * players
    if len(items) != players:
        raise OptionError(f"agents: {len(items)} given for {players} seats; give one for every seat, or one for all")
    seated = [Agent.parse(item) for item in items]
    if any(a.name == "heuristic" for a in seated):
        names = [name for name, _, _ in agent_module(game).PARAMS]
        for a in seated:
            for key in a.params:
                if key not in names:
                    raise OptionError(f"the {game} heuristic has no parameter {key!r}; it has {', '.join(names)}")
    return seated, [str(a) for a in seated]


def seat_arrays(game: str, seated: list[Agent]) -> tuple[np.ndarray, np.ndarray]:
    """``(kinds, params)`` for a batch loop: each seat's kind, and its parameter array (the
    heuristic's defaults with the seat's own values; unused for a random seat)."""
    module = agent_module(game)
    names = [name for name, _, _ in module.PARAMS]
    kinds = np.array([HEURISTIC if a.name == "heuristic" else RANDOM for a in seated], dtype=np.int64)
    params = np.tile(module.DEFAULTS, (len(seated), 1))
    for seat, a in enumerate(seated):
        for key, value in a.params.items():
            params[seat, names.index(key)] = value
    return kinds, params
