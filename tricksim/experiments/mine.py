"""Where the agents lose: every decision of chosen seats over many deals valued as ``explain``
values it, and the loss of the action taken against the best, grouped by what kind of decision it
was, the seat's role and the trick.

``mine(game, hands=200, agents="heuristic")`` plays hand ``i`` of ``simulate`` (the same deal and
agents' stream) one step at a time and, at every decision of the chosen ``seats`` where there is a
choice (or a ``sample`` of them), samples ``worlds`` worlds consistent with what the seat knows.
The first half of the worlds names the best action, the second half measures the loss of the
action taken against it: a best action picked and measured on the same worlds would look better
than it is (the most lucky of several means), so the loss is measured where the pick was not made.

From ``solve`` cards in hand on (4 by default) a decision's worlds are solved exactly, as PIMC's
are; before that, and everywhere with ``solve=0``, each world is played out by the heuristic. The
solver sees every card in each world, so its best card often rests on what a seat cannot know,
and rules copied from it have lost against the heuristic. Valued by playouts, the loss is what the
heuristic gives up against itself one decision ahead: rules that take it back where a card is
chosen in the moment have won against the heuristic. A card kept for later it cannot value
(BENCHMARKS.md, the twenty-first session).

The rows (one per decision valued) stream to Parquet and resume as the studies' do; the summary
gives each group's loss per deal, its share of the whole, and the worst decisions, which
``write_mine`` writes as hand records for ``tricksim explain`` and ``tricksim replay``.

>>> import tricksim
>>> rows = mine(tricksim.make_game("nesmear"), hands=2, worlds=8, progress=False)
>>> {"kind", "role", "trick", "taken", "best", "loss"} <= set(rows.columns)
True
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..agents import seat_agents
from ..agents.solver import compiled
from ..errors import OptionError
from ..records import decisions, simulated_record, write_json
from ..sim.batch import check_run, collect_chunks
from ..sim.cluster import check_dask, dask_client, play_chunks
from ..spec import make_game, spec
from .explain import Valuer
from .report import write_report

CHUNK = 8  # deals per chunk: a part of the rows file, a task of a worker
WORLD_STREAM = 1000  # decision d of hand i samples its worlds from the stream (seed, i, WORLD_STREAM + d)
KINDS = ("pick", "bid", "bury", "discard", "call", "trump", "exchange", "lead", "follow")


@dataclass(frozen=True)
class Mining:
    """Everything a mining run's rows depend on."""

    game: str
    options: dict
    hands: int
    seed: int
    agents: tuple[str, ...]
    seats: tuple[int, ...]
    sample: float
    worlds: int
    rollouts: int
    solve: int = 4

    def describe(self) -> str:
        return json.dumps({"mine": asdict(self)}, sort_keys=True)

    def make_game(self):
        return make_game(self.game, **self.options)


def make_mining(game, hands: int, seed: int = 0, agents="heuristic", seats=None, sample: float = 1.0,
                worlds: int = 40, rollouts: int = 1, solve: int = 4) -> Mining:
    """The Mining of ``game`` (a Game), checked: OptionError for a bad count, seat or agent."""
    check_run(hands, seed)
    _, specs = seat_agents(game.name, agents, game.players)
    seats = tuple(range(game.players)) if seats is None else tuple(sorted({int(p) for p in seats}))
    if not seats or not all(0 <= p < game.players for p in seats):
        raise OptionError(f"mine: seats {list(seats)}; the seats are 0..{game.players - 1}")
    if not 0 < sample <= 1:
        raise OptionError(f"mine: sample = {sample!r}; the share of decisions valued, in (0, 1]")
    if isinstance(worlds, bool) or not isinstance(worlds, (int, np.integer)) or worlds < 4:
        raise OptionError(f"mine: worlds = {worlds!r}; a whole number >= 4 (half name the best, half measure)")
    if isinstance(solve, bool) or not isinstance(solve, (int, np.integer)) or solve < 0:
        raise OptionError(f"mine: solve = {solve!r}; the cards in hand from which the worlds are solved, a whole "
                          "number >= 0 (0: heuristic playouts to the end)")
    return Mining(game.name, dict(game.options), int(hands), int(seed), tuple(specs), seats, float(sample),
                  int(worlds), int(rollouts), int(solve))


def decision_kind(state, label: str) -> str:
    """What kind of decision ``label`` is at ``state``: the game's pick or bid, bury, discard,
    call, trump, exchange, lead or follow."""
    if int(state.array[state.game.kernels.PHASE]) == 0:
        return spec(state.game.name).decision or "bid"
    verb = label.partition(" ")[0]
    if verb == "play":
        return "lead" if int(state.array[state.game.kernels.IN_TRICK]) == 0 else "follow"
    return {"done": "discard", "alone": "call", "under": "call"}.get(verb, verb)


