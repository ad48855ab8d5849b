"""Parameters found, not guessed: an agent's named parameters searched for the best score against
given opponents on duplicate deals, with Optuna.

Each trial plays the agent with the trial's parameters against ``opponents`` on the same
``hands`` duplicate deals (``compare``: common random numbers, so two trials differ by their
parameters, not by their cards), in every seat in turn, or only in ``seat``. Optuna's TPE sampler
proposes the parameters (the agent's own come first, where they lie in the space); the trials
are kept in an SQLite file, so a stopped search resumes with
the trials it finished. The best parameters are then measured on ``final_hands`` fresh deals that
the search never saw, against the opponents and against the agent's defaults, each with its 95 %
interval (a search's best is flattered by the deals it was chosen on).

A parameter is searched over ``low .. high`` (``{"pick_threshold": (5, 12)}``); where both bounds
are whole numbers and the agent's parameter takes whole numbers (a search agent's ``worlds``),
over the whole numbers.

>>> import tricksim
>>> result = tune(tricksim.make_game("nesmear"), {"bid_margin": (-2.0, 2.0)}, trials=3, hands=200,
...               final_hands=200, progress=False)
>>> sorted(result["best"]) == ["bid_margin"] and len(result["trials"]) == 3
True
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd

from ..agents import SEARCH_PARAMS, Agent, agent_module
from ..errors import OptionError
from ..sim.batch import check_run, progress_bar
from ..sim.cluster import check_dask, dask_client
from .compare import duplicate_scores, seatings
from .report import write_report
from .stats import mean_interval

FINAL_SEED = 1_000_003  # the final measurement's deals: seed + FINAL_SEED, never a trial's
BATCH = 4  # trials proposed at once, then played (here one after the other, or side by side on Dask)
WHOLE = {"worlds", "iters", "rollouts", "solve"}  # parameters that take whole numbers


def _agent(kind: str, params: dict) -> str:
    return str(Agent(kind, {k: float(v) for k, v in params.items()}))


def check_space(game, kind: str, space: dict) -> dict:
    """``space`` checked against the parameters of agent ``kind`` of ``game``; OptionError names
    what is wrong (an unknown parameter, bounds out of order)."""
    known = ([name for name, _, _ in agent_module(game.name).PARAMS] if kind == "heuristic" else
             [name for name, _, _ in SEARCH_PARAMS.get(kind, ())])
    if not known:
        raise OptionError(f"tune: agent {kind!r} has no parameters to tune; tune heuristic, pimc or ismcts")
    if not space:
        raise OptionError("tune: give one parameter or more to search, name=low:high")
    out = {}
    for name, bounds in space.items():
        if name not in known:
            raise OptionError(f"tune: the {kind} agent has no parameter {name!r}; it has {', '.join(known)}")
        low, high = (float(b) for b in bounds)
        if not low < high:
            raise OptionError(f"tune: {name} = {low:g}:{high:g}; the low bound must be below the high one")
        out[name] = (low, high)
    return out


def _defaults(game, kind: str) -> dict:
    table = agent_module(game.name).PARAMS if kind == "heuristic" else SEARCH_PARAMS[kind]
    return {name: float(default) for name, default, _ in table}


def _suggest(trial, space: dict) -> dict:
    return {name: (trial.suggest_int(name, int(low), int(high)) if name in WHOLE and low.is_integer()
                   and high.is_integer() else trial.suggest_float(name, low, high))
            for name, (low, high) in space.items()}


def _score(game, agent: str, opponents: str, hands: int, seed: int, seat, workers: int) -> float:
    """The agent's mean score a deal minus the opponents', on the duplicate deals of ``seed``."""
    if seat is None:
        a, b = duplicate_scores(game, agent, opponents, hands, seed, workers)
        return float((a - b).mean())
    return float(_seat_difference(game, agent, opponents, hands, seed, seat, workers).mean())


def _seat_difference(game, agent: str, opponents: str, hands: int, seed: int, seat: int, workers: int):
    """Per deal, the agent's score in ``seat`` (its team's seats) minus the opponents' mean score."""
    from ..sim.batch import simulate

    a_seats = next(s for s in seatings(game) if seat in s)
    agents = [agent if p in a_seats else opponents for p in range(game.players)]
    df = simulate(game, hands, seed, agents, workers, progress=False)
    scores = df[[f"score_{p}" for p in range(game.players)]].to_numpy(dtype=np.float64)
    others = [p for p in range(game.players) if p not in a_seats]
    return scores[:, a_seats].mean(axis=1) - scores[:, others].mean(axis=1)


