"""A study's policy, and its value measured back in self-play.

A decision study (``study.study``) finds the best action per hand class and position, and each
action's mean score. Its *policy* is that read as a rule: at a pick or bid decision, take the
study's best action for the hand's class and the seat's position ("pick with three trumps from the
dealer's seat, pass from second") where the study found that it beats the agents' own choice (its
lead over the action the agent took, on the same decisions, has its 95 % interval above zero: a
class mixes hands on which the agent's rule may well choose better than any one action). Where
that action is not open, where it does not beat the agent's choice, where the study named no best
(undecided) and where it saw no such hand, the agent decides as usual.

``policy_value`` measures the policy in play, on fresh deals: each seat in turn follows the policy
at its decisions while the others, and that seat's card play, stay with the agents; the seat's
score is set against the same deal played with the agents' own rule throughout (the same random
stream, so the difference is the policy's alone). The gain is per deal and seat, with a 95 %
interval, overall and by position.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import pandas as pd
from numba import literally, types

from ..agents import agent_module, seat_agents, seat_arrays, uses_search
from ..agents.family import choose, deal, hand, legal, phase, record, state_size, step, to_act
from ..agents.solver import MAX_MOVES, write_actions
from ..errors import OptionError
from ..sim import actions as A
from ..sim.batch import check_run
from ..sim.kernels import RNG_SIZE, seed_stream
from .best import best_keys
from .classes import class_columns, resolve_classes
from .stats import mean_interval
from .summary import position_name


@nb.njit(cache=True)
def policy_play(family, seed, players, options, kinds, params, groups, values, records, dealt_out):
    """Play hands ``0 .. len(groups) - 1``: at a first-phase decision of seat ``p`` with
    ``groups[i, p] >= 0``, the legal action with the largest ``values[groups[i, p]]`` (NaN: not
    known); every other action the seat's agent's. Writes each hand's record and dealt hands."""
    literally(family)
    s, dealt = np.empty(state_size(family), np.int64), np.empty(state_size(family), np.int64)
    rng = np.zeros(RNG_SIZE, np.uint64)
    deal_rng = np.zeros(RNG_SIZE, np.uint64)
    actions = np.empty(MAX_MOVES, np.int64)
    for i in range(groups.shape[0]):
        deal(family, s, seed, i, players, options, deal_rng)
        dealt[:] = s
        for p in range(players):
            dealt_out[i, p] = hand(family, s, p)
        seed_stream(rng, seed, i, 1)
        while to_act(family, s) >= 0:
            seat = to_act(family, s)
            a = -1
            g = groups[i, seat]
            if g >= 0 and phase(family, s) == 0:
                words, cards, kind = legal(family, s)
                best = -np.inf
                for j in range(write_actions(words, cards, kind, actions)):
                    v = values[g, actions[j]]
                    if v == v and v > best:  # NaN: an action the study never saw here
                        best, a = v, actions[j]
            if a < 0:
                a = choose(family, s, kinds[seat], params[seat], rng)
            step(family, s, a)
        record(family, s, dealt, records, i)


def _play(game, seed, kinds, params, groups, values):
    """The records (a DataFrame as ``simulate`` gives) and dealt hands of the deals of ``groups``."""
    family = game.family
    kernel = policy_play.compile((types.literal(family), types.int64, types.int64, types.int64[::1],
                                  types.int64[::1], types.float64[:, ::1], types.int64[:, ::1],
                                  types.float64[:, ::1], types.int64[:, ::1], types.int64[:, ::1]))
    record, features = game.kernels.RECORD, agent_module(game.name).FEATURES
    records = np.empty((len(groups), len(record) + len(features)), np.int64)
    dealt = np.empty((len(groups), game.players), np.int64)
    kernel(family, seed, game.players, game.option_array, kinds, params, groups, values, records, dealt)
    df = game.frame(records[:, :len(record)], seed, 0)
    for k, name in enumerate(features):  # as simulate gives them: a class may read them (Bluke's)
        df[name] = records[:, len(record) + k].astype(np.int8)
    return df, dealt


AGENT = "(agent)"  # a class and position where the policy leaves the decision to the agent


def followed(best: pd.DataFrame) -> pd.Series:
    """Which rows of a study's ``best`` table the policy follows: a best action named that beats
    the agents' own choice (``over_agent_low`` above zero; a table without ``over_agent``, made by
    hand, every best named)."""
    named = best["best"].notna()
    if "over_agent" not in best.columns:
        return named
    return named & (best["over_agent"].isna() | (best["over_agent_low"] > 0))


def policy_table(best: pd.DataFrame) -> pd.DataFrame:
    """The policy of a study's ``best`` table laid out for reading: the action it takes for each
    hand class (rows) and position from the dealer (columns), ``(agent)`` where it leaves the
    decision to the agent."""
    keys = best_keys(best)
    best = best.assign(best=best["best"].where(followed(best), AGENT))
    if keys == ["position"]:
        return best.set_index("position")[["best"]].T.rename(index={"best": "all hands"})
    return best.pivot(index=keys[:-1], columns="position", values="best")