def role(state, seat: int) -> str:
    """The seat's part in the hand, every card visible: the picker or bidder, his partner or team,
    a defender; the bidding before it is decided; "player" where every seat bids for itself."""
    game, s = state.game, state.array
    decider = spec(game.name).decider
    slot = getattr(game.kernels, decider.upper(), None) if decider else None
    if slot is None:
        return "player"
    if int(s[game.kernels.PHASE]) == 0:
        return f"before the {spec(game.name).decision}"
    who = int(s[slot])
    if who < 0:
        return "no " + decider
    if who == seat:
        return decider
    sides = compiled(game.family).sides_agree
    return "partner" if sides(game.family, np.ascontiguousarray(s), seat, who) else "defender"


_valuers: dict[tuple, Valuer] = {}


def play_chunk(mining: Mining, first: int, count: int) -> pd.DataFrame:
    """The rows of deals ``first .. first + count - 1`` of ``mining``: one per decision valued."""
    game = mining.make_game()
    key = (mining.game, json.dumps(mining.options, sort_keys=True))
    valuer = _valuers.get(key) or _valuers.setdefault(key, Valuer(game))
    half = mining.worlds // 2
    rows = []
    for hand in range(first, first + count):
        record = simulated_record(game, mining.seed, hand, list(mining.agents))
        rng = np.random.default_rng([mining.seed, hand, 7])
        for d, (state, taken) in enumerate(decisions(record), 1):
            seat = state.current_player
            if seat not in mining.seats or len(state.legal_actions()) < 2 or rng.random() >= mining.sample:
                continue
            labels, values, _, _ = valuer.table(state, mining.worlds, mining.seed, mining.rollouts, mining.solve,
                                             stream=(hand, WORLD_STREAM + d))
            pick, measure = values[:half], values[half:]
            best = int(np.argmax(pick.mean(axis=0)))
            i = labels.index(taken)
            loss = measure[:, best] - measure[:, i]
            rows.append({"hand": hand, "decision": d, "seat": seat, "kind": decision_kind(state, taken),
                         "role": role(state, seat), "trick": len(state.tricks()) + 1,
                         "choices": len(labels), "taken": taken, "best": labels[best],
                         "loss": float(loss.mean()), "loss_se": float(loss.std(ddof=1) / math.sqrt(len(loss))),
                         "taken_value": float(values[:, i].mean()), "best_value": float(values[:, best].mean())})
    return pd.DataFrame(rows, columns=COLUMNS)


COLUMNS = ["hand", "decision", "seat", "kind", "role", "trick", "choices", "taken", "best", "loss", "loss_se",
           "taken_value", "best_value"]


def _chunks(mining: Mining) -> list[tuple[int, int, int]]:
    return [(k, first, min(CHUNK, mining.hands - first)) for k, first in enumerate(range(0, mining.hands, CHUNK))]


def mine(game, hands: int, seed: int = 0, agents="heuristic", seats=None, sample: float = 1.0, worlds: int = 40,
         rollouts: int = 1, solve: int = 4, out=None, dask=None, progress: bool = True, overwrite: bool = False):
    """Value the decisions of ``seats`` (default: all) in ``hands`` deals of ``game`` (a Game) played by
    ``agents`` (see the module): the rows as a DataFrame, or with ``out`` streamed to that Parquet
    file (resumable; another run's file is replaced only with ``overwrite``), whose path is
    returned. ``solve``: the cards in hand from which the worlds are solved (0: played out by the
    heuristic). ``dask``: play the chunks on a Dask cluster ("local" or a scheduler's address)."""
    mining = make_mining(game, hands, seed, agents, seats, sample, worlds, rollouts, solve)
    check_dask(dask)
    todo = _chunks(mining)
    with dask_client(dask) as client:
        return collect_chunks(lambda some: play_chunks(play_chunk, mining, some, client), todo, out,
                              mining.describe(), what="mining", progress=progress, desc=f"{game.name} mine",
                              unit=" deals", overwrite=overwrite)


# --- the summary ------------------------------------------------------------------------------


