"""A trained policy network as an agent: ``net:file=policy.npz``.

A policy file holds a multi-layer perceptron that maps a seat's observation (the environments'
int8 vector, ``tricksim.envs``) to a logit per action of the flat action space; the agent plays
the legal action with the highest logit. Hidden layers use tanh, as sb3-contrib's MaskablePPO
``MlpPolicy`` does; ``tricksim.rl`` trains such networks and writes these files, but reading and
playing one needs only numpy and numba, so a trained agent runs without the ``rl`` extra.

The file is a numpy ``.npz`` with ``meta`` (JSON: format, game, options, observation size) and
``weight_0, bias_0, weight_1, …``, weight ``k`` of shape ``(inputs, outputs)``.

In the batch loops the agent is played beside the search agents (``agents.search``): its seat's
row of ``search_arrays`` carries the network, flattened by ``net_row``.

>>> import numpy as np, tricksim
>>> game = tricksim.make_game("nesmear")
>>> path = write_policy("/tmp/doctest_policy.npz", game, [np.zeros((net_inputs(game), 4)), np.zeros((4, 334))],
...                     [np.zeros(4), np.zeros(334)])
>>> tricksim.compare("nesmear", "net:file=/tmp/doctest_policy.npz", "random", hands=200)["hands"]
200
"""

from __future__ import annotations

import json
import math
import os
from functools import lru_cache

import numba as nb
import numpy as np

from ..sim.observation import encode, observation_layout
from ..errors import OptionError
from ..sim.actions import CARD_BASE, NUM_ACTIONS
from ..sim.game import hand_options
from .family import legal, to_act

FORMAT = "tricksim-net/1"
MAX_LAYERS = 8
HEADER = 1 + 2 * MAX_LAYERS  # layers, then (inputs, outputs) per layer


def net_inputs(game) -> int:
    """The size of ``game``'s observation vector: a policy's input size."""
    return observation_layout(game).size


def write_policy(path, game, weights: list[np.ndarray], biases: list[np.ndarray]) -> str:
    """Write a policy file for ``game`` (a Game): ``weights[k]`` of shape (inputs, outputs),
    tanh between layers, the last layer's outputs the logits of the ``NUM_ACTIONS`` actions."""
    _check_shapes(str(path), net_inputs(game), [np.shape(w) for w in weights], [np.shape(b) for b in biases])
    meta = {"format": FORMAT, "game": game.name, "options": game.options, "inputs": net_inputs(game),
            "activation": "tanh"}
    arrays = {f"weight_{k}": np.asarray(w, np.float64) for k, w in enumerate(weights)}
    arrays |= {f"bias_{k}": np.asarray(b, np.float64) for k, b in enumerate(biases)}
    with open(path, "wb") as f:
        np.savez(f, meta=np.array(json.dumps(meta)), **arrays)
    return str(path)


def read_policy(path, game) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The weights and biases of the policy file ``path``, checked against ``game`` (a Game):
    OptionError naming the file for a missing or corrupt file, or one trained for another game,
    other options or another observation."""
    weights, biases, meta = _read(str(path), *_stamp(str(path)))
    trained = hand_options(meta.get("options") or {})
    if meta.get("game") != game.name or trained != json.loads(json.dumps(hand_options(game.options))):
        raise OptionError(f"policy {path}: trained for {meta.get('game')} with options {meta.get('options')}, "
                          f"not for {game!r}")
    if meta.get("inputs") != net_inputs(game):
        raise OptionError(f"policy {path}: takes {meta.get('inputs')} inputs; {game!r} observes {net_inputs(game)}")
    return weights, biases


def net_row(path, game) -> np.ndarray:
    """The policy file ``path`` flattened for the batch loops: ``HEADER`` sizes, then each
    layer's weights (inputs x outputs, row-major) and biases."""
    weights, biases = read_policy(path, game)
    header = np.zeros(HEADER)
    header[0] = len(weights)
    for k, w in enumerate(weights):
        header[1 + 2 * k:3 + 2 * k] = w.shape
    return np.concatenate([header] + [a.ravel() for w, b in zip(weights, biases) for a in (w, b)])