def check_policy_run(game, hands: int, seed: int, agents) -> tuple[np.ndarray, np.ndarray]:
    """The seats' ``(kinds, params)`` for ``policy_value``; OptionError for bad arguments."""
    check_run(hands, seed)
    seated, _ = seat_agents(game.name, agents, game.players)
    if uses_search(seated):
        raise OptionError("a policy's value is measured with random or heuristic agents")
    return seat_arrays(game.name, seated)


def policy_value(game, result: dict, hands: int, seed: int, agents="heuristic", classes=None) -> dict:
    """The value of the policy of a study's ``result`` (its ``table`` and ``best``) against the
    agents' own rule, on ``hands`` deals of ``game`` from ``seed`` (choose a seed other than the
    study's: the policy was fitted to those deals). ``classes``: the study's, when they are not the
    game's named classes.

    Returns ``hands``, ``seed``, ``agents``, ``gain`` (the mean score a seat gains per deal by
    following the policy, ``(mean, low, high)``), ``changed`` (the share of seat-deals whose score
    the policy changed) and ``by_position`` (the gain per position from the dealer)."""
    kinds, params = check_policy_run(game, hands, seed, agents)
    table, best = result["table"], result["best"]
    keys = list(table.columns[:list(table.columns).index("action")])
    classes = resolve_classes(game.name, keys[:-1] if classes is None else classes)
    values, index = _values(table, best, keys)
    none = np.full((hands, game.players), -1, np.int64)
    base, dealt = _play(game, seed, kinds, params, none, values)
    # one row per deal and seat, as a study's rows: the seat's dealt hand, seat, position, the deal
    seats = base.loc[base.index.repeat(game.players)].reset_index(drop=True)
    seats["seat"] = np.tile(np.arange(game.players), hands)
    seats["position"] = (seats["seat"] - seats["dealer"]) % game.players
    seats["cards"] = dealt.ravel()
    keyed = class_columns(seats, game.name, classes).assign(position=seats["position"])
    groups_all = keyed.merge(index, how="left", on=keys)["group"].fillna(-1).to_numpy(np.int64)
    groups_all = groups_all.reshape(hands, game.players)
    position = seats["position"].to_numpy().reshape(hands, game.players)
    gains = np.empty((hands, game.players))
    for seat in range(game.players):
        groups = none.copy()
        groups[:, seat] = groups_all[:, seat]
        played, _ = _play(game, seed, kinds, params, groups, values)
        gains[:, seat] = played[f"score_{seat}"].to_numpy(np.float64) - base[f"score_{seat}"].to_numpy(np.float64)
    by_position = [(p, *mean_interval(gains[position == p])) for p in range(game.players)]
    return {"game": game.label, "agents": agents, "hands": hands, "seed": seed,
            "gain": mean_interval(gains.mean(axis=1)), "changed": float((gains != 0).mean()),
            "by_position": pd.DataFrame(by_position, columns=["position", "gain", "low", "high"])}


def _values(table: pd.DataFrame, best: pd.DataFrame, keys: list) -> tuple[np.ndarray, pd.DataFrame]:
    """``values[g, action id]`` of each class and position ``g`` (1 for the best action the policy
    follows, NaN for every other: the agent decides) and the group ``g`` of each class and position."""
    index = table[keys].drop_duplicates().reset_index(drop=True)
    index["group"] = np.arange(len(index))
    values = np.full((len(index), A.NUM_ACTIONS), np.nan)
    tops = best[followed(best)].merge(index, on=keys)
    values[tops["group"].to_numpy(), _ids(tops["best"])] = 1.0
    return values, index


def _ids(labels: pd.Series) -> np.ndarray:
    return np.array([A.parse_action(str(a)) for a in labels], dtype=np.int64)


def format_policy(best: pd.DataFrame, value: dict | None = None) -> str:
    """The policy of a study's ``best`` table as Markdown and, given ``policy_value``'s result, its
    value in play."""
    policy = policy_table(best)
    lines = ["Policy: the action it takes by hand class (rows) and position from the dealer (columns): the best "
             f"action where it beats the agents' own choice, else {AGENT}, the agent's own rule:", "",
             "| " + " | ".join([policy.index.name or ""] + [position_name(c) for c in policy.columns]) + " |",
             "|" + "---|" * (len(policy.columns) + 1)]
    for label, row in policy.iterrows():
        lines.append("| " + " | ".join([str(label)] + ["" if pd.isna(v) else str(v) for v in row]) + " |")
    if value is not None:
        mean, low, high = value["gain"]
        lines += ["", f"Its value against the agents' own rule ({value['agents']}) on {value['hands']:,} fresh deals "
                      f"(seed {value['seed']}): a seat following it gains {mean:+.3f} [{low:+.3f}, {high:+.3f}] per "
                      f"deal; it changed the seat's score on {value['changed']:.1%} of its deals.", "",
                  "| position | gain per deal |", "|---|---|"]
        for r in value["by_position"].itertuples(index=False):
            lines.append(f"| {position_name(r.position)} | {r.gain:+.3f} [{r.low:+.3f}, {r.high:+.3f}] |")
    return "\n".join(lines)