def summarize_mine(rows: pd.DataFrame, hands: int) -> dict[str, pd.DataFrame]:
    """The loss per deal by kind of decision, by kind and role, and by trick: each group's decisions,
    its loss per decision and per deal (with a 95 % interval) and its share of the losses (of the
    groups whose loss is above zero: a group's measured loss may fall below zero where its agent
    chose as well as the best, and the measurement's noise did the rest)."""
    out = {}
    for name, keys in (("by_kind", ["kind"]), ("by_role", ["kind", "role"]), ("by_trick", ["trick"])):
        g = rows.groupby(keys, observed=True)
        table = pd.DataFrame({"decisions": g.size(), "loss_per_decision": g["loss"].mean(),
                              "loss_per_deal": g["loss"].sum() / hands,
                              "half_width": 1.96 * np.sqrt((g["loss_se"].apply(lambda x: (x ** 2).sum()))) / hands})
        positive = table["loss_per_deal"].clip(lower=0)
        table["share"] = positive / positive.sum() if positive.sum() > 0 else 0.0
        out[name] = table.sort_values("loss_per_deal", ascending=False).reset_index()
    return out


def worst(rows: pd.DataFrame, k: int = 10) -> pd.DataFrame:
    """At most ``k`` decisions that surely lose (the lower 95 % bound of the loss above zero),
    largest bound first."""
    low = rows["loss"] - 1.96 * rows["loss_se"]
    sure = rows.assign(loss_low=low)[low > 0]
    return sure.sort_values("loss_low", ascending=False).head(k).reset_index(drop=True)


def format_mine(rows: pd.DataFrame, mining_text: str, hands: int) -> str:
    """The summary as Markdown: the loss by kind, and the worst decisions."""
    tables = summarize_mine(rows, hands)
    lines = [f"# Where the play loses: {mining_text}", "",
             f"{len(rows):,} decisions valued; the loss of the action taken against the best, in mean hand score "
             f"of the seat: {rows['loss'].sum() / hands:+.3f} a deal in all.", "",
             "| kind | decisions | loss a decision | loss a deal | 95% | share of the losses |",
             "|---|---:|---:|---:|---:|---:|"]
    for r in tables["by_kind"].itertuples():
        lines.append(f"| {r.kind} | {r.decisions:,} | {r.loss_per_decision:+.3f} | {r.loss_per_deal:+.3f} | "
                     f"±{r.half_width:.3f} | {r.share:.0%} |")
    lines += ["", "The decisions that surely lose, the worst first (explain one: "
              "`tricksim explain worst/NN.json --decision D`):", "",
              "| # | deal | decision | seat | kind | role | taken | best | loss |", "|---|---:|---:|---:|---|---|---|---|---:|"]
    for n, r in enumerate(worst(rows).itertuples(), 1):
        lines.append(f"| {n} | {r.hand} | {r.decision} | {r.seat} | {r.kind} | {r.role} | {r.taken} | {r.best} | "
                     f"{r.loss:+.2f} ± {1.96 * r.loss_se:.2f} |")
    return "\n".join(lines)


def write_mine(rows: pd.DataFrame, mining: Mining, out, examples: int = 10) -> list[Path]:
    """Write the tables (CSV), the figure of the loss by kind and role, the page, and the worst
    decisions' hands as records (``worst/NN.json``) into the folder ``out``."""
    out = Path(out)
    game = mining.make_game()
    tables = summarize_mine(rows, mining.hands)
    worst_rows = worst(rows, examples)
    folder = out / "worst"
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for n, r in enumerate(worst_rows.itertuples(), 1):
        path = folder / f"{n:02d}.json"
        write_json(simulated_record(game, mining.seed, int(r.hand), list(mining.agents)), path)
        files.append(str(path.relative_to(out)))
    worst_rows = worst_rows.assign(record=files)
    text = format_mine(rows, f"{mining.hands:,} deals of {game.label}, agents {', '.join(sorted(set(mining.agents)))}",
                       mining.hands)
    return write_report(out, {"by_kind.csv": tables["by_kind"], "by_role.csv": tables["by_role"],
                              "by_trick.csv": tables["by_trick"], "worst.csv": worst_rows},
                        {"loss.png": lambda path: _figure(tables["by_role"], game.label, path)}, "mine.md", text)


def _figure(by_role: pd.DataFrame, title: str, path: Path) -> None:
    """The loss per deal by kind of decision, a bar a kind, split by role."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = by_role.pivot_table(index="kind", columns="role", values="loss_per_deal", aggfunc="sum", fill_value=0.0)
    table = table.loc[table.sum(axis=1).sort_values().index]
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(table) + 1.8))
    left = np.zeros(len(table))
    colours = plt.get_cmap("tab10")
    for k, column in enumerate(table.columns):
        ax.barh(table.index, table[column], left=left, label=column, color=colours(k % 10))
        left += table[column].to_numpy()
    for y, value in enumerate(left):
        ax.text(value, y, f" {value:+.3f}", va="center", fontsize=8)
    ax.set_xlabel("loss a deal (mean hand score of the seat)")
    ax.set_title(f"Where the play loses: {title}")
    ax.legend(title="role", fontsize=8, loc="lower right")
    ax.axvline(0, color="grey", lw=0.8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
