"""Python agents: a class with ``act(self, view)`` returning an action (a label such as
``"play QC"`` or an action id), and, if it likes, ``start_hand(self, view)`` and
``end_hand(self, view, scores)``. ``view`` is an ``agents.bot_view.View``: the seat's information
and nothing more.

Seated as ``python:MODULE:CLASS`` (a module on the path) or ``python:path/to/file.py:CLASS``, with
``:name=value`` parameters for the constructor; the class is made once for each seat it holds in
a process. In the Python API an object with an ``act`` method is seated as it is: it plays every
seat it is given, and is written ``python:MODULE:CLASS#K`` (K numbers the objects seated in this
process; worker processes are forked with them).

>>> class FirstLegal:
...     def act(self, view):
...         return view.legal_ids[0]
>>> object_spec(FirstLegal()).startswith("python:tricksim.agents.python_bot:FirstLegal#")
True
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

from ..errors import OptionError
from .bot_spec import constructor_value

_OBJECTS: list = []  # the agent objects seated in this process, by number


def is_agent_object(agent) -> bool:
    """Whether ``agent`` is an object to seat as it is (it has ``act``), not a spec."""
    return not isinstance(agent, str) and callable(getattr(agent, "act", None))


def object_spec(agent) -> str:
    """The spec of the agent object ``agent``: ``python:MODULE:CLASS#K``, the same object each time."""
    for k, seated in enumerate(_OBJECTS):
        if seated is agent:
            break
    else:
        _OBJECTS.append(agent)
        k = len(_OBJECTS) - 1
    kind = type(agent)
    return f"python:{kind.__module__}:{kind.__qualname__}#{k}"


def make_python_agent(target: str, params: dict, text: str):
    """The agent object of ``python:target`` with constructor ``params`` (as text); OptionError
    naming ``text`` when the module, file or class cannot be found or made."""
    where, _, name = target.rpartition(":")
    name, hash_, number = name.partition("#")
    if hash_:
        if not number.isdigit() or int(number) >= len(_OBJECTS):
            raise OptionError(f"agent {text!r}: no such agent object in this process (objects are seated from "
                              "the Python API; a spawned worker has none: use python:MODULE:CLASS)")
        return _OBJECTS[int(number)]
    module = _load_module(where, text)
    kind = getattr(module, name, None)
    if kind is None or not callable(kind):
        raise OptionError(f"agent {text!r}: {where} has no class {name!r}")
    try:
        agent = kind(**{k: constructor_value(v) for k, v in params.items()})
    except TypeError as error:
        raise OptionError(f"agent {text!r}: cannot make {name} with {params or 'no parameters'} ({error})") from None
    if not callable(getattr(agent, "act", None)):
        raise OptionError(f"agent {text!r}: {name} has no act(view) method")
    return agent


def _load_module(where: str, text: str):
    if where.endswith(".py"):
        path = Path(where).resolve()
        key = f"tricksim_bot_{abs(hash(str(path)))}"
        if key in sys.modules:
            return sys.modules[key]
        if not path.is_file():
            raise OptionError(f"agent {text!r}: no file {where}")
        loader = importlib.util.spec_from_file_location(key, path)
        module = importlib.util.module_from_spec(loader)
        sys.modules[key] = module
        try:
            loader.loader.exec_module(module)
        except Exception as error:
            del sys.modules[key]
            raise OptionError(f"agent {text!r}: {where} fails to load ({type(error).__name__}: {error})") from None
        return module
    try:
        return importlib.import_module(where)
    except ImportError as error:
        raise OptionError(f"agent {text!r}: cannot import {where} ({error})") from None
