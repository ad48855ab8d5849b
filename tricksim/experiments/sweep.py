"""Parameter sweeps: which value of an agent's parameter plays best, from which seat?

For each value, each seat in turn plays with the parameter set to it while the other seats keep the
base agent, on the same deals (the same random streams); the seat's score is set against that same
deal with every seat at the base agent. The gain per deal, with a 95 % interval, is reported
overall and per position from the dealer, so a per-seat setting (Sheepshead's picking threshold
from each seat) reads straight off the table. A value equal to the base agent's gains exactly 0.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..agents import Agent, agent_module, agent_name, seat_agents
from ..errors import OptionError
from ..sim.batch import check_run, simulate
from .report import MARKERS, write_report
from .stats import mean_interval
from .summary import position_name


def sweep(game, param: str, values, hands: int = 10_000, seed: int = 0, agent="heuristic", workers: int = 1,
          opponents=None) -> dict:
    """Sweep ``param`` of ``agent`` (a heuristic spec, the base) over ``values`` on ``hands`` deals;
    ``opponents``: the agent of the other seats (any agent, a bot of the user's own too; default the
    base agent), against which the seat's variant is set beside the base agent.

    Returns ``table`` (value, position — ``"all"`` for every position — deals, gain, low,
    high) and ``best`` (per position the value with the largest gain, its interval, and the values
    whose interval reaches the best's mean: the ones the sweep cannot tell apart from it)."""
    check_run(hands, seed)
    (base,), _ = seat_agents(game.name, agent, 1)
    defaults = {name: default for name, default, _ in agent_module(game.name).PARAMS}
    names = list(defaults)
    if base.name != "heuristic" or param not in names:
        raise OptionError(f"sweep {param!r} of {agent!r}: sweep a parameter of the heuristic agent, one of "
                          f"{', '.join(names)}")
    values = [float(v) for v in values]
    if not values or len(set(values)) != len(values):
        raise OptionError(f"values {values}: give one value or more, each once")
    players = game.players
    others = str(base) if opponents is None else agent_name(opponents)
    seat_agents(game.name, others, 1)  # checked before any play

    def table(seat_agent: str, seat: int) -> list[str]:
        return [seat_agent if p == seat else others for p in range(players)]

    if others == str(base):  # every seat the base: one run is every seat's baseline
        before = [simulate(game, hands, seed, str(base), workers, progress=False)] * players
    else:
        before = [simulate(game, hands, seed, table(str(base), seat), workers, progress=False)
                  for seat in range(players)]
    position = (np.arange(players)[None, :] - before[0]["dealer"].to_numpy()[:, None]) % players
    rows = []
    for value in values:
        variant = str(Agent("heuristic", {**base.params, param: value}))
        gains = np.empty((hands, players))
        for seat in range(players):
            after = simulate(game, hands, seed, table(variant, seat), workers, progress=False)
            gains[:, seat] = (after[f"score_{seat}"].to_numpy(np.float64)
                              - before[seat][f"score_{seat}"].to_numpy(np.float64))
        rows.append((value, "all", hands, *mean_interval(gains.mean(axis=1))))
        rows += [(value, p, int((position == p).sum()), *mean_interval(gains[position == p])) for p in range(players)]
    table = pd.DataFrame(rows, columns=["value", "position", "deals", "gain", "low", "high"])
    best = []
    for p, group in table.groupby("position", sort=False):
        top = group.loc[group["gain"].idxmax()]
        tied = group.loc[group["high"] >= top["gain"], "value"].tolist()
        best.append((p, top["value"], top["gain"], top["low"], top["high"], tied))
    best = pd.DataFrame(best, columns=["position", "best", "gain", "low", "high", "indistinguishable"])
    return {"game": game.label, "agent": str(base), "opponents": others, "param": param, "hands": hands, "seed": seed,
            "base": float(base.params.get(param, defaults[param])), "table": table, "best": best}


def _title(result: dict) -> str:
    against = "" if result.get("opponents", result["agent"]) == result["agent"] else f" against {result['opponents']}"
    return f"{result['game']}, {result['param']} of {result['agent']}{against}, {result['hands']:,} deals"


def format_sweep(result: dict) -> str:
    """The sweep as Markdown: the best value per position, then every value's gain."""
    lines = [f"# Sweep: {_title(result)}", "",
             "Best value per position from the dealer: the mean score a seat gains per deal "
             "with it, against the base agent on the same deals, 95 % interval; the values the sweep cannot tell "
             "from it (their interval reaches its gain):", "",
             "| position | best | gain | indistinguishable |", "|---|---|---|---|"]
    for r in result["best"].itertuples(index=False):
        lines.append(f"| {_position(r.position)} | {r.best:g} | {r.gain:+.3f} [{r.low:+.3f}, {r.high:+.3f}] | "
                     f"{', '.join(f'{v:g}' for v in r.indistinguishable)} |")
    lines += ["", "| value | position | deals | gain |", "|---|---|---|---|"]
    for r in result["table"].itertuples(index=False):
        lines.append(f"| {r.value:g} | {_position(r.position)} | {r.deals:,} | "
                     f"{r.gain:+.3f} [{r.low:+.3f}, {r.high:+.3f}] |")
    return "\n".join(lines)


def _position(position) -> str:
    return position if position == "all" else position_name(position)


def plot_sweep(result: dict, path) -> None:
    """Save the sweep curves (the gain of each value, a line per position and a thick one for all,
    the 95 % interval shaded, the base agent's value marked) as a PNG at ``path``."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    fig = Figure(figsize=(7, 4.2), layout="constrained")
    ax = fig.subplots()
    for k, (position, group) in enumerate(result["table"].groupby("position", sort=False)):
        overall = position == "all"
        label = "all positions" if overall else position_name(position)
        line, = ax.plot(group["value"], group["gain"], marker="o" if overall else MARKERS[k % len(MARKERS)],
                        lw=2.5 if overall else 1.2, color="black" if overall else None, label=label)
        ax.fill_between(group["value"], group["low"], group["high"], color=line.get_color(), alpha=0.15)
    ax.axhline(0, color="grey", lw=0.8)
    base = result.get("base")
    if base is not None:
        ax.axvline(base, color="grey", ls="--", lw=1)
        ax.annotate(f"base {base:g}", (base, 1), xycoords=("data", "axes fraction"), xytext=(3, -12),
                    textcoords="offset points", fontsize=8, color="dimgrey")
    if all(float(v).is_integer() for v in result["table"]["value"]):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(result["param"])
    ax.set_ylabel("gain per deal against the base agent (score)")
    ax.legend(fontsize=8, title="position from the dealer", title_fontsize=8)
    ax.set_title(f"Sweep: {_title(result)}", fontsize=9)
    fig.savefig(path, dpi=120)


def write_sweep(result: dict, out) -> list:
    """Write ``sweep.csv``, ``best.csv``, ``sweep.png`` and ``sweep.md`` into the folder ``out``."""
    return write_report(out, {"sweep.csv": result["table"], "best.csv": result["best"]},
                        {"sweep.png": lambda path: plot_sweep(result, path)}, "sweep.md", format_sweep(result))
