"""How a bot of the user's own is written as an agent: ``python:MODULE:CLASS`` or
``python:path/to/file.py:CLASS`` (a Python class, ``agents.python_bot``) and ``exec:COMMAND`` (a
program in any language speaking the JSON-lines protocol of ``docs/bots.md``, ``agents.exec_bot``).

Both take ``:on_error=stop`` (the default: a failed decision stops the run) or ``:on_error=random``
(a random legal action is played instead, and the fault counted); ``exec:`` takes
``:timeout=SECONDS`` per decision (default ``TIMEOUT``); other ``:name=value`` pairs of a
``python:`` agent go to its class's constructor (numbers, ``true``/``false``, else text).

>>> parse_bot("exec", "node examples/bots/simple.js:timeout=2")
{'command': 'node examples/bots/simple.js', 'timeout': '2'}
>>> parse_bot("python", "examples/bots/simple.py:SimpleBot:margin=3")
{'target': 'examples/bots/simple.py:SimpleBot', 'margin': '3'}
"""

from __future__ import annotations

import re

from ..errors import OptionError

BOT_KINDS = ("python", "exec")
TIMEOUT = 5.0  # seconds a bot may take for one decision, by default
ON_ERROR = ("stop", "random")
_EXEC_PARAM = re.compile(r"^(timeout|on_error)=")


def parse_bot(name: str, rest: str) -> dict:
    """The parameters of ``name:rest`` (``name`` in BOT_KINDS), as text, checked; OptionError
    naming the agent otherwise."""
    text = f"{name}:{rest}"
    if name == "exec":
        pieces = rest.split(":")
        params = {}
        while len(pieces) > 1 and _EXEC_PARAM.match(pieces[-1]):
            key, _, value = pieces.pop().partition("=")
            params[key] = value.strip()
        command = ":".join(pieces).strip()
        if not command:
            raise OptionError(f"agent {text!r}: give the bot's command, exec:COMMAND (e.g. exec:node bot.js)")
        params = {"command": command} | dict(reversed(params.items()))
    else:
        pieces = [p.strip() for p in rest.split(":")]
        at = 2 if len(pieces) >= 2 and pieces[0] and pieces[1] and "=" not in pieces[1] else 0
        if not at:
            raise OptionError(f"agent {text!r}: a Python agent is written python:MODULE:CLASS or "
                              "python:path/to/file.py:CLASS, with :name=value parameters after it")
        params = {"target": f"{pieces[0]}:{pieces[1]}"}
        for pair in pieces[at:]:
            key, sep, value = pair.partition("=")
            if not sep or not key.strip().isidentifier():
                raise OptionError(f"agent {text!r}: {pair!r} is not name=value")
            params[key.strip()] = value.strip()
    check_bot_params(text, params)
    return params


def check_bot_params(text: str, params: dict) -> None:
    """OptionError naming agent ``text`` for a bad ``timeout`` or ``on_error``."""
    if params.get("on_error", "stop") not in ON_ERROR:
        raise OptionError(f"agent {text!r}: on_error is {' or '.join(ON_ERROR)}, not {params['on_error']!r}")
    if "timeout" in params:
        try:
            ok = float(params["timeout"]) > 0
        except ValueError:
            ok = False
        if not ok:
            raise OptionError(f"agent {text!r}: timeout is the seconds a decision may take, a number > 0")


def bot_text(name: str, params: dict) -> str:
    """The agent ``name`` with ``params`` written back as ``parse_bot`` reads it."""
    first = params["command"] if name == "exec" else params["target"]
    rest = [f"{k}={v}" for k, v in params.items() if k not in ("command", "target")]
    return ":".join([name, first, *rest])


def constructor_value(text: str):
    """A ``python:`` agent's parameter as its constructor gets it: an int, a float, a bool or the text.

    >>> [constructor_value(v) for v in ("3", "0.5", "true", "fast")]
    [3, 0.5, True, 'fast']
    """
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