def tune(game, space: dict, kind: str = "heuristic", opponents: str = "heuristic", seat: int | None = None,
         trials: int = 50, hands: int = 5_000, final_hands: int = 20_000, seed: int = 0, out=None,
         workers: int = 1, dask=None, progress: bool = True) -> dict:
    """Search ``space`` (parameter name to ``(low, high)``) of agent ``kind`` of ``game`` (a Game)
    for the best mean score against ``opponents`` (see the module). ``out``: a folder for the
    trials' SQLite file (``tune.db``: run again to resume) and the report. Returns ``best`` (the
    parameters), ``trials`` (a DataFrame: the parameters and the value of each), and ``final``: the
    best and the defaults measured on fresh deals. ``dask``: play each batch of trials side by side
    on a Dask cluster (``BATCH`` trials are proposed at once either way, so the result is the same)."""
    try:
        import optuna
    except ImportError:
        raise OptionError("tune needs Optuna: pip install 'tricksim[tune]'") from None
    space = check_space(game, kind, space)
    check_run(hands, seed)
    check_run(final_hands, seed)
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < game.players):
        raise OptionError(f"tune: seat {seat!r}; the seats are 0..{game.players - 1}")
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise OptionError(f"tune: trials = {trials!r}; a whole number >= 1")
    check_dask(dask)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    description = json.dumps({"game": game.name, "options": game.options, "kind": kind, "space": space,
                              "opponents": opponents, "seat": seat, "hands": hands, "seed": seed}, sort_keys=True,
                             default=str)
    name = "tricksim-" + hashlib.sha256(description.encode()).hexdigest()[:16]
    storage = None
    if out is not None:
        Path(out).mkdir(parents=True, exist_ok=True)
        storage = f"sqlite:///{Path(out).resolve() / 'tune.db'}"
    study = optuna.create_study(study_name=name, storage=storage, direction="maximize", load_if_exists=True,
                                sampler=optuna.samplers.TPESampler(seed=seed))
    if not study.trials:  # the agent as it is goes first, where it lies in the space
        start = _defaults(game, kind)
        if all(low <= start[name] <= high for name, (low, high) in space.items()):
            study.enqueue_trial({name: start[name] for name in space})
    for t in study.trials:  # asked before a stop, never told: not a result
        if t.state == optuna.trial.TrialState.RUNNING:
            study.tell(t.number, state=optuna.trial.TrialState.FAIL)
    done = sum(t.state == optuna.trial.TrialState.COMPLETE for t in study.trials)
    with dask_client(dask) as client, \
            progress_bar(trials, min(done, trials), f"{game.name} tune", " trials", show=progress) as bar:
        while done < trials:
            asked = [study.ask() for _ in range(min(BATCH, trials - done))]
            agents = [_agent(kind, _suggest(trial, space)) for trial in asked]
            args = (opponents, hands, seed, seat, workers)
            if client is None:
                values = [_score(game, agent, *args) for agent in agents]
            else:
                values = client.gather(client.map(_score, [game] * len(agents), agents,
                                                  *[[a] * len(agents) for a in args], pure=False))
            for trial, value in zip(asked, values):
                study.tell(trial, value)
            done += len(asked)
            bar.update(len(asked))
    complete = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE][:max(trials, done)]
    table = pd.DataFrame([{"trial": t.number, **t.params, "value": t.value} for t in complete])
    best = dict(study.best_trial.params)
    fresh = seed + FINAL_SEED
    best_agent, default_agent = _agent(kind, best), kind
    final = {
        "hands": final_hands,
        "best_vs_opponents": _final(game, best_agent, opponents, final_hands, fresh, seat, workers),
        "defaults_vs_opponents": _final(game, default_agent, opponents, final_hands, fresh, seat, workers),
        "best_vs_defaults": _final(game, best_agent, default_agent, final_hands, fresh, seat, workers),
    }
    return {"game": game.name, "title": game.label, "kind": kind, "opponents": opponents, "seat": seat,
            "space": space, "hands": hands, "best": best, "best_agent": best_agent,
            "search_value": float(study.best_value), "trials": table, "final": final}


def _final(game, agent: str, opponents: str, hands: int, seed: int, seat, workers: int) -> tuple:
    if seat is None:
        a, b = duplicate_scores(game, agent, opponents, hands, seed, workers)
        return mean_interval(a - b)
    return mean_interval(_seat_difference(game, agent, opponents, hands, seed, seat, workers))


def format_tune(result: dict) -> str:
    """The result as lines for a person."""
    where = "every seat in turn" if result["seat"] is None else f"seat {result['seat']}"
    f = result["final"]
    lines = [f"{result['title']}: {result['kind']} tuned against {result['opponents']} ({where}), "
             f"{len(result['trials'])} trials of {result['hands']:,} duplicate deals",
             f"best: {result['best_agent']}   (its value in the search: {result['search_value']:+.4f} a deal)",
             f"on {f['hands']:,} fresh deals, mean score a deal minus the other side's, 95% interval:"]
    for key, text in (("best_vs_opponents", "best against the opponents"),
                      ("defaults_vs_opponents", "defaults against the opponents"),
                      ("best_vs_defaults", "best against the defaults")):
        mean, low, high = f[key]
        lines.append(f"  {text:<32} {mean:+.4f}   [{low:+.4f}, {high:+.4f}]")
    return "\n".join(lines)


def write_tune(result: dict, out) -> list:
    """Write the trials (CSV), the figure of the search and the page into the folder ``out``."""
    return write_report(out, {"trials.csv": result["trials"]},
                        {"search.png": lambda path: _figure(result, path)}, "tune.md", format_tune(result))


def _figure(result: dict, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = result["trials"]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(t["trial"], t["value"], "o", ms=4, color="tab:blue", label="trial")
    ax.plot(t["trial"], t["value"].cummax(), "-", color="tab:red", label="best so far")
    mean, low, high = result["final"]["best_vs_opponents"]
    ax.axhline(mean, color="tab:green", ls="--", label=f"best on fresh deals {mean:+.3f} [{low:+.3f}, {high:+.3f}]")
    ax.set_xlabel("trial")
    ax.set_ylabel("mean score a deal minus the other side's")
    ax.set_title(f"Tuning the {result['kind']} agent: {result['title']}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