def _stamp(path: str) -> tuple[int, int]:
    try:
        info = os.stat(path)
    except OSError as error:
        raise OptionError(f"policy {path}: cannot read it ({error.strerror})") from None
    return info.st_mtime_ns, info.st_size


@lru_cache(maxsize=16)
def _read(path: str, mtime: int, size: int):
    """The file's layers and meta (cached while the file is unchanged)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            layers = sum(1 for name in data.files if name.startswith("weight_"))
            weights = [data[f"weight_{k}"] for k in range(layers)]
            biases = [data[f"bias_{k}"] for k in range(layers)]
    except (OSError, ValueError, KeyError) as error:
        raise OptionError(f"policy {path}: not a tricksim policy file ({error})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise OptionError(f"policy {path}: not a tricksim policy file (format {FORMAT!r} expected)")
    _check_shapes(path, meta.get("inputs"), [w.shape for w in weights], [b.shape for b in biases])
    if not all(np.isfinite(a).all() for a in weights + biases):
        raise OptionError(f"policy {path}: its weights are not all finite")
    return weights, biases, meta


def _check_shapes(path: str, inputs, weights: list[tuple], biases: list[tuple]) -> None:
    shapes_ok = (1 <= len(weights) <= MAX_LAYERS and len(biases) == len(weights)
                 and all(len(w) == 2 for w in weights) and weights[0][0] == inputs
                 and weights[-1][1] == NUM_ACTIONS
                 and all(b == (w[1],) for w, b in zip(weights, biases))
                 and all(a[1] == b[0] for a, b in zip(weights, weights[1:])))
    if not shapes_ok:
        raise OptionError(f"policy {path}: layers {weights} with biases {biases} do not map {inputs} inputs "
                          f"through at most {MAX_LAYERS} layers to {NUM_ACTIONS} action logits")


@nb.njit(cache=True)
def act(family, s, row):
    """The legal action with the highest logit of the network ``row`` (``net_row``) for the seat
    to act at ``s``. The observation is mostly zeros, so the first layer sums only the rows of
    the inputs that are set; the last layer computes only the legal actions' logits."""
    layers = int(row[0])
    inputs = int(row[1])
    obs = np.zeros(inputs, np.int8)
    encode(family, s, to_act(family, s), obs)
    x = obs.astype(np.float64)
    at = HEADER
    for k in range(layers - 1):
        n_in, n_out = int(row[1 + 2 * k]), int(row[2 + 2 * k])
        y = row[at + n_in * n_out:at + n_in * n_out + n_out].copy()
        for i in range(n_in):
            if x[i] != 0.0:
                base = at + i * n_out
                for o in range(n_out):
                    y[o] += x[i] * row[base + o]
        for o in range(n_out):
            y[o] = math.tanh(y[o])
        at += n_in * n_out + n_out
        x = y
    n_in, n_out = int(row[1 + 2 * (layers - 1)]), int(row[2 + 2 * (layers - 1)])
    words, cards, kind = legal(family, s)
    best, best_logit = -1, -np.inf
    for a in range(n_out):
        if a < CARD_BASE:
            if not (words >> a) & 1:
                continue
        else:
            c = a - CARD_BASE - 54 * kind
            if c < 0 or c >= 54 or not (cards >> c) & 1:
                continue
        logit = row[at + n_in * n_out + a]
        for i in range(n_in):
            logit += x[i] * row[at + i * n_out + a]
        if logit > best_logit:
            best, best_logit = a, logit
    return best


def logits(weights: list[np.ndarray], biases: list[np.ndarray], observation: np.ndarray) -> np.ndarray:
    """The network's logits of every action for one ``observation`` (numpy; ``act`` is the same
    network in the batch loops).

    >>> logits([np.eye(2)], [np.array([0.5, 0.0])], np.array([1, 0], np.int8))
    array([1.5, 0. ])
    """
    x = np.asarray(observation, np.float64)
    for k, (w, b) in enumerate(zip(weights, biases)):
        x = x @ w + b
        if k < len(weights) - 1:
            x = np.tanh(x)
    return x
